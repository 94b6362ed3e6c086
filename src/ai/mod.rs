//! The computer player: reads the board as its side may see it (never the other side's hidden
//! tactics, never the seeded dice) and gives the next `Order`, exactly as a human's client would.
//! Attacks are scored with the exact odds the preview shows (`combat::odds::summarize_leaves`);
//! moves by objective pull, threat, support and attack prospects (`survey`). Its randomness (the
//! `noise` of weaker profiles) comes from a generator of its own, seeded by whoever seats it, so a
//! game is reproducible from its seeds.

mod answers;
mod attacks;
mod follow_up;
mod moves;
mod profile;
pub mod random;
mod rollout;
mod survey;

pub use answers::fallback;
pub use profile::{LEVELS, Profile};
pub use rollout::PostureJob;

use crate::game::combat_phase::{PendingAdvances, PendingAnswer, PendingCombat, PendingRetreats};
use crate::game::components::Sides;
use crate::game::execute::{execute, issuer};
use crate::game::order::{DefenseOrder, IssuedOrder, Order};
use crate::game::phase::{GameState, Phase, TurnState};
use bevy::prelude::*;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use std::collections::HashSet;

/// The side (by index) that must give the next order, or `None` when the game is not being
/// played or a die decides.
pub fn side_to_act(world: &World) -> Option<usize> {
    if world.get_resource::<State<GameState>>().map(|s| *s.get()) != Some(GameState::Playing) {
        return None;
    }
    let probe = if world.resource::<PendingCombat>().0.is_some() {
        Order::Defend(DefenseOrder::default())
    } else if world.resource::<PendingAnswer>().0.is_some() {
        Order::Answer(Default::default())
    } else if !world.resource::<PendingRetreats>().0.is_empty() {
        Order::Retreat {
            unit: String::new(),
            path: Vec::new(),
        }
    } else if !world.resource::<PendingAdvances>().0.is_empty() {
        Order::EndAdvance
    } else {
        Order::EndPhase
    };
    issuer(world, &probe).ok().flatten().map(|(side, _)| side)
}

/// Why a computer player gave no order.
#[derive(Clone, Debug, PartialEq)]
pub enum NotPlayed {
    /// It is not its turn to give one, or it found none.
    NoOrder,
    /// Its order and the safe one after it were refused (a bug), with the refusal.
    Refused(String),
}

/// Where in the game a plan was made: turn, side, phase index.
type PhaseKey = (u32, usize, usize);

/// One computer-controlled side.
#[derive(Debug)]
pub struct ComputerPlayer {
    pub side: usize,
    /// Who it is (as seated).
    pub base: Profile,
    /// How it plays this turn (the base, or the posture its look-ahead chose).
    pub profile: Profile,
    /// The turn the posture was chosen for.
    posture_turn: Option<u32>,
    /// Orders of this player the game refused (each is a bug in the player).
    pub refused: usize,
    /// The last refusal, in words.
    pub last_refusal: Option<String>,
    rng: ChaCha8Rng,
    phase: Option<PhaseKey>,
    /// Units moved this phase (each stack moves once a phase).
    moved: HashSet<String>,
    /// Stacks still to move this phase, best gain first (planned once a phase).
    plan: Option<Vec<moves::Planned>>,
    /// Orders given this phase: a guard against a plan that never ends.
    orders_this_phase: u32,
}

/// No phase needs more orders than this from one player; past it the player ends the phase.
const MAX_ORDERS_PER_PHASE: u32 = 400;

impl ComputerPlayer {
    /// A computer player for `side` (by index) with its own generator seeded by `seed`.
    pub fn new(side: usize, profile: Profile, seed: u64) -> Self {
        Self {
            side,
            base: profile.clone(),
            profile,
            posture_turn: None,
            refused: 0,
            last_refusal: None,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_a1a1 ^ (side as u64).wrapping_mul(0x9e37_79b9)),
            phase: None,
            moved: HashSet::new(),
            plan: None,
            orders_this_phase: 0,
        }
    }

    /// The order this player gives now, or `None` when it is not this player's to give.
    pub fn next_order(&mut self, world: &mut World) -> Option<Order> {
        if side_to_act(world) != Some(self.side) {
            return None;
        }
        self.note_phase(world);
        self.orders_this_phase += 1;
        if let Some(job) = self.posture_job(world) {
            self.set_posture(job.turn, job.run());
        }
        if world.resource::<PendingCombat>().0.is_some() {
            return Some(answers::defend(world, self));
        }
        if world.resource::<PendingAnswer>().0.is_some() {
            return Some(answers::answer_result(world, self));
        }
        if !world.resource::<PendingRetreats>().0.is_empty() {
            return answers::retreat(world, self);
        }
        if !world.resource::<PendingAdvances>().0.is_empty() {
            return Some(answers::advance(world, self));
        }
        if self.orders_this_phase > MAX_ORDERS_PER_PHASE {
            return Some(crate::game::must_attack::owed_attack(world).map_or(Order::EndPhase, Order::Attack));
        }
        let phase = *world.resource::<State<Phase>>().get();
        let order = match phase {
            Phase::Movement | Phase::Exploitation => moves::next_move(world, self),
            // The attacks the must-attack rule still owes come before the phase ends.
            Phase::Combat => attacks::next_attack(world, self)
                .or_else(|| crate::game::must_attack::owed_attack(world).map(Order::Attack)),
            _ => None,
        };
        Some(order.unwrap_or(Order::EndPhase))
    }

    /// The look-ahead this player makes at the start of its turn, when it is due: taken out, so
    /// the caller can run it anywhere and hand the result to `set_posture` (until then
    /// `next_order` plays on with its base profile).
    pub fn posture_job(&mut self, world: &World) -> Option<PostureJob> {
        let turn = world.resource::<TurnState>();
        let due = self.base.rollouts > 0 && turn.active.0 == self.side && self.posture_turn != Some(turn.turn);
        let turn = turn.turn;
        if !due {
            return None;
        }
        self.posture_turn = Some(turn);
        PostureJob::new(world, self, turn)
    }

    /// Plays the rest of turn `turn` in `posture` (from `PostureJob::run`).
    pub fn set_posture(&mut self, turn: u32, posture: Profile) {
        if self.posture_turn == Some(turn) {
            self.profile = posture;
        }
    }

    /// Gives this player's next order to the game and returns it. A refused order is counted
    /// (`refused`, `last_refusal`) and a safe one (the first legal retreat, ending the advance
    /// or the phase, the plain defence) is given instead; `Err` when it had no order to give, or
    /// the safe one was refused too.
    pub fn play(&mut self, world: &mut World) -> Result<Order, NotPlayed> {
        let order = self.next_order(world).ok_or(NotPlayed::NoOrder)?;
        self.give(world, order)
    }

    /// Gives `order` (from `next_order`, perhaps held a while by the caller) to the game, with
    /// `play`'s safe order instead when it is refused.
    pub fn give(&mut self, world: &mut World, order: Order) -> Result<Order, NotPlayed> {
        let id = world.resource::<Sides>().0[self.side].id.clone();
        if let Err(refusal) = execute(world, IssuedOrder::new(id.clone(), order.clone())) {
            self.refused += 1;
            self.last_refusal = Some(refusal.to_string());
            let fallback = answers::fallback(world, &order).ok_or_else(|| NotPlayed::Refused(refusal.to_string()))?;
            execute(world, IssuedOrder::new(id, fallback)).map_err(|r| NotPlayed::Refused(r.to_string()))?;
        }
        Ok(order)
    }

    /// A uniform draw in `[0, noise)` from the player's own generator.
    fn jitter(&mut self) -> f64 {
        use rand::RngExt;
        if self.profile.noise <= 0.0 {
            0.0
        } else {
            self.rng.random_range(0.0..self.profile.noise)
        }
    }

    /// The wander on an answer to one of the rules' questions (No Retreat!, a result's answer):
    /// none for a player that weighs options by the exact odds, the whole noise for one that
    /// does not.
    fn answer_jitter(&mut self) -> f64 {
        if self.profile.looks_ahead { 0.0 } else { self.jitter() }
    }

    fn note_phase(&mut self, world: &World) {
        let turn = world.resource::<TurnState>();
        let key = (turn.turn, turn.active.0, turn.phase_index);
        if self.phase != Some(key) {
            self.phase = Some(key);
            self.moved.clear();
            self.plan = None;
            self.orders_this_phase = 0;
        }
    }
}

/// The ids of units on the map, in the order given (units gone are left out).
pub(crate) fn unit_ids(world: &World, units: &[Entity]) -> Vec<String> {
    units
        .iter()
        .filter_map(|e| world.get::<crate::game::components::Unit>(*e).map(|u| u.id.clone()))
        .collect()
}

/// Steps each side has on the map.
pub fn steps_by_side(world: &mut World, sides: usize) -> Vec<u32> {
    let mut out = vec![0; sides];
    let mut q = world.query::<(&crate::game::components::Side, &crate::game::components::Steps)>();
    for (side, steps) in q.iter(world) {
        if side.0 < sides {
            out[side.0] += steps.0.remaining() as u32;
        }
    }
    out
}
