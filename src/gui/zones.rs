//! Board overlays for what follows combat: `Z` shows the enemy zones of control of the side to
//! move (dashed red rings, with a line to each stack that projects into the hovered cell), and
//! the latest moves, retreats and advances are drawn as arrows along their paths for a few
//! seconds, so a player (or a viewer of a replay) sees where the units went.

use super::clear_of_counters::{boxes_at, draw_arrow, draw_line};
use super::layout::Layout;
use super::state::{Hovered, HudSystems};
use crate::game::advance::Advanced;
use crate::game::components::{GameMap, MapIndex};
use crate::game::movement::Moved;
use crate::game::phase::TurnState;
use crate::game::retreat::Retreated;
use crate::game::undo::GameRebuilt;
use crate::game::zoc::Zoc;
use crate::rules::grid::Cell;
use bevy::prelude::*;

/// Whether the enemy zones of control are shown (`Z`).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShowZones(pub bool);

/// Move (white), retreat (red) and advance (green) routes, drawn as arrows until their time runs
/// out.
#[derive(Resource, Clone, Debug, Default)]
struct RecentMoves(Vec<(Vec<Cell>, Color, f32)>);

const SHOW_FOR_SECONDS: f32 = 4.0;

/// Thick lines for the retreat and advance arrows, so they read over counters.
#[derive(Default, Reflect, GizmoConfigGroup)]
struct MoveArrows;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShowZones>()
        .init_resource::<RecentMoves>()
        .init_gizmo_group::<MoveArrows>()
        .add_systems(Startup, |mut store: ResMut<GizmoConfigStore>| {
            store.config_mut::<MoveArrows>().0.line.width = 6.0;
        })
        .add_systems(
            Update,
            (toggle_zones, collect_moves, draw_zones, draw_moves)
                .chain()
                .after(HudSystems)
                .run_if(super::board_shown.and_then(resource_exists::<Layout>)),
        );
}

fn toggle_zones(keys: Res<super::keymap::Keys>, mut show: ResMut<ShowZones>) {
    if keys.just(super::keymap::Action::Zones) {
        show.0 = !show.0;
    }
}

fn collect_moves(
    time: Res<Time>,
    mut moves: MessageReader<Moved>,
    mut retreats: MessageReader<Retreated>,
    mut advances: MessageReader<Advanced>,
    mut rebuilt: MessageReader<GameRebuilt>,
    mut recent: ResMut<RecentMoves>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    // A rebuild (undo, a replay stepping back) replays the whole log: its moves are not new, and
    // the routes shown may have been undone.
    if rebuilt.read().count() > 0 {
        moves.clear();
        retreats.clear();
        advances.clear();
        recent.0.clear();
        return;
    }
    for m in moves.read() {
        if m.path.len() > 1 {
            recent
                .0
                .push((m.path.clone(), Color::srgb(0.95, 0.95, 0.9), SHOW_FOR_SECONDS));
        }
    }
    for r in retreats.read() {
        if !r.path.is_empty() {
            let mut route = vec![r.from];
            route.extend(&r.path);
            recent.0.push((route, Color::srgb(0.95, 0.25, 0.2), SHOW_FOR_SECONDS));
        }
    }
    for a in advances.read() {
        recent
            .0
            .push((vec![a.from, a.to], Color::srgb(0.3, 0.85, 0.35), SHOW_FOR_SECONDS));
    }
    let dt = time.delta_secs();
    recent.0.retain_mut(|(_, _, left)| {
        *left -= dt;
        *left > 0.0
    });
    if !recent.0.is_empty() {
        // The arrows go when their time is up, not at the next input.
        redraw.write(bevy::window::RequestRedraw);
    }
}

fn draw_zones(
    show: Res<ShowZones>,
    zoc: Res<Zoc>,
    map: Res<GameMap>,
    turn: Res<TurnState>,
    hovered: Res<Hovered>,
    (layout, index): (Res<Layout>, Res<MapIndex>),
    mut gizmos: Gizmos,
) {
    if !show.0 {
        return;
    }
    let side = turn.active.0 as u8;
    let color = Color::srgba(0.9, 0.15, 0.15, 0.85);
    for cell in zoc.0.enemy_zone(side) {
        let centre = layout.center(cell);
        let corners = layout.corners(cell);
        // Dashed: every other half of each side, so it reads apart from the reach rings.
        let boxes = boxes_at(&layout, &index, &[cell]);
        for (i, a) in corners.iter().enumerate() {
            let b = corners[(i + 1) % corners.len()];
            let (a, b) = (centre + (*a - centre) * 0.8, centre + (b - centre) * 0.8);
            draw_line(&mut gizmos, &boxes, a, a.lerp(b, 0.5), color);
        }
    }
    if let Some(cell) = hovered.0 {
        for from in zoc.0.projectors(&map.board, &map.ruleset.zoc, cell, side) {
            if from != cell {
                let boxes = boxes_at(&layout, &index, &[from, cell]);
                draw_arrow(&mut gizmos, &boxes, layout.center(from), layout.center(cell), color);
            }
        }
    }
}

fn draw_moves(recent: Res<RecentMoves>, layout: Res<Layout>, index: Res<MapIndex>, mut gizmos: Gizmos<MoveArrows>) {
    for (route, color, left) in &recent.0 {
        let color = color.with_alpha((left / SHOW_FOR_SECONDS).clamp(0.2, 1.0));
        for pair in route.windows(2) {
            // Broken where counters stand, so the thick line never crosses their values.
            let boxes = boxes_at(&layout, &index, pair);
            draw_arrow(
                &mut gizmos,
                &boxes,
                layout.center(pair[0]),
                layout.center(pair[1]),
                color,
            );
        }
    }
}
