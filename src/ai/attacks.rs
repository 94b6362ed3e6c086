//! The computer player's attacks: every enemy stack it can reach, attacked by each engaged stack
//! alone and by all of them together, under every option the attacker chooses (a novice, which
//! does not look ahead, attacks stack by stack with plain attacks); each scored by
//! the exact odds (the preview's own `summarize_leaves`) against the defender's best answer to
//! the options the defender owns. The best attack above zero is made, then the board is weighed
//! again.

use super::survey::{Stack, Survey};
use super::{ComputerPlayer, unit_ids};
use crate::combat::odds::Summary;
use crate::combat::{self, AttackerOption, DefenderChoices, OptionTaken, RetreatOrSteps};
use crate::game::combat_phase::{Attacked, accelerated_effort_by, plan_attack};
use crate::game::components::{Effectiveness, GameMap, Position, Side, Steps, Unit};
use crate::game::order::{AttackOrder, DefenseOrder, Order};
use crate::game::view::may_barrage;
use crate::rules::grid::Cell;
use bevy::prelude::*;

/// An attack scoring less than this is not made.
const MIN_SCORE: f64 = 0.1;

pub(super) fn next_attack(world: &mut World, player: &mut ComputerPlayer) -> Option<Order> {
    let survey = Survey::take(world, Side(player.side));
    let budget = player.profile.budget.max(1) as usize;
    let mut weighed = 0;
    let mut best: Option<(f64, AttackOrder)> = None;
    let last_chance = last_player_turn(world);
    let follow_ups = player.profile.follow_ups && super::follow_up::applies(world);
    for target in &survey.enemy {
        let near: Vec<&Stack> = survey
            .own
            .iter()
            .filter(|s| survey.engages(s.cell, target.cell))
            .collect();
        // Weighed on top of the budget, which counts the attacks themselves.
        let next = if follow_ups {
            super::follow_up::plan_next(world, target.cell, &fresh_units(world, &near))
        } else {
            Vec::new()
        };
        for units in groups(world, &near, player.profile.looks_ahead) {
            let variants = if player.profile.looks_ahead {
                attacker_variants(world, &units, target.cell)
            } else {
                vec![AttackOrder::plain(unit_ids(world, &units), target.cell)]
            };
            for order in variants {
                if weighed >= budget {
                    break;
                }
                let Some((summary, order)) = worst_case(world, order, &mut weighed) else {
                    continue;
                };
                if last_chance && pointless(&summary, &survey, target) {
                    continue;
                }
                let prepares = if next.is_empty() {
                    0.0
                } else {
                    let worth = |s: &Summary| score_of(s, &survey, target, player);
                    super::follow_up::value(world, &order, &next, &worth)
                };
                let score = score_of(&summary, &survey, target, player) + prepares
                    - garrison_at_risk(world, &survey, &units)
                        * (summary.p_attacker_eliminated + summary.p_attacker_retreats)
                    + player.jitter();
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    best = Some((score, order));
                }
            }
        }
    }
    best.filter(|(s, _)| *s > MIN_SCORE).map(|(_, o)| Order::Attack(o))
}

/// Whether this is the game's last player turn: nothing the enemy could do afterwards.
fn last_player_turn(world: &World) -> bool {
    let turn = world.resource::<crate::game::phase::TurnState>();
    let sides = world.resource::<crate::game::components::Sides>().0.len().max(1);
    turn.turn == turn.last_turn && (turn.active.0 + 1) % sides == turn.first_side.0
}

/// An attack that cannot change who wins (only objectives decide: this one is not one, or
/// cannot be taken) and risks the attacker.
fn pointless(s: &Summary, survey: &Survey, target: &Stack) -> bool {
    let can_change = survey.value_of(target.cell) > 0.0 && s.p_cell_taken > 0.0;
    !can_change && (s.expected_attacker_steps > 0.0 || s.p_attacker_eliminated > 0.0)
}

/// What the attackers leave at risk: the value of each objective the side holds whose whole
/// garrison takes part (a retreat or elimination empties it).
fn garrison_at_risk(world: &World, survey: &Survey, attackers: &[Entity]) -> f64 {
    let mut cells: Vec<Cell> = attackers
        .iter()
        .filter_map(|e| world.get::<Position>(*e).map(|p| p.0))
        .collect();
    cells.sort();
    cells.dedup();
    cells
        .into_iter()
        .filter(|c| survey.goals.iter().any(|g| g.held && g.cell == *c))
        .filter(|c| {
            let index = world.resource::<crate::game::components::MapIndex>();
            index.stack(*c).iter().all(|e| {
                attackers.contains(e) || world.get::<Side>(*e) != attackers.first().and_then(|a| world.get::<Side>(*a))
            })
        })
        .map(|c| survey.value_of(c))
        .sum()
}

/// What an attack is worth to its side: the cell taken (more for an objective), the share of
/// an objective's garrison it is expected to destroy, the enemy's expected steps lost, less its
/// own (weighed by how little it cares for them).
pub(super) fn score_of(s: &Summary, survey: &Survey, target: &Stack, player: &ComputerPlayer) -> f64 {
    let p = &player.profile;
    let value = 1.0 + survey.value_of(target.cell);
    // Steps knocked off an objective's garrison bring its fall nearer.
    let progress = (s.expected_defender_steps / target.steps.max(1.0)).min(1.0);
    s.p_cell_taken * value * 1.5 + progress * value * 0.5 + s.expected_defender_steps
        - (1.5 - p.aggression) * s.expected_attacker_steps * (1.0 + 0.5 * p.caution)
        - 0.5 * (1.0 - p.aggression) * s.p_attacker_eliminated
}

/// The exact odds of an attack as its side may know them (no hidden defence), with the
/// defender answering every result with `answer`, or `None` when the rules refuse it.
pub(super) fn odds_of(
    world: &mut World,
    order: &AttackOrder,
    defense: Option<&DefenseOrder>,
    answer: &DefenderChoices,
) -> Option<Summary> {
    let planned = world
        .run_system_cached_with(plan_attack, (order.clone(), defense.cloned()))
        .ok()?
        .ok()?;
    let ruleset = world.resource::<GameMap>().ruleset.clone();
    let situation = combat::answers::with_answer(&planned.situation, answer);
    combat::odds::summary_of(&ruleset.combat, &situation).ok()
}

/// The attack under each answer the defender owns (before the dice and to its results), keeping
/// the one worst for the attacker: the computer assumes the defender answers as well as it can.
fn worst_case(world: &mut World, order: AttackOrder, weighed: &mut usize) -> Option<(Summary, AttackOrder)> {
    let mut worst: Option<(f64, Summary)> = None;
    for (defense, answer) in defender_variants(world) {
        *weighed += 1;
        let Some(s) = odds_of(world, &order, defense.as_ref(), &answer) else {
            continue;
        };
        let gain = s.p_cell_taken * 2.0 + s.expected_defender_steps - s.expected_attacker_steps;
        if worst.as_ref().is_none_or(|(w, _)| gain < *w) {
            worst = Some((gain, s));
        }
    }
    worst.map(|(_, s)| (s, order))
}

/// Who attacks: the fresh units of each engaged stack alone, and (for a player that looks
/// ahead) of all of them together.
fn groups(world: &World, near: &[&Stack], together: bool) -> Vec<Vec<Entity>> {
    let fresh = |s: &Stack| -> Vec<Entity> {
        s.units
            .iter()
            .copied()
            .filter(|e| {
                world.get::<Attacked>(*e).is_none() && world.get::<Steps>(*e).is_some_and(|st| st.values().attack > 0)
            })
            .collect()
    };
    let singles: Vec<Vec<Entity>> = near.iter().map(|s| fresh(s)).filter(|u| !u.is_empty()).collect();
    let mut groups = Vec::new();
    if together && singles.len() > 1 {
        groups.push(singles.concat());
    }
    groups.extend(singles);
    groups
}

/// The fresh units of the engaged stacks, by id with their cell (who could attack next).
fn fresh_units(world: &World, near: &[&Stack]) -> Vec<(String, Cell)> {
    groups(world, near, false)
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let unit = world.get::<Unit>(e)?;
            let cell = world.get::<Position>(e)?.0;
            Some((unit.id.clone(), cell))
        })
        .collect()
}

/// Whether the side of the first of `units` is one of `ids` (a ruleset's nation list).
fn attackers_are(world: &World, units: &[Entity], ids: &[String]) -> bool {
    let sides = world.resource::<crate::game::components::Sides>();
    units
        .first()
        .and_then(|e| world.get::<crate::game::components::Side>(*e))
        .and_then(|side| sides.0.get(side.0))
        .is_some_and(|info| ids.iter().any(|id| id.eq_ignore_ascii_case(&info.id)))
}

/// The attack under every option its attacker owns.
fn attacker_variants(world: &World, units: &[Entity], target: Cell) -> Vec<AttackOrder> {
    let base = AttackOrder::plain(unit_ids(world, units), target);
    let rules = &world.resource::<GameMap>().ruleset.combat;
    let mut out = vec![base.clone()];
    for option in rules.system().attacker_options() {
        let with = |out: &mut Vec<AttackOrder>, f: &dyn Fn(&mut AttackOrder)| {
            for mut o in out.clone() {
                f(&mut o);
                out.push(o);
            }
        };
        match option {
            AttackerOption::RetreatAsSteps => with(&mut out, &|o| {
                o.take(OptionTaken::RetreatAsSteps(RetreatOrSteps::Steps))
            }),
            AttackerOption::AcceleratedEffort => {
                // The strongest attacker that may make an Accelerated Effort (8.10.4), if any.
                let by = accelerated_effort_by(units.iter().filter_map(|e| {
                    Some((
                        *e,
                        world.get::<Unit>(*e)?,
                        world.get::<Steps>(*e)?,
                        world.get::<Effectiveness>(*e),
                    ))
                }))
                .ok()
                .and_then(|e| world.get::<Unit>(e).map(|u| u.id.clone()));
                if let Some(by) = by {
                    with(&mut out, &|o| o.take(OptionTaken::AcceleratedEffort(by.clone())));
                }
            }
            // Only the nations named may choose the exchange (War Against Russia's Germans).
            AttackerOption::Exchange { nations } if attackers_are(world, units, &nations) => {
                with(&mut out, &|o| o.take(OptionTaken::Exchange))
            }
            AttackerOption::Exchange { .. } => {}
            // The board does not tell a flank: the computer never claims one.
            AttackerOption::Flanking => {}
            AttackerOption::Tactics(tactics) => {
                for t in tactics {
                    out.push(base.clone().with(OptionTaken::Tactics(vec![t])));
                }
            }
            AttackerOption::Barrage => {
                let batteries = batteries(world, units, target);
                if !batteries.is_empty() {
                    with(&mut out, &|o| o.take(OptionTaken::Barrage(batteries.clone())));
                }
            }
        }
    }
    out
}

/// The answers the defender owns, as the attacker weighs them: a defence before the dice and the
/// same answer to every result.
fn defender_variants(world: &World) -> Vec<(Option<DefenseOrder>, DefenderChoices)> {
    let rules = &world.resource::<GameMap>().ruleset.combat;
    rules
        .system()
        .weighed_defenses()
        .into_iter()
        .map(|d| {
            let before = d.no_retreat.then(|| DefenseOrder {
                no_retreat: true,
                ..DefenseOrder::default()
            });
            (before, d.answer)
        })
        .collect()
}

/// Rommel: the side's artillery in range of `target` that is not in the attack itself.
pub(super) fn batteries(world: &World, exclude: &[Entity], target: Cell) -> Vec<String> {
    let side = exclude.first().and_then(|e| world.get::<Side>(*e)).copied();
    let grid = world.resource::<GameMap>().board.grid;
    let mut found = Vec::new();
    let Some(mut query) = world.try_query::<(Entity, &Unit, &Side, &Position)>() else {
        return Vec::new();
    };
    for (e, unit, s, pos) in query.iter(world) {
        if Some(*s) == side
            && !exclude.contains(&e)
            && may_barrage(&grid, unit, pos.0, world.get::<Attacked>(e).is_some(), target)
        {
            found.push(unit.id.clone());
        }
    }
    found.sort();
    found
}
