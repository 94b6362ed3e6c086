//! The map in miniature, for the start screen: the scenario drawn in the board's own art
//! (`art::picture`: terrain, rivers, roads, towns, objectives, the units at the start as
//! counters), hexes as hexes, made once per scenario and size and kept as a texture.

use crate::scenario::Scenario;
use bevy_egui::egui;

/// The map in miniature, as wide as the panel allows (at most 560 points) and at most 360 tall.
pub fn thumbnail(ui: &mut egui::Ui, s: &Scenario) {
    let ppp = ui.ctx().pixels_per_point();
    // As wide as the panel allows, but no taller than 360 points; in steps of 40 pixels, so a
    // window being resized draws a few pictures, not one a frame.
    let aspect = crate::art::picture::aspect(s).max(0.05);
    let points = ui.available_width().clamp(120.0, 560.0).min(360.0 / aspect);
    let width = (((points * ppp) / 40.0).floor() * 40.0).max(40.0) as u32;
    let key = egui::Id::new(("map-thumbnail", fingerprint(s)));
    let kept = ui.ctx().data(|d| d.get_temp::<(u32, egui::TextureHandle)>(key));
    let texture = match kept {
        Some((w, t)) if w == width => t,
        _ => {
            let picture = crate::art::picture::render(s, width);
            let size = [picture.width() as usize, picture.height() as usize];
            let image = egui::ColorImage::from_rgb(size, picture.as_raw());
            let t = ui
                .ctx()
                .load_texture("map-thumbnail", image, egui::TextureOptions::LINEAR);
            // One texture per map: a new size replaces the old one.
            ui.ctx().data_mut(|d| d.insert_temp(key, (width, t.clone())));
            t
        }
    };
    let [w, h] = texture.size();
    ui.add(egui::Image::new(&texture).fit_to_exact_size(egui::vec2(w as f32, h as f32) / ppp))
        .on_hover_text("The map at the start, drawn as on the board");
}

/// What the picture shows, as one number: the map's terrain and every unit's place and steps (a
/// save of a scenario shows its own position, under the same name).
fn fingerprint(s: &Scenario) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.raw.name.hash(&mut h);
    (s.board.grid.width, s.board.grid.height).hash(&mut h);
    for cell in s.board.grid.cells() {
        s.board.terrain(cell).map(|t| t.0).hash(&mut h);
    }
    for u in &s.units {
        (&u.id, u.cell.col, u.cell.row, u.steps.remaining(), u.arrives).hash(&mut h);
    }
    for o in &s.objectives {
        (o.cell.col, o.cell.row).hash(&mut h);
    }
    h.finish()
}
