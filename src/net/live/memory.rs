//! Which games a worker keeps in memory: a game is brought in when first needed (rebuilt from
//! the database's log, or, taken back from another server process, brought up to date with the
//! entries that process added), its wait noted for the clock, and let go when idle or asked for.

use super::super::claims::{CLAIM_WAIT, Claims};
use super::{Job, LiveGame, Worker, chain, forget_narration, game_seed};
use crate::ai::{ComputerPlayer, Profile, side_to_act};
use crate::game::components::Sides;
use crate::game::execute::replay_entry;
use crate::game::log::{LogEntry, OrderLog};
use bevy::prelude::World;
use std::time::{Duration, Instant};

impl Worker {
    /// Drops the games `which` picks from memory, letting their claims go.
    pub(super) fn forget(&mut self, which: impl Fn(&LiveGame) -> bool) {
        let gone: Vec<String> = self
            .games
            .iter()
            .filter(|(_, g)| which(g))
            .map(|(id, _)| id.clone())
            .collect();
        for id in gone {
            self.games.remove(&id);
            self.let_go(&id);
        }
    }

    /// Lets the claim on `id` go (another process may carry it out now); what memory holds of
    /// it stays, to be brought up to date if this process takes it back.
    pub(super) fn let_go(&mut self, id: &str) {
        if let Some(claims) = self.claims.clone()
            && let Err(e) = self.block(claims.release(id))
        {
            eprintln!("game `{id}`: {e}");
        }
    }

    /// Takes the claim on `id`, asking its holder to let go and waiting up to
    /// `claims::CLAIM_WAIT`; meanwhile this worker lets go what other processes ask of it (two
    /// processes may each wait for a game the other holds), the rest of its jobs kept for after.
    fn claim(&mut self, id: &str) -> Result<(), String> {
        let Some(claims) = self.claims.clone() else {
            return Ok(());
        };
        let started = Instant::now();
        let mut asked: Option<Instant> = None;
        loop {
            if self.block(claims.try_claim(id))? {
                if asked.is_some() {
                    claims.note_taken_over();
                }
                return Ok(());
            }
            // Ask again now and then: a request made while the holder was taking it is lost.
            if asked.is_none_or(|at| at.elapsed() > Duration::from_millis(500)) {
                self.block(claims.ask_release(id))?;
                asked = Some(Instant::now());
            }
            if started.elapsed() > CLAIM_WAIT {
                return Err(format!(
                    "game `{id}` is held by another server process that has not let it go in {} s; try again",
                    CLAIM_WAIT.as_secs()
                ));
            }
            while let Ok(job) = self.jobs.try_recv() {
                match job {
                    Job::Release { game } => self.let_go(&game),
                    other => self.backlog.push_back(other),
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The live game, rebuilt from the database if it is not in memory. `Ok(None)`: a seat is
    /// still free.
    pub(super) fn live(&mut self, id: &str) -> Result<Option<&mut LiveGame>, String> {
        if let Some(claims) = self.claims.clone()
            && !claims.holds(id)
        {
            self.claim(id)?;
            self.claimed(id, &claims);
        }
        if !self.games.contains_key(id) {
            let mut game = match self.rebuild(id) {
                Ok(Some(game)) => game,
                // No such game, or one still waiting for a player: no claim is kept for it.
                other => {
                    self.let_go(id);
                    return other.map(|_| None);
                }
            };
            // Whom the game waits for, as the log now stands (play has just begun, an undo or a
            // kill between a commit and its note may have changed it): unchanged, nothing is written.
            if let Err(e) = self.note_waiting(&mut game, super::super::store::now()) {
                eprintln!("game `{id}`: {e}");
            }
            self.games.insert(id.to_string(), game);
        }
        let game = self.games.get_mut(id);
        if let Some(g) = game {
            g.last_used = Instant::now();
            return Ok(Some(g));
        }
        Ok(None)
    }

    /// Just claimed: another process may have carried the game out since this one last held
    /// it, so what memory holds of it is brought up to date (or dropped, to be rebuilt).
    fn claimed(&mut self, id: &str, claims: &Claims) {
        if let Err(e) = self.refresh(id) {
            eprintln!("game `{id}`: {e}");
            self.games.remove(id);
        }
        let Some(mut game) = self.games.remove(id) else {
            return;
        };
        claims.note_caught_up();
        // Whom it waits for, as the log now stands (the last holder may have died between an
        // entry and its note), as when a game is rebuilt.
        if let Err(e) = self.note_waiting(&mut game, super::super::store::now()) {
            eprintln!("game `{id}`: {e}");
        }
        self.games.insert(id.to_string(), game);
    }

    /// The game for reading (its log, the orders it takes, its save). With several processes
    /// on one database, a game another process holds is read from a copy brought up to date
    /// from the database's log, without asking for its claim: observers and followers on this
    /// process do not make the game change hands (its holder runs its computer player).
    /// `Ok(None)`: a seat is still free.
    pub(super) fn readable(&mut self, id: &str) -> Result<Option<&mut LiveGame>, String> {
        let Some(claims) = self.claims.clone() else {
            return self.live(id);
        };
        // Free, it is taken (as an order would): this process carries it out, notes whom it
        // waits for and runs its computer player.
        if claims.holds(id) {
            return self.live(id);
        }
        if self.block(claims.try_claim(id))? {
            self.claimed(id, &claims);
            return self.live(id);
        }
        if let Err(e) = self.refresh(id) {
            eprintln!("game `{id}`: {e}");
            self.games.remove(id);
        }
        if !self.games.contains_key(id) {
            match self.rebuild(id)? {
                Some(game) => drop(self.games.insert(id.to_string(), game)),
                None => return Ok(None),
            }
        }
        let game = self.games.get_mut(id);
        if let Some(g) = game {
            g.last_used = Instant::now();
            return Ok(Some(g));
        }
        Ok(None)
    }

    /// The game just read, after its computer player's turns (which may have let it leave
    /// memory: then read again).
    pub(super) fn still_in_memory(&mut self, id: &str) -> Result<&mut LiveGame, String> {
        if !self.games.contains_key(id) {
            self.readable(id)?;
        }
        self.games
            .get_mut(id)
            .ok_or_else(|| format!("game `{id}` waits for a player"))
    }

    /// A game this process held before and takes back from another: the entries that process
    /// added are replayed with their dice; when the log changed otherwise (an undo) the game
    /// leaves memory, to be rebuilt.
    fn refresh(&mut self, id: &str) -> Result<(), String> {
        let Some(mut game) = self.games.remove(id) else {
            return Ok(());
        };
        let held = game.times.len();
        let stored = self.block(self.store.entries_from(id, held.saturating_sub(1)))?;
        let unchanged = stored.len() >= held
            && stored.iter().zip(&game.times).all(|((at, _), mine)| at == mine)
            && match held.checked_sub(1) {
                Some(last) => {
                    let entry: LogEntry = serde_json::from_str(&stored[last].1).map_err(|e| e.to_string())?;
                    // What is saved of it (the words and the turn are rebuilt, not stored).
                    game.app
                        .world()
                        .resource::<OrderLog>()
                        .entries
                        .last()
                        .is_some_and(|mine| {
                            (&mine.side, &mine.order, &mine.dice, mine.hash, &mine.link)
                                == (&entry.side, &entry.order, &entry.dice, entry.hash, &entry.link)
                        })
                }
                None => true,
            };
        if !unchanged {
            return Ok(());
        }
        replay_stored(game.app.world_mut(), &mut game.times, &stored, held)?;
        (game.row.ended, game.row.waiting) = self
            .block(self.store.game_progress(id))?
            .ok_or_else(|| format!("no game `{id}`"))?;
        self.games.insert(id.to_string(), game);
        Ok(())
    }

    fn rebuild(&self, id: &str) -> Result<Option<LiveGame>, String> {
        let row = self
            .block(self.store.game(id))?
            .ok_or_else(|| format!("no game `{id}`"))?;
        let seats = self.block(self.store.seats(id))?;
        if seats.iter().any(|s| !s.taken() || s.contribution.is_none()) {
            return Ok(None);
        }
        let scenario = row.scenario()?;
        let seed = game_seed(&row, &seats)?;
        let mut app = crate::game::headless_app(&scenario, seed);
        crate::game::start::set_edition(app.world_mut(), row.edition);
        let mut times = Vec::new();
        let stored = self.block(self.store.entries_from(id, 0))?;
        replay_stored(app.world_mut(), &mut times, &stored, 0).map_err(|e| format!("game `{id}` {e}"))?;
        let side_ids = app.world().resource::<Sides>().0.iter().map(|s| s.id.clone()).collect();
        let computers = seats
            .iter()
            .filter_map(|s| {
                let level = s.computer.as_ref()?;
                let profile = Profile::parse(level).unwrap_or_else(|_| Profile::standard());
                Some((s.side, ComputerPlayer::new(s.side, profile, seed)))
            })
            .collect();
        let mut game = LiveGame {
            app,
            row,
            seats,
            side_ids,
            computers,
            seed,
            last_used: Instant::now(),
            times,
            chain: None,
        };
        game.chain = chain::Chain::of(&game);
        Ok(Some(game))
    }

    /// Records whom the game waits for, when that changed (at `at`): the clock of its time per
    /// turn starts again.
    pub(super) fn note_waiting(&self, game: &mut LiveGame, at: i64) -> Result<(), String> {
        let Some(side) = side_to_act(game.app.world()).and_then(|s| game.side_ids.get(s)) else {
            return Ok(());
        };
        if game.row.waiting.as_ref().is_some_and(|(w, _)| w == side) {
            return Ok(());
        }
        let index = game.side_ids.iter().position(|s| s == side);
        let player = index.and_then(|i| game.seats.get(i)).and_then(|s| s.player.as_deref());
        self.block(self.store.set_waiting(&game.row.id, side, player, at))?;
        game.row.waiting = Some((side.clone(), at));
        Ok(())
    }
}

/// Replays the stored entries (when made, text) from `from` on, noting when each was made, and
/// drops the narration (the server keeps none).
fn replay_stored(world: &mut World, times: &mut Vec<i64>, stored: &[(i64, String)], from: usize) -> Result<(), String> {
    for (i, (at, text)) in stored.iter().enumerate().skip(from) {
        let entry: LogEntry = serde_json::from_str(text).map_err(|e| format!("entry {i}: {e}"))?;
        replay_entry(world, i, &entry).map_err(|e| format!("does not replay: {e}"))?;
        times.push(*at);
    }
    forget_narration(world);
    Ok(())
}
