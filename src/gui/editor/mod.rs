//! The designer's workbench: a map and scenario editor in the client. The scenario as written is
//! edited through `crate::edit` (every change undoable), checked live by the same validation as
//! `hexfront validate`, saved laid out for diffs, and played at once (F5) with the real rules.
//! Reached from the start screen (New scenario, Edit) and `hexfront edit [FILE]`.

pub mod board;
mod dialogs;
mod geometry;
mod inspector;
pub mod paint;
mod panels;

use crate::edit::History;
use crate::edit::tools::new_scenario;
use crate::game::phase::GameState;
use crate::rules::grid::{Cell, GridKind, HexTop};
use crate::rules::terrain::{CellFeature, EdgeFeature};
use crate::rules::units::{UnitClass, UnitSize};
use crate::scenario::file::RawScenario;
use crate::scenario::write::{leading_comments, scenario_text};
use crate::scenario::{LoadError, Ruleset, Scenario};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::PathBuf;
use std::sync::Arc;

pub use board::View;
pub use dialogs::Dialog;

/// What a click on the board does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Select a cell and its units; drag units to move them (Ctrl: copy).
    Select,
    /// Paint terrain with the brush, or fill an area.
    Terrain,
    /// Draw an edge feature along cell sides.
    Edge,
    /// Draw a road through cells.
    Road,
    /// Name a place.
    Place,
    /// Put a town, city, fortification or installation in a cell.
    Feature,
    /// Put or take an objective.
    Objective,
    /// Place a new unit.
    Unit,
}

impl Tool {
    pub const ALL: [(Tool, &'static str, KeyCode, &'static str); 8] = [
        (
            Tool::Select,
            "Select",
            KeyCode::KeyV,
            "Select a cell and its units; drag them to move (Ctrl: copy); Delete removes them",
        ),
        (
            Tool::Terrain,
            "Terrain",
            KeyCode::KeyT,
            "Paint terrain with the brush ([ and ] size it), or fill an area",
        ),
        (
            Tool::Edge,
            "Edges",
            KeyCode::KeyE,
            "Drag along cell sides to draw rivers, bridges, lakes, fortification lines (Shift or Erase: take off)",
        ),
        (
            Tool::Road,
            "Road",
            KeyCode::KeyR,
            "Drag through cells to lay a road (Shift or Erase: take a road step off)",
        ),
        (
            Tool::Place,
            "Place name",
            KeyCode::KeyN,
            "Click a cell to name it (the name field is in the inspector)",
        ),
        (
            Tool::Feature,
            "Feature",
            KeyCode::KeyF,
            "Click a cell to put or take a town, city, fortification, airbase or port",
        ),
        (
            Tool::Objective,
            "Objective",
            KeyCode::KeyO,
            "Click a cell to put or take an objective",
        ),
        (
            Tool::Unit,
            "Unit",
            KeyCode::KeyU,
            "Click a cell to place a new unit of the side, class and size chosen",
        ),
    ];
}

/// The tools' settings, kept while switching between them.
#[derive(Clone, Debug)]
pub struct ToolSettings {
    pub terrain: String,
    pub brush: u32,
    pub fill: bool,
    pub edge: EdgeFeature,
    pub erase: bool,
    pub feature: CellFeature,
    pub objective_points: u32,
    pub side: usize,
    pub class: UnitClass,
    pub size: UnitSize,
}

impl Default for ToolSettings {
    fn default() -> Self {
        Self {
            terrain: String::new(),
            brush: 1,
            fill: false,
            edge: EdgeFeature::River,
            erase: false,
            feature: CellFeature::Town,
            objective_points: 1,
            side: 0,
            class: UnitClass::Infantry,
            size: UnitSize::Division,
        }
    }
}

/// The scenario being edited and everything about the editing.
#[derive(Resource)]
pub struct Editor {
    pub raw: RawScenario,
    /// The comment lines the file opens with (kept when saving).
    pub header: String,
    /// The file it is saved to; `None` until saved.
    pub path: Option<PathBuf>,
    pub history: History,
    pub tool: Tool,
    pub settings: ToolSettings,
    pub cell: Option<Cell>,
    pub units: Vec<String>,
    pub view: View,
    fitted_size: Option<(GridKind, u32, u32)>,
    meshes: paint::TerrainMeshes,
    /// The ruleset the scenario names, for terrain colours and names; `None` when it cannot be
    /// loaded (the validation panel says why).
    pub ruleset: Option<Arc<Ruleset>>,
    ruleset_for: String,
    /// The validation result for the current state: the scenario, or its first error.
    pub check: Result<Arc<Scenario>, LoadError>,
    /// Bumped by every change; validation and meshes follow it.
    generation: u64,
    checked: u64,
    pub stroke: Option<board::Stroke>,
    pub status: String,
    pub dialog: Option<dialogs::Dialog>,
    /// The playtest's seats: who plays each side (the computer at a level, or a person).
    pub seats: Vec<Option<crate::ai::Profile>>,
}

impl Editor {
    /// Opens `raw` (from `path` when it came from a file whose text was `text`).
    pub fn open(raw: RawScenario, text: &str, path: Option<PathBuf>) -> Self {
        let mut e = Self {
            header: leading_comments(text),
            raw,
            path,
            history: History::default(),
            tool: Tool::Select,
            settings: ToolSettings::default(),
            cell: None,
            units: Vec::new(),
            view: View::default(),
            fitted_size: None,
            meshes: paint::TerrainMeshes::default(),
            ruleset: None,
            ruleset_for: String::new(),
            check: Err(LoadError {
                file: PathBuf::new(),
                pos: None,
                field: String::new(),
                message: "not checked yet".into(),
            }),
            generation: 1,
            checked: 0,
            stroke: None,
            status: String::new(),
            dialog: None,
            seats: Vec::new(),
        };
        e.refresh();
        e.settings.terrain = e.raw.map.legend.values().next().cloned().unwrap_or_default();
        e
    }

    /// A new scenario: `width` × `height` of `grid`, on `ruleset`, filled with `fill`.
    pub fn new_map(grid: GridKind, width: u32, height: u32, ruleset: &str, fill: &str) -> Self {
        let header = "// A scenario made in Hexfront's editor.\n";
        Self::open(new_scenario(grid, width, height, ruleset, fill), header, None)
    }

    /// Reads a scenario or saved game file (a saved game's starting scenario) to edit.
    pub fn load(path: PathBuf) -> Result<Self, String> {
        let text = crate::source::read_file(&path).map_err(|e| e.to_string())?;
        // A scenario opens as written, valid or not (the validation panel says what is wrong);
        // a saved game opens its scenario.
        let mut raw = if crate::scenario::top_level_name(&text) == "SavedGame" {
            let game = crate::game::save::parse_game_str(&path, &text, 1).map_err(|e| e.to_string())?;
            game.scenario.raw.clone()
        } else {
            crate::source::Source::new(&path, &text)
                .parse::<RawScenario>()
                .map_err(|e| e.to_string())?
        };
        // A first-format save is a scenario with `progress`: a save all the same.
        let is_save = crate::scenario::top_level_name(&text) == "SavedGame" || raw.progress.is_some();
        raw.progress = None;
        // A saved game's scenario is saved as a scenario of its own, never over the save.
        let (text, path) = if is_save {
            (String::new(), None)
        } else {
            (text, Some(path))
        };
        Ok(Self::open(raw, &text, path))
    }

    /// The editor for a scenario listed on the start screen: its file, or a shipped scenario's
    /// embedded text (saved as a new file).
    pub fn for_listed(file: Option<PathBuf>, raw: &RawScenario) -> Result<Self, String> {
        if let Some(f) = file {
            return Self::load(f);
        }
        let name = format!(
            "name: {},",
            crate::scenario::write::inline(&raw.name).unwrap_or_default()
        );
        let text = crate::scenario::SHIPPED
            .iter()
            .find(|(_, t)| t.contains(&name))
            .map_or("", |(_, t)| *t);
        let mut raw = raw.clone();
        raw.progress = None;
        Ok(Self::open(raw, text, None))
    }

    /// The ruleset file changed on disk: looked up and checked again.
    pub fn ruleset_changed(&mut self) {
        self.ruleset_for.clear();
        self.changed();
    }

    /// Takes the scenario as reloaded from disk, keeping the view, the tool and the selection.
    pub fn take_reloaded(&mut self, fresh: Editor) {
        let same_size = (fresh.raw.map.width, fresh.raw.map.height) == (self.raw.map.width, self.raw.map.height);
        let (view, tool, settings, cell, units, seats) = (
            self.view,
            self.tool,
            self.settings.clone(),
            self.cell,
            std::mem::take(&mut self.units),
            std::mem::take(&mut self.seats),
        );
        *self = fresh;
        self.view = View {
            fitted: same_size,
            ..view
        };
        (self.tool, self.settings, self.cell, self.units, self.seats) = (tool, settings, cell, units, seats);
        self.changed();
        self.refresh();
    }

    /// Something changed: validation, meshes and the ruleset follow.
    pub fn changed(&mut self) {
        self.generation += 1;
    }

    /// Brings the ruleset, the validation and the terrain meshes up to the current state.
    pub fn refresh(&mut self) {
        if self.checked == self.generation {
            return;
        }
        if self.ruleset_for != self.raw.ruleset {
            self.ruleset = self.load_ruleset();
            self.ruleset_for = self.raw.ruleset.clone();
            self.meshes = paint::TerrainMeshes::default();
        }
        self.check = self.validate();
        let size = (self.raw.map.grid, self.raw.map.width, self.raw.map.height);
        if self.fitted_size != Some(size) {
            // A new size (a resize, its undo, another file): the whole map in view again.
            self.view.fitted = false;
            self.fitted_size = Some(size);
        }
        self.meshes.sync(&self.raw, self.ruleset.as_deref());
        self.checked = self.generation;
        // The selection follows units that still exist.
        self.units.retain(|id| self.raw.units.iter().any(|u| &u.id == id));
    }

    fn load_ruleset(&self) -> Option<Arc<Ruleset>> {
        if let Some(r) = Ruleset::builtin(&self.raw.ruleset) {
            return r.ok().map(Arc::new);
        }
        let path = self
            .path
            .clone()
            .unwrap_or_else(|| PathBuf::from("scenarios/unsaved.ron"));
        crate::scenario::user_ruleset::load(&self.raw.ruleset, &path)
            .ok()?
            .ok()
            .map(Arc::new)
    }

    /// The file name errors name: the file, or `unsaved.ron`.
    pub fn file_name(&self) -> PathBuf {
        self.path
            .clone()
            .unwrap_or_else(|| PathBuf::from("scenarios/unsaved.ron"))
    }

    /// The scenario as it would be saved, checked as `hexfront validate` checks the file.
    fn validate(&self) -> Result<Arc<Scenario>, LoadError> {
        let text = self.text().map_err(|e| LoadError {
            file: self.file_name(),
            pos: None,
            field: String::new(),
            message: format!("cannot be written: {e}"),
        })?;
        Scenario::from_ron_str(self.file_name(), &text).map(Arc::new)
    }

    /// The file's text.
    pub fn text(&self) -> Result<String, ron::Error> {
        scenario_text(&self.raw, &self.header)
    }

    /// Makes an edit as one undoable step.
    pub fn apply(&mut self, edit: crate::edit::Edit) {
        if !edit.is_empty() {
            self.status.clear();
            self.history.apply(&mut self.raw, edit);
            self.changed();
        }
    }

    /// Makes an edit joining the last step when it was of the same kind (one form field).
    pub fn apply_joining(&mut self, edit: crate::edit::Edit, kind: &str) {
        if !edit.is_empty() {
            self.status.clear();
            self.history.apply_joining(&mut self.raw, edit, kind);
            self.changed();
        }
    }

    /// Makes an edit from a form: while one text field is being typed in, its changes are one
    /// step; a click (a checkbox, a list) is a step of its own.
    pub fn apply_typed(&mut self, edit: crate::edit::Edit, ui: &egui::Ui) {
        match ui.ctx().memory(|m| m.focused()) {
            Some(field) => self.apply_joining(edit, &format!("{field:?}")),
            None => self.apply(edit),
        }
    }

    /// Whether there is work the file does not have (edits, or a stroke being drawn).
    pub fn is_dirty(&self) -> bool {
        self.history.is_dirty() || self.stroke.is_some()
    }

    pub fn undo(&mut self) {
        if self.history.undo(&mut self.raw) {
            self.changed();
            self.status = "Undone".into();
        }
    }

    pub fn redo(&mut self) {
        if self.history.redo(&mut self.raw) {
            self.changed();
            self.status = "Redone".into();
        }
    }

    /// Saves to its file (Save as when it has none). Written atomically.
    pub fn save(&mut self) {
        let Some(path) = self.path.clone() else {
            self.dialog = Some(dialogs::Dialog::save_as(self));
            return;
        };
        self.save_to(path);
    }

    pub fn save_to(&mut self, path: PathBuf) {
        let written = self.text().map_err(|e| e.to_string()).and_then(|text| {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            crate::storage::write_atomic(&path, &text)
        });
        match written {
            Ok(()) => {
                self.history.saved();
                let verdict = match &self.check {
                    Ok(_) => "valid".to_string(),
                    Err(e) => format!("not valid yet: {}", e.message),
                };
                self.status = format!("Saved {} ({verdict})", path.display());
                if self.path.as_ref() != Some(&path) {
                    self.path = Some(path);
                    // A user ruleset is looked for from the file's folder.
                    self.ruleset_for.clear();
                    self.changed();
                }
            }
            Err(e) => self.status = format!("Not saved: {e}"),
        }
    }

    /// The title bar's name: the file and a star for unsaved edits.
    pub fn title(&self) -> String {
        let name = self
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or("unsaved scenario".into(), |n| n.to_string_lossy().into_owned());
        format!("{name}{}", if self.history.is_dirty() { " *" } else { "" })
    }
}

/// Where a new map starts: Killing Ground on flat-topped hexes.
pub fn default_new() -> Editor {
    Editor::new_map(GridKind::Hex { top: HexTop::Flat }, 12, 10, "killing-ground", "clear")
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        shortcuts
            .run_if(in_state(GameState::NoGame).and_then(resource_exists::<Editor>))
            .run_if(super::state::no_dialog),
    )
    .add_systems(
        EguiPrimaryContextPass,
        editor_ui.run_if(in_state(GameState::NoGame).and_then(resource_exists::<Editor>)),
    );
}

/// Run condition: the editor is not open (the start screen shows).
pub fn closed(editor: Option<Res<Editor>>) -> bool {
    editor.is_none()
}

/// The editor's chords come from the keymap (`keymap::KEYMAP`); its tool keys from its tools
/// (`Tool::ALL`, shown on the tool bar), with the unit tool's sides, the brush and Delete.
fn shortcuts(
    keys: Res<ButtonInput<KeyCode>>,
    actions: Res<super::keymap::Keys>,
    mut editor: ResMut<Editor>,
    mut contexts: EguiContexts,
    mut commands: Commands,
) -> Result {
    use super::keymap::Action;
    let typing = contexts.ctx_mut()?.egui_wants_keyboard_input();
    let ctrl = super::keymap::ctrl_held(&keys);
    // While a field is being typed in, Ctrl+Z/Y are the field's own; mid-drag, nothing to undo yet.
    let busy = typing || editor.stroke.is_some();
    if actions.just(Action::Undo) && !busy {
        editor.undo();
    } else if actions.just(Action::Redo) && !busy {
        editor.redo();
    } else if actions.just(Action::SaveAs) {
        let d = dialogs::Dialog::save_as(&editor);
        editor.dialog = Some(d);
    } else if actions.just(Action::Save) {
        editor.save();
    } else if actions.just(Action::BackToEditor) {
        // F5: play-test the scenario (and, in the game so started, back to the editor).
        playtest(&mut editor, &mut commands);
    } else if !ctrl && !typing && editor.dialog.is_none() {
        for (tool, _, key, _) in Tool::ALL {
            if keys.just_pressed(key) {
                editor.tool = tool;
            }
        }
        // The Unit tool: 1 … 8 choose the side of the units placed.
        let digits = [
            KeyCode::Digit1,
            KeyCode::Digit2,
            KeyCode::Digit3,
            KeyCode::Digit4,
            KeyCode::Digit5,
            KeyCode::Digit6,
            KeyCode::Digit7,
            KeyCode::Digit8,
        ];
        if editor.tool == Tool::Unit
            && let Some(n) = digits.iter().position(|k| keys.just_pressed(*k))
            && n < editor.raw.sides.len()
        {
            editor.settings.side = n;
            editor.status = format!("New units: {}", editor.raw.sides[n].name);
        }
        if keys.just_pressed(KeyCode::BracketRight) {
            editor.settings.brush = (editor.settings.brush + 1).min(3);
        }
        if keys.just_pressed(KeyCode::BracketLeft) {
            editor.settings.brush = editor.settings.brush.saturating_sub(1).max(1);
        }
        if keys.just_pressed(KeyCode::Delete) && !editor.units.is_empty() {
            let ids = editor.units.clone();
            let edit = crate::edit::tools::delete_units(&editor.raw, &ids);
            editor.apply(edit);
            editor.status = format!(
                "Deleted {}",
                crate::rules::units::counted(ids.len() as u64, "unit", "units")
            );
        }
    }
    Ok(())
}

/// Starts a game of the scenario as edited (when it is valid); the editor waits, as it was.
pub fn playtest(editor: &mut Editor, commands: &mut Commands) {
    editor.refresh();
    match &editor.check {
        Ok(s) => {
            let mut start = super::state::StartGame::new((**s).clone(), 1);
            start.from = None;
            commands.insert_resource(start);
            let mut seats = editor.seats.clone();
            seats.resize(s.sides.len(), None);
            commands.insert_resource(super::state::Seats(seats));
            editor.status = "Playtest: F5 or F2 comes back to the editor".into();
        }
        Err(e) => editor.status = format!("Cannot playtest until it is valid: {e}"),
    }
}

fn editor_ui(mut contexts: EguiContexts, mut editor: ResMut<Editor>, mut commands: Commands) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    editor.refresh();
    let mut root = egui::Ui::new(
        ctx.clone(),
        egui::Id::new("editor"),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    panels::top_bar(&mut root, &mut editor, &mut commands);
    panels::validation(&mut root, &mut editor);
    panels::palette(&mut root, &mut editor);
    inspector::inspector(&mut root, &mut editor);
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE.fill(egui::Color32::from_rgb(40, 43, 48)))
        .show(&mut root, |ui| board::board(ui, &mut editor));
    dialogs::show(&ctx, &mut editor, &mut commands);
    Ok(())
}
