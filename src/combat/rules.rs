//! The combat part of a ruleset file: one variant per combat system, holding its tables and
//! terrain effects as data, validated into the rules the resolution code reads.

use super::{Combatant, killing_ground, next_war, rommel, small_general, war_against_russia};
use crate::rules::terrain::TerrainId;
use crate::source::{LoadError, Source};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// `combat: Rommel(...)` etc. in a ruleset file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RawCombat {
    KillingGround(killing_ground::Raw),
    Rommel(rommel::Raw),
    WarAgainstRussia(war_against_russia::Raw),
    NextWar(next_war::Raw),
    SmallGeneral(small_general::Raw),
}

/// Validated combat rules.
#[derive(Clone, Debug, PartialEq)]
pub enum CombatRules {
    KillingGround(killing_ground::Rules),
    Rommel(rommel::Rules),
    WarAgainstRussia(war_against_russia::Rules),
    NextWar(next_war::Rules),
    SmallGeneral(small_general::Rules),
}

impl CombatRules {
    /// Whether `defender` must be attacked this combat phase because `attacker`, next to it,
    /// attacked (War Against Russia's must-attack rule; no other system has one).
    /// Whether the rules have a must-attack rule at all.
    pub fn has_must_attack(&self) -> bool {
        matches!(self, CombatRules::WarAgainstRussia(r) if r.raw.must_attack)
    }

    pub fn must_be_attacked(&self, attacker: &Combatant, defender: &Combatant) -> bool {
        match self {
            CombatRules::WarAgainstRussia(r) => r.must_be_attacked(attacker, defender),
            _ => false,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            CombatRules::KillingGround(_) => "Killing Ground",
            CombatRules::Rommel(_) => "Rommel",
            CombatRules::WarAgainstRussia(_) => "War Against Russia",
            CombatRules::NextWar(_) => "Next War",
            CombatRules::SmallGeneral(_) => "Small General",
        }
    }
}

/// What a ruleset's sections (combat, stacking, zones of control, advance) need from its terrain
/// list while they are validated.
pub struct Context<'a> {
    pub src: &'a Source<'a>,
    pub terrain_ids: &'a HashMap<String, TerrainId>,
}

impl Context<'_> {
    /// A terrain id named in the combat section.
    pub fn terrain(&self, field: &str, id: &str) -> Result<TerrainId, LoadError> {
        self.terrain_ids.get(id).copied().ok_or_else(|| {
            self.src.error(
                field.to_string(),
                format!(
                    "unknown terrain `{id}`: this ruleset defines {}",
                    crate::source::list(self.terrain_ids.keys())
                ),
            )
        })
    }

    /// A map from terrain id to `T`, keyed by `TerrainId`.
    pub fn terrain_map<T: Clone>(
        &self,
        field: &str,
        raw: &BTreeMap<String, T>,
    ) -> Result<HashMap<TerrainId, T>, LoadError> {
        raw.iter()
            .map(|(id, v)| Ok((self.terrain(&format!("{field}.{id}"), id)?, v.clone())))
            .collect()
    }

    pub fn terrain_list(&self, field: &str, raw: &[String]) -> Result<Vec<TerrainId>, LoadError> {
        raw.iter()
            .enumerate()
            .map(|(i, id)| self.terrain(&format!("{field}[{i}]"), id))
            .collect()
    }

    /// One flag per terrain (by `TerrainId`), set for the terrain ids listed.
    pub fn terrain_flags(&self, field: &str, raw: &[String]) -> Result<Vec<bool>, LoadError> {
        let mut flags = vec![false; self.terrain_ids.len()];
        for t in self.terrain_list(field, raw)? {
            flags[t.0 as usize] = true;
        }
        Ok(flags)
    }
}

impl RawCombat {
    pub fn validate(&self, cx: &Context) -> Result<CombatRules, LoadError> {
        Ok(match self {
            RawCombat::KillingGround(r) => CombatRules::KillingGround(killing_ground::validate(cx, r)?),
            RawCombat::Rommel(r) => CombatRules::Rommel(rommel::validate(cx, r)?),
            RawCombat::WarAgainstRussia(r) => CombatRules::WarAgainstRussia(war_against_russia::validate(cx, r)?),
            RawCombat::NextWar(r) => CombatRules::NextWar(next_war::validate(cx, r)?),
            RawCombat::SmallGeneral(r) => CombatRules::SmallGeneral(small_general::validate(cx, r)?),
        })
    }
}
