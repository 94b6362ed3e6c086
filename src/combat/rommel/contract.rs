//! Rommel's side of the combat-system contract: its grid, its options and tactics, the defender's
//! answers and what the computer may choose.

use super::{Prepared, Raw, Rules, assess, resolve, validate};
use crate::combat::dice::Roll;
use crate::combat::system::Variation;
use crate::combat::view::TableView;
use crate::combat::{
    Assessment, AttackerOption, Choices, DefenderChoices, Refusal, ResultCode, Situation, TableCell, Tactic,
};
use crate::rules::units::UnitTrait;

fn mobile_defenders(s: &Situation) -> bool {
    s.defenders.iter().any(|u| u.has_trait(UnitTrait::Mobile))
}

impl crate::combat::CombatSystem for Rules {
    fn name(&self) -> &'static str {
        "Rommel"
    }
    fn assess(&self, s: &Situation) -> Result<Assessment, Refusal> {
        assess(self, s)
    }
    fn table_view(&self) -> TableView {
        TableView {
            title: "Rommel combat grid".into(),
            row_header: "hits".into(),
            columns: (1..=6).map(|f| format!("die {f}")).collect(),
            rows: (0..6)
                .map(|k| {
                    (
                        (6 - k).to_string(),
                        (0..6).map(|d| self.grid[d][k].to_string()).collect(),
                    )
                })
                .collect(),
            note: "Each side rolls a die: its strength scores every hit whose box it reaches in that die's column."
                .into(),
        }
    }
    fn landed(&self, _cell: Option<&TableCell>, rolls: &[Roll], code: &ResultCode) -> Vec<(usize, usize)> {
        crate::combat::view::landed_on_grid(rolls, code)
    }
    fn options_help(&self) -> Vec<crate::combat::system::OptionHelp> {
        use crate::combat::system::help;
        vec![
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
        ]
    }
    fn answer_variations<'a>(&'a self, s: &'a Situation, _cells: u32) -> Vec<Variation<'a>> {
        let mut out: Vec<Variation<'a>> = Vec::new();
        if mobile_defenders(s) {
            out.push(Box::new(|c: &DefenderChoices| {
                vec![DefenderChoices {
                    evade: false,
                    ..c.clone()
                }]
            }));
        }
        out.push(Box::new(|c: &DefenderChoices| {
            vec![DefenderChoices {
                withdraw: true,
                ..c.clone()
            }]
        }));
        out
    }
    fn plain_answer(&self) -> Option<&'static str> {
        Some("hold; evade where able")
    }
    fn alternatives(&self, s: &Situation) -> Vec<(&'static str, fn(&mut Choices))> {
        let mut alts: Vec<(&'static str, fn(&mut Choices))> = Vec::new();
        if mobile_defenders(s) {
            alts.push(("mobile defenders evade their last hit", |c| c.evade = true));
            alts.push(("mobile defenders do not evade", |c| c.evade = false));
        }
        alts.push(("surviving defenders retreat", |c| c.defender_withdraws = true));
        alts.push(("surviving defenders hold", |c| c.defender_withdraws = false));
        alts
    }
    fn defense_alternatives(&self, s: &Situation) -> Vec<(String, Situation)> {
        if !s.defense.tactics.is_empty() {
            return Vec::new();
        }
        [Tactic::DefenseInDepth, Tactic::Withdraw]
            .into_iter()
            .map(|t| {
                let mut other = s.clone();
                other.defense.tactics = vec![t.clone()];
                (format!("defender plays {}", t.name()), other)
            })
            .collect()
    }
    fn attacker_options(&self) -> Vec<AttackerOption> {
        vec![
            AttackerOption::Tactics(Tactic::ATTACK.to_vec()),
            AttackerOption::Barrage,
            AttackerOption::Flanking,
        ]
    }
    fn defense_tactics(&self) -> Vec<Tactic> {
        Tactic::DEFENSE.to_vec()
    }
    fn secret_tactics(&self) -> bool {
        true
    }
    fn losses_first_help(&self) -> Option<(&'static str, &'static str)> {
        Some((
            "automatic (the cheapest step)",
            "This unit takes the hits first as they are spread; the rest go to the step that costs the least strength.",
        ))
    }
}

crate::combat::system::procedure_from_functions!(Box<Prepared>);
