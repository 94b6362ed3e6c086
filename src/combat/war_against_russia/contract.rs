//! War Against Russia's side of the combat-system contract: its CRT, options, No Retreat! orders,
//! the German exchange, the must-attack rule and what the computer may choose.

use super::{Prepared, Raw, Rules, assess, resolve, validate};
use crate::combat::system::Variation;
use crate::combat::view::TableView;
use crate::combat::{
    Assessment, AttackerOption, Choices, Combatant, DefenderChoices, Refusal, Situation, WeighedDefense,
};

impl crate::combat::CombatSystem for Rules {
    fn name(&self) -> &'static str {
        "War Against Russia"
    }
    fn assess(&self, s: &Situation) -> Result<Assessment, Refusal> {
        assess(self, s)
    }
    fn table_view(&self) -> TableView {
        crate::combat::view::odds_view("War Against Russia CRT", &self.crt)
    }
    fn options_help(&self) -> Vec<crate::combat::system::OptionHelp> {
        use crate::combat::system::help;
        vec![
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
        ]
    }
    fn answer_variations<'a>(&'a self, _s: &'a Situation, _cells: u32) -> Vec<Variation<'a>> {
        vec![Box::new(|c: &DefenderChoices| {
            vec![DefenderChoices {
                withdraw: true,
                ..c.clone()
            }]
        })]
    }
    fn owner_picks_losses(&self) -> bool {
        false
    }
    fn plain_answer(&self) -> Option<&'static str> {
        Some("stay")
    }
    fn withdraw_answer(&self) -> &'static str {
        "retreat a hex"
    }
    fn alternatives(&self, s: &Situation) -> Vec<(&'static str, fn(&mut Choices))> {
        let mut alts: Vec<(&'static str, fn(&mut Choices))> = Vec::new();
        if self.german_exchange_possible(s) {
            alts.push(("Germans exchange", |c| c.german_exchange = true));
            alts.push(("Germans do not exchange", |c| c.german_exchange = false));
        }
        alts.push(("on a D the defenders retreat a hex", |c| c.defender_withdraws = true));
        alts.push(("on a D the defenders stay", |c| c.defender_withdraws = false));
        alts
    }
    fn defense_alternatives(&self, s: &Situation) -> Vec<(String, Situation)> {
        if s.defense.no_retreat {
            return Vec::new();
        }
        let mut other = s.clone();
        other.defense.no_retreat = true;
        vec![("defender gives No Retreat! orders".to_string(), other)]
    }
    fn defender_answers_hint(&self, _s: Option<&Situation>) -> Vec<&'static str> {
        vec!["No Retreat! orders before the roll", "a voluntary retreat on a D"]
    }
    fn losses_first_help(&self) -> Option<(&'static str, &'static str)> {
        Some((
            "automatic (the smallest cover)",
            "On an exchange this unit pays first; the rest is paid by the smallest total that covers it.",
        ))
    }
    fn attacker_options(&self) -> Vec<AttackerOption> {
        vec![AttackerOption::Exchange {
            nations: self.raw.germans.clone(),
        }]
    }
    fn weighed_defenses(&self) -> Vec<WeighedDefense> {
        vec![
            WeighedDefense::default(),
            WeighedDefense {
                no_retreat: true,
                answer: DefenderChoices::default(),
            },
        ]
    }
    fn has_must_attack(&self) -> bool {
        self.raw.must_attack
    }
    fn must_be_attacked(&self, attacker: &Combatant, defender: &Combatant) -> bool {
        Rules::must_be_attacked(self, attacker, defender)
    }
}

crate::combat::system::procedure_from_functions!(Prepared);
