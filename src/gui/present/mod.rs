//! Presentation mode, for streamers (F11, or `--present 1080|720` on the command line): the board
//! fills the frame, the player's panels are hidden, type is large enough for a phone watching the
//! stream, and a lower third carries the scenario, turn, side, phase, score and the current
//! combat. The odds overlay (`overlay.rs`), moves gliding along their paths with a camera that
//! follows (`glide.rs`) and the computer-vs-computer showcase (`showcase.rs`) belong to it.

pub mod card;
mod curtain;
pub mod glide;
pub mod overlay;
pub mod showcase;
pub mod stage;
pub mod theatre;
pub mod victory;

use super::layout::Layout;
use super::state::BoardCamera;
use super::state::{Background, Settings};
use crate::game::components::{GameMap, ScenarioSource, Sides};
use crate::game::phase::{Phase, TurnState};
use crate::gui::state::{LOWER_THIRD, Presenting, on};
use crate::show::director::{fit_whole, presentation_screen};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, RequestRedraw};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The parts of the frame the map keeps clear of in presentation mode, in pixels: the overlay's
/// column on the right (when the map fits beside it) and the lower third (and the theatre's
/// timeline) at the bottom.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Frame {
    pub right: f32,
    pub bottom: f32,
    /// The camera's place and scale with the whole map fitted (the camera returns there after
    /// zooming in on a combat).
    pub fit: Option<(Vec2, f32)>,
}

/// The usual colour behind the map (the client's `ClearColor`).
pub const DARK: Color = Color::srgb(0.16, 0.17, 0.19);
/// Chroma-key green (the broadcast standard's 0, 177, 64).
const GREEN: Color = Color::srgb(0.0, 0.694, 0.251);
/// Chroma-key magenta and blue: colours the board never uses.
pub const MAGENTA: Color = Color::srgb(1.0, 0.0, 1.0);
pub const BLUE: Color = Color::srgb(0.0, 71.0 / 255.0, 187.0 / 255.0);

/// The panels' fill: opaque on every background, so text keeps its contrast over the busiest map
/// and nothing keys out over a chroma colour.
pub fn panel_fill() -> egui::Color32 {
    egui::Color32::from_rgb(14, 16, 20)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Presenting>()
        .init_resource::<Frame>()
        .add_plugins((
            overlay::plugin,
            glide::plugin,
            showcase::plugin,
            curtain::plugin,
            stage::plugin,
            victory::plugin,
        ))
        .add_systems(Update, (toggle, background))
        .add_systems(
            Update,
            fit_frame.run_if(on.and_then(resource_exists::<Layout>).and_then(super::board_shown)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            lower_third
                .run_if(
                    on.and_then(resource_exists::<TurnState>)
                        .and_then(resource_exists::<ScenarioSource>)
                        .and_then(resource_exists::<Sides>)
                        .and_then(super::board_shown),
                )
                .after(overlay::OverlaySystems),
        );
}

/// F11 turns presentation mode on and off; turning it on fits the map to the frame.
fn toggle(
    keys: Res<super::keymap::Keys>,
    mut presenting: ResMut<Presenting>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if keys.just(super::keymap::Action::Presenting) {
        presenting.0 = !presenting.0;
        redraw.write(RequestRedraw);
    }
}

/// The map fills the frame above the lower third: when presentation mode starts, a board appears,
/// the window changes size, or F is pressed.
fn fit_frame(
    presenting: Res<Presenting>,
    layout: Res<Layout>,
    keys: Res<super::keymap::Keys>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut camera: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
    replay: Option<Res<super::state::Replay>>,
    mut frame: ResMut<Frame>,
    settings: Res<Settings>,
    mut fitted_to: Local<Vec2>,
) {
    let Ok(window) = windows.single() else { return };
    let replay_opened = replay.as_ref().is_some_and(|r| r.is_added());
    let size = Vec2::new(window.width(), window.height());
    let asked = presenting.is_changed()
        || layout.is_added()
        || keys.just(super::keymap::Action::Fit)
        || replay_opened
        || settings.is_changed();
    // The window's size changed (its other fields change with every move of the mouse).
    if !(asked || size != *fitted_to) {
        return;
    }
    *fitted_to = size;
    let Ok((mut t, mut projection)) = camera.single_mut() else {
        return;
    };
    let Projection::Orthographic(o) = projection.as_mut() else {
        return;
    };
    // Centred in the whole frame above the lower third: the overlay comes with a combat, and
    // the director frames each combat clear of it.
    let theatre = if replay.is_some() { theatre::COMPACT_HEIGHT } else { 0.0 };
    let screen = presentation_screen(size, settings.ui_scale, false, theatre);
    let shot = fit_whole(layout.bounds(), &screen);
    o.scale = shot.scale;
    t.translation = shot.center.extend(t.translation.z);
    info!(
        "director: whole map in a {}×{} frame at {:.2} world units a pixel",
        size.x, size.y, shot.scale
    );
    *frame = Frame {
        right: screen.overlay,
        bottom: screen.lower_third,
        fit: None,
    };
    frame.fit = Some((t.translation.truncate(), o.scale));
}

/// Behind the map: the streaming setting's colour while presenting, the usual dark otherwise.
fn background(presenting: Res<Presenting>, settings: Res<Settings>, mut clear: ResMut<ClearColor>) {
    if !(presenting.is_changed() || settings.is_changed()) {
        return;
    }
    let want = if presenting.0 {
        match settings.streaming.background {
            Background::Solid => DARK,
            Background::Green => GREEN,
            Background::Magenta => MAGENTA,
            Background::Blue => BLUE,
            Background::Transparent => Color::NONE,
        }
    } else {
        DARK
    };
    if clear.0 != want {
        clear.0 = want;
    }
}

/// The lower third: scenario, turn, side to play, phase and score on the left; the current
/// combat (or the last one's result) on the right.
fn lower_third(
    mut contexts: EguiContexts,
    (turn, map, sides, source): (Res<TurnState>, Res<GameMap>, Res<Sides>, Res<ScenarioSource>),
    // None once the game is over (the phase is a sub-state of play).
    phase: Option<Res<State<Phase>>>,
    control: Option<Res<crate::game::victory::ObjectiveControl>>,
    overlay: Res<overlay::Overlay>,
    window: Query<&Window, With<PrimaryWindow>>,
    (time, settings): (Res<Time>, Res<Settings>),
    showcase: Option<Res<showcase::Showcase>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let width = window.single().map_or(1280.0, |w| w.width()) / ctx.zoom_factor();
    let frame = egui::Frame::new()
        .fill(panel_fill())
        .inner_margin(egui::Margin::symmetric(18, 8));
    egui::Area::new(egui::Id::new("lower-third"))
        .fade_in(false)
        .anchor(egui::Align2::LEFT_BOTTOM, [0.0, 0.0])
        .interactable(false)
        .show(ctx, |ui| {
            frame.show(ui, |ui| {
                ui.set_width(width - 36.0);
                ui.set_min_height(
                    window.single().map_or(72.0, |w| w.height() * LOWER_THIRD) / ctx.zoom_factor() - 16.0,
                );
                ui.horizontal(|ui| {
                    ui.vertical(|ui| {
                        ui.label(
                            egui::RichText::new(&source.0.name)
                                .size(20.0)
                                .strong()
                                .color(egui::Color32::WHITE),
                        );
                        ui.horizontal(|ui| {
                            let side = &sides.0[turn.active.0];
                            let [r, g, b] = side.color;
                            ui.label(
                                egui::RichText::new(format!("Turn {} of {}", turn.turn, turn.last_turn))
                                    .size(16.0)
                                    .color(egui::Color32::from_gray(225)),
                            );
                            ui.label(egui::RichText::new("·").size(16.0));
                            // Over, the game is no side's to play: the victory card says who won.
                            let phase = match phase.as_ref() {
                                Some(p) => {
                                    side_chip(ui, [r, g, b], &short_name(&side.name), 16.0);
                                    format!("{:?} phase", p.get())
                                }
                                None => "Game over".to_string(),
                            };
                            ui.label(
                                egui::RichText::new(phase)
                                    .size(16.0)
                                    .color(egui::Color32::from_gray(225)),
                            );
                        });
                    });
                    ui.add_space(24.0);
                    if let Some(control) = control.as_ref().filter(|_| !map.objectives.is_empty()) {
                        let points = crate::game::victory::points_by_side(&map.objectives, &control.0, sides.0.len());
                        ui.vertical(|ui| {
                            ui.label(egui::RichText::new("objective points").size(12.0).weak());
                            ui.horizontal(|ui| {
                                for (side, p) in sides.0.iter().zip(points) {
                                    side_chip(ui, side.color, &format!("{} {p}", short_name(&side.name)), 18.0);
                                    ui.add_space(8.0);
                                }
                            });
                        });
                    }
                    if let Some(show) = &showcase {
                        who_wins(ui, show, &sides);
                    }
                    ui.add_space(24.0);
                    ui.vertical(|ui| {
                        if let Some(line) = overlay.headline(time.elapsed_secs_f64(), &settings) {
                            ui.label(egui::RichText::new("combat").size(12.0).weak());
                            // Two lines at most, wrapped at words (cut only past the second):
                            // the strip never changes height.
                            ui.label(headline(ui, &line, ui.available_width()));
                        }
                    });
                });
            });
        });
    Ok(())
}

/// The combat's headline laid out for the lower third: white, wrapped at words onto two lines at
/// most, in smaller type before an ellipsis (only past the second line at the smallest).
fn headline(ui: &egui::Ui, line: &str, width: f32) -> std::sync::Arc<egui::Galley> {
    card::fitted(ui.painter(), line, width.max(120.0), 2, &[16.0, 14.5, 13.0, 12.0])
}

/// The showcase's `German wins 92%` from its last quick lab run.
fn who_wins(ui: &mut egui::Ui, show: &showcase::Showcase, sides: &Sides) {
    let Some((side, share, turn)) = show.leader(sides) else {
        return;
    };
    ui.add_space(24.0);
    ui.vertical(|ui| {
        ui.label(
            egui::RichText::new(format!("{} quick games from turn {turn}", showcase::QUICK_GAMES))
                .size(12.0)
                .weak(),
        )
        .on_hover_text(format!(
            "Computer against computer (standard), played out on another thread: {} won {:.0}% of them",
            short_name(&side.name),
            share * 100.0
        ));
        ui.horizontal(|ui| {
            let words = crate::show::moments::prediction_words(&short_name(&side.name), share);
            side_chip(ui, side.color, &words, 18.0);
        });
    });
}

/// A side's name short enough for the strip: as it is up to 16 letters, else the initials of its
/// capitalised words (`Korean People's Army` → `KPA`; a part in brackets left out).
pub fn short_name(name: &str) -> String {
    if name.chars().count() <= 16 {
        return name.to_string();
    }
    let plain = name.split('(').next().unwrap_or(name);
    let initials: String = plain
        .split_whitespace()
        .filter_map(|w| w.chars().next().filter(|c| c.is_uppercase()))
        .collect();
    if initials.chars().count() >= 2 {
        initials
    } else {
        name.chars().take(15).chain(['…']).collect()
    }
}

/// A side's colour swatch and a label.
fn side_chip(ui: &mut egui::Ui, [r, g, b]: [u8; 3], text: &str, size: f32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(size * 0.8, size * 0.8), egui::Sense::hover());
    ui.painter().rect_filled(rect, 2.0, egui::Color32::from_rgb(r, g, b));
    ui.label(
        egui::RichText::new(text)
            .size(size)
            .strong()
            .color(egui::Color32::WHITE),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_side_names_shorten_to_their_initials() {
        assert_eq!(short_name("United States"), "United States");
        assert_eq!(short_name("Korean People's Army"), "KPA");
        assert_eq!(short_name("Combined Forces Command (ROK/US)"), "CFC");
        assert_eq!(short_name("a very long lowercase side name"), "a very long low…");
    }

    #[test]
    fn frame_sizes_are_exact_and_others_are_refused_by_name() {
        use crate::gui::state::FrameSize;
        assert_eq!(FrameSize::parse("1080").unwrap().pixels(), (1920, 1080));
        assert_eq!(FrameSize::parse("1280x720").unwrap().pixels(), (1280, 720));
        let e = FrameSize::parse("4k").unwrap_err();
        assert!(e.contains("`4k`") && e.contains("1080") && e.contains("720"), "{e}");
    }
}
