//! egui's panels drawn by a cheaper shader: bevy_egui's own converts colours to and from sRGB with
//! pow() on every pixel, which a software rasterizer (no GPU: Mesa's llvmpipe) pays for in every
//! panel's every pixel; `shaders/egui_fast.wgsl` gives the same 8-bit colours with polynomials.
//! `HEXFRONT_EGUI_SHADER=stock` keeps bevy_egui's shader.

use bevy::prelude::*;
use bevy::shader::Shader;

pub(super) fn plugin(app: &mut App) {
    if std::env::var("HEXFRONT_EGUI_SHADER").is_ok_and(|v| v == "stock") {
        return;
    }
    // After bevy_egui's plugin has put its shader in place.
    app.add_systems(Startup, replace_egui_shader);
}

fn replace_egui_shader(mut shaders: ResMut<Assets<Shader>>) {
    let shader = Shader::from_wgsl(include_str!("shaders/egui_fast.wgsl"), "hexfront/egui_fast.wgsl");
    if let Err(e) = shaders.insert(bevy_egui::render::EGUI_SHADER_HANDLE.id(), shader) {
        warn!("egui's shader stays bevy_egui's own: {e}");
    }
}
