//! Games in play on the server: each carried out by a headless copy of the game (the same
//! `game::execute` the client uses), rebuilt from the database's log when first needed. A few
//! worker threads own them (a Bevy app stays on its thread); a game always goes to the same
//! worker, so its orders are carried out and committed one after another. With several server
//! processes on one PostgreSQL, a worker takes a game's claim (`claims`) before it carries out
//! anything of that game, and lets it go when another process asks for it.
//!
//! Inside: `world` reads facts off a game's world; `memory` brings games in and lets them go;
//! `chain` holds an order that rolls for its hash-chain link (a game hosted by one of its players).

mod chain;
mod memory;
mod world;

use super::claims::Claims;
use super::hub::{Event, Hub};
use super::store::{GameRow, SeatRow, Store};
use crate::ai::{ComputerPlayer, side_to_act};
use crate::game::dice_proof::DiceProof;
use crate::game::execute::{execute, issuer};
use crate::game::log::{LogEntry, OrderLog};
use crate::game::order::{IssuedOrder, Order};
use crate::game::order_options::{OrderOptions, order_options};
use bevy::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;
use world::{committed, ended, is_over, no_seat};
pub use world::{forget_narration, game_seed, newly_revealed};

/// What a worker is asked to do.
pub enum Job {
    /// Carry out the order waiting for a link (hash-chained dice) with `link`, the next of
    /// `player`'s chain, if it is entry `index`.
    Link {
        game: String,
        player: String,
        index: usize,
        link: String,
        reply: oneshot::Sender<Result<usize, Refusal>>,
    },
    /// Carry out `order` for `player` when the log has `expect` entries.
    Order {
        game: String,
        player: String,
        expect: usize,
        order: Order,
        reply: oneshot::Sender<Result<usize, Refusal>>,
    },
    /// The log so far (empty while a seat is free), after letting the computer play if it is
    /// its turn.
    Log {
        game: String,
        reply: oneshot::Sender<Result<LogSnapshot, String>>,
    },
    /// The orders the game takes now, with the log's length, and whether they are `player`'s
    /// to give.
    Options {
        game: String,
        player: Option<String>,
        reply: oneshot::Sender<Result<(usize, bool, OrderOptions), String>>,
    },
    /// The game as a saved game, with its dice proof (once it has ended).
    Saved {
        game: String,
        reply: oneshot::Sender<Result<crate::game::save::SavedGame, String>>,
    },
    /// Take back `player`'s last order when the log has `expect` entries: the log's new length.
    Undo {
        game: String,
        player: String,
        expect: usize,
        reply: oneshot::Sender<Result<usize, Refusal>>,
    },
    /// `side` let the game's time per turn lapse on the wait since `since`, and the game was made
    /// so that this concedes it: concede for it, if the game still waits for it since then.
    Lapse { game: String, side: String, since: i64 },
    /// Another server process asks for the game: let its claim go (the copy in memory stays, to
    /// be brought up to date if the game comes back).
    Release { game: String },
}

/// A game's log as it stands, and how it ended (winner, why, the server's secret) if it has.
#[derive(Clone, Debug, Default)]
pub struct LogSnapshot {
    pub entries: Vec<LogEntry>,
    /// When each entry was made (milliseconds since 1970; 0 before the server kept it).
    pub times: Vec<i64>,
    /// The game's turn now.
    pub turn: u32,
    pub ended: Option<(Option<String>, String, String)>,
    /// An order waiting for the chain holder's link (hash-chained dice).
    pub link_wanted: Option<super::hub::LinkWanted>,
}

/// Why an order was not carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The rules (or the seat) refuse it: the game is unchanged.
    Refused(String),
    /// The server could not carry it out (the database): nothing was recorded.
    Failed(String),
    /// It is fixed as entry `.0` and rolls dice: it waits for the link of the player holding the
    /// game's hash chain (hash-chained dice), and its entry comes when that arrives.
    Held(usize),
}

/// The worker threads.
#[derive(Clone)]
pub struct Workers {
    senders: Vec<mpsc::Sender<Job>>,
}

impl Workers {
    /// Starts `n` workers that record in `store` (through the runtime `handle`) and announce on
    /// `hub`; a game nobody touched for `idle` leaves memory (it is rebuilt from the database
    /// when next asked for).
    pub fn start(n: usize, store: Store, hub: Hub, handle: tokio::runtime::Handle, idle: Duration) -> Self {
        Self::start_claiming(n, store, hub, handle, idle, None)
    }

    /// `start`, taking each game's claim from `claims` (several processes on one database)
    /// before carrying it out.
    pub fn start_claiming(
        n: usize,
        store: Store,
        hub: Hub,
        handle: tokio::runtime::Handle,
        idle: Duration,
        claims: Option<Arc<Claims>>,
    ) -> Self {
        let senders = (0..n.max(1))
            .map(|i| {
                let (tx, rx) = mpsc::channel();
                let (store, hub, handle, claims) = (store.clone(), hub.clone(), handle.clone(), claims.clone());
                std::thread::Builder::new()
                    .name(format!("hexfront-games-{i}"))
                    .spawn(move || {
                        // The games' apps are made and kept on this thread.
                        let mut worker = Worker {
                            store,
                            hub,
                            handle,
                            games: HashMap::new(),
                            claims,
                            jobs: rx,
                            backlog: Default::default(),
                        };
                        worker.work(idle);
                    })
                    .expect("a worker thread starts");
                tx
            })
            .collect();
        Self { senders }
    }

    /// Hands `job` to the worker that owns its game.
    pub fn send(&self, game: &str, job: Job) {
        let i = (blake3::hash(game.as_bytes()).as_bytes()[0] as usize) % self.senders.len();
        let _ = self.senders[i].send(job);
    }
}

/// A game in play.
struct LiveGame {
    app: App,
    row: GameRow,
    seats: Vec<SeatRow>,
    side_ids: Vec<String>,
    computers: HashMap<usize, ComputerPlayer>,
    seed: u64,
    last_used: Instant,
    /// When each entry was made.
    times: Vec<i64>,
    /// The hash chain mixed into the dice (a game hosted by one of its players).
    chain: Option<chain::Chain>,
}

struct Worker {
    store: Store,
    hub: Hub,
    handle: tokio::runtime::Handle,
    games: HashMap<String, LiveGame>,
    /// This process's claims on games, when several processes share the database.
    claims: Option<Arc<Claims>>,
    jobs: mpsc::Receiver<Job>,
    /// Jobs taken from `jobs` while waiting for a claim, to carry out next.
    backlog: std::collections::VecDeque<Job>,
}

/// Orders the computer may give in a row before the server stops to look (a guard).
const MAX_COMPUTER_ORDERS: usize = 5_000;

/// A job that takes longer than this is reported on standard error (the operator's sign that
/// the server is overloaded, or that a game is slow to carry out).
const SLOW_JOB: Duration = Duration::from_millis(500);

impl Job {
    /// What it is, and for which game (to name it in reports).
    fn name(&self) -> (&'static str, &str) {
        match self {
            Job::Link { game, .. } => ("a chain link", game),
            Job::Order { game, .. } => ("an order", game),
            Job::Log { game, .. } => ("reading the log", game),
            Job::Options { game, .. } => ("the orders it takes", game),
            Job::Saved { game, .. } => ("the saved game", game),
            Job::Undo { game, .. } => ("an undo", game),
            Job::Lapse { game, .. } => ("a lapsed turn", game),
            Job::Release { game } => ("letting it go", game),
        }
    }
}

impl Worker {
    /// Carries out the jobs that come, one after another, and lets idle games go now and then.
    fn work(&mut self, idle: Duration) {
        let sweep = idle.clamp(Duration::from_millis(1), Duration::from_secs(30));
        let mut swept = Instant::now();
        loop {
            let next = match self.backlog.pop_front() {
                Some(job) => Ok(job),
                None => self.jobs.recv_timeout(sweep),
            };
            match next {
                Ok(job) => {
                    let (what, game) = job.name();
                    let (what, game) = (what, game.to_string());
                    let began = Instant::now();
                    // A panic in a game (a bug) must not end the worker: its games leave memory,
                    // to be rebuilt from the database.
                    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.run(job)));
                    if ran.is_err() {
                        self.forget(|_| true);
                    }
                    let took = began.elapsed();
                    if took > SLOW_JOB {
                        eprintln!("game `{game}`: {what} took {} ms", took.as_millis());
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
            if swept.elapsed() >= sweep {
                swept = Instant::now();
                // An order waiting for a link keeps its game in memory.
                self.forget(|g| g.last_used.elapsed() >= idle && g.chain.as_ref().is_none_or(|c| c.pending.is_none()));
            }
        }
    }

    fn run(&mut self, job: Job) {
        match job {
            Job::Order {
                game,
                player,
                expect,
                order,
                reply,
            } => {
                let out = self.order_or_again(&game, &player, expect, order);
                let accepted = out.is_ok();
                let _ = reply.send(out);
                if accepted {
                    self.computer_turns(&game);
                }
            }
            Job::Log { game, reply } => {
                let out = self.log(&game);
                let _ = reply.send(out);
            }
            Job::Options { game, player, reply } => {
                let out = self.options(&game, player.as_deref());
                let _ = reply.send(out);
            }
            Job::Saved { game, reply } => {
                let out = self.saved(&game);
                let _ = reply.send(out);
            }
            Job::Lapse { game, side, since } => self.lapse(&game, &side, since),
            Job::Release { game } => self.let_go(&game),
            Job::Link {
                game,
                player,
                index,
                link,
                reply,
            } => {
                let out = self.link(&game, &player, index, link);
                let _ = reply.send(out);
            }
            Job::Undo {
                game,
                player,
                expect,
                reply,
            } => {
                let out = self.undo(&game, &player, expect);
                let _ = reply.send(out);
            }
        }
    }

    /// Takes back the last order of `player`'s side, as undo does in a local game; the game
    /// leaves memory and is rebuilt from the database's shorter log.
    fn undo(&mut self, id: &str, player: &str, expect: usize) -> Result<usize, Refusal> {
        let refuse = |why: String| Err(Refusal::Refused(why));
        let Some(game) = self.live(id).map_err(Refusal::Refused)? else {
            return refuse(format!("game `{id}` waits for a player to take its free seat"));
        };
        if !game.seats.iter().any(|s| s.player.as_deref() == Some(player)) {
            return refuse(no_seat(id));
        }
        let world = game.app.world();
        let log = &world.resource::<OrderLog>().entries;
        if expect != log.len() {
            return refuse(format!(
                "the log has {} entries, not {expect}: catch up first",
                log.len()
            ));
        }
        if is_over(world) {
            return refuse("the game is over".into());
        }
        if let Some(p) = game.chain.as_ref().and_then(|c| c.pending.as_ref()) {
            return refuse(format!(
                "entry {} waits for its chain link: nothing can be taken back until it comes",
                p.index
            ));
        }
        crate::game::undo::can_undo(world).map_err(Refusal::Refused)?;
        let last = &log[log.len() - 1];
        let mine = game
            .seats
            .iter()
            .any(|s| s.player.as_deref() == Some(player) && game.side_ids.get(s.side) == Some(&last.side));
        if !mine {
            return refuse(format!(
                "the last order is {}'s: only that side may take it back",
                last.side
            ));
        }
        let index = log.len() - 1;
        // The turn the game is back in: the one the order taken back was given in.
        let turn = last.when.turn;
        let at = game.times.get(index).copied().unwrap_or_default();
        self.block(self.store.remove_last_entry(id, index, at))
            .map_err(Refusal::Failed)?;
        self.games.remove(id);
        self.hub.publish(id, Event::Undone { index, turn });
        Ok(index)
    }

    /// Concedes for `side` if the game still waits for it since `since`, and tells the game's
    /// followers of the lapse (whether it conceded) first.
    fn lapse(&mut self, id: &str, side: &str, since: i64) {
        let Ok(Some(game)) = self.live(id) else { return };
        let still = game.row.waiting.as_ref() == Some(&(side.to_string(), since)) && !is_over(game.app.world());
        let waited = u64::try_from((super::store::now() - since) / 1000).unwrap_or(0);
        let lapsed = Event::Lapsed {
            side: side.to_string(),
            waited,
            conceded: still,
        };
        self.hub.publish(id, lapsed);
        if still && let Err(e) = self.carry_out(id, IssuedOrder::new(side.to_string(), Order::Concede)) {
            eprintln!("game `{id}`: {side} let its time lapse but could not concede: {e:?}");
        }
    }

    fn block<T>(&self, f: impl std::future::Future<Output = T>) -> T {
        self.handle.block_on(f)
    }

    fn order(&mut self, id: &str, player: &str, expect: usize, order: Order) -> Result<usize, Refusal> {
        let refuse = |why: String| Err(Refusal::Refused(why));
        let Some(game) = self.live(id).map_err(Refusal::Refused)? else {
            return refuse(format!("game `{id}` waits for a player to take its free seat"));
        };
        // Before anything that tells how the game stands (observers may be held back).
        if !game.seats.iter().any(|s| s.player.as_deref() == Some(player)) {
            return refuse(no_seat(id));
        }
        if let Some(p) = game.chain.as_ref().and_then(|c| c.pending.as_ref())
            && order != Order::Concede
        {
            // The same order sent again is held still; any other waits for the link too.
            let giver = game.side_ids.iter().position(|s| *s == p.issued.side);
            let gave = giver.and_then(|s| game.seats.get(s)).and_then(|s| s.player.as_deref()) == Some(player);
            if gave && p.index == expect && p.issued.order == order {
                return Err(Refusal::Held(p.index));
            }
            return refuse(format!(
                "entry {} waits for {}'s chain link (hash-chained dice): that player's client must be connected",
                p.index, p.asked.holder
            ));
        }
        let log = &game.app.world().resource::<OrderLog>().entries;
        if expect < log.len() {
            // Sent again after a lost connection: the same order from the same side is the one
            // already recorded.
            let recorded = &log[expect];
            let same_seat = game
                .seats
                .iter()
                .any(|s| s.player.as_deref() == Some(player) && game.side_ids.get(s.side) == Some(&recorded.side));
            if same_seat && recorded.order == order {
                return Ok(expect);
            }
            return refuse(format!(
                "the log has {} entries, not {expect}: another order came first (catch up and look again)",
                log.len()
            ));
        }
        if expect > log.len() {
            return refuse(format!("the log has only {} entries, not {expect}", log.len()));
        }
        let side = match issuer(game.app.world(), &order) {
            Ok(Some((side, _))) => side,
            // Conceding is any seated player's, for their own side.
            Ok(None) if order == Order::Concede => {
                match game.seats.iter().find(|s| s.player.as_deref() == Some(player)) {
                    Some(seat) => seat.side,
                    None => return refuse("only a seated player may concede, for their own side".into()),
                }
            }
            Ok(None) => return refuse("the game is not waiting for an order".into()),
            Err(why) => return refuse(why),
        };
        if game.seats.get(side).and_then(|s| s.player.as_deref()) != Some(player) {
            return refuse(format!(
                "it is {}'s order to give, and you do not hold that seat",
                game.side_ids.get(side).map_or("?", String::as_str)
            ));
        }
        let side_id = game.side_ids[side].clone();
        self.carry_out(id, IssuedOrder::new(side_id, order))
    }

    /// `order`, and once more when its commit failed and the game left memory: the database may
    /// hold more than memory did (a process killed while committing an entry may still have
    /// committed it), so the game is rebuilt from there and the order answered as a resend would
    /// be; the followers read the log again for what nobody announced.
    fn order_or_again(&mut self, id: &str, player: &str, expect: usize, order: Order) -> Result<usize, Refusal> {
        let out = self.order(id, player, expect, order.clone());
        if !matches!(out, Err(Refusal::Failed(_))) || self.games.contains_key(id) {
            return out;
        }
        let again = self.order(id, player, expect, order);
        if !self.games.contains_key(id) {
            // Not rebuilt (the database is away): the failure stands.
            return out;
        }
        // What the log holds past what was told is told now.
        self.hub.publish(id, Event::Behind);
        again
    }

    /// Carries out one order, commits its entry and announces it. A failed commit drops the
    /// game from memory (the database holds the truth; it is rebuilt from there).
    fn carry_out(&mut self, id: &str, issued: IssuedOrder) -> Result<usize, Refusal> {
        let gone = || Refusal::Failed(format!("game `{id}` left memory; send the order again"));
        let game = self.games.get_mut(id).ok_or_else(gone)?;
        let index = execute(game.app.world_mut(), issued.clone()).map_err(|r| Refusal::Refused(r.reason))?;
        // With hash-chained dice, an order that rolled waits for its link.
        self.hold_for_link(id, index, &issued)?;
        let game = self.games.get_mut(id).ok_or_else(gone)?;
        if let Some(chain) = &mut game.chain {
            chain.pending = None;
        }
        // What the game said while carrying it out is not sent nor saved (each client narrates
        // for itself): the server keeps none of it, so a live game stays small.
        forget_narration(game.app.world_mut());
        let at = super::store::now();
        let done = committed(game.app.world(), &game.side_ids, &game.row.secret, index, at);
        let (text, ended) = (serde_json::to_string(&done.entry), done.ended.is_some());
        let committed = match text {
            Ok(text) => self.block(self.store.append_entry(id, index, &text, at)),
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = committed {
            // Memory is ahead of the database: drop the game, rebuilt from the database.
            self.games.remove(id);
            return Err(Refusal::Failed(e));
        }
        let mut game = self.games.remove(id).ok_or_else(gone)?;
        game.times.push(at);
        let waiting = self.note_waiting(&mut game, at);
        self.games.insert(id.to_string(), game);
        if let Err(e) = waiting {
            // The clock of the time per turn lags; the order stands.
            eprintln!("game `{id}`: {e}");
        }
        if ended && let Err(e) = self.block(self.store.set_ended(id)) {
            // The log holds the end (a rebuilt game is over); only the game list lags.
            eprintln!("game `{id}` ended but was not marked so: {e}");
        }
        self.hub.announce(id, done);
        Ok(index)
    }

    /// Lets the server's computer players give their orders while the game waits for them.
    fn computer_turns(&mut self, id: &str) {
        for _ in 0..MAX_COMPUTER_ORDERS {
            let Some(game) = self.games.get_mut(id) else { return };
            let world = game.app.world_mut();
            let Some(side) = side_to_act(world) else { return };
            let Some(player) = game.computers.get_mut(&side) else {
                return;
            };
            let Some(order) = player.next_order(world) else { return };
            let side_id = game.side_ids[side].clone();
            match self.carry_out(id, IssuedOrder::new(side_id.clone(), order)) {
                Ok(_) => {}
                // Not recorded: the game left memory; the next message rebuilds it and goes on.
                // Or held for a chain link (no game with a computer chains its dice).
                Err(Refusal::Failed(_) | Refusal::Held(_)) => return,
                // A refused computer order is a bug in the player: end its phase rather than stop.
                Err(Refusal::Refused(_)) => {
                    if self.carry_out(id, IssuedOrder::new(side_id, Order::EndPhase)).is_err() {
                        return;
                    }
                }
            }
        }
    }

    fn log(&mut self, id: &str) -> Result<LogSnapshot, String> {
        if self.readable(id)?.is_none() {
            return Ok(LogSnapshot::default());
        }
        self.computer_turns(id);
        let game = self.still_in_memory(id)?;
        let world = game.app.world();
        Ok(LogSnapshot {
            entries: world.resource::<OrderLog>().entries.clone(),
            times: game.times.clone(),
            turn: world.resource::<crate::game::phase::TurnState>().turn,
            ended: ended(world, &game.side_ids).map(|(w, r)| (w, r, game.row.secret.clone())),
            link_wanted: game
                .chain
                .as_ref()
                .and_then(|c| Some(c.pending.as_ref()?.asked.clone())),
        })
    }

    fn options(&mut self, id: &str, player: Option<&str>) -> Result<(usize, bool, OrderOptions), String> {
        if self.readable(id)?.is_none() {
            return Ok((0, false, OrderOptions::default()));
        }
        self.computer_turns(id);
        let game = self.still_in_memory(id)?;
        let seated = player.is_some() && game.seats.iter().any(|s| s.player.as_deref() == player);
        if !seated && game.row.observer_delay != super::protocol::ObserverDelay::None && !is_over(game.app.world()) {
            return Err(format!(
                "game `{id}` holds its observers back: the orders it takes now are for its players"
            ));
        }
        let world = game.app.world_mut();
        let len = world.resource::<OrderLog>().entries.len();
        let options = order_options(world);
        let side = options
            .side
            .as_ref()
            .and_then(|s| game.side_ids.iter().position(|id| id == s));
        let yours =
            player.is_some() && side.and_then(|s| game.seats.get(s)).and_then(|s| s.player.as_deref()) == player;
        Ok((len, yours, options))
    }

    fn saved(&mut self, id: &str) -> Result<crate::game::save::SavedGame, String> {
        let game = self.readable(id)?.ok_or_else(|| format!("game `{id}` has not begun"))?;
        if !game.row.ended && !is_over(game.app.world()) {
            return Err(format!(
                "game `{id}` is not over: its secret stays on the server until it ends"
            ));
        }
        let mut saved = crate::game::save::saved_game(game.app.world());
        saved.online = Some(DiceProof {
            commitment: game.row.commitment.clone(),
            contributions: game.seats.iter().filter_map(|s| s.contribution.clone()).collect(),
            secret: game.row.secret.clone(),
            chain_end: game.seats.iter().find_map(|s| s.chain_end.clone()),
        });
        saved.seed = game.seed;
        Ok(saved)
    }
}
