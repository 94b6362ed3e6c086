//! Retreats after combat, one test per rule: the legal paths with the reason for each illegal
//! one, the automatic choice by the ruleset's chooser, ER checks, blocked units, and the
//! per-ruleset limits (Next War, War Against Russia, Killing Ground, Rommel, Small General).
//!
//! Flat-top hexes: in odd columns a hex touches (c±1, r-1) and (c±1, r); in even columns
//! (c±1, r) and (c±1, r+1); always (c, r±1). A one-row map is a corridor.

mod common;

use common::board::*;
use hexfront::combat::Chooser;
use hexfront::game::retreat::RetreatedThisPhase;

const HEXES: &str = "Hex(top: Flat)";
const SQUARES: &str = "Square(diagonals: false)";

fn nw(rows: &[&str], extra: &str, units: &[String]) -> bevy::prelude::App {
    start(&fixture(
        "next-war",
        HEXES,
        "'.': \"flat\", 'm': \"marsh\", 'r': \"rough\"",
        rows,
        extra,
        units,
    ))
}

fn brigade(id: &str, side: &str, cell: &str, er: u32) -> String {
    unit(
        id,
        side,
        "Infantry",
        "Brigade",
        cell,
        &format!("steps: [(attack: 2, defense: 2), (attack: 1, defense: 1)], er: {er}"),
    )
}

fn division(id: &str, side: &str, cell: &str) -> String {
    unit(id, side, "Infantry", "Division", cell, "strength: 6, er: 4")
}

#[test]
fn next_war_retreats_by_the_priorities_and_an_ezoc_on_the_way_costs_a_step_on_a_failed_er_check() {
    // Blue at 0501 retreats 2 hexes from the brigade at 0601; the division at 0402 puts 0401,
    // 0502 and 0302 in its zone.
    let units = [
        brigade("b", "blue", "0501", 3),
        brigade("att", "red", "0601", 3),
        division("div", "red", "0402"),
    ];
    let mut app = nw(&["......", "......"], "", &units);
    let o = options(&mut app, "b", 2, &["att"]);
    assert_eq!(legal(&o), ["0401>0301", "0502>0602"]);
    assert_eq!(
        why(&o, "0302"),
        "the retreat would end alone in the enemy zone of control of 0402"
    );
    assert_eq!(why(&o, "0601"), "0601 holds enemy units");
    // Priority 3 then 1 (toward the friendly West edge) beats 4 then 2.
    force_dice(&mut app, &[7]);
    order_retreat(&mut app, "b", 2, Chooser::Owner, &["att"]);
    assert_eq!(at(&mut app, "b").unwrap(), "0301");
    assert_eq!(steps_left(&mut app, "b"), 1, "ER 3, rolled 7: failed, a step lost");
    assert!(
        log(&app)
            .iter()
            .any(|l| l.contains("passed through an enemy zone of control"))
    );
    // The same retreat with a passed check costs nothing.
    let mut app = nw(&["......", "......"], "", &units);
    force_dice(&mut app, &[2]);
    order_retreat(&mut app, "b", 2, Chooser::Owner, &["att"]);
    assert_eq!(
        (at(&mut app, "b").unwrap().as_str(), steps_left(&mut app, "b")),
        ("0301", 2)
    );
}

#[test]
fn next_war_a_retreat_may_not_end_alone_in_an_ezoc_and_units_that_cannot_retreat_stay_with_one_er_check() {
    // Corridor: the only 2-hex retreat from 0401 ends at 0201, in the zone of the division at 0101.
    let units = [
        brigade("b1", "blue", "0401", 4),
        brigade("b2", "blue", "0401", 2),
        brigade("att", "red", "0501", 3),
        division("div", "red", "0101"),
    ];
    let mut app = nw(&["......"], "", &units);
    let o = options(&mut app, "b1", 2, &["att"]);
    assert!(o.legal.is_empty());
    assert_eq!(
        why(&o, "0201"),
        "the retreat would end alone in the enemy zone of control of 0101"
    );
    // Both stay; only the lowest ER (b2, ER 2) checks: 5 fails.
    force_dice(&mut app, &[5]);
    order_retreats(&mut app, &["b1", "b2"], 2, Chooser::Owner, &["att"]);
    assert_eq!(at(&mut app, "b1").unwrap(), "0401");
    assert_eq!(at(&mut app, "b2").unwrap(), "0401");
    assert_eq!((steps_left(&mut app, "b1"), steps_left(&mut app, "b2")), (2, 1));
    // With a friendly unit at 0201 the retreat may end there (its EZOC is ignored).
    let mut with_friend = units.to_vec();
    with_friend.push(brigade("f", "blue", "0201", 3));
    let mut app = nw(&["......"], "", &with_friend);
    assert_eq!(legal(&options(&mut app, "b1", 2, &["att"])), ["0301>0201"]);
    order_retreat(&mut app, "b1", 2, Chooser::Owner, &["att"]);
    assert_eq!(
        (at(&mut app, "b1").unwrap().as_str(), steps_left(&mut app, "b1")),
        ("0201", 2)
    );
}

#[test]
fn next_war_only_light_infantry_retreats_across_unbridged_rivers() {
    let river = "edges: [(feature: River, between: [(\"0301\", \"0201\")])]";
    let units = |class: &str| {
        [
            unit("b", "blue", class, "Brigade", "0301", "strength: 2, er: 3"),
            brigade("att", "red", "0401", 3),
        ]
    };
    let mut app = nw(&["....."], river, &units("Infantry"));
    let o = options(&mut app, "b", 1, &["att"]);
    assert!(o.legal.is_empty());
    assert_eq!(
        why(&o, "0201"),
        "only light infantry retreats across the unbridged river between 0301 and 0201"
    );
    let mut app = nw(&["....."], river, &units("LightInfantry"));
    assert_eq!(legal(&options(&mut app, "b", 1, &["att"])), ["0201"]);
}

#[test]
fn next_war_mechanized_units_retreat_into_prohibited_terrain_only_by_road() {
    let units = [
        unit("mech", "blue", "Mechanized", "Brigade", "0301", "strength: 2, er: 3"),
        brigade("att", "red", "0401", 3),
    ];
    let mut app = nw(&[".m..."], "", &units);
    let o = options(&mut app, "mech", 1, &["att"]);
    assert_eq!(
        why(&o, "0201"),
        "0201: Marsh is prohibited terrain for Mechanized units"
    );
    let mut app = nw(&[".m..."], "roads: [[\"0301\", \"0201\"]]", &units);
    assert_eq!(legal(&options(&mut app, "mech", 1, &["att"])), ["0201"]);
}

#[test]
fn next_war_units_that_retreated_into_a_hex_add_nothing_to_its_defense_then_check_and_go_on() {
    // Red attacks blue's 0301 with 6 against 1 (6:1, column 9); a 9 is "-/5R".
    let units = [
        unit("d", "blue", "Infantry", "Brigade", "0301", "strength: 1, er: 3"),
        unit("late", "blue", "Infantry", "Brigade", "0301", "strength: 5, er: 3"),
        unit("att", "red", "Infantry", "Division", "0401", "strength: 6, er: 3"),
    ];
    let mut app = nw(&["......"], "", &units);
    to_phase(&mut app, hexfront::game::phase::Phase::Combat);
    // Red's combat phase: end blue's turn first.
    to_phase(&mut app, hexfront::game::phase::Phase::Movement);
    to_phase(&mut app, hexfront::game::phase::Phase::Combat);
    let late = id(&mut app, "late");
    app.world_mut().entity_mut(late).insert(RetreatedThisPhase);
    let d = id(&mut app, "d");
    let r = attack(&mut app, &["att"], "0301", &[9, 1]).unwrap();
    assert_eq!(r.defenders, [d], "the unit that retreated in does not defend");
    assert!(r.summary.starts_with("-/5R"), "{}", r.summary);
    // The defender is gone; the late unit made its ER check (1 < 3: passed) and retreated on.
    assert_eq!(find(&mut app, "d"), None);
    assert_eq!(steps_left(&mut app, "late"), 1);
    assert_eq!(at(&mut app, "late").unwrap(), "0101");
    // And the attacker had to advance into the vacated hex.
    assert_eq!(at(&mut app, "att").unwrap(), "0301");
}

fn war(rows: &[&str], units: &[String]) -> bevy::prelude::App {
    start(&fixture("war-against-russia", HEXES, "'.': \"clear\"", rows, "", units))
}

fn corps(id: &str, side: &str, cell: &str, strength: u32) -> String {
    unit(id, side, "Infantry", "Corps", cell, &format!("strength: {strength}"))
}

#[test]
fn war_against_russia_retreats_avoid_ezocs_and_the_attacker_picks_the_route() {
    let units = [
        corps("d", "blue", "0302", 4),
        corps("a", "red", "0402", 4),
        corps("z", "red", "0101", 1),
    ];
    let mut app = war(&[".....", ".....", "....."], &units);
    let o = options(&mut app, "d", 2, &["a"]);
    assert_eq!(
        why(&o, "0201"),
        "0201 is in the enemy zone of control of 0101 and holds no friendly unit"
    );
    assert!(why(&o, "0303").contains("enemy zone of control of 0402"));
    assert!(!o.legal.is_empty());
    // The attacker chooses: the route that does the defender least good (not toward its edge).
    order_retreat(&mut app, "d", 2, Chooser::Opponent, &["a"]);
    let end = at(&mut app, "d").unwrap();
    assert!(
        end.starts_with("02"),
        "the attacker keeps Blue off its West edge: {end}"
    );
    let mut app = war(&[".....", ".....", "....."], &units);
    order_retreat(&mut app, "d", 2, Chooser::Owner, &["a"]);
    assert!(at(&mut app, "d").unwrap().starts_with("01"), "the owner heads home");
}

#[test]
fn war_against_russia_retreats_come_no_closer_to_the_attacking_units() {
    let units = [
        corps("d", "blue", "0302", 4),
        corps("a", "red", "0402", 4),
        corps("far", "red", "0105", 4),
    ];
    let mut app = war(&[".....", ".....", ".....", ".....", "....."], &units);
    let o = options(&mut app, "d", 2, &["a", "far"]);
    let closer: Vec<_> = o
        .illegal
        .iter()
        .filter(|x| x.reason.contains("closer to the attacking units at 0105"))
        .collect();
    assert!(!closer.is_empty(), "{:?}", o.illegal);
    let grid = hexfront::rules::grid::Grid::new(
        hexfront::rules::grid::GridKind::Hex {
            top: hexfront::rules::grid::HexTop::Flat,
        },
        5,
        5,
    );
    for p in &o.legal {
        let mut prev = cell("0302");
        for c in &p.cells {
            for a in ["0402", "0105"] {
                assert!(
                    grid.distance(*c, cell(a)) >= grid.distance(prev, cell(a)),
                    "{:?}",
                    p.cells
                );
            }
            prev = *c;
        }
    }
}

#[test]
fn war_against_russia_surrounded_defenders_turn_dr_into_de() {
    // Every first step from 0302 is enemy-held or in an enemy zone of control.
    let units = [
        corps("d", "blue", "0302", 4),
        corps("a", "red", "0402", 2),
        corps("b", "red", "0401", 2),
        corps("z", "red", "0101", 1),
        corps("y", "red", "0203", 1),
    ];
    let mut app = war(&[".....", ".....", "....."], &units);
    let o = options(&mut app, "d", 1, &["a", "b"]);
    assert!(o.legal.is_empty(), "{:?}", legal(&o));
    to_phase(&mut app, hexfront::game::phase::Phase::Combat);
    to_phase(&mut app, hexfront::game::phase::Phase::Movement);
    to_phase(&mut app, hexfront::game::phase::Phase::Combat);
    // 4 against 4 is 1:1; a 6 is DR, which surrounded defenders take as DE.
    let r = attack(&mut app, &["a", "b"], "0302", &[6]).unwrap();
    assert!(r.summary.starts_with("DR -> DE"), "{}", r.summary);
    assert_eq!(find(&mut app, "d"), None);
}

#[test]
fn killing_ground_a_unit_short_of_room_retreats_as_far_as_it_can_and_loses_a_step_per_hex_short() {
    let units = [
        unit(
            "d",
            "blue",
            "Infantry",
            "Battalion",
            "0301",
            "steps: [(attack: 3, defense: 3), (attack: 2, defense: 2), (attack: 1, defense: 1)]",
        ),
        unit("a", "red", "Infantry", "Battalion", "0401", "strength: 3"),
    ];
    let mut app = start(&fixture(
        "killing-ground",
        HEXES,
        "'.': \"clear\", '~': \"water\"",
        &["~...."],
        "",
        &units,
    ));
    let o = options(&mut app, "d", 2, &["a"]);
    assert!(o.legal.is_empty());
    assert_eq!(why(&o, "0101"), "0101: Sea is prohibited terrain for Foot units");
    order_retreat(&mut app, "d", 2, Chooser::Owner, &["a"]);
    assert_eq!(
        (at(&mut app, "d").unwrap().as_str(), steps_left(&mut app, "d")),
        ("0201", 2)
    );
}

#[test]
fn rommel_defenders_never_retreat_into_the_square_the_attackers_came_from_and_attackers_fall_back_there() {
    use hexfront::game::order::Order;
    let units = [
        unit("d", "red", "Infantry", "Battalion", "0202", "strength: 3"),
        unit("a", "blue", "Infantry", "Battalion", "0201", "strength: 3"),
    ];
    let mut app = start(&fixture(
        "rommel",
        SQUARES,
        "'.': \"open\"",
        &["...", "...", "..."],
        "",
        &units,
    ));
    to_phase(&mut app, hexfront::game::phase::Phase::Movement);
    give(
        &mut app,
        Order::Move {
            units: ids(&["a"]),
            to: cell("0202"),
        },
    )
    .unwrap();
    let a = id(&mut app, "a");
    assert_eq!(at(&mut app, "a").unwrap(), "0202", "the square is contested");
    app.world_mut()
        .entity_mut(a)
        .insert(hexfront::game::combat_phase::Attacked);
    let o = options(&mut app, "d", 1, &["a"]);
    assert_eq!(why(&o, "0201"), "the attackers came from 0201: no retreat into it");
    assert_eq!(legal(&o), ["0102", "0203", "0302"]);
    // Attackers that must retreat go back where they came from.
    order_retreat(&mut app, "a", 1, Chooser::Owner, &["d"]);
    assert_eq!(at(&mut app, "a").unwrap(), "0201");
}

fn small_general(units: &[String]) -> bevy::prelude::App {
    start(&fixture(
        "small-general",
        HEXES,
        "'.': \"grass\"",
        &[".....", ".....", "....."],
        "",
        units,
    ))
}

#[test]
fn small_general_retreats_in_a_random_direction_into_friendly_hexes_only_or_the_unit_is_destroyed() {
    let units = [
        unit("d", "blue", "Infantry", "Regiment", "0302", "strength: 3"),
        unit("a", "red", "Infantry", "Regiment", "0402", "strength: 3"),
    ];
    let mut app = small_general(&units);
    let o = options(&mut app, "d", 1, &["a"]);
    let choices: Vec<String> = o.legal.iter().map(|p| p.end().to_string()).collect();
    assert_eq!(
        choices,
        ["0202", "0201", "0301"],
        "not 0401/0303 (enemy ZOC), not 0402 (enemy)"
    );
    for roll in 1..=3u8 {
        let mut app = small_general(&units);
        force_dice(&mut app, &[roll]);
        order_retreat(&mut app, "d", 1, Chooser::Random, &["a"]);
        assert_eq!(at(&mut app, "d").unwrap(), choices[roll as usize - 1], "roll {roll}");
    }
    // No friendly hex: destroyed.
    let mut boxed = units.to_vec();
    for (i, c) in ["0101", "0401", "0203"].iter().enumerate() {
        boxed.push(unit(&format!("z{i}"), "red", "Infantry", "Regiment", c, "strength: 1"));
    }
    let mut app = small_general(&boxed);
    order_retreat(&mut app, "d", 1, Chooser::Random, &["a"]);
    assert_eq!(find(&mut app, "d"), None);
    assert!(
        log(&app)
            .iter()
            .any(|l| l.contains("cannot retreat") && l.contains("eliminated"))
    );
}

#[test]
fn next_war_units_in_an_over_stacked_hex_lose_one_er_per_stacking_point_over_the_limit() {
    use bevy::ecs::system::SystemState;
    use hexfront::game::combat_phase::GameView;
    use hexfront::game::components::{MapIndex, Position};
    use hexfront::game::order::AttackOrder;
    use hexfront::game::phase::TurnState;
    // 3 + 1 + 1 = 5 stacking points in flat (limit 4): one over. A scenario may not start
    // over-stacked (the validator refuses it), so the last brigade gets there as a retreat would.
    let units = [
        unit("div", "blue", "Infantry", "Division", "0301", "strength: 6, er: 4"),
        brigade("b1", "blue", "0301", 3),
        brigade("b2", "blue", "0201", 3),
        unit("att", "red", "Infantry", "Division", "0401", "strength: 6, er: 4"),
    ];
    let mut app = nw(&["....."], "", &units);
    let b2 = id(&mut app, "b2");
    app.world_mut().resource_mut::<MapIndex>().remove(b2, cell("0201"));
    app.world_mut().resource_mut::<MapIndex>().place(b2, cell("0301"));
    app.world_mut().get_mut::<Position>(b2).unwrap().0 = cell("0301");
    app.update();
    let att = id(&mut app, "att");
    let red = *app.world().get::<hexfront::game::components::Side>(att).unwrap();
    app.world_mut().resource_mut::<TurnState>().active = red;
    let order = AttackOrder::plain(ids(&["att"]), cell("0301"));
    let mut state: SystemState<GameView> = SystemState::new(app.world_mut());
    let view = state.get(app.world()).unwrap();
    let (s, _, _) = view.situation(&order, None).unwrap();
    let ers: Vec<Option<u32>> = s.defenders.iter().map(|d| d.er).collect();
    // Only four stacking points defend (the division and b1, the first of two equal brigades),
    // and each loses 1 ER.
    assert_eq!(ers, [Some(3), Some(2)], "each loses 1 ER");
    assert_eq!(s.attackers[0].er, Some(4), "the attacker's hex is not over-stacked");
}

#[test]
fn a_retreat_counts_units_against_a_units_stacking_limit_not_their_stacking_points() {
    // Killing Ground stacks 3 units a hex: the corridor's only retreat cell holds 2 friends.
    let units = [
        unit(
            "d",
            "blue",
            "Infantry",
            "Regiment",
            "0301",
            "strength: 3, stacking_points: 3",
        ),
        unit("f1", "blue", "Infantry", "Battalion", "0201", "strength: 1"),
        unit("f2", "blue", "Infantry", "Battalion", "0201", "strength: 1"),
        unit("a", "red", "Infantry", "Battalion", "0401", "strength: 3"),
    ];
    let s = fixture("killing-ground", HEXES, "'.': \"clear\"", &["....."], "", &units);
    let mut app = start(&s);
    assert_eq!(legal(&options(&mut app, "d", 1, &["a"])), ["0201"]);
    // A fourth unit would not fit.
    let mut crowded = units.to_vec();
    crowded.push(unit("f3", "blue", "Infantry", "Battalion", "0201", "strength: 1"));
    let s = fixture("killing-ground", HEXES, "'.': \"clear\"", &["....."], "", &crowded);
    let mut app = start(&s);
    let o = options(&mut app, "d", 1, &["a"]);
    assert!(
        why(&o, "0201").starts_with("stacking limit: Clear holds at most 3 units"),
        "{:?}",
        o.illegal
    );
}

#[test]
fn the_attack_preview_warns_of_a_defender_that_could_not_retreat() {
    use bevy::ecs::system::SystemState;
    use hexfront::game::retreat::blocked_defenders;
    use hexfront::game::view::GameView;
    let blocked = |row: &str, units: &[String]| {
        let mut app = start(&fixture("killing-ground", HEXES, "'.': \"clear\"", &[row], "", units));
        let attackers = vec![id(&mut app, "a")];
        let mut state: SystemState<GameView> = SystemState::new(app.world_mut());
        let view = state.get(app.world()).unwrap();
        blocked_defenders(&view, cell("0201"), &attackers)
    };
    // Red in 0201 between blue units in 0101 and 0301: nowhere to go.
    let boxed = blocked(
        "...",
        &[
            division("a", "blue", "0101"),
            division("r", "red", "0201"),
            division("b", "blue", "0301"),
        ],
    );
    assert_eq!(boxed.len(), 1, "{boxed:?}");
    assert!(boxed[0].starts_with("r cannot retreat from 0201 ("), "{}", boxed[0]);
    assert!(boxed[0].ends_with("a retreat result costs it a step for each cell it cannot go."));
    // With 0301 free there is a way out: nothing to warn of.
    assert!(blocked("....", &[division("a", "blue", "0101"), division("r", "red", "0201")]).is_empty());
}
