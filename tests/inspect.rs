//! `hexfront inspect`: its answers are the game's own. Every reachable cell it lists is where a
//! move order really goes for exactly the cost it says; its zones, retreats and advances match
//! the game's, with the rules' reasons; and the command line prints them as text and JSON.

mod common;

use common::board::*;
use hexfront::game::components::{MovePoints, Position};
use hexfront::game::inspect;
use hexfront::game::order::Order;
use hexfront::game::phase::Phase;
use hexfront::scenario::Scenario;
use std::process::Command;

const HEXFRONT: &str = env!("CARGO_BIN_EXE_hexfront");

fn mortain() -> Scenario {
    Scenario::from_ron_str(
        "scenarios/mortain-1944.ron",
        include_str!("../scenarios/mortain-1944.ron"),
    )
    .unwrap()
}

#[test]
fn every_cell_reach_lists_is_where_a_move_order_goes_for_the_cost_it_says() {
    let scenario = mortain();
    let mut app = start(&scenario);
    to_phase(&mut app, Phase::Movement);
    let report = inspect::reach(app.world_mut(), &ids(&["de-2pz-3"])).unwrap();
    assert_eq!(report.from, "1704");
    assert!(report.cells.len() > 10, "{report:?}");
    let mut checked = 0;
    for cell in &report.cells {
        assert_eq!(cell.path.first().map(String::as_str), Some("1704"));
        assert_eq!(cell.path.last(), Some(&cell.cell));
        let mut game = start(&scenario);
        to_phase(&mut game, Phase::Movement);
        let moved = give(
            &mut game,
            Order::Move {
                units: ids(&["de-2pz-3"]),
                to: common::board::cell(&cell.cell),
            },
        );
        match &cell.may_not_end {
            None => {
                moved.unwrap_or_else(|e| panic!("{}: {e}", cell.cell));
                let e = id(&mut game, "de-2pz-3");
                assert_eq!(game.world().get::<Position>(e).unwrap().0.to_string(), cell.cell);
                let points = game.world().get::<MovePoints>(e).unwrap();
                // Where movement must stop, the move ends there: the rest of the allowance is gone.
                let spent = if cell.must_stop {
                    points.allowance.0
                } else {
                    cell.cost_sixths
                };
                assert_eq!(points.spent.0, spent, "{}: cost", cell.cell);
                checked += 1;
            }
            Some(why) => assert_eq!(moved.unwrap_err(), *why, "{}", cell.cell),
        }
    }
    assert!(checked > 10);
    // The cells it leaves out are the ones a move order refuses.
    let listed: Vec<&str> = report.cells.iter().map(|c| c.cell.as_str()).collect();
    let far = ["0101", "2418", "1012"]
        .into_iter()
        .find(|c| !listed.contains(c))
        .unwrap();
    let mut game = start(&scenario);
    to_phase(&mut game, Phase::Movement);
    assert!(
        give(
            &mut game,
            Order::Move {
                units: ids(&["de-2pz-3"]),
                to: common::board::cell(far)
            }
        )
        .is_err()
    );
}

#[test]
fn reach_says_where_movement_must_stop_and_searches_a_movement_phase_out_of_one() {
    let scenario = mortain();
    let mut app = start(&scenario);
    // Before any movement phase: the search is a movement phase's, and says so.
    let report = inspect::reach(app.world_mut(), &ids(&["us-2-120"])).unwrap();
    assert_eq!(report.phase, "Movement");
    assert_eq!(report.budget, "4");
    let get = |label: &str| report.cells.iter().find(|c| c.cell == label).unwrap();
    assert_eq!((get("1211").cost.as_str(), get("1211").must_stop), ("½", false));
    // 1513 is next to the Germans at 1612: entering their zone of control ends the move.
    assert_eq!((get("1513").cost.as_str(), get("1513").must_stop), ("1", true));
    assert_eq!(get("1513").path, ["1312", "1412", "1513"]);
    let errors = inspect::reach(app.world_mut(), &ids(&["us-2-120", "us-120"])).unwrap_err();
    assert!(errors.contains("a stack moves together"), "{errors}");
    assert_eq!(
        inspect::reach(app.world_mut(), &ids(&["nobody"])).unwrap_err(),
        "there is no unit `nobody`"
    );
}

#[test]
fn the_zone_a_side_faces_is_the_games_with_who_projects_it() {
    let mut app = start(&mortain());
    let report = inspect::zoc(app.world_mut(), "german").unwrap();
    assert_eq!(report.side, "German");
    let game: Vec<String> = zoc(&app).enemy_zone(0).map(|c| c.to_string()).collect();
    let listed: Vec<String> = report.cells.iter().map(|c| c.cell.clone()).collect();
    assert_eq!(listed, game);
    for c in &report.cells {
        assert!(!c.projected_from.is_empty(), "{c:?}");
        assert!(c.projected_from.iter().all(|p| !p.units.is_empty()), "{c:?}");
    }
    let c0805 = report.cells.iter().find(|c| c.cell == "0805").unwrap();
    assert_eq!(c0805.projected_from[0].cell, "0806");
    assert_eq!(c0805.projected_from[0].units, ["119th Infantry Rgt (us-119)"]);
    // By name and by number too; an unknown side names the sides.
    assert_eq!(inspect::zoc(app.world_mut(), "1").unwrap(), report);
    assert_eq!(
        inspect::zoc(app.world_mut(), "United States").unwrap().side,
        "United States"
    );
    assert_eq!(
        inspect::zoc(app.world_mut(), "french").unwrap_err(),
        "there is no side `french`: the sides are german, us"
    );
}

#[test]
fn retreats_list_the_games_legal_paths_with_priorities_and_the_refused_with_the_rule() {
    let mut app = start(&mortain());
    let list = inspect::retreats(app.world_mut(), &ids(&["us-2-120"]), None, &ids(&["de-2pz-3"]), 2).unwrap();
    let r = &list[0];
    assert_eq!((r.from.as_str(), r.cells), ("1312", 2));
    let game = options(&mut app, "us-2-120", 2, &["de-2pz-3"]);
    let mut legal: Vec<String> = r.legal.iter().map(|p| p.path.join(">")).collect();
    legal.sort();
    assert_eq!(legal, common::board::legal(&game));
    assert_eq!(r.refused.len(), game.illegal.len());
    let refused = r.refused.iter().find(|p| p.path == ["1412", "1513"]).unwrap();
    assert_eq!(
        refused.reason,
        "1513 is in the enemy zone of control of 1612 and holds no friendly unit"
    );
    // Toward the home edge (West) and free of enemy zones is priority 1.
    let west = r.legal.iter().find(|p| p.path == ["1212", "1113"]).unwrap();
    assert_eq!(west.priorities, [1, 1]);
    // From another cell when asked.
    let moved = inspect::retreats(app.world_mut(), &ids(&["us-2-120"]), Some("1012"), &[], 1).unwrap();
    assert_eq!(moved[0].from, "1012");
    assert!(moved[0].legal.iter().all(|p| p.path.len() == 1));
}

#[test]
fn an_advance_lists_the_second_hex_cells_and_why_one_is_refused() {
    let scenario = Scenario::from_ron_str(
        "scenarios/chorwon-hypothetical.ron",
        include_str!("../scenarios/chorwon-hypothetical.ron"),
    )
    .unwrap();
    let mut app = start(&scenario);
    let cells = inspect::advance(app.world_mut(), "kpa-820-1", "0605", 2).unwrap();
    let find = |label: &str| cells.iter().find(|c| c.cell == label).unwrap();
    assert_eq!((find("0605").depth, find("0605").refused.clone()), (1, None));
    assert_eq!((find("0606").depth, find("0606").refused.clone()), (2, None));
    assert_eq!(
        find("0506").refused.as_deref(),
        Some("a second-cell advance may not enter Urban")
    );
    // One cell of advance: only the vacated cell.
    let one = inspect::advance(app.world_mut(), "kpa-820-1", "0605", 1).unwrap();
    assert_eq!(one.len(), 1);
}

#[test]
fn the_command_prints_text_and_json_and_names_what_is_wrong() {
    let run = |args: &[&str]| Command::new(HEXFRONT).args(args).output().unwrap();
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/mortain-1944.ron");
    let out = run(&["inspect", "zoc", file, "--side", "german", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut app = start(&mortain());
    assert_eq!(
        json["cells"].as_array().unwrap().len(),
        inspect::zoc(app.world_mut(), "german").unwrap().cells.len()
    );
    let out = run(&["inspect", "reach", file, "--unit", "us-2-120"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1513     1 MP  via 1312 1412 1513  (must stop)"),
        "{text}"
    );
    let out = run(&[
        "inspect",
        "retreats",
        file,
        "--unit",
        "us-2-120",
        "--attackers",
        "de-2pz-3",
        "--hexes",
        "2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("refused  1412 1513  1513 is in the enemy zone of control"),
        "{text}"
    );
    let out = run(&["inspect", "retreats", file, "--unit", "us-2-120", "--hexes", "40"]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: --hexes 40: give 1 to 6 cells"
    );
    let out = run(&["inspect", "reach", file, "--unit", "us-x"]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: there is no unit `us-x`"
    );
}
