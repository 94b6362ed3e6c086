//! Turns a validated `Scenario` into entities and resources, and captures the world back into a
//! scenario file (a save) so that load → save → load gives the same game.

use super::components::*;
use super::phase::{GameState, TurnState};
use crate::rules::terrain::Mp;
use crate::scenario::file::{RawProgress, RawScenario};
use crate::scenario::{LoadError, Scenario};
use bevy::prelude::*;

/// Spawns `scenario` into `world`: the board, sides, units and map index, the seeded RNG, and
/// the turn state (from the scenario's saved progress, or turn 1 of its first side), then starts
/// the game. Units are stacked in file order, the first listed at the bottom.
pub fn spawn_scenario(world: &mut World, scenario: &Scenario, seed: u64) {
    let mut index = MapIndex::new(&scenario.board.grid);
    for setup in &scenario.units {
        let mut unit = world.spawn((
            Unit {
                id: setup.id.clone(),
                name: setup.name.clone(),
                class: setup.class,
                size: setup.size,
                mobility: setup.mobility,
                traits: setup.traits.clone(),
            },
            Side(setup.side),
            Position(setup.cell),
            Steps(setup.steps.clone()),
            MovePoints {
                allowance: setup.movement,
                spent: Mp::ZERO,
            },
            Formation {
                element: setup.element.clone(),
                parent: setup.parent.clone(),
            },
            Statuses(setup.status.iter().copied().collect()),
            StackingPoints(setup.stacking_points),
        ));
        if let Some(a) = setup.armor {
            unit.insert(Armor(a));
        }
        if let Some(er) = setup.er {
            unit.insert(Effectiveness(er));
        }
        if let Some(xp) = setup.experience {
            unit.insert(Experience(xp));
        }
        let entity = unit.id();
        index.place(entity, setup.cell);
    }
    let (turn, active, phase_index, seed) = match &scenario.raw.progress {
        Some(p) => (
            p.turn,
            scenario.side_index(&p.side).unwrap_or(scenario.first_side),
            p.phase,
            p.seed,
        ),
        None => (1, scenario.first_side, 0, seed),
    };
    world.insert_resource(index);
    world.insert_resource(super::zoc::Zoc(crate::rules::zoc::ZocMap::empty(scenario.board.grid)));
    world.insert_resource(GameMap {
        board: scenario.board.clone(),
        ruleset: scenario.ruleset.clone(),
        places: scenario.places.clone(),
        objectives: scenario.objectives.clone(),
    });
    world.insert_resource(Sides(scenario.sides.clone()));
    world.insert_resource(ScenarioSource(scenario.raw.clone()));
    world.insert_resource(GameRng::new(seed));
    world.insert_resource(super::combat::CurrentWeather(scenario.raw.weather));
    world.insert_resource(TurnState {
        turn,
        last_turn: scenario.raw.turns,
        active: Side(active),
        first_side: Side(scenario.first_side),
        phase_index,
    });
    let mut log = GameLog::default();
    log.push(format!(
        "{} — {}. Ruleset: {}. Seed {seed}.",
        scenario.raw.name, scenario.raw.setting, scenario.ruleset.raw.name
    ));
    world.insert_resource(log);
    world.resource_mut::<NextState<GameState>>().set(GameState::Playing);
}

/// The world as a scenario file: the loaded scenario with every surviving unit's cell, losses,
/// statuses and experience as they are now, eliminated units left out, and the turn progress.
pub fn capture_scenario(world: &mut World) -> RawScenario {
    let mut raw = world.resource::<ScenarioSource>().0.clone();
    let turn = world.resource::<TurnState>().clone();
    let seed = world.resource::<GameRng>().seed;
    let sides = world.resource::<Sides>().0.clone();
    let mut query = world.query::<(&Unit, &Position, &Steps, &Statuses, Option<&Experience>)>();
    let live: std::collections::HashMap<String, _> = query
        .iter(world)
        .map(|(u, p, s, st, xp)| (u.id.clone(), (p.0, s.0.lost, st.0.clone(), xp.map(|x| x.0))))
        .collect();
    raw.units.retain_mut(|u| match live.get(&u.id) {
        Some((cell, lost, statuses, xp)) => {
            u.cell = cell.to_string();
            u.lost = *lost;
            u.status = statuses.iter().copied().collect();
            if xp.is_some() {
                u.experience = *xp;
            }
            true
        }
        None => false,
    });
    raw.progress = Some(RawProgress {
        turn: turn.turn,
        side: sides[turn.active.0].id.clone(),
        phase: turn.phase_index,
        seed,
    });
    raw
}

/// Writes the world to `path` as RON, atomically (a temporary file renamed over the old one), so a
/// crash mid-save never destroys the previous save.
pub fn save_game(world: &mut World, path: &std::path::Path) -> Result<(), LoadError> {
    let raw = capture_scenario(world);
    let fail = |message: String| LoadError {
        file: path.to_path_buf(),
        pos: None,
        field: String::new(),
        message,
    };
    let text = crate::scenario::to_ron(&raw).map_err(|e| fail(format!("cannot write RON: {e}")))?;
    let tmp = path.with_extension("ron.tmp");
    std::fs::write(&tmp, text).map_err(|e| fail(format!("cannot write {}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(|e| fail(format!("cannot rename {} into place: {e}", tmp.display())))
}
