//! Rommel (Sam Mustafa): both sides total their values (halved when vulnerable, doubled by
//! tactics, plus barrage), roll a die each on the combat grid to count hits, shift the count,
//! and spread hits over their units; tank battles, prepared positions, Recce's shooting first,
//! evasion and the retreat of whichever side fails to hold.

mod assess;
mod contract;
mod hits;

pub use assess::assess;
pub(crate) use hits::resolve;

use super::context::Context;
use super::losses::value_now;
use super::{Battery, Combatant, Refusal, Role, Situation, Tactic, UnitResult};
use crate::rules::terrain::TerrainId;
use crate::source::LoadError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// How Rommel's rules see a terrain type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TerrainKind {
    /// Tank shock; armor is not vulnerable.
    Open,
    /// No airpower; artillery here cannot barrage.
    Woods,
    /// Shift down against infantry; artillery here cannot barrage.
    Urban,
    /// Shift down against infantry.
    Mountain,
    /// Shift down against infantry.
    Bocage,
    /// No prepared positions.
    SoftGround,
    Other,
}

/// The `Rommel(...)` section of a ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raw {
    /// One column per die face 1..6, each listing its yellow boxes from 6 hits down to 1 hit.
    pub grid: Vec<Vec<u32>>,
    /// Terrain ids by kind; terrain not listed is `Other`.
    pub terrain: BTreeMap<String, TerrainKind>,
    /// Authored (the text gives no number): shifts up for Airstrike and Carpet Bombing.
    pub airstrike_shifts: i32,
    pub carpet_bombing_shifts: i32,
    /// Evasion is not possible when this many hits or more are scored.
    pub no_evasion_from_hits: u32,
    /// Most prepared positions in one square.
    pub max_prepared_positions: u32,
}

/// Validated Rommel combat rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub raw: Raw,
    /// `grid[die - 1][k]` is the box for `6 - k` hits.
    pub grid: [[u32; 6]; 6],
    pub terrain: HashMap<TerrainId, TerrainKind>,
}

pub fn validate(cx: &Context, raw: &Raw) -> Result<Rules, LoadError> {
    if raw.grid.len() != 6 {
        return Err(cx
            .src
            .error("combat.grid", "the grid needs six columns, one per die face"));
    }
    let mut grid = [[0; 6]; 6];
    for (d, column) in raw.grid.iter().enumerate() {
        if column.len() != 6 {
            return Err(cx.src.error(
                format!("combat.grid[{d}]"),
                format!("die {} needs six boxes, from 6 hits down to 1 hit", d + 1),
            ));
        }
        if column.windows(2).any(|w| w[0] < w[1]) {
            return Err(cx.src.error(
                format!("combat.grid[{d}]"),
                format!("die {}: boxes must not rise from 6 hits down to 1 hit", d + 1),
            ));
        }
        grid[d].copy_from_slice(column);
    }
    Ok(Rules {
        terrain: cx.terrain_map("combat.terrain", &raw.terrain)?,
        grid,
        raw: raw.clone(),
    })
}

impl Rules {
    /// Yellow boxes at or below `value` for die `face` (the hits before shifts).
    pub fn grid_hits(&self, face: u8, value: u32) -> u32 {
        self.grid[(face - 1) as usize].iter().filter(|&&b| b <= value).count() as u32
    }

    pub fn kind(&self, t: TerrainId) -> TerrainKind {
        self.terrain.get(&t).copied().unwrap_or(TerrainKind::Other)
    }
}

/// Shifts up then down, never above six hits nor below none.
pub fn shift_hits(hits: u32, ups: u32, downs: u32) -> u32 {
    (hits + ups).min(6).saturating_sub(downs)
}

/// One side, worked out before the dice.
#[derive(Clone, Debug, PartialEq, Default)]
pub(super) struct SideSetup {
    pub(super) halve: Vec<bool>,
    pub(super) double: Vec<bool>,
    pub(super) barrage: u32,
    pub(super) batteries: u32,
    pub(super) ups: u32,
    pub(super) downs: u32,
}

/// Numbers worked out once per combat.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    sides: [SideSetup; 2],
    withdraw: bool,
    first: Option<Role>,
    /// Leading armor units (attacker, defender) in a tank battle.
    leads: Option<[usize; 2]>,
    advantage: Option<Role>,
    /// Evasion is possible while fewer hits than this are scored (0 under a Pinning Attack).
    evasion_below: u32,
    prepared_positions: u32,
}

pub(super) const fn ix(role: Role) -> usize {
    match role {
        Role::Attacker => 0,
        Role::Defender => 1,
    }
}

fn unit_value(u: &Combatant, res: &UnitResult, role: Role, halve: bool, double: bool) -> u32 {
    let v = value_now(u, res, role);
    match (halve, double) {
        (true, false) => v.div_ceil(2),
        (false, true) => v * 2,
        _ => v,
    }
}

pub(super) fn total(p: &Prepared, s: &Situation, role: Role, res: &[UnitResult]) -> u32 {
    let setup = &p.sides[ix(role)];
    let units = s.units(role);
    let own: u32 = (0..units.len())
        .filter(|&i| !res[i].eliminated && !res[i].retreats)
        .map(|i| unit_value(&units[i], &res[i], role, setup.halve[i], setup.double[i]))
        .sum();
    own + setup.barrage
}

/// Pairs each battery with a distinct unit of its element or parent (a unit calls one battery).
pub(super) fn match_batteries(units: &[Combatant], batteries: &[Battery]) -> Result<(), Refusal> {
    fn may_call(u: &Combatant, b: &Battery) -> bool {
        match &b.unit.element {
            Some(e) => u.element.as_ref() == Some(e),
            None => b.unit.parent.is_some() && b.unit.parent == u.parent,
        }
    }
    fn augment(b: usize, units: &[Combatant], bs: &[Battery], owner: &mut [Option<usize>], seen: &mut [bool]) -> bool {
        for u in 0..units.len() {
            if may_call(&units[u], &bs[b]) && !seen[u] {
                seen[u] = true;
                if owner[u].is_none_or(|other| augment(other, units, bs, owner, seen)) {
                    owner[u] = Some(b);
                    return true;
                }
            }
        }
        false
    }
    let mut owner = vec![None; units.len()];
    for b in 0..batteries.len() {
        let mut seen = vec![false; units.len()];
        if !augment(b, units, batteries, &mut owner, &mut seen) {
            return Err(Refusal(format!(
                "{} cannot barrage: each unit in the combat may call one artillery unit of its own element or parent, and none is left to call it",
                batteries[b].unit.name
            )));
        }
    }
    Ok(())
}

pub(super) fn kind_of(t: Tactic) -> Option<Role> {
    match t {
        Tactic::Recce | Tactic::Airstrike => None,
        Tactic::DefenseInDepth | Tactic::Withdraw => Some(Role::Defender),
        _ => Some(Role::Attacker),
    }
}
