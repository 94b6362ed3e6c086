//! Player settings (UI scale, colour-blind-safe palette), remembered between runs in
//! `settings.ron` in the data folder, and the palette every overlay draws with.

use super::state::{Background, ByRenderer, Palette, Settings, SettingsFile, Streaming, software_renderer};
use crate::storage;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

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
        .add_systems(
            Update,
            (toggle_window, save_and_apply).chain().before(super::state::HudSystems),
        )
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

fn toggle_window(mut keys: ResMut<super::keymap::Keys>, mut file: ResMut<SettingsFile>) {
    if let Some(open) = keys.toggled(file.open, super::keymap::Action::Settings) {
        file.open = open;
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
    presenting: Res<super::state::Presenting>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut scale = settings.ui_scale;
    if presenting.0
        && let Ok(w) = window.single()
    {
        scale = super::state::zoom(w.resolution.height(), scale);
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
    use super::state::{FrameSize, set_frame_size};
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
            "Around the map in presentation mode: dark, a chroma-key colour for your streaming software to key out (magenta and blue appear nowhere on the board; green keys out green terrain too), or transparent (a window started with --present is transparent where the desktop composites it)",
        );
        for (value, name) in [
            (Background::Solid, "Dark"),
            (Background::Magenta, "Magenta screen"),
            (Background::Blue, "Blue screen"),
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
