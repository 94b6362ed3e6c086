//! The egui bars around the board: the top bar (the Game menu, undo and redo, scenario, turn, side,
//! phase, End phase), the status bar (the last message, refusal or hint), the cell under the
//! cursor with every unit in it, and the list of controls (F1).

use super::counters::values_text;
use super::hud::ShowHelp;
use super::orders::{History, end_phase};
use super::root_ui::root;
use super::saves::GameCommand;
use super::state::PointerOverUi;
use super::state::Settings;
use super::state::{ConfirmEndTurn, HistoryNote, PlayerOrder};
use super::state::{Hovered, LastRefusal, Selection};
use crate::game::components::*;
use crate::game::phase::{Phase, TurnState};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        ((top_bar, status_bar, cell_info).run_if(super::state::off), help_window)
            .chain()
            .run_if(resource_exists::<TurnState>.and_then(resource_exists::<State<Phase>>)),
    )
    // Before the board reads clicks: from the last complete egui frame, every window included.
    .add_systems(PreUpdate, note_pointer);
}

/// The Game menu: files, play by e-mail, watching, conceding, settings, undo and redo.
fn game_menu(ui: &mut egui::Ui, game_commands: &mut MessageWriter<GameCommand>, history: &mut MessageWriter<History>) {
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
            (
                "Balance lab…",
                GameCommand::BalanceLab,
                "Computer-vs-computer games of this scenario: win rates, objectives by turn, decisive combats",
            ),
            ("New game  (F2)", GameCommand::NewGame, "Back to the start screen"),
            (
                "Settings  (F10)",
                GameCommand::Settings,
                "UI scale, colours, confirmations",
            ),
            (
                "Quit  (Ctrl+Q)",
                GameCommand::Quit,
                "Close Hexfront (the game is autosaved first)",
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
}

fn top_bar(
    mut contexts: EguiContexts,
    (turn, map, sides, source, phase): (
        Res<TurnState>,
        Res<GameMap>,
        Res<Sides>,
        Res<ScenarioSource>,
        Res<State<Phase>>,
    ),
    mut orders: MessageWriter<PlayerOrder>,
    (mut confirm, settings, replay): (ResMut<ConfirmEndTurn>, Res<Settings>, Option<Res<super::state::Replay>>),
    mut history: MessageWriter<History>,
    mut game_commands: MessageWriter<GameCommand>,
    (control, mut show_score): (
        Option<Res<crate::game::victory::ObjectiveControl>>,
        ResMut<super::score::ShowScore>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = root(ctx, "hud-top");
    egui::Panel::top("turn").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            game_menu(ui, &mut game_commands, &mut history);
            if ui.button("⟲").on_hover_text("Undo the last order (Ctrl+Z)").clicked() {
                history.write(History::Undo);
            }
            if ui.button("⟳").on_hover_text("Redo (Ctrl+Y)").clicked() {
                history.write(History::Redo);
            }
            ui.separator();
            // A long name is cut so the turn, the phase and End phase always fit; hover for all of it.
            let name: String = source.0.name.chars().take(48).collect();
            let cut = name.len() < source.0.name.len();
            ui.strong(if cut { format!("{name}…") } else { name })
                .on_hover_text(&source.0.name);
            ui.separator();
            ui.label(format!("Turn {} of {}", turn.turn, turn.last_turn));
            ui.separator();
            let side = &sides.0[turn.active.0];
            ui.colored_label(
                super::side_text::side_text_color(side.color, ui.visuals().panel_fill),
                egui::RichText::new(&side.name).strong(),
            );
            ui.label(format!("{:?} phase", phase.get()));
            ui.separator();
            if let Some(control) = &control
                && !map.objectives.is_empty()
            {
                let st = crate::game::victory::standing(&map, &control.0, &sides, turn.turn, turn.last_turn);
                super::score::score_button(ui, &st, &sides, &mut show_score);
                ui.separator();
            }
            if ui
                .add_enabled(replay.is_none(), egui::Button::new("End phase (Enter)"))
                .on_hover_text("End this phase (Enter or E); ending a side's last phase asks first")
                .clicked()
            {
                end_phase(&mut orders, &mut confirm, &turn, &map, &settings);
            }
            ui.separator();
            // Cut at the window's edge rather than clipped; hover for all of it.
            let about = format!("{} · {}", map.ruleset.raw.name, source.0.setting);
            ui.add(egui::Label::new(egui::RichText::new(&about).weak()).truncate())
                .on_hover_text(about);
        });
    });
    Ok(())
}

fn status_bar(
    mut contexts: EguiContexts,
    phase: Res<State<Phase>>,
    selection: Res<Selection>,
    refusal: Res<LastRefusal>,
    log: Res<GameLog>,
    note: Res<HistoryNote>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = root(ctx, "hud-status");
    egui::Panel::bottom("status").show(&mut root, |ui| {
        let combat_hint = *phase.get() == Phase::Combat && !selection.units.is_empty();
        let (message, colour) = match (&refusal.0, &selection.cannot_move) {
            (_, _) if note.0.is_some() => (
                note.0.clone().unwrap_or_default(),
                Some(egui::Color32::from_rgb(220, 180, 60)),
            ),
            (Some(r), _) => (format!("Refused: {r}"), Some(egui::Color32::from_rgb(220, 60, 40))),
            (None, _) if combat_hint => (
                "Combat phase: hover an enemy next to the selection for the odds, click it to attack.".into(),
                None,
            ),
            (None, Some(why)) => (
                format!("Cannot move: {why}"),
                Some(egui::Color32::from_rgb(220, 140, 40)),
            ),
            _ => (log.0.last().cloned().unwrap_or_default(), None),
        };
        // The controls hint keeps its place on the right; the message takes what is left of the
        // bar, cut with an ellipsis (hover for all of it), never written under the hint.
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(
                egui::RichText::new(
                    "F1 help · left-click select/move/attack · right-drag pan · wheel zoom · F fit · C labels",
                )
                .weak(),
            );
            ui.add_space(12.0);
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                let text = match colour {
                    Some(c) => egui::RichText::new(&message).color(c),
                    None => egui::RichText::new(&message),
                };
                ui.add(egui::Label::new(text).truncate()).on_hover_text(&message);
            });
        });
    });
    Ok(())
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

/// Where over-stacking is allowed at a cost (Next War): what a cell over its limit costs its
/// units, in words; `None` when it is within the limit.
fn overstacked_words(
    map: &GameMap,
    cell: crate::rules::grid::Cell,
    index: &MapIndex,
    points: &Query<(&Side, &crate::game::components::StackingPoints)>,
) -> Option<String> {
    let stacking = &map.ruleset.stacking;
    if !stacking.penalized() {
        return None;
    }
    let limit = stacking.limit_in(map.board.terrain(cell)?);
    let mut by_side: Vec<(Side, u32)> = Vec::new();
    for (side, sp) in index.stack(cell).iter().filter_map(|e| points.get(*e).ok()) {
        match by_side.iter_mut().find(|(s, _)| s == side) {
            Some((_, n)) => *n += stacking.counted(sp.0),
            None => by_side.push((*side, stacking.counted(sp.0))),
        }
    }
    let (_, total) = by_side.into_iter().find(|(_, n)| *n > limit)?;
    let word = stacking.unit_word();
    Some(format!(
        "Over-stacked: {total} {word}, limit {limit}. Its units lose {} ER (effectiveness) in combat, only {limit} {word} of them fight, and no road movement enters or leaves it.",
        total - limit
    ))
}

/// The cell under the cursor: terrain, place, edges, the cost to move there, every unit in it.
fn cell_info(
    mut contexts: EguiContexts,
    map: Res<GameMap>,
    sides: Res<Sides>,
    (hovered, index, selection): (Res<Hovered>, Res<MapIndex>, Res<Selection>),
    log_panel: Res<super::log_panel::LogPanel>,
    units: Query<UnitInfo>,
    points: Query<(&Side, &crate::game::components::StackingPoints)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
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
                let features = map.board.features(cell);
                if !features.is_empty() {
                    ui.label(features.iter().map(|f| f.word()).collect::<Vec<_>>().join(", "));
                }
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
                if let Some(warning) = overstacked_words(&map, cell, &index, &points) {
                    ui.colored_label(egui::Color32::from_rgb(230, 150, 40), warning);
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
                            ui.label(format!("{} · {:?} {:?}", unit.name, unit.class, unit.size));
                        });
                        let mut line = format!(
                            "  {}  steps {}/{}  MP {}/{}",
                            values_text(steps, mp, map.ruleset.combat.counter_prints_defense()),
                            steps.0.remaining(),
                            steps.0.total(),
                            mp.left(),
                            mp.allowance
                        );
                        if let Some(er) = er {
                            line += &format!("  ER {}", er.0);
                        }
                        if !statuses.0.is_empty() {
                            let words: Vec<&str> = statuses.0.iter().map(|s| s.word()).collect();
                            line += &format!("  {}", words.join(", "));
                        }
                        ui.label(egui::RichText::new(line).small());
                        if let Some(el) = formation.and_then(|f| f.element.as_ref()) {
                            ui.label(egui::RichText::new(format!("  {el}")).small().weak());
                        }
                    }
                }
            });
    }
    Ok(())
}

fn help_window(mut contexts: EguiContexts, help: Res<ShowHelp>, mut guide: ResMut<super::guide::Guide>) -> Result {
    let ctx = contexts.ctx_mut()?;
    if help.0 {
        egui::Window::new("Controls (F1)").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(ctx.content_rect().height() * 0.6)
                .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                .show(ui, |ui| egui::Grid::new("keys").striped(true).show(ui, |ui| {
                let clicks = [
                    ("Left click", "select your stack in a cell / move the selection to a highlighted cell"),
                    ("Shift+click a friendly stack", "move the selection onto it and merge (a plain click selects it)"),
                    ("Left click on an enemy", "in a combat phase, prepare an attack on it with the selection (odds, modifiers and CRT open)"),
                    ("Shift + click your stack", "add it to (or take it from) the prepared attack"),
                ];
                for (k, what) in clicks.into_iter().chain(super::keymap::help_lines()) {
                    ui.strong(k);
                    ui.label(what);
                    ui.end_row();
                }
            }));
            ui.label("Yellow outlines: cells the selection can reach. Orange with a cross: it must stop there (enemy zone of control).");
            ui.label("After combat, red arrows show retreats and green arrows advances for a few seconds.");
            ui.label("In a combat phase, a ring marks each of your stacks that may still attack; a red ring marks an enemy stack the must-attack rule says you must still attack (War Against Russia).");
            if ui.button("How to play: the illustrated guide").clicked() {
                guide.open = true;
            }
            ui.separator();
            ui.strong("Markers on counters");
            ui.horizontal_wrapped(|ui| {
                for status in crate::rules::units::UnitStatus::ALL {
                    let (label, [r, g, b], light) = super::counters::status_marker(status);
                    let ink = if light { egui::Color32::WHITE } else { egui::Color32::BLACK };
                    ui.label(
                        egui::RichText::new(format!(" {label} "))
                            .monospace()
                            .strong()
                            .color(ink)
                            .background_color(egui::Color32::from_rgb(r, g, b)),
                    );
                    ui.label(status.word());
                }
            });
        });
    }
    Ok(())
}

/// Whether the pointer is over a panel, so board clicks there are ignored.
fn note_pointer(mut contexts: EguiContexts, mut over_ui: ResMut<PointerOverUi>) {
    // Before the first egui frame there is no context yet: nothing is over a panel.
    if let Ok(ctx) = contexts.ctx_mut() {
        over_ui.0 = ctx.egui_wants_pointer_input() || ctx.is_pointer_over_egui();
    }
}
