//! A fingerprint of the game state that is the same on every run, platform and load: units by id
//! (cell and place in its stack, steps, statuses, movement spent, attacked/retreated flags, where
//! they came from, experience), the turn, side and phase, what the last combat still demands
//! (which also decides the combat sub-step), and who holds each objective. Never `Entity` ids,
//! hash-map order or another crate's text format; names, not enum positions. The order log stores
//! it after every order, and a replay checks it.

use super::combat_phase::{Attacked, PendingAdvances, PendingCombat, PendingRetreats};
use super::components::{CameFrom, Experience, MapIndex, MovePoints, Position, Statuses, Steps, Unit};
use super::phase::{GameState, TurnState};
use super::retreat::{RetreatedThisPhase, StuckRetreats};
use super::victory::{ObjectiveControl, Verdict};
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The state hash in four parts, so a mismatch can say what differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StateHash {
    /// Every unit on the map, by id.
    pub units: u32,
    /// Turn, side, phase, whether the game is over and who won.
    pub turn: u32,
    /// Retreats and advances still owed, and a declared combat awaiting the defender (these decide
    /// the combat sub-step).
    pub combat: u32,
    /// Who holds each objective.
    pub objectives: u32,
}

impl StateHash {
    /// The parts that differ from `other`, in words.
    pub fn differences(&self, other: &StateHash) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.units != other.units {
            out.push("the units (cells, steps, statuses, movement points spent or attack flags)");
        }
        if self.turn != other.turn {
            out.push("the turn, side, phase or combat step");
        }
        if self.combat != other.combat {
            out.push("the retreats, advances or declared combat still to carry out");
        }
        if self.objectives != other.objectives {
            out.push("who holds the objectives");
        }
        out
    }
}

impl fmt::Display for StateHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:08x}.{:08x}.{:08x}.{:08x}",
            self.units, self.turn, self.combat, self.objectives
        )
    }
}

impl std::str::FromStr for StateHash {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let parts: Vec<&str> = text.split('.').collect();
        let bad = || format!("`{text}` is not a state hash (four groups of 8 hex digits: 0123abcd.…)");
        if parts.len() != 4 || parts.iter().any(|p| p.len() != 8) {
            return Err(bad());
        }
        let n = |i: usize| u32::from_str_radix(parts[i], 16).map_err(|_| bad());
        Ok(StateHash {
            units: n(0)?,
            turn: n(1)?,
            combat: n(2)?,
            objectives: n(3)?,
        })
    }
}

impl Serialize for StateHash {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for StateHash {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// A small, fixed hash function (FxHash's multiply-rotate over 64-bit words with a SplitMix64
/// finish): the same numbers on every platform and Rust version, unlike `std`'s `DefaultHasher`.
#[derive(Clone, Copy, Debug)]
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        Self(0x6a09_e667_f3bc_c908)
    }
}

impl StableHasher {
    pub fn word(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    pub fn bytes(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.word(u64::from_le_bytes(w));
        }
        self.word(bytes.len() as u64);
    }

    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    pub fn finish(&self) -> u64 {
        let mut z = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn finish32(&self) -> u32 {
        let h = self.finish();
        (h ^ (h >> 32)) as u32
    }
}

/// What the hash reads of one unit.
#[derive(QueryData)]
pub struct HashedUnit {
    entity: Entity,
    unit: &'static Unit,
    position: &'static Position,
    steps: &'static Steps,
    statuses: &'static Statuses,
    move_points: &'static MovePoints,
    experience: Option<&'static Experience>,
    came_from: Option<&'static CameFrom>,
    attacked: Has<Attacked>,
    retreated: Has<RetreatedThisPhase>,
}

/// A hash of a name, combined by addition where order must not matter.
fn name_hash(name: &str) -> u64 {
    let mut h = StableHasher::default();
    h.str(name);
    h.finish()
}

fn unit_hash(u: &HashedUnitItem, place_in_stack: usize) -> u64 {
    let mut h = StableHasher::default();
    h.str(&u.unit.id);
    h.word(((u.position.0.col as u32 as u64) << 32) | u.position.0.row as u32 as u64);
    // Stack order decides who defends first and who takes a tied loss.
    h.word(place_in_stack as u64);
    h.word(u.steps.0.lost as u64);
    h.word(
        u.statuses
            .0
            .iter()
            .fold(0u64, |sum, s| sum.wrapping_add(name_hash(&format!("{s:?}")))),
    );
    h.word(u64::from(u.move_points.spent.0));
    h.word(u.experience.map_or(u64::MAX, |x| u64::from(x.0)));
    h.word(
        u.came_from
            .map_or(u64::MAX, |c| ((c.0.col as u32 as u64) << 32) | c.0.row as u32 as u64),
    );
    h.word(u64::from(u.attacked) | (u64::from(u.retreated) << 1));
    h.finish()
}

/// The state hash of `world`'s game.
pub fn state_hash(world: &mut World) -> StateHash {
    StateHash {
        units: units_part(world),
        turn: turn_part(world),
        combat: combat_part(world),
        objectives: objectives_part(world),
    }
}

/// Booleans as the bits of one word, the first lowest.
fn bits(flags: &[bool]) -> u64 {
    flags
        .iter()
        .enumerate()
        .fold(0, |word, (i, f)| word | u64::from(*f) << i)
}

fn id_of(world: &World, e: Entity) -> String {
    world.get::<Unit>(e).map_or("?", |u| u.id.as_str()).to_string()
}

fn ids(world: &World, h: &mut StableHasher, list: &[Entity]) {
    h.word(list.len() as u64);
    for e in list {
        h.str(&id_of(world, *e));
    }
}

fn units_part(world: &mut World) -> u32 {
    let mut units = world.query::<HashedUnit>();
    // Each unit's hash includes its id, so their sum does not depend on the query's order.
    let mut sum = 0u64;
    let mut count = 0u64;
    let index = world.get_resource::<MapIndex>();
    for u in units.iter(world) {
        let place = index
            .and_then(|i| i.stack(u.position.0).iter().position(|e| *e == u.entity))
            .unwrap_or(usize::MAX);
        sum = sum.wrapping_add(unit_hash(&u, place));
        count += 1;
    }
    let mut h = StableHasher::default();
    h.word(sum);
    h.word(count);
    h.finish32()
}

fn turn_part(world: &World) -> u32 {
    let mut h = StableHasher::default();
    if let Some(t) = world.get_resource::<TurnState>() {
        h.word(u64::from(t.turn));
        h.word(t.active.0 as u64);
        h.word(t.phase_index as u64);
    }
    h.str(
        &world
            .get_resource::<State<GameState>>()
            .map_or(String::new(), |s| format!("{:?}", s.get())),
    );
    if let Some(v) = world.get_resource::<Verdict>() {
        h.word(v.winner.map_or(u64::MAX, |s| s.0 as u64));
    }
    h.finish32()
}

fn combat_part(world: &World) -> u32 {
    let mut h = StableHasher::default();
    if let Some(p) = world.get_resource::<PendingRetreats>() {
        for r in &p.0 {
            h.str(&id_of(world, r.unit));
            h.str(&r.from.to_string());
            let d = &r.demand;
            h.word(u64::from(d.cells));
            h.str(&format!("{:?}", d.chooser));
            h.word(bits(&[d.optional, d.er_check_in_ezoc, r.check_first]));
            ids(world, &mut h, &r.opponents);
        }
    }
    h.word(u64::MAX);
    if let Some(p) = world.get_resource::<PendingAdvances>() {
        for a in &p.0 {
            ids(world, &mut h, &a.attackers);
            ids(world, &mut h, &a.followers);
            ids(world, &mut h, &a.moved);
            h.str(&a.into.to_string());
            h.word(u64::from(a.right.cells));
            h.word(bits(&[a.right.mandatory, a.right.attack_again]));
        }
    }
    h.word(u64::MAX);
    if let Some(PendingCombat(Some(c))) = world.get_resource::<PendingCombat>() {
        // What the defender may know: the hidden tactics stay out, so the hash of the declaration
        // cannot be matched against the few tactics there are.
        let open = c.order.without_secrets();
        h.str(&open.target.to_string());
        let taken = open.taken();
        for list in [&open.attackers[..], taken.barrage()] {
            h.word(list.len() as u64);
            for id in list {
                h.str(id);
            }
        }
        h.str(&format!("{:?}", taken.accelerated_effort().cloned()));
        // The words the second save format hashed (No Retreat! and the defender's choices rode in
        // the attack then, always at their plain values now), so its games keep their hashes.
        h.word(bits(&[taken.flanking(), false]));
        let c = &taken.attacker_choices();
        let plain = crate::combat::DefenderChoices::default();
        h.str(&format!("{:?} {:?}", c.retreat, plain.retreat));
        h.word(bits(&[
            plain.evade,
            plain.withdraw,
            c.german_exchange,
            plain.hold,
            plain.attrition_as_retreat,
        ]));
    }
    h.word(u64::MAX);
    if let Some(super::combat_phase::PendingAnswer(Some(w))) =
        world.get_resource::<super::combat_phase::PendingAnswer>()
    {
        // Hashed only while a result waits, so a game at rest hashes as before answers existed.
        h.str("waiting answer");
        // The attack and its defence are public once rolled.
        h.str(&hashed_attack_text(&w.order));
        h.str(&format!("{:?}", w.defense));
        h.bytes(&w.dice);
        h.word(w.defender.0 as u64);
        h.word(w.options.len() as u64);
    }
    if let (Some(turns), Some(turn)) = (
        world.get_resource::<super::combat_phase::NoRetreatTurns>(),
        world.get_resource::<TurnState>(),
    ) {
        // Russians under No Retreat! orders this turn (a decision against them changes no hash).
        for (_, side, _) in turns.0.iter().filter(|(t, _, on)| *t == turn.turn && *on) {
            h.str("no retreat");
            h.word(*side as u64);
        }
    }
    // Next War: units that could not retreat, waiting for the group's ER check.
    if let Some(stuck) = world.get_resource::<StuckRetreats>() {
        for (e, cell) in &stuck.0 {
            h.str(&id_of(world, *e));
            h.str(&cell.to_string());
        }
    }
    h.finish32()
}

/// The attack as its hash has always read it: the debug text of the attack order before its
/// options were a list (one field each), so games saved before hash as they did.
fn hashed_attack_text(order: &super::order::AttackOrder) -> String {
    let taken = order.taken();
    format!(
        "AttackOrder {{ attackers: {:?}, target: {:?}, tactics: {:?}, barrage: {:?}, accelerated_effort: {:?}, flanking: {:?}, choices: {:?} }}",
        order.attackers,
        order.target,
        taken.tactics(),
        taken.barrage(),
        taken.accelerated_effort(),
        taken.flanking(),
        taken.attacker_choices()
    )
}

fn objectives_part(world: &World) -> u32 {
    let mut h = StableHasher::default();
    if let Some(c) = world.get_resource::<ObjectiveControl>() {
        for holder in &c.0 {
            h.word(holder.map_or(u64::MAX, |s| s.0 as u64));
        }
    }
    h.finish32()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hasher_gives_fixed_numbers() {
        let mut h = StableHasher::default();
        h.str("de-2pz");
        h.word(7);
        // Fixed forever: saves written today must verify on every later build and platform.
        assert_eq!(format!("{:016x}", h.finish()), "9deb5e979146ab32");
        let a = StateHash {
            units: 1,
            turn: 0xdead_beef,
            combat: 3,
            objectives: 4,
        };
        assert_eq!(a.to_string(), "00000001.deadbeef.00000003.00000004");
        assert_eq!(a.to_string().parse::<StateHash>().unwrap(), a);
        assert!("xyz".parse::<StateHash>().is_err());
    }
}
