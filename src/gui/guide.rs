//! The first-game guide: five short illustrated pages (the counter, moving, attacking and reading
//! the odds, phases and turns, saving and the score), opened from the start screen ("How to
//! play") and from the Controls window; the counter is drawn as the board draws it, with each part
//! named.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Whether the guide is open, and its page.
#[derive(Resource, Default)]
pub struct Guide {
    pub open: bool,
    page: usize,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Guide>()
        .add_systems(EguiPrimaryContextPass, guide_window);
}

const PAGES: [&str; 5] = [
    "1. The counter",
    "2. Moving",
    "3. Attacking: the odds and the CRT",
    "4. Phases, turns and winning",
    "5. Saving, undo and the computer",
];

/// A counter drawn as on the board — side colour, unit size, NATO symbol, values, step pips — with
/// arrows naming each part.
fn sample_counter(ui: &mut egui::Ui) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(600.0, 150.0), egui::Sense::hover());
    let p = ui.painter_at(rect);
    let c = rect.left_center() + egui::vec2(80.0, 0.0);
    let h = 50.0;
    let face = egui::Rect::from_center_size(c, egui::vec2(2.0 * h, 2.0 * h));
    p.rect_filled(face.expand(2.0), 3.0, egui::Color32::from_rgb(20, 20, 20));
    // As the board draws it: the side's colour as a frame around a lighter face.
    p.rect_filled(face, 2.0, egui::Color32::from_rgb(93, 111, 128));
    p.rect_filled(face.shrink(3.0), 1.0, egui::Color32::from_rgb(146, 160, 175));
    let ink = egui::Color32::from_rgb(12, 12, 12);
    let boxed = egui::Rect::from_center_size(c + egui::vec2(0.0, -4.0), egui::vec2(h, h * 0.6));
    p.rect_filled(boxed, 0.0, egui::Color32::from_rgb(190, 199, 208));
    p.rect_stroke(boxed, 0.0, egui::Stroke::new(2.0, ink), egui::StrokeKind::Inside);
    // Infantry: the crossed box.
    p.line_segment([boxed.left_top(), boxed.right_bottom()], egui::Stroke::new(2.0, ink));
    p.line_segment([boxed.left_bottom(), boxed.right_top()], egui::Stroke::new(2.0, ink));
    let font = |size| egui::FontId::monospace(size);
    p.text(
        c + egui::vec2(0.0, -h * 0.72),
        egui::Align2::CENTER_CENTER,
        "III",
        font(16.0),
        ink,
    );
    p.text(
        c + egui::vec2(0.0, h * 0.62),
        egui::Align2::CENTER_CENTER,
        "5-4",
        font(24.0),
        ink,
    );
    for i in 0..3 {
        let at = c + egui::vec2(h * 0.82, -h * 0.35 + i as f32 * 14.0);
        if i < 2 {
            p.circle_filled(at, 4.5, ink);
        } else {
            p.circle_stroke(at, 4.5, egui::Stroke::new(1.5, ink));
        }
    }
    let marker = egui::Rect::from_center_size(c + egui::vec2(-h - 4.0, -h * 0.55), egui::vec2(40.0, 18.0));
    p.rect_filled(marker, 1.0, egui::Color32::from_rgb(230, 159, 0));
    p.text(marker.center(), egui::Align2::CENTER_CENTER, "DIS", font(13.0), ink);
    let text_color = ui.visuals().text_color();
    let note = |from: egui::Pos2, y: f32, text: &str| {
        let to = egui::pos2(rect.left() + 190.0, rect.center().y + y);
        p.line_segment([from, to], egui::Stroke::new(1.0, text_color.gamma_multiply(0.6)));
        p.text(
            to + egui::vec2(6.0, 0.0),
            egui::Align2::LEFT_CENTER,
            text,
            egui::FontId::proportional(14.0),
            text_color,
        );
    };
    note(
        c + egui::vec2(14.0, -h * 0.72),
        -58.0,
        "size: III regiment, XX division, II battalion",
    );
    note(
        boxed.right_center(),
        -30.0,
        "kind: ⊠ infantry, an oval armour, a dot artillery …",
    );
    note(
        c + egui::vec2(h * 0.9, -h * 0.2),
        -2.0,
        "steps left ●● and lost ○: losses flip it",
    );
    note(
        c + egui::vec2(28.0, h * 0.62),
        26.0,
        "attack-movement (or attack-defence-movement)",
    );
    note(marker.left_bottom(), 54.0, "a status marker (F1 lists them)");
}

fn page(ui: &mut egui::Ui, n: usize) {
    match n {
        0 => {
            ui.label("Each unit is a counter in its side's colour. The top counter of a stack shows; a number badge counts the stack, and hovering the cell lists every unit in it.");
            sample_counter(ui);
            ui.label("From afar counters become pips in their side's colour; zoom in (mouse wheel) to read them.");
            ui.label("On the map: a gold star is an objective; dark blocks along a hex's top are a town (one) or a city (three, five for a major city); a red toothed ring inside a hex is a fortification; a runway cross is an airbase, an anchor a port. Hover a hex to read its terrain and features.");
        }
        1 => {
            ui.label("• Click one of your stacks to select it. Yellow outlines mark every cell it can reach this phase; orange outlines with a cross mark cells where it must stop (an enemy zone of control, Z shows them).");
            ui.label("• Click a highlighted cell to move there. The cost in movement points shows when you hover it.");
            ui.label("• With a stack of two or more selected, the Stack panel lists its units: untick some to leave them behind (split the stack); Shift+click a friendly stack to move onto it and merge (a plain click selects it).");
            ui.label("• Ctrl+Z takes a move back, as long as no die has been rolled since.");
        }
        2 => {
            ui.label("• In a combat phase, a ring marks each of your stacks that may still attack. Select one, then hover an enemy next to it: the odds appear. Click the enemy to prepare the attack; Shift+click more of your stacks to join in.");
            ui.label("• The attack panel shows the odds (attack : defence), every modifier with where it comes from, and the exact chance of each outcome, the chance to take the cell and the steps each side can expect to lose.");
            ui.label("• The CRT window lights the column the attack is read in and, after the roll, the row of the die. Space (or Roll) rolls.");
            ui.label("• Results may call for retreats and advances: a panel asks the owning player to choose the path or who advances; arrows show what happened.");
            ui.label("• Where the rules let a side choose which of its units take losses, the attack panel's \"losses first from\" lists pick the unit; left on automatic, the step that costs the least strength goes.");
        }
        3 => {
            ui.label("• A game turn is a player turn for each side; each player turn runs through the ruleset's phases (movement, combat …), shown in the top bar.");
            ui.label("• Enter (or End phase) ends the phase; ending a side's last phase asks first.");
            ui.label("• The ★ score in the top bar counts objective points; V opens the victory panel: who holds what, each side's condition and whether it holds now, and the turns left.");
            ui.label(
                "• Playing two at one screen, the board hides between the players' turns until the next one clicks.",
            );
        }
        _ => {
            ui.label("• Every phase end autosaves; Ctrl+S saves, Ctrl+O opens a save or a turn file, F2 goes back to the start screen (asking first).");
            ui.label("• Ctrl+Z / Ctrl+Y undo and redo; Game → Watch from the start replays the game order by order.");
            ui.label("• On the start screen, set a side to Computer to play against it; Game → Balance lab plays the scenario computer against computer.");
            ui.label("• F1 lists every key; F10 has the settings (UI scale, colour-blind palette).");
        }
    }
}

fn guide_window(mut contexts: EguiContexts, mut guide: ResMut<Guide>) -> Result {
    if !guide.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("How to play")
        .id(egui::Id::new("guide"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_width(620.0)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.set_width(620.0);
            ui.horizontal_wrapped(|ui| {
                for (i, title) in PAGES.iter().enumerate() {
                    ui.selectable_value(&mut guide.page, i, *title);
                }
            });
            ui.separator();
            ui.heading(PAGES[guide.page]);
            page(ui, guide.page);
            ui.separator();
            ui.horizontal(|ui| {
                if ui.add_enabled(guide.page > 0, egui::Button::new("◀ Back")).clicked() {
                    guide.page -= 1;
                }
                if ui
                    .add_enabled(guide.page + 1 < PAGES.len(), egui::Button::new("Next ▶"))
                    .clicked()
                {
                    guide.page += 1;
                }
            });
        });
    guide.open = open;
    Ok(())
}
