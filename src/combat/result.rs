//! What a combat did: per unit and per side, with the retreats and advances it demands as data.

use super::dice::Roll;
use super::situation::StatusSet;
use crate::rules::units::counted;
use serde::Serialize;
use std::fmt;

/// Who picks where a retreat goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Chooser {
    Owner,
    Opponent,
    /// Small General: a random direction.
    Random,
}

/// A retreat the result demands; carried out by the retreat-pathing systems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RetreatDemand {
    /// Cells to retreat, counted from the combat's cell.
    pub cells: u32,
    pub chooser: Chooser,
    /// Whether the retreat is voluntary (War Against Russia's `D`).
    pub optional: bool,
    /// Next War: entering an enemy zone of control calls for an ER check.
    pub er_check_in_ezoc: bool,
}

/// What the attackers may (or must) do with a vacated cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct AdvanceRight {
    /// Cells beyond the attackers' own: 1 into the defender's cell, 2 for a second-hex advance.
    pub cells: u32,
    /// At least one unit must advance (Next War, Small General).
    pub mandatory: bool,
    /// War Against Russia's breakthrough: the advancing units may attack again.
    pub attack_again: bool,
}

/// What happened to one unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct UnitResult {
    pub steps_lost: u32,
    pub eliminated: bool,
    /// Statuses gained (removed ones are in `cleared`).
    pub gained: StatusSet,
    pub cleared: StatusSet,
    pub experience: u32,
    /// This unit must leave the cell (the side's `retreat` says how).
    pub retreats: bool,
}

/// Per-unit results, inline for up to four units.
pub type UnitResults = smallvec::SmallVec<[UnitResult; 4]>;

/// What happened to one side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct SideResult {
    pub steps_lost: u32,
    /// One per unit, in the situation's order.
    pub units: UnitResults,
    pub retreat: Option<RetreatDemand>,
    pub advance: Option<AdvanceRight>,
    /// Rommel: prepared positions removed.
    pub prepared_positions_lost: u32,
    /// Rommel: barraging artillery tipped.
    pub batteries_tipped: u32,
    /// Hits scored by this side (Rommel), before any were absorbed.
    pub hits_scored: u32,
}

impl SideResult {
    /// Whether some unit of the side holds its ground: neither eliminated nor retreating. A
    /// defending side that does not hold gives up its cell (`CombatResult::cell_taken`).
    pub fn holds(&self) -> bool {
        self.units.iter().any(|u| !u.eliminated && !u.retreats)
    }

    pub(crate) fn new(n: usize) -> Self {
        Self {
            units: smallvec::smallvec![UnitResult::default(); n],
            ..Self::default()
        }
    }
}

/// The table result, as printed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ResultCode {
    /// A table entry, e.g. `1D/1r2`, `DR`, `DEF Retreat + Loss`.
    Table(std::sync::Arc<str>),
    /// Rommel: hits by each side.
    Hits { attacker: u32, defender: u32 },
    /// No combat took place (Rommel's Withdraw).
    NoCombat,
}

impl fmt::Display for ResultCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultCode::Table(s) => f.write_str(s),
            ResultCode::Hits { attacker, defender } => write!(
                f,
                "{} / {}",
                counted(*attacker, "hit", "hits"),
                counted(*defender, "hit", "hits")
            ),
            ResultCode::NoCombat => f.write_str("no combat (withdrawn)"),
        }
    }
}

/// The result of one combat, without the dice that led to it (so equal results group).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CombatResult {
    pub code: ResultCode,
    pub attacker: SideResult,
    pub defender: SideResult,
    /// The defenders no longer hold the cell.
    pub cell_taken: bool,
}

impl CombatResult {
    pub fn defender_eliminated(&self) -> bool {
        self.defender.units.iter().all(|u| u.eliminated)
    }
}

/// A resolved combat: the result, the dice and the narrative.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub result: CombatResult,
    pub rolls: Vec<Roll>,
    pub log: Vec<String>,
}
