//! Emergency saves: a panic never loses a game. While a game is played (an `EmergencySave`
//! resource present, with its `Autosave`), a copy of it as a saved game is kept up to date after
//! every frame whose orders changed the log; the panic hook writes that copy to the saves folder
//! (`emergency-<scenario>.ron`), says where on standard error, and leaves a notice the client
//! shows at its next start.

use super::GameSystems;
use super::autosave::Autosave;
use super::log::OrderLog;
use super::phase::GameState;
use super::retreat::AfterCombatMode;
use super::save::{SavedGame, saved_game, saved_seed, summary, to_text};
use super::start::GameOrigin;
use bevy::prelude::*;
use std::path::PathBuf;
use std::sync::Mutex;

/// The game as it was after the last frame that changed it, for the panic hook.
static SNAPSHOT: Mutex<Option<SavedGame>> = Mutex::new(None);

/// Opts a game into emergency saves (the desktop client inserts it; tests may).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct EmergencySave;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        keep_snapshot
            .after(GameSystems::Orders)
            .after(super::autosave::autosave)
            .run_if(
                resource_exists::<EmergencySave>
                    .and_then(resource_exists::<Autosave>)
                    .and_then(resource_exists::<OrderLog>)
                    .and_then(resource_changed::<OrderLog>),
            ),
    )
    .add_systems(OnEnter(GameState::NoGame), forget_snapshot);
}

/// Keeps the copy up to date: the whole game when it is another one (a new game, a load), else
/// only what orders change (the log, the summary), so a long game costs no scenario copy or hash
/// per order.
fn keep_snapshot(world: &World) {
    let Ok(mut snapshot) = SNAPSHOT.lock() else { return };
    let origin = world.resource::<GameOrigin>();
    let seed = saved_seed(origin);
    match snapshot.as_mut() {
        Some(game) if game.seed == seed && game.scenario == origin.scenario.raw => {
            game.log.clone_from(&world.resource::<OrderLog>().entries);
            game.summary = summary(world);
            game.automatic_after_combat = world.get_resource::<AfterCombatMode>().is_some_and(|m| m.automatic);
        }
        _ => *snapshot = Some(saved_game(world)),
    }
}

/// Back on the start screen there is no game to save.
fn forget_snapshot() {
    if let Ok(mut snapshot) = SNAPSHOT.lock() {
        *snapshot = None;
    }
}

/// Threads whose panics are caught and answered where they happen (a file that fails to read is
/// shown as such): no emergency save for them.
const CAUGHT_THREADS: [&str; 1] = ["hexfront-file-reader"];

/// The file the notice of the last crash is kept in until the client has shown it.
fn notice_file() -> PathBuf {
    crate::storage::data_dir().join("crash-notice.txt")
}

/// Writes the last snapshot to `emergency-<scenario>.ron` in the saves folder; its path, or
/// `None` when no game was under way (or the snapshot is held by the panicking thread).
pub fn write_emergency_save() -> Option<PathBuf> {
    let snapshot = SNAPSHOT.try_lock().ok()?;
    let game = snapshot.as_ref()?;
    let name = crate::storage::slug(&game.scenario_name);
    let path = crate::storage::saves_dir().join(format!("emergency-{name}.ron"));
    let text = to_text(game).ok()?;
    crate::storage::write_atomic(&path, &text).ok()?;
    Some(path)
}

/// Installs the panic hook (once; the default hook still prints the panic first): it writes the
/// emergency save, says where on standard error and leaves the notice for the next start.
pub fn install_panic_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            default(info);
            if is_caught_thread() {
                return;
            }
            let Some(path) = write_emergency_save() else { return };
            let notice = format!(
                "Hexfront stopped on an internal error ({}). Your game was saved to {}: open it from Saved games to go on.",
                info.payload_as_str().unwrap_or("no message"),
                path.display()
            );
            eprintln!("{notice}");
            let _ = crate::storage::write_atomic(&notice_file(), &notice);
            if let Ok(mut last) = LAST_NOTICE.lock() {
                *last = Some(notice);
            }
        }));
    });
}

/// The notice the panic hook wrote in this run, for a client that shows it at once (Windows,
/// with no console to read it in).
static LAST_NOTICE: Mutex<Option<String>> = Mutex::new(None);

/// Whether this thread's panics are caught and reported where they happen (no emergency save).
pub fn is_caught_thread() -> bool {
    std::thread::current()
        .name()
        .is_some_and(|n| CAUGHT_THREADS.contains(&n))
}

/// The notice of a crash in this run (where its game was saved), once the panic hook wrote it.
pub fn notice_of_this_run() -> Option<String> {
    LAST_NOTICE.lock().ok()?.clone()
}

/// The notice of the last crash, if one is waiting (it stays until `dismiss_crash_notice`, so a
/// player who quits without reading it sees it again).
pub fn crash_notice() -> Option<String> {
    let bytes = std::fs::read(notice_file()).ok()?;
    Some(String::from_utf8_lossy(&bytes).chars().take(2_000).collect())
}

/// The player has read the notice.
pub fn dismiss_crash_notice() {
    let file = notice_file();
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(crate::storage::backup_of(&file));
}
