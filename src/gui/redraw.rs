//! Idle when idle: the window redraws only on input, window events and work in progress (a
//! computer's turn, a replay playing, arrows fading, a key held), so a still board costs no CPU.
//! Features that animate ask for frames with `RequestRedraw`; this plugin adds a few frames after
//! every input so the changes it causes (state changes a frame apart, egui's second pass) settle.

use crate::game::phase::{GameState, Phase};
use bevy::input::keyboard::KeyboardInput;
use bevy::input::mouse::{MouseButtonInput, MouseWheel};
use bevy::prelude::*;
use bevy::window::{CursorMoved, RequestRedraw, WindowFocused, WindowResized};
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_egui::egui;
use std::time::Duration;

/// Frames drawn after the last input or change, so what it set off finishes on screen.
const SETTLE_FRAMES: u32 = 6;

/// How long the start screen sleeps between looks at its folders (files changed on disk).
const START_SCREEN_WAKE: Duration = Duration::from_secs(2);

/// How long a board with nothing happening sleeps between frames when nothing wakes it.
const BOARD_WAKE: Duration = Duration::from_secs(60);

/// The update modes of an interactive window: reactive, waking on input and on requests only.
pub fn reactive_settings(wait: Duration) -> WinitSettings {
    WinitSettings {
        focused_mode: UpdateMode::reactive_low_power(wait),
        unfocused_mode: UpdateMode::reactive_low_power(wait.max(Duration::from_secs(60))),
    }
}

/// Whether the window runs flat out (benchmarks, screenshots, scripted attacks count frames).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Continuous(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Continuous>()
        .add_systems(Startup, choose_update_mode)
        .add_systems(OnEnter(GameState::NoGame), choose_update_mode)
        .add_systems(OnExit(GameState::NoGame), choose_update_mode)
        .add_systems(Last, settle_after_input);
    app.add_systems(
        PreUpdate,
        drop_unchanged_modifiers
            .after(bevy_egui::EguiInputSet::WriteEguiEvents)
            .before(bevy_egui::EguiPreUpdateSet::BeginPass),
    );
}

/// Reactive everywhere; the start screen wakes every two seconds to see files changed on disk.
fn choose_update_mode(
    continuous: Res<Continuous>,
    state: Option<Res<State<GameState>>>,
    mut settings: ResMut<WinitSettings>,
) {
    *settings = if continuous.0 {
        WinitSettings::continuous()
    } else if state.is_none_or(|s| *s.get() == GameState::NoGame) {
        reactive_settings(START_SCREEN_WAKE)
    } else {
        reactive_settings(BOARD_WAKE)
    };
}

/// Keeps drawing a few frames after input, a window change or a phase change.
#[allow(clippy::too_many_arguments)]
fn settle_after_input(
    mut keys: MessageReader<KeyboardInput>,
    mut buttons: MessageReader<MouseButtonInput>,
    mut wheel: MessageReader<MouseWheel>,
    mut cursor: MessageReader<CursorMoved>,
    mut resized: MessageReader<WindowResized>,
    mut focused: MessageReader<WindowFocused>,
    game: Option<Res<State<GameState>>>,
    phase: Option<Res<State<Phase>>>,
    mut left: Local<u32>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let input = keys.read().count()
        + buttons.read().count()
        + wheel.read().count()
        + cursor.read().count()
        + resized.read().count()
        + focused.read().count()
        > 0;
    let changed = game.is_some_and(|s| s.is_changed()) || phase.is_some_and(|s| s.is_changed());
    if input || changed {
        *left = SETTLE_FRAMES;
    }
    if *left > 0 {
        *left -= 1;
        redraw.write(RequestRedraw);
    }
}

/// bevy_egui 0.42 tells egui the modifier keys every frame as an event, and egui answers any
/// event by asking for the next frame: the window never sleeps. Only a change is passed on.
fn drop_unchanged_modifiers(mut inputs: Query<&mut bevy_egui::EguiInput>, mut last: Local<Option<egui::Modifiers>>) {
    for mut input in &mut inputs {
        input.0.events.retain(|e| match e {
            egui::Event::ModifiersChanged(m) => {
                let changed = *last != Some(*m);
                *last = Some(*m);
                changed
            }
            _ => true,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_still_board_sleeps_and_wakes_only_on_input() {
        let settings = reactive_settings(BOARD_WAKE);
        for mode in [settings.focused_mode, settings.unfocused_mode] {
            match mode {
                UpdateMode::Reactive {
                    wait,
                    react_to_device_events,
                    ..
                } => {
                    assert!(wait >= Duration::from_secs(60), "wakes every {wait:?}");
                    assert!(!react_to_device_events, "raw mouse motion outside the window wakes it");
                }
                UpdateMode::Continuous => panic!("a still board redraws continuously"),
            }
        }
    }

    #[test]
    fn input_draws_a_few_frames_then_stops() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_message::<KeyboardInput>()
            .add_message::<MouseButtonInput>()
            .add_message::<MouseWheel>()
            .add_message::<CursorMoved>()
            .add_message::<WindowResized>()
            .add_message::<WindowFocused>()
            .add_message::<RequestRedraw>()
            .add_systems(Last, settle_after_input);
        let requests = |app: &mut App| {
            app.update();
            app.world_mut()
                .resource_mut::<Messages<RequestRedraw>>()
                .drain()
                .count()
        };
        assert_eq!(requests(&mut app), 0, "nothing happened, yet a frame was asked for");
        app.world_mut().write_message(WindowFocused {
            window: Entity::PLACEHOLDER,
            focused: true,
        });
        let asked: Vec<usize> = (0..SETTLE_FRAMES + 3).map(|_| requests(&mut app)).collect();
        assert_eq!(asked.iter().sum::<usize>(), SETTLE_FRAMES as usize, "{asked:?}");
        assert_eq!(asked.last(), Some(&0));
    }
}
