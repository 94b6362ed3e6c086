//! A baseline player that gives random legal orders, drawn from a seeded generator of its own (never
//! the game's dice). Each step it picks what kind of order to give (ending the phase with a
//! fixed weight, else a move, an attack or the answer the rules ask for), then one order of that
//! kind uniformly among the legal ones: a stack or a unit of it to any reachable cell, any
//! allowed attack of one or all adjacent stacks with the attacker's random options
//! (retreat-or-steps, exchange, Rommel's tactics), any legal retreat path, any allowed advance or
//! ending the advance, the defender's tactics or No Retreat! orders, and any of the defender's
//! answers to a result.

use crate::combat::{RetreatOrSteps, Tactic};
use crate::game::combat_phase::{PendingAdvances, PendingAnswer, PendingCombat, PendingRetreats, plan_attack};
use crate::game::components::*;
use crate::game::execute::issuer;
use crate::game::order::{AttackOrder, IssuedOrder, Order};
use crate::game::order_options::{advance_choices, reach_of, retreat_paths};
use crate::game::phase::{GameState, Phase};
use bevy::prelude::*;
use rand::rngs::ChaCha8Rng;
use rand::{Rng, RngExt};

/// A random order the rules allow now, as the side entitled to give it; `None` once the game is over.
pub fn random_order(world: &mut World, rng: &mut ChaCha8Rng) -> Option<IssuedOrder> {
    if world.resource::<State<GameState>>().get() != &GameState::Playing {
        return None;
    }
    let order = if world.resource::<PendingCombat>().0.is_some() {
        defense(world, rng)
    } else if let Some(w) = world.resource::<PendingAnswer>().0.clone() {
        Order::Answer(pick(rng, &w.options).map(|o| o.choices).unwrap_or_default())
    } else if !world.resource::<PendingRetreats>().0.is_empty() {
        retreat(world, rng)?
    } else if !world.resource::<PendingAdvances>().0.is_empty() {
        advance(world, rng)
    } else {
        let phase = *world.resource::<State<Phase>>().get();
        let pick = rng.random_range(0..100);
        match phase {
            _ if pick < 12 => Order::EndPhase,
            Phase::Movement | Phase::Exploitation => moves(world, rng).unwrap_or(Order::EndPhase),
            Phase::Combat => attack(world, rng).unwrap_or(Order::EndPhase),
            _ => Order::EndPhase,
        }
    };
    // The must-attack rule's owed attacks come before a combat phase ends.
    let order = match order {
        Order::EndPhase => crate::game::must_attack::owed_attack(world).map_or(Order::EndPhase, Order::Attack),
        other => other,
    };
    let side = issuer(world, &order).ok()?.map_or(0, |(s, _)| s);
    Some(IssuedOrder::new(world.resource::<Sides>().0[side].id.clone(), order))
}

fn pick<T: Clone>(rng: &mut impl Rng, items: &[T]) -> Option<T> {
    (!items.is_empty()).then(|| items[rng.random_range(0..items.len())].clone())
}

fn defense(world: &mut World, rng: &mut ChaCha8Rng) -> Order {
    let options = crate::game::fight::defense_options(world);
    Order::Defend(pick(rng, &options).unwrap_or_default())
}

fn unit_id(world: &World, e: Entity) -> String {
    world.get::<Unit>(e).map_or_else(String::new, |u| u.id.clone())
}

fn retreat(world: &mut World, rng: &mut ChaCha8Rng) -> Option<Order> {
    let (unit, paths) = retreat_paths(world)?;
    Some(Order::Retreat {
        unit,
        path: pick(rng, &paths)?,
    })
}

fn advance(world: &mut World, rng: &mut ChaCha8Rng) -> Order {
    let (mut choices, may_end) = advance_choices(world);
    if may_end {
        choices.push(Order::EndAdvance);
    }
    pick(rng, &choices).unwrap_or(Order::EndAdvance)
}

/// A stack (or one unit of it) to a random cell it may reach and end in.
fn moves(world: &mut World, rng: &mut ChaCha8Rng) -> Option<Order> {
    let stacks = crate::game::attack_options::own_stacks(world);
    for _ in 0..6 {
        let stack = pick(rng, &stacks)?;
        let units = if stack.len() > 1 && rng.random_bool(0.4) {
            vec![pick(rng, &stack)?]
        } else {
            stack
        };
        let Some(cells) = reach_of(world, &units) else {
            continue;
        };
        if let Some(to) = pick(rng, &cells) {
            let ids = units.iter().map(|e| unit_id(world, *e)).collect();
            return Some(Order::Move { units: ids, to });
        }
    }
    None
}

/// An allowed attack with random options, by one adjacent stack or all of them.
fn attack(world: &mut World, rng: &mut ChaCha8Rng) -> Option<Order> {
    let candidates = crate::game::attack_options::adjacent_attacks(world);
    for _ in 0..6 {
        let (units, target) = pick(rng, &candidates)?;
        let mut order = AttackOrder::plain(units.iter().map(|e| unit_id(world, *e)).collect(), target);
        random_options(world, rng, &mut order, &units);
        if world
            .run_system_cached_with(plan_attack, (order.clone(), None))
            .is_ok_and(|r| r.is_ok())
        {
            return Some(Order::Attack(order));
        }
    }
    None
}

fn random_options(world: &World, rng: &mut ChaCha8Rng, order: &mut AttackOrder, units: &[Entity]) {
    use crate::combat::{AttackerOption as O, OptionTaken as T};
    let ros = [RetreatOrSteps::Retreat, RetreatOrSteps::Steps];
    for option in world.resource::<GameMap>().ruleset.combat.system().attacker_options() {
        match option {
            O::RetreatAsSteps => order.take(T::RetreatAsSteps(pick(rng, &ros).unwrap_or_default())),
            O::AcceleratedEffort => {
                if rng.random_bool(0.3)
                    && let Some(e) = units.first()
                {
                    order.take(T::AcceleratedEffort(unit_id(world, *e)));
                }
            }
            O::Exchange { .. } => {
                if rng.random_bool(0.3) {
                    order.take(T::Exchange);
                }
            }
            O::Tactics(list) => {
                let mut tactics: Vec<Option<Tactic>> = vec![None];
                tactics.extend(list.into_iter().map(Some));
                order.take(T::Tactics(pick(rng, &tactics).flatten().into_iter().collect()));
            }
            O::Barrage | O::Flanking => {}
        }
    }
}
