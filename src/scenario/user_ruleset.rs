//! User rulesets: a scenario may name a ruleset file (`ruleset: "my-rules.ron"`) instead of a
//! built-in one. It is looked for beside the scenario, in `rulesets/` next to the scenario's
//! folder, and in the data folder's `rulesets/`, and only there: a name that climbs out (`../`),
//! an absolute path and a symbolic link leading out of those folders are refused.

use super::ruleset::{BUILTIN, Ruleset};
use crate::source::LoadError;
use std::path::{Component, Path, PathBuf};

/// Whether a scenario's `ruleset` names a file rather than a built-in ruleset.
pub fn names_a_file(reference: &str) -> bool {
    reference.ends_with(".ron")
}

/// The folders a scenario at `scenario_file` may take its ruleset files from, in search order:
/// its own folder, `rulesets/` beside that folder, the data folder's `rulesets/`.
pub fn ruleset_folders(scenario_file: &Path, data_dir: Option<&Path>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(dir) = scenario_file.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        out.push(dir.to_path_buf());
        out.push(dir.join("..").join("rulesets"));
    }
    if let Some(data) = data_dir {
        out.push(data.join("rulesets"));
    }
    out
}

/// Where the ruleset file `reference` of a scenario at `scenario_file` is, or why it is refused
/// or not found.
pub fn resolve(reference: &str, scenario_file: &Path, data_dir: Option<&Path>) -> Result<PathBuf, String> {
    let path = Path::new(reference);
    let climbs = path
        .components()
        .any(|c| matches!(c, Component::ParentDir | Component::RootDir | Component::Prefix(_)));
    if path.is_absolute() || climbs || reference.starts_with(['/', '\\']) || reference.contains('\\') {
        return Err(format!(
            "the ruleset file `{reference}` is refused: name a file beside the scenario or in a `rulesets` folder (no `..`, no absolute path)"
        ));
    }
    let folders = ruleset_folders(scenario_file, data_dir);
    for folder in &folders {
        let candidate = folder.join(path);
        if !candidate.is_file() {
            continue;
        }
        let (Ok(real), Ok(root)) = (candidate.canonicalize(), folder.canonicalize()) else {
            continue;
        };
        if !real.starts_with(&root) {
            return Err(format!(
                "the ruleset file `{reference}` is refused: {} leads out of {} (a link to {})",
                candidate.display(),
                folder.display(),
                real.display()
            ));
        }
        return Ok(real);
    }
    let searched: Vec<String> = folders.iter().map(|f| f.display().to_string()).collect();
    let builtin: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
    Err(format!(
        "there is no ruleset file `{reference}` in {} (the built-in rulesets are {})",
        searched.join(", "),
        builtin.join(", ")
    ))
}

/// Loads and validates the ruleset file `reference` of the scenario at `scenario_file`; its
/// errors name the ruleset file, line and field.
pub fn load(reference: &str, scenario_file: &Path) -> Result<Result<Ruleset, LoadError>, String> {
    let data = crate::storage::data_dir();
    let path = resolve(reference, scenario_file, Some(&data))?;
    Ok(crate::source::read_file(&path).and_then(|text| Ruleset::from_ron_str(&path, &text)))
}

/// `hexfront ruleset new`: a built-in ruleset's text to start a user ruleset from, with a header
/// saying where it came from and its id and name changed to `id`.
pub fn starting_text(builtin: &str, id: &str) -> Result<String, String> {
    let (_, text) = BUILTIN.iter().find(|(n, _)| *n == builtin).ok_or_else(|| {
        let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
        format!(
            "there is no built-in ruleset `{builtin}`: they are {}",
            names.join(", ")
        )
    })?;
    let opening = format!("id: \"{builtin}\",");
    if !text.contains(&opening) {
        return Err(format!("the built-in ruleset `{builtin}` does not open with its id"));
    }
    let header = format!(
        "// A user ruleset, started from the built-in `{builtin}`. Change its terrain, movement,\n\
         // zones of control, stacking, phases and tables; its combat system stays `{builtin}`'s.\n\
         // A scenario uses it with `ruleset: \"{id}.ron\"` (this file beside the scenario, in\n\
         // `rulesets/` next to the scenario's folder, or in the data folder's `rulesets/`).\n"
    );
    Ok(header + &text.replacen(&opening, &format!("id: \"{id}\","), 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hexfront-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("scenarios")).unwrap();
        std::fs::create_dir_all(dir.join("rulesets")).unwrap();
        std::fs::create_dir_all(dir.join("data/rulesets")).unwrap();
        dir
    }

    #[test]
    fn a_ruleset_file_is_found_beside_in_rulesets_or_in_the_data_folder_and_nowhere_else() {
        let dir = folder("found");
        let scenario = dir.join("scenarios/battle.ron");
        let data = dir.join("data");
        std::fs::write(dir.join("scenarios/beside.ron"), "").unwrap();
        std::fs::write(dir.join("rulesets/shared.ron"), "").unwrap();
        std::fs::write(dir.join("data/rulesets/mine.ron"), "").unwrap();
        std::fs::write(dir.join("secret.ron"), "").unwrap();
        let found = |r: &str| resolve(r, &scenario, Some(&data));
        assert!(found("beside.ron").unwrap().ends_with("scenarios/beside.ron"));
        assert!(found("shared.ron").unwrap().ends_with("rulesets/shared.ron"));
        assert!(found("mine.ron").unwrap().ends_with("data/rulesets/mine.ron"));
        for escape in [
            "../secret.ron",
            "../../secret.ron",
            "/etc/passwd.ron",
            "sub/../../secret.ron",
            "..\\secret.ron",
        ] {
            let e = found(escape).unwrap_err();
            assert!(e.contains("is refused"), "{escape}: {e}");
        }
        let e = found("absent.ron").unwrap_err();
        assert!(e.starts_with("there is no ruleset file `absent.ron` in "), "{e}");
        assert!(e.contains("killing-ground"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_rulesets_folders_is_refused() {
        let dir = folder("linked");
        let scenario = dir.join("scenarios/battle.ron");
        std::fs::write(dir.join("outside.ron"), "").unwrap();
        std::os::unix::fs::symlink(dir.join("outside.ron"), dir.join("rulesets/linked.ron")).unwrap();
        let e = resolve("linked.ron", &scenario, None).unwrap_err();
        assert!(e.contains("leads out of"), "{e}");
        // A link that stays inside is fine.
        std::fs::write(dir.join("rulesets/real.ron"), "").unwrap();
        std::os::unix::fs::symlink(dir.join("rulesets/real.ron"), dir.join("rulesets/alias.ron")).unwrap();
        assert!(resolve("alias.ron", &scenario, None).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_started_ruleset_is_the_builtin_under_a_new_id() {
        let text = starting_text("next-war", "my-war").unwrap();
        let r = Ruleset::from_ron_str("my-war.ron", &text).unwrap();
        assert_eq!(r.raw.id, "my-war");
        let builtin = Ruleset::builtin("next-war").unwrap().unwrap();
        assert_eq!(r.raw.terrain, builtin.raw.terrain);
        assert!(starting_text("chess", "x").unwrap_err().contains("killing-ground"));
    }
}
