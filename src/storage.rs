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

/// How many autosaves are kept: starting a new game that makes one more removes the oldest.
pub const AUTOSAVES_KEPT: usize = 10;

const AUTOSAVE_PREFIX: &str = "autosave-";

/// An autosave's file (`autosave-….ron`), not its backup or a player's save.
pub fn is_autosave(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "ron")
        && path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(AUTOSAVE_PREFIX))
}

/// The game an autosave file names, `<scenario>-<date>-<time>` (what its other files are named after).
pub fn game_name_of_autosave(path: &Path) -> Option<String> {
    let stem = path.file_stem()?.to_string_lossy();
    stem.strip_prefix(AUTOSAVE_PREFIX).map(str::to_string)
}

/// The file a game autosaves to. A game opened from an autosave goes on in it (it is the same
/// game); any other game — new, or opened from a player's save or a turn file — gets a file of its
/// own, named after its scenario and the moment it started (`autosave-mortain-1944-20261124-041203.ron`),
/// never one that exists: two games of one scenario never write over each other.
pub fn autosave_path(
    dir: &Path,
    opened_from: Option<&Path>,
    scenario_name: &str,
    now: std::time::SystemTime,
) -> PathBuf {
    if let Some(from) = opened_from.filter(|f| is_autosave(f)) {
        return from.to_path_buf();
    }
    let stem = format!("{AUTOSAVE_PREFIX}{}-{}", slug(scenario_name), utc_stamp(now));
    let mut path = dir.join(format!("{stem}.ron"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{stem}-{n}.ron"));
        n += 1;
    }
    path
}

/// Removes the oldest autosaves in `dir` (and their backups) so that at most `keep` are left,
/// never `current`; returns what was removed.
pub fn prune_autosaves(dir: &Path, keep: usize, current: &Path) -> Vec<PathBuf> {
    let autosaves: Vec<SaveFile> = list_saves(dir)
        .into_iter()
        .filter(|s| is_autosave(&s.path) && s.path != current)
        .collect();
    // The current one counts among those kept.
    let room = keep.saturating_sub(1);
    let mut removed = Vec::new();
    for old in autosaves.into_iter().skip(room) {
        if std::fs::remove_file(&old.path).is_ok() {
            let _ = std::fs::remove_file(backup_of(&old.path));
            removed.push(old.path);
        }
    }
    removed
}

/// The civil date (UTC) of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

fn unix_seconds(t: std::time::SystemTime) -> i64 {
    match t.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    }
}

/// `20261124-041203`: a moment (UTC) as it goes in a file name.
pub fn utc_stamp(t: std::time::SystemTime) -> String {
    let s = unix_seconds(t);
    let (y, m, d) = civil_from_days(s.div_euclid(86_400));
    let sec = s.rem_euclid(86_400);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        sec / 3600,
        sec / 60 % 60,
        sec % 60
    )
}

/// When a file was written, in words, as lists show it: `just now`, `12 min ago`, `3 h ago`,
/// `yesterday`, `4 days ago`, else the date (`24 Nov 2026`).
pub fn when_in_words(then: std::time::SystemTime, now: std::time::SystemTime) -> String {
    let ago = unix_seconds(now) - unix_seconds(then);
    match ago {
        i64::MIN..60 => "just now".into(),
        60..3600 => format!("{} min ago", ago / 60),
        3600..86_400 => format!("{} h ago", ago / 3600),
        86_400..172_800 => "yesterday".into(),
        172_800..604_800 => format!("{} days ago", ago / 86_400),
        _ => {
            let (y, m, d) = civil_from_days(unix_seconds(then).div_euclid(86_400));
            const MONTHS: [&str; 12] = [
                "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
            ];
            format!("{d} {} {y}", MONTHS[(m - 1) as usize])
        }
    }
}

/// Where turn files are written and looked for.
/// The folder turn files are written to.
pub fn turns_dir() -> PathBuf {
    saves_dir().join("turns")
}

#[cfg(test)]
mod autosave_tests {
    use super::*;
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn stamps_and_words_read_the_calendar() {
        // 2026-11-24 04:12:03 UTC; 2000-02-29 (a leap day); the epoch.
        assert_eq!(utc_stamp(at(1_795_493_523)), "20261124-041203");
        assert_eq!(utc_stamp(at(951_782_400)), "20000229-000000");
        assert_eq!(utc_stamp(at(0)), "19700101-000000");
        let now = at(1_795_493_523);
        assert_eq!(when_in_words(at(1_795_493_500), now), "just now");
        assert_eq!(when_in_words(at(1_795_493_523 - 12 * 60), now), "12 min ago");
        assert_eq!(when_in_words(at(1_795_493_523 - 3 * 3600 - 5), now), "3 h ago");
        assert_eq!(when_in_words(at(1_795_493_523 - 86_400 - 10), now), "yesterday");
        assert_eq!(when_in_words(at(1_795_493_523 - 4 * 86_400), now), "4 days ago");
        assert_eq!(when_in_words(at(951_782_400), now), "29 Feb 2000");
    }

    #[test]
    fn games_of_one_scenario_autosave_apart_and_an_autosave_goes_on_in_its_file() {
        let dir = std::env::temp_dir().join(format!("hexfront-autosave-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let now = at(1_795_493_523);
        let first = autosave_path(&dir, None, "Mortain, 1944", now);
        assert_eq!(first, dir.join("autosave-mortain-1944-20261124-041203.ron"));
        std::fs::write(&first, "x").unwrap();
        // A second game started the same second, and one opened from a player's save: new files.
        let second = autosave_path(&dir, None, "Mortain, 1944", now);
        assert_eq!(second, dir.join("autosave-mortain-1944-20261124-041203-2.ron"));
        let mine = dir.join("my-mortain.ron");
        assert_ne!(autosave_path(&dir, Some(&mine), "Mortain, 1944", now), first);
        // Opened from its autosave, a game goes on in it.
        assert_eq!(autosave_path(&dir, Some(&first), "Mortain, 1944", now), first);
        assert!(is_autosave(&first) && !is_autosave(&mine) && !is_autosave(&backup_of(&first)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_the_newest_autosaves_are_kept_and_never_a_players_save() {
        let dir = std::env::temp_dir().join(format!("hexfront-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut paths = Vec::new();
        for i in 0..5u64 {
            let p = dir.join(format!("autosave-game-{i}.ron"));
            std::fs::write(&p, "x").unwrap();
            std::fs::write(backup_of(&p), "x").unwrap();
            let t = std::fs::File::options().write(true).open(&p).unwrap();
            t.set_modified(at(1_000_000 + i * 100)).unwrap();
            paths.push(p);
        }
        let players = dir.join("my-game.ron");
        std::fs::write(&players, "x").unwrap();
        let current = dir.join("autosave-new.ron");
        let mut removed = prune_autosaves(&dir, 3, &current);
        removed.sort();
        // Kept: the current one (not yet written) and the two newest.
        assert_eq!(removed, paths[..3].to_vec());
        assert!(paths[3].is_file() && paths[4].is_file() && players.is_file());
        assert!(!backup_of(&paths[0]).exists() && backup_of(&paths[4]).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
