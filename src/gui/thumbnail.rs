//! The map in miniature, for lists of scenarios and saves: terrain colours, objectives in gold,
//! units in their side's colour.

use crate::scenario::Scenario;
use bevy_egui::egui;

/// The map in miniature: terrain colours, objectives (gold) and units (side colours).
pub fn thumbnail(ui: &mut egui::Ui, s: &Scenario) {
    let grid = s.board.grid;
    let (w, h) = (grid.width as f32, grid.height as f32);
    let avail = ui.available_width().min(520.0);
    let cell = (avail / (w + 0.5)).min(340.0 / (h + 0.5));
    let (rect, _) = ui.allocate_exact_size(egui::vec2(cell * (w + 0.5), cell * (h + 0.5)), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let hex = grid.is_hex();
    let pos = |c: crate::rules::grid::Cell| {
        let shift = if hex && c.col % 2 == 1 { cell * 0.5 } else { 0.0 };
        rect.min + egui::vec2(c.col as f32 * cell, c.row as f32 * cell + shift)
    };
    for c in grid.cells() {
        if let Some(t) = s.board.terrain(c) {
            let [r, g, b] = s.ruleset.terrain_look(t).color;
            painter.rect_filled(
                egui::Rect::from_min_size(pos(c), egui::vec2(cell, cell)),
                0.0,
                egui::Color32::from_rgb(r, g, b),
            );
        }
    }
    for o in &s.objectives {
        painter.circle_stroke(
            pos(o.cell) + egui::vec2(cell / 2.0, cell / 2.0),
            cell * 0.7,
            egui::Stroke::new(2.0, egui::Color32::from_rgb(240, 190, 30)),
        );
    }
    // Units on the map at the start (reinforcements come later).
    for u in s.units.iter().filter(|u| u.arrives.is_none()) {
        let [r, g, b] = s.sides[u.side].color;
        painter.rect_filled(
            egui::Rect::from_center_size(
                pos(u.cell) + egui::vec2(cell / 2.0, cell / 2.0),
                egui::vec2(cell * 0.7, cell * 0.7),
            ),
            1.0,
            egui::Color32::from_rgb(r, g, b),
        );
    }
}
