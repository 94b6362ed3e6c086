//! Live reload's game side (`game::reload::carry_over`): a game in progress carried over to its
//! scenario as changed on disk keeps its units where its orders took them, plays by the changed
//! rules, and an order the changed scenario refuses is named.

mod common;

use common::board::*;
use hexfront::game::order::Order;
use hexfront::game::phase::Phase;
use hexfront::game::reload::carry_over;
use hexfront::game::save::replay_app;
use hexfront::scenario::Scenario;

const MORTAIN: &str = include_str!("../scenarios/mortain-1944.ron");

fn scenario(text: &str) -> Scenario {
    Scenario::from_ron_str("scenarios/mortain-1944.ron", text).unwrap()
}

/// Mortain with Panzer Rgt 3 moved to 1603: the game's log.
fn game_with_a_move() -> Vec<hexfront::game::log::LogEntry> {
    let mut app = start(&scenario(MORTAIN));
    to_phase(&mut app, Phase::Movement);
    give(
        &mut app,
        Order::Move {
            units: ids(&["de-2pz-3"]),
            to: cell("1603"),
        },
    )
    .unwrap();
    app.world().resource::<hexfront::game::log::OrderLog>().entries.clone()
}

#[test]
fn a_changed_scenario_takes_the_game_with_its_units_where_the_orders_took_them() {
    let log = game_with_a_move();
    // The designer gives the Americans' 743rd Tank Bn more movement.
    let changed = MORTAIN.replace(
        "cell: \"1012\", steps: [(attack: 3, defense: 3), (attack: 1, defense: 1)], movement: 8,",
        "cell: \"1012\", steps: [(attack: 3, defense: 3), (attack: 1, defense: 1)], movement: 12,",
    );
    assert_ne!(changed, MORTAIN);
    let game = carry_over(scenario(&changed), 1, &log, false).unwrap();
    assert_eq!(game.log.len(), log.len());
    let mut app = replay_app(&game, None).unwrap();
    assert_eq!(at(&mut app, "de-2pz-3").as_deref(), Some("1603"));
    let tank = id(&mut app, "us-743tk");
    let allowance = app
        .world()
        .get::<hexfront::game::components::MovePoints>(tank)
        .unwrap()
        .allowance;
    assert_eq!(allowance, hexfront::rules::terrain::Mp::whole(12));
}

#[test]
fn an_order_the_changed_scenario_refuses_is_named() {
    let log = game_with_a_move();
    // The regiment that moved is gone from the new file.
    let line = MORTAIN.lines().find(|l| l.contains("(id: \"de-2pz-3\"")).unwrap();
    let changed = MORTAIN.replace(&format!("{line}\n"), "");
    let why = carry_over(scenario(&changed), 1, &log, false).unwrap_err();
    assert!(
        why.starts_with(&format!("order {} of {}", log.len(), log.len())),
        "{why}"
    );
    assert!(why.contains("refused under the changed rules"), "{why}");
    assert!(why.contains("de-2pz-3"), "{why}");
}
