//! Bringing a game to rest after an order or a start: the retreats and advances that need no
//! choice, the combat sub-step, the phase and its bookkeeping, objective control, sudden death and
//! the zones of control. `execute` calls it after every order; starting a game calls it once.

use super::advance::{AdvanceChoice, carry_out_advances};
use super::combat_phase::{PendingAdvances, PendingRetreats, combat_step, run};
use super::components::GameMap;
use super::phase::{CombatStep, GameState, Phase, sync_phase_with_turn};
use super::retreat::{StuckRetreats, carry_out_retreats};
use super::victory::{check_sudden_death, track_control};
use bevy::prelude::*;
use bevy::state::state::StateTransition;

/// Brings the world to rest after an order (or after spawning): retreats and advances that need
/// no choice, the combat sub-step, the phase and its start-of-phase bookkeeping, objective
/// control, sudden death, and the zones of control.
pub fn settle(world: &mut World) {
    transition(world);
    for _ in 0..64 {
        if !playing(world) {
            break;
        }
        let _ = run(world, super::zoc::refresh_zoc, ());
        let before = pending_work(world);
        if !world.resource::<PendingRetreats>().0.is_empty() {
            let _ = run(world, carry_out_retreats, None);
        } else if !world.resource::<PendingAdvances>().0.is_empty() {
            let _ = run(world, carry_out_advances, AdvanceChoice::None);
        }
        if pending_work(world) == before {
            break;
        }
    }
    if playing(world) {
        let step = combat_step(world.resource::<PendingRetreats>(), world.resource::<PendingAdvances>());
        if world
            .get_resource::<State<CombatStep>>()
            .is_some_and(|s| *s.get() != step)
            && let Some(mut next) = world.get_resource_mut::<NextState<CombatStep>>()
        {
            NextState::<CombatStep>::set_if_neq(&mut next, step);
        }
        transition(world);
        super::reinforce::arrive_and_withdraw(world);
        if world.get_resource::<State<Phase>>().is_some() {
            let _ = run(world, sync_phase_with_turn, ());
        }
        transition(world);
        let _ = run(world, track_control, ());
        let _ = run(world, check_sudden_death, ());
        transition(world);
    }
    if world.contains_resource::<GameMap>() {
        let _ = run(world, super::zoc::refresh_zoc, ());
    }
}

/// Runs the state transitions when one is waiting (running them costs a schedule run).
fn transition(world: &mut World) {
    fn pending<S: bevy::state::state::FreelyMutableState>(world: &World) -> bool {
        world
            .get_resource::<NextState<S>>()
            .is_some_and(|n| !matches!(n, NextState::Unchanged))
    }
    if pending::<GameState>(world) || pending::<Phase>(world) || pending::<CombatStep>(world) {
        let _ = world.try_run_schedule(StateTransition);
    }
}

fn playing(world: &World) -> bool {
    world.get_resource::<State<GameState>>().map(|s| *s.get()) == Some(GameState::Playing)
}

/// How much after-combat work is waiting (to tell whether a pass made progress).
fn pending_work(world: &World) -> (usize, usize, usize, usize) {
    let advances = &world.resource::<PendingAdvances>().0;
    (
        world.resource::<PendingRetreats>().0.len(),
        advances.len(),
        advances.first().map_or(0, |a| a.moved.len()),
        world.resource::<StuckRetreats>().0.len(),
    )
}
