//! The state many of the client's screens read: the player's settings and palette, presentation
//! mode and its frame, the board camera and whether the pointer is over a panel, the selection and
//! what is hovered, the orders a click sends, the seats, the replay being watched, and the system
//! sets others order themselves by. A leaf: it imports no other screen.

use crate::ai::Profile;
use crate::game::autosave::Autosave;
use crate::game::log::LogEntry;
use crate::game::order::Order;
use crate::game::save::LoadedGame;
use crate::rules::grid::Cell;
use crate::rules::movement::Reach;
use crate::scenario::Scenario;
use crate::storage::SaveFile;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::egui;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

// From settings.
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
    /// Chroma-key green, for keying out in streaming software (maps with green terrain key out
    /// with it: magenta or blue is safer).
    Green,
    /// Chroma-key magenta: no map, counter or panel colour comes near it.
    Magenta,
    /// Chroma-key blue (the broadcast standard's 0, 71, 187).
    Blue,
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

impl Settings {
    pub(super) fn clamped(mut self) -> Self {
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

// From present.
/// Whether presentation mode is on.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presenting(pub bool);

/// The window sizes a capture wants, exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameSize {
    /// 1920×1080.
    Full,
    /// 1280×720.
    Hd,
}

impl FrameSize {
    pub fn pixels(self) -> (u32, u32) {
        match self {
            FrameSize::Full => (1920, 1080),
            FrameSize::Hd => (1280, 720),
        }
    }

    /// `1080` or `720` (also `1920x1080`, `1280x720`).
    pub fn parse(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "1080" | "1080p" | "1920x1080" => Ok(FrameSize::Full),
            "720" | "720p" | "1280x720" => Ok(FrameSize::Hd),
            other => Err(format!(
                "`{other}` is not a presentation size: use 1080 (1920×1080) or 720 (1280×720)"
            )),
        }
    }
}

/// Run condition: presentation mode is on.
pub fn on(presenting: Res<Presenting>) -> bool {
    presenting.0
}

/// Run condition: presentation mode is off (the player's panels show).
pub fn off(presenting: Option<Res<Presenting>>) -> bool {
    !presenting.is_some_and(|p| p.0)
}

pub use crate::show::director::{LOWER_THIRD, ui_zoom as zoom};

/// Sets a window to exactly `size`.
pub fn set_frame_size(window: &mut Window, size: FrameSize) {
    let (w, h) = size.pixels();
    window.resolution = WindowResolution::new(w, h).with_scale_factor_override(1.0);
}

// From camera.
#[derive(Component)]
pub struct BoardCamera;

/// Set by the HUD when egui wants the pointer, so the board ignores it.
#[derive(Resource, Default)]
pub struct PointerOverUi(pub bool);

// From hud.
/// The cell under the mouse.
#[derive(Resource, Default)]
pub struct Hovered(pub Option<Cell>);

/// The selected stack and where it can move, units by their ids (so the selection outlives an
/// undo, which rebuilds the units' entities).
#[derive(Resource, Default)]
pub struct Selection {
    pub units: Vec<String>,
    pub reach: FxHashMap<Cell, Reach>,
    /// Why the selection cannot move, when it cannot.
    pub cannot_move: Option<String>,
}

impl Selection {
    /// The selected units' entities (those still on the map).
    pub fn entities(&self, ids: &crate::game::components::UnitIds) -> Vec<Entity> {
        self.units.iter().filter_map(|id| ids.0.get(id).copied()).collect()
    }
}

/// The last refused order, shown until the next action.
#[derive(Resource, Default)]
pub struct LastRefusal(pub Option<String>);

/// What this frame's left click on the board means, worked out once (`clicks.rs`) for the screens
/// that act on it; `None` without a click on a cell. Each screen takes only its own kinds.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct ThisClick(pub Option<BoardClick>);

/// A left click on a board cell, read in the game's state.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardClick {
    /// The retreat the game asks about, along this path (it ends in the cell clicked).
    Retreat { unit: String, path: Vec<Cell> },
    /// These attackers advance into the cell.
    Advance { units: Vec<String>, to: Cell },
    /// A combat phase with a selection: prepare an attack on the enemy here.
    PinAttack(Cell),
    /// Shift and a prepared attack: the side's stack here (these unit ids) joins it, or leaves it.
    JoinOrLeaveAttack(Vec<String>),
    /// The selection shares its cell with an enemy outside a combat phase (Rommel's squares).
    AttackOutOfPhase(Cell),
    /// Move the selection here.
    Move(Cell),
    /// Select the side's stack here: these unit ids (none, where it has none).
    Select(Vec<String>),
}

/// Where the click is worked out: the systems reading `ThisClick` run after it.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClickSystems;

/// The board-input systems of the HUD (hover, clicks, keys, reach), for ordering others after.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HudSystems;

// From orders.
/// Where the player's orders and undo are carried out (PostUpdate); the computer's follow.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrderSystems;

/// The counters' drawing and placing; what rebuilds the board (opening a game to watch) runs
/// before it, so the counters of a rebuilt game are drawn and placed the frame they appear.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CounterSystems;

/// An order from the player at the screen.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct PlayerOrder(pub Order);

/// What undo and redo last said, for the status bar.
#[derive(Resource, Default, Clone, Debug, PartialEq, Eq)]
pub struct HistoryNote(pub Option<String>);

/// An end of phase waiting for the player to confirm that the side's turn is over.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfirmEndTurn(pub bool);

// From computer.
/// Who plays each side: `None` a human at this screen, else a computer with this profile.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Seats(pub Vec<Option<Profile>>);

impl Seats {
    /// Parses `--ai` arguments: `SIDE` or `SIDE:PROFILE`, the side by id, name or number (1 = the
    /// first side), against the sides of the scenario to be played.
    pub fn parse(args: &[String], sides: &[(String, String)]) -> Result<Seats, String> {
        let mut seats = vec![None; sides.len()];
        let named: Vec<(&str, &str)> = sides.iter().map(|(id, name)| (id.as_str(), name.as_str())).collect();
        for arg in args {
            let (side, profile) = arg.split_once(':').unwrap_or((arg, "standard"));
            let index = crate::game::components::side_named(&named, side).ok_or_else(|| {
                let known: Vec<String> = sides.iter().map(|(id, _)| id.clone()).collect();
                format!(
                    "--ai {arg}: no side `{side}` in this scenario (its sides: {})",
                    known.join(", ")
                )
            })?;
            if seats[index].is_some() {
                return Err(format!("--ai {arg}: side `{side}` is given twice"));
            }
            seats[index] = Some(Profile::parse(profile).map_err(|e| format!("--ai {arg}: {e}"))?);
        }
        Ok(Seats(seats))
    }

    pub fn computer(&self, side: usize) -> Option<&Profile> {
        self.0.get(side).and_then(Option::as_ref)
    }

    /// The seats as a save records them: each computer's level by name.
    pub fn names(&self) -> Vec<Option<String>> {
        self.0.iter().map(|p| p.as_ref().map(|p| p.name.clone())).collect()
    }
}

/// The seats a save recorded (`SavedGame::seats`); a level this Hexfront does not know seats a
/// person, with a warning.
pub fn seats_from_names(names: &[Option<String>]) -> Vec<Option<Profile>> {
    names
        .iter()
        .map(|n| {
            n.as_ref().and_then(|n| {
                Profile::parse(n)
                    .inspect_err(|e| warn!("the save's computer level `{n}`: {e}; a person plays the side"))
                    .ok()
            })
        })
        .collect()
}

/// Seconds between the computer's orders (0: as fast as it thinks).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct ComputerPace(pub f32);

impl Default for ComputerPace {
    fn default() -> Self {
        Self(0.6)
    }
}

// From replay.
/// A game being watched: its whole log and how many entries are on the board now.
#[derive(Resource, Clone, Debug)]
pub struct Replay {
    pub log: Vec<LogEntry>,
    /// Entries carried out on the board (0: the start).
    pub at: usize,
    pub playing: bool,
    /// Orders a second while playing.
    pub speed: f32,
    /// A turn file's new orders begin here (they are what the player came to watch).
    pub new_from: Option<usize>,
    /// What went wrong, shown in the timeline.
    pub problem: Option<String>,
    /// The upset last jumped to (U goes on to the next from there).
    pub last_upset: Option<usize>,
    pub(super) since: f32,
    /// The game's autosave, set aside while watching (stepping through a game must not write over
    /// its file); back when play goes on.
    pub(super) autosave: Option<Autosave>,
}

impl Replay {
    pub fn new(log: Vec<LogEntry>, at: usize) -> Self {
        Self {
            at: at.min(log.len()),
            log,
            playing: false,
            speed: 2.0,
            new_from: None,
            problem: None,
            last_upset: None,
            since: 0.0,
            autosave: None,
        }
    }

    /// The first entry of the turn (or phase, with `phase`) after entry `from`, or the end.
    pub(crate) fn next_mark(&self, from: usize, phase: bool) -> usize {
        let key = |e: &LogEntry| mark(e, phase);
        let Some(start) = self.log.get(from) else {
            return self.log.len();
        };
        let k = key(start);
        self.log[from..]
            .iter()
            .position(|e| key(e) != k)
            .map_or(self.log.len(), |i| from + i)
    }

    /// The first entry of the turn (or phase) before the one shown now.
    pub(crate) fn previous_mark(&self, phase: bool) -> usize {
        let key = |e: &LogEntry| mark(e, phase);
        if self.at == 0 {
            return 0;
        }
        let mut i = self.at - 1;
        let k = key(&self.log[i]);
        while i > 0 && key(&self.log[i - 1]) == k {
            i -= 1;
        }
        if i == self.at - 1 && i > 0 {
            // Already at a mark: go to the one before it.
            let k = key(&self.log[i - 1]);
            i -= 1;
            while i > 0 && key(&self.log[i - 1]) == k {
                i -= 1;
            }
        }
        i
    }
}

/// The turn (and, with `phase`, the side and phase) an entry was given in: the timeline's marks.
fn mark(e: &LogEntry, phase: bool) -> (u32, usize, usize) {
    if phase {
        (e.when.turn, e.when.side, e.when.phase)
    } else {
        (e.when.turn, 0, 0)
    }
}

/// Starts watching: `replay` goes in, the autosave is set aside until play goes on.
pub fn watch(world: &mut World, mut replay: Replay) {
    replay.autosave = world.remove_resource::<Autosave>();
    world.insert_resource(replay);
}

/// Where the timeline asks to go.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seek {
    To(usize),
    Branch,
    Close,
}

// From start.
/// A game to start as soon as the previous one is cleared away: its log is replayed, all of it
/// (to continue) or up to `watch` (to watch it from there).
#[derive(Resource, Clone, Debug)]
pub struct StartGame {
    pub game: LoadedGame,
    pub watch: Option<usize>,
    /// The file it was opened from: a game opened from its autosave goes on autosaving there.
    pub from: Option<PathBuf>,
}

impl StartGame {
    /// A new game of `scenario` with `seed`.
    pub fn new(scenario: Scenario, seed: u64) -> Self {
        Self {
            game: LoadedGame::new(scenario, seed),
            watch: None,
            from: None,
        }
    }
}

// From live_reload.
/// The file the game being played was opened from (a scenario reloads; a saved game does not).
#[derive(Resource, Clone, Debug, Default)]
pub struct OpenedFrom(pub Option<PathBuf>);

// From leave.
/// Where the player is going.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// Back to the start screen.
    NewGame,
    /// Close Hexfront.
    Quit,
}

/// A leave waiting for the player's yes.
#[derive(Resource, Default, Debug)]
pub struct ConfirmLeave(pub Option<Leave>);

// From saves.
/// The load window.
#[derive(Resource, Default)]
pub struct LoadWindow {
    pub(super) open: bool,
    pub(super) saves: Vec<SaveFile>,
    pub(super) turns: Vec<SaveFile>,
    pub(super) path: String,
}

/// The concession waiting for the player's yes.
#[derive(Resource, Default)]
pub struct ConfirmConcede(pub(super) bool);

/// The dialogs that take the keyboard and the clicks while open: the end-of-turn, concede and
/// leave questions, the Open and Settings windows.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Dialogs<'w> {
    confirm: Res<'w, ConfirmEndTurn>,
    concede: Res<'w, ConfirmConcede>,
    load: Res<'w, LoadWindow>,
    settings: Res<'w, SettingsFile>,
    leave: Res<'w, ConfirmLeave>,
}

impl Dialogs<'_> {
    pub fn open(&self) -> bool {
        self.confirm.0 || self.concede.0 || self.load.open || self.settings.open || self.leave.0.is_some()
    }
}

/// Run condition: no dialog is open, so clicks and keys meant for it do not reach the board
/// behind it.
pub fn no_dialog(dialogs: Dialogs) -> bool {
    !dialogs.open()
}

// From board.
pub fn rgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
}
