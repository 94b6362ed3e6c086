//! `hexfront replay FILE`: replays a saved game or turn file headless, one line per order (turn,
//! side, phase, the order in words, its dice and the state hash), checking each against the
//! record; `--verify` stops with a non-zero exit at the first entry that differs.

use hexfront::game::components::{GameMap, Sides};
use hexfront::game::execute::{order_words, replay_entry};
use hexfront::game::log::OrderLog;
use hexfront::game::phase::{TurnState, current_phase};
use hexfront::game::save::{parse_game_str, replay_app};
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
}

pub fn replay(file: &Path, verify: bool, to: Option<usize>, json: bool) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}: cannot read the file: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let game = match parse_game_str(file, &text, 1) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The game at its start; the loop below replays the log entry by entry.
    let mut app = match replay_app(&game, Some(0)) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
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
        say!(
            "{}: {} (seed {}), {} order(s){}",
            file.display(),
            game.scenario.raw.name,
            game.seed,
            game.log.len(),
            if n < game.log.len() {
                format!(", replaying the first {n}")
            } else {
                String::new()
            }
        );
    }
    let mut lines = Vec::new();
    let mut failed = false;
    for (i, recorded) in game.log[..n].iter().enumerate() {
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
            dice: got.as_ref().map_or_else(Vec::new, |g| g.dice.clone()),
            rng: got.as_ref().map_or((0, 0), |g| g.rng),
            hash: got.as_ref().map_or_else(String::new, |g| g.hash.to_string()),
            recorded_hash: recorded.hash.to_string(),
            problem: result.as_ref().err().map(|e| e.problem.clone()),
        };
        if !json {
            let dice = got.as_ref().map_or_else(|| "-".into(), |g| g.dice_words());
            say!(
                "{:>5}  T{} {:<10} {:<12} {}: {} | dice {} | {}",
                line.entry,
                line.turn,
                line.side,
                line.phase,
                line.issued_by,
                line.order,
                dice,
                line.hash
            );
            if let Some(p) = &line.problem {
                say!("       MISMATCH: {p}");
            }
        }
        let refused = got.is_none();
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
