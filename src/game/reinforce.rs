//! Reinforcements and withdrawals: a scenario's unit with `arrives: N` waits off the map and enters
//! at the start of its side's player turn on game turn N, at its cell, or — when an enemy holds
//! that cell or it is full to the stacking limit — in the nearest cell free of enemies with room
//! (the lowest label among equals); a unit with
//! `withdraws: N` leaves the map then. Both happen while the world settles, so replays and undo
//! bring them back exactly.

use super::components::*;
use super::phase::TurnState;
use crate::rules::grid::Cell;
use crate::scenario::validate::UnitSetup;
use bevy::prelude::*;

/// At the start of a side's player turn: its withdrawals leave, its reinforcements due enter.
pub fn arrive_and_withdraw(world: &mut World) {
    let Some(turn) = world.get_resource::<TurnState>().cloned() else {
        return;
    };
    if turn.phase_index != 0 || world.get_resource::<ArrivalsDone>() == Some(&ArrivalsDone(turn.turn, turn.active)) {
        return;
    }
    world.insert_resource(ArrivalsDone(turn.turn, turn.active));
    withdraw(world, &turn);
    let due: Vec<UnitSetup> = {
        let Some(mut waiting) = world.get_resource_mut::<Reinforcements>() else {
            return;
        };
        let (due, later) = std::mem::take(&mut waiting.0)
            .into_iter()
            .partition(|s| s.side == turn.active.0 && s.arrives.is_some_and(|t| t <= turn.turn));
        waiting.0 = later;
        due
    };
    for setup in due {
        let (cell, enemy_there) = entry_cell(world, &setup);
        let entity = super::spawn::spawn_unit(world, &setup, None);
        world.resource_mut::<MapIndex>().place(entity, cell);
        world.resource_mut::<UnitIds>().0.insert(setup.id.clone(), entity);
        if cell != setup.cell {
            world.entity_mut(entity).insert(Position(cell));
        }
        let note = if cell == setup.cell {
            String::new()
        } else if enemy_there {
            format!(" (the enemy holds {}, so the nearest free cell)", setup.cell)
        } else {
            format!(
                " ({} is full to the stacking limit, so the nearest cell with room)",
                setup.cell
            )
        };
        world
            .resource_mut::<GameLog>()
            .push(format!("Reinforcement: {} enters at {cell}{note}.", setup.name));
    }
}

fn withdraw(world: &mut World, turn: &TurnState) {
    let leaving: Vec<(Entity, String, Cell)> = {
        let ids = &world.resource::<UnitIds>().0;
        world
            .resource::<ScenarioSource>()
            .0
            .units
            .iter()
            .filter(|u| u.withdraws == Some(turn.turn))
            .filter_map(|u| ids.get(&u.id).map(|e| (*e, u.name.clone())))
            .filter_map(|(e, name)| {
                let side = world.get::<Side>(e)?;
                let at = world.get::<Position>(e)?.0;
                (*side == turn.active).then_some((e, name, at))
            })
            .collect()
    };
    for (entity, name, at) in leaving {
        world.resource_mut::<MapIndex>().remove(entity, at);
        world.resource_mut::<UnitIds>().0.retain(|_, e| *e != entity);
        world.despawn(entity);
        world
            .resource_mut::<GameLog>()
            .push(format!("Withdrawal: {name} leaves the map from {at}."));
    }
}

/// Where a reinforcement enters: its cell, or the nearest cell on the map free of enemy units that
/// its kind of unit may enter and where it keeps within the stacking limit (unless the ruleset
/// lets units over-stack).
/// Also says whether the enemy holds the unit's own cell.
fn entry_cell(world: &mut World, setup: &UnitSetup) -> (Cell, bool) {
    let mut units = world.query::<(&Side, &Position, &StackingPoints)>();
    let mut enemy_cells = std::collections::HashSet::new();
    let mut friends: std::collections::HashMap<Cell, u32> = std::collections::HashMap::new();
    let map = world.resource::<GameMap>();
    let stacking = &map.ruleset.stacking;
    for (side, at, points) in units.iter(world) {
        if side.0 == setup.side {
            *friends.entry(at.0).or_default() += stacking.counted(points.0);
        } else {
            enemy_cells.insert(at.0);
        }
    }
    let fits = |c: Cell| {
        stacking.penalized()
            || map.board.terrain(c).is_none_or(|t| {
                friends.get(&c).copied().unwrap_or(0) + stacking.counted(setup.stacking_points) <= stacking.limit_in(t)
            })
    };
    let enemy_there = enemy_cells.contains(&setup.cell);
    if !enemy_there && fits(setup.cell) {
        return (setup.cell, false);
    }
    let grid = map.board.grid;
    let enterable = |c: Cell| {
        map.board
            .terrain(c)
            .is_some_and(|t| map.ruleset.movement.terrain[t.0 as usize].1[setup.mobility as usize].is_some())
    };
    let cell = grid
        .cells()
        .filter(|c| !enemy_cells.contains(c) && enterable(*c) && fits(*c))
        .min_by_key(|c| (grid.distance(setup.cell, *c), c.col, c.row))
        .unwrap_or(setup.cell);
    (cell, enemy_there)
}
