//! Idle when idle: the window redraws only on input, window events and work in progress (a
//! computer's turn, a replay playing, arrows fading, a key held), so a still board costs no CPU.
//! Features that animate ask for frames with `RequestRedraw`; this plugin adds a few frames after
//! every input so the changes it causes (state changes a frame apart, egui's second pass) settle.
//! When the window goes still after a spell of work, memory the allocator holds free goes back
//! to the system.

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
        .add_systems(Last, (settle_after_input, give_back_memory_when_still).chain());
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

/// Frames of work (frames that asked for another) since memory was last given back before a
/// still window gives it back again: a click's settling is enough, the board's minute wake-ups
/// (one frame each, asking for none) never are.
const WORK_BEFORE_GIVING_BACK: u32 = SETTLE_FRAMES;

/// Memory is given back at most this often (the pointer stopping after every move would
/// otherwise trim, and the next frames fault the pages back in).
const GIVE_BACK_AT_MOST_EVERY: Duration = Duration::from_secs(2);

/// Counts the frames of work and the time since memory was last given back.
#[derive(Default)]
struct SinceGivenBack {
    frames_of_work: u32,
    time: Option<Duration>,
}

impl SinceGivenBack {
    /// One frame drawn, `since_last_frame` after the one before; whether to give memory back now:
    /// the window goes still (no frame asked for) after enough frames of work, and not within
    /// `GIVE_BACK_AT_MOST_EVERY` of the last time (the work then counts for the next still frame).
    fn drawn(&mut self, more_frames_asked: bool, since_last_frame: Duration) -> bool {
        self.time = self.time.map(|t| t + since_last_frame);
        if more_frames_asked {
            self.frames_of_work = self.frames_of_work.saturating_add(1);
            return false;
        }
        let give_back =
            self.frames_of_work >= WORK_BEFORE_GIVING_BACK && self.time.is_none_or(|t| t >= GIVE_BACK_AT_MOST_EVERY);
        if give_back {
            self.frames_of_work = 0;
            self.time = Some(Duration::ZERO);
        }
        give_back
    }
}

/// With the window going still, the allocator's free memory goes back to the system: glibc keeps
/// what was freed (the board picture's one-off bake, the software renderer's working textures and
/// shader compiles) in its arenas, where it counts as the process's memory until trimmed.
fn give_back_memory_when_still(
    continuous: Res<Continuous>,
    mut asked: MessageReader<RequestRedraw>,
    mut since: Local<SinceGivenBack>,
    time: Res<Time<Real>>,
) {
    let more_frames_asked = asked.read().count() > 0;
    if !continuous.0 && since.drawn(more_frames_asked, time.delta()) {
        // Off the frame: trimming walks every arena (a few milliseconds).
        bevy::tasks::AsyncComputeTaskPool::get()
            .spawn(async { release_free_memory() })
            .detach();
    }
}

/// Gives the allocator's free pages back to the system (glibc's `malloc_trim`; other allocators
/// and systems return freed memory themselves).
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            safe fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        malloc_trim(0);
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
    fn memory_goes_back_when_the_window_goes_still_after_work_at_most_every_two_seconds() {
        let frame = Duration::from_millis(20);
        let mut since = SinceGivenBack::default();
        // Starting up: frames asked for, then the window goes still.
        assert!(
            (0..20).all(|_| !since.drawn(true, frame)),
            "given back while frames are still asked for"
        );
        assert!(
            since.drawn(false, frame),
            "not given back when the window went still after work"
        );
        // The minute wake-ups of a still board: one frame each, nothing given back.
        assert!((0..10).all(|_| !since.drawn(false, Duration::from_secs(60))));
        // A click: the settle frames, then still again.
        let mut given: Vec<bool> = (0..SETTLE_FRAMES).map(|_| since.drawn(true, frame)).collect();
        given.push(since.drawn(false, frame));
        assert_eq!(given, [vec![false; SETTLE_FRAMES as usize], vec![true]].concat());
        // Another click within two seconds: not yet; its work is given back at the next still
        // frame two seconds on.
        assert!((0..SETTLE_FRAMES).all(|_| !since.drawn(true, frame)));
        assert!(!since.drawn(false, frame), "given back twice within two seconds");
        assert!(since.drawn(false, GIVE_BACK_AT_MOST_EVERY));
        // Whatever the allocator, giving back memory is safe to call at any time.
        release_free_memory();
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
