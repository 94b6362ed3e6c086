//! The editor's docked panels: the menu bar, the tool palette (left) and the live validation
//! (bottom); the inspector (right) is `inspector`.

use super::dialogs::Dialog;
use super::{Editor, Tool};
use crate::edit::tools;
use crate::rules::terrain::{CellFeature, EdgeFeature};
use crate::rules::units::{UnitClass, UnitSize};
use bevy::prelude::Commands;
use bevy_egui::egui;

pub fn top_bar(ui: &mut egui::Ui, editor: &mut Editor, commands: &mut Commands) {
    egui::Panel::top("editor-top").show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.menu_button("File", |ui| {
                if ui.button("New scenario…").clicked() {
                    editor.dialog = Some(Dialog::new_map());
                }
                if ui.button("Open…").clicked() {
                    editor.status.clear();
                    editor.dialog = Some(Dialog::Open(String::from("scenarios/")));
                }
                if ui.button("Save (Ctrl+S)").clicked() {
                    editor.save();
                }
                if ui.button("Save as… (Ctrl+Shift+S)").clicked() {
                    editor.dialog = Some(Dialog::save_as(editor));
                }
                ui.separator();
                if ui.button("Close the editor").clicked() {
                    editor.dialog = Some(Dialog::Close);
                }
            });
            ui.menu_button("Edit", |ui| {
                let (undo, redo) = (editor.history.can_undo(), editor.history.can_redo());
                if ui
                    .add_enabled(undo > 0, egui::Button::new(format!("Undo (Ctrl+Z) · {undo}")))
                    .clicked()
                {
                    editor.undo();
                }
                if ui
                    .add_enabled(redo > 0, egui::Button::new(format!("Redo (Ctrl+Y) · {redo}")))
                    .clicked()
                {
                    editor.redo();
                }
                if ui.button("Resize the map…").clicked() {
                    editor.dialog = Some(Dialog::resize());
                }
                if ui.button("Fit the map in view").clicked() {
                    editor.view.fitted = false;
                }
            });
            let valid = editor.check.is_ok();
            if ui
                .add_enabled(
                    valid,
                    egui::Button::new(egui::RichText::new("▶ Playtest (F5)").strong()),
                )
                .on_hover_text("Play it now with the real rules; F5 or F2 in the game comes back here")
                .on_disabled_hover_text("Fix what the validation panel names first")
                .clicked()
            {
                super::playtest(editor, commands);
            }
            playtest_seats(ui, editor);
            ui.separator();
            ui.strong(editor.title());
            ui.label(egui::RichText::new(&editor.status).weak());
        });
    });
}

/// Who the computer plays in a playtest (none: hotseat).
fn playtest_seats(ui: &mut egui::Ui, editor: &mut Editor) {
    let sides: Vec<String> = editor.raw.sides.iter().map(|s| s.name.clone()).collect();
    editor.seats.resize(sides.len(), None);
    let computer = editor.seats.iter().position(Option::is_some);
    let shown = computer.map_or("hotseat".to_string(), |i| format!("computer plays {}", sides[i]));
    egui::ComboBox::from_id_salt("playtest-seats")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            if ui
                .selectable_label(computer.is_none(), "hotseat (you play every side)")
                .clicked()
            {
                editor.seats.iter_mut().for_each(|s| *s = None);
            }
            for (i, name) in sides.iter().enumerate() {
                if ui
                    .selectable_label(computer == Some(i), format!("the computer plays {name}"))
                    .clicked()
                {
                    editor.seats.iter_mut().for_each(|s| *s = None);
                    editor.seats[i] = Some(crate::ai::Profile::standard());
                }
            }
        })
        .response
        .on_hover_text("Who plays in the playtest: you at every side, or the computer (standard) at one");
}

pub fn validation(ui: &mut egui::Ui, editor: &mut Editor) {
    let mut jump = None;
    egui::Panel::bottom("editor-validation").show(ui, |ui| {
        ui.horizontal_wrapped(|ui| match &editor.check {
            Ok(s) => {
                ui.colored_label(egui::Color32::from_rgb(110, 200, 120), "✔ Valid");
                ui.label(format!(
                    "`hexfront validate` accepts it: {}×{} map, {}, ruleset `{}`",
                    s.board.grid.width,
                    s.board.grid.height,
                    crate::rules::units::counted(s.units.len() as u64, "unit", "units"),
                    s.raw.ruleset
                ));
            }
            Err(e) => {
                ui.colored_label(egui::Color32::from_rgb(230, 110, 90), "✖ Not valid:");
                let text = e.to_string();
                let jump_link = ui.link(&text).on_hover_text(
                    "Click to go to the cell or unit it names (invalid states are allowed while editing)",
                );
                if jump_link.clicked() {
                    jump = Some((e.field.clone(), e.message.clone()));
                }
            }
        });
    });
    if let Some((field, message)) = jump {
        go_to_error(editor, &field, &message);
    }
}

/// Selects what an error names: a unit (`units[3]`) or the first cell label in it.
fn go_to_error(editor: &mut Editor, field: &str, message: &str) {
    if let Some(i) = field
        .strip_prefix("units[")
        .and_then(|r| r.split(']').next())
        .and_then(|n| n.parse::<usize>().ok())
        && let Some(u) = editor.raw.units.get(i)
    {
        editor.units = vec![u.id.clone()];
        editor.cell = tools::cell_of(&editor.raw, &u.cell);
        editor.tool = Tool::Select;
        return;
    }
    let words = format!("{field} {message}");
    let cell = words
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| w.len() == 4 || w.len() == 6)
        .find_map(|w| tools::cell_of(&editor.raw, w));
    if let Some(cell) = cell {
        editor.cell = Some(cell);
        editor.units = tools::units_in(&editor.raw, cell);
    }
}

pub fn palette(ui: &mut egui::Ui, editor: &mut Editor) {
    egui::Panel::left("editor-palette")
        .resizable(false)
        .exact_size(190.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("Tools");
                for (tool, name, key, hint) in Tool::ALL {
                    let key = format!("{key:?}").trim_start_matches("Key").to_string();
                    if ui
                        .selectable_label(editor.tool == tool, format!("{name}  ({key})"))
                        .on_hover_text(hint)
                        .clicked()
                    {
                        editor.tool = tool;
                    }
                }
                ui.separator();
                tool_settings(ui, editor);
            });
        });
}

fn tool_settings(ui: &mut egui::Ui, editor: &mut Editor) {
    let s = &mut editor.settings;
    match editor.tool {
        Tool::Terrain => {
            ui.strong("Terrain");
            if let Some(r) = &editor.ruleset {
                for look in &r.looks {
                    let [cr, cg, cb] = look.color;
                    ui.horizontal(|ui| {
                        let (rect, _) = ui.allocate_exact_size(egui::vec2(16.0, 16.0), egui::Sense::hover());
                        ui.painter().rect_filled(rect, 2.0, egui::Color32::from_rgb(cr, cg, cb));
                        ui.selectable_value(&mut s.terrain, look.id.clone(), &look.name);
                    });
                }
            } else {
                ui.label("The ruleset cannot be read: terrain by id");
                ui.text_edit_singleline(&mut s.terrain);
            }
            ui.spacing_mut().slider_width = 90.0;
            ui.add(egui::Slider::new(&mut s.brush, 1..=3).text("brush"))
                .on_hover_text("Brush size: 1 cell, 7 cells, 19 cells ([ and ] change it)");
            ui.checkbox(&mut s.fill, "Fill an area")
                .on_hover_text("A click fills the connected cells of the same terrain");
        }
        Tool::Edge => {
            ui.strong("Edge feature");
            for f in EdgeFeature::ALL.into_iter().filter(|f| *f != EdgeFeature::Road) {
                ui.selectable_value(&mut s.edge, f, spaced(&format!("{f:?}")));
            }
            ui.checkbox(&mut s.erase, "Erase (or hold Shift)");
        }
        Tool::Road => {
            ui.label("Drag through the cells the road passes.");
            ui.checkbox(&mut s.erase, "Erase a road step (or hold Shift)");
        }
        Tool::Feature => {
            ui.strong("Cell feature");
            for f in [
                CellFeature::Town,
                CellFeature::City,
                CellFeature::MajorCity,
                CellFeature::Fortification,
                CellFeature::Airbase,
                CellFeature::Port,
            ] {
                ui.selectable_value(&mut s.feature, f, f.word());
            }
        }
        Tool::Objective => {
            ui.add(egui::Slider::new(&mut s.objective_points, 0..=20).text("points"));
            ui.label("Its name is the place's, if it has one.");
        }
        Tool::Unit => {
            ui.strong("New unit");
            let sides: Vec<String> = editor.raw.sides.iter().map(|x| x.name.clone()).collect();
            egui::ComboBox::from_label("side (1 … 8)")
                .selected_text(sides.get(s.side).cloned().unwrap_or_default())
                .show_ui(ui, |ui| {
                    for (i, name) in sides.iter().enumerate() {
                        ui.selectable_value(&mut s.side, i, name);
                    }
                });
            enum_combo(ui, "class", &mut s.class, &UnitClass::ALL);
            enum_combo(ui, "size", &mut s.size, &UnitSize::ALL);
        }
        Tool::Select => {
            ui.label("Click a cell; drag its units to move them, Ctrl+drag to copy; Shift+click adds; Delete removes.");
        }
        Tool::Place => {
            ui.label("Click a cell, then type its name in the inspector.");
        }
    }
}

/// `MajorRiver` as "Major river".
pub fn spaced(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if i > 0 && c.is_uppercase() {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub(super) fn enum_combo<T: Copy + PartialEq + std::fmt::Debug>(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut T,
    all: &[T],
) -> bool {
    let before = *value;
    egui::ComboBox::from_label(label)
        .selected_text(format!("{value:?}"))
        .show_ui(ui, |ui| {
            for v in all {
                ui.selectable_value(value, *v, format!("{v:?}"));
            }
        });
    *value != before
}
