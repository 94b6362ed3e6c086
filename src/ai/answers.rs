//! The computer player's answers to what a combat hands it: the defender's tactics and barrage
//! (Rommel, against every attacking tactic it cannot see, equally likely), No Retreat! orders
//! (War Against Russia), its answer to a result (the one that costs it least), the retreat path
//! (as owner the safest end, as opponent the worst), and the advance after combat.

use super::ComputerPlayer;
use super::attacks::{batteries, odds_of};
use super::survey::{Stack, Survey};
use crate::combat::Tactic;
use crate::game::advance::advance_options;
use crate::game::combat_phase::{GameView, PendingAdvances, PendingCombat, PendingRetreats};
use crate::game::components::{Side, Unit};
use crate::game::order::{DefenseOrder, Order};
use crate::game::retreat::waiting_retreat_paths;
use crate::rules::grid::Cell;
use bevy::ecs::system::SystemState;
use bevy::prelude::*;

/// The defence before the dice that loses least: Rommel's on average over the attacker's
/// possible tactics, War Against Russia's No Retreat! orders or not.
pub(super) fn defend(world: &mut World, player: &mut ComputerPlayer) -> Order {
    let Some(declared) = world.resource::<PendingCombat>().0.clone() else {
        return Order::Defend(DefenseOrder::default());
    };
    if !world
        .resource::<crate::game::components::GameMap>()
        .ruleset
        .secret_tactics()
    {
        return no_retreat(world, player, &declared.order);
    }
    let seen = declared.as_seen_by(Side(player.side));
    let defenders: Vec<Entity> = world
        .resource::<crate::game::components::MapIndex>()
        .stack(seen.target)
        .iter()
        .copied()
        .filter(|e| world.get::<Side>(*e) == Some(&Side(player.side)))
        .collect();
    let guns = batteries(world, &defenders, seen.target);
    let mut answers: Vec<DefenseOrder> = vec![DefenseOrder::default()];
    answers.extend(Tactic::DEFENSE.iter().map(|t| DefenseOrder {
        tactics: vec![t.clone()],
        ..DefenseOrder::default()
    }));
    if !guns.is_empty() {
        for a in answers.clone() {
            answers.push(DefenseOrder {
                barrage: guns.clone(),
                ..a
            });
        }
    }
    let guesses: Vec<Vec<Tactic>> = std::iter::once(Vec::new())
        .chain(Tactic::ATTACK.iter().map(|t| vec![t.clone()]))
        .collect();
    let mut best: Option<(f64, DefenseOrder)> = None;
    for answer in answers {
        let mut total = 0.0;
        let mut counted = 0.0;
        for guess in &guesses {
            let mut attack = seen.clone();
            attack.take(crate::combat::OptionTaken::Tactics(guess.clone()));
            if let Some(s) = odds_of(world, &attack, Some(&answer), &Default::default()) {
                total += s.expected_defender_steps + 2.0 * s.p_cell_taken - 0.8 * s.expected_attacker_steps;
                counted += 1.0;
            }
        }
        if counted == 0.0 {
            continue;
        }
        let loss = total / counted + player.jitter();
        if best.as_ref().is_none_or(|(b, _)| loss < *b) {
            best = Some((loss, answer));
        }
    }
    Order::Defend(best.map(|(_, a)| a).unwrap_or_default())
}

/// War Against Russia: No Retreat! orders when they cost the defender less than retreating.
fn no_retreat(world: &mut World, player: &mut ComputerPlayer, order: &crate::game::order::AttackOrder) -> Order {
    let mut best: Option<(f64, DefenseOrder)> = None;
    for defense in crate::game::fight::defense_options(world) {
        let Some(s) = odds_of(world, order, Some(&defense), &Default::default()) else {
            continue;
        };
        let loss = crate::combat::answers::defender_cost(&s) + player.jitter();
        if best.as_ref().is_none_or(|(b, _)| loss < *b) {
            best = Some((loss, defense));
        }
    }
    Order::Defend(best.map(|(_, d)| d).unwrap_or_default())
}

/// The answer to a result that costs the defender least (the game's suggestion, which weighs
/// steps, the cell and the attacker's losses; a weaker player's noise may pick another close
/// one).
pub(super) fn answer_result(world: &mut World, player: &mut ComputerPlayer) -> Order {
    let Some(w) = world.resource::<crate::game::combat_phase::PendingAnswer>().0.clone() else {
        return Order::Answer(Default::default());
    };
    let suggested = &w.options[w.suggested];
    let mut best = (f64::MAX, suggested.choices.clone());
    for o in &w.options {
        let cost = crate::combat::answers::defender_cost(&o.summary) + player.answer_jitter();
        if cost < best.0 {
            best = (cost, o.choices.clone());
        }
    }
    Order::Answer(best.1)
}

/// The retreat of the first waiting unit: as its owner the end that scores best for it, as the
/// opponent the one that scores worst.
pub(super) fn retreat(world: &mut World, player: &mut ComputerPlayer) -> Option<Order> {
    let p = world.resource::<PendingRetreats>().0.first()?.clone();
    let owner = *world.get::<Side>(p.unit)?;
    let id = world.get::<Unit>(p.unit)?.id.clone();
    let paths: Vec<(Vec<Cell>, bool)> = waiting_retreat_paths(world, &p)?
        .iter()
        .map(|l| (l.cells.to_vec(), l.through_ezoc))
        .collect();
    let survey = Survey::take(world, owner);
    let me = Stack::of(world, p.from, &[p.unit], 1);
    let sign = if owner.0 == player.side { 1.0 } else { -1.0 };
    let mut best: Option<(f64, Vec<Cell>)> = None;
    for (path, through_ezoc) in paths {
        let Some(end) = path.last().copied() else { continue };
        let mut score = survey.place_score(&me, end, &player.profile, false);
        if through_ezoc {
            score -= 2.0;
        }
        let score = sign * score + player.jitter();
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, path));
        }
    }
    best.map(|(_, path)| Order::Retreat { unit: id, path })
}

/// The advance after combat: one unit into the vacated cell when standing there scores better
/// than staying (or when the rules demand an advance), then the advance ends.
pub(super) fn advance(world: &mut World, player: &mut ComputerPlayer) -> Order {
    let Some(p) = world.resource::<PendingAdvances>().0.first().cloned() else {
        return Order::EndAdvance;
    };
    let attacker_moved = p.moved.iter().any(|m| p.attackers.contains(m));
    if attacker_moved {
        return Order::EndAdvance;
    }
    let survey = Survey::take(world, Side(player.side));
    let mut best: Option<(f64, Entity, Cell)> = None;
    let options: Vec<(Entity, Cell, Cell)> = {
        let mut state: SystemState<GameView> = SystemState::new(world);
        let Ok(view) = state.get(world) else {
            return Order::EndAdvance;
        };
        p.attackers
            .iter()
            .filter_map(|e| view.units.get(*e).ok().map(|d| (*e, d.cell())))
            .filter(|(e, at)| *at != p.into && !p.moved.contains(e))
            .flat_map(|(e, at)| {
                advance_options(&view.map, &view.index, &view.units, &p, e)
                    .into_iter()
                    .filter(|t| t.allowed.is_ok() && t.depth == 1)
                    .map(move |t| (e, at, t.cell))
            })
            .collect()
    };
    for (e, at, to) in options {
        let me = Stack::of(world, at, &[e], 1);
        let gain = survey.place_score(&me, to, &player.profile, false)
            - survey.place_score(&me, at, &player.profile, false)
            + 0.5 * player.profile.aggression
            + player.jitter();
        if best.as_ref().is_none_or(|(b, _, _)| gain > *b) {
            best = Some((gain, e, to));
        }
    }
    match best {
        Some((gain, e, to)) if gain > 0.0 || p.right.mandatory => Order::Advance {
            units: world.get::<Unit>(e).map(|u| vec![u.id.clone()]).unwrap_or_default(),
            to,
        },
        _ => Order::EndAdvance,
    }
}

/// A safe order after a refused one: the first legal retreat, ending the advance or the phase
/// (after an attack the must-attack rule owes), the plain defence.
pub fn fallback(world: &mut World, refused: &Order) -> Option<Order> {
    match refused {
        Order::Defend(_) => Some(Order::Defend(DefenseOrder::default())),
        Order::Answer(_) => Some(Order::Answer(Default::default())),
        Order::Retreat { .. } => {
            let p = world.resource::<PendingRetreats>().0.first()?.clone();
            let path = waiting_retreat_paths(world, &p)?.first()?.cells.to_vec();
            let unit = world.get::<Unit>(p.unit)?.id.clone();
            Some(Order::Retreat { unit, path })
        }
        Order::Advance { .. } => Some(Order::EndAdvance),
        _ if !world.resource::<PendingAdvances>().0.is_empty() => Some(Order::EndAdvance),
        _ if world.resource::<PendingCombat>().0.is_none() && world.resource::<PendingRetreats>().0.is_empty() => {
            // An attack the must-attack rule still owes comes before the end of the phase
            // (unless it is the very order refused).
            match crate::game::must_attack::owed_attack(world) {
                Some(owed) if *refused != Order::Attack(owed.clone()) => Some(Order::Attack(owed)),
                _ => Some(Order::EndPhase),
            }
        }
        _ => None,
    }
}
