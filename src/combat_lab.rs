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

/// When the dice given (`--dice`) are not the dice the combat rolled: too many (the rest unused),
/// or too few (the rest came from the seed).
fn dice_warning(given: usize, rolled: usize, seed: u64) -> Option<String> {
    if given == 0 || given == rolled {
        return None;
    }
    Some(if given > rolled {
        format!("{given} dice were given but the combat rolled only {rolled}")
    } else {
        format!(
            "{given} dice were given but the combat rolled {rolled}: the last {} came from seed {seed}",
            rolled - given
        )
    })
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
    if let Some(warning) = dice_warning(forced.len(), outcome.rolls.len(), seed) {
        eprintln!("warning: {warning}");
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

#[cfg(test)]
mod tests {
    #[test]
    fn dice_given_that_are_not_the_dice_rolled_are_warned_of() {
        assert_eq!(super::dice_warning(0, 2, 1), None, "no --dice: the seed's, no warning");
        assert_eq!(super::dice_warning(2, 2, 1), None);
        let more = super::dice_warning(3, 2, 1).unwrap();
        assert!(more.contains("3 dice were given") && more.contains("only 2"), "{more}");
        let fewer = super::dice_warning(1, 2, 7).unwrap();
        assert!(
            fewer.contains("rolled 2") && fewer.contains("the last 1 came from seed 7"),
            "{fewer}"
        );
    }
}
