//! Checks a scenario's starting deployment as units are read: the ruleset's stacking limit in
//! every cell, and no cell shared by opposing sides unless the ruleset fights inside cells
//! (Rommel's contested squares). Each refusal names the unit, the cell and the limit.

use super::ruleset::Ruleset;
use super::validate::UnitSetup;
use crate::rules::grid::Cell;
use crate::rules::terrain::Board;
use crate::source::{LoadError, Source};
use std::collections::HashMap;

/// What stands in one cell so far: per side, the stacking counted and the first unit ids.
#[derive(Default)]
struct Occupants {
    by_side: Vec<(usize, u32, Vec<String>)>,
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
            && let Some((enemy, _, ids)) = here.by_side.iter().find(|(s, _, _)| *s != unit.side)
        {
            return Err(src.error(
                field,
                format!(
                    "{} (side `{}`) starts in cell {label}, where {} of side `{}` already is: opposing sides may not share a cell in {}",
                    unit.id, self.side_ids[unit.side], ids[0], self.side_ids[*enemy], self.ruleset.raw.name
                ),
            ));
        }
        let stacking = &self.ruleset.stacking;
        let counted = stacking.counted(unit.stacking_points);
        let entry = match here.by_side.iter_mut().find(|(s, _, _)| *s == unit.side) {
            Some(e) => e,
            None => {
                here.by_side.push((unit.side, 0, Vec::new()));
                here.by_side.last_mut().expect("just pushed")
            }
        };
        entry.1 = entry.1.saturating_add(counted);
        if entry.2.len() < 4 {
            entry.2.push(unit.id.clone());
        }
        let Some(terrain) = self.board.terrain(unit.cell) else {
            return Ok(());
        };
        let limit = stacking.limit_in(terrain);
        if self.stacking_checked && entry.1 > limit {
            let what = stacking.unit_word();
            let mut others = entry.2.clone();
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
                    entry.1,
                ),
            ));
        }
        Ok(())
    }
}
