//! Frames the window already shows go unpresented: on a software renderer, a copy of the kept
//! frame (`frame_reuse`) in a run the window already shows skips Bevy's last pass and the present,
//! as `KeptFrame::skips_presenting` decides; screenshots and graphics cards always present.

use super::KeepFrame;
use bevy::camera::{CameraOutputMode, ClearColorConfig};
use bevy::prelude::*;
use bevy::render::camera::{ExtractedCamera, sort_cameras};
use bevy::render::view::screenshot::Screenshot;
use bevy::render::{Extract, ExtractSchedule, Render, RenderApp, RenderSystems};

pub(super) fn plugin(app: &mut App, allowed: bool) {
    app.insert_resource(SkipPresenting(allowed))
        // A frame skips presenting only when `reuse_frames` says so that frame.
        .add_systems(First, present_unless_told);
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .init_resource::<ScreenshotPending>()
            .add_systems(ExtractSchedule, note_screenshots)
            .add_systems(
                Render,
                skip_presenting.in_set(RenderSystems::CreateViews).before(sort_cameras),
            );
    }
}

/// Whether copies of the kept frame the window already shows may go unpresented: on a software
/// renderer (a graphics card's last pass is cheap), and not with `HEXFRONT_FRAME_REUSE=present`.
#[derive(Resource, Clone, Copy)]
pub(super) struct SkipPresenting(pub(super) bool);

/// Render world: whether a screenshot of the window is asked for this frame (it is taken from the
/// frame's image, which a skipped frame does not have).
#[derive(Resource, Default)]
struct ScreenshotPending(bool);

fn note_screenshots(screenshots: Extract<Query<(), With<Screenshot>>>, mut pending: ResMut<ScreenshotPending>) {
    pending.0 = !screenshots.is_empty();
}

fn present_unless_told(mut keep: Query<&mut KeepFrame>) {
    for mut keep in &mut keep {
        if keep.window_holds_it {
            keep.window_holds_it = false;
        }
    }
}

/// Render world, before the cameras are sorted and the window's image for the frame fetched: a frame the window already
/// shows skips Bevy's last pass and is not presented (the window camera's output is skipped, so no
/// image is fetched), instead of sampling and writing every pixel again (~20 ms for 1.6 M pixels
/// on a software renderer) to show the same.
fn skip_presenting(mut cameras: Query<(&mut ExtractedCamera, &KeepFrame)>, screenshot: Res<ScreenshotPending>) {
    for (mut camera, keep) in &mut cameras {
        if keep.window_holds_it && !screenshot.0 {
            camera.output_mode = CameraOutputMode::Skip;
            // A camera with no output that clears is not rendered at all, and its working
            // textures would be let go after three frames, to be made again for the next frame
            // presented. (Its frame starts from the kept frame anyway.)
            camera.clear_color = ClearColorConfig::None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::core_pipeline::Core2d;

    #[test]
    fn a_skipped_frame_has_no_output_but_keeps_its_textures_and_a_screenshot_is_presented() {
        use bevy::ecs::schedule::ScheduleLabel;
        let mut world = World::new();
        world.init_resource::<bevy::render::camera::SortedCameras>();
        world.init_resource::<ScreenshotPending>();
        let camera = |holds| {
            (
                ExtractedCamera {
                    target: None,
                    physical_viewport_size: None,
                    physical_target_size: None,
                    viewport: None,
                    schedule: Core2d.intern(),
                    order: 0,
                    output_mode: CameraOutputMode::default(),
                    msaa_writeback: default(),
                    clear_color: ClearColorConfig::Default,
                    sorted_camera_index_for_target: 0,
                    exposure: 1.0,
                    hdr: false,
                    compositing_space: None,
                },
                KeepFrame {
                    copy_into: None,
                    window_holds_it: holds,
                },
            )
        };
        let held = world.spawn(camera(true)).id();
        let drawn = world.spawn(camera(false)).id();
        let mut schedule = Schedule::default();
        schedule.add_systems((skip_presenting, sort_cameras).chain());
        let output = |world: &World, e: Entity| {
            let sorted = world.resource::<bevy::render::camera::SortedCameras>();
            let skip = sorted
                .0
                .iter()
                .find(|c| c.entity == e)
                .map(|c| matches!(c.output_mode, CameraOutputMode::Skip));
            let clears = !matches!(
                world.get::<ExtractedCamera>(e).unwrap().clear_color,
                ClearColorConfig::None
            );
            (skip, clears)
        };
        schedule.run(&mut world);
        // Skipped, and not clearing (a camera with no output that clears gets no working textures).
        assert_eq!(output(&world, held), (Some(true), false));
        assert_eq!(output(&world, drawn), (Some(false), true));
        // A screenshot asked for: presented (the render world extracts cameras anew each frame).
        world.entity_mut(held).insert(camera(true));
        world.resource_mut::<ScreenshotPending>().0 = true;
        schedule.run(&mut world);
        assert_eq!(output(&world, held), (Some(false), true));
    }
}
