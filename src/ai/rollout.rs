//! Look-ahead by playing on: at the start of its player turn a player with a rollout budget
//! tries each posture (balanced, aggressive, cautious, a blitz for the objectives) in copies of the game rebuilt from the
//! order log, with dice of its own drawing (never the game's generator), plays every copy to
//! the end with balanced players, and takes the posture that wins most. The copies of one
//! posture and another share their dice seeds, so postures are compared on the same luck.

use super::{ComputerPlayer, NotPlayed, Profile, side_to_act, steps_by_side};
use crate::game::components::{GameRng, Sides};
use crate::game::execute::replay_entry;
use crate::game::log::{LogEntry, OrderLog};
use crate::game::phase::TurnState;
use crate::game::retreat::AfterCombatMode;
use crate::game::start::GameOrigin;
use crate::game::victory::{Verdict, points_now};
use bevy::prelude::*;
use rand::Rng;

/// The postures a turn is tried with, from the player's own profile.
pub(super) fn postures(base: &Profile) -> Vec<Profile> {
    let with = |name: &str, aggression: f64, caution: f64, pull: f64| Profile {
        name: format!("{} ({name})", base.name),
        aggression,
        caution,
        pull,
        rollouts: 0,
        ..base.clone()
    };
    vec![
        with("balanced", base.aggression, base.caution, base.pull),
        with("aggressive", 0.9, base.caution * 0.3, base.pull),
        with("cautious", 0.2, base.caution * 1.8 + 0.2, base.pull),
        with("blitz", 0.7, 0.1, base.pull * 2.5),
    ]
}

/// A look-ahead to make, with everything it needs owned, so it can run on another thread (the
/// client runs it in the background; the lab and tests run it in place).
pub struct PostureJob {
    origin: GameOrigin,
    mode: AfterCombatMode,
    log: Vec<LogEntry>,
    side: usize,
    base: Profile,
    seeds: Vec<u64>,
    /// The turn it is for.
    pub turn: u32,
}

impl PostureJob {
    /// The job for `player`'s turn now, its dice seeds drawn from the player's own generator.
    pub(super) fn new(world: &World, player: &mut ComputerPlayer, turn: u32) -> Option<Self> {
        Some(Self {
            origin: world.get_resource::<GameOrigin>()?.clone(),
            mode: world.get_resource::<AfterCombatMode>().copied().unwrap_or_default(),
            log: world.get_resource::<OrderLog>()?.entries.clone(),
            side: player.side,
            base: player.base.clone(),
            seeds: (0..player.base.rollouts).map(|_| player.rng.next_u64()).collect(),
            turn,
        })
    }

    /// The posture whose copies of the game end best for the player's side (its base profile
    /// when no copy could be played).
    pub fn run(self) -> Profile {
        let mut best: Option<(f64, Profile)> = None;
        for posture in postures(&self.base) {
            let mut total = 0.0;
            for seed in &self.seeds {
                let Some(score) = rollout(
                    &self.origin,
                    self.mode,
                    &self.log,
                    self.side,
                    &posture,
                    &self.base,
                    *seed,
                ) else {
                    return self.base;
                };
                total += score;
            }
            if best.as_ref().is_none_or(|(b, _)| total > *b) {
                best = Some((total, posture));
            }
        }
        best.map_or(self.base, |(_, p)| p)
    }
}

/// Orders past which a copy is scored where it stands.
const ROLLOUT_ORDERS: u32 = 20_000;

/// Plays a copy of the game to its end: `posture` for the rest of this player turn, then the
/// base profile (without look-ahead) for both sides. Returns how it ended for `me`: 1 a win,
/// ½ a draw, 0 a loss, moved a little by the objective-point margin, the tempo (a win sooner, a
/// loss later: `tempo`) and the step-loss margin, the order a duplicate match ranks games in.
fn rollout(
    origin: &GameOrigin,
    mode: AfterCombatMode,
    log: &[LogEntry],
    me: usize,
    posture: &Profile,
    base: &Profile,
    seed: u64,
) -> Option<f64> {
    let mut app = crate::game::headless_app(&origin.scenario, origin.seed);
    let world = app.world_mut();
    // The copy plays by the game's own edition of the rules, or its log would not replay.
    crate::game::start::set_edition(world, origin.edition);
    world.insert_resource(mode);
    for (i, entry) in log.iter().enumerate() {
        replay_entry(world, i, entry).ok()?;
    }
    world.insert_resource(GameRng::new(seed));
    // Copies are played by the plain player: no look-ahead of either kind (it would multiply the
    // cost of every copy), no wander.
    let plain = Profile {
        rollouts: 0,
        noise: 0.0,
        follow_ups: false,
        ..base.clone()
    };
    let this_turn = world.resource::<TurnState>().turn;
    let sides = world.resource::<Sides>().0.len();
    let mut now = ComputerPlayer::new(
        me,
        Profile {
            noise: 0.0,
            follow_ups: false,
            ..posture.clone()
        },
        seed,
    );
    let mut players: Vec<ComputerPlayer> = (0..sides)
        .map(|s| ComputerPlayer::new(s, plain.clone(), seed ^ s as u64))
        .collect();
    let steps_before = steps_by_side(world, sides);
    for _ in 0..ROLLOUT_ORDERS {
        let Some(side) = side_to_act(world) else { break };
        let still_mine = {
            let t = world.resource::<TurnState>();
            t.turn == this_turn && t.active.0 == me
        };
        let player = if side == me && still_mine {
            &mut now
        } else {
            &mut players[side]
        };
        match player.play(world) {
            Ok(_) => {}
            Err(NotPlayed::NoOrder) => break,
            Err(NotPlayed::Refused(_)) => return None,
        }
    }
    let steps_after = steps_by_side(world, sides);
    let lost = |s: usize| f64::from(steps_before[s].saturating_sub(steps_after[s]));
    let points = points_now(world);
    let result = match world.get_resource::<Verdict>().map(|v| v.winner) {
        Some(Some(w)) if w.0 == me => 1.0,
        Some(Some(_)) => 0.0,
        _ => 0.5,
    };
    let theirs = |v: &dyn Fn(usize) -> f64| (0..sides).filter(|s| *s != me).map(v).sum::<f64>();
    let point_margin = f64::from(points[me]) - theirs(&|s| f64::from(points[s]));
    let step_margin = theirs(&lost) - lost(me);
    let turns = world.resource::<TurnState>();
    let tempo = tempo(result, turns.turn, turns.last_turn);
    Some(result + 0.05 * (point_margin / 10.0).tanh() + 0.05 * tempo + 0.05 * (step_margin / 10.0).tanh())
}

/// How well a result was timed, 0..1: a win on the first turn 1, on the last 0; a loss the other
/// way round; a draw 0 (it took the whole game).
fn tempo(result: f64, turn: u32, last_turn: u32) -> f64 {
    let share = f64::from(turn.min(last_turn)) / f64::from(last_turn.max(1));
    if result > 0.75 {
        1.0 - share
    } else if result < 0.25 {
        share
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::tempo;

    #[test]
    fn a_win_sooner_and_a_loss_later_time_better() {
        assert_eq!(tempo(1.0, 3, 8), 1.0 - 3.0 / 8.0);
        assert!(tempo(1.0, 2, 8) > tempo(1.0, 6, 8));
        assert!(tempo(0.0, 7, 8) > tempo(0.0, 2, 8));
        assert_eq!(tempo(0.5, 8, 8), 0.0);
        assert_eq!(tempo(1.0, 9, 8), 0.0, "past the last turn counts as the last");
    }
}
