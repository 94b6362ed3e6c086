//! The balance lab: plays whole games headless between seated players (computer profiles, the
//! random legal player, the passive player), one Bevy app per game, in parallel, and tallies
//! what a designer needs to judge a scenario (see `tally`). Game `i` of a batch with seed `S`
//! is played with game seed `S + i`, so any slice of a batch can be run anywhere and merged.

pub mod plot;
pub mod tally;

use crate::ai::random::random_order;
use crate::ai::{ComputerPlayer, Profile, side_to_act, steps_by_side};
use crate::game::combat_phase::{PendingCombat, PendingRetreats};
use crate::game::components::{Position, Side, Sides};
use crate::game::execute::execute;
use crate::game::order::{IssuedOrder, Order};
use crate::game::phase::{GameState, TurnState};
use crate::game::retreat::AfterCombatMode;
use crate::game::victory::{Verdict, points_now};
use crate::rules::grid::Cell;
use crate::scenario::Scenario;
use bevy::prelude::*;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Who plays a side in the lab.
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    Computer(Profile),
    /// Random legal orders (`ai::random`).
    Random,
    /// Never moves or attacks; answers retreats and defences as the standard player would.
    Passive,
}

impl Seat {
    pub fn parse(text: &str) -> Result<Self, String> {
        match text.trim() {
            "random" => Ok(Seat::Random),
            "passive" => Ok(Seat::Passive),
            other => Profile::parse(other).map(Seat::Computer),
        }
    }

    pub fn name(&self) -> String {
        match self {
            Seat::Computer(p) => p.name.clone(),
            Seat::Random => "random".into(),
            Seat::Passive => "passive".into(),
        }
    }
}

/// A seated player during one game.
enum Player {
    Computer(ComputerPlayer),
    Random(ChaCha8Rng),
    Passive(ComputerPlayer),
}

impl Player {
    fn seat(seat: &Seat, side: usize, seed: u64) -> Self {
        let answers = || ComputerPlayer::new(side, Profile::standard(), seed);
        match seat {
            Seat::Computer(p) => Player::Computer(ComputerPlayer::new(side, p.clone(), seed)),
            Seat::Random => Player::Random(ChaCha8Rng::seed_from_u64(seed ^ 0x7a9d_0000 ^ side as u64)),
            Seat::Passive => Player::Passive(answers()),
        }
    }

    /// This player's next order (it is this player's turn to act).
    fn order(&mut self, world: &mut World) -> Option<Order> {
        match self {
            Player::Computer(c) => c.next_order(world),
            Player::Random(rng) => random_order(world, rng).map(|o| o.order),
            Player::Passive(c) => {
                let answering = !world.resource::<PendingRetreats>().0.is_empty()
                    || world.resource::<PendingCombat>().0.is_some()
                    || world.resource::<crate::game::combat_phase::PendingAnswer>().0.is_some()
                    || !world
                        .resource::<crate::game::combat_phase::PendingAdvances>()
                        .0
                        .is_empty();
                if answering {
                    c.next_order(world).map(|o| match o {
                        Order::Advance { .. } => Order::EndAdvance,
                        o => o,
                    })
                } else {
                    Some(Order::EndPhase)
                }
            }
        }
    }
}

/// One combat of a game, as the lab tallies it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombatRecord {
    pub turn: u32,
    /// The attacking side (by index).
    pub side: usize,
    pub target: String,
    pub attacker_steps: u32,
    pub defender_steps: u32,
    /// The defenders left the cell (eliminated or retreated).
    pub taken: bool,
}

/// What one game came to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub index: u64,
    /// A mirrored batch's second game of the seed: the seats swapped.
    pub mirrored: bool,
    pub seed: u64,
    /// `None`: a draw (or unfinished).
    pub winner: Option<usize>,
    pub finished: bool,
    pub reason: String,
    /// The turn the game ended in.
    pub turns: u32,
    pub orders: u32,
    /// Steps each side lost.
    pub steps_lost: Vec<u32>,
    /// Objective points each side held at the end of each turn.
    pub points_by_turn: Vec<Vec<u32>>,
    pub combats: Vec<CombatRecord>,
    /// Orders the game refused (a bug in a computer player when it gave them).
    pub refused: u32,
    /// Orders of computer players the game refused.
    pub computer_refused: u32,
}

/// Orders past which a game is called unfinished.
const MAX_ORDERS: u32 = 50_000;

/// Plays game `index` of a batch with `seed`: `seats[i]` plays side `i`. The game's app comes
/// back with the record (its order log can be saved and watched).
pub fn play_game(scenario: &Scenario, seed: u64, index: u64, seats: &[Seat]) -> (GameRecord, App) {
    let game_seed = seed.wrapping_add(index);
    let mut app = crate::game::headless_app(scenario, game_seed);
    let record = play_out(app.world_mut(), game_seed, index, seats);
    (record, app)
}

/// Who wins `games` games played on from where `game` stands (its log replayed, then new dice
/// from `seed` on), `seats[i]` playing side `i`: each side's share of the games, and the share
/// drawn or unfinished last. The showcase's "wins N% from here". `None` if the log does not replay
/// or `stop` was set (checked between games).
pub fn win_rates_from(
    game: &crate::game::save::LoadedGame,
    games: u64,
    seed: u64,
    seats: &[Seat],
    stop: &std::sync::atomic::AtomicBool,
) -> Option<Vec<f64>> {
    let mut wins: Vec<u64> = Vec::new();
    for i in 0..games {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let mut app = crate::game::save::replay_app(game, None).ok()?;
        let world = app.world_mut();
        world.insert_resource(crate::game::components::GameRng::new(seed.wrapping_add(i)));
        let sides = world.resource::<Sides>().0.len();
        wins.resize(sides + 1, 0);
        let record = play_out(world, seed.wrapping_add(i), i, seats);
        wins[record.winner.unwrap_or(sides).min(sides)] += 1;
    }
    Some(wins.iter().map(|w| *w as f64 / games.max(1) as f64).collect())
}

/// Plays the game in `world` to its end (or `MAX_ORDERS`) and records it.
fn play_out(world: &mut World, game_seed: u64, index: u64, seats: &[Seat]) -> GameRecord {
    // Retreat paths and advances are the players' to choose, as in the client.
    world.insert_resource(AfterCombatMode { automatic: false });
    let sides = world.resource::<Sides>().0.len();
    let mut players: Vec<Player> = (0..sides)
        .map(|s| Player::seat(seats.get(s).unwrap_or(&Seat::Passive), s, game_seed))
        .collect();
    let start_steps = steps_by_side(world, sides);
    let mut record = GameRecord {
        index,
        mirrored: false,
        seed: game_seed,
        winner: None,
        finished: false,
        reason: String::new(),
        turns: 1,
        orders: 0,
        steps_lost: vec![0; sides],
        points_by_turn: Vec::new(),
        combats: Vec::new(),
        refused: 0,
        computer_refused: 0,
    };
    let mut turn = world.resource::<TurnState>().turn;
    // The combat under way: its cell, attacker, the steps before it, its turn. It is noted once
    // its defender has answered and its retreats are made (steps lost retreating count).
    let mut open: Option<(Cell, usize, Vec<u32>, u32)> = None;
    while record.orders < MAX_ORDERS {
        let Some(side) = side_to_act(world) else { break };
        let Some(order) = players[side].order(world) else { break };
        if let Order::Attack(a) = &order {
            let attacker = world.resource::<TurnState>().active.0;
            open = Some((a.target, attacker, steps_by_side(world, sides), turn));
        }
        let id = world.resource::<Sides>().0[side].id.clone();
        record.orders += 1;
        if execute(world, IssuedOrder::new(id.clone(), order.clone())).is_err() {
            record.refused += 1;
            if !matches!(players[side], Player::Random(_)) {
                record.computer_refused += 1;
            }
            if matches!(order, Order::Attack(_)) {
                open = None;
            }
            let fallback = crate::ai::fallback(world, &order);
            let fell_back = fallback.is_some_and(|f| execute(world, IssuedOrder::new(id, f)).is_ok());
            if !fell_back && matches!(players[side], Player::Random(_)) {
                continue;
            } else if !fell_back {
                break;
            }
        }
        let settled = world.resource::<PendingCombat>().0.is_none()
            && world.resource::<crate::game::combat_phase::PendingAnswer>().0.is_none()
            && world.resource::<PendingRetreats>().0.is_empty();
        if settled && let Some((cell, attacker, before, at)) = open.take() {
            note_combat(world, &mut record, cell, attacker, &before, at);
        }
        let now = world.resource::<TurnState>().turn;
        if now != turn {
            record.points_by_turn.push(points_now(world));
            turn = now;
        }
    }
    let over = *world.resource::<State<GameState>>().get() == GameState::Over;
    // The end of the last turn (or a sudden death) leaves its points too.
    if record.points_by_turn.len() < turn as usize {
        record.points_by_turn.push(points_now(world));
    }
    record.turns = turn;
    record.finished = over;
    if let Some(v) = world.get_resource::<Verdict>() {
        record.winner = v.winner.map(|s| s.0);
        record.reason = v.reason.clone();
        record.turns = v.turn;
    } else {
        record.reason = "unfinished".into();
    }
    let end_steps = steps_by_side(world, sides);
    record.steps_lost = start_steps
        .iter()
        .zip(&end_steps)
        .map(|(a, b)| a.saturating_sub(*b))
        .collect();
    record
}

/// Notes a combat that has been fought and its retreats made.
fn note_combat(world: &mut World, record: &mut GameRecord, cell: Cell, attacker: usize, before: &[u32], turn: u32) {
    let sides = before.len();
    let after = steps_by_side(world, sides);
    let lost = |s: usize| before[s].saturating_sub(after[s]);
    let defender_left = {
        let mut q = world.query::<(&Side, &Position)>();
        !q.iter(world).any(|(s, p)| p.0 == cell && s.0 != attacker)
    };
    record.combats.push(CombatRecord {
        turn,
        side: attacker,
        target: cell.to_string(),
        attacker_steps: lost(attacker),
        defender_steps: (0..sides).filter(|s| *s != attacker).map(lost).sum(),
        taken: defender_left,
    });
}

/// A batch of games to play.
#[derive(Clone, Debug)]
pub struct Batch {
    pub games: u64,
    pub seed: u64,
    pub seats: Vec<Seat>,
    /// Also play each seed with the seats swapped (a duplicate match: `seats[0]` and `seats[1]`
    /// each play both sides on the same seeds).
    pub mirror: bool,
    /// This run plays the `i`-th of `n` slices of the games.
    pub shard: (u64, u64),
    pub jobs: usize,
    /// Save each game's order log here.
    pub keep_logs: Option<PathBuf>,
}

impl Batch {
    /// The game indices this run plays: every `n`-th from `i`.
    pub fn indices(&self) -> Vec<u64> {
        let (i, n) = self.shard;
        (0..self.games).filter(|g| g % n.max(1) == i).collect()
    }
}

/// The tally of a batch's records (as `run` returns them), with the scenario's place names for
/// the cells fought over.
pub fn tally_of(scenario: &Scenario, batch: &Batch, records: &[GameRecord]) -> tally::Tally {
    let sides: Vec<String> = scenario.sides.iter().map(|s| s.name.clone()).collect();
    let seats: Vec<String> = batch.seats.iter().map(Seat::name).collect();
    let mut tally = tally::Tally::new(
        &scenario.raw.name,
        &sides,
        &seats,
        batch.seed,
        batch.games,
        batch.mirror,
        batch.shard,
    );
    let place = |label: &str| {
        scenario
            .places
            .iter()
            .find(|(c, _)| c.to_string() == label)
            .map_or_else(String::new, |(_, n)| n.clone())
    };
    tally.add(records, &place);
    tally
}

/// Plays the batch on `jobs` threads; `progress(done, total)` is called after each game. The
/// records come back in game order (and, mirrored, the swapped game after each), whatever the
/// threads' timing.
pub fn run(
    scenario: &Scenario,
    batch: &Batch,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<GameRecord>, String> {
    let mut work: Vec<(u64, bool)> = Vec::new();
    for g in batch.indices() {
        work.push((g, false));
        if batch.mirror {
            work.push((g, true));
        }
    }
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameRecord>>> = Mutex::new(vec![None; work.len()]);
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let swapped: Vec<Seat> = batch.seats.iter().rev().cloned().collect();
    std::thread::scope(|scope| {
        for _ in 0..batch.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(g, mirrored)) = work.get(k) else { break };
                    let seats = if mirrored { &swapped } else { &batch.seats };
                    let (mut record, mut app) = play_game(scenario, batch.seed, g, seats);
                    if let Some(dir) = &batch.keep_logs {
                        let name = format!("game-{g:06}{}.ron", if mirrored { "-mirrored" } else { "" });
                        if let Err(e) = crate::game::save::save_game(app.world_mut(), &dir.join(name)) {
                            errors.lock().expect("no thread panicked").push(e.to_string());
                        }
                    }
                    record.mirrored = mirrored;
                    results.lock().expect("no thread panicked")[k] = Some(record);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, work.len());
                }
            });
        }
    });
    if let Some(e) = errors.into_inner().expect("no thread panicked").into_iter().next() {
        return Err(e);
    }
    Ok(results
        .into_inner()
        .expect("no thread panicked")
        .into_iter()
        .flatten()
        .collect())
}
