//! Marks on the board for the player to act on: in a combat phase, a ring around each of the
//! side's stacks that may still attack (`attack_options::stacks_that_may_attack`, which asks the
//! rules), found again after each order.

use super::layout::Layout;
use super::settings::Palette;
use crate::game::attack_options::stacks_that_may_attack;
use crate::game::log::OrderLog;
use crate::game::phase::{GameState, Phase, TurnState};
use crate::rules::grid::Cell;
use bevy::prelude::*;

/// The stacks that may still attack, and the game position they were found for.
#[derive(Resource, Default)]
pub struct MayAttack {
    pub cells: Vec<Cell>,
    found_for: Option<(usize, u32, usize, usize)>,
}

/// Rings drawn on their own gizmo group, so they can be told from the reach outlines.
#[derive(Default, Reflect, GizmoConfigGroup)]
struct AttackRings;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MayAttack>()
        .init_gizmo_group::<AttackRings>()
        .add_systems(
            Update,
            (find_may_attack, draw_rings).chain().run_if(resource_exists::<Layout>),
        );
}

fn find_may_attack(world: &mut World) {
    let in_combat = world
        .get_resource::<State<Phase>>()
        .is_some_and(|p| *p.get() == Phase::Combat)
        && world
            .get_resource::<State<GameState>>()
            .is_some_and(|s| *s.get() == GameState::Playing);
    let (Some(turn), Some(log)) = (world.get_resource::<TurnState>(), world.get_resource::<OrderLog>()) else {
        return;
    };
    let key = (log.entries.len(), turn.turn, turn.active.0, turn.phase_index);
    let computer = world
        .get_resource::<super::computer::Seats>()
        .is_some_and(|s| s.0.get(turn.active.0).is_some_and(Option::is_some));
    if !in_combat || computer {
        if !world.resource::<MayAttack>().cells.is_empty() {
            *world.resource_mut::<MayAttack>() = MayAttack::default();
        }
        return;
    }
    if world.resource::<MayAttack>().found_for == Some(key) {
        return;
    }
    let cells = stacks_that_may_attack(world);
    *world.resource_mut::<MayAttack>() = MayAttack {
        cells,
        found_for: Some(key),
    };
}

fn draw_rings(may: Res<MayAttack>, layout: Res<Layout>, palette: Res<Palette>, mut gizmos: Gizmos<AttackRings>) {
    let r = layout.side() * 0.82;
    for cell in &may.cells {
        let c = layout.center(*cell);
        gizmos.circle_2d(c, r, palette.advance);
        gizmos.circle_2d(c, r - 2.0, palette.advance.with_alpha(0.5));
    }
}
