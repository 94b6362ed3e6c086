//! One of the view's still pictures (`super`): its camera, its image, and its life from a change
//! through standing still and baking to standing for the view.

use super::super::render_layers::render_target_image;
use super::super::state::BoardCamera;
use super::super::view_tiles::{TileBaker, TileView};
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{ImageRenderTarget, RenderTarget, ScalingMode};
use bevy::prelude::*;

/// Frames the view stands still before a picture is baked, and frames its camera renders: at
/// least two, since the camera is aimed after this frame's transforms were propagated (the first
/// frame renders with its old place and size), and a pipeline may still be compiling.
const STILL_FRAMES: u32 = 2;
const BAKE_FRAMES: u32 = 3;

/// Where the view stands: the camera's centre, the world area it shows and the view's size in
/// pixels. The pictures are good while this is unchanged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ViewKey {
    pub(super) centre: Vec2,
    pub(super) area: Vec2,
    pub(super) pixels: UVec2,
    /// The window's scale factor: the pictures' cameras lay text out at it, as the window's does.
    pub(super) scale_factor: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// What the picture shows is changing (or the camera moving): drawn live.
    Moving { still_for: u32 },
    /// The picture's camera is rendering it.
    Baking { frames: u32 },
    /// The picture stands for what it shows.
    Ready,
}

/// One of the view's pictures: its camera, its image and how far it is.
pub(super) struct Picture {
    pub(super) camera: Entity,
    image: Handle<Image>,
    pixels: UVec2,
    stage: Stage,
    /// The view its image shows, while it does (from its baking's end to the next's start).
    baked_for: Option<ViewKey>,
}

/// Whether two clear settings are the same (Bevy's type has no `==`); compared before writing, so
/// an unchanged camera is not marked changed.
pub(super) fn same_clear(a: &ClearColorConfig, b: &ClearColorConfig) -> bool {
    match (a, b) {
        (ClearColorConfig::Default, ClearColorConfig::Default) | (ClearColorConfig::None, ClearColorConfig::None) => {
            true
        }
        (ClearColorConfig::Custom(x), ClearColorConfig::Custom(y)) => x == y,
        _ => false,
    }
}

pub(super) type ViewCameraParts<'a> = (
    &'a mut Camera,
    &'a mut RenderTarget,
    &'a mut Transform,
    &'a mut Projection,
);
pub(super) type ViewCameras<'w, 's> =
    Query<'w, 's, ViewCameraParts<'static>, (Without<BoardCamera>, Without<TileBaker>)>;

impl Picture {
    /// A picture with its camera, idle, and an image of one pixel until its first baking.
    pub(super) fn spawn(
        commands: &mut Commands,
        images: &mut Assets<Image>,
        (order, layers): (isize, RenderLayers),
    ) -> Self {
        let pixels = UVec2::ONE;
        let image = images.add(render_target_image(pixels));
        let camera = commands
            .spawn((
                Camera2d,
                Camera {
                    order,
                    is_active: false,
                    ..default()
                },
                RenderTarget::Image(image.clone().into()),
                Projection::Orthographic(OrthographicProjection::default_2d()),
                layers,
                Msaa::Off,
            ))
            .id();
        Picture {
            camera,
            image,
            pixels,
            stage: Stage::Moving { still_for: 0 },
            baked_for: None,
        }
    }

    /// One frame of the picture's life: a change drops it; standing still bakes it, its camera
    /// aimed as the window's (`depth`: the window camera's z).
    pub(super) fn step(
        &mut self,
        changed: bool,
        key: ViewKey,
        depth: f32,
        images: &mut Assets<Image>,
        cameras: &mut ViewCameras,
        background: Color,
    ) {
        if changed {
            self.stage = Stage::Moving { still_for: 0 };
        }
        let stage = match self.stage {
            Stage::Moving { still_for } if still_for + 1 >= STILL_FRAMES => {
                if self.pixels != key.pixels {
                    self.image = images.add(render_target_image(key.pixels));
                    self.pixels = key.pixels;
                }
                self.baked_for = None;
                if let Ok((_, mut target, mut t, mut p)) = cameras.get_mut(self.camera) {
                    *target = RenderTarget::Image(ImageRenderTarget {
                        handle: self.image.clone(),
                        scale_factor: key.scale_factor,
                    });
                    *t = Transform::from_translation(key.centre.extend(depth));
                    *p = Projection::Orthographic(OrthographicProjection {
                        scaling_mode: ScalingMode::Fixed {
                            width: key.area.x,
                            height: key.area.y,
                        },
                        ..OrthographicProjection::default_2d()
                    });
                }
                Stage::Baking { frames: 0 }
            }
            Stage::Moving { still_for } => Stage::Moving {
                still_for: still_for + u32::from(!changed),
            },
            Stage::Baking { frames } if frames + 1 >= BAKE_FRAMES => {
                self.baked_for = Some(key);
                Stage::Ready
            }
            Stage::Baking { frames } => Stage::Baking { frames: frames + 1 },
            Stage::Ready => Stage::Ready,
        };
        if let Ok((mut camera, ..)) = cameras.get_mut(self.camera) {
            let baking = matches!(stage, Stage::Baking { .. });
            if camera.is_active != baking {
                camera.is_active = baking;
            }
            // The picture's background is the window's.
            let clear = ClearColorConfig::Custom(background);
            if !same_clear(&camera.clear_color, &clear) {
                camera.clear_color = clear;
            }
        }
        if self.stage != stage {
            debug!("view picture {:?}: {:?} -> {stage:?}", self.camera, self.stage);
        }
        self.stage = stage;
    }

    /// What it drew no longer stands for anything (the terrain changed).
    pub(super) fn forget_views(&mut self) {
        self.baked_for = None;
    }

    /// Its image, to tell its making from a change of the scene.
    pub(super) fn image(&self) -> AssetId<Image> {
        self.image.id()
    }

    pub(super) fn ready(&self) -> Option<AssetId<Image>> {
        (self.stage == Stage::Ready).then(|| self.image.id())
    }

    /// Its image and the view it shows, while it shows one (the terrain's, to the tiles).
    pub(super) fn last_view(&self) -> Option<(AssetId<Image>, TileView)> {
        let key = self.baked_for?;
        let view = TileView {
            centre: key.centre,
            area: key.area,
            pixels: key.pixels,
            scale_factor: key.scale_factor,
        };
        Some((self.image.id(), view))
    }

    /// Dropped for good (the pictures are off or cannot be used): its camera stops.
    pub(super) fn drop_picture(&mut self, cameras: &mut ViewCameras) {
        self.stage = Stage::Moving { still_for: 0 };
        self.forget_views();
        if let Ok((mut camera, ..)) = cameras.get_mut(self.camera)
            && camera.is_active
        {
            camera.is_active = false;
        }
    }
}
