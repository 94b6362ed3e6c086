//! The still view's picture, so a board that is not moving costs a copy a frame at any zoom and
//! any size: once the camera has stood still a few frames, a second camera renders the board's
//! terrain (its chunk meshes, or the whole-board picture from afar) as the window sees it into an
//! image, and each frame starts from a copy of that image instead of clearing and drawing the
//! terrain, until the camera moves, the window is resized or the board is drawn anew. Counters,
//! marks, names and panels stay live on top. (A software renderer shades every pixel of a
//! textured quad; a copy is a plain memory copy.)

use super::camera::BoardCamera;
use super::detail::BoardPicture;
use crate::game::phase::GameState;
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::{RenderLayers, VisibilitySystems};
use bevy::camera::{CameraMainTextureUsages, CameraUpdateSystems, RenderTarget, ScalingMode};
use bevy::core_pipeline::{Core2d, Core2dSystems};
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::extract_component::{ExtractComponent, ExtractComponentPlugin};
use bevy::render::render_asset::RenderAssets;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat, TextureUsages};
use bevy::render::renderer::{RenderContext, ViewQuery};
use bevy::render::texture::GpuImage;
use bevy::render::view::ViewTarget;
use bevy::window::RequestRedraw;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the window's camera always sees (counters, marks, names, everything but the terrain).
const LIVE_LAYER: usize = 0;
/// The terrain as meshes (or the whole-board picture): seen by the window's camera while the
/// view's picture is not ready.
pub const TERRAIN_LAYER: usize = 3;
/// The terrain as the view camera sees it.
pub const VIEW_LAYER: usize = 2;
/// Frames the camera stands still before the view is baked, and frames the view camera
/// renders (the first may find a pipeline still compiling).
const STILL_FRAMES: u32 = 2;
const BAKE_FRAMES: u32 = 3;

/// Where the view stands: the camera's centre, world units per pixel, and the view's size in
/// pixels. The view's picture is good while this is unchanged.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ViewKey {
    centre: Vec2,
    scale: f32,
    area: Vec2,
    pixels: UVec2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The camera is moving (or the board changed): the terrain is drawn live.
    Moving { still_for: u32 },
    /// The view camera is rendering the picture.
    Baking { frames: u32 },
    /// The picture stands for the terrain.
    Ready,
}

/// The view's picture: its camera, its image and how far it is.
#[derive(Resource)]
pub struct ViewCache {
    camera: Entity,
    image: Handle<Image>,
    pixels: UVec2,
    key: Option<ViewKey>,
    stage: Stage,
}

/// Set by the render world when a picture could not be copied (its image missing, or another
/// format than the window's): the main world then draws the terrain itself from the next frame on.
#[derive(Resource, Clone, Default)]
struct CopyFailed(Arc<AtomicBool>);

/// On the window's camera: the picture its frames start from, while there is one.
#[derive(Component, Clone, Default, ExtractComponent)]
pub struct StartFromPicture(Option<AssetId<Image>>);

/// The window camera's layers: everything live, and the terrain's meshes unless the view's
/// picture stands for them.
pub fn window_layers(picture: bool) -> RenderLayers {
    if picture {
        RenderLayers::layer(LIVE_LAYER)
    } else {
        RenderLayers::from_layers(&[LIVE_LAYER, TERRAIN_LAYER])
    }
}

/// The window camera's parts for the view's picture: its layers, and a main texture a picture
/// can be copied into.
pub fn window_camera_parts() -> impl Bundle {
    let usages = CameraMainTextureUsages::default();
    (
        window_layers(false),
        CameraMainTextureUsages(usages.0 | TextureUsages::COPY_DST),
        StartFromPicture::default(),
    )
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(ExtractComponentPlugin::<StartFromPicture>::default())
        .add_systems(OnEnter(GameState::Playing), spawn_view_cache)
        .add_systems(OnEnter(GameState::NoGame), forget_view_cache)
        .add_systems(
            PostUpdate,
            // After every camera move (the presentation camera's glide is in PostUpdate too) and
            // before the frame's visible entities are listed from the camera's layers.
            follow_view
                .after(CameraUpdateSystems)
                .after(TransformSystems::Propagate)
                .before(VisibilitySystems::CheckVisibility)
                .run_if(super::board_shown.and_then(resource_exists::<ViewCache>)),
        );
    let failed = CopyFailed::default();
    app.insert_resource(failed.clone());
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .insert_resource(failed)
            .add_systems(Core2d, copy_picture.before(Core2dSystems::MainPass));
    }
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

fn spawn_view_cache(mut commands: Commands, mut images: ResMut<Assets<Image>>, cache: Option<Res<ViewCache>>) {
    if cache.is_some() {
        return;
    }
    let pixels = UVec2::ONE;
    let image = images.add(render_target_image(pixels));
    let camera = commands
        .spawn((
            Camera2d,
            Camera {
                order: -2,
                is_active: false,
                ..default()
            },
            RenderTarget::Image(image.clone().into()),
            Projection::Orthographic(OrthographicProjection::default_2d()),
            RenderLayers::layer(VIEW_LAYER),
            Msaa::Off,
        ))
        .id();
    commands.insert_resource(ViewCache {
        camera,
        image,
        pixels,
        key: None,
        stage: Stage::Moving { still_for: 0 },
    });
}

/// Leaving the board: the window's camera back to drawing everything itself (the cache is made
/// anew with the next board).
fn forget_view_cache(
    mut commands: Commands,
    cache: Option<Res<ViewCache>>,
    mut window_camera: Query<(&mut Camera, &mut RenderLayers, &mut StartFromPicture), With<BoardCamera>>,
) {
    if let Some(cache) = cache {
        commands.entity(cache.camera).despawn();
        commands.remove_resource::<ViewCache>();
    }
    for (mut camera, mut layers, mut start) in &mut window_camera {
        show_picture(None, &mut camera, &mut layers, &mut start);
    }
}

/// The window camera draws the terrain itself (`None`) or starts each frame from a picture.
fn show_picture(
    picture: Option<AssetId<Image>>,
    camera: &mut Camera,
    layers: &mut RenderLayers,
    start: &mut StartFromPicture,
) {
    let layers_wanted = window_layers(picture.is_some());
    if *layers != layers_wanted {
        *layers = layers_wanted;
    }
    // Not cleared over the copied picture.
    let clear = if picture.is_some() {
        ClearColorConfig::None
    } else {
        ClearColorConfig::Default
    };
    if !same_clear(&camera.clear_color, &clear) {
        camera.clear_color = clear;
    }
    if start.0 != picture {
        start.0 = picture;
    }
}

/// `HEXFRONT_VIEW_PICTURE=off` read once.
struct SwitchedOff(bool);

impl Default for SwitchedOff {
    fn default() -> Self {
        Self(std::env::var("HEXFRONT_VIEW_PICTURE").is_ok_and(|v| v == "off"))
    }
}

/// Whether two clear settings are the same (Bevy's type has no `==`); compared before writing, so
/// an unchanged camera is not marked changed.
fn same_clear(a: &ClearColorConfig, b: &ClearColorConfig) -> bool {
    match (a, b) {
        (ClearColorConfig::Default, ClearColorConfig::Default) | (ClearColorConfig::None, ClearColorConfig::None) => {
            true
        }
        (ClearColorConfig::Custom(x), ClearColorConfig::Custom(y)) => x == y,
        _ => false,
    }
}

/// Watches the window's camera: a move drops the picture; standing still bakes it; a baked
/// picture replaces the terrain's meshes.
fn follow_view(
    mut cache: ResMut<ViewCache>,
    mut images: ResMut<Assets<Image>>,
    clear: Res<ClearColor>,
    board_picture: Option<Res<BoardPicture>>,
    new_chunks: Query<(), Added<super::board::BoardChunk>>,
    mut window_camera: Query<
        (
            &mut Camera,
            &Transform,
            &Projection,
            &Msaa,
            &mut RenderLayers,
            &mut StartFromPicture,
        ),
        With<BoardCamera>,
    >,
    mut view_camera: Query<(&mut Camera, &mut RenderTarget, &mut Transform, &mut Projection), Without<BoardCamera>>,
    mut redraw: MessageWriter<RequestRedraw>,
    // `HEXFRONT_VIEW_PICTURE=off`: the terrain drawn every frame (to compare, or should a driver
    // get the copy wrong).
    switched_off: Local<SwitchedOff>,
    copy_failed: Res<CopyFailed>,
) {
    let Ok((mut camera, transform, projection, msaa, mut layers, mut start)) = window_camera.single_mut() else {
        return;
    };
    let Projection::Orthographic(ortho) = projection else {
        return;
    };
    let pixels = camera.physical_viewport_size().unwrap_or(UVec2::ZERO);
    let key = ViewKey {
        centre: transform.translation.truncate() + ortho.area.center(),
        scale: ortho.scale,
        area: ortho.area.size(),
        pixels,
    };
    // The whole-board picture must be done first: its baking compiles the pipelines the view
    // camera uses. A multisampled window draws into another texture than the one copied into.
    let usable = pixels.min_element() > 0
        && !switched_off.0
        && !copy_failed.0.load(Ordering::Relaxed)
        && camera.viewport.is_none()
        && *msaa == Msaa::Off
        && board_picture.is_some_and(|p| p.baked());
    let changed = cache.key != Some(key) || !new_chunks.is_empty() || clear.is_changed() || !usable;
    if changed {
        cache.key = Some(key);
        cache.stage = Stage::Moving { still_for: 0 };
    }
    let stage = match cache.stage {
        Stage::Moving { still_for } if usable && still_for + 1 >= STILL_FRAMES => {
            if cache.pixels != pixels {
                cache.image = images.add(render_target_image(pixels));
                cache.pixels = pixels;
            }
            if let Ok((_, mut target, mut t, mut p)) = view_camera.get_mut(cache.camera) {
                *target = RenderTarget::Image(cache.image.clone().into());
                *t = Transform::from_translation(key.centre.extend(transform.translation.z));
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
            still_for: still_for + u32::from(usable && !changed),
        },
        Stage::Baking { frames } if frames + 1 >= BAKE_FRAMES => Stage::Ready,
        Stage::Baking { frames } => Stage::Baking { frames: frames + 1 },
        Stage::Ready => Stage::Ready,
    };
    if let Ok((mut view, ..)) = view_camera.get_mut(cache.camera) {
        let baking = matches!(stage, Stage::Baking { .. });
        if view.is_active != baking {
            view.is_active = baking;
        }
        // The picture's background is the window's.
        let view_clear = ClearColorConfig::Custom(clear.0);
        if !same_clear(&view.clear_color, &view_clear) {
            view.clear_color = view_clear;
        }
    }
    if cache.stage != stage {
        debug!("view picture: {:?} -> {stage:?}", cache.stage);
    }
    cache.stage = stage;
    let picture = (stage == Stage::Ready).then(|| cache.image.id());
    show_picture(picture, &mut camera, &mut layers, &mut start);
    if stage != Stage::Ready && usable {
        redraw.write(RequestRedraw);
    }
}

/// Render world, before the window camera's main pass: its frame starts as a copy of the view's
/// picture.
fn copy_picture(
    view: ViewQuery<(&ViewTarget, &StartFromPicture)>,
    images: Res<RenderAssets<GpuImage>>,
    failed: Res<CopyFailed>,
    mut ctx: RenderContext,
) {
    let (target, start) = view.into_inner();
    let Some(id) = start.0 else { return };
    let to = target.main_texture();
    let Some(from) = images
        .get(id)
        .map(|p| &p.texture)
        .filter(|from| from.format() == to.format())
    else {
        if !failed.0.swap(true, Ordering::Relaxed) {
            warn!("the still view's picture could not be copied: the terrain is drawn every frame");
        }
        return;
    };
    let size = Extent3d {
        width: from.width().min(to.width()),
        height: from.height().min(to.height()),
        depth_or_array_layers: 1,
    };
    ctx.command_encoder()
        .copy_texture_to_texture(from.as_image_copy(), to.as_image_copy(), size);
}
