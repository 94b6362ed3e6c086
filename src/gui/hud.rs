//! The player's controls over the board: the cell under the pointer, selecting a stack, seeing
//! where it can go, ordering moves (sent as `Order`s; the game decides) and ending phases. The
//! egui bars around the board are in `bars.rs`.

use super::board::{ShowLabels, toggle_labels};
use super::clear_of_counters::{boxes_at, draw_line};
use super::keymap::{Action, Keys};
use super::layout::Layout;
use super::orders::end_phase;
use super::state::BoardCamera;
use super::state::Settings;
use super::state::{ConfirmEndTurn, PlayerOrder};
use super::state::{Hovered, HudSystems, LastRefusal, Selection};
use crate::game::components::*;
use crate::game::execute::OrderRefused;
use crate::game::movement::{movers_and_others, search_moves};
use crate::game::order::Order;
use crate::game::phase::{GameState, Phase, TurnState};
use crate::game::zoc::Zoc;
use crate::rules::grid::Cell;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// Whether the list of controls is shown (F1).
#[derive(Resource, Default)]
pub struct ShowHelp(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Hovered>()
        .init_resource::<Selection>()
        .init_resource::<LastRefusal>()
        .init_resource::<ShowHelp>()
        .add_systems(
            Update,
            (
                track_hover.before(super::state::ClickSystems),
                handle_clicks
                    .after(super::state::ClickSystems)
                    .run_if(super::state::no_dialog),
                handle_keys.run_if(super::state::no_dialog),
                refresh_reach,
                note_refusals,
                draw_selection,
            )
                .chain()
                .in_set(HudSystems)
                .run_if(
                    in_state(GameState::Playing)
                        .and_then(resource_exists::<Layout>)
                        .and_then(not(resource_exists::<super::state::Replay>)),
                ),
        );
}

fn track_hover(
    windows: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    layout: Res<Layout>,
    mut hovered: ResMut<Hovered>,
) {
    let cell = windows.single().ok().and_then(|w| w.cursor_position()).and_then(|p| {
        let (camera, global) = camera.single().ok()?;
        let world = camera.viewport_to_world_2d(global, p).ok()?;
        layout.pick(world)
    });
    if hovered.0 != cell {
        hovered.0 = cell;
    }
}

/// A click that selects or moves (`clicks.rs` worked out which), or an attack outside a combat
/// phase, refused in words.
fn handle_clicks(
    this: Res<super::state::ThisClick>,
    phase: Res<State<Phase>>,
    mut selection: ResMut<Selection>,
    mut orders: MessageWriter<PlayerOrder>,
    mut refusal: ResMut<LastRefusal>,
    mut note: ResMut<super::state::HistoryNote>,
) {
    use super::state::BoardClick;
    let Some(click @ (BoardClick::Move(_) | BoardClick::Select(_) | BoardClick::AttackOutOfPhase(_))) = &this.0 else {
        return;
    };
    // Undo's note would hide the refusal this click may bring: both last until the next action.
    refusal.0 = None;
    note.0 = None;
    match click {
        BoardClick::AttackOutOfPhase(cell) => {
            // Rommel: the selection shares its square with the enemy; a click there attacks it,
            // but only in a combat phase.
            refusal.0 = Some(format!(
                "attack {cell}: attacks are made in the combat phase; this is the {:?} phase",
                phase.get()
            ));
        }
        BoardClick::Move(cell) => {
            orders.write(PlayerOrder(Order::Move {
                units: selection.units.clone(),
                to: *cell,
            }));
        }
        BoardClick::Select(own) => {
            *selection = Selection {
                units: own.clone(),
                ..default()
            };
        }
        _ => {}
    }
}

fn handle_keys(
    mut keys: ResMut<Keys>,
    mut orders: MessageWriter<PlayerOrder>,
    (mut confirm, turn, map, settings): (ResMut<ConfirmEndTurn>, Res<TurnState>, Res<GameMap>, Res<Settings>),
    mut selection: ResMut<Selection>,
    mut labels: ResMut<ShowLabels>,
    mut help: ResMut<ShowHelp>,
    (ask, seats): (Res<super::answer_ask::AnswerAsk>, Res<super::state::Seats>),
    (asked, mut refusal): (Res<super::choices::Asked>, ResMut<LastRefusal>),
) {
    if confirm.0 {
        return; // the confirmation has its own keys
    }
    // Enter answers a question on screen; a retreat or advance asked about comes first; and a
    // computer's phase is the computer's to end.
    let may_end = !ask.asking() && seats.computer(turn.active.0).is_none();
    if may_end && keys.just(Action::EndPhase) {
        if asked.retreat.is_some() || asked.advance.is_some() {
            refusal.0 =
                Some("end the phase: first choose where to retreat or advance (click a highlighted cell)".into());
        } else {
            end_phase(&mut orders, &mut confirm, &turn, &map, &settings);
            *selection = Selection::default();
        }
    }
    // Esc closes this help when it is open (taking the key: the prepared attack stays), else
    // lets go of the selection.
    if help.0 && keys.take(Action::Cancel) {
        help.0 = false;
    } else if keys.just(Action::Cancel) {
        *selection = Selection::default();
    }
    if keys.just(Action::Labels) {
        toggle_labels(&mut labels);
    }
    if keys.just(Action::Help) {
        help.0 = !help.0;
    }
}

/// Recomputes where the selection can go whenever the selection or the board changes.
fn refresh_reach(
    mut selection: ResMut<Selection>,
    index: Res<MapIndex>,
    turn: Res<TurnState>,
    phase: Res<State<Phase>>,
    map: Res<GameMap>,
    (zoc, ids): (Res<Zoc>, Res<UnitIds>),
    units: Query<crate::game::movement::MoverData>,
) {
    // The phase follows TurnState a frame later, so a phase change also triggers a refresh.
    if !(selection.is_changed() || index.is_changed() || turn.is_changed() || phase.is_changed() || zoc.is_changed())
        || selection.units.is_empty()
    {
        return;
    }
    // Units gone since (eliminated, or not yet there after an undo) leave the selection, and so
    // do those an undo took to another cell than the first one's: a selection is one stack.
    let cell_of = |id: &String| ids.0.get(id).and_then(|e| units.get(*e).ok()).map(|u| u.3.0);
    let first = selection.units.iter().find_map(cell_of);
    selection.units.retain(|id| first.is_some() && cell_of(id) == first);
    let result = movers_and_others(&selection.entities(&ids), &units)
        .and_then(|(movers, others)| search_moves(&map, &zoc.0, *phase.get(), turn.active, &movers, &others));
    let sel = selection.bypass_change_detection();
    match result {
        Ok(search) => {
            sel.reach = search.reach;
            sel.reach.remove(&search.start);
            sel.cannot_move = None;
        }
        Err(why) => {
            sel.reach.clear();
            sel.cannot_move = Some(why);
        }
    }
}

fn note_refusals(mut refused: MessageReader<OrderRefused>, mut last: ResMut<LastRefusal>) {
    for r in refused.read() {
        last.0 = Some(format!("{}: {}", r.order, r.reason));
    }
}

/// The dark edges either side of the selection and reach outlines, so a pale outline reads on
/// pale terrain.
const OUTLINE_EDGE: Color = Color::srgba(0.08, 0.06, 0.04, 0.85);

fn draw_selection(
    selection: Res<Selection>,
    layout: Res<Layout>,
    palette: Res<super::state::Palette>,
    (positions, ids, index): (Query<&Position>, Res<UnitIds>, Res<MapIndex>),
    camera: Query<&Projection, With<BoardCamera>>,
    mut gizmos: Gizmos,
) {
    let Some(at) = selection.entities(&ids).first().and_then(|e| positions.get(*e).ok()) else {
        return;
    };
    // World units per screen pixel: the edges sit 2 px either side of the 2 px outline.
    let pixel = match camera.single() {
        Ok(Projection::Orthographic(o)) => o.scale,
        _ => 1.0,
    };
    let ring = |gizmos: &mut Gizmos, cell: Cell, color: Color| {
        let c = layout.center(cell);
        let corners = layout.corners(cell);
        let inradius = ((corners[0] + corners[1]) / 2.0).distance(c);
        let edge = (2.0 * pixel / inradius).min(0.06);
        // The edges first, so the outline is drawn over them.
        // Broken where the cell's counters stand, so it passes under them.
        let boxes = boxes_at(&layout, &index, &[cell]);
        for (shrink, ink) in [(0.9 - edge, OUTLINE_EDGE), (0.9 + edge, OUTLINE_EDGE), (0.9, color)] {
            let pts: Vec<Vec2> = corners.iter().map(|p| c + (*p - c) * shrink).collect();
            for (i, a) in pts.iter().enumerate() {
                draw_line(gizmos, &boxes, *a, pts[(i + 1) % pts.len()], ink);
            }
        }
    };
    ring(&mut gizmos, at.0, Color::srgb(1.0, 1.0, 1.0));
    for (cell, reach) in &selection.reach {
        let color = if reach.must_stop {
            palette.must_stop
        } else {
            palette.reach
        };
        ring(&mut gizmos, *cell, color);
        if reach.must_stop {
            // A cross-hatch, so "movement ends here" does not rely on colour alone.
            let c = layout.center(*cell);
            let d = layout.side() * 0.3;
            gizmos.line_2d(c + Vec2::new(-d, -d), c + Vec2::new(d, d), color);
            gizmos.line_2d(c + Vec2::new(-d, d), c + Vec2::new(d, -d), color);
        }
    }
}
