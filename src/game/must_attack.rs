//! War Against Russia's must-attack rule: every undispersed German unit (and the units stacked
//! with it) next to a Russian unit that attacked must itself be attacked in that combat phase.
//! The game refuses to end the phase while such an attack can still be made; the computer
//! players make it first.

use super::combat::plan_attack;
use super::components::GameLog;
use super::order::AttackOrder;
use super::phase::Phase;
use super::situation::{GameView, combatant};
use crate::rules::grid::Cell;
use crate::rules::terrain::EdgeFeatures;
use bevy::prelude::*;

/// Marks a unit that was attacked in this combat phase.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defended;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnExit(Phase::Combat), clear_defended);
}

fn clear_defended(mut commands: Commands, defended: Query<Entity, With<Defended>>) {
    for e in &defended {
        commands.entity(e).try_remove::<Defended>();
    }
}

/// A cell the rule says must still be attacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owed {
    pub target: Cell,
    /// The units there, by name.
    pub defenders: Vec<String>,
    /// The side to play's units next to it that have not attacked yet, by id.
    pub free_attackers: Vec<String>,
}

/// Every cell the rule obliges the side to play to attack, in cell order. Pure over the view.
pub fn owed_attacks(view: &GameView, defended: &Query<(), With<Defended>>) -> Vec<Owed> {
    let rules = &view.map.ruleset.combat;
    let active = view.turn.active;
    let grid = &view.map.board.grid;
    let nation = |side: super::components::Side| view.sides.0.get(side.0).map_or("", |s| s.id.as_str()).to_string();
    let mut owed: Vec<Owed> = Vec::new();
    for attacker in view.units.iter().filter(|d| *d.side == active && d.attacked) {
        let a = combatant(&attacker, &nation(active), EdgeFeatures::NONE);
        for cell in grid.neighbours(attacker.cell()) {
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
            if !obliged || stack.iter().any(|d| defended.contains(d.entity)) {
                continue;
            }
            let free_attackers = grid
                .neighbours(cell)
                .flat_map(|c| view.index.stack(c).iter().copied())
                .filter_map(|e| view.units.get(e).ok())
                .filter(|d| *d.side == active && !d.attacked)
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

fn owed_now(view: GameView, defended: Query<(), With<Defended>>) -> Vec<Owed> {
    owed_attacks(&view, &defended)
}

/// The owed cells, and for the first that can still be attacked, the attack by every free
/// neighbour that the rules accept (`None` when none can be made).
pub fn owed_attack(world: &mut World) -> (Vec<Owed>, Option<AttackOrder>) {
    let Ok(owed) = world.run_system_cached(owed_now) else {
        return (Vec::new(), None);
    };
    for o in &owed {
        if o.free_attackers.is_empty() {
            continue;
        }
        let order = AttackOrder::plain(o.free_attackers.clone(), o.target);
        if world
            .run_system_cached_with(plan_attack, (order.clone(), None))
            .is_ok_and(|planned| planned.is_ok())
        {
            return (owed, Some(order));
        }
    }
    (owed, None)
}

/// Before a combat phase ends: refuses while an owed attack can still be made, and logs the
/// owed cells no unit is left able to attack.
pub fn check_before_end(world: &mut World) -> Result<(), String> {
    if world.get_resource::<State<Phase>>().map(|s| *s.get()) != Some(Phase::Combat) {
        return Ok(());
    }
    let (owed, possible) = owed_attack(world);
    if let Some(order) = possible {
        let o = owed.iter().find(|o| o.target == order.target);
        let names = o.map_or(String::new(), |o| o.defenders.join(", "));
        return Err(format!(
            "must-attack rule: {names} at {} stand next to units that attacked and must be attacked this phase (units still free to attack them: {})",
            order.target,
            order.attackers.len()
        ));
    }
    if !owed.is_empty() {
        let cells = owed.iter().map(|o| o.target.to_string()).collect::<Vec<_>>().join(", ");
        world.resource_mut::<GameLog>().push(format!(
            "Must-attack rule: German units at {cells} were not attacked, but no unit was left able to attack them."
        ));
    }
    Ok(())
}

/// Marks the defenders of a resolved combat.
pub(super) fn mark_defended(commands: &mut Commands, defenders: &[Entity]) {
    for &e in defenders {
        commands.entity(e).try_insert(Defended);
    }
}
