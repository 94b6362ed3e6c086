//! Advance after combat, in the combat phase's `Advance` step: once the defender's cell is
//! vacated, attackers move in (`Advance` orders, or the automatic choice), with the ruleset's
//! mandatory advance, zero-attack followers, second-cell advance, Clearing markers and renewed
//! attacks (War Against Russia's breakthrough).

use super::combat_phase::{Attacked, PendingAdvance, PendingAdvances, UnitData};
use super::components::{GameMap, MapIndex, Position, Side};
use super::phase::TurnState;
use super::retreat::AfterCombatWorld;
use crate::rules::advance::{AdvanceTarget, advance_targets};
use crate::rules::grid::Cell;
use crate::rules::units::UnitStatus;
use bevy::prelude::*;

/// What the attacker says about the pending advance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum AdvanceChoice {
    /// Nothing: carry out what needs no choice.
    #[default]
    None,
    /// Advance these units into a cell.
    Advance(Vec<Entity>, Cell),
    /// Done advancing (Stay, when nobody moved).
    End,
}

/// Units advanced after combat.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Advanced {
    pub units: Vec<Entity>,
    /// Where the first of them stood.
    pub from: Cell,
    pub to: Cell,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Advanced>();
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
    let (side, stacking_points) = (*d.side, d.stacking.0);
    let occupied = |c: Cell| !index.stack(c).is_empty();
    let mut targets = advance_targets(
        &map.board,
        &map.ruleset.movement,
        &map.ruleset.advance,
        d.unit.mobility,
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
                    .filter(|o| *o.side == side)
                    .map(|o| stacking.counted(o.stacking.0))
                    .sum();
                t.allowed = stacking.check(
                    terrain,
                    map.ruleset.movement.terrain_name(terrain),
                    already,
                    stacking.counted(stacking_points),
                );
            }
        }
    }
    targets
}

fn vacated(index: &MapIndex, units: &Query<UnitData>, cell: Cell, attacker_side: Side) -> bool {
    index
        .stack(cell)
        .iter()
        .all(|e| units.get(*e).is_ok_and(|d| *d.side == attacker_side))
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
    let verb = if names.len() == 1 { "advances" } else { "advance" };
    let mut line = format!("{} {verb} into {to}", names.join(", "));
    if pending.right.attack_again {
        line.push_str(" and may attack again (breakthrough)");
    }
    if clears {
        line.push_str(" under a Clearing marker");
    }
    w.log.push(format!("{line}."));
    origin
}

/// Checks the attacker's choice of units and cell for the pending advance `p`.
fn check_advance(
    w: &AfterCombatWorld,
    units: &Query<UnitData>,
    p: &PendingAdvance,
    live: &[Entity],
    going: &[Entity],
    to: Cell,
) -> Result<(), String> {
    if going.is_empty() {
        return Err("no units named to advance".into());
    }
    for e in going {
        let name = units.get(*e).map_or("a unit".to_string(), |d| d.unit.name.clone());
        if !live.contains(e) {
            return Err(format!(
                "{name} did not take part in this attack or has advanced already"
            ));
        }
        let leader_moved = p.moved.iter().chain(going).any(|m| p.attackers.contains(m));
        if p.followers.contains(e) && !leader_moved {
            return Err(format!(
                "{name} has no attack strength and may only follow an advancing attacker"
            ));
        }
        match advance_options(&w.map, &w.index, units, p, *e)
            .into_iter()
            .find(|t| t.cell == to)
        {
            Some(t) => t
                .allowed
                .map_err(|reason| format!("{name} cannot advance into {to}: {reason}"))?,
            None => return Err(format!("{to} is not a cell {name} may advance into")),
        }
    }
    group_fits(w, units, going, to)
}

/// Whether the advancing group fits together in `to` (each unit was checked alone).
fn group_fits(w: &AfterCombatWorld, units: &Query<UnitData>, going: &[Entity], to: Cell) -> Result<(), String> {
    let rules = &w.map.ruleset;
    let (Some(first), Some(terrain)) = (going.first(), w.map.board.terrain(to)) else {
        return Ok(());
    };
    if rules.advance.may_overstack || going.len() < 2 {
        return Ok(());
    }
    let Ok(side) = units.get(*first).map(|d| *d.side) else {
        return Ok(());
    };
    let counted = |es: &mut dyn Iterator<Item = &Entity>| -> u32 {
        es.filter_map(|e| units.get(*e).ok())
            .filter(|d| *d.side == side)
            .map(|d| rules.stacking.counted(d.stacking.0))
            .sum()
    };
    let already = counted(&mut w.index.stack(to).iter());
    let arriving = counted(&mut going.iter());
    rules
        .stacking
        .check(terrain, rules.movement.terrain_name(terrain), already, arriving)
        .map_err(|why| format!("the advancing units do not all fit in {to}: {why}"))
}

/// The units of the pending advance `p` that may still advance.
fn live_units(units: &Query<UnitData>, p: &PendingAdvance) -> Vec<Entity> {
    p.attackers
        .iter()
        .chain(&p.followers)
        .copied()
        .filter(|e| units.get(*e).is_ok_and(|d| d.cell() != p.into && !p.moved.contains(e)))
        .collect()
}

/// Carries out the pending advances as far as they go without the attacker's choice; `choice`
/// answers the first one. A choice that is not allowed changes nothing.
pub(super) fn carry_out_advances(
    In(choice): In<AdvanceChoice>,
    mut w: AfterCombatWorld,
    turn: Res<TurnState>,
    mut pending: ResMut<PendingAdvances>,
    mut advanced: MessageWriter<Advanced>,
    mut commands: Commands,
    mut queries: ParamSet<(Query<UnitData>, Query<&mut Position>)>,
) -> Result<(), String> {
    let automatic = w.mode.automatic || w.map.ruleset.advance.automatic;
    let mut choice = choice;
    if choice != AdvanceChoice::None {
        let Some(p) = pending.0.first() else {
            return Err("no advance is waiting".into());
        };
        if automatic {
            return Err("advances after combat are made automatically in this game".into());
        }
        let units = queries.p0();
        match &choice {
            AdvanceChoice::Advance(going, to) => {
                check_advance(&w, &units, p, &live_units(&units, p), going, *to)?;
            }
            AdvanceChoice::End => {
                if p.right.mandatory && !p.moved.iter().any(|m| p.attackers.contains(m)) {
                    return Err(format!("at least one attacking unit must advance into {}", p.into));
                }
            }
            AdvanceChoice::None => {}
        }
    }
    while let Some(p) = pending.0.first().cloned() {
        if !vacated(&w.index, &queries.p0(), p.into, turn.active) {
            pending.0.remove(0);
            continue;
        }
        if w.map.ruleset.contests_cells() {
            // Rommel: the combat was fought inside the square; the attackers hold it.
            w.log.push(format!("The attackers take {}.", p.into));
            pending.0.remove(0);
            continue;
        }
        match std::mem::take(&mut choice) {
            AdvanceChoice::Advance(going, to) => {
                let names = names_of(&queries.p0(), &going);
                let from = advance(&mut w, &mut commands, &mut queries.p1(), &p, &going, to, &names);
                pending.0[0].moved.extend(&going);
                advanced.write(Advanced { units: going, from, to });
                if live_units(&queries.p0(), &pending.0[0]).is_empty() {
                    pending.0.remove(0); // everyone who could has advanced
                }
                continue; // more units may follow until the attacker ends the advance
            }
            AdvanceChoice::End => {
                pending.0.remove(0);
                continue;
            }
            AdvanceChoice::None if !automatic => return Ok(()), // wait for the attacker
            AdvanceChoice::None => {}
        }
        if !p.moved.iter().any(|m| p.attackers.contains(m)) {
            let going = automatic_advancers(&mut w, &queries.p0(), &p);
            if !going.is_empty() {
                let names = names_of(&queries.p0(), &going);
                let from = advance(&mut w, &mut commands, &mut queries.p1(), &p, &going, p.into, &names);
                advanced.write(Advanced {
                    units: going,
                    from,
                    to: p.into,
                });
            }
        }
        pending.0.remove(0);
    }
    Ok(())
}

fn names_of(units: &Query<UnitData>, list: &[Entity]) -> Vec<String> {
    list.iter()
        .filter_map(|e| units.get(*e).ok().map(|d| d.unit.name.clone()))
        .collect()
}

/// The automatic advance: the strongest attackers first, as many as may enter (Small General:
/// the first attacker only; a mandatory advance sends at least one).
fn automatic_advancers(w: &mut AfterCombatWorld, units: &Query<UnitData>, p: &PendingAdvance) -> Vec<Entity> {
    let mut order: Vec<(u32, Entity)> = live_units(units, p)
        .into_iter()
        .filter(|e| p.attackers.contains(e))
        .filter_map(|e| units.get(e).ok().map(|d| (d.steps.values().attack, e)))
        .collect();
    order.sort_by_key(|(a, _)| std::cmp::Reverse(*a));
    if w.map.ruleset.advance.automatic {
        order.truncate(1);
    }
    let mut going = Vec::new();
    for (_, e) in order {
        let ok = advance_options(&w.map, &w.index, units, p, e)
            .iter()
            .any(|t| t.cell == p.into && t.allowed.is_ok());
        // Later units must fit with the earlier ones: check by placing them one by one.
        if ok || (going.is_empty() && p.right.mandatory) {
            going.push(e);
            w.index.place(e, p.into); // counted for the next unit's stacking check
        }
    }
    for e in &going {
        w.index.remove(*e, p.into);
    }
    going
}
