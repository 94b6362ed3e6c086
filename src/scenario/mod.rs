//! Scenario and ruleset files: RON formats, a pure parse → validate pipeline with errors that
//! name file, line, column and field, and saving back to RON.

pub mod error;
pub mod file;
pub mod ruleset;
pub mod source_map;
pub mod validate;

pub use error::{LoadError, to_ron};
pub use file::RawScenario;
pub use ruleset::Ruleset;
pub use validate::{Scenario, UnitSetup};

/// The scenario `cargo run` opens when none is named, embedded so it works from any folder.
pub const DEFAULT_SCENARIO: (&str, &str) = (
    "scenarios/mortain-1944.ron",
    include_str!("../../scenarios/mortain-1944.ron"),
);

/// Loads the embedded default scenario.
pub fn default_scenario() -> Result<Scenario, LoadError> {
    Scenario::from_ron_str(format!("<embedded> {}", DEFAULT_SCENARIO.0), DEFAULT_SCENARIO.1)
}

/// Validates one file: a ruleset when it parses as one (its top-level struct has `combat_model`),
/// otherwise a scenario or saved game.
pub fn validate_file(path: &std::path::Path) -> Result<String, LoadError> {
    let text = error::read_file(path)?;
    if text.contains("combat_model") {
        let r = Ruleset::from_ron_str(path, &text)?;
        Ok(format!(
            "ruleset `{}` ({}): {} terrain types",
            r.raw.id,
            r.raw.name,
            r.looks.len()
        ))
    } else {
        let s = Scenario::from_ron_str(path, &text)?;
        Ok(format!(
            "scenario `{}` ({}): {}×{} map, {} units, ruleset `{}`",
            s.raw.name,
            s.raw.setting,
            s.board.grid.width,
            s.board.grid.height,
            s.units.len(),
            s.raw.ruleset
        ))
    }
}
