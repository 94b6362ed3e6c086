//! The start screen's files, read off the frame: scenario files and saves are parsed, validated
//! and replayed by a few worker threads, each result sent back as it is ready, so a large or
//! broken file never freezes the window (its line shows a spinner until then). Files that change
//! on disk while the screen is open (a save overwritten by another Hexfront, a scenario edited)
//! are read again, like any other input.

use crate::game::save::{LoadedGame, load_game, position};
use crate::scenario::{self, Scenario};
use crate::storage;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// Worker threads at most: a slow file holds one, the others go on.
const WORKERS: usize = 3;

/// One file read.
pub(super) struct FileRead {
    pub path: PathBuf,
    pub loaded: Result<LoadedGame, String>,
    /// Where a game under way stands now (its log replayed).
    pub position: Option<Scenario>,
    /// The file's modification time when it was read.
    pub modified: Option<SystemTime>,
}

/// The files waiting to be read and the workers running, under one lock (a worker that finds
/// the queue empty stops in the same step, so a file queued then always finds a worker).
#[derive(Default)]
struct Work {
    queue: VecDeque<PathBuf>,
    workers: usize,
}

/// Reads files on worker threads and hands back what they found.
pub(super) struct FileReader {
    work: Arc<Mutex<Work>>,
    sender: Sender<FileRead>,
    results: Mutex<Receiver<FileRead>>,
}

impl FileReader {
    pub fn new() -> Self {
        let (sender, results) = channel();
        Self {
            work: Arc::default(),
            sender,
            results: Mutex::new(results),
        }
    }

    /// Queues `path` to be read; a worker starts when fewer than `WORKERS` are running.
    pub fn read(&self, path: PathBuf) {
        let Ok(mut work) = self.work.lock() else { return };
        work.queue.push_back(path);
        if work.workers >= WORKERS {
            return;
        }
        let (shared, sender) = (self.work.clone(), self.sender.clone());
        let spawned = std::thread::Builder::new()
            .name("hexfront-file-reader".into())
            .spawn(move || {
                loop {
                    let next = {
                        let Ok(mut work) = shared.lock() else { return };
                        let next = work.queue.pop_front();
                        if next.is_none() {
                            work.workers -= 1;
                        }
                        next
                    };
                    let Some(path) = next else { return };
                    if sender.send(read_one(path)).is_err() {
                        if let Ok(mut work) = shared.lock() {
                            work.workers -= 1;
                        }
                        return;
                    }
                }
            });
        if spawned.is_ok() {
            work.workers += 1;
        }
    }

    /// Whether files are still being read (the start screen keeps drawing until they are in).
    pub fn busy(&self) -> bool {
        self.work.lock().is_ok_and(|w| w.workers > 0 || !w.queue.is_empty())
    }

    /// Every file read since the last call.
    pub fn finished(&self) -> Vec<FileRead> {
        self.results.lock().map(|r| r.try_iter().collect()).unwrap_or_default()
    }
}

fn read_one(path: PathBuf) -> FileRead {
    let modified = modified(&path);
    // A panic in the loader is a bug, but it must not take the start screen with it.
    let read = std::panic::catch_unwind(|| {
        let loaded = load_game(&path, 1).map_err(|e| e.to_string());
        // Replaying a save for its position narrates every order: kept out of the game's log.
        let position = loaded
            .as_ref()
            .ok()
            .filter(|g| !g.log.is_empty() || g.migrated)
            .and_then(|g| super::present::showcase::quietly(|| position(g)));
        (loaded, position)
    });
    let (loaded, position) = read.unwrap_or_else(|_| {
        (
            Err(format!(
                "{}: Hexfront failed while reading this file (a bug)",
                path.display()
            )),
            None,
        )
    });
    FileRead {
        path,
        loaded,
        position,
        modified,
    }
}

/// The `.ron` files in `./scenarios` and the data folder's `scenarios` (other than the shipped ones,
/// which are embedded), then the saved games and turn files, newest first; `true` for a save.
pub(super) fn listed_files() -> Vec<(PathBuf, bool)> {
    let shipped: Vec<&str> = scenario::SHIPPED.iter().map(|(p, _)| *p).collect();
    let ron_files = |folder: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(folder)
            .map(|d| {
                d.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                    .collect()
            })
            .unwrap_or_default()
    };
    // `./scenarios` (a checkout or an unpacked bundle: the shipped files there are the embedded
    // ones), then the data folder's `scenarios`, where a player's own are listed whatever their
    // name, an edited copy of a shipped one too.
    let mut extra: Vec<PathBuf> = ron_files(Path::new("scenarios"))
        .into_iter()
        .filter(|p| !shipped.iter().any(|s| p.ends_with(s.trim_start_matches("scenarios/"))))
        .collect();
    extra.sort();
    let mut own = ron_files(&storage::data_dir().join("scenarios"));
    own.sort();
    extra.extend(own);
    let saves = storage::list_saves(&storage::saves_dir())
        .into_iter()
        .chain(storage::list_saves(&storage::turns_dir()))
        .map(|s| (s.path, true));
    extra.into_iter().map(|p| (p, false)).chain(saves).collect()
}

/// A file's modification time, when the system gives one.
pub(super) fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}
