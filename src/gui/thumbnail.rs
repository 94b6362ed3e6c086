//! The map in miniature, for the start screen: the scenario drawn in the board's own art
//! (`art::picture`: terrain, rivers, roads, towns, objectives, the units at the start as
//! counters), hexes as hexes, made once per scenario and size and kept as a texture.

use crate::scenario::Scenario;
use bevy_egui::egui;

/// The map in miniature, as wide as the panel allows (at most `max.x` points) and at most
/// `max.y` tall; kept under the scenario's `key` (`picture_key`).
pub fn thumbnail(ui: &mut egui::Ui, (s, key): (&Scenario, u64), max: egui::Vec2) -> egui::Response {
    let ppp = ui.ctx().pixels_per_point();
    // As wide as the panel allows, but no taller than asked; in steps of 40 pixels (8 for small
    // ones), so a window being resized draws a few pictures, not one a frame.
    let aspect = crate::art::picture::aspect(s).max(0.05);
    let points = ui.available_width().min(max.x).max(24.0).min(max.y / aspect);
    let step = if points * ppp > 200.0 { 40.0 } else { 8.0 };
    let width = (((points * ppp) / step).floor() * step).max(step) as u32;
    // One texture per map and place (the list's, the preview's): a new size replaces the old.
    let key = egui::Id::new(("map-thumbnail", key, max.x as u32));
    let kept = ui.ctx().data(|d| d.get_temp::<(u32, egui::TextureHandle)>(key));
    let texture = match kept {
        Some((w, t)) if w == width => t,
        _ => {
            let picture = crate::art::picture::render(s, width);
            let t = texture(ui, "map-thumbnail", &picture);
            ui.ctx().data_mut(|d| d.insert_temp(key, (width, t.clone())));
            t
        }
    };
    let [w, h] = texture.size();
    ui.add(egui::Image::new(&texture).fit_to_exact_size(egui::vec2(w as f32, h as f32) / ppp))
}

/// A picture made on the CPU as a texture.
fn texture(ui: &egui::Ui, name: &str, picture: &image::RgbImage) -> egui::TextureHandle {
    let size = [picture.width() as usize, picture.height() as usize];
    let image = egui::ColorImage::from_rgb(size, picture.as_raw());
    ui.ctx().load_texture(name, image, egui::TextureOptions::LINEAR)
}

/// The scenario's unit `id` as its counter, `points` square (drawn with the board's art, kept as
/// a texture under the scenario's `key`); nothing when there is no such unit.
pub fn counter(ui: &mut egui::Ui, (s, key): (&Scenario, u64), id: &str, points: f32) -> Option<egui::Response> {
    let ppp = ui.ctx().pixels_per_point();
    let px = (points * ppp).round() as u32;
    let bg = ui.visuals().panel_fill;
    let key = egui::Id::new(("counter-picture", key, id, px, bg.to_array()));
    let kept = ui.ctx().data(|d| d.get_temp::<egui::TextureHandle>(key));
    let texture = match kept {
        Some(t) => t,
        None => {
            let picture = crate::art::token::counter_image(s, id, px, [bg.r(), bg.g(), bg.b()])?;
            let t = texture(ui, "counter-picture", &picture);
            ui.ctx().data_mut(|d| d.insert_temp(key, t.clone()));
            t
        }
    };
    Some(ui.add(egui::Image::new(&texture).fit_to_exact_size(egui::vec2(points, points))))
}

/// What the pictures show, as one number: the map's terrain and every unit's place and steps (a
/// save of a scenario shows its own position, under the same name). Worked out once per read
/// scenario; the pictures are kept under it.
pub fn picture_key(s: &Scenario) -> u64 {
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
