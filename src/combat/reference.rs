//! The rules reference a player reads in the game: what each option of a combat system does and
//! who decides it (the attacker with its attack, the defender before the dice or after the
//! result), in our words with the rule numbers of the texts; and each terrain's combat effect as
//! the rules assess it (a plain attack on one unit there, so the engine's own modifiers say it).

use super::{CombatRules, Combatant, Conditions, Situation, Support, Weather, assess};
use crate::rules::terrain::TerrainId;

/// One option: its name, who decides it and when, what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionHelp {
    pub name: &'static str,
    pub who: &'static str,
    pub text: &'static str,
}

const fn help(name: &'static str, who: &'static str, text: &'static str) -> OptionHelp {
    OptionHelp { name, who, text }
}

/// The options of this combat system, in the order the panels show them.
pub fn options(rules: &CombatRules) -> Vec<OptionHelp> {
    match rules {
        CombatRules::KillingGround(_) => vec![
            help(
                "Retreat or take steps (8.93)",
                "each side for its own units, after the result (the defender answers it)",
                "A retreat result may be taken as hexes of retreat, as step losses instead (one step per hex), or part of each. All units of a side that retreats retreat together; the steps may fall on any of its units in the combat.",
            ),
            help(
                "Attritional loss (8.10.1)",
                "the rules, after a side takes its whole retreat as steps",
                "That side rolls a die against its best effectiveness rating: at or under it, the other side loses a step of its choosing.",
            ),
            help(
                "A hex instead of the attritional loss (8.10.3)",
                "the defender, after the roll",
                "Units defending in a city, and Germans in bocage or hedgerows, may take an attritional loss as a one-hex retreat instead.",
            ),
            help(
                "Accelerated Effort (8.10.4)",
                "the attacker, with the attack",
                "One attacking infantry unit loses a step before the roll and rolls against its ER: at or under it, two columns to the right; above it, one; three or more above it, none.",
            ),
            help(
                "Who takes losses first (8.94-8.95)",
                "each owner (the defender with its answer)",
                "Step losses fall on the units that took part; the owner picks which, after the first step the rules assign.",
            ),
            help(
                "Combined arms: the attacker's first loss (8.96)",
                "the defender, with its answer to the result",
                "A defending stack of armor and infantry types, not disorganized at the start and not disorganized by the result, names the type of unit the attacker loses its first step from: armor (the suggestion when the attackers have both and armor costs them more) or infantry.",
            ),
        ],
        CombatRules::Rommel(_) => vec![
            help(
                "Tactics",
                "each side, secretly: the attacker with the attack, the defender before the dice",
                "Each side plays up to one tactic a unit, paid with Ops; both are revealed together. Recce: that side shoots first (both: cancelled). Infiltration: one infantry unit doubled (wasted in open terrain). Reserve artillery: off-table heavy batteries join the barrage. Airstrike: only in clear weather, never in woods. Pinning attack: cancels the defender's Withdraw and its evasion. Where the texts give no number for a tactic's effect, the ruleset's are authored for Hexfront.",
            ),
            help(
                "Defense in depth",
                "the defender, before the dice",
                "The attacker's hits are shifted down one.",
            ),
            help(
                "Withdraw",
                "the defender, before the dice",
                "The defender retreats and the combat does not happen: no hits on either side.",
            ),
            help(
                "Evasion",
                "the defender, after the hits are known",
                "A mobile defender may take its last hit as a retreat instead (not at 4 or more hits, nor against a Pinning attack).",
            ),
            help(
                "Withdraw after combat",
                "the defender, after the result",
                "Surviving defenders may leave the square after the combat instead of holding it.",
            ),
        ],
        CombatRules::WarAgainstRussia(_) => vec![
            help(
                "No Retreat! orders",
                "the defender, before the die: Germans unit by unit at any time, Russians all their units for a whole turn, Axis allies never",
                "Results change: DE becomes BR, DR becomes DE, DW becomes D, dw becomes no effect. The units stand and die rather than retreat.",
            ),
            help(
                "Voluntary retreat on a D",
                "the defender, after the die",
                "D disperses every defending unit; their owner may retreat them a hex.",
            ),
            help(
                "German exchange",
                "the German attacker, after the die, in the weather the tables allow",
                "Instead of the result, the Germans may exchange at the tables' rate for it.",
            ),
            help(
                "Retreat route",
                "the attacker",
                "Retreats go away from the attacked hex, not into an enemy zone of control (unless a friendly unit not under attack is there), and no closer to the attackers.",
            ),
            help(
                "Surrounded, armor overrun",
                "the rules",
                "A defender who cannot retreat takes DR as DE and DE as BR.",
            ),
        ],
        CombatRules::NextWar(_) => vec![
            help(
                "Try to hold (ignore a retreat)",
                "the defender, after a retreat result",
                "Defenders in a city, a fortified hex or the ruleset's hold terrain may ignore a retreat: the unit with the lowest ER checks it; a pass holds, a failure holds at the cost of one more step.",
            ),
            help(
                "Who takes losses first",
                "each owner (the defender with its answer)",
                "After the lead unit's step and a step from every unit at full strength, the owner picks who loses next.",
            ),
        ],
        CombatRules::SmallGeneral(_) => vec![help(
            "No options",
            "nobody",
            "3d6 with the modifiers; a retreat goes one hex in a random direction among the friendly hexes.",
        )],
    }
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
