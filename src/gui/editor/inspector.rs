//! The editor's inspector (right): the selected cell (terrain, place name, objective, its units),
//! every field of the selected unit, the scenario's properties and victory conditions, and its
//! sides. Each change is an undoable edit; typing into one field is one step.

use super::Editor;
use super::panels::enum_combo;
use crate::edit::tools;
use crate::edit::{Edit, Properties};
use crate::rules::grid::{MapEdge, label};
use crate::rules::units::{UnitClass, UnitSize};
use crate::scenario::file::RawSide;
use bevy_egui::egui;

pub fn inspector(ui: &mut egui::Ui, editor: &mut Editor) {
    egui::Panel::right("editor-inspector")
        .resizable(false)
        .exact_size(340.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                if let Some(cell) = editor.cell {
                    cell_section(ui, editor, cell);
                }
                if let Some(id) = editor.units.first().cloned() {
                    ui.separator();
                    unit_form(ui, editor, &id);
                }
                ui.separator();
                egui::CollapsingHeader::new("Scenario")
                    .default_open(editor.cell.is_none())
                    .show(ui, |ui| {
                        properties(ui, editor);
                    });
                egui::CollapsingHeader::new("Sides").show(ui, |ui| sides(ui, editor));
            });
        });
}

fn cell_section(ui: &mut egui::Ui, editor: &mut Editor, cell: crate::rules::grid::Cell) {
    let at = label(cell);
    let terrain = tools::char_at(&editor.raw, cell)
        .and_then(|c| editor.raw.map.legend.get(&c).cloned())
        .unwrap_or_default();
    ui.heading(format!("Cell {at}"));
    ui.label(format!("Terrain: {terrain}"));
    let mut name = editor.raw.map.places.get(&at).cloned().unwrap_or_default();
    ui.horizontal(|ui| {
        ui.label("Place name");
        let r = ui.text_edit_singleline(&mut name);
        if r.changed() {
            let edit = tools::name_place(&editor.raw, cell, &name);
            editor.apply_typed(edit, ui);
        }
        // Spaces typed at its end are kept while typing, dropped when the field is left.
        if r.lost_focus() && name.trim() != name {
            let edit = tools::name_place(&editor.raw, cell, name.trim());
            editor.apply(edit);
        }
    });
    if let Some(f) = editor.raw.map.features.get(&at) {
        ui.label(format!("Features: {f:?}"));
    }
    if let Some(i) = editor.raw.objectives.iter().position(|o| o.cell == at) {
        let before = editor.raw.objectives[i].clone();
        let mut o = before.clone();
        ui.horizontal(|ui| {
            ui.label("Objective");
            ui.add(egui::TextEdit::singleline(&mut o.name).desired_width(150.0));
            ui.add(egui::DragValue::new(&mut o.points).suffix(" pts").range(0..=99));
        });
        ui.horizontal(|ui| {
            ui.label("held at the start by");
            egui::ComboBox::from_id_salt("held-by")
                .selected_text(o.held_by.clone().unwrap_or_else(|| "nobody".into()))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut o.held_by, None, "nobody");
                    for side in &editor.raw.sides {
                        ui.selectable_value(&mut o.held_by, Some(side.id.clone()), &side.name);
                    }
                });
        });
        if o != before {
            let edit = tools::set_objective(&editor.raw, cell, Some(o));
            editor.apply_typed(edit, ui);
        }
    }
    let here = tools::units_in(&editor.raw, cell);
    if !here.is_empty() {
        ui.label("Units here (click to inspect):");
        for id in here {
            let name = editor
                .raw
                .units
                .iter()
                .find(|u| u.id == id)
                .map(|u| u.name.clone())
                .unwrap_or_default();
            let selected = editor.units.contains(&id);
            if ui.selectable_label(selected, format!("{name}  ({id})")).clicked() {
                editor.units = vec![id];
            }
        }
    }
}

/// Every field of one unit; each change is an undoable step (typing into one field is one).
fn unit_form(ui: &mut egui::Ui, editor: &mut Editor, id: &str) {
    let Some(before) = editor.raw.units.iter().find(|u| u.id == id).cloned() else {
        return;
    };
    let mut u = before.clone();
    ui.heading("Unit");
    egui::Grid::new("unit-form").num_columns(2).show(ui, |ui| {
        committed_row(ui, "id", id, &mut u.id);
        text_row(ui, "name", &mut u.name);
        ui.label("side");
        let sides: Vec<String> = editor.raw.sides.iter().map(|s| s.id.clone()).collect();
        egui::ComboBox::from_id_salt("unit-side")
            .selected_text(u.side.clone())
            .show_ui(ui, |ui| {
                for s in &sides {
                    ui.selectable_value(&mut u.side, s.clone(), s);
                }
            });
        ui.end_row();
        ui.label("class");
        enum_combo(ui, "", &mut u.class, &UnitClass::ALL);
        ui.end_row();
        ui.label("size");
        enum_combo(ui, " ", &mut u.size, &UnitSize::ALL);
        ui.end_row();
        committed_row(ui, "cell", id, &mut u.cell);
        optional_number(ui, "strength", &mut u.strength);
        optional_number(ui, "attack", &mut u.attack);
        optional_number(ui, "defense", &mut u.defense);
        ui.label("movement");
        ui.add(egui::DragValue::new(&mut u.movement).speed(0.5).range(0.0..=99.0));
        ui.end_row();
        optional_number(ui, "ER", &mut u.er);
        optional_number(ui, "armor", &mut u.armor);
        optional_number(ui, "experience", &mut u.experience);
        optional_number(ui, "stacking points", &mut u.stacking_points);
        optional_number(ui, "arrives on turn", &mut u.arrives);
        optional_number(ui, "withdraws on turn", &mut u.withdraws);
        optional_text(ui, "element", &mut u.element);
        optional_text(ui, "parent", &mut u.parent);
        ron_row(ui, "steps", &mut u.steps);
        ron_row(ui, "chit", &mut u.chit);
        ron_row(ui, "status", &mut u.status);
        ron_row(ui, "traits", &mut u.traits);
    });
    if u != before {
        let edit = tools::update_unit(&editor.raw, id, u.clone());
        editor.apply_typed(edit, ui);
        if u.id != id {
            editor.units = vec![u.id.clone()];
        }
        editor.cell = tools::cell_of(&editor.raw, &u.cell).or(editor.cell);
    }
    if ui.button("Delete this unit (Delete)").clicked() {
        let edit = tools::delete_units(&editor.raw, &[id.to_string()]);
        editor.apply(edit);
    }
}

fn text_row(ui: &mut egui::Ui, name: &str, value: &mut String) {
    ui.label(name);
    ui.text_edit_singleline(value);
    ui.end_row();
}

/// A field applied when it is left (Enter, Tab or a click elsewhere): an id or a cell typed
/// half-way would move the unit, change the panel under the pointer and lose the typing.
fn committed_row(ui: &mut egui::Ui, name: &str, unit: &str, value: &mut String) {
    ui.label(name);
    // Kept per unit: text typed for one unit never lands on another selected meanwhile.
    let id = ui.id().with(("committed", name, unit));
    let mut text: String = ui
        .data_mut(|d| d.get_temp::<String>(id))
        .unwrap_or_else(|| value.clone());
    let r = ui
        .text_edit_singleline(&mut text)
        .on_hover_text("Applied when you press Enter or leave the field");
    if r.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, text));
    } else {
        if r.lost_focus() && text.trim() != value.as_str() && !text.trim().is_empty() {
            *value = text.trim().to_string();
        }
        ui.data_mut(|d| d.remove::<String>(id));
    }
    ui.end_row();
}

fn optional_number(ui: &mut egui::Ui, name: &str, value: &mut Option<u32>) {
    ui.label(name);
    ui.horizontal(|ui| {
        let mut on = value.is_some();
        if ui.checkbox(&mut on, "").changed() {
            *value = on.then_some(value.unwrap_or(1));
        }
        if let Some(v) = value {
            ui.add(egui::DragValue::new(v).range(0..=999));
        }
    });
    ui.end_row();
}

fn optional_text(ui: &mut egui::Ui, name: &str, value: &mut Option<String>) {
    ui.label(name);
    let mut text = value.clone().unwrap_or_default();
    if ui.text_edit_singleline(&mut text).changed() {
        *value = (!text.is_empty()).then_some(text);
    }
    ui.end_row();
}

/// A field edited as RON text (a step track, a chit, lists); applied when it parses.
fn ron_row<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq>(
    ui: &mut egui::Ui,
    name: &str,
    value: &mut T,
) {
    ui.label(name);
    let id = ui.id().with(("ron-row", name));
    let shown = crate::scenario::write::inline(value).unwrap_or_default();
    let mut text: String = ui
        .data_mut(|d| d.get_temp::<(String, String)>(id))
        .filter(|(s, _)| *s == shown)
        .map_or(shown.clone(), |(_, t)| t);
    let r = ui.text_edit_singleline(&mut text);
    match crate::source::ron_options().from_str::<T>(&text) {
        Ok(v) => {
            if r.changed() && v != *value {
                *value = v;
            }
        }
        Err(e) => {
            r.on_hover_text(format!("not applied: {e}"));
        }
    }
    let now = crate::scenario::write::inline(value).unwrap_or_default();
    ui.data_mut(|d| d.insert_temp(id, (now, text)));
    ui.end_row();
}

fn properties(ui: &mut egui::Ui, editor: &mut Editor) {
    let before = Properties::of(&editor.raw);
    let mut p = before.clone();
    egui::Grid::new("properties").num_columns(2).show(ui, |ui| {
        text_row(ui, "name", &mut p.name);
        text_row(ui, "setting", &mut p.setting);
        ui.label("ruleset");
        egui::ComboBox::from_id_salt("ruleset")
            .selected_text(p.ruleset.clone())
            .show_ui(ui, |ui| {
                for &(name, _) in crate::scenario::ruleset::BUILTIN {
                    ui.selectable_value(&mut p.ruleset, name.to_string(), name);
                }
            });
        ui.end_row();
        ui.label("or a file");
        ui.text_edit_singleline(&mut p.ruleset).on_hover_text(
            "A built-in ruleset, or a ruleset file of yours (`my-rules.ron` beside the scenario or in rulesets/)",
        );
        ui.end_row();
        ui.label("turns");
        ui.add(egui::DragValue::new(&mut p.turns).range(1..=200));
        ui.end_row();
        ui.label("first side");
        let sides: Vec<String> = editor.raw.sides.iter().map(|s| s.id.clone()).collect();
        egui::ComboBox::from_id_salt("first-side")
            .selected_text(p.first_side.clone())
            .show_ui(ui, |ui| {
                for s in &sides {
                    ui.selectable_value(&mut p.first_side, s.clone(), s);
                }
            });
        ui.end_row();
        ui.label("weather");
        enum_combo(ui, "  ", &mut p.weather, &WEATHER);
        ui.end_row();
        ui.label("otherwise wins");
        egui::ComboBox::from_id_salt("otherwise")
            .selected_text(p.otherwise.clone().unwrap_or_else(|| "a draw".into()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut p.otherwise, None, "a draw");
                for s in &sides {
                    ui.selectable_value(&mut p.otherwise, Some(s.clone()), s);
                }
            });
        ui.end_row();
        if p.otherwise.is_some() {
            ui.label("  at the level");
            level_choice(ui, "otherwise-level", &mut p.otherwise_level);
            ui.end_row();
        }
    });
    remap_terrain(ui, editor);
    ui.label("Description");
    ui.add(
        egui::TextEdit::multiline(&mut p.description)
            .desired_rows(3)
            .desired_width(f32::INFINITY),
    );
    ui.label("Victory (in words)");
    ui.add(
        egui::TextEdit::multiline(&mut p.victory)
            .desired_rows(2)
            .desired_width(f32::INFINITY),
    );
    win_conditions(ui, &sides_of(editor), &editor.raw.first_side, &mut p.win);
    if p != before {
        editor.apply_typed(Edit::Properties(Box::new(p)), ui);
    }
}

/// The victory conditions as the engine checks them: side, points, cells to hold, more points
/// than the others, sudden death.
fn win_conditions(ui: &mut egui::Ui, sides: &[String], first_side: &str, win: &mut Vec<crate::scenario::file::RawWin>) {
    ui.label("Victory conditions (checked by the engine; the first met decides)");
    let mut remove = None;
    for (i, w) in win.iter_mut().enumerate() {
        ui.group(|ui| {
            ui.horizontal(|ui| {
                egui::ComboBox::from_id_salt(("win-side", i))
                    .selected_text(w.side.clone())
                    .show_ui(ui, |ui| {
                        for s in sides {
                            ui.selectable_value(&mut w.side, s.clone(), s);
                        }
                    });
                let mut points = w.points.unwrap_or(0);
                if ui.add(egui::DragValue::new(&mut points).prefix("points ≥ ")).changed() {
                    w.points = (points > 0).then_some(points);
                }
                if ui.small_button("✖").on_hover_text("Remove this condition").clicked() {
                    remove = Some(i);
                }
            });
            ui.horizontal(|ui| {
                ui.label("hold cells");
                // Split into cells as typed, the text itself kept while typing (a space ends a cell).
                let key = ui.id().with(("hold", i));
                let mut hold = ui
                    .data_mut(|d| d.get_temp::<String>(key))
                    .unwrap_or_else(|| w.hold.join(" "));
                let r = ui.add(egui::TextEdit::singleline(&mut hold).desired_width(150.0));
                if r.changed() {
                    w.hold = hold.split_whitespace().map(str::to_string).collect();
                }
                if r.has_focus() {
                    ui.data_mut(|d| d.insert_temp(key, hold));
                } else {
                    ui.data_mut(|d| d.remove::<String>(key));
                }
            });
            ui.checkbox(&mut w.more_points, "more points than any other side");
            ui.checkbox(&mut w.sudden_death, "sudden death (checked every turn)");
            level_choice(ui, ("win-level", i), &mut w.level);
        });
    }
    if let Some(i) = remove {
        win.remove(i);
    }
    if ui.button("Add a victory condition").clicked() {
        win.push(crate::scenario::file::RawWin {
            side: first_side.to_string(),
            hold: Vec::new(),
            points: Some(1),
            more_points: false,
            sudden_death: false,
            lead: None,
            level: None,
        });
    }
}

/// Terrain on the map the ruleset does not have (the ruleset was changed): each may become one
/// of the ruleset's.
fn remap_terrain(ui: &mut egui::Ui, editor: &mut Editor) {
    let Some(ruleset) = editor.ruleset.clone() else { return };
    let strangers: Vec<String> = editor
        .raw
        .map
        .legend
        .values()
        .filter(|id| !ruleset.terrain_ids.contains_key(*id))
        .cloned()
        .collect();
    if strangers.is_empty() {
        return;
    }
    ui.colored_label(
        egui::Color32::from_rgb(230, 150, 90),
        format!("Terrain not in `{}`: make it", ruleset.raw.id),
    );
    for id in strangers {
        ui.horizontal(|ui| {
            ui.label(format!("{id} →"));
            egui::ComboBox::from_id_salt(("remap", &id))
                .selected_text("choose…")
                .show_ui(ui, |ui| {
                    for look in &ruleset.looks {
                        if ui.selectable_label(false, &look.name).clicked() {
                            let edit = tools::replace_terrain(&editor.raw, &id, &look.id);
                            editor.apply(edit);
                        }
                    }
                });
        });
    }
}

fn sides_of(editor: &Editor) -> Vec<String> {
    editor.raw.sides.iter().map(|s| s.id.clone()).collect()
}

const WEATHER: [crate::combat::Weather; 7] = [
    crate::combat::Weather::Clear,
    crate::combat::Weather::Overcast,
    crate::combat::Weather::Rain,
    crate::combat::Weather::Mud,
    crate::combat::Weather::Snow,
    crate::combat::Weather::Frost,
    crate::combat::Weather::HardFrost,
];

fn sides(ui: &mut egui::Ui, editor: &mut Editor) {
    let before = editor.raw.sides.clone();
    let mut sides = before.clone();
    let mut remove = None;
    for (i, s) in sides.iter_mut().enumerate() {
        ui.group(|ui| {
            egui::Grid::new(("side", i)).num_columns(2).show(ui, |ui| {
                text_row(ui, "id", &mut s.id);
                text_row(ui, "name", &mut s.name);
                ui.label("colour");
                let mut rgb = crate::scenario::ruleset::parse_color(&s.color).unwrap_or([128, 128, 128]);
                if ui.color_edit_button_srgb(&mut rgb).changed() {
                    s.color = format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]);
                }
                ui.end_row();
                ui.label("home edge");
                egui::ComboBox::from_id_salt(("home", i))
                    .selected_text(s.home_edge.map_or("none".into(), |e| format!("{e:?}")))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut s.home_edge, None, "none");
                        for e in [MapEdge::North, MapEdge::East, MapEdge::South, MapEdge::West] {
                            ui.selectable_value(&mut s.home_edge, Some(e), format!("{e:?}"));
                        }
                    });
                ui.end_row();
            });
            if ui.small_button("Remove this side").clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        sides.remove(i);
    }
    if ui.button("Add a side").clicked() {
        let n = sides.len() + 1;
        sides.push(RawSide {
            id: format!("side{n}"),
            name: format!("Side {n}"),
            color: "#808080".into(),
            home_edge: None,
        });
    }
    if sides != before {
        // A side whose id changed is renamed wherever it is named (units, objectives, victory).
        let renamed = (sides.len() == before.len())
            .then(|| before.iter().zip(&sides).find(|(a, b)| a.id != b.id))
            .flatten()
            .map(|(a, b)| (a.id.clone(), b.id.clone()));
        // Typing a new id passes through others ("u", "us" …): never through another side's id,
        // which would merge the two sides' units.
        let taken = |id: &str| before.iter().any(|s| s.id == id);
        let edit = match renamed {
            Some((old, new)) if !taken(&new) => {
                Edit::Batch(vec![tools::rename_side(&editor.raw, &old, &new), Edit::Sides(sides)])
            }
            _ => Edit::Sides(sides),
        };
        editor.apply_typed(edit, ui);
    }
}

/// A victory's level: none (an ungraded win), marginal, substantive or decisive. Levels are all
/// or none in a scenario: validation names the condition left without one.
fn level_choice(
    ui: &mut egui::Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    level: &mut Option<crate::scenario::file::VictoryLevel>,
) {
    use crate::scenario::file::VictoryLevel;
    egui::ComboBox::from_id_salt(id)
        .selected_text(level.map_or("no level", VictoryLevel::title))
        .show_ui(ui, |ui| {
            ui.selectable_value(level, None, "no level");
            for l in VictoryLevel::ALL {
                ui.selectable_value(level, Some(l), l.title());
            }
        })
        .response
        .on_hover_text("How large this win is (all conditions graded, or none): the highest level met decides, and the end screen names it");
}
