//! Turns a validated `Scenario` into entities and resources (a new game, or the start of a
//! replay), and captures the world back into a scenario file: a position, for thumbnails and
//! summaries of saved games.

use super::components::*;
use super::phase::{GameState, TurnState};
use crate::rules::terrain::Mp;
use crate::scenario::Scenario;
use crate::scenario::file::{RawProgress, RawScenario};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(GameState::NoGame), despawn_game);
}

/// Clears a finished or abandoned game: its units and its verdict (a new game spawns the rest).
fn despawn_game(mut commands: Commands, units: Query<Entity, With<Unit>>) {
    for e in &units {
        commands.entity(e).despawn();
    }
    commands.remove_resource::<super::victory::Verdict>();
}

/// Spawns `scenario` into `world`: the board, sides, units and map index, the seeded RNG, and
/// the turn state (from the scenario's saved progress, or turn 1 of its first side), with an
/// empty order log; the game starts at the next state transition (`start::start_game` runs it). Units
/// are stacked in file order, the first listed at the bottom.
pub fn spawn_scenario(world: &mut World, scenario: &Scenario, seed: u64) {
    let mut index = MapIndex::new(&scenario.board.grid);
    let mut ids = UnitIds::default();
    // Reinforcements still to come wait off the map. A first-format save's turn and side say which
    // player turns have begun: arrivals and withdrawals happen at the start of their side's.
    let (start_turn, active) = scenario.raw.progress.as_ref().map_or((1, scenario.first_side), |p| {
        (p.turn, scenario.side_index(&p.side).unwrap_or(scenario.first_side))
    });
    let sides = scenario.sides.len().max(1);
    let in_turn_order = |side: usize| (side + sides - scenario.first_side % sides) % sides;
    let begun = |turn: u32, side: usize| {
        turn < start_turn || (turn == start_turn && in_turn_order(side) <= in_turn_order(active))
    };
    let withdrawn = |s: &crate::scenario::validate::UnitSetup| s.withdraws.is_some_and(|t| begun(t, s.side));
    let (waiting, on_map): (Vec<_>, Vec<_>) = scenario
        .units
        .iter()
        .filter(|s| !withdrawn(s))
        .partition(|s| s.arrives.is_some_and(|t| !begun(t, s.side)));
    world.insert_resource(Reinforcements(waiting.into_iter().cloned().collect()));
    world.remove_resource::<ArrivalsDone>();
    for setup in on_map {
        let entity = spawn_unit(world, setup, scenario.raw.progress.as_ref());
        index.place(entity, setup.cell);
        ids.0.insert(setup.id.clone(), entity);
    }
    spawn_rest(world, scenario, seed, index, ids);
}

/// Spawns one unit (not yet placed in the map index), with a first-format save's progress for it.
pub(super) fn spawn_unit(
    world: &mut World,
    setup: &crate::scenario::validate::UnitSetup,
    progress: Option<&RawProgress>,
) -> Entity {
    {
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
        if let Some(p) = progress {
            if let Some(spent) = p.spent.get(&setup.id).and_then(|mp| Mp::from_f32(*mp)) {
                unit.insert(MovePoints {
                    allowance: setup.movement,
                    spent,
                });
            }
            if p.attacked.contains(&setup.id) {
                unit.insert(super::combat_phase::Attacked);
            }
            if let Some(cell) = p
                .came_from
                .get(&setup.id)
                .and_then(|l| crate::rules::grid::parse_label(l).ok())
            {
                unit.insert(CameFrom(cell));
            }
        }
        unit.id()
    }
}

/// The resources of a new game around its spawned units.
fn spawn_rest(world: &mut World, scenario: &Scenario, seed: u64, index: MapIndex, ids: UnitIds) {
    let (turn, active, phase_index, rng) = match &scenario.raw.progress {
        Some(p) => (
            p.turn,
            scenario.side_index(&p.side).unwrap_or(scenario.first_side),
            p.phase,
            GameRng::resumed(p.seed, p.dice_position),
        ),
        None => (1, scenario.first_side, 0, GameRng::new(seed)),
    };
    let seed = rng.seed;
    world.insert_resource(index);
    world.insert_resource(ids);
    world.insert_resource(super::log::OrderLog::default());
    world.insert_resource(super::combat_phase::PendingCombat::default());
    world.insert_resource(super::combat_phase::PendingAnswer::default());
    world.insert_resource(super::combat_phase::NoRetreatTurns::default());
    world.insert_resource(super::retreat::StuckRetreats::default());
    world.insert_resource(super::zoc::Zoc(crate::rules::zoc::ZocMap::empty(scenario.board.grid)));
    world.insert_resource(GameMap {
        board: scenario.board.clone(),
        ruleset: scenario.ruleset.clone(),
        places: scenario.places.clone(),
        objectives: scenario.objectives.clone(),
        win: scenario.win.clone(),
        otherwise: scenario.otherwise,
        otherwise_level: scenario.otherwise_level,
        start_bars: if scenario.ruleset.zoc.not_into_enemy_start_until_first_move {
            crate::rules::zoc::start_control_bars(
                &scenario.board.grid,
                scenario
                    .units
                    .iter()
                    .filter(|u| u.arrives.is_none())
                    .map(|u| (u.cell, u.side as u8)),
            )
        } else {
            Vec::new()
        },
    });
    world.insert_resource(super::victory::ObjectiveControl(
        scenario.objectives.iter().map(|o| o.held_by.map(Side)).collect(),
    ));
    world.remove_resource::<super::victory::Verdict>();
    world.insert_resource(super::combat_phase::PendingRetreats::default());
    world.insert_resource(super::combat_phase::PendingAdvances::default());
    world.insert_resource(super::hexsides::AttackedHexsides::default());
    world.insert_resource(Sides(scenario.sides.clone()));
    world.insert_resource(ScenarioSource(scenario.raw.clone()));
    world.insert_resource(rng);
    world.insert_resource(super::combat_phase::CurrentWeather(scenario.raw.weather));
    let turn_state = TurnState {
        turn,
        last_turn: scenario.raw.turns,
        active: Side(active),
        first_side: Side(scenario.first_side),
        phase_index,
    };
    // A saved game resumes inside its phase; a new one starts its first phase afresh.
    world.insert_resource(match scenario.raw.progress {
        Some(_) => super::phase::PhaseStarted::of(&turn_state),
        None => super::phase::PhaseStarted::default(),
    });
    world.insert_resource(turn_state);
    let mut log = GameLog::default();
    match &scenario.raw.progress {
        Some(p) => log.0 = p.log.clone(),
        None => log.push(format!(
            "{} — {}. Ruleset: {}. Seed {seed}.",
            scenario.raw.name, scenario.raw.setting, scenario.ruleset.raw.name
        )),
    }
    world.insert_resource(log);
    NextState::<GameState>::set_if_neq(&mut world.resource_mut::<NextState<GameState>>(), GameState::Playing);
}

/// The world as a scenario file: the loaded scenario with every surviving unit's cell, losses,
/// statuses and experience as they are now, eliminated units left out, and the turn progress.
pub fn capture_scenario(world: &mut World) -> RawScenario {
    let mut raw = world.resource::<ScenarioSource>().0.clone();
    let turn = world.resource::<TurnState>().clone();
    let (seed, dice_position) = {
        let rng = world.resource::<GameRng>();
        (rng.seed, rng.position())
    };
    let sides = world.resource::<Sides>().0.clone();
    let control = world.resource::<super::victory::ObjectiveControl>().0.clone();
    for (objective, holder) in raw.objectives.iter_mut().zip(&control) {
        objective.held_by = holder.map(|s| sides[s.0].id.clone());
    }
    let mut spent = std::collections::BTreeMap::new();
    let mut attacked = Vec::new();
    let mut came_from = std::collections::BTreeMap::new();
    let mut query = world.query::<(
        Entity,
        &Unit,
        &Position,
        &Steps,
        &Statuses,
        Option<&Experience>,
        &MovePoints,
        Has<super::combat_phase::Attacked>,
        Option<&CameFrom>,
    )>();
    let mut live = std::collections::HashMap::new();
    let mut ids = std::collections::HashMap::new();
    for (entity, u, p, s, st, xp, mp, has_attacked, from) in query.iter(world) {
        ids.insert(entity, u.id.clone());
        live.insert(u.id.clone(), (p.0, s.0.lost, st.0.clone(), xp.map(|x| x.0)));
        if mp.spent != Mp::ZERO {
            spent.insert(u.id.clone(), mp.spent.as_f32());
        }
        if has_attacked {
            attacked.push(u.id.clone());
        }
        if let Some(from) = from {
            came_from.insert(u.id.clone(), from.0.to_string());
        }
    }
    attacked.sort();
    // Units are written stack by stack, bottom first, so a loaded game stacks them the same way.
    let rank: std::collections::HashMap<&str, usize> = world
        .resource::<MapIndex>()
        .occupied()
        .flat_map(|(_, stack)| stack.iter())
        .filter_map(|e| ids.get(e).map(String::as_str))
        .enumerate()
        .map(|(i, id)| (id, i))
        .collect();
    raw.units
        .sort_by_key(|u| rank.get(u.id.as_str()).copied().unwrap_or(usize::MAX));
    let waiting: std::collections::HashSet<String> = world
        .get_resource::<Reinforcements>()
        .map(|r| r.0.iter().map(|s| s.id.clone()).collect())
        .unwrap_or_default();
    raw.units.retain_mut(|u| match live.get(&u.id) {
        Some((cell, lost, statuses, xp)) => {
            // On the map now: no longer a reinforcement to come.
            u.arrives = None;
            u.cell = cell.to_string();
            u.lost = *lost;
            u.status = statuses.iter().copied().collect();
            if xp.is_some() {
                u.experience = *xp;
            }
            true
        }
        // Still to arrive: kept as written.
        None => waiting.contains(&u.id),
    });
    raw.progress = Some(RawProgress {
        turn: turn.turn,
        side: sides[turn.active.0].id.clone(),
        phase: turn.phase_index,
        seed,
        dice_position,
        spent,
        attacked,
        came_from,
        log: world.resource::<GameLog>().0.clone(),
    });
    raw
}
