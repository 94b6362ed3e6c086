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

#[cfg(test)]
mod tests {
    const SHADER: &str = include_str!("shaders/egui_fast.wgsl");

    /// The shader's `const NAME: f32 = value;`.
    fn constant(name: &str) -> f64 {
        let line = SHADER
            .lines()
            .find(|l| l.starts_with(&format!("const {name}: f32 = ")))
            .unwrap_or_else(|| panic!("{name} is not in the shader"));
        let value = line.split('=').nth(1).unwrap().trim().trim_end_matches(';');
        value.parse().unwrap()
    }

    fn exact_linear(c: f64) -> f64 {
        if c < 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    }

    fn exact_srgb(l: f64) -> f64 {
        if l < 0.0031308 {
            l * 12.92
        } else {
            1.055 * l.powf(1.0 / 2.4) - 0.055
        }
    }

    fn shader_linear(c: f64) -> f64 {
        if c < 0.04045 {
            return c / 12.92;
        }
        let k: Vec<f64> = (0..=4).rev().map(|i| constant(&format!("LINEAR_{i}"))).collect();
        k.iter().fold(0.0, |acc, k| acc * c + k).max(0.0)
    }

    fn shader_srgb(l: f64) -> f64 {
        if l < 0.0031308 {
            return l * 12.92;
        }
        let r = l.sqrt().sqrt();
        let k: Vec<f64> = (0..=3).rev().map(|i| constant(&format!("SRGB_{i}"))).collect();
        k.iter().fold(0.0, |acc, k| acc * r + k)
    }

    #[test]
    fn the_shaders_srgb_curves_give_every_8_bit_colour_as_the_exact_ones_do() {
        for v in 0..=255u8 {
            let c = f64::from(v) / 255.0;
            // Encoded → linear → encoded (as the sRGB target stores it) gives the same byte,
            // within a tenth of a step of where the exact curve puts it.
            let back = exact_srgb(shader_linear(c)) * 255.0;
            assert!((back - f64::from(v)).abs() < 0.1, "{v}: {back}");
            assert_eq!(back.round() as u8, v);
            // Linear → encoded: the texture's colour as egui multiplies it.
            let l = exact_linear(c);
            let encoded = shader_srgb(l) * 255.0;
            assert!((encoded - f64::from(v)).abs() < 0.1, "{v}: {encoded}");
        }
        // And between the bytes: the whole range, finely.
        for i in 0..=10_000 {
            let l = f64::from(i) / 10_000.0;
            assert!((shader_srgb(l) - exact_srgb(l)).abs() * 255.0 < 0.1, "linear {l}");
            assert!((shader_linear(l) - exact_linear(l)).abs() < 0.001, "encoded {l}");
        }
    }
}
