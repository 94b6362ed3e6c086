//! The player's controls over the board: the cell under the pointer, selecting a stack, seeing
//! where it can go, ordering moves (sent as `Order`s; the game decides) and ending phases. The
//! egui bars around the board are in `bars.rs`.

use super::board::{ShowLabels, toggle_labels};
use super::layout::Layout;
use super::orders::end_phase;
use super::state::Settings;
use super::state::{BoardCamera, PointerOverUi};
use super::state::{ConfirmEndTurn, PlayerOrder};
pub use super::state::{Hovered, HudSystems, LastRefusal, Selection};
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
                track_hover,
                handle_clicks.run_if(super::state::no_dialog),
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

/// What a left click on the board does, the combat phase's attacks aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClickIntent {
    Move,
    Select,
}

/// A click moves the selection to a highlighted cell, or to an empty one (to be told why not);
/// a click on another of the side's stacks selects it, unless Shift is held, which moves the
/// selection onto it to merge (out of reach too: the refusal says why it cannot).
fn click_intent(selected: bool, clicked_selected: bool, own_there: bool, shift: bool) -> ClickIntent {
    if !selected || clicked_selected {
        return ClickIntent::Select;
    }
    if !own_there || shift {
        ClickIntent::Move
    } else {
        ClickIntent::Select
    }
}

fn handle_clicks(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    over_ui: Res<PointerOverUi>,
    hovered: Res<Hovered>,
    index: Res<MapIndex>,
    turn: Res<TurnState>,
    phase: Res<State<Phase>>,
    sides: Query<&Side>,
    unit_ids: Query<&Unit>,
    mut selection: ResMut<Selection>,
    mut orders: MessageWriter<PlayerOrder>,
    mut refusal: ResMut<LastRefusal>,
    mut note: ResMut<super::state::HistoryNote>,
    plan: Res<super::attack::AttackPlan>,
) {
    if over_ui.0 || !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(cell) = hovered.0 else { return };
    let enemies = super::attack::enemies_in(cell, &index, &sides, turn.active);
    if *phase.get() == Phase::Combat && !selection.units.is_empty() && enemies {
        return; // an attack: the attack plugin declares it
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if *phase.get() == Phase::Combat && shift && plan.target.is_some() {
        // A stack joining or leaving the prepared attack (the attack plugin): not a selection,
        // which would outlive the attack and move with its advance.
        return;
    }
    // Undo's note would hide the refusal this click may bring: both last until the next action.
    refusal.0 = None;
    note.0 = None;
    let own: Vec<Entity> = index
        .stack(cell)
        .iter()
        .copied()
        .filter(|e| sides.get(*e).is_ok_and(|s| *s == turn.active))
        .collect();
    let clicked_selected = own.iter().any(|e| selection.units.contains(e));
    if enemies && clicked_selected {
        // Rommel: the selection shares its square with the enemy; a click there attacks it, but
        // only in a combat phase (which returned above).
        refusal.0 = Some(format!(
            "attack {cell}: attacks are made in the combat phase; this is the {:?} phase",
            phase.get()
        ));
        return;
    }
    let intent = click_intent(!selection.units.is_empty(), clicked_selected, !own.is_empty(), shift);
    if intent == ClickIntent::Move {
        let units = selection
            .units
            .iter()
            .filter_map(|e| unit_ids.get(*e).ok().map(|u| u.id.clone()))
            .collect();
        orders.write(PlayerOrder(Order::Move { units, to: cell }));
        return;
    }
    *selection = Selection {
        units: own,
        ..default()
    };
}

fn handle_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut orders: MessageWriter<PlayerOrder>,
    (mut confirm, turn, map, settings): (ResMut<ConfirmEndTurn>, Res<TurnState>, Res<GameMap>, Res<Settings>),
    mut selection: ResMut<Selection>,
    mut labels: ResMut<ShowLabels>,
    mut help: ResMut<ShowHelp>,
    (ask, seats): (Res<super::answer_ask::AnswerAsk>, Res<super::state::Seats>),
) {
    let chord = super::ctrl_held(&keys) || keys.any_pressed([KeyCode::AltLeft, KeyCode::AltRight]);
    if chord || confirm.0 {
        return; // Ctrl+… belongs to the menu's shortcuts; the confirmation has its own keys
    }
    // Enter answers a question on screen; and a computer's phase is the computer's to end.
    let may_end = !ask.asking() && seats.computer(turn.active.0).is_none();
    if may_end && (keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::KeyE)) {
        end_phase(&mut orders, &mut confirm, &turn, &map, &settings);
        *selection = Selection::default();
    }
    if keys.just_pressed(KeyCode::Escape) {
        *selection = Selection::default();
    }
    if keys.just_pressed(KeyCode::KeyC) {
        toggle_labels(&mut labels);
    }
    if keys.just_pressed(KeyCode::F1) || keys.just_pressed(KeyCode::KeyH) {
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
    zoc: Res<Zoc>,
    units: Query<crate::game::movement::MoverData>,
) {
    // The phase follows TurnState a frame later, so a phase change also triggers a refresh.
    if !(selection.is_changed() || index.is_changed() || turn.is_changed() || phase.is_changed() || zoc.is_changed())
        || selection.units.is_empty()
    {
        return;
    }
    selection.units.retain(|e| units.contains(*e));
    let result = movers_and_others(&selection.units, &units)
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
    positions: Query<&Position>,
    camera: Query<&Projection, With<BoardCamera>>,
    mut gizmos: Gizmos,
) {
    let Some(at) = selection.units.first().and_then(|e| positions.get(*e).ok()) else {
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
        for (shrink, ink) in [(0.9 - edge, OUTLINE_EDGE), (0.9 + edge, OUTLINE_EDGE), (0.9, color)] {
            let mut pts: Vec<Vec2> = corners.iter().map(|p| c + (*p - c) * shrink).collect();
            pts.push(pts[0]);
            gizmos.linestrip_2d(pts, ink);
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

#[cfg(test)]
mod tests {
    use super::{ClickIntent, click_intent};

    #[test]
    fn a_click_on_another_own_stack_selects_it_and_shift_click_merges() {
        use ClickIntent::*;
        // Nothing selected, or the selection itself clicked: select.
        assert_eq!(click_intent(false, false, true, false), Select);
        assert_eq!(click_intent(true, true, true, false), Select);
        assert_eq!(click_intent(true, true, true, true), Select);
        // An empty cell: move (in reach or not: the refusal says why).
        assert_eq!(click_intent(true, false, false, false), Move);
        // Another own stack: select it; Shift+click moves onto it to merge, in reach or not (the
        // game refuses a merge out of reach and the status bar says why).
        assert_eq!(click_intent(true, false, true, false), Select);
        assert_eq!(click_intent(true, false, true, true), Move);
    }
}
