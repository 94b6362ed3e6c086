//! Live reload: the scenario open in the editor or being played, and its user ruleset, are
//! watched on disk (`notify`: their folders, since editors save by replacing the file). Within a
//! second of a save elsewhere the editor shows the new file, and a game in progress carries over
//! to the new rules, tables and terrain with every order given again (`game::reload`); when the
//! orders no longer fit, it says which and offers a restart from the new file. A file that does
//! not load shows an overlay naming file, line, column and field while the client runs on the
//! last good version.

use super::editor::Editor;
use super::state::OpenedFrom;
use super::state::StartGame;
use crate::game::phase::GameState;
use crate::scenario::Scenario;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use notify::Watcher as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// A change is acted on once the file has been quiet this long (editors write in several steps).
const QUIET: Duration = Duration::from_millis(150);

/// Watches a set of files through their folders and says which changed.
pub struct FileWatch {
    // In mutexes only to be `Sync` (a resource); used through `&mut self`, never locked.
    watcher: Option<Mutex<notify::RecommendedWatcher>>,
    events: Mutex<Receiver<notify::Result<notify::Event>>>,
    files: Vec<PathBuf>,
    folders: Vec<PathBuf>,
    /// Why watching does not work here, if it does not.
    pub problem: Option<String>,
}

impl FileWatch {
    /// A watcher; `wake` is called from its thread on every event (to wake a sleeping window).
    pub fn new(wake: impl Fn() + Send + 'static) -> Self {
        let (tx, events) = channel();
        let watcher = notify::recommended_watcher(move |event| {
            let _ = tx.send(event);
            wake();
        });
        let (watcher, problem) = match watcher {
            Ok(w) => (Some(Mutex::new(w)), None),
            Err(e) => (None, Some(format!("files cannot be watched here: {e}"))),
        };
        Self {
            watcher,
            events: Mutex::new(events),
            files: Vec::new(),
            folders: Vec::new(),
            problem,
        }
    }

    /// Watches exactly `files` from now on.
    pub fn set(&mut self, files: Vec<PathBuf>) {
        let files: Vec<PathBuf> = files.into_iter().map(|f| f.canonicalize().unwrap_or(f)).collect();
        if files == self.files {
            return;
        }
        let mut folders: Vec<PathBuf> = files.iter().filter_map(|f| f.parent().map(Path::to_path_buf)).collect();
        folders.sort();
        folders.dedup();
        if let Some(w) = self.watcher.as_mut().and_then(|w| w.get_mut().ok()) {
            for old in self.folders.iter().filter(|f| !folders.contains(f)) {
                let _ = w.unwatch(old);
            }
            for new in folders.iter().filter(|f| !self.folders.contains(f)) {
                if let Err(e) = w.watch(new, notify::RecursiveMode::NonRecursive) {
                    let problem = format!("{} cannot be watched: {e}; live reload is off for it", new.display());
                    warn!("{problem}");
                    self.problem = Some(problem);
                }
            }
        }
        self.files = files;
        self.folders = folders;
    }

    /// The watched files written, created, renamed into place or removed since the last call.
    pub fn changed(&mut self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        let Ok(events) = self.events.get_mut() else { return out };
        while let Ok(event) = events.try_recv() {
            let Ok(event) = event else { continue };
            if matches!(event.kind, notify::EventKind::Access(_)) {
                continue;
            }
            for path in event.paths {
                let path = path.canonicalize().unwrap_or(path);
                if self.files.contains(&path) && !out.contains(&path) {
                    out.push(path);
                }
            }
        }
        out
    }
}

/// The watcher and what it has seen.
#[derive(Resource)]
pub struct LiveReload {
    watch: FileWatch,
    /// Changed files waiting for the quiet time, and when the first change came.
    pending: Vec<PathBuf>,
    since: Option<Instant>,
    /// A file that did not load: shown until it loads.
    pub broken: Option<String>,
    /// A change the game in progress could not take: why, and the new scenario to restart from.
    pub cannot_apply: Option<(String, Box<Scenario>, PathBuf)>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OpenedFrom>()
        .add_systems(Startup, start_watching)
        .add_systems(Update, (choose_files, take_changes).chain())
        .add_systems(EguiPrimaryContextPass, overlay);
}

fn start_watching(world: &mut World) {
    let proxy = world
        .get_resource::<bevy::winit::EventLoopProxyWrapper>()
        .map(|p| (**p).clone());
    let watch = FileWatch::new(move || {
        if let Some(p) = &proxy {
            let _ = p.send_event(bevy::winit::WinitUserEvent::WakeUp);
        }
    });
    if let Some(problem) = &watch.problem {
        warn!("{problem}; live reload is off");
    }
    world.insert_resource(LiveReload {
        watch,
        pending: Vec::new(),
        since: None,
        broken: None,
        cannot_apply: None,
    });
}

/// The user ruleset file a scenario at `file` names, if it names one that exists.
fn ruleset_file(file: &Path, ruleset: &str) -> Option<PathBuf> {
    use crate::scenario::user_ruleset::{names_a_file, resolve};
    names_a_file(ruleset)
        .then(|| resolve(ruleset, file, Some(&crate::storage::data_dir())).ok())
        .flatten()
}

/// Watches the editor's file, or the played scenario's, and its user ruleset.
fn choose_files(
    reload: Option<ResMut<LiveReload>>,
    editor: Option<Res<Editor>>,
    state: Option<Res<State<GameState>>>,
    opened: Res<OpenedFrom>,
    origin: Option<Res<crate::game::start::GameOrigin>>,
) {
    let Some(mut reload) = reload else { return };
    let playing = state.is_some_and(|s| *s.get() != GameState::NoGame);
    let mut files = Vec::new();
    if !playing && let Some(e) = &editor {
        files.extend(e.path.clone());
        files.extend(e.path.as_deref().and_then(|p| ruleset_file(p, &e.raw.ruleset)));
    } else if playing && let (Some(file), Some(origin)) = (&opened.0, &origin) {
        files.push(file.clone());
        files.extend(ruleset_file(file, &origin.scenario.raw.ruleset));
    }
    reload.watch.set(files);
}

/// Acts on changed files once they have been quiet for a moment.
fn take_changes(world: &mut World) {
    let Some(mut reload) = world.get_resource_mut::<LiveReload>() else {
        return;
    };
    let changed = reload.watch.changed();
    if !changed.is_empty() {
        for c in changed {
            if !reload.pending.contains(&c) {
                reload.pending.push(c);
            }
        }
        reload.since = Some(Instant::now());
    }
    let Some(since) = reload.since else { return };
    if since.elapsed() < QUIET {
        // Look again once it has been quiet long enough.
        world.write_message(bevy::window::RequestRedraw);
        return;
    }
    let files = std::mem::take(&mut reload.pending);
    reload.since = None;
    let started = Instant::now();
    let playing = world
        .get_resource::<State<GameState>>()
        .is_some_and(|s| *s.get() != GameState::NoGame);
    if playing {
        reload_game(world, &files);
    } else if world.contains_resource::<Editor>() {
        reload_editor(world, &files);
    }
    info!(
        "live reload: {} taken in {} ms",
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        (started.elapsed() + QUIET).as_millis()
    );
}

fn reload_editor(world: &mut World, files: &[PathBuf]) {
    let mut editor = world.resource_mut::<Editor>();
    let Some(path) = editor.path.clone() else { return };
    let ours = path.canonicalize().unwrap_or(path.clone());
    let scenario_changed = files.contains(&ours);
    let outcome = if !scenario_changed {
        // Its ruleset changed: looked up and checked again.
        editor.ruleset_changed();
        editor.status = "The ruleset changed on disk: checked again".into();
        None
    } else {
        match std::fs::read_to_string(&path) {
            // Our own save, or a write of the same text: nothing to take.
            Ok(text) if editor.text().is_ok_and(|t| t == text) => None,
            Ok(_) if editor.is_dirty() => {
                editor.status = format!(
                    "{} changed on disk, but you have edits not saved: File > Open takes the disk's version",
                    path.display()
                );
                None
            }
            _ => Some(Editor::load(path.clone())),
        }
    };
    match outcome {
        Some(Ok(fresh)) => {
            editor.take_reloaded(fresh);
            editor.status = format!("Reloaded {} (changed on disk)", path.display());
            world.resource_mut::<LiveReload>().broken = None;
        }
        Some(Err(e)) => world.resource_mut::<LiveReload>().broken = Some(e),
        None => {}
    }
}

fn reload_game(world: &mut World, files: &[PathBuf]) {
    let Some(file) = world.resource::<OpenedFrom>().0.clone() else {
        return;
    };
    let _ = files;
    let text = match crate::source::read_file(&file) {
        Ok(t) => t,
        Err(e) => {
            world.resource_mut::<LiveReload>().broken = Some(e.to_string());
            return;
        }
    };
    if crate::scenario::top_level_name(&text) == "SavedGame" {
        return;
    }
    let scenario = match Scenario::from_ron_str(&file, &text) {
        Ok(s) => s,
        Err(e) => {
            world.resource_mut::<LiveReload>().broken = Some(e.to_string());
            return;
        }
    };
    let seed = world.resource::<crate::game::start::GameOrigin>().seed;
    let log = world.resource::<crate::game::log::OrderLog>().entries.clone();
    let automatic = world
        .get_resource::<crate::game::retreat::AfterCombatMode>()
        .is_some_and(|m| m.automatic);
    match crate::game::reload::carry_over(scenario.clone(), seed, &log, automatic) {
        Ok(game) => {
            let mut reload = world.resource_mut::<LiveReload>();
            reload.broken = None;
            reload.cannot_apply = None;
            restart(world, game, file);
        }
        Err(why) => {
            world.resource_mut::<LiveReload>().cannot_apply = Some((why, Box::new(scenario), file));
        }
    }
}

/// Starts `game` in place of the one on the board (the board is drawn again for it).
fn restart(world: &mut World, game: crate::game::save::LoadedGame, file: PathBuf) {
    super::session::autosave_before_leaving(world);
    world.insert_resource(crate::game::autosave::SaveStatus {
        message: format!(
            "Reloaded {} (changed on disk): {} carried over",
            file.display(),
            crate::rules::units::counted(game.log.len() as u64, "order", "orders")
        ),
        failed: false,
    });
    world.insert_resource(StartGame {
        game,
        watch: None,
        from: Some(file),
    });
    world.resource_mut::<NextState<GameState>>().set(GameState::NoGame);
}

/// The overlay: a file that does not load, or a change the game cannot take.
fn overlay(mut contexts: EguiContexts, reload: Option<ResMut<LiveReload>>, mut commands: Commands) -> Result {
    let Some(mut reload) = reload else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    if let Some(error) = reload.broken.clone() {
        egui::Window::new("⚠ The changed file does not load")
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.colored_label(egui::Color32::from_rgb(240, 140, 110), &error);
                ui.label(
                    "Still running on the last version that loaded. Fix the file and save it: it is taken at once.",
                );
                if ui.button("Hide").clicked() {
                    reload.broken = None;
                }
            });
    }
    if let Some((why, scenario, file)) = reload.cannot_apply.clone() {
        egui::Window::new("The changed scenario does not fit the game in progress")
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(&why);
                ui.horizontal(|ui| {
                    if ui.button("Restart from the new file").clicked() {
                        let game = crate::game::save::LoadedGame::new(*scenario, 1);
                        commands.queue(move |w: &mut World| restart(w, game, file));
                        reload.cannot_apply = None;
                    }
                    if ui.button("Keep playing this version").clicked() {
                        reload.cannot_apply = None;
                    }
                });
            });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The editor on a copy of Mortain in a temp folder, with the reload machinery.
    fn editor_world(dir: &Path) -> (World, PathBuf) {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).unwrap();
        let file = dir.join("mortain.ron");
        std::fs::write(&file, crate::scenario::DEFAULT_SCENARIO.1).unwrap();
        let mut world = World::new();
        world.insert_resource(Editor::load(file.clone()).unwrap());
        world.insert_resource(LiveReload {
            watch: FileWatch::new(|| {}),
            pending: Vec::new(),
            since: None,
            broken: None,
            cannot_apply: None,
        });
        (world, file.canonicalize().unwrap())
    }

    #[test]
    fn a_broken_file_leaves_the_editor_on_the_last_good_version_until_it_is_fixed() {
        let dir = std::env::temp_dir().join(format!("hexfront-reload-editor-{}", std::process::id()));
        let (mut world, file) = editor_world(&dir);
        let good = crate::scenario::DEFAULT_SCENARIO.1;
        std::fs::write(&file, good.replace("turns: 6,", "turns: six,")).unwrap();
        reload_editor(&mut world, std::slice::from_ref(&file));
        let broken = world.resource::<LiveReload>().broken.clone().unwrap();
        assert!(
            broken.contains("mortain.ron:") && broken.contains("`turns`"),
            "{broken}"
        );
        assert_eq!(world.resource::<Editor>().raw.turns, 6);
        // Fixed, with a change: taken, the overlay gone.
        std::fs::write(&file, good.replace("turns: 6,", "turns: 7,")).unwrap();
        reload_editor(&mut world, std::slice::from_ref(&file));
        assert!(world.resource::<LiveReload>().broken.is_none());
        assert_eq!(world.resource::<Editor>().raw.turns, 7);
        assert!(!world.resource::<Editor>().history.is_dirty());
        // Unsaved edits are never thrown away by a change on disk.
        let edit = crate::edit::tools::name_place(
            &world.resource::<Editor>().raw,
            crate::rules::grid::Cell::new(0, 0),
            "Here",
        );
        world.resource_mut::<Editor>().apply(edit);
        std::fs::write(&file, good.replace("turns: 6,", "turns: 8,")).unwrap();
        reload_editor(&mut world, std::slice::from_ref(&file));
        let editor = world.resource::<Editor>();
        assert_eq!(editor.raw.turns, 7);
        assert!(editor.status.contains("edits not saved"), "{}", editor.status);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_saved_by_replacing_it_is_seen_and_others_are_not() {
        let dir = std::env::temp_dir().join(format!("hexfront-watch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let watched = dir.join("battle.ron");
        let other = dir.join("other.ron");
        std::fs::write(&watched, "one").unwrap();
        let mut watch = FileWatch::new(|| {});
        assert!(watch.problem.is_none(), "{:?}", watch.problem);
        watch.set(vec![watched.clone()]);
        let seen = |watch: &mut FileWatch| {
            let deadline = Instant::now() + Duration::from_secs(3);
            let mut all = Vec::new();
            while Instant::now() < deadline {
                all.extend(watch.changed());
                if !all.is_empty() {
                    // Whatever else arrives with it.
                    std::thread::sleep(Duration::from_millis(100));
                    all.extend(watch.changed());
                    all.dedup();
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            all
        };
        std::fs::write(&other, "not watched").unwrap();
        assert!(seen(&mut watch).is_empty());
        // Saved the way editors save (and `storage::write_atomic`): a new file renamed over it.
        crate::storage::write_atomic(&watched, "two").unwrap();
        let changed = seen(&mut watch);
        assert_eq!(changed, [watched.canonicalize().unwrap()]);
        std::fs::write(&watched, "three").unwrap();
        assert_eq!(seen(&mut watch).len(), 1);
        watch.set(Vec::new());
        std::fs::write(&watched, "four").unwrap();
        assert!(seen(&mut watch).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
