//! War Against Russia's must-attack rule: every undispersed German unit (and the units stacked
//! with it) next to a Russian unit that attacked must itself be attacked in that combat phase.
//! "Next to" is judged from where each attacker attacked from (an advance after combat does not
//! move the obligation). The game refuses to end the phase while such an attack can still be
//! made; the computer players make it first.

use super::combat_phase::{AttackedFrom, Defended, plan_attack};
use super::components::GameLog;
use super::order::AttackOrder;
use super::phase::Phase;
use super::view::{GameView, combatant};
use crate::rules::grid::Cell;
use crate::rules::terrain::EdgeFeatures;
use crate::rules::units::UnitStatus;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnExit(Phase::Combat), clear_marks);
    // Reached through the rules' list, not by name: execute runs whatever ending a phase asks.
    app.init_resource::<super::components::PhaseEndRules>();
    app.world_mut()
        .resource_mut::<super::components::PhaseEndRules>()
        .0
        .push(check_before_end);
}

fn clear_marks(mut commands: Commands, marked: Query<Entity, Or<(With<Defended>, With<AttackedFrom>)>>) {
    for e in &marked {
        commands.entity(e).try_remove::<(Defended, AttackedFrom)>();
    }
}

/// A cell the rule says must still be attacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owed {
    pub target: Cell,
    /// The units there, by name.
    pub defenders: Vec<String>,
    /// The side to play's units next to it that have not attacked yet and may attack (not
    /// dispersed), by id.
    pub free_attackers: Vec<String>,
}

/// Every cell the rule obliges the side to play to attack, in cell order. Pure over the view.
pub fn owed_attacks(view: &GameView, marks: &Query<(Option<&AttackedFrom>, Has<Defended>)>) -> Vec<Owed> {
    let rules = &view.map.ruleset.combat;
    if !rules.has_must_attack() {
        return Vec::new();
    }
    let active = view.turn.active;
    let grid = &view.map.board.grid;
    let nation = |side: super::components::Side| view.sides.0.get(side.0).map_or("", |s| s.id.as_str()).to_string();
    let mut owed: Vec<Owed> = Vec::new();
    for attacker in view.units.iter().filter(|d| *d.side == active) {
        let Ok((Some(from), _)) = marks.get(attacker.entity) else {
            continue;
        };
        let a = combatant(&attacker, &nation(active), EdgeFeatures::NONE);
        for cell in from.0.iter().flat_map(|c| grid.neighbours(*c)) {
            if owed.iter().any(|o| o.target == cell) {
                continue;
            }
            let stack: Vec<_> = view
                .index
                .stack(cell)
                .iter()
                .filter_map(|e| view.units.get(*e).ok())
                .filter(|d| *d.side != active)
                .collect();
            let obliged = stack
                .iter()
                .any(|d| rules.must_be_attacked(&a, &combatant(d, &nation(*d.side), EdgeFeatures::NONE)));
            let attacked = stack
                .iter()
                .any(|d| marks.get(d.entity).is_ok_and(|(_, defended)| defended));
            if !obliged || attacked {
                continue;
            }
            let free_attackers = grid
                .neighbours(cell)
                .flat_map(|c| view.index.stack(c).iter().copied())
                .filter_map(|e| view.units.get(e).ok())
                .filter(|d| *d.side == active && !d.attacked && !d.statuses.has(UnitStatus::Dispersed))
                .map(|d| d.unit.id.clone())
                .collect();
            owed.push(Owed {
                target: cell,
                defenders: stack.iter().map(|d| d.unit.name.clone()).collect(),
                free_attackers,
            });
        }
    }
    owed.sort_by_key(|o| o.target);
    owed
}

fn owed_now(view: GameView, marks: Query<(Option<&AttackedFrom>, Has<Defended>)>) -> Vec<Owed> {
    owed_attacks(&view, &marks)
}

/// An attack on `o` the rules accept: by every free neighbour, or else by all of them but one
/// (a unit the rules keep out, e.g. across a lake), tried in order.
fn attack_for(world: &mut World, o: &Owed) -> Option<AttackOrder> {
    let accepted = |world: &mut World, attackers: Vec<String>| {
        let order = AttackOrder::plain(attackers, o.target);
        world
            .run_system_cached_with(plan_attack, (order.clone(), None))
            .is_ok_and(|planned| planned.is_ok())
            .then_some(order)
    };
    if o.free_attackers.is_empty() {
        return None;
    }
    if let Some(order) = accepted(world, o.free_attackers.clone()) {
        return Some(order);
    }
    (0..o.free_attackers.len()).find_map(|skip| {
        let fewer: Vec<String> = (0..o.free_attackers.len())
            .filter(|&i| i != skip)
            .map(|i| o.free_attackers[i].clone())
            .collect();
        (!fewer.is_empty()).then(|| accepted(world, fewer)).flatten()
    })
}

/// Every owed cell with an attack on it the rules accept now (`None`: nobody is left able to
/// make one, and the obligation lapses).
pub fn owed_with_attacks(world: &mut World) -> Vec<(Owed, Option<AttackOrder>)> {
    let Ok(owed) = world.run_system_cached(owed_now) else {
        return Vec::new();
    };
    owed.into_iter()
        .map(|o| {
            let attack = attack_for(world, &o);
            (o, attack)
        })
        .collect()
}

/// The first attack the rule still owes that can be made, if any (the computer players make it
/// before ending a combat phase).
pub fn owed_attack(world: &mut World) -> Option<AttackOrder> {
    owed_with_attacks(world).into_iter().find_map(|(_, a)| a)
}

/// Before a combat phase ends: refuses while an owed attack can still be made, and logs the
/// owed cells no unit is left able to attack.
pub fn check_before_end(world: &mut World) -> Result<(), String> {
    if world.get_resource::<State<Phase>>().map(|s| *s.get()) != Some(Phase::Combat) {
        return Ok(());
    }
    let owed = owed_with_attacks(world);
    if let Some((o, Some(order))) = owed.iter().find(|(_, a)| a.is_some()) {
        return Err(format!(
            "must-attack rule: {} at {} must be attacked this phase, being next to a unit that attacked ({} of your units can still attack there)",
            o.defenders.join(", "),
            o.target,
            order.attackers.len()
        ));
    }
    if !owed.is_empty() {
        let cells = owed
            .iter()
            .map(|(o, _)| o.target.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        world.resource_mut::<GameLog>().push(format!(
            "Must-attack rule: German units at {cells} were not attacked, but no unit was left able to attack them."
        ));
    }
    Ok(())
}
