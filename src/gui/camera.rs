//! The board camera: fit-to-map on start (F), pan with drag (right or middle mouse) and
//! WASD/arrows, zoom with the wheel (toward the cursor) and +/-.

use super::keymap::{Action, Keys};
use super::layout::Layout;
use super::state::{BoardCamera, PointerOverUi};
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, RequestRedraw};

const MIN_SCALE: f32 = 0.15;
const MAX_SCALE: f32 = 6.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PointerOverUi>()
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, apply_antialiasing)
        .add_systems(
            Update,
            (fit_on_start, pan_and_zoom).run_if(super::board_shown.and_then(resource_exists::<Layout>)),
        );
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        BoardCamera,
        Msaa::Off,
        super::view_cache::window_camera_parts(),
    ));
}

/// Multisampling as the settings ask, once the renderer has said what it runs on.
fn apply_antialiasing(
    settings: Res<super::state::Settings>,
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    mut cameras: Query<&mut Msaa, With<BoardCamera>>,
) {
    let Some(adapter) = adapter else { return };
    if !(settings.is_changed() || adapter.is_added()) {
        return;
    }
    let wanted = if settings.antialiasing.wanted(super::state::software_renderer(&adapter)) {
        Msaa::Sample4
    } else {
        Msaa::Off
    };
    for mut msaa in &mut cameras {
        if *msaa != wanted {
            *msaa = wanted;
        }
    }
}

/// Fits the map in the window, clear of the bars at top and bottom and of a panel `right` pixels
/// wide on the right (the game log).
fn fit(layout: &Layout, window: &Window, right: f32, transform: &mut Transform, projection: &mut Projection) {
    let bounds = layout.bounds();
    let size = bounds.size() * 1.06;
    let view = Vec2::new((window.width() - right).max(200.0), (window.height() - 90.0).max(100.0));
    let scale = (size.x / view.x).max(size.y / view.y).clamp(MIN_SCALE, MAX_SCALE);
    if let Projection::Orthographic(o) = projection {
        o.scale = scale;
    }
    let c = bounds.center();
    transform.translation = Vec3::new(c.x + right / 2.0 * scale, c.y - 10.0 * scale, transform.translation.z);
}

fn fit_on_start(
    layout: Res<Layout>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut camera: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
    keys: Res<Keys>,
    log_panel: Res<super::log_panel::LogPanel>,
    presenting: Res<super::state::Presenting>,
) {
    // Presentation mode fits the map to its own frame (`present::fit_frame`).
    if presenting.0 || !(layout.is_added() || keys.just(Action::Fit)) {
        return;
    }
    let right = if log_panel.open { log_panel.width } else { 0.0 };
    if let (Ok(window), Ok((mut t, mut p))) = (windows.single(), camera.single_mut()) {
        fit(&layout, window, right, &mut t, &mut p);
    }
}

/// The camera's centre moved just enough that at least a quarter of the view (or of the map,
/// when it is smaller) still shows map, whatever the pan or zoom: `view` in pixels, `scale` in
/// world units a pixel.
pub fn keep_map_in_view(center: Vec2, scale: f32, view: Vec2, bounds: Rect) -> Vec2 {
    let half = view * scale / 2.0;
    let keep = (view * scale).min(bounds.size()) * 0.25;
    let lo = bounds.min - half + keep;
    let hi = bounds.max + half - keep;
    Vec2::new(
        center.x.clamp(lo.x, hi.x.max(lo.x)),
        center.y.clamp(lo.y, hi.y.max(lo.y)),
    )
}

fn pan_and_zoom(
    keys: Res<Keys>,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    over_ui: Res<PointerOverUi>,
    time: Res<Time>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut camera: Query<(&Camera, &GlobalTransform, &mut Transform, &mut Projection), With<BoardCamera>>,
    replay: Option<Res<super::state::Replay>>,
    mut redraw: MessageWriter<RequestRedraw>,
    layout: Res<Layout>,
) {
    let Ok((camera, global, mut transform, mut projection)) = camera.single_mut() else {
        return;
    };
    let view = windows
        .single()
        .map_or(Vec2::new(1280.0, 800.0), |w| Vec2::new(w.width(), w.height()));

    let Projection::Orthographic(ortho) = projection.as_mut() else {
        return;
    };
    let scale = ortho.scale;
    // Keyboard pan: a screen's width in about two seconds (the keymap leaves it out under Ctrl:
    // Ctrl+S saves); not with ← and → while watching a replay (they step through it).
    let mut dir = Vec2::ZERO;
    let stepping = |a: Action| replay.is_some() && keys.held(a);
    for (pan, d) in [
        (Action::PanLeft, Vec2::NEG_X),
        (Action::PanRight, Vec2::X),
        (Action::PanUp, Vec2::Y),
        (Action::PanDown, Vec2::NEG_Y),
    ] {
        let replay_step = match pan {
            Action::PanLeft => stepping(Action::ReplayBack),
            Action::PanRight => stepping(Action::ReplayOn),
            _ => false,
        };
        if keys.held(pan) && !replay_step {
            dir += d;
        }
    }
    // The first frame after the window slept (reactive rendering) carries the whole idle time in
    // its delta: capped, a short tap moves a few pixels instead of jumping.
    let dt = time.delta_secs().min(1.0 / 30.0);
    transform.translation += (dir * 700.0 * scale * dt).extend(0.0);
    if dir != Vec2::ZERO {
        // Held keys send no events between repeats: keep the pan smooth.
        redraw.write(RequestRedraw);
    }
    // Drag pan.
    let dragged = !over_ui.0
        && (buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle))
        && motion.delta != Vec2::ZERO;
    if dragged {
        let d = motion.delta;
        transform.translation += Vec3::new(-d.x, d.y, 0.0) * scale;
    }
    // Zoom: wheel toward the cursor, +/- around the centre.
    let mut factor = 1.0;
    if !over_ui.0 && scroll.delta.y != 0.0 {
        let lines = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        };
        factor = 0.87_f32.powf(lines);
    }
    if keys.just(Action::ZoomIn) {
        factor = 0.8;
    }
    if keys.just(Action::ZoomOut) {
        factor = 1.25;
    }
    if factor != 1.0 {
        let new_scale = (scale * factor).clamp(MIN_SCALE, MAX_SCALE);
        let cursor_world = windows
            .single()
            .ok()
            .and_then(|w| w.cursor_position())
            .filter(|_| scroll.delta.y != 0.0)
            .and_then(|p| camera.viewport_to_world_2d(global, p).ok());
        if let Some(anchor) = cursor_world {
            // Keep the point under the cursor where it is.
            let cam = transform.translation.truncate();
            let moved = anchor + (cam - anchor) * (new_scale / scale);
            transform.translation = moved.extend(transform.translation.z);
        }
        ortho.scale = new_scale;
    }
    // A pan or zoom of the player's keeps part of the map in view (the director and the camera
    // that follows the action are left alone).
    let moved = dir != Vec2::ZERO || factor != 1.0 || dragged;
    let now = transform.translation.truncate();
    let kept = keep_map_in_view(now, ortho.scale, view, layout.bounds());
    if moved && kept != now {
        transform.translation = kept.extend(transform.translation.z);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panning_far_off_the_map_keeps_a_quarter_of_it_in_view() {
        let bounds = Rect::new(0.0, -1000.0, 2000.0, 0.0);
        let view = Vec2::new(1600.0, 1000.0);
        let mut checked = 0;
        for scale in [0.2, 0.5, 1.0, 3.0] {
            for far in [Vec2::new(1e6, 0.0), Vec2::new(-1e6, 5e5), Vec2::new(900.0, -1e7)] {
                let c = keep_map_in_view(far, scale, view, bounds);
                let seen = Rect::from_center_size(c, view * scale).intersect(bounds);
                let want = (view * scale).min(bounds.size()) * 0.25;
                assert!(
                    seen.width() >= want.x - 1e-2 && seen.height() >= want.y - 1e-2,
                    "{scale} {far}: {seen:?}"
                );
                checked += 1;
            }
            // A view over the map's middle is left where it is.
            assert_eq!(keep_map_in_view(bounds.center(), scale, view, bounds), bounds.center());
        }
        assert_eq!(checked, 12);
    }
}
