//! The expert's look at the next attack. Where a cell is attacked one unit at a time and may be
//! attacked again in the same phase (Small General), an attack is worth what it prepares as well
//! as what it does: the defender disrupted, shocked or panicked, one more hexside for the next
//! attacker's simultaneous-attack bonus. For each result the attack may have, the best attack
//! another fresh unit could make next on the same cell is weighed with the board as that result
//! leaves it, so the expert leads with the unit that sets up the best pair (often the weaker one,
//! keeping the strongest for the blow that counts).

use crate::combat::odds::Summary;
use crate::combat::{self, CombatResult, Situation};
use crate::game::combat_phase::plan_attack;
use crate::game::components::GameMap;
use crate::game::hexsides::AttackedHexsides;
use crate::game::order::AttackOrder;
use crate::rules::grid::Cell;
use bevy::prelude::*;

/// Whether follow-ups are weighed in this game's rules.
pub(super) fn applies(world: &World) -> bool {
    world
        .resource::<GameMap>()
        .ruleset
        .combat
        .system()
        .one_attacker_at_a_time()
}

/// An attack one of the side's fresh units could make next on the target: its id, its cell and
/// the situation on today's board (planned once per target, whatever attack comes first).
pub(super) struct NextAttack {
    id: String,
    from: Cell,
    situation: Situation,
}

/// The attacks each of `units` (fresh units of the side, by id with their cell) could make on
/// `target` now; those the rules refuse are left out.
pub(super) fn plan_next(world: &mut World, target: Cell, units: &[(String, Cell)]) -> Vec<NextAttack> {
    units
        .iter()
        .filter_map(|(id, from)| {
            let order = AttackOrder::plain(vec![id.clone()], target);
            let planned = world.run_system_cached_with(plan_attack, (order, None)).ok()?.ok()?;
            Some(NextAttack {
                id: id.clone(),
                from: *from,
                situation: planned.situation,
            })
        })
        .collect()
}

/// The expected value (by `worth`, the player's score of an attack's odds) of the best of the
/// `next` attacks made after `order` by another unit, over `order`'s results; 0 when none would
/// be made.
pub(super) fn value(
    world: &mut World,
    order: &AttackOrder,
    next: &[NextAttack],
    worth: &dyn Fn(&Summary) -> f64,
) -> f64 {
    let next: Vec<&NextAttack> = next.iter().filter(|n| !order.attackers.contains(&n.id)).collect();
    if next.is_empty() {
        return 0.0;
    }
    let Ok(Ok(first)) = world.run_system_cached_with(plan_attack, (order.clone(), None)) else {
        return 0.0;
    };
    let rules = world.resource::<GameMap>().ruleset.combat.clone();
    let Ok(odds) = combat::odds(&rules, &first.situation) else {
        return 0.0;
    };
    let grid = world.resource::<GameMap>().board.grid;
    let recorded = world.get_resource::<AttackedHexsides>().cloned().unwrap_or_default();
    let mut total = 0.0;
    for outcome in &odds.outcomes {
        if outcome.result.cell_taken || outcome.result.defender_eliminated() {
            continue;
        }
        let mut best = 0.0_f64;
        for n in &next {
            let mut after = after_result(&first.situation, &outcome.result, &n.situation);
            if after.defenders.is_empty() {
                continue;
            }
            if after.attack.hexsides > 0 {
                let from: Vec<Cell> = first.attacker_cells.iter().copied().chain([n.from]).collect();
                after.attack.hexsides = recorded.count_with(&grid, order.target, &from);
            }
            if let Ok(s) = combat::odds::summary_of(&rules, &after) {
                best = best.max(worth(&s));
            }
        }
        total += outcome.probability * best;
    }
    // Counted whole: after this attack the player picks again among all its attacks, so what
    // it makes next is worth at least this follow-up.
    total
}

/// `next` (a later attack's situation, planned on today's board) with the defenders as
/// `result` of the attack planned as `first` leaves them: steps lost, statuses gained and cleared.
fn after_result(first: &Situation, result: &CombatResult, next: &Situation) -> Situation {
    let mut after = next.clone();
    for (unit, change) in first.defenders.iter().zip(&result.defender.units) {
        let Some(d) = after.defenders.iter_mut().find(|d| d.id == unit.id) else {
            continue;
        };
        d.steps.lose(change.steps_lost as usize);
        // Experience the defender earns from hurting the attacker raises its defence level.
        d.experience += change.experience;
        for s in change.cleared.iter() {
            d.statuses.remove(s);
        }
        for s in change.gained.iter() {
            d.statuses.insert(s);
        }
    }
    after.defenders.retain(|d| d.steps.remaining() > 0);
    after
}
