//! The editor's dialogs: a new map (grid, size, ruleset, fill), opening a file, saving under a
//! name, resizing the map on any side, and closing with unsaved edits.

use super::Editor;
use crate::edit::resize::{Margins, resize};
use crate::rules::grid::{GridKind, HexTop};
use bevy::prelude::Commands;
use bevy_egui::egui;
use std::path::PathBuf;

/// A dialog open over the editor.
#[derive(Clone, Debug)]
pub enum Dialog {
    NewMap {
        grid: usize,
        width: u32,
        height: u32,
        ruleset: String,
        fill: String,
    },
    Open(String),
    SaveAs(String),
    Resize(Margins, String),
    /// Leave the editor (asks when there are unsaved edits).
    Close,
}

const GRIDS: [(&str, GridKind); 4] = [
    ("Hexes, flat top", GridKind::Hex { top: HexTop::Flat }),
    ("Hexes, pointy top", GridKind::Hex { top: HexTop::Pointy }),
    ("Squares", GridKind::Square { diagonals: false }),
    ("Squares with diagonals", GridKind::Square { diagonals: true }),
];

impl Dialog {
    pub fn new_map() -> Self {
        Dialog::NewMap {
            grid: 0,
            width: 12,
            height: 10,
            ruleset: "killing-ground".into(),
            fill: "clear".into(),
        }
    }

    pub fn resize() -> Self {
        Dialog::Resize(Margins::default(), String::new())
    }

    /// Save as, offering the file's name or one made from the scenario's name in `scenarios/`.
    pub fn save_as(editor: &Editor) -> Self {
        let path = editor.path.clone().unwrap_or_else(|| {
            let slug: String = editor
                .raw
                .name
                .to_lowercase()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect();
            let slug = slug.split('-').filter(|s| !s.is_empty()).collect::<Vec<_>>().join("-");
            PathBuf::from("scenarios").join(format!("{}.ron", if slug.is_empty() { "scenario" } else { &slug }))
        });
        Dialog::SaveAs(path.display().to_string())
    }
}

pub fn show(ctx: &egui::Context, editor: &mut Editor, commands: &mut Commands) {
    let Some(mut dialog) = editor.dialog.take() else { return };
    let mut keep = true;
    let enter = ctx.input(|i| i.key_pressed(egui::Key::Enter));
    let escape = ctx.input(|i| i.key_pressed(egui::Key::Escape));
    egui::Window::new(title(&dialog))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            keep = contents(ui, &mut dialog, editor, commands, enter);
            if ui.button("Cancel (Esc)").clicked() || escape {
                keep = false;
            }
        });
    // A dialog may hand over to another (Close → Save as); that one stays.
    if keep && editor.dialog.is_none() {
        editor.dialog = Some(dialog);
    }
}

fn title(d: &Dialog) -> &'static str {
    match d {
        Dialog::NewMap { .. } => "New scenario",
        Dialog::Open(_) => "Open a scenario",
        Dialog::SaveAs(_) => "Save as",
        Dialog::Resize(..) => "Resize the map",
        Dialog::Close => "Close the editor",
    }
}

/// Draws a dialog's fields; false once it is done.
fn contents(ui: &mut egui::Ui, dialog: &mut Dialog, editor: &mut Editor, commands: &mut Commands, enter: bool) -> bool {
    match dialog {
        Dialog::NewMap {
            grid,
            width,
            height,
            ruleset,
            fill,
        } => new_map(ui, editor, (grid, width, height), ruleset, fill, enter),
        Dialog::Open(path) => open(ui, editor, path, enter),
        Dialog::SaveAs(path) => save_as(ui, editor, path, enter),
        Dialog::Resize(m, error) => resize_map(ui, editor, m, error, enter),
        Dialog::Close => close(ui, editor, commands),
    }
}

/// New scenario: grid, size, ruleset and fill; false once created.
fn new_map(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    (grid, width, height): (&mut usize, &mut u32, &mut u32),
    ruleset: &mut String,
    fill: &mut String,
    enter: bool,
) -> bool {
    egui::Grid::new("new-map").num_columns(2).show(ui, |ui| {
        ui.label("grid");
        egui::ComboBox::from_id_salt("grid")
            .selected_text(GRIDS[*grid].0)
            .show_ui(ui, |ui| {
                for (i, (name, _)) in GRIDS.iter().enumerate() {
                    ui.selectable_value(grid, i, *name);
                }
            });
        ui.end_row();
        ui.label("width");
        ui.add(egui::DragValue::new(width).range(1..=200));
        ui.end_row();
        ui.label("height");
        ui.add(egui::DragValue::new(height).range(1..=200));
        ui.end_row();
        ui.label("ruleset");
        egui::ComboBox::from_id_salt("new-ruleset")
            .selected_text(ruleset.clone())
            .show_ui(ui, |ui| {
                for &(name, _) in crate::scenario::ruleset::BUILTIN {
                    ui.selectable_value(ruleset, name.to_string(), name);
                }
            });
        ui.end_row();
        ui.label("fill with");
        let terrain: Vec<(String, String)> = crate::scenario::Ruleset::builtin(ruleset)
            .and_then(Result::ok)
            .map(|r| r.looks.iter().map(|l| (l.id.clone(), l.name.clone())).collect())
            .unwrap_or_default();
        if !terrain.iter().any(|(id, _)| id == fill)
            && let Some((id, _)) = terrain.first()
        {
            *fill = id.clone();
        }
        egui::ComboBox::from_id_salt("fill")
            .selected_text(fill.clone())
            .show_ui(ui, |ui| {
                for (id, name) in &terrain {
                    ui.selectable_value(fill, id.clone(), name);
                }
            });
        ui.end_row();
    });
    unsaved_warning(ui, editor);
    if ui.button(egui::RichText::new("Create (Enter)").strong()).clicked() || enter {
        let unsaved = editor.history.is_dirty();
        *editor = Editor::new_map(GRIDS[*grid].1, *width, *height, ruleset, fill);
        editor.status = if unsaved {
            "New scenario (the previous one's unsaved edits were dropped)".into()
        } else {
            "New scenario".into()
        };
        return false;
    }
    true
}

fn open(ui: &mut egui::Ui, editor: &mut Editor, path: &mut String, enter: bool) -> bool {
    ui.label("A scenario or saved game file (a saved game opens its scenario):");
    unsaved_warning(ui, editor);
    ui.text_edit_singleline(path).request_focus();
    if ui.button("Open (Enter)").clicked() || enter {
        match Editor::load(PathBuf::from(path.trim())) {
            Ok(e) => {
                *editor = e;
                return false;
            }
            Err(e) => {
                editor.status = format!("Not opened: {e}");
            }
        }
    }
    ui.colored_label(egui::Color32::from_rgb(230, 150, 120), &editor.status);
    true
}

fn save_as(ui: &mut egui::Ui, editor: &mut Editor, path: &mut String, enter: bool) -> bool {
    ui.label("Save to:");
    ui.text_edit_singleline(path).request_focus();
    let target = PathBuf::from(path.trim());
    if target.exists() && editor.path.as_ref() != Some(&target) {
        ui.colored_label(
            egui::Color32::from_rgb(230, 150, 90),
            "That file exists: saving replaces it.",
        );
    }
    if ui.button("Save (Enter)").clicked() || enter {
        editor.save_to(PathBuf::from(path.trim()));
        return false;
    }
    true
}

/// Resize: margins on each side, what falls off said before it goes.
fn resize_map(ui: &mut egui::Ui, editor: &mut Editor, m: &mut Margins, error: &mut String, enter: bool) -> bool {
    ui.label("Rows and columns to add (or, negative, remove) on each side:");
    egui::Grid::new("resize").num_columns(2).show(ui, |ui| {
        for (name, v) in [
            ("left", &mut m.left),
            ("right", &mut m.right),
            ("top", &mut m.top),
            ("bottom", &mut m.bottom),
        ] {
            ui.label(name);
            if ui.add(egui::DragValue::new(v).range(-200..=200)).changed() {
                error.clear();
            }
            ui.end_row();
        }
    });
    // What falls off the map, said before it goes.
    if let Ok(edit) = resize(&editor.raw, *m, &editor.settings.terrain) {
        let mut after = editor.raw.clone();
        edit.apply(&mut after);
        let lost = |a: usize, b: usize, what: &str| (a > b).then(|| format!("{} {what}", a - b));
        let gone: Vec<String> = [
            lost(editor.raw.units.len(), after.units.len(), "units"),
            lost(editor.raw.objectives.len(), after.objectives.len(), "objectives"),
            lost(editor.raw.map.places.len(), after.map.places.len(), "place names"),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !gone.is_empty() {
            ui.colored_label(
                egui::Color32::from_rgb(230, 150, 90),
                format!("Off the map and removed: {} (Ctrl+Z brings them back)", gone.join(", ")),
            );
        }
    } else if let Err(e) = resize(&editor.raw, *m, &editor.settings.terrain) {
        ui.colored_label(egui::Color32::from_rgb(230, 110, 90), e);
    }
    ui.label(format!(
        "Now {}×{}; then {}×{}. New cells take the brush's terrain ({}).",
        editor.raw.map.width,
        editor.raw.map.height,
        editor.raw.map.width as i32 + m.left + m.right,
        editor.raw.map.height as i32 + m.top + m.bottom,
        editor.settings.terrain
    ));
    if ui.button("Resize (Enter)").clicked() || enter {
        match resize(&editor.raw, *m, &editor.settings.terrain) {
            Ok(edit) => {
                editor.apply(edit);
                editor.view.fitted = false;
                editor.status = "Resized (Ctrl+Z undoes it)".into();
                return false;
            }
            Err(e) => *error = e,
        }
    }
    true
}

/// Close: at once when everything is saved, else Save-then-close or Close without saving.
fn close(ui: &mut egui::Ui, editor: &mut Editor, commands: &mut Commands) -> bool {
    if editor.history.is_dirty() {
        ui.label("The scenario has edits not saved. Close the editor and lose them?");
        ui.horizontal(|ui| {
            if ui.button("Save, then close").clicked() {
                if editor.path.is_none() {
                    // Never saved: where to, first (then Close again).
                    editor.dialog = Some(Dialog::save_as(editor));
                } else {
                    editor.save();
                    if !editor.history.is_dirty() {
                        commands.remove_resource::<Editor>();
                    }
                }
            }
            if ui.button("Close without saving").clicked() {
                commands.remove_resource::<Editor>();
            }
        });
    } else {
        commands.remove_resource::<Editor>();
        return false;
    }
    true
}

/// Said before New or Open replaces a scenario with edits not saved.
fn unsaved_warning(ui: &mut egui::Ui, editor: &Editor) {
    if editor.is_dirty() {
        ui.colored_label(
            egui::Color32::from_rgb(230, 150, 90),
            "The scenario open now has edits not saved: they are dropped (save first with Ctrl+S).",
        );
    }
}
