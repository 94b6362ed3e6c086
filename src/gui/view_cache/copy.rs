//! The render world's side of the view's pictures: each frame of the window's camera starts as a
//! copy of the picture it was given, or of the pieces of pictures it is put together from.

use super::{CopyFailed, StartFromPicture};
use crate::gui::view_tiles::PieceCopy;
use bevy::prelude::*;
use bevy::render::render_asset::RenderAssets;
use bevy::render::render_resource::{Extent3d, Origin3d, Texture};
use bevy::render::renderer::{RenderContext, ViewQuery};
use bevy::render::texture::GpuImage;
use bevy::render::view::ViewTarget;
use std::sync::atomic::Ordering;

/// Render world, before the window camera's main pass: its frame starts as a copy of the view's
/// picture, or of the pieces it is put together from.
pub(super) fn copy_picture(
    view: ViewQuery<(&ViewTarget, &StartFromPicture)>,
    images: Res<RenderAssets<GpuImage>>,
    failed: Res<CopyFailed>,
    mut ctx: RenderContext,
) {
    let (target, start) = view.into_inner();
    let to = target.main_texture();
    // Another format than the window's cannot be copied: the main world then draws the board
    // itself from the next frame on.
    let give_up = || {
        if !failed.0.swap(true, Ordering::Relaxed) {
            warn!("the still view's picture could not be copied: the terrain is drawn every frame");
        }
    };
    let texture = |id: AssetId<Image>| images.get(id).map(|p| &p.texture);
    if let Some(id) = start.0 {
        // The whole picture, from its corner to the frame's.
        let whole = PieceCopy {
            image: id,
            from: UVec2::ZERO,
            to: UVec2::ZERO,
            size: UVec2::MAX,
        };
        match texture(id).filter(|from| from.format() == to.format()) {
            Some(from) => copy_piece(&mut ctx, from, to, &whole),
            None => give_up(),
        }
        return;
    }
    for piece in &start.1 {
        // A tile not yet on the renderer's side leaves its part of the frame as it was.
        let Some(from) = texture(piece.image) else { continue };
        if from.format() != to.format() {
            give_up();
            return;
        }
        copy_piece(&mut ctx, from, to, piece);
    }
}

/// One piece of a picture into the frame, clipped to both.
fn copy_piece(ctx: &mut RenderContext, from: &Texture, to: &Texture, piece: &PieceCopy) {
    let width = piece
        .size
        .x
        .min(from.width().saturating_sub(piece.from.x))
        .min(to.width().saturating_sub(piece.to.x));
    let height = piece
        .size
        .y
        .min(from.height().saturating_sub(piece.from.y))
        .min(to.height().saturating_sub(piece.to.y));
    if width == 0 || height == 0 {
        return;
    }
    let mut source = from.as_image_copy();
    source.origin = Origin3d {
        x: piece.from.x,
        y: piece.from.y,
        z: 0,
    };
    let mut destination = to.as_image_copy();
    destination.origin = Origin3d {
        x: piece.to.x,
        y: piece.to.y,
        z: 0,
    };
    let size = Extent3d {
        width,
        height,
        depth_or_array_layers: 1,
    };
    ctx.command_encoder().copy_texture_to_texture(source, destination, size);
}
