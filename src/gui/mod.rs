//! The desktop client (feature `gui`): a window with the board, counters and egui panels. It
//! reads the world and sends orders as messages; it never changes game state itself.

pub mod attack;
pub mod board;
pub mod camera;
pub mod counters;
pub mod hud;
pub mod layout;
pub mod zones;

use crate::scenario::Scenario;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::WindowResolution;
use std::path::PathBuf;
use std::process::ExitCode;

/// `--screenshot`: capture the window after some frames, then exit.
#[derive(Resource, Clone, Debug)]
pub struct ScreenshotRequest {
    pub path: PathBuf,
    pub after_frames: u32,
}

/// All client plugins.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, use_latin_font).add_plugins((
        camera::plugin,
        board::plugin,
        counters::plugin,
        hud::plugin,
        attack::plugin,
        zones::plugin,
    ));
}

/// Puts Hack into Bevy's default font slot, so every board label can show accented names.
fn use_latin_font(mut fonts: ResMut<Assets<Font>>) {
    let hack = Font::from_bytes(epaint_default_fonts::HACK_REGULAR.to_vec());
    if let Err(e) = fonts.insert(&Handle::<Font>::default(), hack) {
        warn!("could not replace the default font ({e}); accented names may lose letters");
    }
}

/// Opens the window on `scenario` and runs until it is closed.
pub fn run(scenario: Scenario, seed: u64, screenshot: Option<ScreenshotRequest>) -> ExitCode {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: format!("Hexfront — {}", scenario.raw.name),
            resolution: WindowResolution::new(1600, 1000),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(bevy_egui::EguiPlugin::default())
    .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.19)))
    .add_plugins((crate::game::plugin, plugin));
    if let Some(shot) = screenshot {
        app.insert_resource(shot).add_systems(Update, take_screenshot);
    }
    crate::game::spawn::spawn_scenario(app.world_mut(), &scenario, seed);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Waits `after_frames` frames, asks Bevy for a screenshot, and exits once the file is written.
fn take_screenshot(
    mut commands: Commands,
    request: Res<ScreenshotRequest>,
    mut frame: Local<u32>,
    mut seen_at: Local<Option<u32>>,
    mut exit: MessageWriter<AppExit>,
) {
    *frame += 1;
    if *frame == request.after_frames.max(1) {
        let _ = std::fs::remove_file(&request.path);
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(request.path.clone()));
    }
    if *frame > request.after_frames && seen_at.is_none() && request.path.exists() {
        *seen_at = Some(*frame);
    }
    // Give the encoder a few frames to finish writing before exiting.
    if seen_at.is_some_and(|at| *frame >= at + 10) {
        info!("screenshot written to {}", request.path.display());
        exit.write(AppExit::Success);
    }
    if *frame > request.after_frames + 1200 {
        error!("no screenshot after 1200 frames");
        exit.write(AppExit::error());
    }
}
