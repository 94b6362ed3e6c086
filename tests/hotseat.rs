//! Whole turns of every shipped scenario played headless through the desktop client's commands
//! (moves, attacks, retreat and advance choices, end phase), with saves in the middle that must
//! continue exactly as the unsaved game, and the victory check at the end.

mod common;

use bevy::prelude::*;
use common::board::phase;
use common::player::{PhaseReport, play_player_turn};
use hexfront::game::components::*;
use hexfront::game::hash::state_hash;
use hexfront::game::headless_app;
use hexfront::game::phase::{GameState, Phase, TurnState};
use hexfront::game::retreat::AfterCombatMode;
use hexfront::game::save::{load_game, load_game_str, saved_game, start_loaded};
use hexfront::game::settle::settle;
use hexfront::game::spawn::capture_scenario;
use hexfront::game::victory::{ObjectiveControl, Verdict};
use hexfront::scenario::{Scenario, to_ron};

const SCENARIOS: [&str; 5] = [
    "scenarios/mortain-1944.ron",
    "scenarios/sidi-bou-zid-1943.ron",
    "scenarios/smolensk-1941.ron",
    "scenarios/chorwon-hypothetical.ron",
    "scenarios/st-vith-1944.ron",
];

/// A hotseat game: choices wait for the players' commands, as in the client.
fn hotseat(scenario: &Scenario, seed: u64) -> App {
    let mut app = headless_app(scenario, seed);
    app.insert_resource(AfterCombatMode { automatic: false });
    app.update();
    app
}

fn total(reports: &[(Phase, PhaseReport)], f: impl Fn(&PhaseReport) -> usize) -> usize {
    reports.iter().map(|(_, r)| f(r)).sum()
}

/// Every unit's id, cell, steps lost and statuses, sorted: the state a save must reproduce.
fn units_state(app: &mut App) -> Vec<String> {
    let mut q = app
        .world_mut()
        .query::<(&Unit, &Position, &Steps, &Statuses, &MovePoints)>();
    let mut out: Vec<String> = q
        .iter(app.world())
        .map(|(u, p, s, st, mp)| format!("{} {} lost {} {:?} spent {}", u.id, p.0, s.0.lost, st.0, mp.spent))
        .collect();
    out.sort();
    out
}

fn check_index(app: &mut App) {
    let index = app.world().resource::<MapIndex>().clone();
    let mut q = app.world_mut().query::<(Entity, &Position)>();
    let mut seen = 0;
    for (e, p) in q.iter(app.world()) {
        assert_eq!(
            index.stack(p.0).iter().filter(|x| **x == e).count(),
            1,
            "{e} indexed once at {}",
            p.0
        );
        seen += 1;
    }
    assert_eq!(index.occupied().map(|(_, s)| s.len()).sum::<usize>(), seen);
}

#[test]
fn a_full_turn_of_every_ruleset_plays_through_the_clients_commands() {
    for path in SCENARIOS {
        let scenario = Scenario::load(path).unwrap();
        let mut app = hotseat(&scenario, 3);
        let first = app.world().resource::<TurnState>().clone();
        assert_eq!(phase(&app), Phase::from(scenario.ruleset.raw.player_turn[0]), "{path}");
        let mut reports = play_player_turn(&mut app);
        let second_side = app.world().resource::<TurnState>().active;
        assert_ne!(second_side, first.active, "{path}: the other side moves next");
        reports.extend(play_player_turn(&mut app));
        let now = app.world().resource::<TurnState>().clone();
        assert_eq!(
            (now.turn, now.active, now.phase_index),
            (2, first.active, 0),
            "{path}: turn 2 begins"
        );
        check_index(&mut app);
        let moves = total(&reports, |r| r.moves);
        let combats = total(&reports, |r| r.combats);
        let refused: Vec<&String> = reports.iter().flat_map(|(_, r)| &r.refusals).collect();
        assert!(moves >= 4, "{path}: only {moves} moves");
        assert!(combats >= 1, "{path}: no combat in a whole turn ({reports:?})");
        assert!(
            refused.is_empty(),
            "{path}: the client's orders were refused: {refused:?}"
        );
        let log = app.world().resource::<GameLog>().0.join("\n");
        assert!(
            log.contains("phase ends. Turn 2"),
            "{path}: the log follows the turn:\n{log}"
        );
        eprintln!(
            "{path}: {moves} moves, {combats} combats, {} retreats and {} advances chosen",
            total(&reports, |r| r.retreats_chosen),
            total(&reports, |r| r.advances_chosen)
        );
    }
}

#[test]
fn a_game_saved_mid_turn_continues_exactly_as_the_unsaved_one() {
    for path in SCENARIOS {
        let scenario = Scenario::load(path).unwrap();
        let mut game = hotseat(&scenario, 11);
        // Play the first side's turn, save at the start of the second side's.
        play_player_turn(&mut game);
        let text = hexfront::game::save::to_text(&saved_game(game.world())).unwrap();
        let saved = load_game_str("save.ron", &text, 999).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut loaded = hotseat(&scenario, 999);
        start_loaded(loaded.world_mut(), &saved, None).unwrap();
        assert_eq!(state_hash(loaded.world_mut()), state_hash(game.world_mut()), "{path}");
        assert_eq!(
            units_state(&mut loaded),
            units_state(&mut game),
            "{path}: loads as saved"
        );
        // Both play on with the same orders: the dice, the losses and the log must agree.
        let a = play_player_turn(&mut game);
        let b = play_player_turn(&mut loaded);
        assert_eq!(a, b, "{path}: the same orders have the same effects");
        assert_eq!(
            units_state(&mut loaded),
            units_state(&mut game),
            "{path}: same state after a turn"
        );
        assert_eq!(
            game.world().resource::<GameLog>().0,
            loaded.world().resource::<GameLog>().0,
            "{path}: the same log"
        );
        assert_eq!(
            game.world().resource::<GameRng>().position(),
            loaded.world().resource::<GameRng>().position()
        );
    }
}

#[test]
fn a_bad_save_is_refused_with_its_field_and_unit() {
    let scenario = Scenario::load(SCENARIOS[0]).unwrap();
    let mut game = hotseat(&scenario, 1);
    play_player_turn(&mut game);
    let text = to_ron(&capture_scenario(game.world_mut())).unwrap();
    let broken = text.replacen("attacked: [\"", "attacked: [\"nobody\", \"", 1);
    let broken = if broken == text {
        text.replacen("seed: ", "attacked: [\"nobody\"], seed: ", 1)
    } else {
        broken
    };
    let e = Scenario::from_ron_str("broken-save.ron", &broken).unwrap_err();
    assert!(e.field.starts_with("progress.attacked"), "{e}");
    assert!(
        e.to_string().contains("broken-save.ron:") && e.message.contains("`nobody`"),
        "{e}"
    );
}

#[test]
fn objectives_change_hands_and_the_last_turn_ends_with_a_verdict() {
    // Mortain: the Germans need 6 objective points; the Americans hold all at the start.
    let scenario = Scenario::load(SCENARIOS[0]).unwrap();
    let mut app = hotseat(&scenario, 5);
    let control = app.world().resource::<ObjectiveControl>().0.clone();
    let us = Side(scenario.side_index("us").unwrap());
    let de = Side(scenario.side_index("german").unwrap());
    assert!(control.iter().all(|c| *c == Some(us)));
    let standing_now = |app: &App| {
        let w = app.world();
        let turn = w.resource::<TurnState>();
        hexfront::game::victory::standing(
            w.resource::<hexfront::game::components::GameMap>(),
            &w.resource::<ObjectiveControl>().0,
            w.resource::<hexfront::game::components::Sides>(),
            turn.turn,
            turn.last_turn,
        )
    };
    // The score panel's standing at the start: the German condition fails, the Americans lead.
    let st = standing_now(&app);
    assert_eq!(st.points[de.0], 0);
    assert_eq!(st.leader(), Some(us));
    assert_eq!(st.turns_left, scenario.raw.turns - 1);
    // Graded: German decisive, substantive, marginal (6 points), American decisive, substantive.
    assert_eq!(st.conditions.len(), 5);
    let (side, met, sudden) = &st.conditions[2];
    assert_eq!((*side, *sudden), (de, false));
    assert_eq!(
        met.as_ref().unwrap_err(),
        "German holds 0 objective points of the 6 needed"
    );
    assert_eq!(
        hexfront::game::victory::condition_words(&scenario.win[2], &scenario.objectives),
        "at least 6 objective points when the game ends"
    );
    // Put a German unit alone on the Avranches road (6 points) as a move would.
    let road = hexfront::rules::grid::parse_label("0708").unwrap();
    let german = {
        let mut q = app.world_mut().query::<(Entity, &Side, &Position)>();
        q.iter(app.world())
            .find(|(_, s, _)| **s == de)
            .map(|(e, _, p)| (e, p.0))
            .unwrap()
    };
    app.world_mut().get_mut::<Position>(german.0).unwrap().0 = road;
    {
        let mut index = app.world_mut().resource_mut::<MapIndex>();
        index.remove(german.0, german.1);
        index.place(german.0, road);
    }
    settle(app.world_mut());
    let control = app.world().resource::<ObjectiveControl>().0.clone();
    assert_eq!(control[3], Some(de), "the road changes hands");
    let st = standing_now(&app);
    assert_eq!(st.points[de.0], 6);
    assert_eq!(st.leader(), Some(de), "the Germans would win if it ended now");
    assert!(
        st.conditions[2]
            .1
            .as_ref()
            .is_ok_and(|why| why.contains("6 objective points"))
    );
    assert_eq!(st.level(), Some(hexfront::scenario::file::VictoryLevel::Marginal));
    assert!(
        app.world()
            .resource::<GameLog>()
            .0
            .iter()
            .any(|l| l.contains("takes Avranches road"))
    );
    // Jump to the last phase of the last turn and end it.
    {
        let phases = scenario.ruleset.raw.player_turn.len();
        let mut turn = app.world_mut().resource_mut::<TurnState>();
        turn.turn = turn.last_turn;
        turn.active = Side(1 - turn.first_side.0);
        turn.phase_index = phases - 1;
    }
    settle(app.world_mut());
    common::board::give(&mut app, hexfront::game::order::Order::EndPhase).unwrap();
    assert_eq!(*app.world().resource::<State<GameState>>().get(), GameState::Over);
    let verdict = app.world().resource::<Verdict>().clone();
    assert_eq!(verdict.winner, Some(de), "{verdict:?}");
    assert!(verdict.reason.contains("6 objective points"), "{}", verdict.reason);
    assert!(verdict.reason.contains("a marginal victory"), "{}", verdict.reason);
    assert_eq!(verdict.level, Some(hexfront::scenario::file::VictoryLevel::Marginal));
    assert_eq!(verdict.points[de.0], 6);
}

#[test]
fn taking_st_vith_is_a_sudden_death_victory() {
    let scenario = Scenario::load(SCENARIOS[4]).unwrap();
    let mut app = hotseat(&scenario, 5);
    let de = Side(scenario.side_index("german").unwrap());
    let st_vith = hexfront::rules::grid::parse_label("1209").unwrap();
    // Empty St. Vith of Americans, then a German unit enters.
    let (ids, german) = {
        let index = app.world().resource::<MapIndex>();
        let ids: Vec<Entity> = index.stack(st_vith).to_vec();
        let mut q = app.world_mut().query::<(Entity, &Side, &Position)>();
        let german = q
            .iter(app.world())
            .find(|(_, s, _)| **s == de)
            .map(|(e, _, p)| (e, p.0))
            .unwrap();
        (ids, german)
    };
    for e in ids {
        app.world_mut().resource_mut::<MapIndex>().remove(e, st_vith);
        app.world_mut().despawn(e);
    }
    settle(app.world_mut());
    assert_eq!(
        *app.world().resource::<State<GameState>>().get(),
        GameState::Playing,
        "an empty cell keeps its holder"
    );
    app.world_mut().get_mut::<Position>(german.0).unwrap().0 = st_vith;
    {
        let mut index = app.world_mut().resource_mut::<MapIndex>();
        index.remove(german.0, german.1);
        index.place(german.0, st_vith);
    }
    settle(app.world_mut());
    assert_eq!(*app.world().resource::<State<GameState>>().get(), GameState::Over);
    let verdict = app.world().resource::<Verdict>();
    assert_eq!(verdict.winner, Some(de));
    assert!(verdict.reason.contains("sudden death"), "{}", verdict.reason);
}

#[test]
fn win_conditions_are_validated_with_their_field() {
    let text = std::fs::read_to_string(SCENARIOS[0]).unwrap();
    let bad = text.replace(
        "(side: \"german\", hold: [\"0708\", \"1012\"], level: Decisive)",
        "(side: \"german\", hold: [\"0101\"], level: Decisive)",
    );
    let e = Scenario::from_ron_str("m.ron", &bad).unwrap_err();
    assert_eq!(e.field, "win[0].hold[0]");
    assert!(e.message.contains("not one of the scenario's objectives"), "{e}");
    let bad = text.replace("otherwise: \"us\"", "otherwise: \"french\"");
    let e = Scenario::from_ron_str("m.ron", &bad).unwrap_err();
    assert_eq!(e.field, "otherwise");
}

#[test]
fn each_phase_end_autosaves_atomically_and_the_autosave_loads() {
    use hexfront::game::autosave::{Autosave, SaveStatus};
    let dir = std::env::temp_dir().join(format!("hexfront-autosave-{}", std::process::id()));
    let path = dir.join("saves").join("autosave-mortain.ron");
    let scenario = Scenario::load(SCENARIOS[0]).unwrap();
    let mut app = hotseat(&scenario, 2);
    app.insert_resource(Autosave::new(path.clone()));
    app.update();
    assert!(!path.exists(), "nothing to save before a phase has ended");
    common::player::play_phase(&mut app);
    app.update();
    assert!(path.exists(), "{:?}", app.world().resource::<SaveStatus>());
    assert!(!dir.join("saves").join("autosave-mortain.ron.tmp").exists());
    let status = app.world().resource::<SaveStatus>().clone();
    assert!(!status.failed && status.message.contains("Autosaved"), "{status:?}");
    let turn_of = |path: &std::path::Path| {
        let saved = load_game(path, 1).unwrap();
        let mut replayed = hexfront::game::save::replay_app(&saved, None).unwrap();
        replayed.world_mut().resource::<TurnState>().clone()
    };
    assert_eq!(turn_of(&path), *app.world().resource::<TurnState>());
    // A later phase overwrites it; the old file is never half-written.
    common::player::play_phase(&mut app);
    app.update();
    assert_eq!(turn_of(&path), *app.world().resource::<TurnState>());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_game_saved_while_a_retreat_waits_for_its_choice_loads_at_that_choice() {
    use common::board::{attack, give, to_phase};
    use hexfront::game::combat_phase::PendingRetreats;
    let scenario = Scenario::load("tests/fixtures/breakthrough.ron").unwrap();
    let waiting = |app: &App| {
        let p = app.world().resource::<PendingRetreats>();
        p.0.iter()
            .map(|r| app.world().get::<Unit>(r.unit).unwrap().id.clone())
            .collect::<Vec<_>>()
    };
    // A seed whose die (seeded, not forced: a save replays the seed) makes Red retreat 2 hexes.
    let mut game = (1..100)
        .map(|seed| {
            let mut game = hotseat(&scenario, seed);
            to_phase(&mut game, Phase::Combat);
            attack(&mut game, &["bd", "bm"], "0403", &[]).unwrap();
            game
        })
        .find(|game| waiting(game) == ["rb"] && game.world().resource::<PendingRetreats>().0[0].demand.cells == 2)
        .expect("a seed with a 2-hex retreat");
    let text = hexfront::game::save::to_text(&saved_game(game.world())).unwrap();
    let saved = load_game_str("mid-combat.ron", &text, 1).unwrap();
    let mut loaded = hotseat(&scenario, 1);
    start_loaded(loaded.world_mut(), &saved, None).unwrap();
    assert_eq!(waiting(&loaded), ["rb"]);
    assert_eq!(state_hash(loaded.world_mut()), state_hash(game.world_mut()));
    let choice = hexfront::game::order::Order::Retreat {
        unit: "rb".into(),
        path: vec![common::board::cell("0504"), common::board::cell("0604")],
    };
    give(&mut game, choice.clone()).unwrap();
    give(&mut loaded, choice).unwrap();
    assert_eq!(state_hash(loaded.world_mut()), state_hash(game.world_mut()));
}

#[test]
fn the_end_screen_counts_an_eliminated_units_steps_from_its_starting_track() {
    // The summary needs the full track of units no longer on the map: it must be the one spawned.
    for path in SCENARIOS {
        let scenario = Scenario::load(path).unwrap();
        for (raw, setup) in scenario.raw.units.iter().zip(&scenario.units) {
            let track = hexfront::scenario::tracks::starting_track(raw).expect("a shipped unit has a track");
            assert_eq!(track.total(), setup.steps.total(), "{path}: {}", raw.id);
        }
    }
}
