//! What-if queries a designer asks of a ruleset on a map (`hexfront inspect`): the zones of
//! control a side faces, where a unit can move, every retreat with its priority or the rule that
//! refuses it, and where an attacker may advance. Each answer comes from the functions the game
//! itself plays by, on a game opened headless.

use super::advance::advance_options;
use super::combat_phase::PendingAdvance;
use super::components::{GameMap, MapIndex, Sides, Unit, UnitIds};
use super::movement::{MoverData, movers_and_others, search_moves};
use super::phase::{Phase, TurnState, current_phase};
use super::view::GameView;
use super::zoc::Zoc;
use crate::combat::AdvanceRight;
use crate::rules::grid::{Cell, label, parse_label};
use crate::rules::movement::path_to;
use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use serde::Serialize;

/// The zone of control a side faces.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ZocReport {
    /// The side's name.
    pub side: String,
    pub cells: Vec<ZocCell>,
}

/// A cell in the zone of control of a side's enemies, and who puts it there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ZocCell {
    pub cell: String,
    pub projected_from: Vec<Projector>,
}

/// A cell whose enemy units project a zone of control, and those units.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Projector {
    pub cell: String,
    pub units: Vec<String>,
}

/// Every cell in the zone of control of `side`'s enemies, in row order.
pub fn zoc(world: &mut World, side: &str) -> Result<ZocReport, String> {
    let side = side_index(world, side)?;
    let side_name = world.resource::<Sides>().0[side].name.clone();
    let mut state: SystemState<(
        Res<GameMap>,
        Res<Zoc>,
        Res<MapIndex>,
        Query<(&Unit, &super::components::Side)>,
    )> = SystemState::new(world);
    let (map, zoc, index, units) = state.get(world).map_err(|e| format!("the game is not open: {e}"))?;
    let names_in = |cell: Cell| -> Vec<String> {
        index
            .stack(cell)
            .iter()
            .filter_map(|e| units.get(*e).ok())
            .filter(|(_, s)| s.0 != side)
            .map(|(u, _)| format!("{} ({})", u.name, u.id))
            .collect()
    };
    let cells = zoc
        .0
        .enemy_zone(side as u8)
        .map(|cell| ZocCell {
            cell: label(cell),
            projected_from: zoc
                .0
                .projectors(&map.board, &map.ruleset.zoc, cell, side as u8)
                .into_iter()
                .map(|from| Projector {
                    cell: label(from),
                    units: names_in(from),
                })
                .collect(),
        })
        .collect();
    Ok(ZocReport { side: side_name, cells })
}

/// Where a stack can move, as the game's move search finds it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReachReport {
    pub units: Vec<String>,
    pub from: String,
    /// Movement points the stack has left.
    pub budget: String,
    /// The phase searched in: the current one when it allows the move, else a movement phase.
    pub phase: String,
    pub cells: Vec<ReachCell>,
}

/// One reachable cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReachCell {
    pub cell: String,
    /// Movement points spent to get there, in words (`2`, `1½`).
    pub cost: String,
    /// The same in sixths of a point, for sorting and tools.
    pub cost_sixths: u32,
    /// Movement ends on entering it (an enemy zone of control, a contested cell).
    pub must_stop: bool,
    /// Why the stack may pass but not end there (the stacking limit), when it may not.
    pub may_not_end: Option<String>,
    /// The cheapest path, start first.
    pub path: Vec<String>,
}

/// Every cell the units `ids` (a stack) can reach, cheapest first.
pub fn reach(world: &mut World, ids: &[String]) -> Result<ReachReport, String> {
    let entities = entities(world, ids)?;
    let mut state: SystemState<(Res<GameMap>, Res<Zoc>, Res<TurnState>, Query<MoverData>)> = SystemState::new(world);
    let (map, zoc, turn, units) = state.get(world).map_err(|e| format!("the game is not open: {e}"))?;
    let (movers, others) = movers_and_others(&entities, &units)?;
    let active = movers[0].side;
    let current = current_phase(&turn, &map);
    let phase = if movers.iter().all(|m| current.allows_movement(m.mobility)) {
        current
    } else {
        Phase::Movement
    };
    let search = search_moves(&map, &zoc.0, phase, active, &movers, &others)?;
    let mut cells: Vec<ReachCell> = search
        .reach
        .iter()
        .filter(|(c, _)| **c != search.start)
        .map(|(c, r)| {
            let plan = search.plan(&map, &zoc.0, active, &movers, &others, *c);
            let (path, may_not_end) = match plan {
                Ok((path, _, _)) => (path, None),
                Err(why) => (path_to(&search.reach, *c).unwrap_or_default(), Some(why)),
            };
            ReachCell {
                cell: label(*c),
                cost: r.spent.to_string(),
                cost_sixths: r.spent.0,
                must_stop: r.must_stop,
                may_not_end,
                path: path.into_iter().map(label).collect(),
            }
        })
        .collect();
    cells.sort_by(|a, b| a.cost_sixths.cmp(&b.cost_sixths).then(a.cell.cmp(&b.cell)));
    Ok(ReachReport {
        units: movers.iter().map(|m| m.name.clone()).collect(),
        from: label(search.start),
        budget: search.budget.to_string(),
        phase: format!("{phase:?}"),
        cells,
    })
}

/// The retreats of one unit: the legal ones with their step priorities, the refused ones with
/// the rule that refuses them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitRetreats {
    pub unit: String,
    pub name: String,
    pub from: String,
    pub cells: u32,
    pub legal: Vec<LegalRetreat>,
    pub refused: Vec<RefusedRetreat>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegalRetreat {
    pub path: Vec<String>,
    /// Each step's priority (1 best: toward the friendly edge and free of enemy zones).
    pub priorities: Vec<u8>,
    pub through_enemy_zoc: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RefusedRetreat {
    pub path: Vec<String>,
    pub reason: String,
}

/// Every retreat of `cells` cells for each unit of `ids` from `from` (where it stands when
/// `None`), with `attackers` as its opponents.
pub fn retreats(
    world: &mut World,
    ids: &[String],
    from: Option<&str>,
    attackers: &[String],
    cells: u32,
) -> Result<Vec<UnitRetreats>, String> {
    let from = from.map(parse_label).transpose()?;
    let mut state: SystemState<GameView> = SystemState::new(world);
    let view = state.get(world).map_err(|e| format!("the game is not open: {e}"))?;
    let opponents = view.entities(attackers)?;
    let mut out = Vec::new();
    for id in ids {
        let unit = view.unit(id)?;
        let start = match from {
            Some(c) => c,
            None => view
                .units
                .get(unit)
                .map_err(|_| format!("{id} is not on the map"))?
                .cell(),
        };
        let (_, options) = view.retreat_options(unit, start, cells, &opponents)?;
        let name = view.units.get(unit).map(|d| d.unit.name.clone()).unwrap_or_default();
        let cells_of = |c: &[Cell]| c.iter().map(|c| label(*c)).collect::<Vec<_>>();
        out.push(UnitRetreats {
            unit: id.clone(),
            name,
            from: label(start),
            cells,
            legal: options
                .legal
                .iter()
                .map(|p| LegalRetreat {
                    path: cells_of(&p.cells),
                    priorities: p.priorities.to_vec(),
                    through_enemy_zoc: p.through_ezoc,
                })
                .collect(),
            refused: options
                .illegal
                .iter()
                .map(|p| RefusedRetreat {
                    path: cells_of(&p.cells),
                    reason: p.reason.clone(),
                })
                .collect(),
        });
    }
    Ok(out)
}

/// A cell an attacker might advance into, and whether it may.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdvanceCell {
    pub cell: String,
    /// 1: the vacated cell; 2: a second-cell advance beyond it.
    pub depth: u32,
    /// Why it may not, when it may not.
    pub refused: Option<String>,
}

/// Where unit `id` may advance after the defenders vacate `into`, with an advance of `cells`
/// cells (2 for a second-hex advance).
pub fn advance(world: &mut World, id: &str, into: &str, cells: u32) -> Result<Vec<AdvanceCell>, String> {
    let into = parse_label(into)?;
    let unit = entities(world, &[id.to_string()])?[0];
    let mut state: SystemState<GameView> = SystemState::new(world);
    let view = state.get(world).map_err(|e| format!("the game is not open: {e}"))?;
    let pending = PendingAdvance {
        attackers: vec![unit],
        followers: Vec::new(),
        into,
        right: AdvanceRight {
            cells,
            mandatory: false,
            attack_again: false,
        },
        moved: Vec::new(),
    };
    Ok(advance_options(&view.map, &view.index, &view.units, &pending, unit)
        .into_iter()
        .map(|t| AdvanceCell {
            cell: label(t.cell),
            depth: t.depth,
            refused: t.allowed.err(),
        })
        .collect())
}

/// The index of the side named by id, name or number (1 first).
fn side_index(world: &World, side: &str) -> Result<usize, String> {
    let sides = world.resource::<Sides>();
    let named: Vec<(&str, &str)> = sides.0.iter().map(|s| (s.id.as_str(), s.name.as_str())).collect();
    super::components::side_named(&named, side).ok_or_else(|| {
        let ids: Vec<&str> = named.iter().map(|(id, _)| *id).collect();
        format!("there is no side `{side}`: the sides are {}", ids.join(", "))
    })
}

fn entities(world: &World, ids: &[String]) -> Result<Vec<Entity>, String> {
    if ids.is_empty() {
        return Err("name at least one unit by id".into());
    }
    let known = world.resource::<UnitIds>();
    ids.iter().map(|id| known.entity(id)).collect()
}
