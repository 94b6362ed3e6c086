//! The player's controls over the board: hover info, selecting a stack, seeing where it can go,
//! ordering moves (sent as `Order`s; the game decides), ending phases, and the egui bars that
//! show turn, phase, the cell under the cursor, the last message and the controls.

use super::board::{CellLabel, toggle_labels};
use super::camera::{BoardCamera, PointerOverUi};
use super::counters::values_text;
use super::layout::Layout;
use super::orders::{ConfirmEndTurn, History, HistoryNote, PlayerOrder, end_phase};
use super::settings::Settings;
use crate::game::components::*;
use crate::game::execute::OrderRefused;
use crate::game::movement::{movers_and_others, search_moves};
use crate::game::order::Order;
use crate::game::phase::{GameState, Phase, TurnState};
use crate::game::zoc::Zoc;
use crate::rules::grid::Cell;
use crate::rules::movement::Reach;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rustc_hash::FxHashMap;

/// The cell under the mouse.
#[derive(Resource, Default)]
pub struct Hovered(pub Option<Cell>);

/// The selected stack and where it can move.
#[derive(Resource, Default)]
pub struct Selection {
    pub units: Vec<Entity>,
    pub reach: FxHashMap<Cell, Reach>,
    /// Why the selection cannot move, when it cannot.
    pub cannot_move: Option<String>,
}

/// The last refused order, shown until the next action.
#[derive(Resource, Default)]
pub struct LastRefusal(pub Option<String>);

#[derive(Resource, Default)]
struct ShowHelp(bool);

/// The board-input systems of the HUD (hover, clicks, keys, reach), for ordering others after.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HudSystems;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Hovered>()
        .init_resource::<Selection>()
        .init_resource::<LastRefusal>()
        .init_resource::<ShowHelp>()
        .add_systems(
            Update,
            (
                track_hover,
                handle_clicks,
                handle_keys,
                refresh_reach,
                note_refusals,
                draw_selection,
            )
                .chain()
                .in_set(HudSystems)
                .run_if(
                    in_state(GameState::Playing)
                        .and_then(resource_exists::<Layout>)
                        .and_then(not(resource_exists::<super::replay::Replay>)),
                ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_hud.run_if(resource_exists::<TurnState>.and_then(resource_exists::<State<Phase>>)),
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

fn handle_clicks(
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
) {
    if over_ui.0 || !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(cell) = hovered.0 else { return };
    let enemies = index
        .stack(cell)
        .iter()
        .any(|e| sides.get(*e).is_ok_and(|s| *s != turn.active));
    if *phase.get() == Phase::Combat && !selection.units.is_empty() && enemies {
        return; // an attack: the attack plugin declares it
    }
    refusal.0 = None;
    let own: Vec<Entity> = index
        .stack(cell)
        .iter()
        .copied()
        .filter(|e| sides.get(*e).is_ok_and(|s| *s == turn.active))
        .collect();
    if !selection.units.is_empty()
        && !own.iter().any(|e| selection.units.contains(e))
        && (selection.reach.contains_key(&cell) || own.is_empty())
    {
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
    mut labels: Query<&mut Visibility, With<CellLabel>>,
    mut help: ResMut<ShowHelp>,
) {
    let chord = super::ctrl_held(&keys) || keys.any_pressed([KeyCode::AltLeft, KeyCode::AltRight]);
    if chord || confirm.0 {
        return; // Ctrl+… belongs to the menu's shortcuts; the confirmation has its own keys
    }
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::KeyE) {
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

fn draw_selection(selection: Res<Selection>, layout: Res<Layout>, positions: Query<&Position>, mut gizmos: Gizmos) {
    let Some(at) = selection.units.first().and_then(|e| positions.get(*e).ok()) else {
        return;
    };
    let ring = |gizmos: &mut Gizmos, cell: Cell, color: Color| {
        let mut pts = layout.corners(cell);
        for p in pts.iter_mut() {
            *p = layout.center(cell) + (*p - layout.center(cell)) * 0.9;
        }
        pts.push(pts[0]);
        gizmos.linestrip_2d(pts, color);
    };
    ring(&mut gizmos, at.0, Color::srgb(1.0, 1.0, 1.0));
    for (cell, reach) in &selection.reach {
        let color = if reach.must_stop {
            Color::srgb(1.0, 0.45, 0.1)
        } else {
            Color::srgb(1.0, 0.9, 0.2)
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

type UnitInfo<'a> = (
    &'a Unit,
    &'a Side,
    &'a Steps,
    &'a MovePoints,
    &'a Statuses,
    Option<&'a Effectiveness>,
    Option<&'a Formation>,
);

fn draw_hud(
    mut contexts: EguiContexts,
    (turn, map, sides, source, phase): (
        Res<TurnState>,
        Res<GameMap>,
        Res<Sides>,
        Res<ScenarioSource>,
        Res<State<Phase>>,
    ),
    (hovered, index, selection, refusal, log, help): (
        Res<Hovered>,
        Res<MapIndex>,
        Res<Selection>,
        Res<LastRefusal>,
        Res<GameLog>,
        Res<ShowHelp>,
    ),
    mut over_ui: ResMut<PointerOverUi>,
    mut orders: MessageWriter<PlayerOrder>,
    (mut confirm, settings, note, replay): (
        ResMut<ConfirmEndTurn>,
        Res<Settings>,
        Res<HistoryNote>,
        Option<Res<super::replay::Replay>>,
    ),
    mut history: MessageWriter<History>,
    log_panel: Res<super::log_panel::LogPanel>,
    units: Query<UnitInfo>,
    mut game_commands: MessageWriter<super::saves::GameCommand>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        egui::Id::new("hud"),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::top("turn").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            use super::saves::GameCommand;
            ui.menu_button("Game", |ui| {
                for (label, command, tip) in [
                    (
                        "Save  (Ctrl+S)",
                        GameCommand::Save,
                        "Save the game: the scenario, the seed and every order",
                    ),
                    (
                        "Load…  (Ctrl+O)",
                        GameCommand::OpenLoad,
                        "Continue or watch a saved game or turn file",
                    ),
                    (
                        "Send turn…",
                        GameCommand::SendTurn,
                        "Write a turn file for your opponent (play by e-mail)",
                    ),
                    (
                        "Watch from the start",
                        GameCommand::Watch,
                        "Replay this game from its first order",
                    ),
                    ("Concede…", GameCommand::Concede, "Give up: the other side wins"),
                    ("New game  (F2)", GameCommand::NewGame, "Back to the start screen"),
                    (
                        "Settings  (F10)",
                        GameCommand::Settings,
                        "UI scale, colours, confirmations",
                    ),
                ] {
                    if ui.button(label).on_hover_text(tip).clicked() {
                        game_commands.write(command);
                        ui.close();
                    }
                }
                ui.separator();
                if ui
                    .button("Undo  (Ctrl+Z)")
                    .on_hover_text("Take back the last order (not past a die roll)")
                    .clicked()
                {
                    history.write(History::Undo);
                    ui.close();
                }
                if ui
                    .button("Redo  (Ctrl+Y)")
                    .on_hover_text("Give the last undone order again")
                    .clicked()
                {
                    history.write(History::Redo);
                    ui.close();
                }
            });
            if ui.button("⟲").on_hover_text("Undo the last order (Ctrl+Z)").clicked() {
                history.write(History::Undo);
            }
            if ui.button("⟳").on_hover_text("Redo (Ctrl+Y)").clicked() {
                history.write(History::Redo);
            }
            ui.separator();
            ui.strong(&source.0.name);
            ui.separator();
            ui.label(format!("Turn {} of {}", turn.turn, turn.last_turn));
            ui.separator();
            let side = &sides.0[turn.active.0];
            let [r, g, b] = side.color;
            ui.colored_label(
                egui::Color32::from_rgb(r, g, b),
                egui::RichText::new(&side.name).strong(),
            );
            ui.label(format!("{:?} phase", phase.get()));
            ui.separator();
            if ui
                .add_enabled(replay.is_none(), egui::Button::new("End phase (Enter)"))
                .on_hover_text("End this phase (Enter or E); ending a side's last phase asks first")
                .clicked()
            {
                end_phase(&mut orders, &mut confirm, &turn, &map, &settings);
            }
            ui.separator();
            ui.label(egui::RichText::new(format!("{} · {}", map.ruleset.raw.name, source.0.setting)).weak());
        });
    });
    egui::Panel::bottom("status").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            let combat_hint = *phase.get() == Phase::Combat && !selection.units.is_empty();
            match (&refusal.0, &selection.cannot_move) {
                (_, _) if note.0.is_some() => ui.colored_label(
                    egui::Color32::from_rgb(220, 180, 60),
                    note.0.as_deref().unwrap_or_default(),
                ),
                (Some(r), _) => ui.colored_label(egui::Color32::from_rgb(220, 60, 40), format!("Refused: {r}")),
                (None, _) if combat_hint => {
                    ui.label("Combat phase: hover an enemy next to the selection for the odds, click it to attack.")
                }
                (None, Some(why)) => {
                    ui.colored_label(egui::Color32::from_rgb(220, 140, 40), format!("Cannot move: {why}"))
                }
                _ => ui.label(log.0.last().map(String::as_str).unwrap_or("")),
            };
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.label(
                    egui::RichText::new(
                        "F1 help · left-click select/move/attack · right-drag pan · wheel zoom · F fit · C labels",
                    )
                    .weak(),
                );
            });
        });
    });
    if let Some(cell) = hovered.0 {
        egui::Window::new("cell")
            .title_bar(false)
            .resizable(false)
            .anchor(egui::Align2::RIGHT_TOP, [-log_panel.right_inset(), 40.0])
            .show(ctx, |ui| {
                let terrain = map
                    .board
                    .terrain(cell)
                    .map(|t| map.ruleset.terrain_look(t).name.clone())
                    .unwrap_or_default();
                let place = map.places.get(&cell).map(|p| format!(" — {p}")).unwrap_or_default();
                ui.strong(format!("{cell} {terrain}{place}"));
                let mut edges: Vec<String> = Vec::new();
                for n in map.board.grid.neighbours(cell) {
                    let f = map.board.edge(cell, n);
                    if !f.is_empty() {
                        edges.push(format!(
                            "{n}: {}",
                            f.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join("+")
                        ));
                    }
                }
                if !edges.is_empty() {
                    ui.label(egui::RichText::new(edges.join("  ")).small());
                }
                if let Some(r) = selection.reach.get(&cell) {
                    ui.label(format!(
                        "Move here: {} MP{}",
                        r.spent,
                        if r.must_stop { ", then stop (enemy ZOC)" } else { "" }
                    ));
                }
                for e in index.stack(cell).iter().rev() {
                    if let Ok((unit, side, steps, mp, statuses, er, formation)) = units.get(*e) {
                        let [r, g, b] = sides.0[side.0].color;
                        ui.horizontal(|ui| {
                            ui.colored_label(egui::Color32::from_rgb(r, g, b), "■");
                            ui.label(format!("{} ({:?} {:?})", unit.name, unit.class, unit.size));
                        });
                        let mut line = format!(
                            "  {}  steps {}/{}  MP {}/{}",
                            values_text(steps, mp),
                            steps.0.remaining(),
                            steps.0.total(),
                            mp.left(),
                            mp.allowance
                        );
                        if let Some(er) = er {
                            line += &format!("  ER {}", er.0);
                        }
                        if !statuses.0.is_empty() {
                            line += &format!("  {:?}", statuses.0);
                        }
                        ui.label(egui::RichText::new(line).small());
                        if let Some(el) = formation.and_then(|f| f.element.as_ref()) {
                            ui.label(egui::RichText::new(format!("  {el}")).small().weak());
                        }
                    }
                }
            });
    }
    if help.0 {
        egui::Window::new("Controls (F1)").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
            egui::Grid::new("keys").striped(true).show(ui, |ui| {
                for (k, what) in [
                    ("Left click", "select your stack in a cell / move the selection to a highlighted cell"),
                    ("Left click on an enemy", "in a combat phase, prepare an attack on it with the selection (odds, modifiers and CRT open)"),
                    ("Shift + click your stack", "add it to (or take it from) the prepared attack"),
                    ("Space", "roll the prepared attack"),
                    ("Ctrl+S, Ctrl+O", "save the game, load a saved game"),
                    ("F2", "new game (the start screen)"),
                    ("F10", "settings: UI scale, colour-blind-safe palette"),
                    ("Esc", "clear the selection, cancel the prepared attack"),
                    ("Enter, E", "end the phase (ending a side's last phase asks first)"),
                    ("Ctrl+Z, Ctrl+Y", "undo the last order (never past a die roll), redo it"),
                    ("L", "show or hide the game log"),
                    ("Right or middle drag, WASD, arrows", "pan"),
                    ("Wheel, + / -", "zoom"),
                    ("F", "fit the map to the window"),
                    ("C", "show or hide cell labels"),
                    ("Z", "show or hide the enemy zones of control (hover a cell: arrows from who projects it)"),
                    ("F1, H", "this help"),
                ] {
                    ui.strong(k);
                    ui.label(what);
                    ui.end_row();
                }
            });
            ui.label("Yellow outlines: cells the selection can reach. Orange with a cross: it must stop there (enemy zone of control).");
            ui.label("After combat, red arrows show retreats and green arrows advances for a few seconds.");
        });
    }
    over_ui.0 = ctx.egui_wants_pointer_input() || ctx.is_pointer_over_egui();
    Ok(())
}
