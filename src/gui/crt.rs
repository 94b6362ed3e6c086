//! The CRT panel: the ruleset's whole combat table, the live column lit before the roll and the
//! row and column read after it.

use super::state::Palette;
use crate::combat::TableCell;
use crate::combat::view::TableView;
use bevy_egui::egui;

/// Draws `view` in a window at the top centre.
pub fn crt_window(
    ctx: &egui::Context,
    view: &TableView,
    live: Option<&TableCell>,
    landed: &[(usize, usize)],
    palette: &Palette,
) {
    let column = live.map(|c| c.column_index);
    let base = live.map(|c| c.base_index);
    egui::Window::new(&view.title)
        .id(egui::Id::new("crt-panel"))
        .resizable(false)
        .collapsible(true)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 40.0])
        .show(ctx, |ui| {
            let lit = palette.highlight.gamma_multiply(0.45);
            let hit = palette.highlight;
            egui::Grid::new("crt-grid").spacing([6.0, 2.0]).show(ui, |ui| {
                ui.label(egui::RichText::new(&view.row_header).weak());
                for (i, c) in view.columns.iter().enumerate() {
                    let mut t = egui::RichText::new(c).strong().monospace();
                    if Some(i) == column {
                        t = t.background_color(hit).color(egui::Color32::WHITE);
                    } else if Some(i) == base {
                        t = t.underline();
                    }
                    ui.label(t).on_hover_text(if Some(i) == column {
                        "the column this attack is read in (after shifts)"
                    } else if Some(i) == base {
                        "the column by the odds, before shifts"
                    } else {
                        ""
                    });
                }
                ui.end_row();
                for (r, (label, cells)) in view.rows.iter().enumerate() {
                    let row_landed = landed.iter().any(|(lr, _)| *lr == r);
                    let mut l = egui::RichText::new(label).monospace();
                    if row_landed {
                        l = l.background_color(hit).color(egui::Color32::WHITE).strong();
                    }
                    ui.label(l);
                    for (c, text) in cells.iter().enumerate() {
                        let mut t = egui::RichText::new(text).monospace().small();
                        if landed.contains(&(r, c)) {
                            t = t
                                .background_color(egui::Color32::from_rgb(240, 200, 40))
                                .color(egui::Color32::BLACK)
                                .strong();
                        } else if Some(c) == column || row_landed {
                            t = t.background_color(lit);
                        }
                        ui.label(t);
                    }
                    ui.end_row();
                }
            });
            ui.label(egui::RichText::new(&view.note).small().weak());
            if let Some(c) = live.filter(|c| c.die_modifier != 0) {
                ui.label(egui::RichText::new(format!("Die roll modifier {:+}", c.die_modifier)).small());
            }
        });
}
