//! The movement phase, headless: orders go in as the players' `Order`s, the world is checked after.
//! Terrain, edge and road costs, the zone-of-control stop, stacking, phases and refusals.

use bevy::ecs::schedule::Schedules;
use bevy::prelude::*;
use hexfront::game::components::*;
use hexfront::game::execute::issue;
use hexfront::game::headless_app;
use hexfront::game::order::Order;
use hexfront::game::phase::{GameState, Phase, TurnState};
use hexfront::rules::grid::{Cell, parse_label};
use hexfront::rules::terrain::Mp;
use hexfront::scenario::{Scenario, to_ron};
use std::path::Path;

fn fixture() -> Scenario {
    Scenario::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corridor.ron")).unwrap()
}

fn unit(app: &mut App, id: &str) -> Entity {
    let mut q = app.world_mut().query::<(Entity, &Unit)>();
    q.iter(app.world())
        .find(|(_, u)| u.id == id)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

fn cell_of(app: &mut App, id: &str) -> Cell {
    let e = unit(app, id);
    app.world().get::<Position>(e).unwrap().0
}

fn spent(app: &mut App, id: &str) -> Mp {
    let e = unit(app, id);
    app.world().get::<MovePoints>(e).unwrap().spent
}

fn phase(app: &App) -> Phase {
    *app.world().resource::<State<Phase>>().get()
}

/// Gives a move order; returns the refusal if there was one.
fn order(app: &mut App, ids: &[&str], to: &str) -> Option<String> {
    let units = ids.iter().map(|id| id.to_string()).collect();
    let to = parse_label(to).unwrap();
    issue(app.world_mut(), Order::Move { units, to })
        .err()
        .map(|r| r.reason)
}

fn end_phase(app: &mut App) {
    let _ = issue(app.world_mut(), Order::EndPhase);
}

/// Every unit stands in exactly the stack of its cell, and nowhere else.
fn assert_index_consistent(app: &mut App) {
    let mut q = app.world_mut().query::<(Entity, &Position)>();
    let units: Vec<(Entity, Cell)> = q.iter(app.world()).map(|(e, p)| (e, p.0)).collect();
    let index = app.world().resource::<MapIndex>();
    let listed: usize = index.occupied().map(|(_, s)| s.len()).sum();
    assert_eq!(listed, units.len(), "every unit listed once");
    for (e, c) in units {
        assert_eq!(
            index.stack(c).iter().filter(|x| **x == e).count(),
            1,
            "{e:?} in the stack of {c}"
        );
    }
}

/// The fixture in its movement phase (it starts in Reinforcement).
fn corridor_in_movement() -> App {
    let mut app = headless_app(&fixture(), 7);
    assert_eq!(phase(&app), Phase::Reinforcement);
    end_phase(&mut app);
    assert_eq!(phase(&app), Phase::Movement);
    app
}

#[test]
fn units_move_only_in_a_movement_phase() {
    let mut app = headless_app(&fixture(), 7);
    assert_eq!(*app.world().resource::<State<GameState>>().get(), GameState::Playing);
    let refusal = order(&mut app, &["inf"], "0201").unwrap();
    assert!(refusal.contains("this is the Reinforcement phase"), "{refusal}");
    assert_eq!(cell_of(&mut app, "inf"), Cell::new(0, 0));
}

#[test]
fn terrain_costs_add_up_along_the_path() {
    let mut app = corridor_in_movement();
    // clear 1 + woods 2 + woods 2 + clear 1 = 6.
    assert_eq!(order(&mut app, &["inf"], "0501"), None);
    assert_eq!(cell_of(&mut app, "inf"), parse_label("0501").unwrap());
    assert_eq!(spent(&mut app, "inf"), Mp::whole(6));
    // Then marsh 3 + clear 1 = 4 more.
    assert_eq!(order(&mut app, &["inf"], "0701"), None);
    assert_eq!(spent(&mut app, "inf"), Mp::whole(10));
    assert_index_consistent(&mut app);
}

#[test]
fn crossing_a_river_costs_extra() {
    let mut app = corridor_in_movement();
    order(&mut app, &["inf"], "0701");
    assert_eq!(spent(&mut app, "inf"), Mp::whole(10));
    // Into 0801 across the river: clear 1 + river 1.
    assert_eq!(order(&mut app, &["inf"], "0801"), None);
    assert_eq!(spent(&mut app, "inf"), Mp::whole(12));
}

#[test]
fn prohibited_terrain_is_refused_with_the_reason() {
    let mut app = corridor_in_movement();
    let refusal = order(&mut app, &["tank"], "0601").unwrap();
    assert_eq!(
        refusal,
        "cannot enter 0601: Marsh is prohibited terrain for Mechanized units"
    );
    assert_eq!(cell_of(&mut app, "tank"), Cell::new(0, 0));
    // A stack moves at the pace of its slowest unit and may not go where any of it may not.
    let refusal = order(&mut app, &["inf", "tank"], "0701").unwrap();
    assert!(
        refusal.contains("Marsh is prohibited terrain for Mechanized units") || refusal.contains("no legal path"),
        "{refusal}"
    );
}

#[test]
fn roads_halve_the_cost_and_an_enemy_zone_of_control_ends_the_move() {
    let mut app = corridor_in_movement();
    // Two road steps at 1/2 MP each: 1 MP where clear terrain would cost 2.
    assert_eq!(order(&mut app, &["truck"], "1001"), None);
    assert_eq!(spent(&mut app, "truck"), Mp::whole(1));
    // 1101 is next to the enemy in 1201: entering it ends the move (all MP spent).
    assert_eq!(order(&mut app, &["truck"], "1101"), None);
    assert_eq!(spent(&mut app, "truck"), Mp::whole(2));
    let refusal = order(&mut app, &["truck"], "1001").unwrap();
    assert!(refusal.starts_with("not enough movement points"), "{refusal}");
    assert_eq!(cell_of(&mut app, "truck"), parse_label("1101").unwrap());
}

#[test]
fn a_zone_of_control_cannot_be_passed_through() {
    let mut app = corridor_in_movement();
    // The enemy's own cell is forbidden and 1101 ends the move, so 1201 cannot be reached.
    let refusal = order(&mut app, &["truck"], "1201").unwrap();
    assert!(
        refusal.contains("enemy units") || refusal.contains("no legal path"),
        "{refusal}"
    );
}

#[test]
fn not_enough_movement_points_says_how_many_are_needed() {
    let mut app = corridor_in_movement();
    // a: 4 MP; 0201 → 0601 costs woods 2 + woods 2 + clear 1 + marsh 3 = 8.
    let refusal = order(&mut app, &["a"], "0601").unwrap();
    assert_eq!(
        refusal,
        "not enough movement points: reaching 0601 costs 8 but only 4 are left"
    );
}

#[test]
fn stacking_limit_is_enforced_at_the_destination() {
    let mut app = corridor_in_movement();
    // 0201 holds three units, the Killing Ground limit.
    let refusal = order(&mut app, &["inf"], "0201").unwrap();
    assert_eq!(
        refusal,
        "stacking limit: Clear holds at most 3 units; 3 already there + 1 moving in = 4"
    );
    // Passing through an over-full cell is fine.
    assert_eq!(order(&mut app, &["inf"], "0301"), None);
    assert_index_consistent(&mut app);
}

#[test]
fn only_the_active_side_moves_and_stacks_move_together() {
    let mut app = corridor_in_movement();
    let refusal = order(&mut app, &["enemy"], "1101").unwrap();
    assert!(refusal.contains("side not moving now"), "{refusal}");
    let refusal = order(&mut app, &["inf", "a"], "0301").unwrap();
    assert!(refusal.contains("same cell"), "{refusal}");
    // The whole stack of 0101 moves as one.
    assert_eq!(order(&mut app, &["inf", "tank"], "0301"), None);
    assert_eq!(cell_of(&mut app, "tank"), parse_label("0301").unwrap());
    // Woods cost Mechanized 2 as well: clear 1 + woods 2.
    assert_eq!(spent(&mut app, "tank"), Mp::whole(3));
    let index = app.world().resource::<MapIndex>();
    assert_eq!(index.stack(parse_label("0301").unwrap()).len(), 2);
    assert!(index.stack(Cell::new(0, 0)).is_empty());
}

#[test]
fn phases_follow_the_ruleset_and_turns_advance() {
    let mut app = headless_app(&fixture(), 7);
    let sides = |app: &App| app.world().resource::<TurnState>().active.0;
    let sequence = [
        (1, 0, Phase::Reinforcement),
        (1, 0, Phase::Movement),
        (1, 0, Phase::Combat),
        (1, 1, Phase::Reinforcement),
        (1, 1, Phase::Movement),
        (1, 1, Phase::Combat),
        (2, 0, Phase::Reinforcement),
    ];
    for (turn, side, ph) in sequence {
        assert_eq!(app.world().resource::<TurnState>().turn, turn);
        assert_eq!(sides(&app), side);
        assert_eq!(phase(&app), ph);
        end_phase(&mut app);
    }
    // Turn 2 is the last: ending its last phase ends the game.
    for _ in 0..5 {
        end_phase(&mut app);
    }
    assert_eq!(*app.world().resource::<State<GameState>>().get(), GameState::Over);
}

#[test]
fn movement_points_are_fresh_each_movement_phase() {
    let mut app = corridor_in_movement();
    order(&mut app, &["inf"], "0501");
    assert_eq!(spent(&mut app, "inf"), Mp::whole(6));
    for _ in 0..6 {
        end_phase(&mut app);
    }
    assert_eq!(phase(&app), Phase::Movement);
    assert_eq!(spent(&mut app, "inf"), Mp::ZERO);
}

#[test]
fn exploitation_moves_only_motorized_and_mechanized_units() {
    let scenario =
        Scenario::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/chorwon-hypothetical.ron")).unwrap();
    let mut app = headless_app(&scenario, 1);
    end_phase(&mut app);
    end_phase(&mut app);
    assert_eq!(phase(&app), Phase::Exploitation);
    let refusal = order(&mut app, &["kpa-5-1"], "0308").unwrap();
    assert!(
        refusal.contains("only mechanized and motorized units move in the exploitation phase"),
        "{refusal}"
    );
}

/// For every shipped scenario: enter the first movement phase, move the first unit that can
/// move as far as it can go, and check it arrived having spent what the search said.
#[test]
fn units_move_in_every_shipped_scenario() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let scenario = Scenario::load(&path).unwrap();
        let mut app = headless_app(&scenario, 3);
        while phase(&app) != Phase::Movement {
            end_phase(&mut app);
        }
        let active = app.world().resource::<TurnState>().active;
        let mut q = app.world_mut().query::<(Entity, &Side, &Position)>();
        let candidates: Vec<(Entity, Cell)> = q
            .iter(app.world())
            .filter(|(_, s, _)| **s == active)
            .map(|(e, _, p)| (e, p.0))
            .collect();
        let mut moved = false;
        for (e, from) in candidates {
            let index = app.world().resource::<MapIndex>();
            if index.stack(from).len() != 1 {
                continue;
            }
            let map = app.world().resource::<GameMap>().clone();
            let mut uq = app
                .world_mut()
                .query::<(Entity, &Unit, &Side, &Position, &MovePoints, &StackingPoints, &Statuses)>();
            let (_, u, side, pos, mp, sp, st) = uq.get(app.world(), e).unwrap();
            let mover = hexfront::game::movement::Mover {
                name: u.name.clone(),
                class: u.class,
                side: *side,
                cell: pos.0,
                mobility: u.mobility,
                move_points: *mp,
                stacking_points: sp.0,
                statuses: st.clone(),
            };
            let mut others = hexfront::game::movement::Occupancy::default();
            for (o, _, s, p, _, sp, _) in uq.iter(app.world()) {
                if o != e {
                    others.entry(p.0).or_default().push((*s, sp.0));
                }
            }
            let zoc = app.world().resource::<hexfront::game::zoc::Zoc>().0.clone();
            let search = hexfront::game::movement::search_moves(
                &map,
                &zoc,
                Phase::Movement,
                active,
                std::slice::from_ref(&mover),
                &others,
            )
            .unwrap();
            let best = search
                .reach
                .iter()
                .filter(|(c, _)| **c != from)
                .filter(|(c, _)| {
                    search
                        .plan(&map, &zoc, active, std::slice::from_ref(&mover), &others, **c)
                        .is_ok()
                })
                .max_by_key(|(c, r)| (r.spent, **c));
            let Some((to, reach)) = best.map(|(c, r)| (*c, *r)) else {
                continue;
            };
            let id = app.world().get::<Unit>(e).unwrap().id.clone();
            issue(app.world_mut(), Order::Move { units: vec![id], to }).unwrap();
            assert_eq!(app.world().get::<Position>(e).unwrap().0, to, "{}", path.display());
            let want = if reach.must_stop {
                mp_allowance(&mut app, e)
            } else {
                reach.spent
            };
            assert_eq!(app.world().get::<MovePoints>(e).unwrap().spent, want);
            assert!(reach.spent > Mp::ZERO);
            moved = true;
            break;
        }
        assert!(moved, "{}: some unit could move", path.display());
        assert_index_consistent(&mut app);
    }
}

fn mp_allowance(app: &mut App, e: Entity) -> Mp {
    app.world().get::<MovePoints>(e).unwrap().allowance
}

#[test]
fn a_saved_game_loads_where_it_was_left() {
    let mut app = corridor_in_movement();
    order(&mut app, &["inf"], "0501");
    let raw = hexfront::game::spawn::capture_scenario(app.world_mut());
    let text = to_ron(&raw).unwrap();
    let reloaded = Scenario::from_ron_str("save.ron", &text).unwrap_or_else(|e| panic!("{e}"));
    let mut again = headless_app(&reloaded, 999);
    assert_eq!(cell_of(&mut again, "inf"), parse_label("0501").unwrap());
    assert_eq!(phase(&again), Phase::Movement);
    let t = again.world().resource::<TurnState>();
    assert_eq!((t.turn, t.active.0, t.phase_index), (1, 0, 1));
    // The saved seed wins over the new one, so the dice replay.
    assert_eq!(again.world().resource::<GameRng>().seed, 7);
    // Saving the reloaded game gives the same file.
    assert_eq!(
        to_ron(&hexfront::game::spawn::capture_scenario(again.world_mut())).unwrap(),
        text
    );
}

#[test]
fn save_game_writes_atomically_and_reloads() {
    let app = corridor_in_movement();
    let dir = std::env::temp_dir().join(format!("hexfront-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.ron");
    hexfront::game::save::save_game(app.world(), &path).unwrap();
    assert!(!path.with_extension("ron.tmp").exists());
    let game = hexfront::game::save::load_game(&path, 1).unwrap();
    assert_eq!(game.scenario.units.len(), 7);
    assert_eq!(
        game.log.len(),
        app.world().resource::<hexfront::game::log::OrderLog>().entries.len()
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_same_seed_gives_the_same_dice() {
    let mut a = GameRng::new(42);
    let mut b = GameRng::new(42);
    let rolls_a: Vec<u8> = (0..50).map(|_| a.roll_numbered(6, "test")).collect();
    let rolls_b: Vec<u8> = (0..50).map(|_| b.roll_numbered(6, "test")).collect();
    assert_eq!(rolls_a, rolls_b);
    assert!(rolls_a.iter().all(|r| (1..=6).contains(r)));
    assert_eq!(a.rolled.len(), 50, "every die is kept for the order log");
    // ChaCha8 is specified bit for bit: these are the rolls on every OS.
    let mut c = GameRng::new(1);
    let first: Vec<u8> = (0..8).map(|_| c.roll_numbered(6, "test")).collect();
    assert_eq!(first, FIRST_ROLLS_SEED_1.to_vec());
}

/// Recorded once from ChaCha8Rng::seed_from_u64(1) with rand 0.10's `random_range(1..=6)`.
const FIRST_ROLLS_SEED_1: [u8; 8] = [4, 3, 6, 1, 2, 4, 3, 2];

/// Builds every schedule of `app` (the main ones, state transitions, OnEnter/OnExit) and returns
/// the number of schedules and systems built and each pair of systems that touch the same data
/// with no order declared between them.
fn unordered_conflicts(app: &mut App) -> (usize, usize, Vec<String>) {
    let world = app.world_mut();
    let mut schedules = world.remove_resource::<Schedules>().expect("an app has schedules");
    let (mut built, mut systems, mut conflicts) = (0, 0, Vec::new());
    for (label, schedule) in schedules.iter_mut() {
        schedule
            .initialize(world)
            .unwrap_or_else(|e| panic!("{label:?} does not build: {e:?}"));
        built += 1;
        let names: std::collections::HashMap<_, String> = schedule
            .systems()
            .expect("built")
            .map(|(key, system)| (key, system.name().to_string()))
            .collect();
        systems += names.len();
        for (a, b, _) in &schedule.graph().conflicting_systems().0 {
            conflicts.push(format!("{label:?}: {} / {}", names[a], names[b]));
        }
    }
    world.insert_resource(schedules);
    (built, systems, conflicts)
}

/// Every pair of systems that touch the same data runs in a declared order, in every schedule
/// of the game (not only `Update`), so a game replays the same way on every machine. The one
/// exception is Bevy's own: its state machinery leaves the exclusive systems it adds to
/// `StateTransition` for our three states unordered among themselves (they take the whole world,
/// so they conflict with each other by definition); the game must add none to them.
#[test]
fn the_game_schedules_have_no_ambiguous_system_order() {
    let mut app = headless_app(&fixture(), 1);
    app.update();
    let (schedules, systems, conflicts) = unordered_conflicts(&mut app);
    let mut bevy_states = App::new();
    bevy_states
        .add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .init_state::<GameState>()
        .add_sub_state::<Phase>()
        .add_sub_state::<hexfront::game::phase::CombatStep>();
    bevy_states.update();
    let (_, _, bevy_own) = unordered_conflicts(&mut bevy_states);
    let in_transitions = |list: &[String]| list.iter().filter(|c| c.starts_with("StateTransition:")).count();
    let elsewhere: Vec<&String> = conflicts
        .iter()
        .filter(|c| !c.starts_with("StateTransition:"))
        .collect();
    assert!(elsewhere.is_empty(), "systems in no declared order: {elsewhere:#?}");
    assert_eq!(
        bevy_own.len(),
        in_transitions(&bevy_own),
        "Bevy's own are all in StateTransition"
    );
    assert_eq!(
        in_transitions(&conflicts),
        bevy_own.len(),
        "the game added unordered state transitions"
    );
    println!(
        "{schedules} schedules, {systems} systems built; no ambiguity but Bevy's own {} in StateTransition",
        bevy_own.len()
    );
    assert!(
        schedules >= 8 && systems >= 30,
        "{schedules} schedules, {systems} systems"
    );
    // The check sees an ambiguity when there is one: two systems writing the turn, unordered
    // (the names read `<Enable the debug feature…>`: Bevy keeps them only with its `debug`
    // feature, which would rebuild Bevy for the tests alone).
    fn next_turn(mut t: ResMut<TurnState>) {
        t.turn += 1;
    }
    fn same_turn(mut t: ResMut<TurnState>) {
        t.turn = t.turn.max(1);
    }
    let mut broken = headless_app(&fixture(), 1);
    broken.add_systems(Update, (next_turn, same_turn));
    broken.update();
    let (_, _, found) = unordered_conflicts(&mut broken);
    // (with each other, and with the game's systems that read the turn in no order to them)
    let new_in_update = found.iter().filter(|c| c.starts_with("Update:")).count();
    assert!(new_in_update >= 1, "the check missed two unordered writers of the turn");
    assert_eq!(found.len(), conflicts.len() + new_in_update);
}

#[test]
fn a_stack_splits_by_moving_part_of_it_and_merges_onto_a_friendly_stack() {
    let mut app = corridor_in_movement();
    let ids = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let stack_at = |app: &mut App, label: &str| {
        let cell = parse_label(label).unwrap();
        let stack = app.world().resource::<MapIndex>().stack(cell).to_vec();
        let mut names: Vec<String> = stack
            .iter()
            .map(|e| app.world().get::<Unit>(*e).unwrap().id.clone())
            .collect();
        names.sort();
        names
    };
    assert_eq!(stack_at(&mut app, "0201"), ["a", "b", "c"]);
    // The stack panel's ticks: only A goes; B and C stay behind. It merges with the stack in
    // 0101 (three units: the stacking limit in the clear).
    issue(
        app.world_mut(),
        Order::Move {
            units: ids(&["a"]),
            to: parse_label("0101").unwrap(),
        },
    )
    .unwrap();
    assert_eq!(stack_at(&mut app, "0201"), ["b", "c"]);
    assert_eq!(stack_at(&mut app, "0101"), ["a", "inf", "tank"]);
    // A fourth is refused with the rule; the tanks alone leave that stack again.
    let refused = issue(
        app.world_mut(),
        Order::Move {
            units: ids(&["b"]),
            to: parse_label("0101").unwrap(),
        },
    )
    .unwrap_err();
    assert!(refused.reason.contains("stacking limit"), "{}", refused.reason);
    issue(
        app.world_mut(),
        Order::Move {
            units: ids(&["tank"]),
            to: parse_label("0201").unwrap(),
        },
    )
    .unwrap();
    assert_eq!(stack_at(&mut app, "0101"), ["a", "inf"]);
    assert_eq!(stack_at(&mut app, "0201"), ["b", "c", "tank"]);
    assert_index_consistent(&mut app);
}
