//! Scenario and ruleset files: RON formats, a pure parse → validate pipeline with errors that
//! name file, line, column and field, and saving back to RON.

pub mod bench;
pub mod case;
mod deployment;
pub mod file;
mod limits;
mod map;
pub mod ruleset;
pub mod setup;
pub mod tracks;
pub mod user_ruleset;
pub mod validate;
pub mod write;

pub use crate::source::{LoadError, Source, to_ron};
pub use bench::{benchmark_scenario, sized_benchmark_scenario};
pub use case::CombatCase;
pub use file::RawScenario;
pub use ruleset::Ruleset;
pub use validate::{Scenario, UnitSetup};

/// The scenario `cargo run` opens when none is named, embedded so it works from any folder.
pub const DEFAULT_SCENARIO: (&str, &str) = (
    "scenarios/mortain-1944.ron",
    include_str!("../../scenarios/mortain-1944.ron"),
);

/// Every shipped scenario, embedded (path, text), the default first.
pub const SHIPPED: &[(&str, &str)] = &[
    DEFAULT_SCENARIO,
    (
        "scenarios/sidi-bou-zid-1943.ron",
        include_str!("../../scenarios/sidi-bou-zid-1943.ron"),
    ),
    (
        "scenarios/smolensk-1941.ron",
        include_str!("../../scenarios/smolensk-1941.ron"),
    ),
    (
        "scenarios/chorwon-hypothetical.ron",
        include_str!("../../scenarios/chorwon-hypothetical.ron"),
    ),
    (
        "scenarios/st-vith-1944.ron",
        include_str!("../../scenarios/st-vith-1944.ron"),
    ),
    (
        "scenarios/barbarossa-centre-1941.ron",
        include_str!("../../scenarios/barbarossa-centre-1941.ron"),
    ),
    (
        "scenarios/sedan-1940.ron",
        include_str!("../../scenarios/sedan-1940.ron"),
    ),
];

/// Loads a shipped scenario from its embedded text.
pub fn shipped_scenario(index: usize) -> Result<Scenario, LoadError> {
    let (path, text) = SHIPPED[index];
    Scenario::from_ron_str(format!("<embedded> {path}"), text)
}

/// Loads the embedded default scenario.
pub fn default_scenario() -> Result<Scenario, LoadError> {
    Scenario::from_ron_str(format!("<embedded> {}", DEFAULT_SCENARIO.0), DEFAULT_SCENARIO.1)
}

/// Validates one file: a ruleset when its top-level struct is `Ruleset(…)`, a combat case for
/// `CombatCase(…)`, otherwise a scenario or saved game.
pub fn validate_file(path: &std::path::Path) -> Result<String, LoadError> {
    let text = crate::source::read_file(path)?;
    if top_level_name(&text) == "CombatCase" {
        let c = CombatCase::from_ron_str(path, &text)?;
        Ok(format!(
            "combat case ({}): {} attacker(s) against {} defender(s)",
            c.ruleset.raw.name,
            c.situation.attackers.len(),
            c.situation.defenders.len()
        ))
    } else if top_level_name(&text) == "Ruleset" {
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

/// The name before the first `(` outside comments and `#![…]` attributes (`Ruleset`, `Scenario`,
/// `SavedGame`), after any byte-order mark.
pub fn top_level_name(text: &str) -> &str {
    opening(text)
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
        .unwrap_or("")
}

/// The text from its first token on: after any byte-order mark, comments and `#![…]` attributes.
pub fn opening(text: &str) -> &str {
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    loop {
        rest = rest.trim_start();
        if rest.starts_with("//") || rest.starts_with("#!") {
            rest = rest.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r);
        } else {
            break;
        }
    }
    rest
}
