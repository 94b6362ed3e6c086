//! Advance after combat, in the combat phase's `Advance` step: once the defender's cell is
//! vacated, attackers move in (`ChooseAdvance`, or the automatic choice), with the ruleset's
//! mandatory advance, zero-attack followers, second-cell advance, Clearing markers and renewed
//! attacks (War Against Russia's breakthrough).

use super::GameSystems;
use super::combat::{Attacked, PendingAdvance, PendingAdvances, UnitData};
use super::components::{GameMap, MapIndex, Position};
use super::movement::OrderRefused;
use super::phase::{CombatStep, GameState, TurnState};
use super::retreat::{AfterCombatWorld, RetreatSystems};
use crate::rules::advance::{AdvanceTarget, advance_targets};
use crate::rules::grid::Cell;
use crate::rules::units::UnitStatus;
use crate::scenario::ruleset::EnemyCells;
use bevy::prelude::*;

/// Advance these units (attackers of the pending advance, or their followers) to `to`.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct ChooseAdvance {
    pub units: Vec<Entity>,
    pub to: Cell,
}

/// The attacker is done advancing after the current combat.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndAdvance;

/// Units advanced after combat.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Advanced {
    pub units: Vec<Entity>,
    /// Where the first of them stood.
    pub from: Cell,
    pub to: Cell,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<ChooseAdvance>()
        .add_message::<EndAdvance>()
        .add_message::<Advanced>()
        .add_systems(
            Update,
            carry_out_advances
                .in_set(GameSystems::AfterCombat)
                .after(RetreatSystems)
                .run_if(in_state(GameState::Playing).and_then(in_state(CombatStep::Advance))),
        );
}

/// Where `unit` may advance to after the combat `pending`: every target with whether it may.
pub fn advance_options(
    map: &GameMap,
    index: &MapIndex,
    units: &Query<UnitData>,
    pending: &PendingAdvance,
    unit: Entity,
) -> Vec<AdvanceTarget> {
    let Ok(d) = units.get(unit) else {
        return Vec::new();
    };
    let occupied = |c: Cell| !index.stack(c).is_empty();
    let mut targets = advance_targets(
        &map.board,
        &map.ruleset.movement,
        &map.ruleset.advance,
        d.1.mobility,
        pending.into,
        pending.right.cells,
        &occupied,
    );
    if !map.ruleset.advance.may_overstack {
        for t in &mut targets {
            if t.allowed.is_ok()
                && let Some(terrain) = map.board.terrain(t.cell)
            {
                let stacking = &map.ruleset.stacking;
                let already = index
                    .stack(t.cell)
                    .iter()
                    .filter_map(|e| units.get(*e).ok())
                    .filter(|o| o.2 == d.2)
                    .map(|o| stacking.counted(o.12.0))
                    .sum();
                t.allowed = stacking.check(
                    terrain,
                    map.ruleset.movement.terrain_name(terrain),
                    already,
                    stacking.counted(d.12.0),
                );
            }
        }
    }
    targets
}

fn vacated(index: &MapIndex, units: &Query<UnitData>, cell: Cell, attacker_side: super::components::Side) -> bool {
    index
        .stack(cell)
        .iter()
        .all(|e| units.get(*e).is_ok_and(|d| *d.2 == attacker_side))
}

/// Moves `group` into `to`, with Clearing markers and renewed attacks as the rules say.
fn advance(
    w: &mut AfterCombatWorld,
    commands: &mut Commands,
    positions: &mut Query<&mut Position>,
    pending: &PendingAdvance,
    group: &[Entity],
    to: Cell,
    names: &[String],
) -> Cell {
    let mut origin = to;
    let clears = w.map.ruleset.advance.clears(&w.map.board, to);
    for &e in group {
        if let Ok(mut pos) = positions.get_mut(e) {
            if origin == to {
                origin = pos.0;
            }
            w.index.remove(e, pos.0);
            w.index.place(e, to);
            pos.0 = to;
        }
        if pending.right.attack_again {
            commands.entity(e).try_remove::<Attacked>();
        }
    }
    if clears {
        for &e in group {
            commands.entity(e).queue_silenced(|mut entity: EntityWorldMut| {
                if let Some(mut st) = entity.get_mut::<super::components::Statuses>() {
                    st.0.insert(UnitStatus::Clearing);
                }
            });
        }
    }
    let mut line = format!("{} advance(s) into {to}", names.join(", "));
    if pending.right.attack_again {
        line.push_str(" and may attack again (breakthrough)");
    }
    if clears {
        line.push_str(" under a Clearing marker");
    }
    w.log.push(format!("{line}."));
    origin
}

#[allow(clippy::too_many_arguments)]
fn carry_out_advances(
    mut w: AfterCombatWorld,
    turn: Res<TurnState>,
    mut pending: ResMut<PendingAdvances>,
    mut choices: MessageReader<ChooseAdvance>,
    mut ends: MessageReader<EndAdvance>,
    mut advanced: MessageWriter<Advanced>,
    mut refused: MessageWriter<OrderRefused>,
    mut next_step: ResMut<NextState<CombatStep>>,
    mut commands: Commands,
    mut moved_now: Local<Vec<Entity>>,
    mut queries: ParamSet<(Query<UnitData>, Query<&mut Position>)>,
) {
    let mut choices: Vec<ChooseAdvance> = choices.read().cloned().collect();
    let mut ended = ends.read().count() > 0;
    while let Some(p) = pending.0.first().cloned() {
        let contest = w.map.ruleset.raw.enemy_cells == EnemyCells::Contest;
        if !vacated(&w.index, &queries.p0(), p.into, turn.active) {
            pending.0.remove(0);
            moved_now.clear();
            continue;
        }
        if contest {
            // Rommel: the combat was fought inside the square; the attackers hold it.
            w.log.push(format!("The attackers take {}.", p.into));
            pending.0.remove(0);
            continue;
        }
        let live: Vec<Entity> = p
            .attackers
            .iter()
            .chain(&p.followers)
            .copied()
            .filter(|e| {
                queries
                    .p0()
                    .get(*e)
                    .is_ok_and(|d| d.3.0 != p.into && !moved_now.contains(e))
            })
            .collect();
        // Explicit choices first.
        for choice in choices.drain(..) {
            let units = queries.p0();
            let mut why = None;
            for e in &choice.units {
                let name = units.get(*e).map_or("a unit".to_string(), |d| d.1.name.clone());
                if !live.contains(e) {
                    why = Some(format!(
                        "{name} did not take part in this attack or has advanced already"
                    ));
                } else if p.followers.contains(e) && moved_now.iter().all(|m| !p.attackers.contains(m)) {
                    why = Some(format!(
                        "{name} has no attack strength and may only follow an advancing attacker"
                    ));
                } else if let Some(t) = advance_options(&w.map, &w.index, &units, &p, *e)
                    .into_iter()
                    .find(|t| t.cell == choice.to)
                {
                    if let Err(reason) = t.allowed {
                        why = Some(format!("{name} cannot advance into {}: {reason}", choice.to));
                    }
                } else {
                    why = Some(format!("{} is not a cell {name} may advance into", choice.to));
                }
            }
            if let Some(reason) = why {
                w.log.push(format!("Advance refused: {reason}."));
                refused.write(OrderRefused { reason });
                continue;
            }
            let names: Vec<String> = choice
                .units
                .iter()
                .filter_map(|e| units.get(*e).ok().map(|d| d.1.name.clone()))
                .collect();
            let from = advance(
                &mut w,
                &mut commands,
                &mut queries.p1(),
                &p,
                &choice.units,
                choice.to,
                &names,
            );
            moved_now.extend(&choice.units);
            advanced.write(Advanced {
                units: choice.units.clone(),
                from,
                to: choice.to,
            });
        }
        let any_attacker_moved = moved_now.iter().any(|m| p.attackers.contains(m));
        let automatic = w.mode.automatic || w.map.ruleset.advance.automatic;
        if !automatic && !ended {
            return; // wait for the attacker's choices and EndAdvance
        }
        if ended && p.right.mandatory && !any_attacker_moved && !automatic {
            let reason = format!("at least one attacking unit must advance into {}", p.into);
            w.log.push(format!("Advance refused: {reason}."));
            refused.write(OrderRefused { reason });
            ended = false;
            continue;
        }
        if automatic && !any_attacker_moved {
            // The strongest first; as many as may enter (Small General: the first attacker only).
            let units = queries.p0();
            let mut order: Vec<(u32, Entity, String)> = live
                .iter()
                .filter(|e| p.attackers.contains(e))
                .filter_map(|e| units.get(*e).ok().map(|d| (d.4.values().attack, *e, d.1.name.clone())))
                .collect();
            order.sort_by_key(|(a, ..)| std::cmp::Reverse(*a));
            if w.map.ruleset.advance.automatic {
                order.truncate(1);
            }
            let mut going = Vec::new();
            let mut names = Vec::new();
            for (_, e, name) in order {
                let ok = advance_options(&w.map, &w.index, &units, &p, e)
                    .iter()
                    .any(|t| t.cell == p.into && t.allowed.is_ok());
                // Later units must fit with the earlier ones: check by placing them one by one.
                if ok || (going.is_empty() && p.right.mandatory) {
                    going.push(e);
                    names.push(name);
                    w.index.place(e, p.into); // counted for the next unit's stacking check
                }
            }
            for e in &going {
                w.index.remove(*e, p.into);
            }
            if !going.is_empty() {
                let from = advance(&mut w, &mut commands, &mut queries.p1(), &p, &going, p.into, &names);
                advanced.write(Advanced {
                    units: going.clone(),
                    from,
                    to: p.into,
                });
            }
        }
        pending.0.remove(0);
        moved_now.clear();
        ended = false;
    }
    next_step.set(CombatStep::Declare);
}
