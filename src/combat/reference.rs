//! The rules reference a player reads in the game: what each option of a combat system does and
//! who decides it (the attacker with its attack, the defender before the dice or after the
//! result), in our words with the rule numbers of the texts; and each terrain's combat effect as
//! the rules assess it (a plain attack on one unit there, so the engine's own modifiers say it).

use super::{CombatRules, Combatant, Conditions, Situation, Support, Weather, assess};
use crate::rules::terrain::TerrainId;

pub use super::system::{OptionHelp, help};

/// The options of this combat system, in the order the panels show them.
pub fn options(rules: &CombatRules) -> Vec<OptionHelp> {
    rules.system().options_help()
}

/// What the rules do to a plain attack on one unit in each terrain (`(name, id)`): the
/// modifiers the assessment lists there, in words, or why nobody may attack there.
pub fn terrain_effects(
    rules: &CombatRules,
    terrains: &[(String, TerrainId)],
    attacker: Combatant,
    defender: Combatant,
) -> Vec<(String, String)> {
    terrains
        .iter()
        .map(|(name, id)| {
            let s = Situation {
                terrain: *id,
                weather: Weather::Clear,
                attackers: vec![attacker.clone()],
                defenders: vec![defender.clone()],
                attack: Support::default(),
                defense: Support::default(),
                conditions: Conditions::default(),
                choices: Default::default(),
            };
            let words = match assess(rules, &s) {
                Ok(a) if a.modifiers.is_empty() => "no effect".to_string(),
                Ok(a) => a
                    .modifiers
                    .iter()
                    .map(|m| format!("{} ({})", m.effect, m.source))
                    .collect::<Vec<_>>()
                    .join("; "),
                Err(r) => format!("no attack: {}", r.0),
            };
            (name.clone(), words)
        })
        .collect()
}
