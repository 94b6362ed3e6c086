//! Saved games and turn files: the scenario the game began from, the seed and the order log
//! (`SavedGame`, RON). Loading replays the log from the scenario and checks every entry's dice and
//! state hash; a file that does not replay is refused with the entry and what differs, and
//! nothing already running is touched. Saves of the first format (a scenario with a `progress`
//! snapshot) still load: their snapshot becomes the starting position of an empty log.

use super::components::{GameMap, ScenarioSource, Sides};
use super::execute::{ReplayError, replay_entry};
use super::hash::StableHasher;
use super::log::OrderLog;
use super::phase::{GameState, TurnState, current_phase};
use super::retreat::AfterCombatMode;
pub use super::save_file::{LoadedGame, SAVE_FORMAT, SavedGame, TurnFileInfo};
use super::start::GameOrigin;
use crate::scenario::file::RawScenario;
use crate::scenario::{LoadError, Scenario, Source};
use bevy::prelude::*;
use serde::Deserialize;
use std::path::Path;

/// Just the format number of a saved game, to know how to read the rest.
#[derive(Deserialize)]
#[serde(rename = "SavedGame")]
struct FormatOnly {
    format: u32,
}

/// Who plays each side of the game in play, as a save records it (`SavedGame::seats`): the
/// client keeps it up to date when seats change.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatRecord(pub Vec<Option<String>>);

/// The stable hash of a scenario as the save format writes it.
pub fn scenario_hash(raw: &RawScenario) -> String {
    let mut h = StableHasher::default();
    h.str(&crate::scenario::to_ron(raw).unwrap_or_default());
    format!("{:016x}", h.finish())
}

/// `scenario_hash`, and with a user ruleset its rules too (so a turn file under changed rules is
/// not taken for the same game). Built-in rulesets hash as before: older saves stay valid.
pub fn game_hash(raw: &RawScenario, ruleset: Option<&crate::scenario::ruleset::RawRuleset>) -> String {
    let Some(rules) = ruleset else {
        return scenario_hash(raw);
    };
    let mut h = StableHasher::default();
    h.str(&crate::scenario::to_ron(raw).unwrap_or_default());
    h.str(&crate::scenario::to_ron(rules).unwrap_or_default());
    format!("{:016x}", h.finish())
}

/// The rules a game's hash covers: a user ruleset's, none for a built-in one.
fn user_rules(scenario: &Scenario) -> Option<&crate::scenario::ruleset::RawRuleset> {
    scenario.has_user_ruleset().then_some(&scenario.ruleset.raw)
}

/// Where the game in `world` stands, in words: `Turn 3 of 8, German: Combat phase`.
pub fn summary(world: &World) -> String {
    let turn = world.resource::<TurnState>();
    let map = world.resource::<GameMap>();
    let sides = world.resource::<Sides>();
    let over = world.get_resource::<State<GameState>>().map(|s| *s.get()) == Some(GameState::Over);
    if over {
        return format!("Game over on turn {} of {}", turn.turn, turn.last_turn);
    }
    format!(
        "Turn {} of {}, {}: {:?} phase",
        turn.turn,
        turn.last_turn,
        sides.0.get(turn.active.0).map_or("?", |s| s.name.as_str()),
        current_phase(turn, map)
    )
}

/// The seed a saved game records: a first-format snapshot's own, else the game's.
pub fn saved_seed(origin: &GameOrigin) -> u64 {
    origin.scenario.raw.progress.as_ref().map_or(origin.seed, |p| p.seed)
}

/// The game in `world` as a saved game.
pub fn saved_game(world: &World) -> SavedGame {
    let origin = world.resource::<GameOrigin>();
    let raw = origin.scenario.raw.clone();
    let seed = saved_seed(origin);
    SavedGame {
        format: SAVE_FORMAT,
        written_by: crate::version::written_by(),
        turn_file: None,
        summary: summary(world),
        scenario_name: world.resource::<ScenarioSource>().0.name.clone(),
        scenario_hash: game_hash(&raw, user_rules(&origin.scenario)),
        seed,
        automatic_after_combat: world.get_resource::<AfterCombatMode>().is_some_and(|m| m.automatic),
        seats: world
            .get_resource::<SeatRecord>()
            .map(|r| r.0.clone())
            .unwrap_or_default(),
        rules_edition: world
            .get_resource::<super::edition::RulesEdition>()
            .copied()
            .unwrap_or_default()
            .0,
        scenario: raw,
        ruleset: origin
            .scenario
            .has_user_ruleset()
            .then(|| origin.scenario.ruleset.raw.clone()),
        online: None,
        log: world.resource::<OrderLog>().entries.clone(),
    }
}

fn write_error(path: &Path, message: String) -> LoadError {
    LoadError {
        file: path.to_path_buf(),
        pos: None,
        field: String::new(),
        message,
    }
}

/// A saved game as RON text, named `SavedGame(…)` so loaders tell it from a scenario.
pub fn to_text(game: &SavedGame) -> Result<String, ron::Error> {
    Ok(format!("SavedGame{}", crate::scenario::to_ron(game)?))
}

fn write(path: &Path, game: &SavedGame) -> Result<(), LoadError> {
    let text = to_text(game).map_err(|e| write_error(path, format!("cannot write RON: {e}")))?;
    crate::storage::write_atomic(path, &text).map_err(|e| write_error(path, e))
}

/// Writes the game in `world` to `path` (atomically: a crash never destroys the previous file).
/// A game can be saved at any point, mid-combat too: the log holds everything.
pub fn save_game(world: &World, path: &Path) -> Result<(), LoadError> {
    write(path, &saved_game(world))
}

/// Writes a turn file for the side to play now, from the side whose turn has just ended: the whole
/// log, and which entries are new to the receiver (those since it last played). Refused in the
/// middle of a side's turn, and while a secret (Rommel's declared tactics) waits for its answer: a
/// file cannot keep it from the receiver.
pub fn write_turn_file(world: &World, path: &Path) -> Result<SavedGame, LoadError> {
    let mut game = saved_game(world);
    let sides = world.resource::<Sides>();
    let to = world.resource::<TurnState>().active.0;
    let refuse = |why: String| Err(write_error(path, format!("no turn file written: {why}")));
    if let Some(c) = &world.resource::<super::combat_phase::PendingCombat>().0 {
        return refuse(format!(
            "the attack on {} waits for the defender's answer to hidden tactics, which a file cannot keep secret",
            c.order.target
        ));
    }
    let Some(last) = game.log.last() else {
        return refuse("no orders have been given yet".into());
    };
    if last.when.side == to {
        return refuse(format!(
            "{} is in the middle of its turn: end its last phase, then send the turn",
            sides.0[to].name
        ));
    }
    let from = last.when.side;
    let since = game.log.iter().rposition(|e| e.when.side == to).map_or(0, |i| i + 1);
    game.turn_file = Some(TurnFileInfo {
        from: sides.0[from].id.clone(),
        to: sides.0[to].id.clone(),
        since,
    });
    write(path, &game)?;
    Ok(game)
}

/// Reads a saved game, turn file, first-format save or scenario and replays its log to check it.
/// `seed` is for a plain scenario (a save has its own).
pub fn load_game(path: &Path, seed: u64) -> Result<LoadedGame, LoadError> {
    let text = crate::source::read_file(path)?;
    load_game_str(path, &text, seed)
}

/// `load_game` on text; `file` names it in errors.
pub fn load_game_str(file: impl AsRef<Path>, text: &str, seed: u64) -> Result<LoadedGame, LoadError> {
    let mut loaded = parse_game_str(file.as_ref(), text, seed)?;
    if let Some(info) = &loaded.turn_file
        && let Err((entry, why)) = senders_orders_only(&loaded, info.since)
    {
        return Err(Source::new(file.as_ref(), text).error(format!("log[{entry}]"), why));
    }
    match replay_app(&loaded, None) {
        Ok(app) => {
            // The replayed entries carry what the file does not: when each was given, its words.
            loaded.log = app.world().resource::<OrderLog>().entries.clone();
            Ok(loaded)
        }
        Err(e) => {
            let entry = e.entry.saturating_sub(1);
            Err(Source::new(file.as_ref(), text).error(format!("log[{entry}]"), format!("does not replay: {e}")))
        }
    }
}

/// Reads a saved game, turn file, first-format save or scenario without replaying its log.
pub fn parse_game_str(file: impl AsRef<Path>, text: &str, seed: u64) -> Result<LoadedGame, LoadError> {
    let src = Source::new(file.as_ref(), text);
    if crate::scenario::top_level_name(text) != "SavedGame" {
        let scenario = Scenario::from_ron_str(file.as_ref(), text)?;
        let Some(p) = &scenario.raw.progress else {
            return Ok(LoadedGame::new(scenario, seed));
        };
        let (seed, summary) = (
            p.seed,
            format!(
                "Turn {} of {}, {} to play (saved before order logs)",
                p.turn, scenario.raw.turns, p.side
            ),
        );
        return Ok(LoadedGame {
            summary,
            migrated: true,
            ..LoadedGame::new(scenario, seed)
        });
    }
    let format = src.parse::<FormatOnly>().map(|f| f.format).ok();
    if format == Some(super::save_v2::FORMAT_2) {
        return parse_format_2(&src);
    }
    let saved: SavedGame = if format == Some(super::save_v3::FORMAT_3) {
        super::save_v3::migrate(src.parse()?)
    } else {
        src.parse()?
    };
    if saved.format != SAVE_FORMAT {
        return Err(src.error(
            "format",
            format!(
                "this is save format {}, written by {}; this Hexfront ({}) reads formats {SAVE_FORMAT}, 3 and 2 (and first-format saves)",
                saved.format,
                saved.written_by,
                crate::version::LONG
            ),
        ));
    }
    if saved.rules_edition > super::edition::CURRENT_EDITION {
        return Err(src.error(
            "rules_edition",
            format!(
                "this game is played under rules edition {}, written by {}; this Hexfront ({}) knows editions up to {}: update Hexfront to continue it",
                saved.rules_edition,
                saved.written_by,
                crate::version::LONG,
                super::edition::CURRENT_EDITION
            ),
        ));
    }
    if let Some(proof) = &saved.online {
        proof
            .check(saved.seed)
            .and_then(|()| proof.check_chain(saved.log.iter().map(|e| (!e.dice.is_empty(), e.link.as_deref()))))
            .map_err(|why| src.error("online", format!("the dice proof does not hold: {why}")))?;
    }
    let scenario = saved_scenario(&src, saved.scenario, saved.ruleset, &saved.scenario_hash)?;
    Ok(LoadedGame {
        scenario,
        seed: saved.seed,
        log: saved.log,
        automatic_after_combat: saved.automatic_after_combat,
        turn_file: saved.turn_file,
        migrated: false,
        summary: saved.summary,
        seats: saved.seats,
        edition: saved.rules_edition,
        online: saved.online,
    })
}

/// A save's scenario (with its user ruleset, if it carries one), checked against the hash it was
/// saved with.
fn saved_scenario(
    src: &Source,
    raw: RawScenario,
    ruleset: Option<crate::scenario::ruleset::RawRuleset>,
    recorded: &str,
) -> Result<Scenario, LoadError> {
    let hash = game_hash(&raw, ruleset.as_ref());
    if hash != recorded {
        return Err(src.error(
            "scenario_hash",
            format!(
                "the scenario in the file does not match its hash ({recorded} recorded, {hash} now): it was changed after the game was saved"
            ),
        ));
    }
    match ruleset {
        Some(raw_rules) => {
            let rules = crate::scenario::Ruleset::from_raw(&src.nested("ruleset"), raw_rules)?;
            Scenario::from_raw_with_ruleset(&src.nested("scenario"), raw, std::sync::Arc::new(rules))
        }
        None => Scenario::from_raw(&src.nested("scenario"), raw),
    }
}

/// A second-format save, its log migrated to today's (the defender's answers as its own orders).
fn parse_format_2(src: &Source) -> Result<LoadedGame, LoadError> {
    let saved: super::save_v2::SavedGameV2 = src.parse()?;
    let scenario = saved_scenario(src, saved.scenario, saved.ruleset, &saved.scenario_hash)?;
    let mut game = LoadedGame {
        scenario,
        seed: saved.seed,
        log: Vec::new(),
        automatic_after_combat: saved.automatic_after_combat,
        turn_file: saved.turn_file,
        migrated: false,
        summary: saved.summary,
        seats: Vec::new(),
        // Format 2 came before editions: the first one.
        edition: super::edition::first_edition(),
        online: None,
    };
    let (log, starts) = super::save_v2::migrate_log(&game, saved.log).map_err(|(entry, why)| {
        src.error(
            format!("log[{}]", entry - 1),
            format!("a format-2 save whose entry {entry} does not carry over to format {SAVE_FORMAT}: {why}"),
        )
    })?;
    // A turn file's new entries start where they did, counted in today's log.
    if let Some(info) = &mut game.turn_file {
        info.since = starts.get(info.since).copied().unwrap_or(log.len());
    }
    game.log = log;
    Ok(game)
}

/// Starts `game` in `world` (in place of any game there) and replays its log (the first `to`
/// entries, or all), checking each.
pub fn start_loaded(world: &mut World, game: &LoadedGame, to: Option<usize>) -> Result<(), ReplayError> {
    world.insert_resource(AfterCombatMode {
        automatic: game.automatic_after_combat,
    });
    super::start::respawn(world, &game.scenario, game.seed);
    super::start::set_edition(world, game.edition);
    let n = to.unwrap_or(game.log.len()).min(game.log.len());
    for (i, entry) in game.log[..n].iter().enumerate() {
        replay_entry(world, i, entry)?;
    }
    Ok(())
}

/// A headless game replayed from `game` (up to entry `to`).
pub fn replay_app(game: &LoadedGame, to: Option<usize>) -> Result<App, ReplayError> {
    let mut app = super::headless_app(&game.scenario, game.seed);
    start_loaded(app.world_mut(), game, to)?;
    Ok(app)
}

/// A turn file's new orders (from entry `since`) must be its sender's: an order given in the
/// receiver's name (a concession, a move) is refused. The exceptions are a retreat path of a
/// receiver's unit, or the receiver's answer to an attack (before the dice or to its result), which
/// the rules let its owner give in the sender's turn and which were given at the sender's screen
/// (a documented limit of play by e-mail; `hexfront serve` asks the right player). The error names the entry (0-based).
pub fn senders_orders_only(game: &LoadedGame, since: usize) -> Result<(), (usize, String)> {
    let Some(info) = &game.turn_file else {
        return Ok(());
    };
    for (i, e) in game.log.iter().enumerate().skip(since) {
        // Rommel's tactics are secret: the receiver chooses them at its own screen, never the sender.
        let secret = game.scenario.ruleset.secret_tactics();
        let owners_choice = match e.order {
            super::order::Order::Retreat { .. } | super::order::Order::Answer(_) => true,
            super::order::Order::Defend(_) => !secret,
            _ => false,
        };
        if e.side == info.to && !owners_choice {
            return Err((
                i,
                format!(
                    "entry {} ({}) is given in the receiver's name (`{}`): a turn file holds only its sender's orders",
                    i + 1,
                    e.order.words(&|_| None),
                    info.to
                ),
            ));
        }
    }
    Ok(())
}

/// Checks that a turn file continues the game in `world`: the same scenario and seed, and this
/// game's log is where the file's log begins. Returns the number of entries already known here.
pub fn continues_game(world: &World, game: &LoadedGame) -> Result<usize, String> {
    let origin = world.resource::<GameOrigin>();
    if origin.scenario.raw.name != game.scenario.raw.name {
        return Err(format!(
            "it is a game of {}, not of {}",
            game.scenario.raw.name, origin.scenario.raw.name
        ));
    }
    if game_hash(&origin.scenario.raw, user_rules(&origin.scenario))
        != game_hash(&game.scenario.raw, user_rules(&game.scenario))
    {
        return Err(format!(
            "it was made with another version of the scenario {}",
            game.scenario.raw.name
        ));
    }
    if origin.seed != game.seed && origin.scenario.raw.progress.is_none() {
        return Err(format!(
            "it was played with seed {}, this game with seed {}",
            game.seed, origin.seed
        ));
    }
    if origin.edition != game.edition && origin.scenario.raw.progress.is_none() {
        return Err(format!(
            "it is played under edition {} of the rules, this game under edition {}",
            game.edition, origin.edition
        ));
    }
    let here = &world.resource::<OrderLog>().entries;
    if here.len() > game.log.len() {
        return Err(format!(
            "this game is further on ({} orders) than the turn file ({})",
            here.len(),
            game.log.len()
        ));
    }
    if let Some(i) = here
        .iter()
        .zip(&game.log)
        .position(|(a, b)| a.order != b.order || a.side != b.side || a.hash != b.hash)
    {
        return Err(format!(
            "the turn file's log leaves this game's at entry {} (a broken hash chain: the games differ)",
            i + 1
        ));
    }
    senders_orders_only(game, here.len()).map_err(|(_, why)| why)?;
    Ok(here.len())
}

/// Where a loaded game stands after its log, as a scenario (for thumbnails and summaries).
pub fn position(game: &LoadedGame) -> Option<Scenario> {
    let mut app = replay_app(game, None).ok()?;
    let raw = super::spawn::capture_scenario(app.world_mut());
    Scenario::from_raw(&Source::new("<position>", ""), raw).ok()
}
