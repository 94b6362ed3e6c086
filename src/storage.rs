//! Where Hexfront keeps a player's files (saves, autosaves, settings) and how it writes them:
//! atomically, through a temporary file renamed into place, so a crash never leaves half a file.

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

/// Writes `text` to `path` atomically: a temporary file beside it, then a rename over the old
/// file. Creates the folder when missing. The error says which file and why.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the folder {}: {e}", dir.display()))?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot move {} into place: {e}", tmp.display())
    })
}

/// A saved game on disk, for the load list.
#[derive(Clone, Debug, PartialEq)]
pub struct SaveFile {
    pub path: PathBuf,
    pub name: String,
    pub modified: Option<std::time::SystemTime>,
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
            path,
        })
        .collect();
    saves.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
    saves
}

/// A file-name-safe form of a scenario name: `Mortain, 1944` → `mortain-1944`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}
