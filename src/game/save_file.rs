//! What a saved game or turn file holds (`SavedGame`, the RON written; `LoadedGame`, a game read
//! and checked, ready to start), apart from reading and writing them (`save.rs`), so the
//! migrations of older formats (`save_v2.rs`, `save_v3.rs`) build today's game without
//! importing the loader that calls them.

use super::log::LogEntry;
use super::start::GameOrigin;
use crate::scenario::Scenario;
use crate::scenario::file::RawScenario;
use serde::{Deserialize, Serialize};

/// The save format written now: the scenario, the seed and the order log, the defender's answers
/// orders of their own and an attack's options a list of what its combat system offers (format
/// 3, an attack with a field per option, is read and migrated: `save_v3.rs`; format 2, whose
/// attacks carried the defender's answers: `save_v2.rs`).
pub const SAVE_FORMAT: u32 = 4;

/// A saved game or a turn file (`Entry`: a log entry as today's format writes it, or an older
/// format's to migrate).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "SavedGame", deny_unknown_fields)]
pub struct SavedGame<Entry = LogEntry> {
    /// `SAVE_FORMAT` when written.
    pub format: u32,
    /// The Hexfront that wrote it: version, commit and target (`version::written_by`).
    pub written_by: String,
    /// Set in a turn file sent by e-mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_file: Option<TurnFileInfo>,
    /// Where the game stands, in words, for lists (the replay decides, not this).
    pub summary: String,
    pub scenario_name: String,
    /// The stable hash of `scenario` as written (`scenario_hash`), so a file made for another
    /// version of a scenario is caught.
    pub scenario_hash: String,
    pub seed: u64,
    /// Retreats and advances with a choice were made automatically in this game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub automatic_after_combat: bool,
    /// Who plays each side, by side: `None` a person, else the computer at this level (as `--ai`
    /// takes it: `standard`, `expert`…). Continuing the game seats them again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<Option<String>>,
    /// The edition of the rules the game is played under (`game::edition`): 1 when the file does
    /// not say (it was written before editions).
    #[serde(default = "super::edition::first_edition")]
    pub rules_edition: u32,
    /// The position the log starts from (a scenario; a first-format save's snapshot).
    pub scenario: RawScenario,
    /// The scenario's ruleset when it is a user's ruleset file, so the game loads wherever the
    /// save goes and plays by the rules it was played by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<crate::scenario::ruleset::RawRuleset>,
    /// A game played on a server: how its seed came from the server's committed secret and the
    /// players' values (`dice_proof`); checked when the file is read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub online: Option<super::dice_proof::DiceProof>,
    pub log: Vec<Entry>,
}

/// Who sent a turn file to whom, and which entries are new to the receiver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnFileInfo {
    /// Side ids.
    pub from: String,
    pub to: String,
    /// Entries from this index on were played since the receiver last played.
    pub since: usize,
}

/// A game read from a file, checked, ready to start: its origin, seed and log.
#[derive(Clone, Debug)]
pub struct LoadedGame {
    pub scenario: Scenario,
    pub seed: u64,
    pub log: Vec<LogEntry>,
    pub automatic_after_combat: bool,
    pub turn_file: Option<TurnFileInfo>,
    /// It was a first-format save (a snapshot) and starts a new log.
    pub migrated: bool,
    pub summary: String,
    /// Who played each side (`SavedGame::seats`); empty when the file does not say.
    pub seats: Vec<Option<String>>,
    /// The edition of the rules it is played under (`game::edition`).
    pub edition: u32,
    /// A game played on a server: its dice proof, checked when the file was read.
    pub online: Option<super::dice_proof::DiceProof>,
}

impl LoadedGame {
    /// The game begun at `origin` with `log` (and the after-combat mode it was played in), to
    /// replay elsewhere: the theatre's moments, the showcase's quick runs.
    pub fn begun_at(origin: &GameOrigin, log: Vec<LogEntry>, automatic_after_combat: bool) -> Self {
        Self {
            log,
            automatic_after_combat,
            edition: origin.edition,
            ..Self::new(origin.scenario.clone(), origin.seed)
        }
    }

    /// A new game of `scenario` with `seed` (no orders yet).
    pub fn new(scenario: Scenario, seed: u64) -> Self {
        Self {
            summary: format!("New game, {} turns", scenario.raw.turns),
            scenario,
            seed,
            log: Vec::new(),
            automatic_after_combat: false,
            turn_file: None,
            migrated: false,
            seats: Vec::new(),
            edition: super::edition::CURRENT_EDITION,
            online: None,
        }
    }
}
