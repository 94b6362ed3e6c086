//! `hexfront odds` and `hexfront resolve`: the command-line combat lab over combat case files.

use hexfront::combat::{self, Dice, report};
use hexfront::scenario::CombatCase;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;

fn load(path: &Path) -> Result<CombatCase, ExitCode> {
    CombatCase::load(path).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::FAILURE
    })
}

fn print_json(value: &impl Serialize) -> ExitCode {
    match serde_json::to_string_pretty(value) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write JSON: {e}");
            ExitCode::FAILURE
        }
    }
}

fn ids(units: &[combat::Combatant]) -> Vec<&str> {
    units.iter().map(|u| u.id.as_str()).collect()
}

fn refused(path: &Path, e: &combat::Refusal) -> ExitCode {
    eprintln!("error: {}: attack refused: {e}", path.display());
    ExitCode::FAILURE
}

#[derive(Serialize)]
struct OddsJson<'a> {
    ruleset: &'a str,
    attackers: Vec<&'a str>,
    defenders: Vec<&'a str>,
    #[serde(flatten)]
    odds: &'a combat::Odds,
}

pub fn odds(path: &Path, json: bool) -> ExitCode {
    let case = match load(path) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let s = &case.situation;
    let odds = match combat::odds(&case.ruleset.combat, s) {
        Ok(o) => o,
        Err(e) => return refused(path, &e),
    };
    if json {
        let out = OddsJson {
            ruleset: &case.ruleset.raw.id,
            attackers: ids(&s.attackers),
            defenders: ids(&s.defenders),
            odds: &odds,
        };
        return print_json(&out);
    } else {
        println!("{} — {}", case.ruleset.raw.name, path.display());
        if !case.raw.description.is_empty() {
            println!("{}", case.raw.description);
        }
        print!("{}", report::odds_text(s, &odds));
    }
    ExitCode::SUCCESS
}

#[derive(Serialize)]
struct ResolveJson<'a> {
    ruleset: &'a str,
    seed: u64,
    attackers: Vec<&'a str>,
    defenders: Vec<&'a str>,
    assessment: &'a combat::Assessment,
    #[serde(flatten)]
    outcome: &'a combat::Outcome,
}

pub fn resolve(path: &Path, seed: u64, forced: &[u8], json: bool) -> ExitCode {
    let case = match load(path) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let s = &case.situation;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dice = Dice::forced_then_seeded(forced, &mut rng);
    let (assessment, outcome) = match combat::fight(&case.ruleset.combat, s, &mut dice) {
        Ok(r) => r,
        Err(e) => return refused(path, &e),
    };
    if dice.forced_used() < forced.len() {
        eprintln!(
            "warning: {} dice were given but the combat rolled only {}",
            forced.len(),
            dice.forced_used()
        );
    }
    if json {
        let out = ResolveJson {
            ruleset: &case.ruleset.raw.id,
            seed,
            attackers: ids(&s.attackers),
            defenders: ids(&s.defenders),
            assessment: &assessment,
            outcome: &outcome,
        };
        return print_json(&out);
    } else {
        println!("{} — {} (seed {seed})", case.ruleset.raw.name, path.display());
        print!("{}", report::outcome_text(s, &assessment, &outcome));
    }
    ExitCode::SUCCESS
}
