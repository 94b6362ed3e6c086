//! Standing answers: what a player tells the game to answer for a side without asking each time
//! ("always retreat when I may", "take steps when the unit is at full strength", "the suggested
//! answer"), changeable at any moment. A standing answer is given as that side's own `Defend` or
//! `Answer` order, so the log shows it as the defender's; the default for a person is to be
//! asked. The computer answers for its sides through the same orders (`ai`).

use super::combat_phase::{PendingAnswer, PendingCombat, WaitingAnswer};
use super::components::{GameMap, Sides};
use super::fight::defense_options;
use super::order::{DefenseOrder, IssuedOrder, Order};
use crate::combat::{DefenderChoices, RetreatOrSteps};
use bevy::prelude::*;

/// How a side answers what the rules leave to it as defender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StandingAnswer {
    /// Ask the player each time (the suggestion preselected).
    #[default]
    Ask,
    /// Give the suggested answer (the one that costs the defender least).
    Suggested,
    /// Retreat when the rules allow it rather than take steps, hold or stand under No Retreat!
    /// orders.
    AlwaysRetreat,
    /// Take steps instead of retreating while every defender is at full strength; otherwise
    /// retreat.
    StepsAtFullStrength,
}

impl StandingAnswer {
    pub const ALL: [StandingAnswer; 4] = [
        StandingAnswer::Ask,
        StandingAnswer::Suggested,
        StandingAnswer::AlwaysRetreat,
        StandingAnswer::StepsAtFullStrength,
    ];

    /// The choice as the settings list it.
    pub fn name(self) -> &'static str {
        match self {
            StandingAnswer::Ask => "Ask me",
            StandingAnswer::Suggested => "The suggested answer",
            StandingAnswer::AlwaysRetreat => "Always retreat when I may",
            StandingAnswer::StepsAtFullStrength => "Take steps at full strength",
        }
    }

    /// What it does, for a tooltip.
    pub fn explain(self) -> &'static str {
        match self {
            StandingAnswer::Ask => {
                "Each answer the rules give you as defender waits for you, the suggestion preselected"
            }
            StandingAnswer::Suggested => {
                "The game answers with the answer that costs you least on the odds (it shows in the log as your order)"
            }
            StandingAnswer::AlwaysRetreat => {
                "Retreat rather than take steps, try to hold or give No Retreat! orders; other choices as suggested"
            }
            StandingAnswer::StepsAtFullStrength => {
                "Take steps instead of retreating while every defender is at full strength, else retreat; other choices as suggested"
            }
        }
    }
}

/// Each side's standing answer (by side index; a side not listed is asked).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct StandingAnswers(pub Vec<StandingAnswer>);

impl StandingAnswers {
    pub fn of(&self, side: usize) -> StandingAnswer {
        self.0.get(side).copied().unwrap_or_default()
    }

    pub fn set(&mut self, side: usize, answer: StandingAnswer) {
        if self.0.len() <= side {
            self.0.resize(side + 1, StandingAnswer::Ask);
        }
        self.0[side] = answer;
    }
}

/// The answer `policy` gives to the waiting result, or `None` when it asks the player.
/// `full_strength`: whether every defender is at full strength.
pub fn answer_by(policy: StandingAnswer, waiting: &WaitingAnswer, full_strength: bool) -> Option<DefenderChoices> {
    let suggested = &waiting.options[waiting.suggested].choices;
    // Of the answers the one the policy ranks highest, the suggestion first among equals.
    let best = |rank: &dyn Fn(&DefenderChoices) -> i32| {
        let mut best = suggested;
        for o in &waiting.options {
            if rank(&o.choices) > rank(best) {
                best = &o.choices;
            }
        }
        best.clone()
    };
    // How much an answer gives ground: withdrawing, a hex for the attritional loss, retreating
    // rather than taking steps or holding.
    let retreating = |c: &DefenderChoices| {
        i32::from(c.withdraw) + i32::from(c.attrition_as_retreat)
            - i32::from(c.hold)
            - i32::from(c.retreat != RetreatOrSteps::Retreat)
    };
    match policy {
        StandingAnswer::Ask => None,
        StandingAnswer::Suggested => Some(suggested.clone()),
        StandingAnswer::AlwaysRetreat => Some(best(&retreating)),
        StandingAnswer::StepsAtFullStrength if full_strength => Some(best(&|c: &DefenderChoices| {
            i32::from(c.retreat == RetreatOrSteps::Steps)
        })),
        StandingAnswer::StepsAtFullStrength => Some(best(&retreating)),
    }
}

/// The order a side's standing answer gives now, as that side, or `None` when nothing waits for
/// a standing answer (or the side is to be asked).
pub fn standing_order(world: &mut World) -> Option<IssuedOrder> {
    let standing = world.get_resource::<StandingAnswers>()?.clone();
    let sides = world.resource::<Sides>().0.clone();
    if let Some(waiting) = world.resource::<PendingAnswer>().0.clone() {
        let full = defenders_at_full_strength(world, &waiting);
        let answer = answer_by(standing.of(waiting.defender.0), &waiting, full)?;
        return Some(IssuedOrder::new(
            sides[waiting.defender.0].id.clone(),
            Order::Answer(answer),
        ));
    }
    let declared = world.resource::<PendingCombat>().0.clone()?;
    // Rommel's tactics are always the player's to choose.
    if world.resource::<GameMap>().ruleset.secret_tactics() {
        return None;
    }
    let defense = match standing.of(declared.defender.0) {
        StandingAnswer::Ask => return None,
        StandingAnswer::Suggested => suggested_defense(world),
        StandingAnswer::AlwaysRetreat | StandingAnswer::StepsAtFullStrength => DefenseOrder::default(),
    };
    Some(IssuedOrder::new(
        sides[declared.defender.0].id.clone(),
        Order::Defend(defense),
    ))
}

/// Whether every unit of the waiting combat's defence is at full strength.
fn defenders_at_full_strength(world: &World, waiting: &WaitingAnswer) -> bool {
    let index = world.resource::<super::components::MapIndex>();
    index.stack(waiting.order.target).iter().all(|e| {
        world.get::<super::components::Side>(*e) != Some(&waiting.defender)
            || world.get::<super::components::Steps>(*e).is_none_or(|s| s.0.lost == 0)
    })
}

/// The defence before the dice that costs the defender least on the odds it may know (the
/// attacker's hidden tactics left out).
pub fn suggested_defense(world: &mut World) -> DefenseOrder {
    let Some(declared) = world.resource::<PendingCombat>().0.clone() else {
        return DefenseOrder::default();
    };
    let seen = declared.as_seen_by(declared.defender);
    let mut best: Option<(f64, DefenseOrder)> = None;
    for defense in defense_options(world) {
        let Ok(Ok(planned)) =
            world.run_system_cached_with(super::combat_phase::plan_attack, (seen.clone(), Some(defense.clone())))
        else {
            continue;
        };
        let rules = world.resource::<GameMap>().ruleset.combat.clone();
        let Ok(summary) = crate::combat::odds::summary_of(&rules, &planned.situation) else {
            continue;
        };
        let cost = crate::combat::answers::defender_cost(&summary);
        if best.as_ref().is_none_or(|(b, _)| cost < *b - 1e-9) {
            best = Some((cost, defense));
        }
    }
    best.map(|(_, d)| d).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::odds::{AnswerOption, Summary};
    use crate::game::components::Side;
    use crate::game::order::AttackOrder;

    fn waiting(options: Vec<DefenderChoices>, suggested: usize) -> WaitingAnswer {
        WaitingAnswer {
            order: AttackOrder::plain(vec!["a".into()], crate::rules::grid::Cell::new(1, 1)),
            defense: None,
            dice: vec![3],
            attacker: Side(0),
            defender: Side(1),
            result: String::new(),
            options: options
                .into_iter()
                .map(|choices| AnswerOption {
                    choices,
                    label: String::new(),
                    outcomes: Vec::new(),
                    summary: Summary::default(),
                })
                .collect(),
            suggested,
        }
    }

    #[test]
    fn always_retreat_gives_ground_where_the_rules_let_it() {
        let plain = DefenderChoices::default();
        // War Against Russia's D: stay (suggested) or retreat a hex.
        let d = waiting(
            vec![
                plain.clone(),
                DefenderChoices {
                    withdraw: true,
                    ..plain.clone()
                },
            ],
            0,
        );
        assert!(answer_by(StandingAnswer::AlwaysRetreat, &d, true).unwrap().withdraw);
        // Killing Ground 8.10.3: a hex instead of the attritional loss.
        let kg = waiting(
            vec![
                plain.clone(),
                DefenderChoices {
                    attrition_as_retreat: true,
                    ..plain.clone()
                },
            ],
            0,
        );
        assert!(
            answer_by(StandingAnswer::AlwaysRetreat, &kg, true)
                .unwrap()
                .attrition_as_retreat
        );
        // Retreat or steps (steps suggested): it retreats; at full strength the other policy
        // takes the steps, worn it retreats.
        let steps = DefenderChoices {
            retreat: RetreatOrSteps::Steps,
            ..plain.clone()
        };
        let ros = waiting(vec![plain.clone(), steps.clone()], 1);
        assert_eq!(
            answer_by(StandingAnswer::AlwaysRetreat, &ros, true),
            Some(plain.clone())
        );
        assert_eq!(
            answer_by(StandingAnswer::StepsAtFullStrength, &ros, true),
            Some(steps.clone())
        );
        assert_eq!(
            answer_by(StandingAnswer::StepsAtFullStrength, &ros, false),
            Some(plain.clone())
        );
        assert_eq!(answer_by(StandingAnswer::Suggested, &ros, false), Some(steps));
        assert_eq!(answer_by(StandingAnswer::Ask, &ros, false), None);
    }
}
