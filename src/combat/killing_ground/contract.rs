//! Killing Ground's side of the combat-system contract: its table, options, the defender's answers
//! and what the computer may choose.

use super::{Prepared, Raw, Rules, assess, resolve, validate};
use crate::combat::{Assessment, Choices, Refusal, RetreatOrSteps, Situation};

impl crate::combat::CombatSystem for Rules {
    fn name(&self) -> &'static str {
        "Killing Ground"
    }
    fn assess(&self, s: &Situation) -> Result<Assessment, Refusal> {
        assess(self, s)
    }
    fn table_view(&self) -> crate::combat::view::TableView {
        crate::combat::view::odds_view("Killing Ground CRT", &self.crt)
    }
    fn options_help(&self) -> Vec<crate::combat::system::OptionHelp> {
        use crate::combat::system::help;
        vec![
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
        ]
    }
    fn answer_variations<'a>(&'a self, s: &'a Situation, cells: u32) -> Vec<crate::combat::system::Variation<'a>> {
        use crate::combat::DefenderChoices;
        let mut out: Vec<crate::combat::system::Variation<'a>> = vec![Box::new(move |c: &DefenderChoices| {
            let mut v = vec![DefenderChoices {
                retreat: RetreatOrSteps::Steps,
                ..c.clone()
            }];
            v.extend((1..cells).map(|n| DefenderChoices {
                retreat: RetreatOrSteps::Mix(n),
                ..c.clone()
            }));
            v
        })];
        if self.attrition_may_retreat(s) {
            out.push(Box::new(|c: &DefenderChoices| {
                vec![DefenderChoices {
                    attrition_as_retreat: true,
                    ..c.clone()
                }]
            }));
        }
        if self.defender_may_name_type(s) {
            out.push(Box::new(|c: &DefenderChoices| {
                vec![DefenderChoices {
                    names_infantry: true,
                    ..c.clone()
                }]
            }));
        }
        out
    }
    fn alternatives(&self, s: &Situation) -> Vec<(&'static str, fn(&mut Choices))> {
        let mut alts: Vec<(&'static str, fn(&mut Choices))> = Vec::new();
        if self.attrition_may_retreat(s) {
            alts.push(("defender retreats a hex instead of an attritional loss", |c| {
                c.attrition_as_retreat = true
            }));
            alts.push(("defender takes its attritional losses", |c| {
                c.attrition_as_retreat = false
            }));
        }
        alts.push(("defender retreats", |c| c.defender_retreat = RetreatOrSteps::Retreat));
        alts.push(("defender takes steps instead of retreating", |c| {
            c.defender_retreat = RetreatOrSteps::Steps
        }));
        alts.push(("attacker retreats", |c| c.attacker_retreat = RetreatOrSteps::Retreat));
        alts.push(("attacker takes steps instead of retreating", |c| {
            c.attacker_retreat = RetreatOrSteps::Steps
        }));
        alts
    }
    fn defender_answers_hint(&self, _s: Option<&Situation>) -> Vec<&'static str> {
        vec!["retreat or steps, after the roll"]
    }
    fn losses_first_help(&self) -> Option<(&'static str, &'static str)> {
        Some((
            "automatic (the cheapest step)",
            "After the first step the rules assign (the attacker's strongest unit now), this unit takes the losses first; the rest go to the step that costs the least strength.",
        ))
    }
    fn attacker_options(&self) -> Vec<crate::combat::AttackerOption> {
        use crate::combat::AttackerOption;
        vec![AttackerOption::RetreatAsSteps, AttackerOption::AcceleratedEffort]
    }
    fn weighed_defenses(&self) -> Vec<crate::combat::WeighedDefense> {
        use crate::combat::{DefenderChoices, WeighedDefense};
        vec![
            WeighedDefense::default(),
            WeighedDefense {
                no_retreat: false,
                answer: DefenderChoices {
                    retreat: RetreatOrSteps::Steps,
                    ..DefenderChoices::default()
                },
            },
        ]
    }
}

crate::combat::system::procedure_from_functions!(Prepared);
