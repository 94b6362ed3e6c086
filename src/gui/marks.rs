//! Marks on the board for the player to act on: in a combat phase, a ring around each of the
//! side's stacks that may still attack (`attack_options::stacks_that_may_attack`, which asks the
//! rules), found again after each order; on the counters of the side to play, an arrow under each
//! unit that has moved this phase and crossed swords on each that has attacked. Under War Against
//! Russia's must-attack rule, the enemy stacks still owed an attack get a red ring.

use super::layout::Layout;
use super::state::Palette;
use crate::game::attack_options::stacks_that_may_attack;
use crate::game::components::{MovePoints, Side, Unit};
use crate::game::log::OrderLog;
use crate::game::phase::{GameState, Phase, TurnState};
use crate::rules::grid::Cell;
use bevy::prelude::*;

/// The stacks that may still attack, and the game position they were found for.
#[derive(Resource, Default)]
pub struct MayAttack {
    pub cells: Vec<Cell>,
    /// Enemy stacks the must-attack rule says must still be attacked this phase.
    pub owed: Vec<Cell>,
    found_for: Option<(usize, u32, usize, usize)>,
}

/// Rings drawn on their own gizmo group, so they can be told from the reach outlines.
#[derive(Default, Reflect, GizmoConfigGroup)]
struct AttackRings;

/// The moved and attacked marks: thick lines, readable over a counter.
#[derive(Default, Reflect, GizmoConfigGroup)]
struct DoneMarks;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MayAttack>()
        .init_gizmo_group::<AttackRings>()
        .init_gizmo_group::<DoneMarks>()
        .add_systems(Startup, |mut store: ResMut<GizmoConfigStore>| {
            store.config_mut::<DoneMarks>().0.line.width = 3.0;
        })
        .add_systems(
            Update,
            (find_may_attack, draw_rings, draw_done_marks)
                .chain()
                .run_if(resource_exists::<Layout>),
        );
}

type DoneQuery<'a> = (
    &'a GlobalTransform,
    &'a Side,
    &'a MovePoints,
    Has<crate::game::combat_phase::Attacked>,
);

/// Under each counter of the side to play: an arrow when it has moved this phase, crossed swords
/// when it has attacked (shown while counters show their faces).
fn draw_done_marks(
    units: Query<DoneQuery, With<Unit>>,
    turn: Option<Res<TurnState>>,
    detail: Res<super::detail::ZoomDetail>,
    mut gizmos: Gizmos<DoneMarks>,
) {
    let Some(turn) = turn else { return };
    if !detail.counter_faces {
        return;
    }
    let h = super::counters::COUNTER / 2.0;
    let white = Color::srgb(0.98, 0.98, 0.95);
    let red = Color::srgb(0.85, 0.1, 0.05);
    for (at, side, mp, attacked) in &units {
        if *side != turn.active {
            continue;
        }
        let c = at.translation().truncate();
        if mp.spent > crate::rules::terrain::Mp::ZERO {
            let y = c.y - h - 6.0;
            gizmos.arrow_2d(Vec2::new(c.x - h * 0.9, y), Vec2::new(c.x - h * 0.2, y), white);
        }
        if attacked {
            let m = Vec2::new(c.x + h * 0.55, c.y - h - 7.0);
            let d = 6.0;
            gizmos.line_2d(m + Vec2::new(-d, -d), m + Vec2::new(d, d), red);
            gizmos.line_2d(m + Vec2::new(-d, d), m + Vec2::new(d, -d), red);
        }
    }
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
        .get_resource::<super::state::Seats>()
        .is_some_and(|s| s.0.get(turn.active.0).is_some_and(Option::is_some));
    if !in_combat || computer {
        let may = world.resource::<MayAttack>();
        if !may.cells.is_empty() || may.found_for.is_some() {
            *world.resource_mut::<MayAttack>() = MayAttack::default();
        }
        return;
    }
    if world.resource::<MayAttack>().found_for == Some(key) {
        return;
    }
    let cells = stacks_that_may_attack(world);
    // Only the owed stacks someone can still attack: a lapsed obligation is not asked for.
    let owed = crate::game::must_attack::owed_with_attacks(world)
        .into_iter()
        .filter(|(_, attack)| attack.is_some())
        .map(|(o, _)| o.target)
        .collect();
    *world.resource_mut::<MayAttack>() = MayAttack {
        cells,
        owed,
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
    let red = Color::srgb(0.9, 0.1, 0.05);
    for cell in &may.owed {
        let c = layout.center(*cell);
        for k in 0..3 {
            gizmos.circle_2d(c, r - k as f32 * 1.5, red);
        }
    }
}
