//! Reinforcements and withdrawals: units that enter on a later turn at their cell (or the nearest
//! cell free of enemies), units that leave, both checked when the scenario loads, and both brought
//! back exactly by a saved game's replay.

mod common;

use bevy::prelude::*;
use hexfront::game::components::*;
use hexfront::game::hash::state_hash;
use hexfront::game::headless_app;
use hexfront::game::order::Order;
use hexfront::game::phase::TurnState;
use hexfront::game::save::{load_game_str, saved_game, start_loaded};
use hexfront::rules::grid::{Cell, parse_label};
use hexfront::scenario::Scenario;

const MORTAIN: &str = "scenarios/mortain-1944.ron";

/// Mortain with the 134th Infantry arriving on turn 2 at its cell, CCB 3rd Armored arriving on
/// turn 2 in a cell the Germans hold (1704), and Panzergrenadier Rgt 60 withdrawn on turn 3.
fn scenario_text() -> String {
    // The shipped file's own reinforcements are taken out first: this test sets its own.
    let text = std::fs::read_to_string(MORTAIN)
        .unwrap()
        .replace(" arrives: 2,", "")
        .replace(" arrives: 3,", "")
        .replace(", arrives: 2)", ")")
        .replace(", arrives: 3)", ")");
    let edit = |text: String, id: &str, from: &str, to: &str| {
        let line = text
            .lines()
            .find(|l| l.contains(&format!("id: \"{id}\"")))
            .unwrap()
            .to_string();
        assert!(line.contains(from), "{line}");
        text.replace(&line, &line.replacen(from, to, 1))
    };
    let text = edit(text, "us-35-134", "cell: \"0416\",", "cell: \"0416\", arrives: 2,");
    let text = edit(text, "us-ccb3", "cell: \"0507\",", "cell: \"1704\", arrives: 2,");
    edit(text, "de-116-60", "cell: \"2107\",", "cell: \"2107\", withdraws: 3,")
}

fn cell_of(app: &App, id: &str) -> Option<Cell> {
    let e = app.world().resource::<UnitIds>().0.get(id).copied()?;
    app.world().get::<Position>(e).map(|p| p.0)
}

/// Ends phases until it is `side`'s player turn on game turn `turn`.
fn play_to(app: &mut App, turn: u32, side: &str) {
    let want = app
        .world()
        .resource::<Sides>()
        .0
        .iter()
        .position(|s| s.id == side)
        .unwrap();
    for _ in 0..200 {
        let t = app.world().resource::<TurnState>();
        if t.turn == turn && t.active.0 == want && t.phase_index == 0 {
            return;
        }
        common::board::give(app, Order::EndPhase).unwrap();
    }
    panic!("never reached turn {turn} of {side}");
}

#[test]
fn reinforcements_enter_on_their_turn_and_withdrawals_leave() {
    let scenario = Scenario::from_ron_str("mortain-reinforced.ron", &scenario_text()).unwrap();
    let mut app = headless_app(&scenario, 3);
    app.update();
    let units_at_start = app.world().resource::<UnitIds>().0.len();
    assert_eq!(cell_of(&app, "us-35-134"), None, "not on the map before its turn");
    assert_eq!(cell_of(&app, "us-ccb3"), None);
    assert_eq!(units_at_start, scenario.units.len() - 2);

    // Not yet at the German turn 2: the Americans' reinforcements come in their own player turn.
    play_to(&mut app, 2, "german");
    assert_eq!(cell_of(&app, "us-35-134"), None);
    play_to(&mut app, 2, "us");
    assert_eq!(cell_of(&app, "us-35-134"), Some(parse_label("0416").unwrap()));
    // 1704 is held by the 2nd Panzer Division: the nearest enterable cell free of Germans.
    let ccb = cell_of(&app, "us-ccb3").unwrap();
    let grid = scenario.board.grid;
    let held = parse_label("1704").unwrap();
    assert_ne!(ccb, held);
    assert_eq!(grid.distance(held, ccb), 1, "a neighbour of 1704 is free");
    let log = &app.world().resource::<GameLog>().0;
    assert!(
        log.iter()
            .any(|l| l == "Reinforcement: 134th Infantry Rgt enters at 0416."),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|l| l.starts_with("Reinforcement: CCB, 3rd Armored Division enters at")
                && l.ends_with("(the enemy holds 1704, so the nearest free cell)."))
    );
    // The new units are indexed where they stand.
    let index = app.world().resource::<MapIndex>();
    let e = app.world().resource::<UnitIds>().0["us-ccb3"];
    assert!(index.stack(ccb).contains(&e));

    assert!(cell_of(&app, "de-116-60").is_some());
    play_to(&mut app, 3, "german");
    assert_eq!(cell_of(&app, "de-116-60"), None, "withdrawn at the start of its turn 3");
    assert!(
        app.world()
            .resource::<GameLog>()
            .0
            .iter()
            .any(|l| l == "Withdrawal: Panzergrenadier Rgt 60 leaves the map from 2107.")
    );

    // A save replays to the same state, arrivals and withdrawal included.
    let text = hexfront::game::save::to_text(&saved_game(app.world())).unwrap();
    let saved = load_game_str("reinforced-save.ron", &text, 99).unwrap();
    let mut loaded = headless_app(&scenario, 99);
    loaded.update();
    start_loaded(loaded.world_mut(), &saved, None).unwrap();
    assert_eq!(state_hash(loaded.world_mut()), state_hash(app.world_mut()));
    assert_eq!(cell_of(&loaded, "us-ccb3"), Some(ccb));
    assert_eq!(cell_of(&loaded, "de-116-60"), None);
}

#[test]
fn arrival_and_withdrawal_turns_are_checked_with_their_field() {
    let text = scenario_text();
    for (from, to, field, says) in [
        (
            "arrives: 2,",
            "arrives: 1,",
            "arrives",
            "reinforcements enter on turns 2 to 6",
        ),
        (
            "arrives: 2,",
            "arrives: 7,",
            "arrives",
            "reinforcements enter on turns 2 to 6",
        ),
        (
            "withdraws: 3,",
            "withdraws: 9,",
            "withdraws",
            "can only withdraw on turns 2 to 6",
        ),
    ] {
        let bad = text.replacen(from, to, 1);
        let e = Scenario::from_ron_str("bad.ron", &bad).unwrap_err();
        assert!(e.field.ends_with(field), "{e}");
        assert!(e.message.contains(says), "{e}");
        assert!(e.to_string().starts_with("bad.ron:"), "{e}");
    }
    // A withdrawal before its own arrival.
    let bad = text.replacen("arrives: 2,", "arrives: 4, withdraws: 3,", 1);
    let e = Scenario::from_ron_str("bad.ron", &bad).unwrap_err();
    assert!(e.message.contains("can only withdraw on turns 5 to 6"), "{e}");
}

#[test]
fn a_position_saved_between_the_sides_turns_keeps_the_reinforcement_still_to_come() {
    use hexfront::game::spawn::capture_scenario;
    use hexfront::scenario::to_ron;
    let scenario = Scenario::from_ron_str("mortain-reinforced.ron", &scenario_text()).unwrap();
    let mut app = headless_app(&scenario, 3);
    app.update();
    // Turn 2, the Germans to play: the Americans' turn-2 reinforcements have not come yet.
    play_to(&mut app, 2, "german");
    let text = to_ron(&capture_scenario(app.world_mut())).unwrap();
    let position = Scenario::from_ron_str("position.ron", &text).unwrap();
    let mut again = headless_app(&position, 3);
    again.update();
    assert_eq!(cell_of(&again, "us-35-134"), None, "still to come in the position");
    play_to(&mut again, 2, "us");
    assert_eq!(cell_of(&again, "us-35-134"), Some(parse_label("0416").unwrap()));
    // Once on the map, a captured position lists it as a unit like any other.
    let captured = capture_scenario(again.world_mut());
    let unit = captured.units.iter().find(|u| u.id == "us-35-134").unwrap();
    assert_eq!(unit.arrives, None);
    // And the one still to come (none left here) would keep its turn.
    assert!(captured.units.iter().all(|u| u.arrives.is_none()));
}

#[test]
fn a_reinforcement_never_enters_over_the_stacking_limit() {
    // Small General stacks one unit a hex: the cell named for the reinforcement is taken by a
    // friend, so it enters next to it.
    let units = [
        common::board::unit("b", "blue", "Infantry", "Brigade", "0202", "strength: 2"),
        common::board::unit("late", "blue", "Infantry", "Brigade", "0202", "strength: 2, arrives: 2"),
        common::board::unit("r", "red", "Infantry", "Brigade", "0505", "strength: 2"),
    ];
    let s = common::board::fixture(
        "small-general",
        "Hex(top: Flat)",
        "'.': \"grass\"",
        &[".....", ".....", ".....", ".....", "....."],
        "",
        &units,
    );
    let mut app = headless_app(&s, 1);
    app.update();
    play_to(&mut app, 2, "blue");
    let late = cell_of(&app, "late").expect("it arrived");
    assert_ne!(late, parse_label("0202").unwrap());
    assert_eq!(s.board.grid.distance(late, parse_label("0202").unwrap()), 1);
    let log = &app.world().resource::<GameLog>().0;
    assert!(
        log.iter()
            .any(|l| l.ends_with("(0202 is full to the stacking limit, so the nearest cell with room).")),
        "{log:?}"
    );
}
