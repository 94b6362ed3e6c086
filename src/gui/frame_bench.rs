//! `--bench-frames N`: frame times in the cases a player lives in, each after a few unmeasured
//! frames: the whole map still, zoomed in (1:1) still, a continuous pan across the map at the
//! whole-map zoom and at 1:1 (the camera moved a fixed step every frame, back and forth), and a
//! zoom sweep from the whole map to 1:1 and back. Each prints mean, p50, p90, p99 and max. With
//! `--screenshot`, a picture of the pan at 1:1 halfway through (the frame as a player sees it
//! mid-pan), written before the benchmark exits.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

/// The bench's state: frames to measure per case, the times so far, the fitted camera.
#[derive(Resource)]
pub struct FrameBench {
    pub frames: u32,
    pub times: Vec<f64>,
    case: usize,
    fit: Option<(Vec2, f32)>,
    /// Frames into the current case (warm-up included).
    frame: u32,
    /// `--screenshot`: where the mid-pan picture goes.
    shot: Option<std::path::PathBuf>,
    /// The frame after the end at which the picture was first seen on disk.
    shot_seen: Option<u32>,
    /// The view's tile counts when the case's measured frames began (`ViewCache::tile_counts`).
    tiles_at_start: (u64, u64),
}

impl FrameBench {
    pub fn new(frames: u32) -> Self {
        Self {
            frames,
            times: Vec::new(),
            case: 0,
            fit: None,
            frame: 0,
            shot: None,
            shot_seen: None,
            tiles_at_start: (0, 0),
        }
    }

    /// A picture of the pan at 1:1 halfway through, written to `path`.
    pub fn with_shot(mut self, path: std::path::PathBuf) -> Self {
        self.shot = Some(path);
        self
    }
}

/// The case and frame (warm-up included) the `--screenshot` picture is taken at.
fn shot_at(frames: u32) -> (usize, u32) {
    let case = CASES
        .iter()
        .position(|(_, c)| *c == Case::Pan { one_to_one: true })
        .unwrap_or(0);
    (case, WARM + frames / 2)
}

/// Frames the benchmark waits at its end for its picture to be written.
const SHOT_WAIT: u32 = 600;

/// Unmeasured frames at the start of each case.
const WARM: u32 = 10;
/// How far the camera pans each frame, in screen pixels.
const PAN_PX: f32 = 12.0;

/// The cases, in order.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Case {
    Still { one_to_one: bool },
    Pan { one_to_one: bool },
    ZoomSweep,
}

const CASES: [(&str, Case); 5] = [
    ("whole map in view", Case::Still { one_to_one: false }),
    ("zoomed in (1:1)", Case::Still { one_to_one: true }),
    ("panning at the whole-map zoom", Case::Pan { one_to_one: false }),
    ("panning at 1:1", Case::Pan { one_to_one: true }),
    ("zoom sweep, whole map to 1:1 and back", Case::ZoomSweep),
];

/// Where the camera stands at frame `f` of `case`: `fit` the whole map's shot, `bounds` the map.
fn camera_at(case: Case, f: u32, n: u32, (fit_at, fit_scale): (Vec2, f32), bounds: Rect) -> (Vec2, f32) {
    let t = f as f32 / (WARM + n).max(1) as f32;
    match case {
        Case::Still { one_to_one: false } => (fit_at, fit_scale),
        Case::Still { one_to_one: true } => (bounds.center(), 1.0),
        Case::Pan { one_to_one } => {
            let scale = if one_to_one { 1.0 } else { fit_scale };
            // Back and forth across the map's width, a fixed step a frame.
            let span = bounds.width().max(1.0);
            let travelled = f as f32 * PAN_PX * scale;
            let phase = (travelled / span) % 2.0;
            let x = bounds.min.x + span * if phase < 1.0 { phase } else { 2.0 - phase };
            let y = if one_to_one { bounds.center().y } else { fit_at.y };
            (Vec2::new(x, y), scale)
        }
        Case::ZoomSweep => {
            let k = if t < 0.5 { t * 2.0 } else { 2.0 - t * 2.0 };
            let scale = (fit_scale.ln() + (1.0f32.ln() - fit_scale.ln()) * k).exp();
            (fit_at.lerp(bounds.center(), k), scale)
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        bench_frames.run_if(
            resource_exists::<FrameBench>
                .and_then(resource_exists::<super::layout::Layout>)
                .and_then(in_state(crate::game::phase::GameState::Playing)),
        ),
    );
}

fn bench_frames(
    mut commands: Commands,
    mut bench: ResMut<FrameBench>,
    time: Res<Time<Real>>,
    picture: Option<Res<super::detail::BoardPicture>>,
    layout: Res<super::layout::Layout>,
    view_cache: Option<Res<super::view_cache::ViewCache>>,
    mut camera: Query<(&mut Transform, &mut Projection), With<super::state::BoardCamera>>,
    mut exit: MessageWriter<AppExit>,
) {
    // The first frames build meshes, pipelines and the board picture: not counted.
    if !picture.is_some_and(|p| p.baked()) {
        return;
    }
    let Ok((mut t, mut p)) = camera.single_mut() else {
        return;
    };
    let Projection::Orthographic(o) = p.as_mut() else {
        return;
    };
    let fit = *bench.fit.get_or_insert((t.translation.truncate(), o.scale));
    let tiles = view_cache.map_or((0, 0), |c| c.tile_counts());
    if bench.frame == WARM {
        bench.tiles_at_start = tiles;
    }
    if bench.frame > WARM {
        bench.times.push(f64::from(time.delta_secs()) * 1000.0);
    }
    bench.frame += 1;
    if bench.case >= CASES.len() {
        wait_for_shot(&mut bench, &mut exit);
        return;
    }
    if let Some(path) = bench.shot.clone()
        && (bench.case, bench.frame) == shot_at(bench.frames)
    {
        let _ = std::fs::remove_file(&path);
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
    }
    if bench.frame > WARM + bench.frames {
        println!("{}", frame_report(CASES[bench.case].0, &bench.times));
        let (baked, assembled) = (tiles.0 - bench.tiles_at_start.0, tiles.1 - bench.tiles_at_start.1);
        println!(
            "  the terrain put together from tiles in {assembled} of {} frames ({baked} tiles baked)",
            bench.times.len()
        );
        bench.times.clear();
        bench.frame = 0;
        bench.case += 1;
        if bench.case == CASES.len() {
            wait_for_shot(&mut bench, &mut exit);
            return;
        }
    }
    let (at, scale) = camera_at(CASES[bench.case].1, bench.frame, bench.frames, fit, layout.bounds());
    o.scale = scale;
    t.translation = at.extend(t.translation.z);
}

/// At the end: exits ten frames after the picture asked for is on disk (for the encoder to
/// finish), or at once without one. `bench.frame` counts the frames since the end.
fn wait_for_shot(bench: &mut FrameBench, exit: &mut MessageWriter<AppExit>) {
    let Some(path) = &bench.shot else {
        exit.write(AppExit::Success);
        return;
    };
    if path.exists() {
        let seen = *bench.shot_seen.get_or_insert(bench.frame);
        if bench.frame >= seen + 10 {
            info!("screenshot written to {}", path.display());
            exit.write(AppExit::Success);
        }
    } else if bench.frame > SHOT_WAIT {
        error!("the mid-pan screenshot was not written to {}", path.display());
        exit.write(AppExit::error());
    }
}

/// Mean, median, 90th and 99th percentiles and the worst of some frame times.
pub fn frame_report(what: &str, times: &[f64]) -> String {
    if times.is_empty() {
        return format!("bench-frames, {what}: no frames measured");
    }
    let mut t = times.to_vec();
    t.sort_by(f64::total_cmp);
    let at = |q: f64| {
        t[((t.len() as f64 * q).ceil() as usize)
            .saturating_sub(1)
            .min(t.len() - 1)]
    };
    let mean = t.iter().sum::<f64>() / t.len() as f64;
    format!(
        "bench-frames, {what}: {} frames: mean {mean:.2} ms ({:.1} fps), p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        t.len(),
        1000.0 / mean,
        at(0.5),
        at(0.9),
        at(0.99),
        t[t.len() - 1]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pan_moves_a_fixed_step_and_stays_on_the_map_and_a_sweep_returns() {
        let bounds = Rect::new(0.0, -500.0, 3000.0, 0.0);
        let fit = (bounds.center(), 2.0);
        let mut last = None;
        let mut steps = 0;
        for f in 0..400 {
            let (at, scale) = camera_at(Case::Pan { one_to_one: true }, f, 200, fit, bounds);
            assert_eq!(scale, 1.0);
            assert!(at.x >= bounds.min.x - 0.01 && at.x <= bounds.max.x + 0.01);
            if let Some(prev) = last {
                let d: f32 = at.x - prev;
                // A fixed step, but where it turns back.
                if (d.abs() - PAN_PX).abs() < 1e-2 {
                    steps += 1;
                }
            }
            last = Some(at.x);
        }
        assert!(steps >= 390, "{steps}");
        let n = 100;
        let start = camera_at(Case::ZoomSweep, 0, n, fit, bounds);
        let middle = camera_at(Case::ZoomSweep, (WARM + n) / 2, n, fit, bounds);
        assert_eq!(start.1, 2.0);
        assert!((middle.1 - 1.0).abs() < 0.05, "{middle:?}");
    }
}
