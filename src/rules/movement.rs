//! Movement: what a step into a neighbouring cell costs (terrain, edges, roads), every cell a unit
//! can reach with its movement points, the path there, and why a cell is out of reach.
//! Pure functions over plain data; costs and stops come in as closures, as in `hexx::algorithms`.

use super::grid::{Cell, Grid};
use super::terrain::{Board, EdgeFeature, Mobility, Mp, TerrainId};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

/// What crossing an edge feature does to a moving unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeCrossing {
    NoEffect,
    /// Adds movement points to the step.
    Add(Mp),
    /// The crossing takes the unit's whole allowance, so only a unit that has not moved yet may
    /// make it (War Against Russia's "movement limited to 1 hex" across lakes).
    WholeAllowance,
    Prohibited,
}

/// The movement part of a ruleset, indexed by terrain and edge feature.
#[derive(Clone, Debug, PartialEq)]
pub struct MovementRules {
    /// Per terrain (by `TerrainId`): its name and its cost per mobility; `None` = prohibited.
    pub terrain: Vec<(String, [Option<Mp>; 3])>,
    /// Per edge feature (by `EdgeFeature as usize`).
    pub edges: [EdgeCrossing; 7],
    /// Cost of a step along a road, per mobility; `None` = that mobility gets no road bonus.
    pub road: [Option<Mp>; 3],
}

/// What a single step costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepCost {
    Points(Mp),
    WholeAllowance,
}

/// Why a single step is impossible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocked {
    OffMap,
    Terrain { terrain: String, mobility: Mobility },
    Edge(EdgeFeature),
    EnemyUnits,
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocked::OffMap => f.write_str("it is off the map"),
            Blocked::Terrain { terrain, mobility } => {
                write!(f, "{terrain} is prohibited terrain for {mobility:?} units")
            }
            Blocked::Edge(feature) => write!(f, "crossing a {feature:?} edge is prohibited"),
            Blocked::EnemyUnits => f.write_str("it holds enemy units"),
        }
    }
}

impl MovementRules {
    /// The cost for a unit of `mobility` to step from `from` into its neighbour `to`.
    /// A road along the edge (and over any water only by a bridge) replaces terrain and edge costs.
    pub fn step_cost(&self, board: &Board, from: Cell, to: Cell, mobility: Mobility) -> Result<StepCost, Blocked> {
        self.step_cost_by(board, from, to, mobility, true)
    }

    /// `step_cost`, with the road rate used only when `road` allows it (Next War: not into or out
    /// of an over-stacked cell, nor by light infantry keeping its freedom from an EZOC).
    pub fn step_cost_by(
        &self,
        board: &Board,
        from: Cell,
        to: Cell,
        mobility: Mobility,
        road: bool,
    ) -> Result<StepCost, Blocked> {
        let terrain = board.terrain(to).ok_or(Blocked::OffMap)?;
        let edge = board.edge(from, to);
        let m = mobility as usize;
        if road
            && edge.contains(EdgeFeature::Road)
            && !edge.has_unbridged_water()
            && let Some(cost) = self.road[m]
        {
            return Ok(StepCost::Points(cost));
        }
        let (name, costs) = &self.terrain[terrain.0 as usize];
        let mut total = costs[m].ok_or_else(|| Blocked::Terrain {
            terrain: name.clone(),
            mobility,
        })?;
        let bridged = edge.contains(EdgeFeature::Bridge);
        let mut whole = false;
        for feature in edge.iter() {
            if bridged && feature.is_water() {
                continue;
            }
            match self.edges[feature as usize] {
                EdgeCrossing::NoEffect => {}
                EdgeCrossing::Add(extra) => total = total + extra,
                EdgeCrossing::WholeAllowance => whole = true,
                EdgeCrossing::Prohibited => return Err(Blocked::Edge(feature)),
            }
        }
        Ok(if whole {
            StepCost::WholeAllowance
        } else {
            StepCost::Points(total)
        })
    }

    pub fn terrain_name(&self, id: TerrainId) -> &str {
        &self.terrain[id.0 as usize].0
    }
}

/// How a cell was reached: points spent to get there and the cell before it on the cheapest path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub spent: Mp,
    pub came_from: Option<Cell>,
    /// Movement must end here (an enemy zone of control, a contested cell).
    pub must_stop: bool,
}

/// Every cell reachable from `start` with `budget` points left. `fresh` is true when the unit
/// has not moved yet this phase (only then may a step take its whole allowance).
/// `cost(from, to)` prices one step; `must_stop(cell)` says movement ends on entering `cell`.
/// Ties resolve by cell order, so the result is deterministic.
pub fn reachable(
    grid: &Grid,
    start: Cell,
    budget: Mp,
    fresh: bool,
    cost: impl Fn(Cell, Cell) -> Result<StepCost, Blocked>,
    must_stop: impl Fn(Cell) -> bool,
) -> FxHashMap<Cell, Reach> {
    let origin = Reach {
        spent: Mp::ZERO,
        came_from: None,
        must_stop: false,
    };
    let Some(start_at) = grid.index(start) else {
        return FxHashMap::from_iter([(start, origin)]);
    };
    // The best way to each cell so far, by the cell's index on the grid.
    let mut best: Vec<Option<Reach>> = vec![None; grid.cell_count()];
    best[start_at] = Some(origin);
    let mut frontier = BinaryHeap::new();
    frontier.push(Reverse((Mp::ZERO, start, start_at)));
    while let Some(Reverse((so_far, cell, at))) = frontier.pop() {
        let Some(here) = best[at] else { continue };
        if so_far > here.spent || here.must_stop {
            continue;
        }
        for next in grid.neighbours(cell) {
            let Some(next_at) = grid.index(next) else { continue };
            let step = match cost(cell, next) {
                Ok(StepCost::Points(p)) => so_far + p,
                // Only a unit that has not moved may spend its whole allowance on one step.
                Ok(StepCost::WholeAllowance) if fresh && so_far == Mp::ZERO => budget,
                Ok(StepCost::WholeAllowance) | Err(_) => continue,
            };
            if step > budget || best[next_at].is_some_and(|r| r.spent <= step) {
                continue;
            }
            best[next_at] = Some(Reach {
                spent: step,
                came_from: Some(cell),
                must_stop: must_stop(next),
            });
            frontier.push(Reverse((step, next, next_at)));
        }
    }
    grid.cells()
        .zip(best)
        .filter_map(|(cell, reach)| Some((cell, reach?)))
        .collect()
}

/// The cheapest path from the search's start to `dest`, both included; `None` if unreachable.
pub fn path_to(reach: &FxHashMap<Cell, Reach>, dest: Cell) -> Option<Vec<Cell>> {
    let mut path = vec![dest];
    let mut cur = *reach.get(&dest)?;
    while let Some(prev) = cur.came_from {
        path.push(prev);
        cur = reach[&prev];
    }
    path.reverse();
    Some(path)
}

/// Explains, in a sentence a player reads, why `dest` is not among the cells reachable with
/// `budget` points left: not enough points (with how many it needs), or what blocks every way in.
pub fn explain_unreachable(
    grid: &Grid,
    start: Cell,
    dest: Cell,
    budget: Mp,
    cost: impl Fn(Cell, Cell) -> Result<StepCost, Blocked>,
    must_stop: impl Fn(Cell) -> bool,
) -> String {
    if !grid.contains(dest) {
        return format!("{dest} is off the map");
    }
    let unlimited = reachable(grid, start, Mp::MAX, false, &cost, &must_stop);
    if let Some(r) = unlimited.get(&dest) {
        return format!(
            "not enough movement points: reaching {dest} costs {} but only {budget} are left",
            r.spent
        );
    }
    let mut reasons: Vec<String> = grid
        .neighbours(dest)
        .filter_map(|from| cost(from, dest).err())
        .map(|b| b.to_string())
        .collect();
    reasons.sort();
    reasons.dedup();
    let into = grid.neighbours(dest).count();
    let blocked_from_all = grid.neighbours(dest).all(|from| cost(from, dest).is_err());
    if blocked_from_all && reasons.len() == 1 && into > 0 {
        return format!("cannot enter {dest}: {}", reasons[0]);
    }
    format!(
        "no legal path to {dest}: every route is blocked by enemy units, prohibited terrain or edges, or a zone of control that ends movement"
    )
}

/// The simplest zone of control: every cell holding an enemy unit and each of its neighbours.
pub fn adjacent_zoc(grid: &Grid, enemy_cells: impl IntoIterator<Item = Cell>) -> FxHashSet<Cell> {
    let mut zoc = FxHashSet::default();
    for cell in enemy_cells {
        zoc.insert(cell);
        zoc.extend(grid.neighbours(cell));
    }
    zoc
}
