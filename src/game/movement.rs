//! Movement orders: a stack of the active side moves to a cell along the cheapest legal path,
//! or the order is refused with the rule it breaks. The legality check is one pure search
//! (`search_moves` and `MoveSearch::plan`), shared by the order step, the GUI's reachable-cells
//! preview, the computer player and tests.

use super::components::{
    CameFrom, GameLog, GameMap, MapIndex, MovePoints, Position, Side, StackingPoints, Statuses, Unit,
};
use super::phase::{Phase, TurnState};
use crate::rules::grid::Cell;
use crate::rules::movement::{self, Blocked, Reach, StepCost};
use crate::rules::terrain::{Mobility, Mp};
use crate::rules::units::UnitClass;
use crate::rules::units::UnitStatus;
use crate::rules::zoc::{EzocToEzoc, ZocEffect, ZocMap};
use bevy::prelude::*;
use rustc_hash::FxHashMap;

/// A move was made.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    pub units: Vec<Entity>,
    pub path: Vec<Cell>,
    pub spent: Mp,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Moved>();
}

/// What the movement rules need to know about one moving unit.
#[derive(Clone, Debug)]
pub struct Mover {
    pub name: String,
    pub class: UnitClass,
    pub side: Side,
    pub cell: Cell,
    pub mobility: Mobility,
    pub move_points: MovePoints,
    pub stacking_points: u32,
    pub statuses: Statuses,
}

/// What the movement search reads of each unit.
pub type MoverData = (
    Entity,
    &'static Unit,
    &'static Side,
    &'static Position,
    &'static MovePoints,
    &'static StackingPoints,
    &'static Statuses,
);

/// Where the other units are, by cell: their side and stacking points.
pub type Occupancy = FxHashMap<Cell, Vec<(Side, u32)>>;

/// The moving group's search: reachable cells with costs, for preview and for orders.
pub struct MoveSearch {
    pub start: Cell,
    pub budget: Mp,
    /// Every reachable cell: the cheapest way there (for light infantry, the better of its two
    /// searches).
    pub reach: FxHashMap<Cell, Reach>,
    /// Next War's light infantry: the search as bound by EZOCs, using roads (the road-rate
    /// election); `reach` takes each cell from it where it is cheaper, and paths follow it there.
    by_road: Option<FxHashMap<Cell, Reach>>,
    /// The search `reach` was merged from, for paths.
    free: FxHashMap<Cell, Reach>,
}

/// Checks who may move at all in this phase, then searches every reachable cell.
pub fn search_moves(
    map: &GameMap,
    zoc: &ZocMap,
    phase: Phase,
    active: Side,
    movers: &[Mover],
    others: &Occupancy,
) -> Result<MoveSearch, String> {
    let first = movers.first().ok_or("no units selected")?;
    for m in movers {
        if m.side != active {
            return Err(format!("{} belongs to the side not moving now", m.name));
        }
        if m.cell != first.cell {
            return Err(format!(
                "{} is not in the same cell as {}: a stack moves together",
                m.name, first.name
            ));
        }
        if !phase.allows_movement(m.mobility) {
            return Err(match phase {
                Phase::Exploitation => format!(
                    "{} is on foot: only mechanized and motorized units move in the exploitation phase",
                    m.name
                ),
                p => format!("units move only in a movement phase; this is the {p:?} phase"),
            });
        }
        for (status, why) in [
            (UnitStatus::Dispersed, "dispersed units may not move"),
            (UnitStatus::Tipped, "tipped units may not move again this turn"),
        ] {
            if m.statuses.has(status) {
                return Err(format!("{}: {why}", m.name));
            }
        }
    }
    let budget = movers.iter().map(|m| m.move_points.left()).min().unwrap_or_default();
    let fresh = movers.iter().all(|m| m.move_points.spent == Mp::ZERO);
    let (cost, stop) = step_rules(Group::of(map, zoc, active, movers, others), true);
    let free = movement::reachable(&map.board.grid, first.cell, budget, fresh, cost, stop);
    // Light infantry may elect the road rate in and out of an EZOC, and then the EZOC binds it:
    // a second search as an ordinary unit, each cell taken from whichever is cheaper.
    let light_infantry = movers.iter().all(|m| m.class == UnitClass::LightInfantry);
    let by_road = (light_infantry && map.ruleset.zoc.light_infantry_bound_in.is_some()).then(|| {
        let (cost, stop) = step_rules(Group::of(map, zoc, active, movers, others), false);
        movement::reachable(&map.board.grid, first.cell, budget, fresh, cost, stop)
    });
    let mut reach = free.clone();
    for (cell, r) in by_road.iter().flatten() {
        if reach.get(cell).is_none_or(|f| r.spent < f.spent) {
            reach.insert(*cell, *r);
        }
    }
    Ok(MoveSearch {
        start: first.cell,
        budget,
        reach,
        by_road,
        free,
    })
}

/// Who searches, on what: the map, the zones of control, the side to move, the moving group and
/// every other unit.
#[derive(Clone, Copy)]
struct Group<'a> {
    map: &'a GameMap,
    zoc: &'a ZocMap,
    active: Side,
    movers: &'a [Mover],
    others: &'a Occupancy,
}

impl<'a> Group<'a> {
    fn of(map: &'a GameMap, zoc: &'a ZocMap, active: Side, movers: &'a [Mover], others: &'a Occupancy) -> Self {
        Self {
            map,
            zoc,
            active,
            movers,
            others,
        }
    }
}

/// The cost and must-stop closures for a group: the slowest unit prices each step; enemy units
/// block or (Rommel) contest; enemy zones of control end a move and may cost extra points to enter
/// or leave (Next War), except for light infantry moving alone where the ruleset says so. Next War
/// gives no road rate into or out of a cell already over-stacked, nor to light infantry stepping
/// into or out of an EZOC it ignores (it keeps its freedom only off the road). With
/// `light_infantry_free` false, light infantry is searched as an ordinary unit (the road-rate
/// election, bound by EZOCs).
fn step_rules<'a>(
    group: Group<'a>,
    light_infantry_free: bool,
) -> (
    impl Fn(Cell, Cell) -> Result<StepCost, Blocked> + 'a,
    impl Fn(Cell) -> bool + 'a,
) {
    let Group { map, movers, .. } = group;
    let rules = &map.ruleset;
    let zr = &rules.zoc;
    let contest = rules.contests_cells();
    let flags = cell_flags(group, light_infantry_free);
    let flags_too = flags.clone();
    let cost = move |from: Cell, to: Cell| -> Result<StepCost, Blocked> {
        let (at, into) = (flags(from), flags(to));
        if into & ENEMY != 0 && !contest {
            return Err(Blocked::EnemyUnits);
        }
        let road = at & ROAD_OK != 0 && into & ROAD_OK != 0;
        let mut worst = StepCost::Points(Mp::ZERO);
        for m in movers {
            match rules.movement.step_cost_by(&map.board, from, to, m.mobility, road)? {
                StepCost::WholeAllowance => worst = StepCost::WholeAllowance,
                StepCost::Points(p) => {
                    if let StepCost::Points(w) = worst {
                        worst = StepCost::Points(w.max(p));
                    }
                }
            }
        }
        let (leaving, entering) = (at & EZOC != 0, into & EZOC != 0);
        if leaving && entering && zr.ezoc_to_ezoc == EzocToEzoc::WholeAllowance {
            return Ok(StepCost::WholeAllowance);
        }
        if let StepCost::Points(p) = worst {
            let mut extra = Mp::ZERO;
            if entering && into & FRIEND == 0 {
                extra = extra + zr.enter_cost;
            }
            if leaving && at & FRIEND == 0 {
                extra = extra + zr.leave_cost;
            }
            worst = StepCost::Points(p + extra);
        }
        Ok(worst)
    };
    let stop = move |c: Cell| {
        let f = flags_too(c);
        f & EZOC != 0 || (contest && f & ENEMY != 0)
    };
    (cost, stop)
}

/// What a search asks of a cell, as bits (`cell_flags`).
const KNOWN: u8 = 1;
const ENEMY: u8 = 2;
const FRIEND: u8 = 4;
/// An enemy zone of control that binds the group here.
const EZOC: u8 = 8;
/// The road rate may be taken into or out of the cell.
const ROAD_OK: u8 = 16;

/// A cell's flags for one search, each worked out once (a search asks about a cell from each of
/// its neighbours).
fn cell_flags<'a>(group: Group<'a>, light_infantry_free: bool) -> impl Fn(Cell) -> u8 + Clone + 'a {
    let Group {
        map,
        zoc,
        active,
        movers,
        others,
    } = group;
    let rules = &map.ruleset;
    let zr = &rules.zoc;
    let side = active.0 as u8;
    let light_infantry =
        light_infantry_free && !movers.is_empty() && movers.iter().all(|m| m.class == UnitClass::LightInfantry);
    let work_out = move |c: Cell| -> u8 {
        let held = others.get(&c);
        let enemy = held.is_some_and(|v| v.iter().any(|(s, _)| *s != active));
        let friend = held.is_some_and(|v| v.iter().any(|(s, _)| *s == active));
        let stops = zr.effect == ZocEffect::StopOnEntry && zoc.in_enemy_zoc(c, side);
        let ignored = stops && light_infantry && zr.light_infantry_ignores(&map.board, c);
        let overstacked = rules.stacking.penalized() && StackAt::of(map, active, others, c).over() > 0;
        // Light infantry keeps its freedom from an EZOC only by leaving the road there.
        let road_ok = !(overstacked || (stops && ignored));
        KNOWN
            | if enemy { ENEMY } else { 0 }
            | if friend { FRIEND } else { 0 }
            | if stops && !ignored { EZOC } else { 0 }
            | if road_ok { ROAD_OK } else { 0 }
    };
    let grid = &map.board.grid;
    let memo: std::rc::Rc<[std::cell::Cell<u8>]> = (0..grid.cell_count()).map(|_| std::cell::Cell::new(0)).collect();
    move |c: Cell| match grid.index(c) {
        Some(i) => {
            let known = memo[i].get();
            if known != 0 {
                return known;
            }
            let f = work_out(c);
            memo[i].set(f);
            f
        }
        None => work_out(c),
    }
}

/// A side's stacking in one cell, as the limit counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackAt {
    pub already: u32,
    pub limit: u32,
}

impl StackAt {
    /// What the side to play already has in `cell` (the movers not counted) and the limit there.
    pub fn of(map: &GameMap, active: Side, others: &Occupancy, cell: Cell) -> Self {
        let stacking = &map.ruleset.stacking;
        let already = others.get(&cell).map_or(0, |v| {
            v.iter()
                .filter(|(s, _)| *s == active)
                .map(|(_, p)| stacking.counted(*p))
                .sum()
        });
        let limit = map.board.terrain(cell).map_or(u32::MAX, |t| stacking.limit_in(t));
        Self { already, limit }
    }

    /// By how much the cell is over its limit.
    pub fn over(&self) -> u32 {
        self.already.saturating_sub(self.limit)
    }
}

/// Whether the group may end its move in `to` (the stacking limit there); passing through is
/// always allowed. Where the ruleset penalizes over-stacking instead of refusing it, the move is
/// allowed and the answer says what it costs.
pub fn may_end_in(
    map: &GameMap,
    active: Side,
    movers: &[Mover],
    others: &Occupancy,
    to: Cell,
) -> Result<Option<String>, String> {
    let stacking = &map.ruleset.stacking;
    let here = StackAt::of(map, active, others, to);
    let arriving: u32 = movers.iter().map(|m| stacking.counted(m.stacking_points)).sum();
    let terrain = map.board.terrain(to).ok_or("off the map")?;
    match stacking.check(
        terrain,
        map.ruleset.movement.terrain_name(terrain),
        here.already,
        arriving,
    ) {
        Ok(()) => Ok(None),
        Err(_) if stacking.penalized() => {
            let over = here.already + arriving - here.limit;
            Ok(Some(format!(
                "{to} is over-stacked by {over} ({} {}, limit {}): its units lose {over} ER in combat, only {} {} fight from it, and no road movement enters or leaves it",
                here.already + arriving,
                stacking.unit_word(),
                here.limit,
                here.limit,
                stacking.unit_word(),
            )))
        }
        Err(why) => Err(why),
    }
}

impl MoveSearch {
    /// The path to `to` and what it costs, or why the group cannot get there (including the
    /// stacking limit at the destination).
    pub fn plan(
        &self,
        map: &GameMap,
        zoc: &ZocMap,
        active: Side,
        movers: &[Mover],
        others: &Occupancy,
        to: Cell,
    ) -> Result<(Vec<Cell>, Mp, bool), String> {
        if to == self.start {
            return Err(format!("the units are already in {to}"));
        }
        let Some(r) = self.reach.get(&to) else {
            let (cost, stop) = step_rules(Group::of(map, zoc, active, movers, others), true);
            return Err(movement::explain_unreachable(
                &map.board.grid,
                self.start,
                to,
                self.budget,
                cost,
                stop,
            ));
        };
        may_end_in(map, active, movers, others, to)?;
        let from_road = self
            .by_road
            .as_ref()
            .filter(|m| m.get(&to) == Some(r) && self.free.get(&to) != Some(r));
        let path = movement::path_to(from_road.unwrap_or(&self.free), to).ok_or("no path")?;
        Ok((path, r.spent, r.must_stop))
    }
}

/// Gathers the movers and everyone else from the world.
pub fn movers_and_others(selected: &[Entity], units: &Query<MoverData>) -> Result<(Vec<Mover>, Occupancy), String> {
    let mut movers = Vec::new();
    for e in selected {
        let (_, unit, side, pos, mp, sp, st) = units
            .get(*e)
            .map_err(|_| "a selected unit no longer exists".to_string())?;
        movers.push(Mover {
            name: unit.name.clone(),
            class: unit.class,
            side: *side,
            cell: pos.0,
            mobility: unit.mobility,
            move_points: *mp,
            stacking_points: sp.0,
            statuses: st.clone(),
        });
    }
    let mut others = Occupancy::default();
    for (e, _, side, pos, _, sp, _) in units.iter() {
        if !selected.contains(&e) {
            others.entry(pos.0).or_default().push((*side, sp.0));
        }
    }
    Ok((movers, others))
}

/// Carries out a move of `units` to `to` by the side to play, or says which rule forbids it.
pub(super) fn move_units(
    In((units, to)): In<(Vec<Entity>, Cell)>,
    map: Res<GameMap>,
    turn: Res<TurnState>,
    phase: Res<State<Phase>>,
    zoc: Res<super::zoc::Zoc>,
    mut index: ResMut<MapIndex>,
    mut log: ResMut<GameLog>,
    mut moved: MessageWriter<Moved>,
    mut commands: Commands,
    mut queries: ParamSet<(Query<MoverData>, Query<(&mut Position, &mut MovePoints)>)>,
) -> Result<(), String> {
    let (movers, others) = movers_and_others(&units, &queries.p0())?;
    let search = search_moves(&map, &zoc.0, *phase.get(), turn.active, &movers, &others)?;
    let who = movers.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ");
    let (path, spent, must_stop) = search.plan(&map, &zoc.0, turn.active, &movers, &others, to)?;
    let overstacked = may_end_in(&map, turn.active, &movers, &others, to)?;
    let mut apply = queries.p1();
    let came_from = CameFrom(path[path.len().saturating_sub(2)]);
    for e in &units {
        commands.entity(*e).try_insert(came_from);
        if let Ok((mut pos, mut mp)) = apply.get_mut(*e) {
            index.remove(*e, pos.0);
            index.place(*e, to);
            pos.0 = to;
            mp.spent = if must_stop { mp.allowance } else { mp.spent + spent };
        }
    }
    let route = path.iter().map(ToString::to_string).collect::<Vec<_>>().join(" → ");
    let stop = if must_stop {
        " and must stop there (enemy zone of control)"
    } else {
        ""
    };
    log.push(format!("{who} moved {route}, spending {spent} MP{stop}."));
    if let Some(cost) = overstacked {
        log.push(format!("Over-stacked: {cost}."));
    }
    moved.write(Moved { units, path, spent });
    Ok(())
}
