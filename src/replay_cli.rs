//! `hexfront replay FILE`: replays a saved game or turn file headless, one line per order (turn,
//! side, phase, the order in words, its dice and the state hash), checking each against the
//! record; `--verify` stops with a non-zero exit at the first entry that differs.

use bevy::prelude::World;
use hexfront::game::components::{GameMap, Sides};
use hexfront::game::execute::{ReplayError, order_words, replay_entry};
use hexfront::game::log::{LogEntry, OrderLog};
use hexfront::game::phase::{TurnState, current_phase};
use hexfront::game::save::{LoadedGame, parse_game_str, replay_app};
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

#[derive(Serialize)]
struct Line {
    entry: usize,
    turn: u32,
    side: String,
    phase: String,
    issued_by: String,
    order: String,
    dice: Vec<hexfront::game::log::DieRecord>,
    rng: (u64, u64),
    hash: String,
    recorded_hash: String,
    /// `None` when the entry replayed as recorded; else what went wrong.
    problem: Option<String>,
    #[serde(skip)]
    dice_words: String,
    #[serde(skip)]
    refused: bool,
}

/// The game in `file` at its start, ready to replay.
fn open(file: &Path) -> Result<(LoadedGame, bevy::app::App), String> {
    let text = hexfront::source::read_file(file).map_err(|e| e.to_string())?;
    let game = parse_game_str(file, &text, 1).map_err(|e| e.to_string())?;
    let app = replay_app(&game, Some(0)).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok((game, app))
}

/// Replays the recorded entry `i` and describes it; the error when it did not replay as recorded.
fn replay_one(world: &mut World, i: usize, recorded: &LogEntry) -> (Line, Result<(), ReplayError>) {
    let (turn, side, phase) = {
        let t = world.resource::<TurnState>();
        let map = world.resource::<GameMap>();
        let sides = world.resource::<Sides>();
        (
            t.turn,
            sides.0.get(t.active.0).map_or("?".into(), |s| s.id.clone()),
            format!("{:?}", current_phase(t, map)),
        )
    };
    let words = order_words(world, &recorded.order);
    let result = replay_entry(world, i, recorded);
    let got = world.resource::<OrderLog>().entries.get(i).cloned();
    let line = Line {
        entry: i + 1,
        turn,
        side,
        phase,
        issued_by: recorded.side.clone(),
        order: words,
        dice_words: got.as_ref().map_or_else(|| "-".into(), |g| g.dice_words()),
        dice: got.as_ref().map_or_else(Vec::new, |g| g.dice.clone()),
        rng: got.as_ref().map_or((0, 0), |g| g.rng),
        hash: got.as_ref().map_or_else(String::new, |g| g.hash.to_string()),
        recorded_hash: recorded.hash.to_string(),
        problem: result.as_ref().err().map(|e| e.problem.clone()),
        refused: got.is_none(),
    };
    (line, result)
}

/// What was checked of a server's dice proof when the file was read (it would not have loaded
/// otherwise).
fn proof_words(proof: &hexfront::game::dice_proof::DiceProof, log: &[LogEntry]) -> String {
    let mut words = format!(
        "dice proof checked: the secret matches the commitment {} published when the game was made, and with the {} players' values gives the seed",
        proof.commitment,
        proof.contributions.len()
    );
    if proof.chain_end.is_some() {
        let links = log.iter().filter(|e| e.link.is_some()).count();
        words.push_str(&format!(
            "; hash-chained dice: {links} links, each the preimage of the one before, one for every order that rolled"
        ));
    }
    words
}

pub fn replay(file: &Path, verify: bool, to: Option<usize>, json: bool) -> ExitCode {
    let (game, mut app) = match open(file) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let world = app.world_mut();
    let n = to.unwrap_or(game.log.len()).min(game.log.len());
    // A closed pipe (`| head`) ends the listing quietly.
    let mut out = std::io::stdout().lock();
    macro_rules! say {
        ($($t:tt)*) => {
            if writeln!(out, $($t)*).is_err() {
                return ExitCode::SUCCESS;
            }
        };
    }
    if !json {
        let part = if n < game.log.len() {
            format!(", replaying the first {n}")
        } else {
            String::new()
        };
        say!(
            "{}: {} (seed {}), {} order(s){part}",
            file.display(),
            game.scenario.raw.name,
            game.seed,
            game.log.len()
        );
        if let Some(proof) = &game.online {
            say!("{}", proof_words(proof, &game.log));
        }
    }
    let mut lines = Vec::new();
    let mut failed = false;
    for (i, recorded) in game.log[..n].iter().enumerate() {
        let (line, result) = replay_one(world, i, recorded);
        if !json {
            say!(
                "{:>5}  T{} {:<10} {:<12} {}: {} | dice {} | {}",
                line.entry,
                line.turn,
                line.side,
                line.phase,
                line.issued_by,
                line.order,
                line.dice_words,
                line.hash
            );
            if let Some(p) = &line.problem {
                say!("       MISMATCH: {p}");
            }
        }
        let refused = line.refused;
        failed |= line.problem.is_some();
        lines.push(line);
        if let Err(e) = result
            && (verify || refused)
        {
            if json {
                say!("{}", serde_json::to_string_pretty(&lines).unwrap_or_default());
            }
            eprintln!("error: {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    }
    if json {
        say!("{}", serde_json::to_string_pretty(&lines).unwrap_or_default());
    } else {
        let summary = hexfront::game::save::summary(world);
        say!(
            "{}: {summary}",
            if failed {
                "replayed with mismatches"
            } else {
                "replayed exactly"
            }
        );
    }
    if failed && verify {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
