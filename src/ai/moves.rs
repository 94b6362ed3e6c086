//! The computer player's movement: once a phase it weighs every stack's best reachable cell
//! against staying, then moves the stacks best gain first, searching each again just before it
//! moves (the stacks moved before it may have changed what it can reach or join).

use super::ComputerPlayer;
use super::survey::{Stack, Survey};
use crate::game::components::{GameMap, MovePoints, Side, Steps, Unit};
use crate::game::movement::{MoverData, may_end_in, movers_and_others, search_moves};
use crate::game::order::Order;
use crate::game::phase::{Phase, TurnState};
use crate::game::zoc::Zoc;
use crate::rules::grid::Cell;
use crate::scenario::ruleset::PhaseKind;
use bevy::ecs::system::SystemState;
use bevy::prelude::*;

/// A stack the plan will move (its units as they stood when the phase was planned).
#[derive(Clone, Debug)]
pub(crate) struct Planned {
    units: Vec<Entity>,
}

/// A move gains less than this: stay.
const MIN_GAIN: f64 = 0.05;

/// The next move of this phase's plan, or `None` when no stack gains by moving.
pub(super) fn next_move(world: &mut World, player: &mut ComputerPlayer) -> Option<Order> {
    let me = Side(player.side);
    if player.plan.is_none() {
        let survey = Survey::take(world, me);
        let mut plan: Vec<(f64, Planned)> = Vec::new();
        for stack in &survey.own {
            let units = movable(world, &stack.units, &player.moved);
            if let Some((units, _, gain)) = best_group(world, &survey, stack, &units, player) {
                plan.push((gain, Planned { units }));
            }
        }
        // Best gain first; equal gains keep the board order (stable sort).
        plan.sort_by(|a, b| b.0.total_cmp(&a.0));
        player.plan = Some(plan.into_iter().map(|(_, p)| p).collect());
    }
    loop {
        let plan = player.plan.as_mut()?;
        if plan.is_empty() {
            return None;
        }
        let next = plan.remove(0);
        let units = movable(world, &next.units, &player.moved);
        if units.is_empty() {
            continue;
        }
        let survey = Survey::take(world, me);
        let Some(stack) = survey.own.iter().find(|s| s.units.contains(&units[0])).cloned() else {
            continue;
        };
        if let Some((units, to, _)) = best_group(world, &survey, &stack, &units, player) {
            let ids = super::unit_ids(world, &units);
            player.moved.extend(ids.iter().cloned());
            return Some(Order::Move { units: ids, to });
        }
    }
}

/// The units of `stack` that may still move this phase (not moved yet, movement points left,
/// allowed by the phase).
fn movable(world: &World, stack: &[Entity], moved: &std::collections::HashSet<String>) -> Vec<Entity> {
    let phase = *world.resource::<State<Phase>>().get();
    stack
        .iter()
        .copied()
        .filter(|e| {
            let (Some(unit), Some(mp)) = (world.get::<Unit>(*e), world.get::<MovePoints>(*e)) else {
                return false;
            };
            !moved.contains(&unit.id) && mp.left().0 > 0 && phase.allows_movement(unit.mobility)
        })
        .collect()
}

/// Whether the phase after this one in the player turn is a combat phase.
fn combat_follows(world: &World) -> bool {
    let turn = world.resource::<TurnState>();
    let map = world.resource::<GameMap>();
    map.ruleset.raw.player_turn.get(turn.phase_index + 1) == Some(&PhaseKind::Combat)
}

/// Which of `units` (of `stack`) move and where: all of them, all but the best defender (a
/// garrison stays), or one alone; the group and cell that gain most over staying.
fn best_group(
    world: &mut World,
    survey: &Survey,
    stack: &Stack,
    units: &[Entity],
    player: &mut ComputerPlayer,
) -> Option<(Vec<Entity>, Cell, f64)> {
    let mut groups = vec![units.to_vec()];
    if units.len() >= 2 {
        let keeper = units
            .iter()
            .max_by_key(|e| world.get::<Steps>(**e).map_or(0, |s| s.values().defense))
            .copied();
        groups.push(units.iter().copied().filter(|e| Some(*e) != keeper).collect());
        if units.len() <= 4 {
            groups.extend(units.iter().map(|e| vec![*e]));
        }
    }
    let mut best: Option<(Vec<Entity>, Cell, f64)> = None;
    for group in groups {
        if let Some((cell, gain)) = best_cell(world, survey, stack, &group, player)
            && best.as_ref().is_none_or(|(_, _, g)| gain > *g)
        {
            best = Some((group, cell, gain));
        }
    }
    best
}

/// The best cell for `units` (of `stack`) to move to and what it gains over staying, when it
/// gains enough.
fn best_cell(
    world: &mut World,
    survey: &Survey,
    stack: &Stack,
    units: &[Entity],
    player: &mut ComputerPlayer,
) -> Option<(Cell, f64)> {
    if units.is_empty() {
        return None;
    }
    let follows = combat_follows(world);
    let phase = *world.resource::<State<Phase>>().get();
    let movers = Stack::of(world, stack.cell, units, stack.reach);
    let mut cells = {
        let mut state: SystemState<(Res<GameMap>, Res<Zoc>, Query<MoverData>)> = SystemState::new(world);
        let (map, zoc, query) = state.get(world).ok()?;
        let (movers_list, others) = movers_and_others(units, &query).ok()?;
        let search = search_moves(&map, &zoc.0, phase, survey.me, &movers_list, &others).ok()?;
        let mut cells: Vec<Cell> = search
            .reach
            .keys()
            .copied()
            .filter(|c| *c != search.start && may_end_in(&map, survey.me, &movers_list, &others, *c) == Ok(None))
            .collect();
        cells.sort();
        cells
    };
    let budget = player.profile.budget.max(1) as usize;
    if cells.len() > budget {
        let stride = cells.len().div_ceil(budget);
        cells = cells.into_iter().step_by(stride).collect();
    }
    let stay = survey.place_score(&movers, stack.cell, &player.profile, follows);
    // A player that looks ahead moves only for a real gain: its noise picks among cells, it
    // does not send a stack with nothing to do wandering off good ground.
    let stay_judged = if player.profile.looks_ahead {
        stay
    } else {
        stay + player.jitter()
    };
    let mut best: Option<(Cell, f64, f64)> = None;
    for c in cells {
        let score = survey.place_score(&movers, c, &player.profile, follows);
        let judged = score + player.jitter();
        if best.is_none_or(|(_, b, _)| judged > b) {
            best = Some((c, judged, score));
        }
    }
    best.map(|(c, judged, score)| {
        let gain = if player.profile.looks_ahead {
            score - stay
        } else {
            judged - stay_judged
        };
        (c, gain)
    })
    .filter(|(_, gain)| *gain > MIN_GAIN)
}
