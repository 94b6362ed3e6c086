//! User rulesets: a scenario naming a ruleset file of its own plays by it; the file is found
//! beside the scenario or in a `rulesets` folder and nowhere else; its errors name its own file
//! and line; a saved game carries it, so the game loads anywhere by the rules it was played by.

mod common;

use common::board::*;
use hexfront::game::components::MovePoints;
use hexfront::game::inspect;
use hexfront::game::save::{load_game, replay_app, save_game};
use hexfront::scenario::Scenario;
use hexfront::scenario::user_ruleset::starting_text;
use std::path::PathBuf;
use std::process::Command;

const HEXFRONT: &str = env!("CARGO_BIN_EXE_hexfront");
const MORTAIN: &str = include_str!("../scenarios/mortain-1944.ron");

/// A designer's folder: `scenarios/mortain.ron` on ruleset `ruleset`, and `rulesets/`.
fn workshop(test: &str, ruleset: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hexfront-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    std::fs::create_dir_all(dir.join("rulesets")).unwrap();
    let text = MORTAIN.replace("ruleset: \"killing-ground\"", &format!("ruleset: \"{ruleset}\""));
    std::fs::write(dir.join("scenarios/mortain.ron"), text).unwrap();
    dir
}

/// Killing Ground with roads four times as dear.
fn slow_roads() -> String {
    starting_text("killing-ground", "slow-roads").unwrap().replace(
        "road: (foot: 0.5, motorized: 0.5, mechanized: 0.5)",
        "road: (foot: 2, motorized: 2, mechanized: 2)",
    )
}

fn costs(scenario: &Scenario, unit: &str) -> std::collections::BTreeMap<String, u32> {
    let mut app = start(scenario);
    let report = inspect::reach(app.world_mut(), &ids(&[unit])).unwrap();
    report.cells.into_iter().map(|c| (c.cell, c.cost_sixths)).collect()
}

#[test]
fn a_scenario_plays_by_the_ruleset_file_it_names() {
    let dir = workshop("plays-by", "slow-roads.ron");
    std::fs::write(dir.join("rulesets/slow-roads.ron"), slow_roads()).unwrap();
    let mine = Scenario::load(dir.join("scenarios/mortain.ron")).unwrap();
    assert_eq!(mine.ruleset.raw.id, "slow-roads");
    assert!(mine.has_user_ruleset());
    let builtin = Scenario::from_ron_str("scenarios/mortain-1944.ron", MORTAIN).unwrap();
    // Panzer Rgt 3 stands on the road east of Mortain: with dear roads it gets less far.
    let (slow, fast) = (costs(&mine, "de-2pz-3"), costs(&builtin, "de-2pz-3"));
    assert!(slow.len() < fast.len(), "{} vs {}", slow.len(), fast.len());
    assert!(
        slow.iter()
            .all(|(cell, cost)| fast.get(cell).is_some_and(|f| f <= cost))
    );
    assert!(slow.iter().any(|(cell, cost)| fast[cell] < *cost));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_ruleset_file_is_named_with_its_line_and_field() {
    let dir = workshop("broken", "broken.ron");
    let text = slow_roads().replace("road: (foot: 2,", "road: (foot: \"fast\",");
    std::fs::write(dir.join("scenarios/broken.ron"), &text).unwrap();
    let e = Scenario::load(dir.join("scenarios/mortain.ron"))
        .unwrap_err()
        .to_string();
    let line = text.lines().position(|l| l.contains("\"fast\"")).unwrap() + 1;
    assert!(e.contains(&format!("broken.ron:{line}:")), "{e}");
    assert!(e.contains("road"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_ruleset_reference_that_climbs_out_is_refused_by_the_scenarios_field() {
    for reference in ["../secret.ron", "/tmp/secret.ron", "rulesets/../../secret.ron"] {
        let dir = workshop("climbs", reference);
        std::fs::write(dir.join("secret.ron"), slow_roads()).unwrap();
        let e = Scenario::load(dir.join("scenarios/mortain.ron"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("mortain.ron:"), "{e}");
        assert!(e.contains("ruleset"), "{e}");
        assert!(e.contains("is refused"), "{reference}: {e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    let dir = workshop("absent", "absent.ron");
    let e = Scenario::load(dir.join("scenarios/mortain.ron"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("there is no ruleset file `absent.ron` in "), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_game_carries_its_user_ruleset_wherever_it_goes() {
    let dir = workshop("carries", "slow-roads.ron");
    std::fs::write(dir.join("rulesets/slow-roads.ron"), slow_roads()).unwrap();
    let scenario = Scenario::load(dir.join("scenarios/mortain.ron")).unwrap();
    let mut app = start(&scenario);
    to_phase(&mut app, hexfront::game::phase::Phase::Movement);
    give(
        &mut app,
        hexfront::game::order::Order::Move {
            units: ids(&["de-2pz-3"]),
            to: cell("1603"),
        },
    )
    .unwrap();
    let elsewhere = dir.join("saves");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let save = elsewhere.join("game.ron");
    save_game(app.world(), &save).unwrap();
    // The ruleset file is gone; the save still loads, replays, and by the dear roads.
    std::fs::remove_file(dir.join("rulesets/slow-roads.ron")).unwrap();
    assert!(Scenario::load(dir.join("scenarios/mortain.ron")).is_err());
    assert!(std::fs::read_to_string(&save).unwrap().contains("ruleset: ("));
    let game = load_game(&save, 1).unwrap();
    assert_eq!(game.scenario.ruleset.raw.id, "slow-roads");
    let mut replayed = replay_app(&game, None).unwrap();
    assert_eq!(at(&mut replayed, "de-2pz-3").as_deref(), Some("1603"));
    let spent = |app: &mut bevy::app::App| {
        let e = id(app, "de-2pz-3");
        app.world().get::<MovePoints>(e).unwrap().spent
    };
    assert_eq!(spent(&mut replayed), spent(&mut app));
    // The save's hash covers its rules: the same game under other rules is not taken for it.
    let text = std::fs::read_to_string(&save).unwrap();
    let tampered = text.replacen("id: \"slow-roads\"", "id: \"other-roads\"", 1);
    assert!(tampered != text, "the save holds the ruleset's id");
    std::fs::write(&save, tampered).unwrap();
    let e = load_game(&save, 1).unwrap_err().to_string();
    assert!(e.contains("does not match its hash"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_ruleset_writes_a_builtin_under_a_new_name_and_never_overwrites() {
    let dir = workshop("new-ruleset", "my-war.ron");
    let file = dir.join("rulesets/my-war.ron");
    let run = |args: &[&std::ffi::OsStr]| Command::new(HEXFRONT).args(args).output().unwrap();
    let out = run(&["new-ruleset".as_ref(), "killing-ground".as_ref(), file.as_os_str()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("ruleset: \"my-war.ron\""));
    let out = run(&["validate".as_ref(), dir.join("scenarios/mortain.ron").as_os_str()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = run(&["validate".as_ref(), file.as_os_str()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("ruleset `my-war`"));
    let out = run(&["new-ruleset".as_ref(), "killing-ground".as_ref(), file.as_os_str()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists already"));
    let _ = std::fs::remove_dir_all(&dir);
}
