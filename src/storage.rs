//! Where Hexfront keeps a player's files (saves, autosaves, settings) and how it writes them so a
//! crash or a power cut never loses one: a temporary file flushed to disk, the previous version
//! kept as `.bak`, a rename into place, and the folder flushed.

use std::path::{Path, PathBuf};

/// The folder for saves and settings: `$HEXFRONT_DATA_DIR` when set (tests, portable installs),
/// else the platform's per-user data folder (`~/.local/share/hexfront` on Linux,
/// `~/Library/Application Support/Hexfront` on macOS, `%APPDATA%\Hexfront` on Windows).
pub fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HEXFRONT_DATA_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let home = || {
        std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."))
    };
    if cfg!(target_os = "windows") {
        std::env::var_os("APPDATA")
            .map(PathBuf::from)
            .unwrap_or_else(home)
            .join("Hexfront")
    } else if cfg!(target_os = "macos") {
        home().join("Library/Application Support/Hexfront")
    } else {
        std::env::var_os("XDG_DATA_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| home().join(".local/share"))
            .join("hexfront")
    }
}

/// The folder saved games go in.
pub fn saves_dir() -> PathBuf {
    data_dir().join("saves")
}

/// Writes `text` to `path` so that, whenever the process or the machine stops, `path` holds
/// either the old file or the new one, complete: the text goes to a temporary file of this
/// process (`path.<pid>.tmp`, so two Hexfronts writing one file never mix their halves) and is
/// flushed to disk; the old file is kept as `path.bak` (the version before this write); the
/// temporary file is renamed over `path`; the folder is flushed so the rename itself is on disk.
/// Creates the folder when missing. On failure the temporary file is removed and the error says
/// which file and why.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the folder {}: {e}", dir.display()))?;
    }
    let tmp = with_suffix(path, &format!(".{}.tmp", std::process::id()));
    let written = write_flushed(&tmp, text.as_bytes()).and_then(|()| {
        keep_backup(path)?;
        std::fs::rename(&tmp, path).map_err(|e| format!("cannot move {} into place: {e}", tmp.display()))
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    if let Some(dir) = dir {
        sync_dir(dir);
    }
    Ok(())
}

/// `path` with `suffix` added to its file name: `a.ron` → `a.ron.bak`.
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The backup `write_atomic` keeps of `path`'s previous version.
pub fn backup_of(path: &Path) -> PathBuf {
    with_suffix(path, ".bak")
}

fn write_flushed(tmp: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", tmp.display());
    let mut file = std::fs::File::create(tmp).map_err(fail)?;
    file.write_all(bytes).map_err(fail)?;
    file.sync_all().map_err(fail)
}

/// Makes `path.bak` the current `path` (when there is one): a second name for the same file where
/// the system allows it (nothing copied), else a flushed copy; either way replaced atomically.
/// (After a crash between the two renames `path` and `path.bak` may be one file; renaming one
/// name of a file over another of its names does nothing, so the temporary name is removed.)
fn keep_backup(path: &Path) -> Result<(), String> {
    if !path.is_file() {
        return Ok(());
    }
    let bak = backup_of(path);
    let bak_tmp = with_suffix(path, &format!(".bak.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&bak_tmp);
    let made = std::fs::hard_link(path, &bak_tmp).is_ok()
        || std::fs::read(path).is_ok_and(|old| write_flushed(&bak_tmp, &old).is_ok());
    if made {
        let _ = std::fs::rename(&bak_tmp, &bak);
        let _ = std::fs::remove_file(&bak_tmp);
    }
    // A backup that cannot be made does not stop the save itself.
    Ok(())
}

/// Flushes a folder's entries (a rename) to disk, where the system allows it (not on Windows,
/// whose renames are durable once they return).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// A saved game on disk, for the load list.
#[derive(Clone, Debug, PartialEq)]
pub struct SaveFile {
    pub path: PathBuf,
    pub name: String,
    pub modified: Option<std::time::SystemTime>,
    /// The version before its last save (`name.ron.bak`), when kept.
    pub backup: Option<PathBuf>,
}

/// The `.ron` files in `dir`, newest first (an empty list when the folder does not exist).
pub fn list_saves(dir: &Path) -> Vec<SaveFile> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut saves: Vec<SaveFile> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|path| SaveFile {
            name: path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            modified: std::fs::metadata(&path).and_then(|m| m.modified()).ok(),
            backup: Some(backup_of(&path)).filter(|b| b.is_file()),
            path,
        })
        .collect();
    saves.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
    saves
}

/// A file-name-safe form of a scenario name: `Mortain, 1944` → `mortain-1944`, letters of every
/// script kept (`Lüttich` → `lüttich`, so names in Cyrillic stay apart); at most
/// `MAX_SAVE_NAME_CHARS` characters (a 300-character name still makes a file name every system
/// accepts), `game` when nothing is left.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if out.chars().count() >= crate::source::limits::MAX_SAVE_NAME_CHARS {
            break;
        }
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "game".to_string()
    } else {
        out.to_string()
    }
}
