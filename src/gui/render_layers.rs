//! The board's render layers, all in one place, and the image a camera renders into: read by the
//! board as it spawns its meshes, by the detail pictures, the view cache and its change detection.

use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat, TextureUsages};

/// Counters, names, objective stars: what the scene's picture adds to the terrain's.
pub const LIVE_LAYER: usize = 0;
/// The terrain's meshes as the board picture's baking camera sees them (`detail.rs`).
pub const BAKE_LAYER: usize = 1;
/// The terrain (its chunk meshes, or the board picture from afar) as the view's cameras see it.
pub const VIEW_LAYER: usize = 2;
/// The terrain as the window's camera sees it while no picture stands for it.
pub const TERRAIN_LAYER: usize = 3;
/// Gizmos, remade every frame (selection rings, reach outlines, arrows, done marks): never in a
/// picture, always drawn by the window's camera. Gizmos only: a frame copied from the kept frame
/// (`frame_reuse/`) leaves this layer out after visibility was worked out, so an entity here
/// would be drawn over its own copy.
pub const GIZMO_LAYER: usize = 4;

/// The render layers of the board's meshes: the window's camera (while the still view's picture
/// is not shown, `view_cache.rs`), the baking camera and the view's camera.
pub fn board_layers() -> RenderLayers {
    RenderLayers::from_layers(&[TERRAIN_LAYER, BAKE_LAYER, VIEW_LAYER])
}

/// An image a camera renders into (the board picture, the view's picture), in the format of the
/// window camera's main texture so either can be copied into it.
pub fn render_target_image(pixels: UVec2) -> Image {
    let mut image = Image {
        data: None,
        asset_usage: RenderAssetUsages::RENDER_WORLD,
        ..default()
    };
    image.texture_descriptor.size = Extent3d {
        width: pixels.x.max(1),
        height: pixels.y.max(1),
        depth_or_array_layers: 1,
    };
    image.texture_descriptor.dimension = TextureDimension::D2;
    image.texture_descriptor.format = TextureFormat::Rgba8UnormSrgb;
    image.texture_descriptor.usage = TextureUsages::TEXTURE_BINDING
        | TextureUsages::COPY_SRC
        | TextureUsages::COPY_DST
        | TextureUsages::RENDER_ATTACHMENT;
    image
}
