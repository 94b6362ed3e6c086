//! The computer player and the balance lab, headless: whole games of every shipped scenario with
//! no refused order, the choices a sensible player makes on small boards (an undefended objective
//! next to it, no hopeless attack when a good one is there, a legal retreat), and lab reports
//! that are the same for the same seed and merge exactly from slices.

mod common;

use bevy::prelude::*;
use common::SHIPPED;
use common::board::{cell, fixture_with, id, order_retreat, start, to_phase, unit};
use hexfront::ai::{ComputerPlayer, Profile, side_to_act};
use hexfront::game::combat_phase::PendingRetreats;
use hexfront::game::components::Position;
use hexfront::game::execute::issue;
use hexfront::game::log::OrderLog;
use hexfront::game::order::Order;
use hexfront::game::phase::Phase;
use hexfront::lab::tally::Tally;
use hexfront::lab::{Batch, Seat, play_game, run};
use hexfront::scenario::Scenario;

const HEXES: &str = "Hex(top: Flat)";

fn seat(text: &str) -> Seat {
    Seat::parse(text).unwrap()
}

#[test]
fn computer_players_finish_every_shipped_scenario_moving_and_attacking_with_no_refused_order() {
    for path in SHIPPED {
        let scenario = Scenario::load(path).unwrap();
        let pairings = [
            (1, [seat("standard"), seat("novice")]),
            (2, [seat("novice"), seat("standard")]),
            (3, [seat("expert:rollouts=1"), seat("random")]),
        ];
        // The grand scenario (251 units, 12 turns) plays one pairing: the others cost minutes in
        // a debug build and test nothing the small scenarios do not.
        let games = if path.contains("barbarossa") { 1 } else { pairings.len() };
        for (seed, seats) in pairings.into_iter().take(games) {
            let (record, app) = play_game(&scenario, seed, 0, &seats);
            assert!(record.finished, "{path} seed {seed}: not finished ({})", record.reason);
            assert_eq!(
                record.computer_refused, 0,
                "{path} seed {seed}: the computer had orders refused"
            );
            let log = &app.world().resource::<OrderLog>().entries;
            let computer = |side: &str| seats[if side == scenario.sides[0].id { 0 } else { 1 }] != Seat::Random;
            let moves = log
                .iter()
                .filter(|e| computer(&e.side) && matches!(e.order, Order::Move { .. }))
                .count();
            let attacks = log
                .iter()
                .filter(|e| computer(&e.side) && matches!(e.order, Order::Attack(_)))
                .count();
            assert!(
                moves > 0 && attacks > 0,
                "{path} seed {seed}: {moves} moves, {attacks} attacks"
            );
        }
    }
}

/// Blue (the first side, attacker) must hold `0402`; a blue corps stands next to it, a red one
/// far off.
fn objective_board(ruleset: &str, blue: &[String], red: &[String]) -> App {
    let units: Vec<String> = blue.iter().chain(red).cloned().collect();
    start(&fixture_with(
        ruleset,
        HEXES,
        "'.': \"clear\"",
        &["........", "........", "........", "........", "........"],
        "",
        &units,
        r#"objectives: [(cell: "0402", name: "Town", points: 5, held_by: "red")],
        win: [(side: "blue", hold: ["0402"])], otherwise: "red","#,
    ))
}

fn corps(id: &str, side: &str, at: &str, strength: u32) -> String {
    unit(id, side, "Infantry", "Corps", at, &format!("strength: {strength}"))
}

fn armor(id: &str, side: &str, at: &str, strength: u32) -> String {
    unit(id, side, "Armor", "Corps", at, &format!("strength: {strength}"))
}

#[test]
fn the_computer_takes_an_undefended_objective_next_to_it() {
    let mut app = objective_board(
        "war-against-russia",
        &[corps("b", "blue", "0302", 4)],
        &[corps("r", "red", "0805", 4)],
    );
    let world = app.world_mut();
    let mut player = ComputerPlayer::new(0, Profile::standard(), 1);
    let order = player.next_order(world).expect("blue is to play");
    assert_eq!(
        order,
        Order::Move {
            units: vec!["b".into()],
            to: cell("0402")
        }
    );
    issue(world, order).unwrap();
    let b = id(&mut app, "b");
    assert_eq!(app.world().get::<Position>(b).unwrap().0, cell("0402"));
}

#[test]
fn the_computer_attacks_the_weak_neighbour_not_the_hopeless_one_and_spares_a_lone_hopeless_attack() {
    // Blue's 2-strength corps between a 20-strength red corps (1:10) and a 1-strength one (2:1).
    let mut app = objective_board(
        "war-against-russia",
        &[corps("b", "blue", "0302", 2)],
        &[corps("strong", "red", "0202", 20), corps("weak", "red", "0402", 1)],
    );
    to_phase(&mut app, Phase::Combat);
    let mut player = ComputerPlayer::new(0, Profile::expert(), 1);
    match player.next_order(app.world_mut()) {
        Some(Order::Attack(a)) => assert_eq!(a.target, cell("0402"), "{a:?}"),
        other => panic!("expected an attack on the weak corps, got {other:?}"),
    }
    // With only the hopeless attack on offer, it ends the phase instead.
    let mut app = objective_board(
        "war-against-russia",
        &[corps("b", "blue", "0302", 2)],
        &[corps("strong", "red", "0202", 20)],
    );
    to_phase(&mut app, Phase::Combat);
    let mut player = ComputerPlayer::new(0, Profile::expert(), 1);
    assert_eq!(player.next_order(app.world_mut()), Some(Order::EndPhase));
}

#[test]
fn the_computer_retreats_along_a_legal_path_as_owner_and_as_the_opponent() {
    for (owner_chooses, chooser_side) in [(true, 0), (false, 1)] {
        let mut app = objective_board(
            "war-against-russia",
            &[corps("b", "blue", "0303", 4), armor("b2", "blue", "0203", 4)],
            &[corps("r", "red", "0403", 4)],
        );
        let chooser = if owner_chooses {
            hexfront::combat::Chooser::Owner
        } else {
            hexfront::combat::Chooser::Opponent
        };
        app.world_mut()
            .insert_resource(hexfront::game::retreat::AfterCombatMode { automatic: false });
        order_retreat(&mut app, "b", 2, chooser, &["r"]);
        let world = app.world_mut();
        assert_eq!(side_to_act(world), Some(chooser_side));
        let mut player = ComputerPlayer::new(chooser_side, Profile::standard(), 1);
        let order = player.next_order(world).expect("a retreat to choose");
        let Order::Retreat { unit, path } = &order else {
            panic!("expected a retreat, got {order:?}")
        };
        assert_eq!((unit.as_str(), path.len()), ("b", 2));
        issue(world, order.clone()).unwrap_or_else(|e| panic!("{e}"));
        assert!(world.resource::<PendingRetreats>().0.is_empty());
    }
}

fn batch(games: u64, shard: (u64, u64), jobs: usize) -> Batch {
    Batch {
        games,
        seed: 11,
        seats: vec![seat("standard"), seat("novice")],
        mirror: true,
        shard,
        jobs,
        keep_logs: None,
    }
}

fn tally_of(scenario: &Scenario, b: &Batch) -> Tally {
    hexfront::lab::tally_of(scenario, b, &run(scenario, b, &|_, _| {}).unwrap())
}

#[test]
fn lab_reports_are_the_same_for_the_same_seed_and_two_shards_merge_into_the_whole_run() {
    let scenario = Scenario::load("scenarios/st-vith-1944.ron").unwrap();
    let whole = tally_of(&scenario, &batch(4, (0, 1), 2));
    let again = tally_of(&scenario, &batch(4, (0, 1), 1));
    assert_eq!(whole.report(), again.report());
    assert_eq!(whole, again);
    assert_eq!(whole.games, 8, "four seeds, each played twice");
    let mut merged = tally_of(&scenario, &batch(4, (1, 2), 2));
    let other = tally_of(&scenario, &batch(4, (0, 2), 1));
    assert!(merged.report().contains("partial: slice(s) 1/2"));
    merged.merge(&other).unwrap();
    assert_eq!(merged, whole);
    assert_eq!(merged.report(), whole.report());
    // A slice merged twice, or a slice of another batch, is refused.
    assert!(merged.merge(&other).unwrap_err().contains("whole batch"));
    let mut a = tally_of(&scenario, &batch(2, (0, 2), 1));
    let mut different = batch(2, (1, 2), 1);
    different.seed = 12;
    assert!(
        a.merge(&tally_of(&scenario, &different))
            .unwrap_err()
            .contains("not slices of one batch")
    );
    // Slices of another count overlap these (1/4 holds games of 1/2): refused.
    let quarter = tally_of(&scenario, &batch(2, (1, 4), 1));
    assert!(a.merge(&quarter).unwrap_err().contains("one --shard count"));
}

#[test]
fn the_computer_never_reads_the_games_dice() {
    // The same position with a different dice generator ahead: the computer gives the same orders.
    let scenario = Scenario::load("scenarios/mortain-1944.ron").unwrap();
    let orders = |dice_seed: u64| {
        let mut app = hexfront::game::headless_app(&scenario, 5);
        let world = app.world_mut();
        world.insert_resource(hexfront::game::components::GameRng::new(dice_seed));
        let mut player = ComputerPlayer::new(0, Profile::standard(), 9);
        (0..6)
            .filter_map(|_| {
                let o = player.next_order(world)?;
                issue(world, o.clone()).ok()?;
                Some(o)
            })
            .collect::<Vec<_>>()
    };
    let first = orders(1);
    assert!(first.len() >= 3, "{first:?}");
    assert_eq!(first, orders(2));
}

/// Ends phases until `turn`, side `side` (by index), phase `wanted`.
fn to_turn(app: &mut App, turn: u32, side: usize, wanted: Phase) {
    for _ in 0..40 {
        let t = app.world().resource::<hexfront::game::phase::TurnState>().clone();
        if t.turn == turn && t.active.0 == side && common::board::phase(app) == wanted {
            return;
        }
        issue(app.world_mut(), Order::EndPhase).unwrap();
    }
    panic!("never reached turn {turn}, side {side}, {wanted:?}");
}

/// Red's 8-strength corps next to blue's 4 at 2:1, away from the objective (0402, red's); the
/// game's three turns end with red's.
fn two_to_one_board(objective: &str, red_at: &str, blue_at: &str, points: u32) -> App {
    start(&fixture_with(
        "war-against-russia",
        HEXES,
        "'.': \"clear\"",
        &["........", "........", "........", "........", "........", "........"],
        "",
        &[corps("b", "blue", blue_at, 4), corps("r", "red", red_at, 8)],
        &format!(
            r#"objectives: [(cell: "{objective}", name: "Town", points: {points}, held_by: "red")],
        win: [(side: "blue", hold: ["{objective}"])], otherwise: "red","#
        ),
    ))
}

#[test]
fn the_computer_makes_no_last_turn_attack_that_cannot_change_the_result() {
    // Turn 2: the 2:1 attack is worth making (the enemy's steps matter for what comes).
    let mut app = two_to_one_board("0402", "0706", "0705", 5);
    to_turn(&mut app, 2, 1, Phase::Combat);
    let mut player = ComputerPlayer::new(1, Profile::standard(), 1);
    match player.next_order(app.world_mut()) {
        Some(Order::Attack(a)) => assert_eq!(a.target, cell("0705")),
        other => panic!("turn 2: expected the 2:1 attack, got {other:?}"),
    }
    // Turn 3, red's the game's last player turn: taking 0705 decides nothing (only the objective
    // does) and an exchange would cost steps for nothing.
    let mut app = two_to_one_board("0402", "0706", "0705", 5);
    to_turn(&mut app, 3, 1, Phase::Combat);
    let mut player = ComputerPlayer::new(1, Profile::standard(), 1);
    assert_eq!(player.next_order(app.world_mut()), Some(Order::EndPhase));
}

#[test]
fn a_garrison_weighs_its_objective_before_it_attacks_out_of_it() {
    // Red's corps alone in a valuable objective: an exchange or a loss would empty it.
    let mut app = two_to_one_board("0402", "0402", "0502", 30);
    to_turn(&mut app, 2, 1, Phase::Combat);
    let mut player = ComputerPlayer::new(1, Profile::standard(), 1);
    let garrison = player.next_order(app.world_mut());
    // The same corps and enemy with the objective elsewhere (and held): it attacks.
    let mut app = two_to_one_board("0806", "0402", "0502", 30);
    to_turn(&mut app, 2, 1, Phase::Combat);
    let mut player = ComputerPlayer::new(1, Profile::standard(), 1);
    let free = player.next_order(app.world_mut());
    assert!(matches!(free, Some(Order::Attack(_))), "free to attack: {free:?}");
    assert_eq!(garrison, Some(Order::EndPhase), "the garrison stays: {garrison:?}");
}

#[test]
fn a_stack_with_nothing_to_do_does_not_wander() {
    // Red's corps far from blue and beside its own garrisoned objective: over three turns of
    // movement it settles once, at most, and never goes back and forth.
    let mut app = start(&fixture_with(
        "war-against-russia",
        HEXES,
        "'.': \"clear\", 'f': \"forest\"",
        &["..........", "..........", "......ff..", "......ff..", ".........."],
        "",
        &[
            corps("b", "blue", "0101", 2),
            corps("g", "red", "0903", 6),
            corps("w", "red", "0703", 6),
        ],
        r#"objectives: [(cell: "0903", name: "Town", points: 5, held_by: "red")],
        win: [(side: "blue", hold: ["0903"])], otherwise: "red","#,
    ));
    let mut cells = vec![common::board::at(&mut app, "w").unwrap()];
    let mut red = ComputerPlayer::new(1, Profile::standard(), 7);
    for turn in 1..=3 {
        to_turn(&mut app, turn, 1, Phase::Movement);
        while let Some(order) = red.next_order(app.world_mut()) {
            if order == Order::EndPhase {
                break;
            }
            issue(app.world_mut(), order).unwrap();
        }
        let now = common::board::at(&mut app, "w").unwrap();
        if cells.last() != Some(&now) {
            cells.push(now);
        }
    }
    assert!(cells.len() <= 2, "w wandered: {cells:?}");
}

#[test]
fn the_passive_baseline_answers_as_defender_and_its_games_finish() {
    // It never moves or attacks, but answers what the rules ask of it (a result to answer, a
    // retreat, No Retreat! orders): else the game would wait for it for ever.
    for path in ["scenarios/mortain-1944.ron", "scenarios/smolensk-1941.ron"] {
        let scenario = Scenario::load(path).unwrap();
        for seed in 1..=2 {
            let (record, _) = play_game(&scenario, seed, 0, &[seat("standard"), seat("passive")]);
            assert!(record.finished, "{path} seed {seed}: not finished ({})", record.reason);
            assert_eq!(record.computer_refused, 0, "{path} seed {seed}");
        }
    }
}
