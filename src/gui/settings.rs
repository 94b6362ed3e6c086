//! Player settings (UI scale, colour-blind-safe palette), remembered between runs in
//! `settings.ron` in the data folder, and the palette every overlay draws with.

use crate::storage;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What the player chose; saved whenever it changes.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// egui's zoom: 1.0 is normal, up to 2.0 for big screens and streams.
    pub ui_scale: f32,
    /// Okabe-Ito colours for overlays and panels, safe for every common colour-vision deficiency.
    pub colour_blind: bool,
    /// Ask before the phase that ends a side's player turn is ended.
    pub confirm_end_turn: bool,
    /// Smooth edges on the board (multisampling).
    pub antialiasing: ByRenderer,
    /// Soft shadows under windows, menus and tooltips.
    pub shadows: ByRenderer,
    /// In hotseat, hide the board between two players' turns until the next one is seated.
    pub hand_over: bool,
    /// Presentation mode's pacing, camera and background (for streamers).
    pub streaming: Streaming,
}

/// How presentation mode shows a game to viewers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Streaming {
    /// Seconds the dice tumble before the result shows.
    pub roll_secs: f32,
    /// Seconds a combat's result stays on screen (the replay theatre and showcase wait for it).
    pub hold_secs: f32,
    /// The camera glides to each move and combat; off: it stays where the streamer put it.
    pub follow_camera: bool,
    /// Behind the map: the usual dark, chroma-key green, or transparent (for compositing).
    pub background: Background,
    /// Showcase: orders a second the computer players give.
    pub showcase_pace: f32,
}

impl Default for Streaming {
    fn default() -> Self {
        Self {
            roll_secs: 1.6,
            hold_secs: 4.0,
            follow_camera: true,
            background: Background::Solid,
            showcase_pace: 2.0,
        }
    }
}

/// What presentation mode shows around the map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Background {
    #[default]
    Solid,
    /// Chroma-key green, for keying out in streaming software.
    Green,
    /// Transparent where the window system composites it (`--present` windows are made so).
    Transparent,
}

/// A look that costs a graphics card little and a software renderer (no graphics driver, every
/// pixel shaded on the processor) much: multisampled board edges, soft shadows under windows.
/// `Auto` has it on a graphics card only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ByRenderer {
    #[default]
    Auto,
    On,
    Off,
}

impl ByRenderer {
    /// Whether to have it, given whether the renderer runs on the CPU.
    pub fn wanted(self, software_renderer: bool) -> bool {
        match self {
            ByRenderer::Auto => !software_renderer,
            ByRenderer::On => true,
            ByRenderer::Off => false,
        }
    }
}

/// Whether the renderer runs on the processor (Mesa's llvmpipe and the like).
pub fn software_renderer(adapter: &bevy::render::renderer::RenderAdapterInfo) -> bool {
    // wgpu's DeviceType is not re-exported by Bevy; its Debug name is stable ("Cpu").
    format!("{:?}", adapter.device_type) == "Cpu"
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            ui_scale: 1.0,
            colour_blind: false,
            confirm_end_turn: true,
            antialiasing: ByRenderer::Auto,
            shadows: ByRenderer::Auto,
            hand_over: true,
            streaming: Streaming::default(),
        }
    }
}

/// Where settings live, and whether the settings window is open.
#[derive(Resource, Clone, Debug)]
pub struct SettingsFile {
    pub path: PathBuf,
    pub open: bool,
    /// A problem reading or writing the file, shown in the window.
    pub problem: Option<String>,
}

/// The colours of everything drawn over the board and in the panels.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    pub reach: Color,
    pub must_stop: Color,
    pub enemy_zoc: Color,
    pub retreat: Color,
    pub advance: Color,
    pub target: Color,
    pub good: egui::Color32,
    pub bad: egui::Color32,
    pub warn: egui::Color32,
    pub highlight: egui::Color32,
}

impl Palette {
    pub fn for_settings(s: &Settings) -> Self {
        if s.colour_blind {
            // Okabe & Ito, "Color Universal Design" (2008).
            Palette {
                reach: Color::srgb_u8(86, 180, 233),
                must_stop: Color::srgb_u8(230, 159, 0),
                enemy_zoc: Color::srgb_u8(204, 121, 167),
                retreat: Color::srgb_u8(213, 94, 0),
                advance: Color::srgb_u8(0, 114, 178),
                target: Color::srgb_u8(240, 228, 66),
                good: egui::Color32::from_rgb(86, 180, 233),
                bad: egui::Color32::from_rgb(213, 94, 0),
                warn: egui::Color32::from_rgb(230, 159, 0),
                highlight: egui::Color32::from_rgb(0, 114, 178),
            }
        } else {
            Palette {
                reach: Color::srgb(1.0, 0.9, 0.2),
                must_stop: Color::srgb(1.0, 0.45, 0.1),
                enemy_zoc: Color::srgb(0.95, 0.2, 0.2),
                retreat: Color::srgb(0.9, 0.15, 0.1),
                advance: Color::srgb(0.15, 0.8, 0.25),
                target: Color::srgb(1.0, 0.3, 0.3),
                good: egui::Color32::from_rgb(90, 170, 90),
                bad: egui::Color32::from_rgb(220, 60, 40),
                warn: egui::Color32::from_rgb(220, 140, 40),
                highlight: egui::Color32::from_rgb(40, 110, 200),
            }
        }
    }

    /// An egui colour from a Bevy one.
    pub fn egui(c: Color) -> egui::Color32 {
        let s = c.to_srgba();
        egui::Color32::from_rgb((s.red * 255.0) as u8, (s.green * 255.0) as u8, (s.blue * 255.0) as u8)
    }
}

pub(super) fn plugin(app: &mut App) {
    let path = storage::data_dir().join("settings.ron");
    let (settings, problem) = load(&path);
    app.insert_resource(Palette::for_settings(&settings))
        .insert_resource(settings)
        .insert_resource(SettingsFile {
            path,
            open: false,
            problem,
        })
        .add_systems(Update, (toggle_window, save_and_apply).chain())
        .add_systems(
            EguiPrimaryContextPass,
            (apply_scale, apply_shadows, settings_window).chain(),
        );
}

/// The player's saved settings (the defaults when there are none), read before the window opens.
pub fn saved() -> Settings {
    load(&storage::data_dir().join("settings.ron")).0
}

/// Reads the settings file; a missing file gives the defaults, a broken one the defaults and why.
fn load(path: &std::path::Path) -> (Settings, Option<String>) {
    match std::fs::read_to_string(path) {
        Err(_) => (Settings::default(), None),
        Ok(text) => match ron::from_str::<Settings>(&text) {
            Ok(s) => (s.clamped(), None),
            Err(e) => {
                let why = format!("{}: {e}; using the defaults", path.display());
                warn!("settings: {why}");
                (Settings::default(), Some(why))
            }
        },
    }
}

impl Settings {
    fn clamped(mut self) -> Self {
        self.ui_scale = if self.ui_scale.is_finite() {
            self.ui_scale.clamp(0.75, 2.0)
        } else {
            1.0
        };
        let st = &mut self.streaming;
        let finite_or = |x: f32, d: f32, lo: f32, hi: f32| if x.is_finite() { x.clamp(lo, hi) } else { d };
        st.roll_secs = finite_or(st.roll_secs, 1.6, 0.0, 10.0);
        st.hold_secs = finite_or(st.hold_secs, 4.0, 0.5, 60.0);
        st.showcase_pace = finite_or(st.showcase_pace, 2.0, 0.2, 20.0);
        self
    }
}

fn toggle_window(keys: Res<ButtonInput<KeyCode>>, mut file: ResMut<SettingsFile>) {
    if keys.just_pressed(KeyCode::F10) {
        file.open = !file.open;
    }
}

fn save_and_apply(settings: Res<Settings>, mut palette: ResMut<Palette>, mut file: ResMut<SettingsFile>) {
    if !settings.is_changed() || settings.is_added() {
        return;
    }
    *palette = Palette::for_settings(&settings);
    let text = match ron::ser::to_string_pretty(&*settings, ron::ser::PrettyConfig::default().new_line("\n")) {
        Ok(t) => t,
        Err(e) => {
            file.problem = Some(format!("cannot write settings: {e}"));
            return;
        }
    };
    file.problem = storage::write_atomic(&file.path, &text).err();
}

/// The UI scale: the setting's, or presentation mode's (`present::zoom`).
fn apply_scale(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    presenting: Res<super::present::Presenting>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut scale = settings.ui_scale;
    if presenting.0
        && let Ok(w) = window.single()
    {
        scale = super::present::zoom(w.resolution.height(), scale);
    }
    if (ctx.zoom_factor() - scale).abs() > 0.001 {
        ctx.set_zoom_factor(scale);
    }
    Ok(())
}

/// A row for a `ByRenderer` setting: its name (with what it does on hover) and Auto/On/Off.
fn by_renderer(ui: &mut egui::Ui, name: &str, hover: &str, value: &mut ByRenderer) {
    ui.horizontal(|ui| {
        ui.label(name).on_hover_text(hover);
        for (choice, label) in [
            (ByRenderer::Auto, "Auto"),
            (ByRenderer::On, "On"),
            (ByRenderer::Off, "Off"),
        ] {
            ui.selectable_value(value, choice, label);
        }
    });
}

/// Shadows under egui's windows and popups as the settings ask, once the renderer has said what
/// it runs on.
fn apply_shadows(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
) -> Result {
    let Some(adapter) = adapter else { return Ok(()) };
    let wanted = settings.shadows.wanted(software_renderer(&adapter));
    let ctx = contexts.ctx_mut()?;
    let shown = ctx.global_style().visuals.window_shadow != egui::Shadow::NONE;
    if shown != wanted {
        for (theme, stock) in [
            (egui::Theme::Dark, egui::Visuals::dark()),
            (egui::Theme::Light, egui::Visuals::light()),
        ] {
            ctx.style_mut_of(theme, |style| {
                let (window, popup) = if wanted {
                    (stock.window_shadow, stock.popup_shadow)
                } else {
                    (egui::Shadow::NONE, egui::Shadow::NONE)
                };
                style.visuals.window_shadow = window;
                style.visuals.popup_shadow = popup;
            });
        }
    }
    Ok(())
}

/// Sets the window to a capture's exact size.
fn frame_size_buttons(ui: &mut egui::Ui, window: &mut Window) {
    use super::present::{FrameSize, set_frame_size};
    ui.horizontal(|ui| {
        ui.label("Window")
            .on_hover_text("A capture's exact size (also --present 1080 or --present 720)");
        for (size, name) in [(FrameSize::Full, "1920×1080"), (FrameSize::Hd, "1280×720")] {
            let (w, h) = size.pixels();
            let now = window.resolution.physical_width() == w && window.resolution.physical_height() == h;
            if ui.selectable_label(now, name).clicked() {
                set_frame_size(window, size);
            }
        }
    });
}

/// The settings' streaming part: pacing, camera, background.
fn streaming_settings(ui: &mut egui::Ui, st: &mut Streaming) {
    ui.separator();
    ui.strong("Streaming (presentation mode, F11)");
    ui.add(egui::Slider::new(&mut st.roll_secs, 0.0..=5.0).text("s the dice tumble"))
        .on_hover_text("How long the roll is animated before the result shows");
    ui.add(egui::Slider::new(&mut st.hold_secs, 0.5..=15.0).text("s a result stays"))
        .on_hover_text("How long a combat's result stays on screen; the replay theatre and the showcase wait for it");
    ui.add(
        egui::Slider::new(&mut st.showcase_pace, 0.2..=10.0)
            .logarithmic(true)
            .text("orders a second (showcase)"),
    );
    ui.checkbox(&mut st.follow_camera, "Camera follows the action")
        .on_hover_text("The camera glides to each move and combat; off, it stays where you put it (G toggles)");
    ui.horizontal(|ui| {
        ui.label("Background").on_hover_text(
            "Around the map in presentation mode: dark, chroma-key green, or transparent (a window started with --present is transparent where the desktop composites it)",
        );
        for (value, name) in [
            (Background::Solid, "Dark"),
            (Background::Green, "Green screen"),
            (Background::Transparent, "Transparent"),
        ] {
            ui.selectable_value(&mut st.background, value, name);
        }
    });
}

fn settings_window(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    mut file: ResMut<SettingsFile>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut open = file.open;
    let mut edited = settings.clone();
    egui::Window::new("Settings (F10)")
        .open(&mut open)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.add(egui::Slider::new(&mut edited.ui_scale, 0.75..=2.0).text("UI scale"))
                .on_hover_text("Size of every panel and label; larger for big screens and streams. Presentation mode (F11) uses at least 1.71 at 1080 lines, 1.14 at 720");
            ui.checkbox(&mut edited.colour_blind, "Colour-blind-safe palette")
                .on_hover_text("Okabe-Ito colours for reach, zones of control, retreats, advances and odds");
            ui.checkbox(&mut edited.confirm_end_turn, "Ask before ending a side's turn")
                .on_hover_text("A stray Enter at the last phase asks first; undo (Ctrl+Z) can still take an end back");
            ui.checkbox(&mut edited.hand_over, "Hand-over screen between players")
                .on_hover_text("Hotseat: the board is hidden when the turn passes to the other player, until they click, so neither sees the other's hidden choices");
            by_renderer(
                ui,
                "Smooth edges",
                "Multisampling: smoother hex edges and counters. Auto turns it off when the graphics run on the processor (no driver), where it costs most of each frame",
                &mut edited.antialiasing,
            );
            by_renderer(
                ui,
                "Shadows",
                "Soft shadows under windows, menus and tooltips. Auto turns them off when the graphics run on the processor (no driver), where the game log's alone costs a quarter of each frame",
                &mut edited.shadows,
            );
            streaming_settings(ui, &mut edited.streaming);
            if let Ok(mut window) = windows.single_mut() {
                frame_size_buttons(ui, &mut window);
            }
            ui.label(
                egui::RichText::new(format!("Saved in {}", file.path.display()))
                    .small()
                    .weak(),
            );
            if let Some(p) = &file.problem {
                ui.colored_label(egui::Color32::from_rgb(220, 60, 40), p);
            }
        });
    file.open = open;
    if edited != *settings {
        *settings = edited;
    }
    Ok(())
}
