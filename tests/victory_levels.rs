//! Victory levels: a scenario may grade its wins (marginal, substantive, decisive); of the
//! conditions met the highest level decides and the verdict names it; ungraded scenarios decide
//! as before; a half-graded scenario is refused with the field.

use hexfront::game::components::{GameMap, Side, Sides};
use hexfront::game::headless_app;
use hexfront::game::victory::{deciding, verdict_at_end};
use hexfront::scenario::Scenario;
use hexfront::scenario::file::VictoryLevel;

#[test]
fn the_highest_level_met_decides_and_the_first_among_equals() {
    use VictoryLevel::*;
    assert_eq!(
        deciding([(0, Some(Marginal)), (1, Some(Decisive)), (2, Some(Substantive))]),
        Some(1)
    );
    assert_eq!(deciding([(3, Some(Marginal)), (5, Some(Marginal))]), Some(3));
    // Without levels: the first met, as before levels existed.
    assert_eq!(deciding([(2, None), (4, None)]), Some(2));
    assert_eq!(deciding(std::iter::empty()), None);
}

/// Mortain's verdict at the end with the objectives (Mortain, Hill 317, St-Barthélemy, the
/// Avranches road) held by these sides (0 German, 1 American).
fn mortain_verdict(held: [usize; 4]) -> (Option<usize>, Option<VictoryLevel>, String) {
    let scenario = Scenario::load("scenarios/mortain-1944.ron").unwrap();
    let app = headless_app(&scenario, 1);
    let map = app.world().resource::<GameMap>();
    let sides = app.world().resource::<Sides>();
    let control: Vec<Option<Side>> = held.iter().map(|s| Some(Side(*s))).collect();
    let v = verdict_at_end(map, &control, sides, 6);
    (v.winner.map(|s| s.0), v.level, v.reason)
}

#[test]
fn mortains_levels_name_each_end() {
    use VictoryLevel::*;
    let cases = [
        // The Avranches road and Mortain: a decisive German victory.
        ([0, 1, 1, 0], Some(0), Some(Decisive)),
        // 9 points (Hill 317, St-Barthélemy, Mortain): substantive.
        ([0, 0, 0, 1], Some(0), Some(Substantive)),
        // The Avranches road alone (6): marginal.
        ([1, 1, 1, 0], Some(0), Some(Marginal)),
        // All four American: decisive; Mortain, Hill 317 and the road: substantive.
        ([1, 1, 1, 1], Some(1), Some(Decisive)),
        ([1, 1, 0, 1], Some(1), Some(Substantive)),
        // The Germans short of 6 without the road: the Americans' marginal `otherwise`.
        ([0, 1, 0, 1], Some(1), Some(Marginal)),
    ];
    for (held, winner, level) in cases {
        let (w, l, reason) = mortain_verdict(held);
        assert_eq!((w, l), (winner, level), "{held:?}: {reason}");
        let word = level.unwrap().word();
        assert!(reason.contains(&format!("a {word} victory")), "{held:?}: {reason}");
    }
}

fn scenario_error(win: &str, more: &str) -> String {
    let text = format!(
        r##"Scenario(
    name: "Levels", setting: "Test", description: "Test.", ruleset: "killing-ground",
    map: (grid: Hex(top: Flat), width: 4, height: 2, legend: {{'.': "clear"}}, rows: ["....", "...."]),
    sides: [
        (id: "blue", name: "Blue", color: "#3050c0", home_edge: West),
        (id: "red", name: "Red", color: "#c03030", home_edge: East),
    ],
    first_side: "blue", turns: 3, victory: "Test.",
    objectives: [(cell: "0201", name: "Town", points: 3, held_by: "red")],
    win: [{win}], {more}
    units: [],
)"##
    );
    match Scenario::from_ron_str("levels.ron", &text) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_half_graded_scenario_is_refused_with_the_field() {
    // All graded: fine.
    assert_eq!(
        scenario_error(
            r#"(side: "blue", hold: ["0201"], level: Decisive), (side: "blue", points: 1, level: Marginal)"#,
            r#"otherwise: "red", otherwise_level: Marginal,"#
        ),
        ""
    );
    let mixed = scenario_error(
        r#"(side: "blue", hold: ["0201"], level: Decisive), (side: "blue", points: 1)"#,
        r#"otherwise: "red","#,
    );
    assert!(mixed.contains("win[1]") && mixed.contains("level"), "{mixed}");
    let drawn = scenario_error(
        r#"(side: "blue", hold: ["0201"], level: Decisive)"#,
        "otherwise_level: Marginal,",
    );
    assert!(drawn.contains("otherwise_level"), "{drawn}");
    let no_lead = scenario_error(r#"(side: "blue", lead: 0)"#, "");
    assert!(no_lead.contains("win[0].lead"), "{no_lead}");
}
