//! Retreat after combat: every legal retreat path for one unit (each step one cell farther from
//! the combat), why each other path is illegal, the retreat priorities, and the automatic choice.
//! `retreat_paths` is generic over step and end checks given as closures (as `hexx::algorithms`
//! takes costs); `legal_retreats` supplies the checks a ruleset's `RetreatRules` describe.

use super::grid::{Cell, Grid, MapEdge};
use super::movement::MovementRules;
use super::terrain::{Board, EdgeFeature, Mobility};
use super::units::StackingRule;
use super::zoc::{ZocMap, ZocRules};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// May a retreat step enter a cell in an enemy zone of control?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EzocEntry {
    /// Only if friendly units are there (War Against Russia, the classic rule, Small General's
    /// "only into a friendly hex").
    UnlessFriendly,
    /// Yes, but it calls for an ER check unless friendly units are there (Next War).
    ErCheck,
}

/// May a retreat end in an enemy zone of control?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EzocEnd {
    UnlessFriendly,
    Allowed,
}

/// Crossing unbridged rivers in a retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RiverRetreat {
    /// As movement allows.
    AsMovement,
    /// Only light infantry crosses an unbridged river (Next War).
    LightInfantryOnly,
}

/// What happens to a unit with no legal path of the full length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WhenBlocked {
    /// It stays; the lowest-ER unit of those that stay makes an ER check and loses a step if it
    /// fails (Next War).
    StayWithErCheck,
    /// It retreats as far as it can and loses a step for each cell short (Killing Ground, by
    /// 8.93's cells-for-steps exchange).
    StepPerCellShort,
    /// It is eliminated (Small General, Rommel, War Against Russia's surrounded units).
    Eliminated,
}

/// A ruleset's retreat rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetreatRules {
    pub ezoc_entry: EzocEntry,
    pub ezoc_end: EzocEnd,
    /// Each step no closer to any attacking unit (War Against Russia).
    #[serde(default)]
    pub no_closer_to_attackers: bool,
    /// Never into a cell an attacking unit entered the combat from (Rommel).
    #[serde(default)]
    pub not_where_attackers_came_from: bool,
    pub rivers: RiverRetreat,
    /// A retreat may end over the stacking limit (Next War, with its penalties).
    #[serde(default)]
    pub may_overstack: bool,
    pub when_blocked: WhenBlocked,
    /// Units that retreated into a cell add nothing to its defense if it is attacked later in
    /// the same combat phase (Next War).
    #[serde(default)]
    pub retreated_units_do_not_defend: bool,
    /// A retreat may not end in an enemy installation holding no friendly unit (Next War).
    #[serde(default)]
    pub not_into_enemy_installations: bool,
}

/// Who is retreating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retreater {
    pub side: u8,
    pub mobility: Mobility,
    pub light_infantry: bool,
    /// What it counts toward the stacking limit (`StackingRule::counted`).
    pub stacking_points: u32,
    pub home_edge: Option<MapEdge>,
    /// The cell it entered the combat from; the automatic choice prefers going back there.
    pub came_from: Option<Cell>,
}

/// The friendly units already in a cell, as a retreat sees them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Friends {
    /// Units that did not retreat this phase.
    pub units: u32,
    /// What everyone there counts toward the stacking limit (retreated units included).
    pub stacking: u32,
}

/// What the retreat checks read from the game.
pub struct RetreatWorld<'a> {
    pub board: &'a Board,
    pub movement: &'a MovementRules,
    pub stacking: &'a StackingRule,
    pub zoc_rules: &'a ZocRules,
    pub zoc: &'a ZocMap,
    pub rules: &'a RetreatRules,
    /// Friendly units in a cell, for the retreating unit's side.
    pub friends: &'a dyn Fn(Cell) -> Friends,
    /// Cells of the attacking units.
    pub attackers: &'a [Cell],
    /// Cells the attackers entered the combat from.
    pub attackers_came_from: &'a [Cell],
    /// Whether a cell holds an installation of the retreating unit's enemy.
    pub enemy_installation: &'a dyn Fn(Cell) -> bool,
}

/// What one legal step tells the priorities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// It enters an enemy ZOC with no friendly units there.
    pub ezoc: bool,
    /// It brings the unit closer to its friendly map edge.
    pub toward_home: bool,
}

impl StepInfo {
    /// Next War's retreat priorities, 1 best: toward the friendly edge and free of EZOC, free of
    /// EZOC, toward the friendly edge, anything else legal.
    pub const fn priority(self) -> u8 {
        match (self.toward_home, self.ezoc) {
            (true, false) => 1,
            (false, false) => 2,
            (true, true) => 3,
            (false, true) => 4,
        }
    }
}

/// The cells of a retreat after the start.
pub type RetreatCells = SmallVec<[Cell; 4]>;

/// One legal retreat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatPath {
    pub cells: RetreatCells,
    /// Priority of each step (see `StepInfo::priority`).
    pub priorities: SmallVec<[u8; 4]>,
    /// It enters or passes an enemy ZOC without friendly units.
    pub through_ezoc: bool,
}

impl RetreatPath {
    pub fn end(&self) -> Cell {
        *self.cells.last().expect("a retreat has at least one cell")
    }
}

/// A path (or first part of one) that is not a legal retreat, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalRetreat {
    pub cells: RetreatCells,
    pub reason: String,
}

/// Every legal retreat of one length, and every illegal one with its reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RetreatOptions {
    pub legal: Vec<RetreatPath>,
    pub illegal: Vec<IllegalRetreat>,
}

/// Every path of `length` cells from `from` that steps one cell farther from `from` each time,
/// checked step by step with `step(previous, next)` and at its end with `end(cell)`. A path that
/// fails is reported once, at the step that fails (its continuations are not listed).
pub fn retreat_paths(
    grid: &Grid,
    from: Cell,
    length: u32,
    step: impl Fn(Cell, Cell) -> Result<StepInfo, String>,
    end: impl Fn(Cell) -> Result<(), String>,
) -> RetreatOptions {
    let mut out = RetreatOptions::default();
    if length == 0 {
        return out;
    }
    let mut cells = RetreatCells::new();
    let mut priorities = SmallVec::new();
    extend(
        grid,
        from,
        length,
        &step,
        &end,
        &mut cells,
        &mut priorities,
        false,
        &mut out,
    );
    out
}

#[allow(clippy::too_many_arguments)]
fn extend(
    grid: &Grid,
    from: Cell,
    length: u32,
    step: &impl Fn(Cell, Cell) -> Result<StepInfo, String>,
    end: &impl Fn(Cell) -> Result<(), String>,
    cells: &mut RetreatCells,
    priorities: &mut SmallVec<[u8; 4]>,
    through_ezoc: bool,
    out: &mut RetreatOptions,
) {
    let here = cells.last().copied().unwrap_or(from);
    let depth = cells.len() as u32 + 1;
    for next in grid.neighbours(here) {
        if grid.distance(from, next) != depth || cells.contains(&next) {
            continue;
        }
        cells.push(next);
        match step(here, next) {
            Err(reason) => out.illegal.push(IllegalRetreat {
                cells: cells.clone(),
                reason,
            }),
            Ok(info) => {
                priorities.push(info.priority());
                let ezoc = through_ezoc || info.ezoc;
                if depth == length {
                    match end(next) {
                        Ok(()) => out.legal.push(RetreatPath {
                            cells: cells.clone(),
                            priorities: priorities.clone(),
                            through_ezoc: ezoc,
                        }),
                        Err(reason) => out.illegal.push(IllegalRetreat {
                            cells: cells.clone(),
                            reason,
                        }),
                    }
                } else {
                    extend(grid, from, length, step, end, cells, priorities, ezoc, out);
                }
                priorities.pop();
            }
        }
        cells.pop();
    }
}

/// Every legal retreat of `length` cells from `from` for `unit`, by the ruleset's rules.
pub fn legal_retreats(world: &RetreatWorld, unit: &Retreater, from: Cell, length: u32) -> RetreatOptions {
    let grid = &world.board.grid;
    let rules = world.rules;
    let step = |prev: Cell, next: Cell| -> Result<StepInfo, String> {
        if world.zoc.enemy_in(next, unit.side) {
            return Err(format!("{next} holds enemy units"));
        }
        let edge = world.board.edge(prev, next);
        let unbridged_river = !edge.contains(EdgeFeature::Bridge)
            && (edge.contains(EdgeFeature::River) || edge.contains(EdgeFeature::MajorRiver));
        if rules.rivers == RiverRetreat::LightInfantryOnly && unbridged_river && !unit.light_infantry {
            return Err(format!(
                "only light infantry retreats across the unbridged river between {prev} and {next}"
            ));
        }
        world
            .movement
            .step_cost(world.board, prev, next, unit.mobility)
            .map_err(|b| format!("{next}: {b}"))?;
        if rules.not_where_attackers_came_from && world.attackers_came_from.contains(&next) {
            return Err(format!("the attackers came from {next}: no retreat into it"));
        }
        if rules.no_closer_to_attackers
            && let Some(a) = world
                .attackers
                .iter()
                .find(|a| grid.distance(next, **a) < grid.distance(prev, **a))
        {
            return Err(format!("{next} is closer to the attacking units at {a}"));
        }
        let friends = (world.friends)(next);
        let ezoc = world.zoc.in_enemy_zoc(next, unit.side) && friends.units == 0;
        if ezoc && rules.ezoc_entry == EzocEntry::UnlessFriendly {
            return Err(format!(
                "{next} is in the enemy zone of control of {} and holds no friendly unit",
                cells_text(&world.zoc.projectors(world.board, world.zoc_rules, next, unit.side))
            ));
        }
        let toward_home = unit
            .home_edge
            .is_some_and(|e| grid.cells_from_edge(next, e) < grid.cells_from_edge(prev, e));
        Ok(StepInfo { ezoc, toward_home })
    };
    let end = |cell: Cell| -> Result<(), String> {
        let friends = (world.friends)(cell);
        if rules.ezoc_end == EzocEnd::UnlessFriendly && friends.units == 0 && world.zoc.in_enemy_zoc(cell, unit.side) {
            return Err(format!(
                "the retreat would end alone in the enemy zone of control of {}",
                cells_text(&world.zoc.projectors(world.board, world.zoc_rules, cell, unit.side))
            ));
        }
        if rules.not_into_enemy_installations && friends.stacking == 0 && (world.enemy_installation)(cell) {
            return Err(format!(
                "{cell} is an enemy installation holding no friendly unit: a retreat may not end there"
            ));
        }
        if !rules.may_overstack
            && let Some(t) = world.board.terrain(cell)
        {
            world.stacking.check(
                t,
                world.movement.terrain_name(t),
                friends.stacking,
                unit.stacking_points,
            )?;
        }
        Ok(())
    };
    retreat_paths(grid, from, length, step, end)
}

fn cells_text(cells: &[Cell]) -> String {
    cells.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// Who picks among the legal retreats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picker {
    /// The owner: the best path by the priorities.
    Owner,
    /// The opponent: the worst path for the owner by the same priorities.
    Opponent,
    /// A die roll: `roll` in `1..=n` picks the `roll`-th legal path.
    Random { roll: u32 },
}

/// The automatic choice among `legal` (none when it is empty). The owner prefers going back to
/// where it came from, then the priorities step by step; the opponent takes the reverse; ties go
/// to the first path listed, so the choice is deterministic.
/// Why `choose_retreat` picked `path`, in words, for the retreat panel.
pub fn why_chosen(path: &RetreatPath, unit: &Retreater, picker: Picker) -> &'static str {
    match picker {
        Picker::Owner if unit.came_from == Some(path.end()) => {
            "back the way it came, which the ruleset prefers over the priorities"
        }
        Picker::Owner => "the best priorities (P1 first)",
        Picker::Opponent => "the opponent's pick: not back the way it came, then the worst priorities for the unit",
        Picker::Random { .. } => "a die roll",
    }
}

pub fn choose_retreat<'p>(legal: &'p [RetreatPath], unit: &Retreater, picker: Picker) -> Option<&'p RetreatPath> {
    let key = |p: &RetreatPath| (unit.came_from != Some(p.end()), p.priorities.clone());
    match picker {
        Picker::Owner => legal.iter().min_by_key(|p| key(p)),
        Picker::Opponent => legal.iter().rev().max_by_key(|p| key(p)),
        Picker::Random { roll } => legal.get((roll.max(1) as usize - 1) % legal.len().max(1)),
    }
}

#[cfg(test)]
mod suggestion_tests {
    use super::*;
    use crate::rules::grid::parse_label;

    fn path(end: &str, priority: u8) -> RetreatPath {
        RetreatPath {
            cells: [parse_label(end).unwrap()].into_iter().collect(),
            priorities: [priority].into_iter().collect(),
            through_ezoc: false,
        }
    }

    #[test]
    fn the_suggestion_says_why_it_was_picked() {
        let legal = [path("0202", 1), path("0101", 3)];
        let mut unit = Retreater {
            side: 0,
            mobility: crate::rules::terrain::Mobility::Foot,
            light_infantry: false,
            stacking_points: 1,
            home_edge: None,
            came_from: None,
        };
        // Owner: the best priority.
        let best = choose_retreat(&legal, &unit, Picker::Owner).unwrap();
        assert_eq!(best.end(), parse_label("0202").unwrap());
        assert_eq!(why_chosen(best, &unit, Picker::Owner), "the best priorities (P1 first)");
        // Back the way it came beats a better priority, and the panel says so.
        unit.came_from = Some(parse_label("0101").unwrap());
        let back = choose_retreat(&legal, &unit, Picker::Owner).unwrap();
        assert_eq!(back.end(), parse_label("0101").unwrap());
        assert!(why_chosen(back, &unit, Picker::Owner).starts_with("back the way it came"));
        // The opponent picks the worst for the unit.
        let worst = choose_retreat(&legal, &unit, Picker::Opponent).unwrap();
        assert_eq!(worst.end(), parse_label("0202").unwrap());
        assert!(why_chosen(worst, &unit, Picker::Opponent).starts_with("the opponent's pick"));
    }
}
