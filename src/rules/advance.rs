//! Advance after combat: which cells a surviving attacker may advance into once the defender's
//! cell is vacated (and why the others are refused), by a ruleset's `AdvanceRules`.

use super::grid::Cell;
use super::movement::MovementRules;
use super::terrain::{Board, EdgeFeature, FeatureClass, Mobility};
use serde::{Deserialize, Serialize};

/// A ruleset's advance-after-combat rules, as written in its file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAdvanceRules {
    /// Units with an attack strength of zero stacked with an attacker may advance with it.
    #[serde(default)]
    pub zero_attack_followers: bool,
    /// The attacker moves in without being asked (Small General).
    #[serde(default)]
    pub automatic: bool,
    /// Units that fought lose their remaining movement points (Small General).
    #[serde(default)]
    pub fought_units_lose_movement: bool,
    /// Terrain a second-cell advance may not enter.
    #[serde(default)]
    pub second_cell_not_into: Vec<String>,
    /// Terrain a second-cell advance enters only along a road or over a bridge (as it does across
    /// rivers).
    #[serde(default)]
    pub second_cell_by_road_into: Vec<String>,
    /// Advancing into these terrains puts the units under a Clearing marker (Next War: urban).
    #[serde(default)]
    pub clearing_in: Vec<String>,
    /// Advancing ignores the stacking limit (the over-stacking rules apply afterwards).
    #[serde(default)]
    pub may_overstack: bool,
    /// Cell features a second-cell advance may not enter (Next War: fortification, city,
    /// installation), nor start from when the defender held them (city, installation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub second_cell_not_into_features: Vec<FeatureClass>,
    /// Advancing into a vacated cell with one of these features places a Clearing marker (Next
    /// War: city, installation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clearing_in_features: Vec<FeatureClass>,
}

/// The validated rules, terrain by `TerrainId`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AdvanceRules {
    pub zero_attack_followers: bool,
    pub automatic: bool,
    pub fought_units_lose_movement: bool,
    pub second_cell_not_into: Vec<bool>,
    pub second_cell_by_road_into: Vec<bool>,
    pub clearing_in: Vec<bool>,
    pub may_overstack: bool,
    pub second_cell_not_into_features: Vec<FeatureClass>,
    pub clearing_in_features: Vec<FeatureClass>,
}

fn flag(v: &[bool], board: &Board, cell: Cell) -> bool {
    board
        .terrain(cell)
        .is_some_and(|t| v.get(t.0 as usize).copied().unwrap_or(false))
}

impl AdvanceRules {
    /// Whether advancing into `cell` places a Clearing marker.
    pub fn clears(&self, board: &Board, cell: Cell) -> bool {
        flag(&self.clearing_in, board, cell)
            || board.has_feature(cell, |f| self.clearing_in_features.contains(&f.class()))
    }

    /// The feature of `cell` a second-cell advance may not enter, if any.
    pub fn barring_feature(&self, board: &Board, cell: Cell) -> Option<super::terrain::CellFeature> {
        board
            .features(cell)
            .iter()
            .copied()
            .find(|f| self.second_cell_not_into_features.contains(&f.class()))
    }
}

/// A cell an advancing unit might enter and whether it may.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdvanceTarget {
    pub cell: Cell,
    /// 1 = the defender's cell, 2 = a second-cell advance beyond it.
    pub depth: u32,
    pub allowed: Result<(), String>,
}

/// Every cell `mobility` might advance into after vacating `vacated` with `cells` of advance
/// (1, or 2 with a second-cell advance), each with whether it may. `occupied(cell)` says whether
/// any unit stands there; `mechanized`-or-motorized alone make second-cell advances. ZOCs are
/// ignored, as the texts say.
pub fn advance_targets(
    board: &Board,
    movement: &MovementRules,
    rules: &AdvanceRules,
    mobility: Mobility,
    vacated: Cell,
    cells: u32,
    occupied: &dyn Fn(Cell) -> bool,
) -> Vec<AdvanceTarget> {
    let mut out = vec![AdvanceTarget {
        cell: vacated,
        depth: 1,
        allowed: Ok(()),
    }];
    if cells < 2 {
        return out;
    }
    for next in board.grid.neighbours(vacated) {
        let allowed = if mobility == Mobility::Foot {
            Err("only mechanized and motorized units make a second-cell advance".to_string())
        } else if occupied(next) {
            Err(format!("{next} is not vacant"))
        } else if flag(&rules.second_cell_not_into, board, next) {
            let t = board.terrain(next).map_or("", |t| movement.terrain_name(t));
            Err(format!("a second-cell advance may not enter {t}"))
        } else if let Some(f) = rules.barring_feature(board, next) {
            Err(format!("a second-cell advance may not enter a {} ({next})", f.word()))
        } else {
            let edge = board.edge(vacated, next);
            let by_road = edge.contains(EdgeFeature::Road) || edge.contains(EdgeFeature::Bridge);
            let river = edge.contains(EdgeFeature::River) || edge.contains(EdgeFeature::MajorRiver);
            if (flag(&rules.second_cell_by_road_into, board, next) || river) && !by_road {
                let what = if river {
                    "across a river".to_string()
                } else {
                    format!("into {}", board.terrain(next).map_or("", |t| movement.terrain_name(t)))
                };
                Err(format!(
                    "a second-cell advance {what} needs a road or bridge from {vacated}"
                ))
            } else {
                movement
                    .step_cost(board, vacated, next, mobility)
                    .map(|_| ())
                    .map_err(|b| format!("{next}: {b}"))
            }
        };
        out.push(AdvanceTarget {
            cell: next,
            depth: 2,
            allowed,
        });
    }
    out
}
