//! The world as the combat rules see it: a unit's components as a `Combatant`, and a
//! `DeclareAttack` order checked and turned into a `Situation` (attackers, defenders, support,
//! surrounded, Next War's over-stacking and retreated units). Pure over the world's data, so the
//! game, the preview and tests call the same function.

use super::combat::{Attacked, DeclareAttack};
use super::components::{
    Armor, CameFrom, Effectiveness, Experience, Formation, GameMap, MapIndex, Position, Side, Sides, StackingPoints,
    Statuses, Steps, Unit,
};
use super::retreat::RetreatedThisPhase;
use crate::combat::{ArmorValue, Battery, Combatant, Conditions, Situation, Support, Weather};
use crate::rules::grid::Cell;
use crate::rules::terrain::{EdgeFeatures, TerrainId};
use crate::rules::zoc::ZocMap;
use crate::scenario::ruleset::EnemyCells;
use bevy::prelude::*;

/// What the combat rules need from one unit's components.
pub type UnitData<'a> = (
    Entity,
    &'a Unit,
    &'a Side,
    &'a Position,
    &'a Steps,
    &'a Statuses,
    Option<&'a Armor>,
    Option<&'a Effectiveness>,
    Option<&'a Formation>,
    Option<&'a Experience>,
    Has<Attacked>,
    Option<&'a CameFrom>,
    &'a StackingPoints,
    Has<RetreatedThisPhase>,
);

/// One row of `UnitData`.
pub type UnitRow<'a> = bevy::ecs::query::QueryItem<'a, 'a, UnitData<'static>>;

/// A unit as the combat rules see it; `crossing` is the edge it attacks across.
pub fn combatant(data: &UnitRow, nation: &str, crossing: EdgeFeatures) -> Combatant {
    let (_, unit, _, _, steps, statuses, armor, er, formation, xp, ..) = data;
    Combatant {
        id: unit.id.clone(),
        name: unit.name.clone(),
        class: unit.class,
        size: unit.size,
        mobility: unit.mobility,
        traits: unit.traits.clone(),
        steps: steps.0.clone(),
        armor: armor.map(|a| ArmorValue {
            attack: a.0,
            defense: a.0,
        }),
        er: er.map(|e| e.0),
        element: formation.and_then(|f| f.element.clone()),
        parent: formation.and_then(|f| f.parent.clone()),
        statuses: statuses.0.iter().copied().collect(),
        experience: xp.map_or(0, |x| x.0),
        nation: nation.to_string(),
        crossing,
        participating: true,
    }
}

/// Authored: artillery range in cells for Rommel barrages (scenarios do not give ranges yet).
pub const DEFAULT_BARRAGE_RANGE: u32 = 3;

/// Checks an attack order and builds its situation: who attacks, who defends, and the entities
/// in the situation's order. Pure over the world's data, so previews can call it too.
#[allow(clippy::too_many_arguments)]
pub fn build_situation(
    order: &DeclareAttack,
    map: &GameMap,
    zoc: &ZocMap,
    sides: &Sides,
    active: Side,
    index: &MapIndex,
    weather: Weather,
    units: &Query<UnitData>,
) -> Result<(Situation, Vec<Entity>, Vec<Entity>), String> {
    let grid = &map.board.grid;
    let target = order.target;
    let terrain: TerrainId = map
        .board
        .terrain(target)
        .ok_or_else(|| format!("{target} is not on the map"))?;
    if order.attackers.is_empty() {
        return Err("no attacking units selected".into());
    }
    let nation = |side: &Side| sides.0.get(side.0).map_or("", |s| s.id.as_str()).to_string();
    let contest = map.ruleset.raw.enemy_cells == EnemyCells::Contest;
    // Rommel: every unit of the attacking side in the contested square takes part.
    let mut attacker_entities = order.attackers.clone();
    if contest {
        for &e in index.stack(target) {
            if !attacker_entities.contains(&e) && units.get(e).is_ok_and(|d| *d.2 == active) {
                attacker_entities.push(e);
            }
        }
    }
    let mut attackers = Vec::new();
    for &e in &attacker_entities {
        let data = units
            .get(e)
            .map_err(|_| "an attacking unit no longer exists".to_string())?;
        let (_, unit, side, pos, ..) = &data;
        if **side != active {
            return Err(format!("{} belongs to the side not attacking now", unit.name));
        }
        if data.10 {
            return Err(format!("{} has already attacked in this combat phase", unit.name));
        }
        let crossing = if contest {
            if pos.0 != target {
                return Err(format!(
                    "{} is not in the contested square {target}: Rommel combats are fought inside the square",
                    unit.name
                ));
            }
            EdgeFeatures::NONE
        } else {
            if grid.distance(pos.0, target) != 1 {
                return Err(format!("{} at {} is not next to {target}", unit.name, pos.0));
            }
            map.board.edge(pos.0, target)
        };
        attackers.push(combatant(&data, &nation(side), crossing));
    }
    let mut defenders = Vec::new();
    let mut defender_entities = Vec::new();
    // Next War: units that retreated here earlier in this phase add nothing to the defense.
    let skip_retreated = map.ruleset.retreat.retreated_units_do_not_defend
        && index
            .stack(target)
            .iter()
            .any(|e| units.get(*e).is_ok_and(|d| *d.2 != active && !d.13));
    for &e in index.stack(target) {
        if let Ok(data) = units.get(e)
            && *data.2 != active
            && !(skip_retreated && data.13)
        {
            defenders.push(combatant(&data, &nation(data.2), EdgeFeatures::NONE));
            defender_entities.push(e);
        }
    }
    if defenders.is_empty() {
        return Err(format!("there are no enemy units at {target} to attack"));
    }
    // Next War: an over-stacked hex's units lose 1 ER per stacking point over the limit.
    if map.ruleset.retreat.may_overstack {
        let limit = |cell: Cell| {
            map.board
                .terrain(cell)
                .map_or(u32::MAX, |t| map.ruleset.stacking.limit_in(t))
        };
        let points = |cell: Cell, side: Side| -> u32 {
            index
                .stack(cell)
                .iter()
                .filter_map(|e| units.get(*e).ok())
                .filter(|d| *d.2 == side)
                .map(|d| d.12.0)
                .sum()
        };
        let defending = *units.get(defender_entities[0]).map_err(|_| "a defender vanished")?.2;
        let excess = points(target, defending).saturating_sub(limit(target));
        for d in &mut defenders {
            d.er = d.er.map(|er| er.saturating_sub(excess));
        }
        for (c, e) in attackers.iter_mut().zip(&attacker_entities) {
            if let Ok(d) = units.get(*e) {
                let excess = points(d.3.0, active).saturating_sub(limit(d.3.0));
                c.er = c.er.map(|er| er.saturating_sub(excess));
            }
        }
    }
    // Surrounded: no defender has a legal first retreat step (War Against Russia converts results).
    let surrounded = defender_entities.iter().all(|&e| {
        super::retreat::retreat_options(map, zoc, sides, index, units, e, target, 1, &attacker_entities)
            .is_ok_and(|(_, o)| o.legal.is_empty())
    });
    let battery = |e: Entity, side_wanted: Side| -> Result<Battery, String> {
        let data = units
            .get(e)
            .map_err(|_| "a barraging unit no longer exists".to_string())?;
        let (_, unit, side, pos, steps, ..) = &data;
        if **side != side_wanted {
            return Err(format!(
                "{} belongs to the other side and cannot barrage for this one",
                unit.name
            ));
        }
        if !unit.class.is_artillery() {
            return Err(format!("{} is not artillery and cannot barrage", unit.name));
        }
        Ok(Battery {
            unit: combatant(&data, &nation(side), EdgeFeatures::NONE),
            barrage: steps.values().attack,
            range: DEFAULT_BARRAGE_RANGE,
            distance: grid.distance(pos.0, target),
            terrain: map.board.terrain(pos.0).unwrap_or(terrain),
            contested: index
                .stack(pos.0)
                .iter()
                .any(|o| units.get(*o).is_ok_and(|d| *d.2 != **side)),
            rocket: unit.class == crate::rules::units::UnitClass::Rocket,
        })
    };
    let barrage = order
        .barrage
        .iter()
        .map(|&e| battery(e, active))
        .collect::<Result<Vec<_>, _>>()?;
    let defending_side = units.get(defender_entities[0]).map(|d| *d.2).unwrap_or(active);
    let defense_barrage = order
        .defense_barrage
        .iter()
        .map(|&e| battery(e, defending_side))
        .collect::<Result<Vec<_>, _>>()?;
    let accelerated_effort = match order.accelerated_effort {
        Some(e) => Some(
            units
                .get(e)
                .map(|d| d.1.id.clone())
                .map_err(|_| "the unit named for Accelerated Effort no longer exists".to_string())?,
        ),
        None => None,
    };
    let situation = Situation {
        terrain,
        weather,
        attackers,
        defenders,
        attack: Support {
            tactics: order.attack_tactics.clone(),
            barrage,
            accelerated_effort,
            flanking: order.flanking,
            ..Support::default()
        },
        defense: Support {
            tactics: order.defense_tactics.clone(),
            barrage: defense_barrage,
            no_retreat: order.no_retreat,
            ..Support::default()
        },
        conditions: Conditions {
            surrounded,
            ..Conditions::default()
        },
        choices: order.choices.clone(),
    };
    Ok((situation, attacker_entities, defender_entities))
}
