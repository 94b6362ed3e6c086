//! The start screen's panels: the list of scenarios and saved games, and the chosen one's
//! details — description, sides and who plays them, thumbnail, seed, and Start, Continue, Watch
//! or Edit.

use super::{Entry, StartMenu};
use crate::game::save::LoadedGame;
use crate::gui::state::Palette;
use crate::scenario::Scenario;
use crate::storage;
use bevy::prelude::*;
use bevy_egui::egui;

/// A saved game in the list, in words: its scenario, where it stands (turn, side, phase) and when
/// it was written; an autosave says so.
fn saved_line(e: &Entry, g: &LoadedGame) -> String {
    let auto = e.file.as_deref().is_some_and(storage::is_autosave);
    let when = e
        .modified
        .map(|m| storage::when_in_words(m, std::time::SystemTime::now()))
        .unwrap_or_default();
    let name = if auto {
        format!("{} (autosave)", g.scenario.raw.name)
    } else {
        e.label.clone()
    };
    format!("{name} · {} · {when}", g.summary)
}

/// One entry of the list as a card: its map in miniature, its name, its ruleset, size and
/// length (a saved game: where it stands and when it was written) and its setting; the whole
/// card is clicked.
fn entry_card(ui: &mut egui::Ui, (i, e): (usize, &Entry), selected: bool, palette: &Palette) -> egui::Response {
    let visuals = ui.visuals().clone();
    let fill = if selected {
        visuals.selection.bg_fill
    } else {
        visuals.faint_bg_color
    };
    let card = egui::Frame::new()
        .fill(fill)
        .inner_margin(6.0)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            if selected {
                // The words in the selection's own text colour, on its fill, in either theme.
                ui.visuals_mut().override_text_color = Some(visuals.selection.stroke.color);
            }
            ui.horizontal(|ui| {
                let thumb = egui::vec2(84.0, 60.0);
                let used = match e.shown() {
                    Some(shown) if !e.loading => {
                        let key = e.picture_key;
                        let r = ui.allocate_ui(thumb, |ui| crate::gui::thumbnail::thumbnail(ui, (shown, key), thumb));
                        r.response.rect.width()
                    }
                    _ => 0.0,
                };
                // Every card's words start at the same place, whatever its map's shape.
                ui.add_space((thumb.x - used).max(0.0));
                ui.vertical(|ui| card_words(ui, e, palette));
            });
        });
    let r = ui.interact(card.response.rect, ui.id().with(("entry", i)), egui::Sense::click());
    if r.hovered() && !selected {
        ui.painter().rect_stroke(
            card.response.rect,
            4.0,
            visuals.widgets.hovered.bg_stroke,
            egui::StrokeKind::Inside,
        );
    }
    r
}

/// A card's words: the name (or where a saved game stands), the ruleset and size, the setting.
fn card_words(ui: &mut egui::Ui, e: &Entry, palette: &Palette) {
    match &e.loaded {
        _ if e.loading => {
            ui.horizontal(|ui| {
                ui.strong(&e.label);
                ui.spinner();
            });
            ui.weak("reading…");
        }
        Ok(g) => {
            let s = &g.scenario;
            if e.saved {
                ui.strong(saved_line(e, g));
            } else {
                ui.strong(&e.label);
            }
            let cells = if s.board.grid.is_hex() { "hexes" } else { "squares" };
            let (w, h) = (s.board.grid.width, s.board.grid.height);
            ui.weak(format!(
                "{} · {w}×{h} {cells} · {} turns",
                s.ruleset.raw.name, s.raw.turns
            ));
            ui.label(egui::RichText::new(&s.raw.setting).italics().weak());
        }
        Err(_) => {
            ui.strong(&e.label);
            ui.colored_label(palette.bad, "cannot be loaded");
        }
    }
}

pub(super) fn scenario_list(ui: &mut egui::Ui, menu: &mut StartMenu, palette: &Palette) {
    ui.strong("Scenarios");
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .max_height(ui.available_height() - 90.0)
        .show(ui, |ui| {
            let mut shown_saves = false;
            for (i, e) in menu.entries.iter().enumerate() {
                if e.saved && !shown_saves {
                    ui.add_space(8.0);
                    ui.strong("Saved games");
                    shown_saves = true;
                }
                let r = entry_card(ui, (i, e), menu.selected == i, palette);
                let r = match &e.file {
                    Some(f) => r.on_hover_text(f.display().to_string()),
                    None => r.on_hover_text("shipped with Hexfront"),
                };
                if r.clicked() {
                    clicked = Some(i);
                }
            }
        });
    if let Some(i) = clicked {
        if i != menu.selected {
            menu.select(i);
        }
        menu.error = None;
    }
    ui.separator();
    ui.label("Open another scenario or save file:");
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut menu.path)
                .hint_text("path/to/file.ron")
                .desired_width(260.0),
        );
        // Enter in the field opens what was typed (it never starts the highlighted scenario).
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Open").on_hover_text("Open the file typed (Enter)").clicked() || entered {
            menu.open_typed();
        }
    });
}

pub(super) fn details(ui: &mut egui::Ui, menu: &mut StartMenu, commands: &mut Commands, palette: &Palette) {
    let selected = menu.selected;
    let Some(game) = playable(ui, menu, palette) else {
        return;
    };
    let Some(entry) = menu.entries.get_mut(selected) else {
        return;
    };
    let under_way = entry.under_way();
    // A game under way is shown where it stands now.
    let s = entry.position.clone().unwrap_or_else(|| game.scenario.clone());
    let key = entry.picture_key;
    ui.label(egui::RichText::new(&s.raw.name).size(26.0).strong());
    ui.label(egui::RichText::new(&s.raw.setting).italics().size(15.0));
    ui.label(format!(
        "Ruleset: {}   ·   {}×{} {}   ·   {} turns   ·   {} units{}",
        s.ruleset.raw.name,
        s.board.grid.width,
        s.board.grid.height,
        if s.board.grid.is_hex() { "hexes" } else { "squares" },
        s.raw.turns,
        s.units.len(),
        match s.units.iter().filter(|u| u.arrives.is_some()).count() {
            0 => String::new(),
            n => format!(" ({n} arrive as reinforcements)"),
        }
    ));
    if under_way {
        let kind = if game.turn_file.is_some() {
            "Turn file"
        } else {
            "Saved game"
        };
        ui.colored_label(
            palette.highlight,
            format!(
                "{kind}: {} · {} orders · seed {}",
                game.summary,
                game.log.len(),
                game.seed
            ),
        );
    }
    // As large as the panel leaves room for under it: the sides, the description, Start.
    let preview = egui::vec2(960.0, (ui.available_height() - 330.0).clamp(200.0, 680.0));
    crate::gui::thumbnail::thumbnail(ui, (&s, key), preview)
        .on_hover_text("The map at the start, drawn as on the board");
    sides_and_seats(ui, &mut menu.seats, (&s, key));
    egui::ScrollArea::vertical()
        .id_salt("description")
        .max_height((ui.available_height() - 90.0).clamp(60.0, 200.0))
        .show(ui, |ui| {
            ui.label(&s.raw.description);
            ui.label(egui::RichText::new(format!("Victory: {}", s.raw.victory)).strong());
        });
    let file = entry.file.clone();
    ui.separator();
    start_row(ui, menu, commands, palette, &game, under_way);
    let edit = ui
        .horizontal(|ui| {
            let clicked = ui
                .button("Edit…")
                .on_hover_text("Open it in the editor (a saved game: its scenario, to save as a new file)")
                .clicked();
            ui.label(egui::RichText::new("change its map, units and rules in the editor").weak());
            clicked
        })
        .inner;
    if edit {
        match crate::gui::editor::Editor::for_listed(file, &game.scenario.raw) {
            Ok(e) => commands.insert_resource(e),
            Err(e) => menu.error = Some(e),
        }
    }
}

/// Continue or Watch a game under way; the seed and Start for a new one.
fn start_row(
    ui: &mut egui::Ui,
    menu: &mut StartMenu,
    commands: &mut Commands,
    palette: &Palette,
    game: &LoadedGame,
    under_way: bool,
) {
    let mut start = None;
    ui.horizontal(|ui| {
        if under_way {
            let label = egui::RichText::new("Continue (Enter)").strong();
            if ui
                .button(label)
                .on_hover_text("Play on from where the game stands")
                .clicked()
            {
                start = Some(None);
            }
            if !game.log.is_empty()
                && ui
                    .button("Watch")
                    .on_hover_text("Replay the game order by order from its start; Branch here plays on from any point")
                    .clicked()
            {
                start = Some(Some(0));
            }
            return;
        }
        ui.label("Seed:");
        ui.add(egui::TextEdit::singleline(&mut menu.seed).desired_width(90.0))
            .on_hover_text("Every die roll follows the seed: the same seed and orders replay the same game");
        if ui.button("Random").on_hover_text("A random seed").clicked() {
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(7);
            menu.seed = (t % 1_000_000).to_string();
        }
        let seed_ok = menu.seed().is_some();
        if !seed_ok {
            ui.colored_label(palette.bad, "the seed is a whole number");
        }
        if ui
            .add_enabled(
                seed_ok,
                egui::Button::new(egui::RichText::new("Start (Enter)").strong()),
            )
            .clicked()
        {
            start = Some(None);
        }
    });
    if let Some(e) = &menu.error {
        ui.colored_label(palette.bad, e);
    }
    if let Some(watch) = start
        && let Some(game) = menu.start_game(watch)
    {
        commands.insert_resource(game);
        commands.insert_resource(crate::gui::state::Seats(menu.seats.clone()));
    }
}

/// The selected game when it can be played; else what is wrong with its file (still being
/// read, or refused, with its backup offered when Hexfront kept one).
fn playable(ui: &mut egui::Ui, menu: &mut StartMenu, palette: &Palette) -> Option<LoadedGame> {
    let selected = menu.selected;
    let entry = menu.entries.get(selected)?;
    if entry.loading {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!(
                "Reading {}…",
                entry.file.as_ref().map_or(String::new(), |f| f.display().to_string())
            ));
        });
        return None;
    }
    if let Some(note) = &entry.note {
        ui.colored_label(palette.highlight, note);
    }
    match &entry.loaded {
        Ok(g) => Some(g.clone()),
        Err(e) => {
            ui.colored_label(palette.bad, format!("This file cannot be played:\n{e}"));
            let backup = entry.file.as_deref().map(storage::backup_of).filter(|b| b.is_file());
            let saved = entry.saved;
            if let Some(backup) = backup {
                ui.horizontal(|ui| {
                    ui.label("Hexfront kept the version before its last save:");
                    if ui
                        .button("Open the backup")
                        .on_hover_text(backup.display().to_string())
                        .clicked()
                    {
                        menu.selected = menu.add_file(backup, saved);
                    }
                });
            }
            None
        }
    }
}

/// The units a side's row shows as counters: the first of each class it fields at the start,
/// at most `n`.
fn sample_units(s: &Scenario, side: usize, n: usize) -> Vec<&str> {
    let mut classes = Vec::new();
    let mut ids = Vec::new();
    for u in s.units.iter().filter(|u| u.side == side && u.arrives.is_none()) {
        if !classes.contains(&u.class) && ids.len() < n {
            classes.push(u.class);
            ids.push(u.id.as_str());
        }
    }
    ids
}

/// Each side with a few of its counters, its units, and who plays it.
fn sides_and_seats(ui: &mut egui::Ui, seats: &mut Vec<Option<crate::ai::Profile>>, (s, key): (&Scenario, u64)) {
    seats.resize(s.sides.len(), None);
    for (i, side) in s.sides.iter().enumerate() {
        ui.horizontal(|ui| {
            let values = if s.ruleset.combat.counter_prints_defense() {
                "attack-defense-movement"
            } else {
                "strength-movement (attack-defense-movement where they differ)"
            };
            for id in sample_units(s, i, 5) {
                if let Some(r) = crate::gui::thumbnail::counter(ui, (s, key), id, 46.0)
                    && let Some(u) = s.units.iter().find(|u| u.id == id)
                {
                    let formation = u.element.as_deref().map(|e| format!(", {e}")).unwrap_or_default();
                    r.on_hover_text(format!(
                        "{}{formation}\n{:?} {:?}: the band names it and its formation; the values are {values}",
                        u.name, u.class, u.size
                    ));
                }
            }
            ui.vertical(|ui| {
                let [r, g, b] = side.color;
                let units = s.units.iter().filter(|u| u.side == i).count();
                let first = if i == s.first_side { " · moves first" } else { "" };
                ui.horizontal(|ui| {
                    ui.colored_label(egui::Color32::from_rgb(r, g, b), "■");
                    ui.strong(&side.name);
                    ui.weak(format!("{units} units{first}"));
                });
                seat_choice(ui, &mut seats[i], i);
            });
        });
    }
}

/// Human or computer (and how strong) for one side.
fn seat_choice(ui: &mut egui::Ui, seat: &mut Option<crate::ai::Profile>, side: usize) {
    let label = seat
        .as_ref()
        .map_or("Human".to_string(), |p| format!("Computer: {}", p.name));
    egui::ComboBox::from_id_salt(("seat", side))
        .selected_text(label)
        .show_ui(ui, |ui| {
            if ui.selectable_label(seat.is_none(), "Human").clicked() {
                *seat = None;
            }
            for level in crate::ai::LEVELS {
                let chosen = seat.as_ref().is_some_and(|p| p.name == level);
                let hint = match level {
                    "novice" => "Heads for the objectives and attacks what is in front of it; misjudges often",
                    "standard" => {
                        "Weighs the exact odds of every attack and option, the enemy's threat and its support"
                    }
                    _ => "The standard player, plus it tries each turn's posture by playing the game out in its head",
                };
                if ui
                    .selectable_label(chosen, format!("Computer: {level}"))
                    .on_hover_text(hint)
                    .clicked()
                {
                    *seat = crate::ai::Profile::parse(level).ok();
                }
            }
        })
        .response
        .on_hover_text("Who plays this side: a human at this screen (hotseat) or the computer");
}
