//! A game keeps the edition of the rules it began with. War Against Russia's dispersal ends at
//! the end of the owner's player turn (edition 2): a German unit dispersed in the Soviet turn may
//! not move in its own next turn and is whole again in the next Soviet turn; a game of edition 1
//! keeps the unit dispersed, as it was played, and a save records its edition. Killing Ground
//! 8.96's answer (edition 3) is not offered in a game saved before it, which replays exactly.

use bevy::prelude::*;
use hexfront::game::components::{Sides, Statuses, Unit};
use hexfront::game::edition::{CURRENT_EDITION, RulesEdition};
use hexfront::game::execute::execute;
use hexfront::game::headless_app;
use hexfront::game::order::{IssuedOrder, Order};
use hexfront::game::phase::TurnState;
use hexfront::game::save::{load_game_str, saved_game, to_text};
use hexfront::rules::units::UnitStatus;
use hexfront::scenario::Scenario;

const UNIT: &str = "de-xxiv";

fn dispersed(world: &mut World, id: &str) -> bool {
    let mut q = world.query::<(&Unit, &Statuses)>();
    q.iter(world)
        .find(|(u, _)| u.id == id)
        .is_some_and(|(_, s)| s.0.contains(&UnitStatus::Dispersed))
}

fn disperse(world: &mut World, id: &str) {
    let mut q = world.query::<(&Unit, &mut Statuses)>();
    for (u, mut s) in q.iter_mut(world) {
        if u.id == id {
            s.0.insert(UnitStatus::Dispersed);
        }
    }
}

/// Ends phases until the side to play is `side` (by index), at most `limit` of them.
fn end_phases_until(world: &mut World, side: usize, limit: usize) -> usize {
    let mut ended = 0;
    while world.resource::<TurnState>().active.0 != side && ended < limit {
        let active = world.resource::<TurnState>().active.0;
        let id = world.resource::<Sides>().0[active].id.clone();
        execute(world, IssuedOrder::new(id, Order::EndPhase)).expect("ending the phase is allowed");
        ended += 1;
    }
    ended
}

/// The Smolensk game at the start of the German turn 1 with XXIV Panzer Corps dispersed (as if in
/// a Soviet turn before), under `edition`.
fn game(edition: u32) -> App {
    let scenario = Scenario::load("scenarios/smolensk-1941.ron").unwrap();
    let mut app = headless_app(&scenario, 7);
    hexfront::game::start::set_edition(app.world_mut(), edition);
    disperse(app.world_mut(), UNIT);
    app
}

#[test]
fn a_dispersed_unit_sits_out_its_own_turn_and_recovers_at_its_end() {
    let mut app = game(CURRENT_EDITION);
    let world = app.world_mut();
    let german = world.resource::<TurnState>().active.0;
    assert_eq!(
        world.resource::<Sides>().0[german].id,
        "german",
        "the Germans move first"
    );
    let refused = execute(
        world,
        IssuedOrder::new(
            "german",
            Order::Move {
                units: vec![UNIT.into()],
                to: hexfront::rules::grid::Cell::new(10, 17),
            },
        ),
    )
    .expect_err("a dispersed unit may not move");
    assert!(refused.to_string().contains("dispersed"), "{refused}");
    assert!(dispersed(world, UNIT), "still dispersed through its own turn");
    let soviet = 1 - german;
    let ended = end_phases_until(world, soviet, 10);
    assert!(ended >= 1);
    assert!(!dispersed(world, UNIT), "whole again once its owner's turn ended");
}

#[test]
fn a_game_of_the_first_edition_keeps_its_units_dispersed_and_saves_say_the_edition() {
    let mut app = game(1);
    let world = app.world_mut();
    end_phases_until(world, 1, 10);
    assert!(dispersed(world, UNIT), "edition 1: dispersal never ended");
    // A save of an edition-1 game (no status set by hand: the log must replay).
    let scenario = Scenario::load("scenarios/smolensk-1941.ron").unwrap();
    let mut plain = headless_app(&scenario, 7);
    let world = plain.world_mut();
    hexfront::game::start::set_edition(world, 1);
    end_phases_until(world, 1, 10);
    let text = to_text(&saved_game(world)).unwrap();
    assert!(text.contains("rules_edition: 1"), "the save names its edition");
    let loaded = load_game_str("first-edition.ron", &text, 1).unwrap();
    assert_eq!(loaded.edition, 1);
    let mut again = hexfront::game::save::replay_app(&loaded, None).unwrap();
    assert_eq!(*again.world_mut().resource::<RulesEdition>(), RulesEdition(1));
    // A save without the field was written before editions.
    let older = text.replace("rules_edition: 1,", "");
    assert!(!older.contains("rules_edition"));
    assert_eq!(load_game_str("older.ron", &older, 1).unwrap().edition, 1);
    // A new game plays the current edition.
    let fresh = headless_app(&scenario, 1);
    assert_eq!(*fresh.world().resource::<RulesEdition>(), RulesEdition(CURRENT_EDITION));
}

/// A Mortain game saved before editions (the computer on both sides, written by the build before
/// this change): its log replays exactly under edition 1, and would not if 8.96's answer were
/// offered (combats with combined arms against mixed attackers would wait for an answer).
#[test]
fn a_killing_ground_game_saved_before_8_96_was_asked_replays_exactly() {
    let path = "tests/fixtures/mortain-game-edition1.ron";
    let text = std::fs::read_to_string(path).unwrap();
    assert!(!text.contains("rules_edition"), "written before editions");
    let game = load_game_str(path, &text, 2).expect("it replays exactly");
    assert_eq!(game.edition, 1);
    assert!(game.log.len() > 100, "{} entries", game.log.len());
    // The same log under edition 3 asks the 8.96 question somewhere the old game did not.
    let third = text.replacen("    seed: 2,\n", "    seed: 2,\n    rules_edition: 3,\n", 1);
    assert!(third.contains("rules_edition: 3"));
    let refused = load_game_str(path, &third, 2).expect_err("edition 3 offers 8.96's answer");
    assert!(refused.to_string().contains("does not replay"), "{refused}");
}
