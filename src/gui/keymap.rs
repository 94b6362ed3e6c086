//! The one keymap of the game client: every key it answers, the action each means and its line
//! in the controls window (F1). `read_keys` turns the keyboard into this frame's actions once,
//! before any screen reads them (`Keys::just`, `Keys::held`), with the rules every screen used to
//! repeat: a plain key does nothing while Ctrl, Cmd or Alt is held (those are the menu's chords),
//! nor while a text field has the keyboard, unless it is one a dialog answers to (Enter, Esc).
//! A key may serve several actions whose screens never take it at once (Enter ends the phase on
//! the board and confirms a dialog); each screen asks for its own action.

use bevy::prelude::*;
use std::collections::HashSet;

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Undo,
    Redo,
    Save,
    /// The editor: save the scenario under another name.
    SaveAs,
    Load,
    NewGame,
    Quit,
    BackToEditor,
    Settings,
    Help,
    RulesReference,
    Score,
    GameLog,
    /// Online: open or close the game's chat.
    Chat,
    ComputerNow,
    Fit,
    Labels,
    Zones,
    Presenting,
    Glide,
    /// Presentation mode: keep the combat's result on screen until pressed again.
    HoldResult,
    NextUpset,
    EndPhase,
    Roll,
    /// Close a dialog, clear the selection, drop the prepared attack.
    Cancel,
    /// Answer a dialog or a question on screen with its highlighted choice.
    Confirm,
    /// The hand-over screen: show the board to the player whose turn it is.
    Continue,
    /// The start screen: start the game chosen.
    Start,
    /// The end-the-turn question's Yes and No.
    Yes,
    No,
    /// Pick the nth of the choices a question offers (1-9).
    Choose(u8),
    ZoomIn,
    ZoomOut,
    PanLeft,
    PanRight,
    PanUp,
    PanDown,
    /// Watching a game: play or pause, a step back or on, to the start or the end.
    ReplayPlay,
    ReplayBack,
    ReplayOn,
    ReplayStart,
    ReplayEnd,
}

/// Which modifier a binding needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chord {
    /// No Ctrl, Cmd or Alt held (Shift may be: it changes what some actions do).
    Plain,
    /// Ctrl (Cmd on macOS).
    Ctrl,
    /// Ctrl and Shift.
    CtrlShift,
}

/// One binding: the keys (any of them), the modifier, the action, and its line in the controls
/// window (`keys` as the window names them; `None`: it shares a line with another binding).
pub struct Binding {
    pub keys: &'static [KeyCode],
    pub chord: Chord,
    pub action: Action,
    /// Taken while a text field has the keyboard (a dialog's Enter and Esc, the F keys, chords).
    pub while_typing: bool,
    pub help: Option<(&'static str, &'static str)>,
}

const fn key(keys: &'static [KeyCode], action: Action, help: Option<(&'static str, &'static str)>) -> Binding {
    Binding {
        keys,
        chord: Chord::Plain,
        action,
        while_typing: false,
        help,
    }
}

const fn always(keys: &'static [KeyCode], action: Action, help: Option<(&'static str, &'static str)>) -> Binding {
    Binding {
        while_typing: true,
        ..key(keys, action, help)
    }
}

const fn ctrl(
    keys: &'static [KeyCode],
    chord: Chord,
    action: Action,
    help: Option<(&'static str, &'static str)>,
) -> Binding {
    Binding {
        keys,
        chord,
        action,
        while_typing: true,
        help,
    }
}

use Action as A;
use KeyCode as K;

/// Every key the game client answers, in the order the controls window lists them.
pub const KEYMAP: &[Binding] = &[
    key(&[K::Space], A::Roll, Some(("Space", "roll the prepared attack"))),
    ctrl(
        &[K::KeyS],
        Chord::Ctrl,
        A::Save,
        Some(("Ctrl+S, Ctrl+O", "save the game, load a saved game")),
    ),
    ctrl(&[K::KeyO], Chord::Ctrl, A::Load, None),
    ctrl(
        &[K::KeyS],
        Chord::CtrlShift,
        A::SaveAs,
        Some((
            "Ctrl+Shift+S",
            "the editor: save the scenario under another name (its tool keys are on its tool bar)",
        )),
    ),
    key(
        &[K::KeyV],
        A::Score,
        Some((
            "V",
            "the score: objective points, who holds what, victory conditions, turns left",
        )),
    ),
    always(
        &[K::F3],
        A::RulesReference,
        Some((
            "F3",
            "the rules reference: the combat system's options, who decides each, terrain effects",
        )),
    ),
    always(
        &[K::F2],
        A::NewGame,
        Some(("F2", "new game (the start screen; asks while a game is being played)")),
    ),
    ctrl(
        &[K::KeyQ],
        Chord::Ctrl,
        A::Quit,
        Some((
            "Ctrl+Q",
            "quit (asks while a game is being played; the game is autosaved first)",
        )),
    ),
    always(
        &[K::F10],
        A::Settings,
        Some(("F10", "settings: UI scale, colour-blind-safe palette")),
    ),
    always(
        &[K::Escape],
        A::Cancel,
        Some((
            "Esc",
            "close a dialog or window (this one, the score, the rules, settings, a report); else clear the selection, cancel the prepared attack",
        )),
    ),
    key(
        &[K::Enter, K::NumpadEnter, K::KeyE],
        A::EndPhase,
        Some(("Enter, E", "end the phase (ending a side's last phase asks first)")),
    ),
    ctrl(
        &[K::KeyZ],
        Chord::Ctrl,
        A::Undo,
        Some((
            "Ctrl+Z, Ctrl+Y",
            "undo the last order (never past a die roll), redo it (also Ctrl+Shift+Z)",
        )),
    ),
    ctrl(&[K::KeyY], Chord::Ctrl, A::Redo, None),
    ctrl(&[K::KeyZ], Chord::CtrlShift, A::Redo, None),
    key(&[K::KeyL], A::GameLog, Some(("L", "show or hide the game log"))),
    key(
        &[K::KeyT],
        A::Chat,
        Some(("T", "online: open the chat (type, Enter sends, Esc closes)")),
    ),
    key(
        &[K::KeyK],
        A::ComputerNow,
        Some(("K", "against the computer: play its orders at once (skip its pace)")),
    ),
    key(
        &[K::KeyA, K::ArrowLeft],
        A::PanLeft,
        Some(("WASD, arrows (or right or middle drag)", "pan")),
    ),
    key(&[K::KeyD, K::ArrowRight], A::PanRight, None),
    key(&[K::KeyW, K::ArrowUp], A::PanUp, None),
    key(&[K::KeyS, K::ArrowDown], A::PanDown, None),
    key(
        &[K::Equal, K::NumpadAdd],
        A::ZoomIn,
        Some(("+ / - (or the wheel)", "zoom")),
    ),
    key(&[K::Minus, K::NumpadSubtract], A::ZoomOut, None),
    key(&[K::KeyF], A::Fit, Some(("F", "fit the map to the window"))),
    key(&[K::KeyC], A::Labels, Some(("C", "show or hide cell labels"))),
    key(
        &[K::KeyZ],
        A::Zones,
        Some((
            "Z",
            "show or hide the enemy zones of control (hover a cell: arrows from who projects it)",
        )),
    ),
    key(
        &[K::F11],
        A::Presenting,
        Some((
            "F11",
            "presentation mode for streaming: the board fills the frame, large type, a lower third, the odds overlay",
        )),
    ),
    key(
        &[K::KeyG],
        A::Glide,
        Some(("G", "presentation mode: the camera follows the action, or stays put")),
    ),
    key(
        &[K::KeyP],
        A::HoldResult,
        Some((
            "P",
            "presentation mode: hold the combat's result on screen for commentary; P again lets play go on",
        )),
    ),
    key(
        &[K::KeyU],
        A::NextUpset,
        Some((
            "U",
            "watching a game: jump to just before the next upset (the biggest first)",
        )),
    ),
    key(
        &[K::Space],
        A::ReplayPlay,
        Some((
            "Space, ←/→, Home/End",
            "watching a game: play or pause, an order back or on (Shift: a phase), the start or the end",
        )),
    ),
    key(&[K::ArrowLeft], A::ReplayBack, None),
    key(&[K::ArrowRight], A::ReplayOn, None),
    key(&[K::Home], A::ReplayStart, None),
    key(&[K::End], A::ReplayEnd, None),
    always(
        &[K::Enter, K::NumpadEnter],
        A::Confirm,
        Some((
            "Enter, 1-9",
            "a question or dialog on screen: answer with the highlighted choice, or pick the nth",
        )),
    ),
    key(&[K::Digit1], A::Choose(1), None),
    key(&[K::Digit2], A::Choose(2), None),
    key(&[K::Digit3], A::Choose(3), None),
    key(&[K::Digit4], A::Choose(4), None),
    key(&[K::Digit5], A::Choose(5), None),
    key(&[K::Digit6], A::Choose(6), None),
    key(&[K::Digit7], A::Choose(7), None),
    key(&[K::Digit8], A::Choose(8), None),
    key(&[K::Digit9], A::Choose(9), None),
    always(
        &[K::Enter, K::NumpadEnter],
        A::Continue,
        Some((
            "Enter, Space",
            "the hand-over screen: show the board to the player whose turn it is",
        )),
    ),
    key(&[K::Space], A::Continue, None),
    key(
        &[K::Enter, K::NumpadEnter],
        A::Start,
        Some(("Enter", "the start screen: start the game chosen")),
    ),
    key(
        &[K::KeyY],
        A::Yes,
        Some(("Y, N", "the end-the-turn question: end it, keep playing")),
    ),
    key(&[K::KeyN], A::No, None),
    always(
        &[K::F5],
        A::BackToEditor,
        Some((
            "F5",
            "the editor: play-test the scenario; in that game: back to the editor",
        )),
    ),
    always(&[K::F1], A::Help, Some(("F1, H", "this help"))),
    key(&[K::KeyH], A::Help, None),
];

/// What a key may do while a dialog is open (the end-of-turn, concede and leave questions, the
/// Open and Settings windows): answer or close it, open Settings, quit. Nothing reaches the board
/// or the editor behind it.
pub const DIALOG_ACTIONS: &[Action] = &[
    A::Confirm,
    A::Cancel,
    A::Yes,
    A::No,
    A::Choose(1),
    A::Choose(2),
    A::Choose(3),
    A::Choose(4),
    A::Choose(5),
    A::Choose(6),
    A::Choose(7),
    A::Choose(8),
    A::Choose(9),
    A::Settings,
    A::Quit,
];

/// This frame's actions, read once from the keyboard (`read_keys`).
#[derive(Resource, Default, Debug)]
pub struct Keys {
    just: HashSet<Action>,
    held: HashSet<Action>,
    shift: bool,
}

impl Keys {
    /// Whether a key of `action` went down this frame.
    pub fn just(&self, action: Action) -> bool {
        self.just.contains(&action)
    }

    /// Whether a key of `action` is held.
    pub fn held(&self, action: Action) -> bool {
        self.held.contains(&action)
    }

    /// Keeps only these of this frame's actions (a screen that takes the rest: the hand-over).
    pub fn keep_only(&mut self, kept: &[Action]) {
        self.just.retain(|a| kept.contains(a));
        self.held.retain(|a| kept.contains(a));
    }

    /// Whether `action` came this frame, taking it so no screen after this one acts on it too
    /// (Enter dismissing a report does not also end the phase).
    pub fn take(&mut self, action: Action) -> bool {
        self.held.remove(&action);
        self.just.remove(&action)
    }

    /// A window's key: `action` opens or closes it; Esc closes it when open, taking the key (so it
    /// does not also clear the selection or drop the prepared attack). The window's new state,
    /// when it changes (so a window left alone is not marked changed).
    pub fn toggled(&mut self, open: bool, action: Action) -> Option<bool> {
        let mut now = open ^ self.just(action);
        if now && self.take(Action::Cancel) {
            now = false;
        }
        (now != open).then_some(now)
    }

    /// Whether Shift is held (a click or a step then does more).
    pub fn shift(&self) -> bool {
        self.shift
    }

    /// The actions of one frame, from which keys are down and went down, whether a text field has
    /// the keyboard and whether a dialog is open (it takes only `DIALOG_ACTIONS`): pure, so the
    /// rules above are tested without a window.
    pub fn of(
        pressed: &dyn Fn(KeyCode) -> bool,
        just_pressed: &dyn Fn(KeyCode) -> bool,
        (typing, dialog): (bool, bool),
    ) -> Self {
        // A modifier pressed and let go within one frame (a fast chord, a macro) still counts.
        let any = |keys: &[KeyCode]| keys.iter().any(|k| pressed(*k) || just_pressed(*k));
        let ctrl = any(&[K::ControlLeft, K::ControlRight, K::SuperLeft, K::SuperRight]);
        let alt = any(&[K::AltLeft, K::AltRight]);
        let shift = any(&[K::ShiftLeft, K::ShiftRight]);
        let mut keys = Keys {
            shift,
            ..Keys::default()
        };
        for b in KEYMAP {
            let chord_held = match b.chord {
                Chord::Plain => !ctrl && !alt,
                Chord::Ctrl => ctrl && !shift,
                Chord::CtrlShift => ctrl && shift,
            };
            if !chord_held || (typing && !b.while_typing) || (dialog && !DIALOG_ACTIONS.contains(&b.action)) {
                continue;
            }
            if b.keys.iter().any(|k| just_pressed(*k)) {
                keys.just.insert(b.action);
            }
            if b.keys.iter().any(|k| pressed(*k)) {
                keys.held.insert(b.action);
            }
        }
        keys
    }
}

/// Whether Ctrl (or Cmd on macOS) is held: the menu's chords, which plain keys then leave alone.
pub fn ctrl_held(keys: &ButtonInput<KeyCode>) -> bool {
    keys.any_pressed([K::ControlLeft, K::ControlRight, K::SuperLeft, K::SuperRight])
}

/// The keymap's lines for the controls window: keys as named, what they do.
pub fn help_lines() -> impl Iterator<Item = (&'static str, &'static str)> {
    KEYMAP.iter().filter_map(|b| b.help)
}

/// Reads the keyboard into `Keys`, before any screen's systems (`KeySet`).
fn read_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut contexts: bevy_egui::EguiContexts,
    dialogs: super::state::Dialogs,
    mut out: ResMut<Keys>,
) {
    let typing = contexts.ctx_mut().is_ok_and(|ctx| ctx.egui_wants_keyboard_input());
    *out = Keys::of(
        &|k| keys.pressed(k),
        &|k| keys.just_pressed(k),
        (typing, dialogs.open()),
    );
}

/// The set the keymap is read in: every system that reads `Keys` runs after it.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeySet;

pub fn plugin(app: &mut App) {
    app.init_resource::<Keys>()
        .add_systems(PreUpdate, read_keys.in_set(KeySet).after(bevy::input::InputSystems));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(down: &[KeyCode], typing: bool) -> Keys {
        Keys::of(&|k| down.contains(&k), &|k| down.contains(&k), (typing, false))
    }

    #[test]
    fn chords_plain_keys_and_typing_follow_the_rules() {
        let cases: [(&[KeyCode], bool, Action, bool); 10] = [
            (&[K::KeyZ], false, A::Zones, true),
            (&[K::ControlLeft, K::KeyZ], false, A::Undo, true),
            (&[K::ControlLeft, K::KeyZ], false, A::Zones, false),
            (&[K::ControlLeft, K::ShiftLeft, K::KeyZ], false, A::Redo, true),
            (&[K::ControlLeft, K::ShiftLeft, K::KeyZ], false, A::Undo, false),
            (&[K::SuperLeft, K::KeyS], false, A::Save, true),
            (&[K::ControlLeft, K::KeyS], false, A::PanDown, false),
            (&[K::KeyE], true, A::EndPhase, false),
            (&[K::Escape], true, A::Cancel, true),
            (&[K::AltLeft, K::KeyL], false, A::GameLog, false),
        ];
        for (down, typing, action, expected) in cases {
            assert_eq!(
                frame(down, typing).just(action),
                expected,
                "{down:?} typing {typing}: {action:?}"
            );
        }
        assert!(frame(&[K::ShiftLeft, K::ArrowRight], false).shift());
        // A dialog open: it takes Enter, Esc, Y/N and the digits; nothing reaches the board.
        let dialog = |down: &[KeyCode]| Keys::of(&|k| down.contains(&k), &|k| down.contains(&k), (false, true));
        assert!(dialog(&[K::Escape]).just(A::Cancel) && dialog(&[K::Enter]).just(A::Confirm));
        assert!(!dialog(&[K::Enter]).just(A::EndPhase) && !dialog(&[K::KeyL]).just(A::GameLog));
        assert!(!dialog(&[K::ControlLeft, K::KeyZ]).just(A::Undo));
        // Ctrl pressed and let go in the same frame as Z: still the chord.
        let fast = Keys::of(
            &|k| k == K::KeyZ,
            &|k| k == K::KeyZ || k == K::ControlLeft,
            (false, false),
        );
        assert!(fast.just(A::Undo) && !fast.just(A::Zones));
    }

    #[test]
    fn a_windows_key_opens_and_closes_it_and_esc_closes_it_taking_the_key() {
        assert_eq!(frame(&[K::KeyV], false).toggled(false, A::Score), Some(true));
        assert_eq!(frame(&[K::KeyV], false).toggled(true, A::Score), Some(false));
        let mut esc = frame(&[K::Escape], false);
        assert_eq!(esc.toggled(true, A::Score), Some(false));
        assert!(!esc.just(A::Cancel), "the Esc that closed the window is taken");
        let mut esc = frame(&[K::Escape], false);
        assert_eq!(esc.toggled(false, A::Score), None, "a closed window is left alone");
        assert!(esc.just(A::Cancel), "and Esc goes on to the board");
        assert_eq!(frame(&[], false).toggled(true, A::Score), None);
    }

    #[test]
    fn every_action_has_a_key_and_every_binding_a_line_or_a_sibling() {
        let mut lines = 0;
        for (i, b) in KEYMAP.iter().enumerate() {
            assert!(!b.keys.is_empty(), "binding {i} has no key");
            match b.help {
                Some((keys, what)) => {
                    assert!(!keys.is_empty() && !what.is_empty(), "binding {i}");
                    lines += 1;
                }
                // A binding without a line shares one with a binding above it.
                None => assert!(KEYMAP[..i].iter().any(|o| o.help.is_some()), "binding {i}"),
            }
        }
        assert_eq!(help_lines().count(), lines);
        // Two bindings of one key and chord are two actions of screens that never take it at
        // once; the same action twice would be a slip.
        for (i, a) in KEYMAP.iter().enumerate() {
            for b in &KEYMAP[..i] {
                let shared = a.chord == b.chord && a.keys.iter().any(|k| b.keys.contains(k));
                assert!(!(shared && a.action == b.action), "{:?} bound twice", a.action);
            }
        }
    }
}
