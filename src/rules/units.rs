//! What a unit is in rules terms: its class, size, statuses, traits, step track with per-step
//! values (strength chits and cadres included), and the stacking rule that limits a cell.

use super::terrain::{Mobility, TerrainId};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The type class of a unit, which decides its symbol and its default mobility.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum UnitClass {
    Infantry,
    LightInfantry,
    Mechanized,
    Motorized,
    Armor,
    Artillery,
    Rocket,
    AntiTank,
    Recon,
    Engineer,
    Cavalry,
    Airborne,
    Headquarters,
}

impl UnitClass {
    pub const ALL: [UnitClass; 13] = [
        UnitClass::Infantry,
        UnitClass::LightInfantry,
        UnitClass::Mechanized,
        UnitClass::Motorized,
        UnitClass::Armor,
        UnitClass::Artillery,
        UnitClass::Rocket,
        UnitClass::AntiTank,
        UnitClass::Recon,
        UnitClass::Engineer,
        UnitClass::Cavalry,
        UnitClass::Airborne,
        UnitClass::Headquarters,
    ];

    /// The mobility a ruleset assumes when it says nothing else.
    pub const fn default_mobility(self) -> Mobility {
        match self {
            UnitClass::Mechanized | UnitClass::Armor | UnitClass::Recon => Mobility::Mechanized,
            UnitClass::Motorized | UnitClass::Artillery | UnitClass::Rocket | UnitClass::Headquarters => {
                Mobility::Motorized
            }
            _ => Mobility::Foot,
        }
    }

    /// Armor-type for rules that treat tanks apart (tank shock, armor advantage, 8.95).
    pub const fn is_armor(self) -> bool {
        matches!(self, UnitClass::Armor)
    }

    /// Infantry-type, as the combat rules count it: foot, mechanized and motorized infantry,
    /// airborne, engineers and cavalry (Killing Ground 8.96, Rommel's terrain shift, War Against
    /// Russia's per-infantry defense bonuses).
    pub const fn is_infantry_type(self) -> bool {
        matches!(
            self,
            UnitClass::Infantry
                | UnitClass::LightInfantry
                | UnitClass::Mechanized
                | UnitClass::Motorized
                | UnitClass::Airborne
                | UnitClass::Engineer
                | UnitClass::Cavalry
        )
    }

    pub const fn is_artillery(self) -> bool {
        matches!(self, UnitClass::Artillery | UnitClass::Rocket)
    }
}

/// Unit size, shown above the symbol as NATO size marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum UnitSize {
    Company,
    Battalion,
    Regiment,
    Brigade,
    Division,
    Corps,
    Army,
}

impl UnitSize {
    pub const ALL: [UnitSize; 7] = [
        UnitSize::Company,
        UnitSize::Battalion,
        UnitSize::Regiment,
        UnitSize::Brigade,
        UnitSize::Division,
        UnitSize::Corps,
        UnitSize::Army,
    ];

    /// The NATO size mark drawn above a counter's symbol.
    pub const fn mark(self) -> &'static str {
        match self {
            UnitSize::Company => "I",
            UnitSize::Battalion => "II",
            UnitSize::Regiment => "III",
            UnitSize::Brigade => "X",
            UnitSize::Division => "XX",
            UnitSize::Corps => "XXX",
            UnitSize::Army => "XXXX",
        }
    }
}

/// A status marker on a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum UnitStatus {
    /// Killing Ground: combat result `D`.
    Disorganized,
    /// War Against Russia: flipped upside-down; may not move or attack.
    Dispersed,
    /// Rommel: has acted (moved after combat, barraged); may not move or fire again this turn.
    Tipped,
    LowSupply,
    OutOfSupply,
    /// Small General combat states, mildest first.
    Disrupted,
    Shocked,
    Panicked,
    /// Next War: under a Clearing marker.
    Clearing,
}

impl UnitStatus {
    /// Every status, in the order panels list them.
    pub const ALL: [UnitStatus; 9] = [
        UnitStatus::Disorganized,
        UnitStatus::Dispersed,
        UnitStatus::Tipped,
        UnitStatus::LowSupply,
        UnitStatus::OutOfSupply,
        UnitStatus::Disrupted,
        UnitStatus::Shocked,
        UnitStatus::Panicked,
        UnitStatus::Clearing,
    ];

    /// The status in words, as panels show it.
    pub fn word(self) -> &'static str {
        match self {
            UnitStatus::Disorganized => "disorganized",
            UnitStatus::Dispersed => "dispersed",
            UnitStatus::Tipped => "tipped",
            UnitStatus::LowSupply => "low supply",
            UnitStatus::OutOfSupply => "out of supply",
            UnitStatus::Disrupted => "disrupted",
            UnitStatus::Shocked => "shocked",
            UnitStatus::Panicked => "panicked",
            UnitStatus::Clearing => "under a Clearing marker",
        }
    }
}

/// A special ability printed on a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum UnitTrait {
    /// Rommel: cancels the terrain shift against infantry; armor so marked is not vulnerable.
    InfantrySupport,
    /// Rommel: a mobile unit that may evade its last hit.
    Mobile,
}

/// Combat values printed for one step of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepValues {
    pub attack: u32,
    pub defense: u32,
}

/// How the steps of a unit are shown and lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepKind {
    /// Printed on the counter: flip to the back, then eliminated.
    Printed,
    /// Killing Ground 8.91: a strength chit (full, then reduced side) on a parent unit that flips
    /// to its cadre side when the chit is gone.
    StrengthChit,
}

/// A unit's step track: `values[0]` is full strength; `lost` steps are gone.
/// Invariant: `1 <= values.len()` and `lost <= values.len()`; `lost == values.len()` is eliminated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepTrack {
    pub values: Vec<StepValues>,
    pub lost: usize,
    pub kind: StepKind,
}

impl StepTrack {
    pub fn single(values: StepValues) -> Self {
        Self {
            values: vec![values],
            lost: 0,
            kind: StepKind::Printed,
        }
    }

    /// Killing Ground 8.91: a chit of strength 3+ gives three steps (full chit, reduced chit,
    /// cadre); 2 or less gives two (chit, cadre). A reduced side of 0 is not a step.
    pub fn strength_chit(full: u32, reduced: u32, cadre: u32) -> Self {
        let chit = |s| StepValues { attack: s, defense: s };
        let mut values = vec![chit(full)];
        if full >= 3 && reduced > 0 {
            values.push(chit(reduced));
        }
        values.push(chit(cadre));
        Self {
            values,
            lost: 0,
            kind: StepKind::StrengthChit,
        }
    }

    pub fn total(&self) -> usize {
        self.values.len()
    }

    pub fn remaining(&self) -> usize {
        self.values.len() - self.lost
    }

    pub fn is_eliminated(&self) -> bool {
        self.remaining() == 0
    }

    /// Values of the current step (the last step's values once eliminated).
    pub fn current(&self) -> StepValues {
        self.values[self.lost.min(self.values.len() - 1)]
    }

    /// True while a strength-chit unit is down to its cadre.
    pub fn is_cadre(&self) -> bool {
        self.kind == StepKind::StrengthChit && self.remaining() == 1 && self.total() > 1
    }

    /// Loses up to `n` steps and returns how many were actually lost (never below zero).
    pub fn lose(&mut self, n: usize) -> usize {
        let lost = n.min(self.remaining());
        self.lost += lost;
        lost
    }
}

/// What the stacking limit counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StackingMeasure {
    Units,
    /// Each unit's stacking points (Next War's SPs).
    Points,
}

/// What the stacking limit means for a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum OverLimit {
    /// No move may end over the limit.
    #[default]
    Refused,
    /// Moves may end over the limit, which costs: an over-stacked cell's units lose 1 ER per point
    /// over it, only the limit's worth of units fight from or in it, and no road movement enters,
    /// passes or leaves a cell already over-stacked (Next War).
    Penalized,
}

/// How much may end a move in one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct StackingRule {
    pub measure: StackingMeasure,
    pub limit: u32,
    /// Lower (or higher) limits in some terrain, e.g. three SPs in mountains.
    pub terrain_limits: HashMap<TerrainId, u32>,
    pub over_limit: OverLimit,
}

impl StackingRule {
    /// What a unit with `stacking_points` counts toward the limit: 1 when units are counted.
    pub fn counted(&self, stacking_points: u32) -> u32 {
        match self.measure {
            StackingMeasure::Units => 1,
            StackingMeasure::Points => stacking_points,
        }
    }

    pub fn limit_in(&self, terrain: TerrainId) -> u32 {
        self.terrain_limits.get(&terrain).copied().unwrap_or(self.limit)
    }

    /// What the limit counts, in words: `units` or `stacking points`.
    pub fn unit_word(&self) -> &'static str {
        match self.measure {
            StackingMeasure::Units => "units",
            StackingMeasure::Points => "stacking points",
        }
    }

    /// Whether moves may end over the limit (with its penalties).
    pub fn penalized(&self) -> bool {
        self.over_limit == OverLimit::Penalized
    }

    /// Which units fight from or in a cell over its limit (Next War: only the limit's worth of
    /// stacking points, a unit's points never split): the set within `limit` with the most
    /// strength, then the highest ERs, then the earliest. `units` are (stacking points, strength,
    /// ER); the answer is their indices in order. When no unit fits alone (a 4-point corps where 3
    /// fight), the strongest unit fights by itself (choice: the text would leave the hex empty).
    pub fn fighting(&self, limit: u32, units: &[(u32, u32, u32)]) -> Vec<usize> {
        let counted = |i: usize| self.counted(units[i].0);
        if (0..units.len()).map(counted).sum::<u32>() <= limit {
            return (0..units.len()).collect();
        }
        if (0..units.len()).all(|i| counted(i) > limit) {
            let strongest = (0..units.len()).max_by_key(|&i| (units[i].1, units[i].2, std::cmp::Reverse(i)));
            return strongest.into_iter().collect();
        }
        if units.len() > 16 {
            // Too many to try every set: the strongest first while they fit.
            let mut order: Vec<usize> = (0..units.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse((units[i].1, units[i].2)));
            let mut room = limit;
            let mut kept: Vec<usize> = order
                .into_iter()
                .filter(|&i| {
                    let fits = counted(i) <= room;
                    if fits {
                        room -= counted(i);
                    }
                    fits
                })
                .collect();
            kept.sort_unstable();
            return kept;
        }
        let mut best: (u32, u32, u32) = (0, 0, 0);
        let mut best_set = 0u32;
        for set in 0u32..(1 << units.len()) {
            let members = || (0..units.len()).filter(move |i| set & (1 << i) != 0);
            if members().map(counted).sum::<u32>() > limit {
                continue;
            }
            let strength = members().map(|i| units[i].1).sum();
            let er = members().map(|i| units[i].2).sum();
            // Earlier units win ties: a set with lower bits set reads as larger when reversed.
            let key = (strength, er, set.reverse_bits());
            if key > best {
                best = key;
                best_set = set;
            }
        }
        (0..units.len()).filter(|i| best_set & (1 << i) != 0).collect()
    }

    /// Refuses a move that would leave more than the limit in a cell, saying by how much.
    pub fn check(&self, terrain: TerrainId, terrain_name: &str, already: u32, arriving: u32) -> Result<(), String> {
        let limit = self.limit_in(terrain);
        let unit_word = self.unit_word();
        if already + arriving > limit {
            return Err(format!(
                "stacking limit: {terrain_name} holds at most {limit} {unit_word}; {already} already there + {arriving} moving in = {}",
                already + arriving
            ));
        }
        Ok(())
    }
}

/// `n` and the noun, singular or plural: `counted(1, "hit", "hits")` is "1 hit".
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A counter's values line: `attack-defense-movement`, or `strength-movement` when attack =
/// defense and the ruleset's counters print so (`prints_defense` false: all but Next War's).
pub fn values_line(v: StepValues, movement: impl std::fmt::Display, prints_defense: bool) -> String {
    if v.attack == v.defense && !prints_defense {
        format!("{}-{movement}", v.attack)
    } else {
        format!("{}-{}-{movement}", v.attack, v.defense)
    }
}
