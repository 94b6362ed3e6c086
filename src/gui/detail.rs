//! Level of detail, so a board of any size draws fast: from afar the map is one picture baked
//! once (a camera renders the board's meshes into an image when the game starts) and counters are
//! coloured pips; zoomed in, the board's chunk meshes (culled off screen) and the counters' faces
//! and values show. Place names keep their size on screen when zoomed out.

use super::board::{BoardChunk, CellLabel, ObjectiveMark, PlaceName, ShowLabels};
use super::counters::{BandText, CounterPart, CounterPip, StackBadge};
use super::layout::Layout;
use super::render_layers::{BAKE_LAYER, TERRAIN_LAYER, VIEW_LAYER};
use super::state::BoardCamera;
use crate::game::phase::GameState;
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{RenderTarget, ScalingMode};
use bevy::prelude::*;
use bevy::text::FontSize;
use bevy::window::RequestRedraw;
use std::time::{Duration, Instant};

/// The board picture's pixel budget (4 Mpx, 16 MiB) and longest side.
const PICTURE_PIXELS: f32 = 4.0e6;
const PICTURE_SIDE: f32 = 4096.0;
/// The picture is used while it is magnified at most this much on screen.
const PICTURE_MAGNIFICATION: f32 = 1.25;
/// Counters show their faces and values while at least this many pixels wide.
const FACE_PIXELS: f32 = 30.0;
/// Cell labels show while the camera shows at least this many pixels per world unit.
const LABEL_ZOOM: f32 = 0.8;
/// A counter's band words (designation, formation) show from this zoom: farther out they are
/// under 7 pixels, unreadable, and every glyph costs a software renderer its pixels.
const BAND_TEXT_ZOOM: f32 = 0.9;
/// Frames and time the baking camera renders before its picture is taken as done (the
/// renderer compiles its pipelines in the background during the first frames).
const BAKE_FRAMES: u32 = 10;
const BAKE_TIME: Duration = Duration::from_millis(600);

/// What the current zoom shows.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct ZoomDetail {
    /// The baked picture stands for the board's meshes.
    pub board_picture: bool,
    /// Counters show faces and values (else pips).
    pub counter_faces: bool,
    /// Cell labels may show.
    pub labels: bool,
    /// Counters' band words show (close in).
    pub band_text: bool,
    /// How much place names are enlarged to keep their size on screen (1 zoomed in).
    pub name_scale: f32,
}

/// The baked board picture and how far its baking is.
#[derive(Resource)]
pub struct BoardPicture {
    /// Picture pixels per world unit.
    pub pixels_per_unit: f32,
    camera: Option<Entity>,
    frames: u32,
    started: Instant,
}

impl BoardPicture {
    pub fn baked(&self) -> bool {
        self.camera.is_none()
    }
}

/// The picture sprite.
#[derive(Component)]
struct PictureSprite;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ZoomDetail>()
        .add_systems(OnEnter(GameState::NoGame), |mut commands: Commands| {
            commands.remove_resource::<BoardPicture>()
        })
        .add_systems(
            Update,
            (start_bake, finish_bake, choose_detail, show_detail)
                .chain()
                .in_set(DetailSystems)
                .run_if(super::board_shown.and_then(resource_exists::<Layout>)),
        );
}

/// The zoom's choices of what shows, and the names' sizes: what reads them runs after.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DetailSystems;

/// The size of the picture for a board of `world` units: within the pixel budget, at most one
/// pixel a unit.
pub fn picture_size(world: Vec2) -> UVec2 {
    let per_unit = (PICTURE_PIXELS / (world.x * world.y).max(1.0))
        .sqrt()
        .min(PICTURE_SIDE / world.max_element().max(1.0))
        .min(1.0);
    (world * per_unit).ceil().as_uvec2().max(UVec2::ONE)
}

/// When a board is drawn: a camera that renders its meshes into an image, and the sprite
/// that shows the image.
fn start_bake(
    mut commands: Commands,
    layout: Res<Layout>,
    picture: Option<Res<BoardPicture>>,
    mut images: ResMut<Assets<Image>>,
    time: Res<Time<Real>>,
) {
    if picture.is_some() && !layout.is_added() {
        return;
    }
    info!(
        "board of {}×{} cells on screen {:.2} s after start",
        layout.grid.width,
        layout.grid.height,
        time.startup().elapsed().as_secs_f32()
    );
    let bounds = layout.bounds();
    let size = picture_size(bounds.size());
    let handle = images.add(super::render_layers::render_target_image(size));
    let centre = bounds.center();
    let camera = commands
        .spawn((
            Camera2d,
            Camera {
                order: -1,
                clear_color: ClearColorConfig::Custom(Color::NONE),
                ..default()
            },
            RenderTarget::Image(handle.clone().into()),
            Projection::Orthographic(OrthographicProjection {
                scaling_mode: ScalingMode::Fixed {
                    width: bounds.width(),
                    height: bounds.height(),
                },
                ..OrthographicProjection::default_2d()
            }),
            Transform::from_xyz(centre.x, centre.y, 0.0),
            RenderLayers::layer(BAKE_LAYER),
            Msaa::Off,
            DespawnOnEnter(GameState::NoGame),
        ))
        .id();
    commands.spawn((
        Sprite {
            image: handle,
            custom_size: Some(bounds.size()),
            ..default()
        },
        Transform::from_xyz(centre.x, centre.y, 0.0),
        Visibility::Hidden,
        RenderLayers::from_layers(&[TERRAIN_LAYER, VIEW_LAYER]),
        PictureSprite,
        DespawnOnEnter(GameState::NoGame),
    ));
    commands.insert_resource(BoardPicture {
        pixels_per_unit: size.x as f32 / bounds.width(),
        camera: Some(camera),
        frames: 0,
        started: Instant::now(),
    });
}

/// Lets the baking camera render a few frames, then removes it (its picture stays).
fn finish_bake(
    mut commands: Commands,
    picture: Option<ResMut<BoardPicture>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(mut picture) = picture else { return };
    let Some(camera) = picture.camera else { return };
    picture.frames += 1;
    if picture.frames >= BAKE_FRAMES && picture.started.elapsed() >= BAKE_TIME {
        info!(
            "board picture baked in {:.2} s",
            picture.started.elapsed().as_secs_f32()
        );
        commands.entity(camera).despawn();
        picture.camera = None;
    }
    redraw.write(RequestRedraw);
}

/// Works out what the camera's zoom shows.
fn choose_detail(
    camera: Query<&Projection, With<BoardCamera>>,
    picture: Option<Res<BoardPicture>>,
    mut detail: ResMut<ZoomDetail>,
) {
    let Ok(Projection::Orthographic(ortho)) = camera.single() else {
        return;
    };
    // Screen pixels per world unit.
    let zoom = 1.0 / ortho.scale.max(1e-3);
    let board_picture = picture.is_some_and(|p| p.baked() && zoom <= p.pixels_per_unit * PICTURE_MAGNIFICATION);
    // Names grow in steps, so text is laid out again only now and then.
    let name_scale = if zoom >= 1.0 {
        1.0
    } else {
        ((1.0 / zoom) * 4.0).round() / 4.0
    };
    detail.set_if_neq(ZoomDetail {
        board_picture,
        counter_faces: super::counters::COUNTER * zoom >= FACE_PIXELS,
        labels: zoom >= LABEL_ZOOM,
        band_text: zoom >= BAND_TEXT_ZOOM,
        name_scale,
    });
}

/// What the zoom shows or hides.
type Detailed = Or<(
    With<BoardChunk>,
    With<PictureSprite>,
    With<CounterPart>,
    With<CounterPip>,
    With<StackBadge>,
    With<CellLabel>,
    With<ObjectiveMark>,
)>;

type DetailKind = (
    Has<BoardChunk>,
    Has<PictureSprite>,
    Has<CounterPart>,
    Has<CounterPip>,
    Has<StackBadge>,
    Has<CellLabel>,
    Has<ObjectiveMark>,
    Has<BandText>,
);

/// Shows and hides what the zoom asks for: everything when it changes, and what is new.
fn show_detail(
    detail: Res<ZoomDetail>,
    show_labels: Res<ShowLabels>,
    mut shown: Query<(Mut<Visibility>, DetailKind, &mut Transform), (Detailed, Without<PlaceName>)>,
    mut places: Query<(Ref<PlaceName>, &mut TextFont, &mut Transform)>,
) {
    let all = detail.is_changed() || show_labels.is_changed();
    for (mut visibility, (chunk, sprite, face, pip, badge, label, objective, band), mut transform) in &mut shown {
        if !(all || visibility.is_added()) {
            continue;
        }
        let on = if chunk {
            !detail.board_picture
        } else if objective {
            transform.scale = Vec3::splat(detail.name_scale);
            detail.board_picture
        } else if sprite {
            detail.board_picture
        } else if band {
            detail.counter_faces && detail.band_text
        } else if face || badge {
            detail.counter_faces
        } else if pip {
            !detail.counter_faces
        } else {
            label && detail.labels && show_labels.0
        };
        visibility.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
    }
    for (place, mut font, mut transform) in &mut places {
        // A new game's names take the zoom's size at once, not at the next zoom change.
        if detail.is_changed() || place.is_added() {
            let k = detail.name_scale;
            font.font_size = FontSize::Px(place.size * k);
            let at = place.at + place.offset * k;
            transform.translation = at.extend(transform.translation.z);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_keeps_to_its_pixel_budget() {
        // The 100×100 benchmark board, a grand scenario, a small one.
        for world in [
            Vec2::new(6040.0, 6970.0),
            Vec2::new(3880.0, 2950.0),
            Vec2::new(1600.0, 1300.0),
        ] {
            let size = picture_size(world);
            assert!((size.x * size.y) as f32 <= PICTURE_PIXELS * 1.01, "{world}: {size}");
            assert!(size.max_element() as f32 <= PICTURE_SIDE + 1.0, "{world}: {size}");
            let per_unit = size.as_vec2() / world;
            assert!(
                per_unit.x <= 1.01 && (per_unit.x - per_unit.y).abs() < 0.01,
                "{world}: {per_unit}"
            );
        }
        assert_eq!(picture_size(Vec2::new(1600.0, 1300.0)), UVec2::new(1600, 1300));
    }
}
