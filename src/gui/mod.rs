//! The desktop client (feature `gui`): a window with the board, counters and egui panels. It
//! reads the world and sends orders as messages; it never changes game state itself.

pub mod answer_ask;
pub mod answer_window;
pub mod attack;
mod attack_options;
pub mod attack_panels;
pub mod bars;
pub mod board;
pub mod camera;
pub mod choices;
mod clear_of_counters;
pub mod clicks;
pub mod clipboard;
pub mod computer;
pub mod counters;
pub mod crt;
pub mod detail;
pub mod editor;
mod egui_shader;
pub mod end;
mod focus;
mod fonts;
mod frame_bench;
mod frame_reuse;
pub mod guide;
pub mod handover;
pub mod hud;
pub mod keymap;
pub mod lab_window;
pub mod layout;
pub mod live_reload;
pub mod log_panel;
pub mod marks;
pub mod online;
pub mod orders;
mod place_names;
pub mod present;
pub mod redraw;
mod render_cache;
pub mod render_layers;
pub mod replay;
mod root_ui;
pub mod rules_reference;
pub mod saves;
mod scene_changes;
pub mod score;
pub mod script;
pub mod session;
pub mod settings;
pub mod side_text;
pub mod stack_panel;
pub mod start;
mod start_files;
pub mod state;
mod thumbnail;
pub mod turn_report;
pub mod view_cache;
mod view_tiles;
mod window_icon;
#[cfg(windows)]
mod windows_console;
pub mod zones;

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

/// Presets from the command line.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// `--attack FROM:TO`, `--roll`.
    pub attack: Option<script::ScriptedAttack>,
    /// `--bench-frames N`.
    pub bench_frames: Option<u32>,
    /// `--ai SIDE[:LEVEL]`: the computer's sides (index by side).
    pub seats: Vec<Option<crate::ai::Profile>>,
    /// `hexfront edit [FILE]`: open the editor on the file, or on a new map.
    pub edit: Option<Option<PathBuf>>,
    /// `--present 1080|720`: presentation mode in a window of exactly that size.
    pub present: Option<state::FrameSize>,
    /// `hexfront showcase`: the scenarios the computer plays against itself, round and round.
    pub showcase: Option<Vec<crate::scenario::Scenario>>,
    /// `--online ADDRESS [--name NAME]`: the Online tab, connected.
    pub online: Option<(String, Option<String>)>,
}

/// All client plugins.
pub fn plugin(app: &mut App) {
    app.add_plugins(fonts::plugin)
        .add_plugins(place_names::plugin)
        .add_plugins((
            settings::plugin,
            start::plugin,
            saves::plugin,
            end::plugin,
            camera::plugin,
            board::plugin,
            counters::plugin,
            hud::plugin,
            attack::plugin,
            choices::plugin,
            script::plugin,
            zones::plugin,
            orders::plugin,
            replay::plugin,
            log_panel::plugin,
        ))
        .add_plugins((render_cache::plugin, frame_bench::plugin))
        .add_plugins((
            bars::plugin,
            attack_panels::plugin,
            computer::plugin,
            lab_window::plugin,
            window_icon::plugin,
            session::plugin,
            focus::plugin,
            score::plugin,
            handover::plugin,
            marks::plugin,
            stack_panel::plugin,
            guide::plugin,
            editor::plugin,
            live_reload::plugin,
            present::plugin,
        ))
        .add_plugins((
            answer_window::plugin,
            turn_report::plugin,
            rules_reference::plugin,
            keymap::plugin,
            clicks::plugin,
            online::plugin,
        ));
}

/// Run condition: a game is on the board, being played or over (its board still shown, watched
/// or looked at).
pub fn board_shown(state: Option<Res<State<crate::game::phase::GameState>>>) -> bool {
    use crate::game::phase::GameState;
    state.is_some_and(|s| matches!(s.get(), GameState::Playing | GameState::Over))
}

/// The renderer asks the graphics driver for memory in small blocks (8-64 MiB, not wgpu's default
/// 128-256 MiB): a 2D board holds few textures, and with a software renderer (llvmpipe) a block is
/// the process's own memory, resident once touched and only given back when the whole block is
/// free, so the board picture's one-off bake would otherwise stay in memory for good.
/// `HEXFRONT_GPU_MEMORY=performance` asks for wgpu's default blocks (to compare).
fn render_plugin() -> bevy::render::RenderPlugin {
    use bevy::render::settings::{MemoryHints, RenderCreation, WgpuSettings};
    let memory_hints = match std::env::var("HEXFRONT_GPU_MEMORY").as_deref() {
        Ok("performance") => MemoryHints::Performance,
        _ => MemoryHints::MemoryUsage,
    };
    bevy::render::RenderPlugin {
        render_creation: RenderCreation::Automatic(Box::new(WgpuSettings {
            memory_hints,
            ..default()
        })),
        ..default()
    }
}

/// Opens the window, on `start` when one is given (else on the start screen), and runs until it
/// is closed.
pub fn run(
    start: Option<state::StartGame>,
    seed: u64,
    screenshot: Option<ScreenshotRequest>,
    options: RunOptions,
) -> ExitCode {
    // The hooks go in first: the renderer may fail while its plugin is added. A panic writes the
    // game in progress to the saves folder; the next start says where.
    crate::game::emergency::install_panic_hook();
    #[cfg(windows)]
    if windows_console::release_own_console() {
        windows_console::show_panics_in_a_message_box();
    }
    let mut app = App::new();
    let title = match &start {
        Some(s) => format!("Hexfront — {}", s.game.scenario.raw.name),
        None => "Hexfront".to_string(),
    };
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(primary_window(title, &options)),
                // Closing the window asks first while a game is being played (`leave`).
                close_when_requested: false,
                ..default()
            })
            .set(render_plugin()),
    )
    .add_plugins(bevy_egui::EguiPlugin::default())
    .insert_resource(ClearColor(present::DARK))
    .add_plugins((crate::game::plugin, plugin));
    // `HEXFRONT_RENDER_TIMES=1`: each render pass's time and shaded pixels in the log, once a
    // second (where the adapter can time passes: Vulkan, DX12).
    if std::env::var_os("HEXFRONT_RENDER_TIMES").is_some() {
        app.add_plugins((
            bevy::render::diagnostic::RenderDiagnosticsPlugin,
            bevy::diagnostic::LogDiagnosticsPlugin::default(),
        ));
    }
    let (screenshot_wanted, attack_scripted) = (screenshot.is_some(), options.attack.is_some());
    add_capture(&mut app, screenshot, options.bench_frames);
    app.insert_resource(
        start::StartMenu::scan()
            .with_seed(seed)
            .with_seats(options.seats.clone()),
    );
    app.insert_resource(state::Seats(options.seats.clone()));
    if options.present.is_some() || options.showcase.is_some() {
        app.insert_resource(state::Presenting(true));
    }
    if let Some(scenarios) = options.showcase {
        app.insert_resource(present::showcase::Showcase::new(scenarios, seed));
    }
    app.insert_resource(crate::game::emergency::EmergencySave);
    if let Some(notice) = crate::game::emergency::crash_notice() {
        app.insert_resource(saves::CrashNotice(notice));
    }
    if let Some(attack) = options.attack {
        app.insert_resource(attack);
    }
    if let Some((address, name)) = options.online {
        app.insert_resource(online::ConnectAtStart { address, name });
    }
    // Benchmarks, screenshots and scripted attacks count frames: they run flat out. Otherwise the
    // window sleeps until something happens.
    let counts_frames = options.bench_frames.is_some() || screenshot_wanted || attack_scripted;
    app.insert_resource(redraw::Continuous(counts_frames));
    if let Some(start) = start {
        app.insert_resource(start);
    }
    match options.edit {
        Some(Some(path)) => match editor::Editor::load(path) {
            Ok(e) => {
                app.insert_resource(e);
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
        Some(None) => {
            app.insert_resource(editor::default_new());
        }
        None => {}
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// `--screenshot` and `--bench-frames`: with both, the benchmark takes the picture, of the pan at
/// 1:1 halfway through (`frame_bench.rs`).
fn add_capture(app: &mut App, screenshot: Option<ScreenshotRequest>, bench_frames: Option<u32>) {
    match (screenshot, bench_frames) {
        (Some(shot), Some(frames)) => {
            app.insert_resource(frame_bench::FrameBench::new(frames).with_shot(shot.path));
        }
        (Some(shot), None) => {
            app.insert_resource(shot).add_systems(Update, take_screenshot);
        }
        (None, Some(frames)) => {
            app.insert_resource(frame_bench::FrameBench::new(frames));
        }
        (None, None) => {}
    }
}

/// The game's window: 1600×1000, or a capture's exact size in presentation mode.
fn primary_window(title: String, options: &RunOptions) -> Window {
    let (width, height) = options.present.map_or((1600, 1000), state::FrameSize::pixels);
    Window {
        title,
        // A capture's size exactly, whatever the desktop's scaling.
        resolution: if options.present.is_some() {
            WindowResolution::new(width, height).with_scale_factor_override(1.0)
        } else {
            WindowResolution::new(width, height)
        },
        // A presentation window with the transparent background can be composited. Only then:
        // a transparent window shows nothing where nothing composites it (Xvfb, some drivers).
        transparent: options.present.is_some()
            && settings::saved().streaming.background == state::Background::Transparent,
        // A benchmark counts frames as fast as they come, not as the display shows them.
        present_mode: if options.bench_frames.is_some() {
            bevy::window::PresentMode::AutoNoVsync
        } else {
            default()
        },
        ..default()
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
