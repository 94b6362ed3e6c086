//! A full-window root `Ui` on the background layer, under every window: the bars and the start
//! screen's tabs draw their panels in one.

use bevy_egui::egui;

pub fn root(ctx: &egui::Context, id: &str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        egui::Id::new(id),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    )
}
