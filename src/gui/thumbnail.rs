//! The map in miniature, for the start screen: the scenario drawn in the board's own art
//! (`art::picture`: terrain, rivers, roads, towns, objectives, the units at the start as
//! counters), hexes as hexes, made once per scenario and size and kept as a texture.

use crate::scenario::Scenario;
use bevy_egui::egui;

/// The map in miniature, as wide as the panel allows (at most 560 points) and at most 360 tall.
pub fn thumbnail(ui: &mut egui::Ui, s: &Scenario) {
    let ppp = ui.ctx().pixels_per_point();
    let width = (ui.available_width().clamp(120.0, 560.0) * ppp) as u32;
    let grid = s.board.grid;
    let key = egui::Id::new((
        "map-thumbnail",
        &s.raw.name,
        grid.width,
        grid.height,
        s.units.len(),
        s.objectives.len(),
        width,
    ));
    let texture = ui.ctx().data(|d| d.get_temp::<egui::TextureHandle>(key));
    let texture = texture.unwrap_or_else(|| {
        let picture = crate::art::picture::render(s, width);
        let size = [picture.width() as usize, picture.height() as usize];
        let image = egui::ColorImage::from_rgb(size, picture.as_raw());
        let t = ui
            .ctx()
            .load_texture("map-thumbnail", image, egui::TextureOptions::LINEAR);
        ui.ctx().data_mut(|d| d.insert_temp(key, t.clone()));
        t
    });
    let [w, h] = texture.size();
    let mut size = egui::vec2(w as f32, h as f32) / ppp;
    if size.y > 360.0 {
        size *= 360.0 / size.y;
    }
    ui.add(egui::Image::new(&texture).fit_to_exact_size(size))
        .on_hover_text("The map at the start, drawn as on the board");
}
