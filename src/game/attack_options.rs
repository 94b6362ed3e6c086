//! Which attacks the side to act could make now: each of its stacks next to an enemy (in the same
//! square where cells are contested), alone or with the others around the same target; and which
//! of its stacks may still attack, as `plan_attack` — the one rule for attacks — allows.

use super::combat_phase::{Attacked, plan_attack};
use super::components::*;
use super::order::AttackOrder;
use super::phase::TurnState;
use crate::rules::grid::Cell;
use bevy::prelude::*;

/// The active side's stacks: its units in each occupied cell, bottom first.
pub fn own_stacks(world: &World) -> Vec<Vec<Entity>> {
    let active = world.resource::<TurnState>().active;
    world
        .resource::<MapIndex>()
        .occupied()
        .map(|(_, s)| {
            s.iter()
                .copied()
                .filter(|e| world.get::<Side>(*e) == Some(&active))
                .collect::<Vec<_>>()
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// Attacks worth trying: each stack next to an enemy cell on its own, and all such stacks of a
/// target together when there are several.
pub fn adjacent_attacks(world: &World) -> Vec<(Vec<Entity>, Cell)> {
    let stacks = own_stacks(world);
    let map = world.resource::<GameMap>();
    let (grid, contest) = (map.board.grid, map.ruleset.contests_cells());
    let active = world.resource::<TurnState>().active;
    let index = world.resource::<MapIndex>();
    let mut out = Vec::new();
    for (target, stack) in index.occupied() {
        if !stack
            .iter()
            .any(|e| world.get::<Side>(*e).is_some_and(|x| *x != active))
        {
            continue;
        }
        let near: Vec<Vec<Entity>> = stacks
            .iter()
            .filter(|s| {
                world.get::<Position>(s[0]).is_some_and(|p| {
                    if contest {
                        p.0 == target
                    } else {
                        grid.distance(p.0, target) == 1
                    }
                })
            })
            .cloned()
            .collect();
        for s in &near {
            out.push((s.clone(), target));
        }
        if near.len() > 1 {
            out.push((near.concat(), target));
        }
    }
    out
}

/// The cells of the active side's stacks that may still attack an enemy: some unit of theirs that
/// has not attacked this phase makes an attack the rules allow.
pub fn stacks_that_may_attack(world: &mut World) -> Vec<Cell> {
    let mut cells = Vec::new();
    for (stack, target) in adjacent_attacks(world) {
        let Some(at) = world.get::<Position>(stack[0]).map(|p| p.0) else {
            continue;
        };
        if cells.contains(&at) || spans_cells(world, &stack) {
            continue;
        }
        let fresh: Vec<String> = stack
            .iter()
            .filter(|e| world.get::<Attacked>(**e).is_none())
            .filter_map(|e| world.get::<Unit>(*e).map(|u| u.id.clone()))
            .collect();
        if fresh.is_empty() {
            continue;
        }
        let order = AttackOrder::plain(fresh, target);
        if world
            .run_system_cached_with(plan_attack, (order, None))
            .is_ok_and(|r| r.is_ok())
        {
            cells.push(at);
        }
    }
    cells.sort_by_key(|c| (c.col, c.row));
    cells
}

/// Whether `units` span several cells (a joint attack, not one stack).
fn spans_cells(world: &World, units: &[Entity]) -> bool {
    let first = world.get::<Position>(units[0]).map(|p| p.0);
    units.iter().any(|e| world.get::<Position>(*e).map(|p| p.0) != first)
}
