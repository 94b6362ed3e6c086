//! The still view's pictures, so a board that is not changing costs a copy a frame at any zoom,
//! any size and any number of units: once the camera has stood still a few frames, a second
//! camera renders the board as the window sees it into an image, and each frame starts from a copy
//! of that image instead of clearing and drawing it. Two pictures: the terrain alone (good until
//! the camera moves), and the whole scene, terrain with counters and names (good until anything
//! drawn changes too). While the camera pans, the terrain is copied together from tiles and the
//! terrain's last picture (`view_tiles/`); a picture's life is in `picture.rs`. Gizmos (rings, outlines, arrows, marks) are drawn
//! every frame on top, and egui's panels over them. (A software renderer shades every pixel of every textured quad; a
//! copy is a plain memory copy.)

mod copy;
mod picture;

use super::detail::BoardPicture;
use super::render_layers::{GIZMO_LAYER, LIVE_LAYER, TERRAIN_LAYER, VIEW_LAYER};
use super::scene_changes::SceneChanges;
use super::state::BoardCamera;
use super::view_tiles::{BakerParts, PieceCopy, TileBaker, TileView, ViewTiles};
use crate::game::phase::GameState;
use bevy::asset::AssetEventSystems;
use bevy::camera::visibility::{RenderLayers, VisibilitySystems};
use bevy::camera::{CameraMainTextureUsages, CameraUpdateSystems};
use bevy::core_pipeline::{Core2d, Core2dSystems};
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::extract_component::{ExtractComponent, ExtractComponentPlugin};
use bevy::render::render_resource::TextureUsages;
use bevy::window::RequestRedraw;
use picture::{Picture, ViewCameras, ViewKey, same_clear};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Frames in a row with a change after which the pictures stop asking for frames of their own: a
/// system that marks something changed every frame must not keep an idle board redrawing.
const RESTLESS_FRAMES: u32 = 60;

/// The view's two pictures: the terrain alone, and the whole scene.
#[derive(Resource)]
pub struct ViewCache {
    key: Option<ViewKey>,
    terrain: Picture,
    scene: Picture,
    /// Frames in a row in which something drawn changed.
    restless: u32,
    /// Times the scene's picture has been baked (a new baking may reuse the same image).
    scene_bakes: u32,
    /// The moving view's tiles.
    tiles: ViewTiles,
}

impl ViewCache {
    /// Tiles baked, and frames whose terrain was put together from tiles (`view_tiles/`).
    pub fn tile_counts(&self) -> (u64, u64) {
        (self.tiles.baked, self.tiles.frames_from_tiles)
    }

    /// The scene's picture while it stands for the board: its image, which baking of it, and its
    /// size in pixels.
    pub fn scene_shown(&self) -> Option<(AssetId<Image>, u32, UVec2)> {
        let key = self.key?;
        self.scene.ready().map(|id| (id, self.scene_bakes, key.pixels))
    }
}

/// Images of the view's own besides its two pictures (the kept frame, `frame_reuse/`): their
/// making is no change of the scene.
#[derive(Resource, Default)]
pub struct OwnImages(pub Vec<AssetId<Image>>);

/// What stands for the board in the window's frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shown {
    /// Nothing: the window's camera draws the terrain and the scene itself.
    Live,
    /// The terrain's picture, with the scene drawn over it.
    Terrain,
    /// The scene's picture: only gizmos drawn over it.
    Scene,
}

/// `HEXFRONT_VIEW_PICTURE`: `off` draws everything every frame, `terrain` keeps only the
/// terrain's picture (to compare, or should a driver get the copy wrong).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Allowed {
    Nothing,
    Terrain,
    Both,
}

impl Default for Allowed {
    fn default() -> Self {
        match std::env::var("HEXFRONT_VIEW_PICTURE").as_deref() {
            Ok("off") => Self::Nothing,
            Ok("terrain") => Self::Terrain,
            _ => Self::Both,
        }
    }
}

impl Allowed {
    /// The picture the window shows once everything has stood still long enough.
    fn best(self) -> Shown {
        match self {
            Allowed::Nothing => Shown::Live,
            Allowed::Terrain => Shown::Terrain,
            Allowed::Both => Shown::Scene,
        }
    }
}

/// Set by the render world when a picture could not be copied (its image missing, or another
/// format than the window's): the main world then draws the board itself from the next frame on.
#[derive(Resource, Clone, Default)]
struct CopyFailed(Arc<AtomicBool>);

/// On the window's camera: the picture its frames start from, or the pieces of pictures they are
/// put together from (`view_tiles/`), while there are.
#[derive(Component, Clone, Default, ExtractComponent)]
pub struct StartFromPicture(Option<AssetId<Image>>, Vec<PieceCopy>);

impl StartFromPicture {
    pub fn picture(&self) -> Option<AssetId<Image>> {
        self.0
    }

    /// Another picture to start from (the kept frame, `frame_reuse/`), written only if it differs.
    pub fn set_picture(&mut self, picture: Option<AssetId<Image>>) {
        if self.0 != picture || !self.1.is_empty() {
            self.0 = picture;
            self.1.clear();
        }
    }

    /// Pieces to put the frame together from, written only if they differ.
    fn set_pieces(&mut self, pieces: Vec<PieceCopy>) {
        if self.0.is_some() || self.1 != pieces {
            self.0 = None;
            self.1 = pieces;
        }
    }
}

/// The window camera's layers: gizmos always, the scene unless its picture stands for it, the
/// terrain unless a picture does.
fn window_layers(shown: Shown) -> RenderLayers {
    match shown {
        Shown::Live => RenderLayers::from_layers(&[LIVE_LAYER, TERRAIN_LAYER, GIZMO_LAYER]),
        Shown::Terrain => RenderLayers::from_layers(&[LIVE_LAYER, GIZMO_LAYER]),
        Shown::Scene => RenderLayers::layer(GIZMO_LAYER),
    }
}

/// The window camera's parts for the view's pictures: its layers, and a main texture a picture
/// can be copied into.
pub fn window_camera_parts() -> impl Bundle {
    let usages = CameraMainTextureUsages::default();
    (
        window_layers(Shown::Live),
        CameraMainTextureUsages(usages.0 | TextureUsages::COPY_DST),
        StartFromPicture::default(),
    )
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(ExtractComponentPlugin::<StartFromPicture>::default())
        .init_resource::<OwnImages>()
        .add_systems(Startup, gizmos_on_their_layer)
        .add_systems(OnEnter(GameState::Playing), spawn_view_cache)
        .add_systems(OnEnter(GameState::NoGame), forget_view_cache)
        .add_systems(
            PostUpdate,
            // After every camera move (the presentation camera's glide is in PostUpdate too) and
            // before the frame's visible entities are listed from the camera's layers.
            follow_view
                .after(CameraUpdateSystems)
                .after(AssetEventSystems)
                .after(TransformSystems::Propagate)
                // The tiles' cameras are aimed here, and their frusta worked out after.
                .before(VisibilitySystems::UpdateFrusta)
                .before(VisibilitySystems::CheckVisibility)
                .run_if(super::board_shown.and_then(resource_exists::<ViewCache>)),
        );
    let failed = CopyFailed::default();
    app.insert_resource(failed.clone());
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .insert_resource(failed)
            .add_systems(Core2d, copy::copy_picture.before(Core2dSystems::MainPass));
    }
}

/// Every gizmo group (the game's and Bevy's default) draws on the gizmo layer, which no picture
/// sees: gizmos are remade every frame, a picture would keep yesterday's.
fn gizmos_on_their_layer(mut store: ResMut<GizmoConfigStore>) {
    for (_, config, _) in store.iter_mut() {
        config.render_layers = RenderLayers::layer(GIZMO_LAYER);
    }
}

fn spawn_view_cache(mut commands: Commands, mut images: ResMut<Assets<Image>>, cache: Option<Res<ViewCache>>) {
    if cache.is_some() {
        return;
    }
    let mut picture = |order: isize, layers: RenderLayers| Picture::spawn(&mut commands, &mut images, (order, layers));
    let terrain = picture(-3, RenderLayers::layer(VIEW_LAYER));
    let scene = picture(-2, RenderLayers::from_layers(&[VIEW_LAYER, LIVE_LAYER]));
    let tiles = ViewTiles::new(RenderLayers::layer(VIEW_LAYER));
    commands.insert_resource(ViewCache {
        key: None,
        terrain,
        scene,
        restless: 0,
        scene_bakes: 0,
        tiles,
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
        commands.entity(cache.terrain.camera).despawn();
        commands.entity(cache.scene.camera).despawn();
        for &baker in cache.tiles.bakers() {
            commands.entity(baker).despawn();
        }
        commands.remove_resource::<ViewCache>();
    }
    for (mut camera, mut layers, mut start) in &mut window_camera {
        show_picture(Shown::Live, Start::Cleared, &mut camera, &mut layers, &mut start);
    }
}

/// What the window's frame starts from.
enum Start {
    Cleared,
    Picture(AssetId<Image>),
    Pieces(Vec<PieceCopy>),
}

/// The window camera draws the board itself, or starts each frame from a picture or its pieces.
fn show_picture(
    shown: Shown,
    from: Start,
    camera: &mut Camera,
    layers: &mut RenderLayers,
    start: &mut StartFromPicture,
) {
    let layers_wanted = window_layers(shown);
    if *layers != layers_wanted {
        *layers = layers_wanted;
    }
    // Not cleared over the copied picture.
    let clear = if matches!(from, Start::Cleared) {
        ClearColorConfig::Default
    } else {
        ClearColorConfig::None
    };
    if !same_clear(&camera.clear_color, &clear) {
        camera.clear_color = clear;
    }
    match from {
        Start::Cleared => start.set_picture(None),
        Start::Picture(id) => start.set_picture(Some(id)),
        Start::Pieces(pieces) => start.set_pieces(pieces),
    }
}

/// Watches the window's camera and the scene: a camera move drops both pictures, a change in the
/// scene drops the scene's; standing still bakes them; a baked picture stands for what it shows,
/// and while there is none the tiles may.
fn follow_view(
    mut commands: Commands,
    mut cache: ResMut<ViewCache>,
    mut images: ResMut<Assets<Image>>,
    clear: Res<ClearColor>,
    board_picture: Option<Res<BoardPicture>>,
    new_chunks: Query<(), Added<super::board::BoardChunk>>,
    mut scene_changes: SceneChanges,
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
    mut view_cameras: ViewCameras,
    mut bakers: Query<BakerParts, (With<TileBaker>, Without<BoardCamera>)>,
    mut redraw: MessageWriter<RequestRedraw>,
    allowed: Local<Allowed>,
    copy_failed: Res<CopyFailed>,
    own_images: Res<OwnImages>,
) {
    let mut own = vec![cache.terrain.image(), cache.scene.image()];
    own.extend(&own_images.0);
    own.extend(cache.tiles.images());
    let scene_changed = scene_changes.any(&own);
    let Ok((mut camera, transform, projection, msaa, mut layers, mut start)) = window_camera.single_mut() else {
        return;
    };
    let Projection::Orthographic(ortho) = projection else {
        return;
    };
    let pixels = camera.physical_viewport_size().unwrap_or(UVec2::ZERO);
    let key = ViewKey {
        centre: transform.translation.truncate() + ortho.area.center(),
        area: ortho.area.size(),
        pixels,
        scale_factor: camera.target_scaling_factor().unwrap_or(1.0),
    };
    // The whole-board picture must be done first: its baking compiles the pipelines the view's
    // cameras use. A multisampled window draws into another texture than the one copied into.
    let usable = pixels.min_element() > 0
        && *allowed != Allowed::Nothing
        && !copy_failed.0.load(Ordering::Relaxed)
        && camera.viewport.is_none()
        && *msaa == Msaa::Off
        && board_picture.is_some_and(|p| p.baked());
    if !usable {
        cache.key = None;
        cache.terrain.drop_picture(&mut view_cameras);
        cache.scene.drop_picture(&mut view_cameras);
        cache.tiles.rest(&mut commands);
        show_picture(Shown::Live, Start::Cleared, &mut camera, &mut layers, &mut start);
        return;
    }
    let terrain_changed = !new_chunks.is_empty() || clear.is_changed();
    if terrain_changed {
        cache.terrain.forget_views();
        cache.tiles.forget();
    }
    let view_changed = cache.key != Some(key) || terrain_changed;
    cache.key = Some(key);
    let depth = transform.translation.z;
    cache
        .terrain
        .step(view_changed, key, depth, &mut images, &mut view_cameras, clear.0);
    if *allowed == Allowed::Both {
        let changed = view_changed || scene_changed;
        let was_ready = cache.scene.ready().is_some();
        cache
            .scene
            .step(changed, key, depth, &mut images, &mut view_cameras, clear.0);
        if !was_ready && cache.scene.ready().is_some() {
            cache.scene_bakes = cache.scene_bakes.wrapping_add(1);
        }
    }
    let (shown, from) = choose_start(&mut commands, &mut cache, key, depth, &mut images, &mut bakers);
    show_picture(shown, from, &mut camera, &mut layers, &mut start);
    cache.restless = if view_changed || scene_changed {
        cache.restless.saturating_add(1)
    } else {
        0
    };
    let settling = cache.tiles.settling();
    if (shown != allowed.best() && cache.restless < RESTLESS_FRAMES) || settling {
        redraw.write(RequestRedraw);
    }
}

/// What the window's frame starts from: the scene's picture, the terrain's, or the tiles' pieces
/// while the terrain has no picture of this view; else nothing. Tiles are let go once a picture
/// stands for the view again.
fn choose_start(
    commands: &mut Commands,
    cache: &mut ViewCache,
    key: ViewKey,
    depth: f32,
    images: &mut Assets<Image>,
    bakers: &mut Query<BakerParts, (With<TileBaker>, Without<BoardCamera>)>,
) -> (Shown, Start) {
    let view = TileView {
        centre: key.centre,
        area: key.area,
        pixels: key.pixels,
        scale_factor: key.scale_factor,
    };
    let still = cache.terrain.last_view();
    let pieces = cache.tiles.step(commands, view, still, depth, images, bakers);
    match (cache.scene.ready(), cache.terrain.ready(), pieces) {
        (Some(scene), ..) => {
            cache.tiles.rest(commands);
            (Shown::Scene, Start::Picture(scene))
        }
        (None, Some(terrain), _) => {
            cache.tiles.rest(commands);
            (Shown::Terrain, Start::Picture(terrain))
        }
        (None, None, Some(pieces)) => {
            cache.tiles.frames_from_tiles += 1;
            (Shown::Terrain, Start::Pieces(pieces))
        }
        (None, None, None) => (Shown::Live, Start::Cleared),
    }
}
