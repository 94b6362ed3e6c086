//! The start screen: pick a shipped scenario, any `.ron` scenario file or a saved game; read its
//! description, sides, ruleset and a map thumbnail; set the seed; start, continue or watch. Also
//! starting games from inside one (the New game and Load commands come back through here). Files
//! are read off the frame (`start_files`).

use super::layout::Layout;

use super::state::{Palette, SettingsFile};
mod panels;

use super::start_files::{FileRead, FileReader, listed_files, modified};

use crate::game::phase::GameState;
use crate::game::save::LoadedGame;
use crate::gui::state::StartGame;
use crate::scenario::{self, Scenario};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::PathBuf;

/// One line of the scenario list.
struct Entry {
    label: String,
    /// `None` for a shipped scenario (embedded), else the file.
    file: Option<PathBuf>,
    saved: bool,
    loaded: Result<LoadedGame, String>,
    /// Where a saved game stands (its log replayed when the file was read).
    position: Option<Scenario>,
    /// Still being read (off the frame).
    loading: bool,
    /// The file's modification time when it was read, to notice a change on disk.
    modified: Option<std::time::SystemTime>,
    /// Something to tell about the file (it changed on disk and was read again).
    note: Option<String>,
    /// Typed into the Open field (not found in a folder): gone when it fails and another is opened.
    opened: bool,
    /// What its pictures show, as one number (`thumbnail::picture_key`): worked out when the
    /// entry is read, not each frame the card is drawn.
    picture_key: u64,
}

impl Entry {
    /// The scenario its pictures show: where a saved game stands, else its start.
    fn shown(&self) -> Option<&Scenario> {
        self.position
            .as_ref()
            .or(self.loaded.as_ref().ok().map(|g| &g.scenario))
    }

    /// Works out the pictures' key again, after the entry was read.
    fn read_again(&mut self) {
        self.picture_key = self.shown().map_or(0, crate::gui::thumbnail::picture_key);
    }

    /// Whether this is a game under way (a log to continue or watch).
    fn under_way(&self) -> bool {
        self.loaded.as_ref().is_ok_and(|g| !g.log.is_empty() || g.migrated)
    }
}

/// The start screen's state.
#[derive(Resource)]
pub struct StartMenu {
    entries: Vec<Entry>,
    selected: usize,
    seed: String,
    path: String,
    error: Option<String>,
    /// Who plays each side of the selected game: a human, or the computer at a level.
    pub seats: Vec<Option<crate::ai::Profile>>,
    reader: FileReader,
    /// Seconds since the listed files were last checked for changes on disk.
    since_check: f32,
}

impl StartMenu {
    /// The shipped scenarios (embedded: at once), and, read off the frame, the other `.ron`
    /// files in `./scenarios` and the saved games.
    pub fn scan() -> Self {
        let entries: Vec<Entry> = (0..scenario::SHIPPED.len())
            .map(|i| {
                let loaded = scenario::shipped_scenario(i).map_err(|e| e.to_string());
                Entry {
                    label: loaded
                        .as_ref()
                        .map_or_else(|_| scenario::SHIPPED[i].0.to_string(), |s| s.raw.name.clone()),
                    file: None,
                    saved: false,
                    loaded: loaded.map(|s| LoadedGame::new(s, 1)),
                    position: None,
                    loading: false,
                    modified: None,
                    note: None,
                    opened: false,
                    picture_key: 0,
                }
            })
            .map(|mut e: Entry| {
                e.read_again();
                e
            })
            .collect();
        let mut menu = Self {
            entries,
            selected: 0,
            seed: "1".into(),
            path: String::new(),
            error: None,
            seats: Vec::new(),
            reader: FileReader::new(),
            since_check: 0.0,
        };
        for (path, saved) in listed_files() {
            menu.add_file(path, saved);
        }
        menu
    }

    /// Lists `path` (a scenario file with the scenarios, a save with the saves) and has it read
    /// off the frame; its index.
    fn add_file(&mut self, path: PathBuf, saved: bool) -> usize {
        self.reader.read(path.clone());
        let at = if saved {
            self.entries.len()
        } else {
            self.entries.iter().position(|e| e.saved).unwrap_or(self.entries.len())
        };
        if self.selected >= at && at < self.entries.len() {
            self.selected += 1;
        }
        self.entries.insert(
            at,
            Entry {
                label: path
                    .file_name()
                    .map(|s| s.to_string_lossy().trim_end_matches(".ron").to_string())
                    .unwrap_or_default(),
                file: Some(path),
                saved,
                loaded: Err("still being read".into()),
                position: None,
                loading: true,
                modified: None,
                note: None,
                opened: false,
                picture_key: 0,
            },
        );
        at
    }

    /// Opens the path typed in the Open field (its button, or Enter in the field). A file already
    /// listed is selected; an earlier open that failed leaves the list, so failures never pile up.
    fn open_typed(&mut self) {
        let path = PathBuf::from(self.path.trim());
        if path.as_os_str().is_empty() {
            return;
        }
        self.error = None;
        if !path.is_file() {
            self.error = Some(format!("{}: there is no such file", path.display()));
            return;
        }
        if let Some(i) = self.entries.iter().position(|e| e.file.as_ref() == Some(&path)) {
            self.select(i);
            return;
        }
        self.entries.retain(|e| !(e.opened && !e.loading && e.loaded.is_err()));
        let at = self.add_file(path, false);
        self.select(at);
        self.entries[self.selected].opened = true;
    }

    /// Selects entry `i`: its seats are its own (a save's recorded ones, else people at this
    /// screen), not the last game's.
    pub fn select(&mut self, i: usize) {
        if i == self.selected && !self.seats.is_empty() {
            return;
        }
        self.selected = i;
        self.seats = self
            .entries
            .get(i)
            .and_then(|e| e.loaded.as_ref().ok())
            .map(|g| crate::gui::state::seats_from_names(&g.seats))
            .unwrap_or_default();
    }

    /// Takes in the files read since the last frame.
    fn take_reads(&mut self, reads: Vec<FileRead>) {
        for read in reads {
            for e in self.entries.iter_mut().filter(|e| e.file.as_ref() == Some(&read.path)) {
                if e.modified.is_some() {
                    e.note = Some("The file changed on disk and was read again.".into());
                }
                e.loading = false;
                e.loaded = read.loaded.clone();
                e.position = read.position.clone();
                e.modified = read.modified;
                e.read_again();
            }
            // A save selected while it was read seats the computer where it played.
            let selected = self.entries.get(self.selected);
            if selected.is_some_and(|e| e.file.as_ref() == Some(&read.path))
                && self.seats.iter().all(Option::is_none)
                && let Ok(game) = &read.loaded
            {
                self.seats = crate::gui::state::seats_from_names(&game.seats);
            }
        }
    }

    /// Reads again every listed file whose modification time changed since it was read.
    fn read_changed_files(&mut self) {
        let mut i = 0;
        while i < self.entries.len() {
            let e = &self.entries[i];
            let Some(path) = e.file.clone().filter(|_| !e.loading) else {
                i += 1;
                continue;
            };
            if !path.exists() {
                // Deleted (or moved away): off the list.
                self.entries.remove(i);
                if self.selected > i || self.selected >= self.entries.len() {
                    self.selected = self.selected.saturating_sub(1);
                }
                continue;
            }
            if modified(&path) != e.modified {
                self.entries[i].loading = true;
                self.reader.read(path);
            }
            i += 1;
        }
        // Files that appeared since (another Hexfront saved, a designer added a scenario).
        for (path, saved) in listed_files() {
            if !self.entries.iter().any(|e| e.file.as_ref() == Some(&path)) {
                self.add_file(path, saved);
            }
        }
    }

    /// The seed typed in, when it is a whole number.
    fn seed(&self) -> Option<u64> {
        self.seed.trim().parse().ok()
    }

    /// The selected game, to play (`watch: None`) or watch from its start, when it and the seed
    /// are good. A game under way keeps its own seed.
    fn start_game(&self, watch: Option<usize>) -> Option<StartGame> {
        let entry = self.entries.get(self.selected)?;
        let mut game = entry.loaded.as_ref().ok()?.clone();
        if !entry.under_way() {
            game.seed = self.seed()?;
        }
        Some(StartGame {
            game,
            watch,
            from: entry.file.clone(),
        })
    }

    /// This menu with the seed and seats chosen in `old` (F2 keeps `--seed` and `--ai`).
    pub fn keeping_choices(mut self, old: &StartMenu) -> Self {
        self.seed = old.seed.clone();
        self.seats = old.seats.clone();
        // The shipped scenario chosen stays chosen (they come first, in the same order; a file
        // read off the frame may not be listed yet).
        if old.selected < scenario::SHIPPED.len() {
            self.selected = old.selected;
        }
        self
    }

    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed.to_string();
        self
    }

    /// The seats chosen on the command line (`--ai`).
    pub fn with_seats(mut self, seats: Vec<Option<crate::ai::Profile>>) -> Self {
        self.seats = seats;
        self
    }
}

/// Brings in the files read off the frame and, every two seconds, reads again those changed on
/// disk.
fn take_file_reads(
    menu: Option<ResMut<StartMenu>>,
    time: Res<Time>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let Some(mut menu) = menu else { return };
    if menu.reader.busy() {
        redraw.write(bevy::window::RequestRedraw);
    }
    let reads = menu.reader.finished();
    if !reads.is_empty() {
        menu.take_reads(reads);
    }
    menu.since_check += time.delta_secs();
    if menu.since_check > 2.0 {
        menu.since_check = 0.0;
        menu.read_changed_files();
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (start_on_enter.run_if(super::editor::closed), take_file_reads).run_if(in_state(GameState::NoGame)),
    )
    .add_systems(OnEnter(GameState::NoGame), clear_board_state)
    .add_systems(
        EguiPrimaryContextPass,
        start_screen.run_if(in_state(GameState::NoGame).and_then(super::editor::closed)),
    );
}

fn start_on_enter(keys: Res<super::keymap::Keys>, menu: Option<Res<StartMenu>>, mut commands: Commands) {
    // Enter in a text field belongs to the field (`Start` is not taken while typing).
    if !keys.just(super::keymap::Action::Start) {
        return;
    }
    if let Some(menu) = menu
        && let Some(start) = menu.start_game(None)
    {
        commands.insert_resource(start);
        commands.insert_resource(super::state::Seats(menu.seats.clone()));
    }
}

/// Forgets the board of the game left behind.
fn clear_board_state(mut commands: Commands) {
    commands.remove_resource::<Layout>();
    commands.insert_resource(super::state::Selection::default());
    commands.insert_resource(super::attack::AttackPreview::default());
}

fn start_screen(
    mut contexts: EguiContexts,
    mut commands: Commands,
    menu: Option<ResMut<StartMenu>>,
    pending: Option<Res<StartGame>>,
    palette: Res<Palette>,
    mut settings_file: ResMut<SettingsFile>,
    mut guide: ResMut<super::guide::Guide>,
    mut online: ResMut<super::online::Online>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(mut menu) = menu else {
        commands.insert_resource(StartMenu::scan());
        return Ok(());
    };
    if pending.is_some() || online.form.shown {
        return Ok(());
    }
    let mut root = super::root_ui::root(ctx, "start-screen");
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.heading("Hexfront");
            ui.label(egui::RichText::new("hex-and-square board wargames").weak());
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let to_play = online.to_play();
                let label = if to_play > 0 {
                    format!("Online ({to_play} to play)")
                } else {
                    "Online".to_string()
                };
                if ui
                    .button(egui::RichText::new(label).strong())
                    .on_hover_text("Play across the internet: your games on a server, games to join and watch, or host one on this computer")
                    .clicked()
                {
                    online.form.shown = true;
                }
                if ui
                    .button("New scenario…")
                    .on_hover_text(
                        "Open the editor on a new map: paint terrain, draw rivers and roads, place units, playtest",
                    )
                    .clicked()
                {
                    let mut editor = super::editor::default_new();
                    editor.dialog = Some(super::editor::Dialog::new_map());
                    commands.insert_resource(editor);
                }
                if ui.button("Settings (F10)").clicked() {
                    settings_file.open = !settings_file.open;
                }
                if ui
                    .button(egui::RichText::new("How to play").strong())
                    .on_hover_text(
                        "A short illustrated guide for a first game: the counter, moving, attacking, turns, saving",
                    )
                    .clicked()
                {
                    guide.open = !guide.open;
                }
            });
        });
        ui.separator();
        // The list on the left, a third of the window; the chosen scenario's shop window beside.
        let size = ui.available_size();
        let list_w = (size.x * 0.34).clamp(280.0, 520.0);
        ui.horizontal_top(|ui| {
            ui.allocate_ui_with_layout(
                egui::vec2(list_w, size.y),
                egui::Layout::top_down(egui::Align::Min),
                |ui| {
                    ui.set_width(list_w);
                    panels::scenario_list(ui, &mut menu, &palette);
                },
            );
            ui.separator();
            ui.vertical(|ui| panels::details(ui, &mut menu, &mut commands, &palette));
        });
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waits for the reader (it reads off the frame) and takes its reads in.
    fn settle(menu: &mut StartMenu) {
        for _ in 0..500 {
            let reads = menu.reader.finished();
            menu.take_reads(reads);
            if !menu.entries.iter().any(|e| e.loading) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("the files were not read in 5 s");
    }

    #[test]
    fn a_typed_path_opens_says_what_is_wrong_and_failures_do_not_pile_up() {
        let dir = std::env::temp_dir().join(format!("hexfront-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let toml = dir.join("Cargo.toml");
        std::fs::write(&toml, "[package]\nname = \"x\"\n").unwrap();
        let cut = dir.join("cut.ron");
        std::fs::write(&cut, "Scenario(\n  name: \"x\",\n").unwrap();
        let good = dir.join("mine.ron");
        std::fs::write(&good, scenario::SHIPPED[0].1).unwrap();

        let mut menu = StartMenu::scan();
        settle(&mut menu);
        let listed = menu.entries.len();
        menu.path = format!("  {}  ", toml.display());
        menu.open_typed();
        settle(&mut menu);
        let entry = &menu.entries[menu.selected];
        assert_eq!(entry.file.as_ref(), Some(&toml));
        let err = entry.loaded.as_ref().unwrap_err();
        assert!(
            err.contains("this is not a Hexfront scenario or saved game: it begins `[package]`"),
            "{err}"
        );

        // A second failure takes the first one's place; a missing file only says so.
        menu.path = cut.display().to_string();
        menu.open_typed();
        settle(&mut menu);
        assert_eq!(menu.entries.len(), listed + 1);
        assert_eq!(menu.entries[menu.selected].file.as_ref(), Some(&cut));
        menu.path = dir.join("nothing.ron").display().to_string();
        menu.open_typed();
        assert!(
            menu.error
                .as_ref()
                .is_some_and(|e| e.ends_with("there is no such file"))
        );
        assert_eq!(menu.entries.len(), listed + 1);

        // A scenario opens, listed with the scenarios (not the saved games); opening it again
        // selects it rather than listing it twice.
        menu.path = good.display().to_string();
        menu.open_typed();
        settle(&mut menu);
        let at = menu.selected;
        assert!(menu.entries[at].loaded.is_ok() && !menu.entries[at].saved);
        assert!(menu.entries[..at].iter().all(|e| !e.saved));
        assert_eq!(menu.entries.len(), listed + 1, "the failed open left the list");
        menu.selected = 0;
        menu.open_typed();
        assert_eq!(menu.selected, at);
        assert_eq!(menu.entries.len(), listed + 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
