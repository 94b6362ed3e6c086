//! Next War's map rules driven through the headless game: voluntary over-stacking by movement and
//! its costs (no road movement through an over-stacked hex, only four stacking points fight),
//! light infantry on roads through enemy zones of control, the first-turn zone-of-control
//! exception, and cities, fortifications and installations as cell features.

mod common;

use bevy::ecs::system::SystemState;
use common::UnitExt;
use common::board::*;
use hexfront::combat::City;
use hexfront::game::attack_situation::sitting_out;
use hexfront::game::order::{AttackOrder, Order};
use hexfront::game::phase::Phase;
use hexfront::game::view::GameView;
use hexfront::rules::advance::advance_targets;
use hexfront::rules::terrain::Mobility;

const HEXES: &str = "Hex(top: Flat)";
const FLAT: &str = "'.': \"flat\"";

fn brigade(id: &str, side: &str, cell: &str, strength: u32) -> String {
    unit(
        id,
        side,
        "Infantry",
        "Brigade",
        cell,
        &format!("strength: {strength}, er: 3"),
    )
}

fn division(id: &str, side: &str, cell: &str, strength: u32) -> String {
    unit(
        id,
        side,
        "Infantry",
        "Division",
        cell,
        &format!("strength: {strength}, er: 3"),
    )
}

#[test]
fn a_move_may_over_stack_and_the_log_says_what_it_costs() {
    // 0301 holds 4 stacking points (the limit); a brigade joins them.
    let s = fixture(
        "next-war",
        HEXES,
        FLAT,
        &["......"],
        "",
        &[
            division("d", "blue", "0301", 6),
            brigade("b", "blue", "0301", 2),
            brigade("m", "blue", "0101", 2),
        ],
    );
    let mut app = start(&s);
    move_to(&mut app, &["m"], "0301"); // Next War lets a move over-stack
    assert_eq!(at(&mut app, "m").as_deref(), Some("0301"));
    let said = log(&app).join("\n");
    assert!(
        said.contains(
            "Over-stacked: 0301 is over-stacked by 1 (5 stacking points, limit 4): its units lose 1 ER in combat"
        ),
        "{said}"
    );
}

/// Moves `units` (one stack) to `to` by the side to play's order; the move must be allowed.
fn move_to(app: &mut bevy::prelude::App, units: &[&str], to: &str) {
    give(
        app,
        Order::Move {
            units: ids(units),
            to: cell(to),
        },
    )
    .unwrap_or_else(|e| panic!("{units:?} to {to}: {e}"));
}

#[test]
fn no_road_movement_enters_or_leaves_a_hex_already_over_stacked() {
    let road = "roads: [[\"0101\", \"0201\", \"0301\", \"0401\", \"0501\"]]";
    let units = [
        division("d1", "blue", "0301", 6),
        division("d2", "blue", "0302", 6),
        brigade("m", "blue", "0101", 2),
    ];
    let s = fixture("next-war", HEXES, FLAT, &["......", "......"], road, &units);
    let mut app = start(&s);
    // Not over-stacked (3 points): half a point a hex along the road.
    let open = reach(&mut app, "m");
    assert_eq!(open["0301"], (1.0, false));
    assert_eq!(open["0401"], (1.5, false));
    // Over-stacked (6 points): the steps into and out of 0301 are paid off the road (1 each).
    move_to(&mut app, &["d2"], "0301");
    let jammed = reach(&mut app, "m");
    assert_eq!(jammed["0201"], (0.5, false), "the road is open up to the jam");
    assert_eq!(jammed["0301"], (1.5, false));
    assert_eq!(jammed["0401"], (2.5, false));
}

#[test]
fn light_infantry_keeps_its_freedom_from_ezocs_only_off_the_road() {
    // Rough hexes (2 MP, 0.5 by road) toward a red division at 0601, whose zone covers 0501.
    let road = "roads: [[\"0101\", \"0201\", \"0301\", \"0401\", \"0501\", \"0601\"]]";
    let units = |class: &str| {
        vec![
            unit("li", "blue", class, "Brigade", "0101", "strength: 2, er: 4"),
            division("red", "red", "0601", 6),
        ]
    };
    let reach_0501 = |class: &str| {
        let s = fixture("next-war", HEXES, "'r': \"rough\"", &["rrrrrr"], road, &units(class));
        let mut app = start(&s);
        reach(&mut app, "li")["0501"]
    };
    // Ordinary infantry takes the road in, pays +1 to enter the zone, and stops.
    assert_eq!(reach_0501("Infantry"), (3.0, true));
    // Light infantry may do the same (the road rate binds it to the zone) …
    assert_eq!(reach_0501("LightInfantry"), (3.0, true));
    // … or leave the road to step into and out of the zone, ignore it, and go on. A red
    // division at 0602 puts 0601 (only) of the road's row in its zone.
    let reach_by = |class: &str| {
        let s = fixture(
            "next-war",
            HEXES,
            "'r': \"rough\"",
            &["rrrrrrrr", "rrrrrrrr"],
            "roads: [[\"0101\", \"0201\", \"0301\", \"0401\", \"0501\", \"0601\", \"0701\", \"0801\"]]",
            &[
                unit("li", "blue", class, "Brigade", "0101", "strength: 2, er: 4"),
                division("red", "red", "0602", 6),
            ],
        );
        let mut app = start(&s);
        reach(&mut app, "li")
    };
    let li = reach_by("LightInfantry");
    assert_eq!(li["0601"], (3.5, true), "by road: 2.5 + 1 to enter, and stop");
    assert_eq!(li["0701"], (6.0, false), "off the road through the zone: 2.0 + 2 + 2");
    let infantry = reach_by("Infantry");
    assert_eq!(infantry["0601"], (3.5, true));
    assert!(!infantry.contains_key("0701"), "ordinary infantry stops in the zone");
}

fn situation_names(app: &mut bevy::prelude::App, order: &AttackOrder) -> (Vec<String>, Vec<String>, Vec<String>) {
    let mut state: SystemState<GameView> = SystemState::new(app.world_mut());
    let view = state.get(app.world()).unwrap();
    let (s, _, _) = view.situation(order, None).unwrap();
    let names = |v: &[hexfront::combat::Combatant]| v.iter().map(|u| u.id.clone()).collect::<Vec<_>>();
    (names(&s.attackers), names(&s.defenders), sitting_out(order, &view))
}

/// Blue's a-div and a1 at 0201, a2 and a3 next to it; Red's d1-d4 at 0401 and d5 at 0302, all
/// 1-point brigades of strength 1 to 5. Blue over-stacks 0201 (6 points) in turn 1, Red 0301 (5
/// points); turn 2, Blue's combat phase.
fn over_stacked_front(blue_div: u32) -> bevy::prelude::App {
    let s = fixture(
        "next-war",
        HEXES,
        FLAT,
        &["......", "......"],
        "",
        &[
            division("a-div", "blue", "0201", blue_div),
            brigade("a1", "blue", "0201", 3),
            brigade("a2", "blue", "0202", 2),
            brigade("a3", "blue", "0202", 1),
            brigade("d1", "red", "0401", 1),
            brigade("d2", "red", "0401", 2),
            brigade("d3", "red", "0401", 3),
            brigade("d4", "red", "0401", 4),
            brigade("d5", "red", "0302", 5),
        ],
    );
    let mut app = start(&s);
    move_to(&mut app, &["a2", "a3"], "0201");
    for _ in 0..3 {
        give(&mut app, Order::EndPhase).unwrap();
    }
    move_to(&mut app, &["d1", "d2", "d3", "d4"], "0301");
    move_to(&mut app, &["d5"], "0301");
    for _ in 0..3 {
        give(&mut app, Order::EndPhase).unwrap();
    }
    to_phase(&mut app, Phase::Combat);
    app
}

#[test]
fn only_four_stacking_points_attack_from_or_defend_in_an_over_stacked_hex() {
    let mut app = over_stacked_front(6);
    let order = AttackOrder::plain(ids(&["a-div", "a1", "a2", "a3"]), cell("0301"));
    let (attackers, defenders, notes) = situation_names(&mut app, &order);
    // 6 points ticked: the division (3) and the strongest brigade (1) fight.
    assert_eq!(attackers, ["a-div", "a1"]);
    // Five 1-point brigades defend: the four strongest.
    assert_eq!(defenders, ["d2", "d3", "d4", "d5"]);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].starts_with("a2, a3 cannot attack: only 4 stacking points"),
        "{notes:?}"
    );
    assert!(notes[1].starts_with("d1 cannot defend"), "{notes:?}");
    // Ticking fewer keeps the owner's choice.
    let order = AttackOrder::plain(ids(&["a-div", "a3"]), cell("0301"));
    assert_eq!(situation_names(&mut app, &order).0, ["a-div", "a3"]);
}

#[test]
fn the_left_out_defender_follows_a_retreat_that_vacates_its_hex() {
    let mut app = over_stacked_front(30);
    // 30 vs 14 = 2:1 (column 5); the over-stacking costs ER (Blue's 0201 is 2 over: 3-2 = 1,
    // Red's 0301 1 over: 3-1 = 2), so the lead units' ER shifts a column left, to 4; a roll of 9
    // there reads -/2R.
    let r = attack(&mut app, &["a-div"], "0301", &[9]).unwrap();
    assert!(r.summary.starts_with("-/2R"), "{}", r.summary);
    // d1 sat the combat out, so it kept its step, and left the hex with the others.
    assert_eq!(steps_left(&mut app, "d1"), 1);
    assert_ne!(at(&mut app, "d1").as_deref(), Some("0301"));
}

#[test]
fn zones_of_control_stay_out_of_hexes_the_enemy_held_at_the_start_until_the_first_move_is_over() {
    // Blue's brigade at 0401 stands next to the red division at 0501: the hex is Blue's at the start.
    let s = fixture(
        "next-war",
        HEXES,
        FLAT,
        &["........"],
        "",
        &[brigade("b", "blue", "0401", 2), division("r", "red", "0501", 6)],
    );
    let mut app = start(&s);
    assert_eq!(phase(&app), Phase::Movement);
    assert!(
        !zoc(&app).in_enemy_zoc(cell("0401"), 0),
        "turn 1: no red zone in a Blue hex"
    );
    assert!(
        zoc(&app).in_enemy_zoc(cell("0501"), 0),
        "a unit's own hex stays in its zone"
    );
    // Leaving 0401 costs nothing extra now.
    assert_eq!(reach(&mut app, "b")["0301"], (1.0, false));
    // Once Blue's first movement phase is over the zone is back.
    to_phase(&mut app, Phase::Combat);
    assert!(zoc(&app).in_enemy_zoc(cell("0401"), 0));
}

#[test]
fn start_control_is_the_nearest_sides_and_ties_belong_to_nobody() {
    use hexfront::rules::grid::{Grid, GridKind, HexTop};
    use hexfront::rules::zoc::start_control_bars;
    let grid = Grid::new(GridKind::Hex { top: HexTop::Flat }, 5, 1);
    let bars = start_control_bars(&grid, [(cell("0101"), 0), (cell("0501"), 1)]);
    // 0101, 0201 Blue's (red's zones barred), 0301 a tie, 0401 and 0501 Red's.
    assert_eq!(bars, [!1u8, !1, 0, !2, !2]);
}

#[test]
fn cities_fortifications_and_installations_reach_the_combat_rules() {
    let s = fixture(
        "next-war",
        HEXES,
        FLAT,
        &["......"],
        "features: {\"0301\": [City, Airbase], \"0501\": [Town]}",
        &[
            division("a", "blue", "0201", 6),
            brigade("c", "red", "0301", 2),
            brigade("t", "red", "0501", 2),
            division("a2", "blue", "0601", 6),
        ],
    );
    let mut app = start(&s);
    to_phase(&mut app, Phase::Combat);
    let mut state: SystemState<GameView> = SystemState::new(app.world_mut());
    let view = state.get(app.world()).unwrap();
    let conditions = |attacker: &str, target: &str| {
        view.situation(&AttackOrder::plain(ids(&[attacker]), cell(target)), None)
            .unwrap()
            .0
            .conditions
    };
    let city = conditions("a", "0301");
    assert_eq!(city.city, Some(City::City));
    assert!(city.installation && !city.fortified);
    let town = conditions("a2", "0501");
    assert_eq!(town.city, Some(City::Town));
    assert!(!town.fortified && !town.installation);
    let rules = &view.map.ruleset;
    let hexfront::combat::CombatRules::NextWar(nw) = &rules.combat else {
        panic!()
    };
    let mut in_city = common::situation(
        rules.terrain_ids["flat"],
        vec![common::unit("x", hexfront::rules::units::UnitClass::Armor, 9, 9)],
        vec![common::unit("y", hexfront::rules::units::UnitClass::Infantry, 1, 1)],
    );
    // Flat: a two-hex retreat, no hold; a city makes it one hex and lets the stack try to hold;
    // a town changes nothing.
    assert!(!nw.may_hold(&in_city));
    in_city.conditions.city = Some(City::Town);
    assert!(!nw.may_hold(&in_city));
    in_city.conditions.city = Some(City::City);
    assert!(nw.may_hold(&in_city));
    in_city.conditions.city = None;
    in_city.conditions.fortified = true;
    assert!(nw.may_hold(&in_city));
}

#[test]
fn a_city_in_the_defenders_hex_shortens_the_retreat_and_stops_the_second_hex_advance() {
    let rs = common::ruleset("next-war");
    let flat = rs.terrain_ids["flat"];
    let armor = |id: &str, v: u32| {
        let mut u = common::track(id, hexfront::rules::units::UnitClass::Armor, &[v, v / 2]).er(4);
        u.mobility = Mobility::Mechanized;
        u
    };
    let defender = || common::track("d", hexfront::rules::units::UnitClass::Infantry, &[4, 2]).er(4);
    // 36 vs 4 = 9:1 → column 10 (7:1); a roll of 5 there reads -/3R: the defender is eliminated.
    let mut s = common::situation(flat, vec![armor("a", 36)], vec![defender()]);
    let (r, _, _) = common::resolve_with(&rs.combat, &s, &[5]);
    assert_eq!(
        r.attacker.advance.unwrap().cells,
        2,
        "open flat: mechanized go a second hex"
    );
    s.conditions.city = Some(City::City);
    let (r, _, _) = common::resolve_with(&rs.combat, &s, &[5]);
    assert_eq!(r.attacker.advance.unwrap().cells, 1, "not from a city");
    s.conditions.city = None;
    s.conditions.installation = true;
    let (r, _, _) = common::resolve_with(&rs.combat, &s, &[5]);
    assert_eq!(r.attacker.advance.unwrap().cells, 1, "not from an installation");
    // A survivor in a city retreats one hex, in open flat two (36 vs 9 = 4:1, column 7; a roll
    // of 4 there reads 1/2R).
    let four = vec![common::track("d", hexfront::rules::units::UnitClass::Infantry, &[9, 9, 9, 9]).er(4)];
    let mut s = common::situation(flat, vec![armor("a", 36)], four);
    let (r, _, _) = common::resolve_with(&rs.combat, &s, &[4]);
    assert_eq!(r.defender.retreat.map(|d| d.cells), Some(2), "{}", r.code);
    s.conditions.city = Some(City::MajorCity);
    let (r, _, _) = common::resolve_with(&rs.combat, &s, &[4]);
    assert_eq!(r.defender.retreat.map(|d| d.cells), Some(1), "{}", r.code);
}

#[test]
fn second_hex_advances_stay_out_of_cities_fortifications_and_installations_which_take_clearing() {
    // Around 0202: a fortification above, a city below, ports in the other neighbours.
    let s = fixture(
        "next-war",
        HEXES,
        FLAT,
        &["...", "...", "..."],
        "features: {\"0201\": [Fortification], \"0203\": [City], \"0101\": [Port], \"0102\": [Port], \"0103\": [Port], \"0301\": [Port], \"0302\": [Port], \"0303\": [Port]}",
        &[brigade("b", "blue", "0101", 1), brigade("r", "red", "0303", 1)],
    );
    let rules = &s.ruleset;
    let targets = advance_targets(
        &s.board,
        &rules.movement,
        &rules.advance,
        Mobility::Mechanized,
        cell("0202"),
        2,
        &|_| false,
    );
    assert_eq!(targets.len(), 7, "the vacated cell and its six neighbours");
    assert_eq!(targets[0].allowed, Ok(()), "the vacated cell itself");
    for t in &targets[1..] {
        let label = t.cell.to_string();
        let word = match label.as_str() {
            "0201" => "fortification",
            "0203" => "city",
            _ => "port",
        };
        assert_eq!(
            t.allowed,
            Err(format!("a second-cell advance may not enter a {word} ({label})"))
        );
    }
    assert!(rules.advance.clears(&s.board, cell("0203")));
    assert!(rules.advance.clears(&s.board, cell("0301")));
    assert!(!rules.advance.clears(&s.board, cell("0201")));
    assert!(!rules.advance.clears(&s.board, cell("0202")));
}

#[test]
fn a_retreat_may_not_end_in_an_enemy_installation_without_friends() {
    // The airbase at 0201 is Red's at the start (its brigade at 0101 is nearest). Blue's brigade
    // at 0401, attacked from 0501, must retreat two hexes west: only 0301 > 0201 leads there.
    let units = [
        brigade("r0", "red", "0101", 1),
        brigade("b", "blue", "0401", 2),
        brigade("ra", "red", "0501", 1),
    ];
    let with = |features: &str| {
        let s = fixture("next-war", HEXES, FLAT, &["......"], features, &units);
        let mut app = start(&s);
        options(&mut app, "b", 2, &["ra"])
    };
    let open = legal(&with(""));
    assert!(open.len() == 1 && open[0].ends_with("0301>0201"), "{open:?}");
    let o = with("features: {\"0201\": [Airbase]}");
    assert!(legal(&o).is_empty());
    assert_eq!(
        why(&o, "0201"),
        "0201 is an enemy installation holding no friendly unit: a retreat may not end there"
    );
}

#[test]
fn a_unit_bigger_than_its_hexs_limit_still_fights_alone() {
    use hexfront::rules::units::{OverLimit, StackingMeasure, StackingRule};
    let rule = StackingRule {
        measure: StackingMeasure::Points,
        limit: 4,
        terrain_limits: Default::default(),
        over_limit: OverLimit::Penalized,
    };
    // A 4-point corps where 3 fight (mountain): it fights by itself rather than nobody.
    assert_eq!(rule.fighting(3, &[(4, 8, 3)]), [0]);
    assert_eq!(rule.fighting(3, &[(4, 8, 3), (4, 9, 3)]), [1]);
    // Otherwise the strongest set that fits, never splitting a unit.
    assert_eq!(rule.fighting(3, &[(4, 8, 3), (1, 2, 3), (2, 2, 3)]), [1, 2]);
    assert_eq!(rule.fighting(4, &[(3, 6, 3), (1, 3, 3), (1, 2, 3), (1, 1, 3)]), [0, 1]);
}
