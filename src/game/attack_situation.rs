//! An attack order of the side to play checked and turned into a `Situation` (attackers,
//! defenders, support, surrounded, Next War's over-stacking and retreated units). Pure over the
//! world's data (`GameView`), so the game, the preview, the computer player and tests call the
//! same function.

use super::components::*;
use super::order::{AttackOrder, DefenseOrder};
use super::view::*;
use crate::combat::{Battery, City, Combatant, Conditions, Role, Situation, Support};
use crate::rules::grid::Cell;
use crate::rules::terrain::{CellFeature, EdgeFeatures, TerrainId};
use bevy::prelude::*;

impl GameView<'_, '_> {
    /// The situation of an attack by the side to play (see `build_situation`).
    pub fn situation(
        &self,
        order: &AttackOrder,
        defense: Option<&DefenseOrder>,
    ) -> Result<(Situation, Vec<Entity>, Vec<Entity>), String> {
        build_situation(order, defense, self)
    }
}

/// Checks an attack order of the side to play and builds its situation: who attacks, who
/// defends, and the entities in the situation's order. Pure over the world's data.
pub fn build_situation(
    order: &AttackOrder,
    defense: Option<&DefenseOrder>,
    view: &GameView,
) -> Result<(Situation, Vec<Entity>, Vec<Entity>), String> {
    order.check_options(view.map.ruleset.combat.system())?;
    let target = order.target;
    let terrain: TerrainId = view
        .map
        .board
        .terrain(target)
        .ok_or_else(|| format!("{target} is not on the map"))?;
    let (mut attacker_entities, mut attackers) = attacking_units(order, view)?;
    let (mut defender_entities, mut defenders) = defending_units(target, view);
    if defenders.is_empty() {
        return Err(format!("there are no enemy units at {target} to attack"));
    }
    if view.map.ruleset.stacking.penalized() {
        within_limit(view, &mut attacker_entities, &mut attackers, Role::Attacker);
        within_limit(view, &mut defender_entities, &mut defenders, Role::Defender);
    }
    if attackers.is_empty() || defenders.is_empty() {
        return Err(format!("nobody is left to fight at {target} within the stacking limit"));
    }
    // The defender's pick comes with its answer to the result (`combat::answers::with_answer`).
    rank_losses(order.taken().losses_first(), &mut attackers);
    let defending = *view
        .units
        .get(defender_entities[0])
        .map_err(|_| "a defender vanished")?
        .side;
    if view.map.ruleset.stacking.penalized() {
        overstacked_er(
            view,
            target,
            defending,
            &mut defenders,
            &attacker_entities,
            &mut attackers,
        );
    }
    // Surrounded: no defender has a legal first retreat step (War Against Russia converts results).
    let surrounded = defender_entities.iter().all(|&e| {
        view.retreat_options(e, target, 1, &attacker_entities)
            .is_ok_and(|(_, o)| o.legal.is_empty())
    });
    let batteries = |ids: &[String], side: Side| {
        ids.iter()
            .map(|id| battery(view, id, side, target, terrain))
            .collect::<Result<Vec<_>, _>>()
    };
    let empty = DefenseOrder::default();
    let defense = defense.unwrap_or(&empty);
    let accelerated_effort = match order.taken().accelerated_effort() {
        Some(id) => {
            view.unit(id)
                .map_err(|why| format!("the unit named for Accelerated Effort: {why}"))?;
            Some(id.clone())
        }
        None => None,
    };
    let situation = Situation {
        terrain,
        weather: view.weather.0,
        attackers,
        defenders,
        attack: Support {
            tactics: order.taken().tactics().to_vec(),
            barrage: batteries(order.taken().barrage(), view.turn.active)?,
            accelerated_effort,
            flanking: order.taken().flanking(),
            hexsides: hexsides_with(view, target, &attacker_entities),
            ..Support::default()
        },
        defense: Support {
            tactics: defense.tactics.clone(),
            barrage: batteries(&defense.barrage, defending)?,
            no_retreat: defense.no_retreat,
            ..Support::default()
        },
        conditions: Conditions {
            surrounded,
            city: city_in(view.map.board.features(target)),
            fortified: view.map.board.has_feature(target, |f| f == CellFeature::Fortification),
            installation: view.map.board.has_feature(target, CellFeature::is_installation),
            ..Conditions::default()
        },
        choices: crate::combat::Choices::of(
            &order.taken().attacker_choices(),
            &crate::combat::DefenderChoices::default(),
        ),
    };
    Ok((situation, attacker_entities, defender_entities))
}

/// Small General's simultaneous attack: the distinct hexsides of `target` attacked across this
/// phase with this attack's (0, unset, in editions before 4, which did not count them).
fn hexsides_with(view: &GameView, target: Cell, attackers: &[Entity]) -> u32 {
    if view.edition.as_ref().is_some_and(|e| !e.counts_hexsides()) {
        return 0;
    }
    let from: Vec<Cell> = attackers
        .iter()
        .filter_map(|e| view.units.get(*e).ok().map(|d| d.cell()))
        .collect();
    let empty = super::hexsides::AttackedHexsides::default();
    let recorded = view.hexsides.as_deref().unwrap_or(&empty);
    recorded.count_with(&view.map.board.grid, target, &from)
}

/// The owner's order for taking losses: the units named first, in that order.
fn rank_losses(first: &[String], units: &mut [Combatant]) {
    for u in units {
        if let Some(k) = first.iter().position(|id| *id == u.id) {
            u.loss_rank = k as u32 + 1;
        }
    }
}

/// The largest city among a cell's features, as the combat rules name it.
pub fn city_in(features: &[CellFeature]) -> Option<City> {
    features
        .iter()
        .filter_map(|f| match f {
            CellFeature::Town => Some((0, City::Town)),
            CellFeature::City => Some((1, City::City)),
            CellFeature::MajorCity => Some((2, City::MajorCity)),
            CellFeature::VictoryCity(n) => Some((3, City::VictoryCity(*n))),
            _ => None,
        })
        .max_by_key(|(rank, _)| *rank)
        .map(|(_, c)| c)
}

fn nation(view: &GameView, side: Side) -> String {
    view.sides.0.get(side.0).map_or("", |s| s.id.as_str()).to_string()
}

/// The attacking units: those named, each of the side to play, not yet having attacked, next to
/// the target (Rommel: inside the contested square, where every unit of the side takes part).
fn attacking_units(order: &AttackOrder, view: &GameView) -> Result<(Vec<Entity>, Vec<Combatant>), String> {
    if order.attackers.is_empty() {
        return Err("no attacking units selected".into());
    }
    let (map, target, active) = (&view.map, order.target, view.turn.active);
    let contest = map.ruleset.contests_cells();
    let mut entities = view.entities(&order.attackers)?;
    if contest {
        for e in view.stack_of(target, active, true) {
            if !entities.contains(&e) {
                entities.push(e);
            }
        }
    }
    let mut combatants = Vec::new();
    for &e in &entities {
        let data = view
            .units
            .get(e)
            .map_err(|_| "an attacking unit no longer exists".to_string())?;
        let (unit, side, cell) = (data.unit, *data.side, data.cell());
        if side != active {
            return Err(format!("{} belongs to the side not attacking now", unit.name));
        }
        if data.attacked {
            return Err(format!("{} has already attacked in this combat phase", unit.name));
        }
        let crossing = if contest {
            if cell != target {
                return Err(format!(
                    "{} is not in the contested square {target}: Rommel combats are fought inside the square",
                    unit.name
                ));
            }
            EdgeFeatures::NONE
        } else {
            if map.board.grid.distance(cell, target) != 1 {
                return Err(format!("{} at {cell} is not next to {target}", unit.name));
            }
            map.board.edge(cell, target)
        };
        combatants.push(combatant(&data, &nation(view, side), crossing));
    }
    Ok((entities, combatants))
}

/// The defending units: the other side's units in the target (Next War: units that retreated
/// there earlier in this phase add nothing to the defense, while others are there).
fn defending_units(target: Cell, view: &GameView) -> (Vec<Entity>, Vec<Combatant>) {
    let active = view.turn.active;
    let (index, units) = (&view.index, &view.units);
    let skip_retreated = view.map.ruleset.retreat.retreated_units_do_not_defend
        && index
            .stack(target)
            .iter()
            .any(|e| units.get(*e).is_ok_and(|d| *d.side != active && !d.retreated));
    let mut entities = Vec::new();
    let mut combatants = Vec::new();
    for &e in index.stack(target) {
        if let Ok(data) = units.get(e)
            && *data.side != active
            && !(skip_retreated && data.retreated)
        {
            combatants.push(combatant(&data, &nation(view, *data.side), EdgeFeatures::NONE));
            entities.push(e);
        }
    }
    (entities, combatants)
}

/// Next War: only the limit's worth of stacking points fight from an over-stacked cell, attackers
/// per cell they attack from and defenders in the target (`StackingRule::fighting` picks the
/// strongest such set); the others sit the combat out. Returns those left out.
fn within_limit(
    view: &GameView,
    entities: &mut Vec<Entity>,
    combatants: &mut Vec<Combatant>,
    role: Role,
) -> Vec<Entity> {
    let stacking = &view.map.ruleset.stacking;
    let facts: Vec<(Cell, u32)> = entities
        .iter()
        .map(|e| {
            view.units
                .get(*e)
                .map_or((Cell::new(-1, -1), 0), |d| (d.cell(), d.stacking.0))
        })
        .collect();
    let mut keep = vec![true; entities.len()];
    let mut cells: Vec<Cell> = facts.iter().map(|f| f.0).collect();
    cells.sort_unstable();
    cells.dedup();
    for cell in cells {
        let limit = view.map.board.terrain(cell).map_or(u32::MAX, |t| stacking.limit_in(t));
        let here: Vec<usize> = (0..facts.len()).filter(|&i| facts[i].0 == cell).collect();
        let values: Vec<(u32, u32, u32)> = here
            .iter()
            .map(|&i| (facts[i].1, combatants[i].value(role), combatants[i].er.unwrap_or(0)))
            .collect();
        let fighting = stacking.fighting(limit, &values);
        for (k, &i) in here.iter().enumerate() {
            keep[i] = fighting.contains(&k);
        }
    }
    let mut left_out = Vec::new();
    let mut i = 0;
    entities.retain(|e| {
        let kept = keep[i];
        i += 1;
        if !kept {
            left_out.push(*e);
        }
        kept
    });
    let mut i = 0;
    combatants.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    left_out
}

/// Next War: the units of an attack that sit it out because their cell is over-stacked (only the
/// limit's worth of stacking points fight), in words for the preview.
pub fn sitting_out(order: &AttackOrder, view: &GameView) -> Vec<String> {
    if !view.map.ruleset.stacking.penalized() {
        return Vec::new();
    }
    let Ok((mut attackers, mut a)) = attacking_units(order, view) else {
        return Vec::new();
    };
    let (mut defenders, mut d) = defending_units(order.target, view);
    let name = |e: &Entity| {
        view.units
            .get(*e)
            .map_or_else(|_| String::new(), |d| d.unit.name.clone())
    };
    let stacking = &view.map.ruleset.stacking;
    let limit_at = |e: &Entity| {
        view.units
            .get(*e)
            .ok()
            .and_then(|d| view.map.board.terrain(d.cell()))
            .map_or(stacking.limit, |t| stacking.limit_in(t))
    };
    let mut notes = Vec::new();
    for (who, left) in [
        ("attack", within_limit(view, &mut attackers, &mut a, Role::Attacker)),
        ("defend", within_limit(view, &mut defenders, &mut d, Role::Defender)),
    ] {
        if let Some(first) = left.first() {
            let names = left.iter().map(name).collect::<Vec<_>>().join(", ");
            notes.push(format!(
                "{names} cannot {who}: only {} {} fight from an over-stacked cell (the strongest that fit).",
                limit_at(first),
                stacking.unit_word()
            ));
        }
    }
    notes
}

/// Next War: an over-stacked hex's units lose 1 ER per stacking point over the limit.
fn overstacked_er(
    view: &GameView,
    target: Cell,
    defending: Side,
    defenders: &mut [Combatant],
    attacker_entities: &[Entity],
    attackers: &mut [Combatant],
) {
    let map = &view.map;
    let limit = |cell: Cell| {
        map.board
            .terrain(cell)
            .map_or(u32::MAX, |t| map.ruleset.stacking.limit_in(t))
    };
    let points = |cell: Cell, side: Side| -> u32 {
        view.index
            .stack(cell)
            .iter()
            .filter_map(|e| view.units.get(*e).ok())
            .filter(|d| *d.side == side)
            .map(|d| d.stacking.0)
            .sum()
    };
    let excess = points(target, defending).saturating_sub(limit(target));
    for d in defenders {
        d.er = d.er.map(|er| er.saturating_sub(excess));
    }
    for (c, e) in attackers.iter_mut().zip(attacker_entities) {
        if let Ok(d) = view.units.get(*e) {
            let excess = points(d.cell(), view.turn.active).saturating_sub(limit(d.cell()));
            c.er = c.er.map(|er| er.saturating_sub(excess));
        }
    }
}

/// Rommel: an artillery unit of `side` called to barrage the combat at `target`.
fn battery(view: &GameView, id: &str, side: Side, target: Cell, target_terrain: TerrainId) -> Result<Battery, String> {
    let data = view
        .units
        .get(view.unit(id)?)
        .map_err(|_| "a barraging unit no longer exists".to_string())?;
    let (unit, own, cell) = (data.unit, *data.side, data.cell());
    if own != side {
        return Err(format!(
            "{} belongs to the other side and cannot barrage for this one",
            unit.name
        ));
    }
    if !unit.class.is_artillery() {
        return Err(format!("{} is not artillery and cannot barrage", unit.name));
    }
    Ok(Battery {
        unit: combatant(&data, &nation(view, own), EdgeFeatures::NONE),
        barrage: data.steps.values().attack,
        range: DEFAULT_BARRAGE_RANGE,
        distance: view.map.board.grid.distance(cell, target),
        terrain: view.map.board.terrain(cell).unwrap_or(target_terrain),
        contested: view
            .index
            .stack(cell)
            .iter()
            .any(|o| view.units.get(*o).is_ok_and(|d| *d.side != own)),
        rocket: unit.class == crate::rules::units::UnitClass::Rocket,
    })
}
