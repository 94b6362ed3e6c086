//! Checks a scenario's starting deployment as units are read: the ruleset's stacking limit in
//! every cell, and no cell shared by opposing sides unless the ruleset fights inside cells
//! (Rommel's contested squares). Each refusal names the unit, the cell and the limit.

use super::ruleset::Ruleset;
use super::setup::UnitSetup;
use crate::rules::grid::Cell;
use crate::rules::terrain::Board;
use crate::source::{LoadError, Source};
use std::collections::HashMap;

/// One side's units in a cell so far.
struct SideHere {
    side: usize,
    /// What they count toward the stacking limit.
    counted: u32,
    /// The first few ids, for messages.
    ids: Vec<String>,
}

/// What stands in one cell so far, side by side.
#[derive(Default)]
struct Occupants {
    by_side: Vec<SideHere>,
}

/// The deployment read so far.
pub(crate) struct Deployment<'a> {
    ruleset: &'a Ruleset,
    board: &'a Board,
    side_ids: &'a [String],
    /// Whether over-stacking is checked: at a game's start; not in a position reached in play (a
    /// first-format save, a game's current position), where retreats and advances may have ended
    /// over the limit as the rules allow.
    stacking_checked: bool,
    cells: HashMap<Cell, Occupants>,
}

impl<'a> Deployment<'a> {
    pub(crate) fn new(ruleset: &'a Ruleset, board: &'a Board, side_ids: &'a [String], in_progress: bool) -> Self {
        Self {
            ruleset,
            board,
            side_ids,
            stacking_checked: !in_progress,
            cells: HashMap::new(),
        }
    }

    /// Places unit `i` (`units[i]` in the file) and refuses it when its cell is then over the
    /// stacking limit or held by another side.
    pub(crate) fn place(&mut self, src: &Source, i: usize, unit: &UnitSetup, label: &str) -> Result<(), LoadError> {
        let field = format!("units[{i}].cell");
        let here = self.cells.entry(unit.cell).or_default();
        if !self.ruleset.contests_cells()
            && let Some(enemy) = here.by_side.iter().find(|h| h.side != unit.side)
        {
            return Err(src.error(
                field,
                format!(
                    "{} (side `{}`) starts in cell {label}, where {} of side `{}` already is: opposing sides may not share a cell in {}",
                    unit.id, self.side_ids[unit.side], enemy.ids[0], self.side_ids[enemy.side], self.ruleset.raw.name
                ),
            ));
        }
        let stacking = &self.ruleset.stacking;
        let counted = stacking.counted(unit.stacking_points);
        let entry = match here.by_side.iter().position(|h| h.side == unit.side) {
            Some(k) => &mut here.by_side[k],
            None => {
                here.by_side.push(SideHere {
                    side: unit.side,
                    counted: 0,
                    ids: Vec::new(),
                });
                here.by_side.last_mut().expect("just pushed")
            }
        };
        entry.counted = entry.counted.saturating_add(counted);
        if entry.ids.len() < 4 {
            entry.ids.push(unit.id.clone());
        }
        let Some(terrain) = self.board.terrain(unit.cell) else {
            return Ok(());
        };
        let limit = stacking.limit_in(terrain);
        if self.stacking_checked && entry.counted > limit {
            let what = stacking.unit_word();
            let mut others = entry.ids.clone();
            others.retain(|id| *id != unit.id);
            let before = if others.is_empty() {
                "nothing else there".to_string()
            } else {
                format!("{} there before it", others.join(", "))
            };
            return Err(src.error(
                field,
                format!(
                    "cell {label} is over the stacking limit: a {} cell holds at most {limit} {what} of a side in {}; with {} it would hold {} ({before})",
                    self.ruleset.movement.terrain_name(terrain),
                    self.ruleset.raw.name,
                    unit.id,
                    entry.counted,
                ),
            ));
        }
        Ok(())
    }
}
