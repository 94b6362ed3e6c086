//! Zones of control per ruleset: who projects one and where (Next War's stacking, terrain, edge
//! and Clearing rules; the classic rule elsewhere), what they cost a move, and the ZOC map's
//! refresh.

mod common;

use common::board::*;
use hexfront::rules::grid::{Cell, Grid, GridKind};
use hexfront::rules::terrain::{Board, EdgeFeature, TerrainId};
use hexfront::rules::zoc::{ZocMap, ZocRules, ZocUnit};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

// Flat-top hexes: in odd columns a hex touches (c±1, r-1) and (c±1, r); in even columns
// (c±1, r) and (c±1, r+1); always (c, r±1). A one-row map is a corridor.
const HEXES: &str = "Hex(top: Flat)";

/// The cells in an enemy ZOC for `side`, sorted by label.
fn zone(app: &bevy::prelude::App, side: u8) -> Vec<String> {
    let mut v: Vec<String> = zoc(app).enemy_zone(side).map(|c| c.to_string()).collect();
    v.sort();
    v
}

const AROUND_0302: [&str; 7] = ["0201", "0202", "0301", "0302", "0303", "0401", "0402"];

#[test]
fn classic_zoc_covers_the_enemy_cell_and_its_neighbours_and_names_who_projects_it() {
    let s = fixture(
        "killing-ground",
        HEXES,
        "'.': \"clear\"",
        &["....", "....", "...."],
        "",
        &[
            unit("us", "blue", "Infantry", "Battalion", "0101", "strength: 2"),
            unit("de", "red", "Infantry", "Battalion", "0302", "strength: 2"),
        ],
    );
    let app = start(&s);
    assert_eq!(zone(&app, 0), AROUND_0302);
    let z = zoc(&app);
    let r = &s.ruleset.zoc;
    assert_eq!(z.projectors(&s.board, r, cell("0202"), 0).to_vec(), [cell("0302")]);
    assert_eq!(z.projectors(&s.board, r, cell("0302"), 0).to_vec(), [cell("0302")]);
    assert!(z.projectors(&s.board, r, cell("0101"), 0).is_empty());
    // Red sees Blue's zone the same way.
    assert_eq!(zone(&app, 1), ["0101", "0102", "0201"]);
}

#[test]
fn next_war_projects_only_from_two_stacking_points_of_units_that_can_attack() {
    let one_brigade = [unit("kpa", "red", "Infantry", "Brigade", "0302", "strength: 2, er: 3")];
    let with_zero_attack = [
        one_brigade[0].clone(),
        unit(
            "hq",
            "red",
            "Headquarters",
            "Brigade",
            "0302",
            "attack: 0, defense: 1, er: 3",
        ),
    ];
    let two_brigades = [
        one_brigade[0].clone(),
        unit("kpa2", "red", "Infantry", "Brigade", "0302", "strength: 1, er: 3"),
    ];
    let division = [unit("div", "red", "Infantry", "Division", "0302", "strength: 6, er: 3")];
    let rows = ["....", "....", "...."];
    let zone_of = |units: &[String]| {
        let s = fixture("next-war", HEXES, "'.': \"flat\"", &rows, "", units);
        zone(&start(&s), 0)
    };
    // A unit always has a ZOC in its own hex; one stacking point projects nothing.
    assert_eq!(zone_of(&one_brigade), ["0302"]);
    // A zero-attack unit adds no stacking points.
    assert_eq!(zone_of(&with_zero_attack), ["0302"]);
    assert_eq!(zone_of(&two_brigades), AROUND_0302);
    assert_eq!(zone_of(&division), AROUND_0302);
}

#[test]
fn next_war_zoc_stays_out_of_mountain_and_urban_and_does_not_cross_rivers_even_bridged() {
    // Around 0302: 0202 mountain, 0402 urban, a bridged river toward 0301; 0201, 0303, 0401 open.
    let s = fixture(
        "next-war",
        HEXES,
        "'.': \"flat\", 'm': \"mountain\", 'u': \"urban\"",
        &["....", ".m.u", "...."],
        "edges: [(feature: River, between: [(\"0302\", \"0301\")]), (feature: Bridge, between: [(\"0302\", \"0301\")])]",
        &[unit("div", "red", "Infantry", "Division", "0302", "strength: 6, er: 3")],
    );
    assert_eq!(zone(&start(&s), 0), ["0201", "0302", "0303", "0401"]);
}

#[test]
fn next_war_units_under_a_clearing_marker_have_no_zoc_at_all() {
    let s = fixture(
        "next-war",
        HEXES,
        "'.': \"flat\"",
        &["....", "....", "...."],
        "",
        &[unit(
            "div",
            "red",
            "Infantry",
            "Division",
            "0302",
            "strength: 6, er: 3, status: [Clearing]",
        )],
    );
    assert!(zone(&start(&s), 0).is_empty());
}

#[test]
fn next_war_entering_and_leaving_an_ezoc_cost_a_point_and_entering_ends_the_move() {
    // Blue moves along a row toward a red division at 0601 (zone: 0501, 0601).
    let units = |blue: &str| {
        vec![
            unit("b", "blue", "Infantry", "Brigade", blue, "strength: 2, er: 3"),
            unit("div", "red", "Infantry", "Division", "0601", "strength: 6, er: 3"),
        ]
    };
    let s = fixture("next-war", HEXES, "'.': \"flat\"", &["......"], "", &units("0101"));
    let mut app = start(&s);
    let r = reach(&mut app, "b");
    assert_eq!(r["0401"], (3.0, false));
    assert_eq!(r["0501"], (5.0, true), "4 flat hexes + 1 to enter the EZOC, and stop");
    // Starting in the EZOC, leaving it costs 1 more (from turn 2: in turn 1 the zone stays out of
    // a hex Blue held at the start).
    let s = fixture("next-war", HEXES, "'.': \"flat\"", &["......"], "", &units("0501"));
    let mut app = start_in_turn_2(&s);
    assert_eq!(reach(&mut app, "b")["0401"], (2.0, false));
    // With a friendly unit staying behind, leaving costs nothing extra.
    let mut with_friend = units("0501");
    with_friend.push(unit("f", "blue", "Infantry", "Brigade", "0501", "strength: 2, er: 3"));
    let s = fixture("next-war", HEXES, "'.': \"flat\"", &["......"], "", &with_friend);
    let mut app = start_in_turn_2(&s);
    assert_eq!(reach(&mut app, "b")["0401"], (1.0, false));
}

#[test]
fn next_war_moves_from_one_ezoc_straight_into_another_only_with_the_whole_allowance() {
    // Blue at 0201 is in the zone of the division at 0101; 0202 is in the zone of the one at 0303.
    let s = fixture(
        "next-war",
        HEXES,
        "'.': \"flat\"",
        &["....", "....", "....", "...."],
        "",
        &[
            unit("b", "blue", "Infantry", "Brigade", "0201", "strength: 2, er: 3"),
            unit("d1", "red", "Infantry", "Division", "0101", "strength: 6, er: 3"),
            unit("d2", "red", "Infantry", "Division", "0303", "strength: 6, er: 3"),
        ],
    );
    // From turn 2: in turn 1 the zones stay out of the hexes Blue held at the start.
    let mut app = start_in_turn_2(&s);
    let r = reach(&mut app, "b");
    assert_eq!(r["0202"], (6.0, true), "the whole allowance");
    assert_eq!(r["0301"], (2.0, false), "1 flat + 1 to leave the EZOC");
}

#[test]
fn next_war_light_infantry_alone_ignores_ezocs_except_in_flat_and_flat_woods() {
    let row = |t: char| format!("....{t}.");
    let run = |class: &str, t: char| {
        let s = fixture(
            "next-war",
            HEXES,
            "'.': \"flat\", 'r': \"rough\", 'w': \"flat-woods\"",
            &[&row(t)],
            "",
            &[
                unit("b", "blue", class, "Brigade", "0101", "strength: 2, er: 3"),
                unit("div", "red", "Infantry", "Division", "0601", "strength: 6, er: 3"),
            ],
        );
        let mut app = start(&s);
        reach(&mut app, "b").get("0501").copied()
    };
    assert_eq!(run("LightInfantry", 'r'), Some((5.0, false)), "rough: ignored");
    assert_eq!(run("Infantry", 'r'), Some((6.0, true)), "rough: +1 and stop for others");
    assert_eq!(
        run("LightInfantry", 'w'),
        Some((6.0, true)),
        "flat woods: 3 flat + 2 + 1, and stop"
    );
    assert_eq!(
        run("LightInfantry", '.'),
        Some((5.0, true)),
        "flat: bound like everyone"
    );
}

#[test]
fn the_zoc_map_follows_a_move() {
    use hexfront::game::order::Order;
    let s = fixture(
        "killing-ground",
        HEXES,
        "'.': \"clear\"",
        &["......", "......"],
        "",
        &[
            unit("us", "blue", "Infantry", "Battalion", "0101", "strength: 2"),
            unit("de", "red", "Infantry", "Battalion", "0602", "strength: 2"),
        ],
    );
    let mut app = start(&s);
    to_phase(&mut app, hexfront::game::phase::Phase::Movement);
    assert!(zoc(&app).in_enemy_zoc(cell("0102"), 1));
    give(
        &mut app,
        Order::Move {
            units: ids(&["us"]),
            to: cell("0301"),
        },
    )
    .unwrap();
    assert_eq!(at(&mut app, "us").unwrap(), "0301");
    let z = zoc(&app);
    assert!(!z.in_enemy_zoc(cell("0102"), 1), "the old zone is gone");
    assert!(z.in_enemy_zoc(cell("0401"), 1), "the new one is there");
}

#[test]
fn refreshing_the_cells_of_a_move_equals_a_full_rebuild() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for round in 0..40 {
        let grid = Grid::new(
            GridKind::Hex {
                top: hexfront::rules::grid::HexTop::Flat,
            },
            12,
            10,
        );
        let mut board = Board::new(grid, TerrainId(0));
        for c in grid.cells() {
            board.set_terrain(c, TerrainId(rng.random_range(0..3u16)));
        }
        for _ in 0..15 {
            let a = Cell::new(rng.random_range(0..12), rng.random_range(0..10));
            if let Some(b) = grid.neighbours(a).next() {
                let _ = board.add_edge_feature(a, b, EdgeFeature::River);
            }
        }
        let mut rules = ZocRules::classic(3);
        rules.min_stacking_points = 2;
        rules.min_attack = 1;
        rules.not_into = vec![false, false, true];
        rules.not_across = [EdgeFeature::River].into_iter().collect();
        let mut units: Vec<(Cell, ZocUnit)> = (0..30)
            .map(|_| {
                (
                    Cell::new(rng.random_range(0..12), rng.random_range(0..10)),
                    ZocUnit {
                        side: rng.random_range(0..2u8),
                        stacking_points: rng.random_range(1..3),
                        attack: rng.random_range(0..3),
                        suppressed: rng.random_range(0..10) == 0,
                    },
                )
            })
            .collect();
        let mut map = ZocMap::build(&board, &rules, units.iter().copied());
        for _ in 0..10 {
            let i = rng.random_range(0..units.len());
            let from = units[i].0;
            let to = Cell::new(rng.random_range(0..12), rng.random_range(0..10));
            units[i].0 = to;
            let at = |c: Cell| {
                units
                    .iter()
                    .filter(move |(u, _)| *u == c)
                    .map(|(_, z)| *z)
                    .collect::<Vec<_>>()
            };
            map.refresh_cells(&board, &rules, &[from, to], at);
            assert_eq!(
                map,
                ZocMap::build(&board, &rules, units.iter().copied()),
                "round {round}"
            );
        }
    }
}
