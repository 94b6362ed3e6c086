//! Scenarios players upload, each with the user ruleset it names: checked as `hexfront validate`
//! checks a file (errors name the file, line and field), within size limits, and built on the
//! server and its clients from the texts alone (no file a scenario names is ever read there).

use crate::scenario::user_ruleset::names_a_file;
use crate::scenario::{Ruleset, Scenario};
use std::sync::Arc;

/// The largest scenario or ruleset text an upload may carry (Barbarossa, the largest shipped
/// scenario, is 69 KiB).
pub const MAX_UPLOAD_TEXT: usize = 512 * 1024;

/// Uploads a player may keep on the server.
pub const MAX_UPLOADS_A_PLAYER: i64 = 50;

/// The largest upload request body: two texts at the limit, with room for JSON's escapes.
pub const MAX_UPLOAD_BODY: usize = 5 * MAX_UPLOAD_TEXT;

/// One uploaded file: its name and text.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct UploadedFile {
    pub file: String,
    pub text: String,
}

/// `POST /api/scenarios`'s body: the scenario, and the ruleset file it names if it names one.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct UploadRequest {
    pub scenario: UploadedFile,
    #[serde(default)]
    pub ruleset: Option<UploadedFile>,
}

/// The upload of the scenario file at `path` (and the ruleset file it names), checked here first
/// as `hexfront validate` checks it: the request, and the scenario (its name and sides to show).
pub fn upload_request(path: &std::path::Path) -> Result<(UploadRequest, Scenario), String> {
    let scenario = Scenario::load(path).map_err(|e| e.to_string())?;
    no_progress(&path.display().to_string(), &scenario)?;
    let text = crate::source::read_file(path).map_err(|e| e.to_string())?;
    let file_name = |p: &std::path::Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let ruleset = if names_a_file(&scenario.raw.ruleset) {
        let data = crate::storage::data_dir();
        let at = crate::scenario::user_ruleset::resolve(&scenario.raw.ruleset, path, Some(&data))?;
        let text = crate::source::read_file(&at).map_err(|e| e.to_string())?;
        Some(UploadedFile {
            file: scenario.raw.ruleset.clone(),
            text,
        })
    } else {
        None
    };
    let request = UploadRequest {
        scenario: UploadedFile {
            file: file_name(path),
            text,
        },
        ruleset,
    };
    Ok((request, scenario))
}

/// A game's scenario from its stored texts: `name` is the file's name without `.ron`.
pub fn scenario_of(name: &str, scenario_text: &str, ruleset_text: Option<&str>) -> Result<Scenario, String> {
    let ruleset = match ruleset_text {
        Some(text) => Some(Arc::new(
            Ruleset::from_ron_str(format!("{name}.ruleset.ron"), text).map_err(|e| e.to_string())?,
        )),
        None => None,
    };
    let scenario =
        Scenario::from_ron_str_no_files(format!("{name}.ron"), scenario_text, ruleset).map_err(|e| e.to_string())?;
    no_progress(&format!("{name}.ron"), &scenario)?;
    Ok(scenario)
}

/// A game in progress (a scenario with a `progress` block: its turn, its dice's seed) is not a
/// scenario a server starts from: its dice would be the file's, not the server's and players'.
fn no_progress(file: &str, scenario: &Scenario) -> Result<(), String> {
    if scenario.raw.progress.is_some() {
        return Err(format!(
            "{file}: field `progress`: a game in progress (its turn and its dice's seed) cannot be uploaded; upload the scenario it started from"
        ));
    }
    Ok(())
}

/// A file name an upload may have: `name.ron`, letters, digits, `-`, `_` and `.` only.
fn checked_file_name(what: &str, file: &str) -> Result<(), String> {
    let stem = file.strip_suffix(".ron").unwrap_or("");
    let fine = !stem.is_empty()
        && file.len() <= 80
        && !stem.starts_with('.')
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if fine {
        Ok(())
    } else {
        Err(format!(
            "{what}.file: `{}` is not a file name an upload may have: `name.ron`, up to 80 letters, digits, `-`, `_` or `.`",
            file.chars().take(80).collect::<String>()
        ))
    }
}

fn checked_size(what: &str, upload: &UploadedFile) -> Result<(), String> {
    if upload.text.len() > MAX_UPLOAD_TEXT {
        return Err(format!(
            "{what}.text: {} is {} bytes; an upload's file may have at most {MAX_UPLOAD_TEXT}",
            upload.file,
            upload.text.len()
        ));
    }
    Ok(())
}

/// Checks an upload: the scenario, built with the ruleset sent when it names a file. Errors
/// name the request's field, or the file, line and field of the text at fault.
pub fn check(request: &UploadRequest) -> Result<Scenario, String> {
    checked_file_name("scenario", &request.scenario.file)?;
    checked_size("scenario", &request.scenario)?;
    let ruleset = match &request.ruleset {
        Some(r) => {
            checked_file_name("ruleset", &r.file)?;
            checked_size("ruleset", r)?;
            Some(Arc::new(
                Ruleset::from_ron_str(&r.file, &r.text).map_err(|e| e.to_string())?,
            ))
        }
        None => None,
    };
    let scenario = Scenario::from_ron_str_no_files(&request.scenario.file, &request.scenario.text, ruleset)
        .map_err(|e| e.to_string())?;
    no_progress(&request.scenario.file, &scenario)?;
    let named = &scenario.raw.ruleset;
    match &request.ruleset {
        Some(r) if !names_a_file(named) => Err(format!(
            "ruleset: {} uses the built-in ruleset `{named}`; send no ruleset with it",
            request.scenario.file
        )),
        Some(r) if *named != r.file => Err(format!(
            "ruleset.file: {} names the ruleset file `{named}`, and the ruleset was sent as `{}`",
            request.scenario.file, r.file
        )),
        _ => Ok(scenario),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(name: &str) -> String {
        crate::scenario::SHIPPED
            .iter()
            .find(|(p, _)| p.ends_with(name))
            .map(|(_, t)| t.to_string())
            .unwrap()
    }

    fn request(scenario: &str, ruleset: Option<(&str, &str)>) -> UploadRequest {
        UploadRequest {
            scenario: UploadedFile {
                file: "mine.ron".into(),
                text: scenario.into(),
            },
            ruleset: ruleset.map(|(file, text)| UploadedFile {
                file: file.into(),
                text: text.into(),
            }),
        }
    }

    #[test]
    fn an_upload_is_checked_by_name_field_and_line() {
        let text = shipped("mortain-1944.ron");
        assert!(check(&request(&text, None)).is_ok());
        let user = text.replacen("ruleset: \"killing-ground\"", "ruleset: \"my-rules.ron\"", 1);
        assert_ne!(user, text, "the scenario names its ruleset as expected");
        let rules = crate::scenario::user_ruleset::starting_text("killing-ground", "my-rules").unwrap();
        let ok = check(&request(&user, Some(("my-rules.ron", &rules)))).unwrap();
        assert_eq!(ok.ruleset.raw.id, "my-rules");
        let cases: [(UploadRequest, &str); 7] = [
            (request(&user, None), "mine.ron:"),
            (
                request(&user, Some(("other.ron", &rules))),
                "ruleset.file: mine.ron names the ruleset file `my-rules.ron`",
            ),
            (request(&text, Some(("my-rules.ron", &rules))), "send no ruleset"),
            (
                request(
                    &user,
                    Some(("my-rules.ron", &rules.replacen("terrain: [", "terrian: [", 1))),
                ),
                "my-rules.ron:",
            ),
            (request(&text.replacen("units: [", "unitz: [", 1), None), "mine.ron:"),
            (request(&"x".repeat(MAX_UPLOAD_TEXT + 1), None), "at most"),
            (
                UploadRequest {
                    scenario: UploadedFile {
                        file: "../etc/passwd.ron".into(),
                        text: text.clone(),
                    },
                    ruleset: None,
                },
                "scenario.file",
            ),
        ];
        for (i, (req, expected)) in cases.iter().enumerate() {
            let e = check(req).err().unwrap_or_else(|| panic!("case {i} was accepted"));
            assert!(e.contains(expected), "case {i}: {e}");
        }
        // A game in progress carries its own dice's seed: refused, here and from the database.
        let snapshot = include_str!("../../tests/fixtures/mortain-combat-phase.ron");
        let e = check(&request(snapshot, None)).unwrap_err();
        assert!(e.contains("field `progress`"), "{e}");
        assert!(
            scenario_of("x", snapshot, None)
                .unwrap_err()
                .contains("field `progress`")
        );
        // The refusal of a ruleset file not sent names the scenario's field.
        let e = check(&request(&user, None)).unwrap_err();
        assert!(e.contains("field `ruleset`") && e.contains("was not given"), "{e}");
    }
}
