//! The editor's edits: every tool as a pure edit over the scenario, undo and redo restoring exact
//! states over random edit sequences, saves that load back identical, resizes that keep
//! everything where it stands, and a scenario built from "New" that validates and plays.

mod common;

use hexfront::edit::resize::{Margins, resize};
use hexfront::edit::tools::*;
use hexfront::edit::{Edit, HISTORY_DEPTH, History};
use hexfront::rules::grid::{Cell, GridKind, HexTop, MapEdge};
use hexfront::rules::terrain::{CellFeature, EdgeFeature};
use hexfront::rules::units::{UnitClass, UnitSize};
use hexfront::scenario::Scenario;
use hexfront::scenario::file::{RawObjective, RawScenario, RawWin};
use hexfront::scenario::write::scenario_text;
use hexfront::source::Source;
use proptest::prelude::*;

const MORTAIN: &str = include_str!("../scenarios/mortain-1944.ron");

fn mortain() -> RawScenario {
    Scenario::from_ron_str("scenarios/mortain-1944.ron", MORTAIN)
        .unwrap()
        .raw
}

fn c(l: &str) -> Cell {
    hexfront::rules::grid::parse_label(l).unwrap()
}

/// Written out and read back (without validation: an edited scenario may be invalid).
fn round_trip(s: &RawScenario) -> RawScenario {
    let text = scenario_text(s, "// edited\n").unwrap();
    Source::new("edited.ron", &text)
        .parse::<RawScenario>()
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn a_brush_paints_its_cells_and_undo_puts_them_back() {
    let mut s = mortain();
    let before = s.clone();
    let grid = grid_of(&s);
    assert_eq!(brush(&grid, c("1010"), 1), [c("1010")]);
    assert_eq!(brush(&grid, c("1010"), 2).len(), 7);
    assert_eq!(brush(&grid, c("1010"), 3).len(), 19);
    let mut history = History::default();
    history.make(&mut s, |s| paint(s, &brush(&grid, c("1010"), 2), "marsh"));
    for cell in brush(&grid, c("1010"), 2) {
        assert_eq!(char_at(&s, cell), Some('m'), "{cell}");
    }
    assert_eq!(char_at(&s, c("1210")), char_at(&before, c("1210")));
    assert!(history.is_dirty());
    // Painting what is there already is no step at all.
    history.make(&mut s, |s| paint(s, &[c("1010")], "marsh"));
    assert_eq!(history.can_undo(), 1);
    assert!(history.undo(&mut s));
    assert_eq!(s, before);
    assert!(!history.is_dirty());
    assert!(history.redo(&mut s));
    assert_eq!(char_at(&s, c("1010")), Some('m'));
}

#[test]
fn a_terrain_not_in_the_legend_joins_it() {
    let mut s = new_scenario(GridKind::Square { diagonals: false }, 4, 3, "rommel", "clear");
    let before = s.clone();
    let edit = paint(&s, &[c("0101")], "mountain");
    edit.apply(&mut s);
    assert_eq!(legend_char(&s, "mountain"), Some('m'));
    assert_eq!(s.map.rows[0], "mccc");
    let mut h = History::default();
    let mut t = before.clone();
    h.make(&mut t, |t| paint(t, &[c("0101")], "mountain"));
    h.undo(&mut t);
    assert_eq!(t, before);
}

#[test]
fn fill_takes_the_connected_area_of_like_terrain() {
    let mut s = new_scenario(GridKind::Square { diagonals: false }, 5, 3, "rommel", "clear");
    s.map.rows = vec!["ccmcc".into(), "ccmcc".into(), "ccmcc".into()];
    s.map.legend.insert('m', "mountain".into());
    fill(&s, c("0101"), "desert").apply(&mut s);
    assert_eq!(s.map.rows, ["ddmcc", "ddmcc", "ddmcc"]);
}

#[test]
fn rivers_go_on_cell_sides_and_come_off_again() {
    let mut s = mortain();
    let before = s.clone();
    let pairs = [(c("0505"), c("0506")), (c("0506"), c("0606")), (c("0505"), c("0909"))];
    let edit = set_edges(&s, &pairs, EdgeFeature::MajorRiver, true);
    // The third pair is not adjacent: left out.
    edit.apply(&mut s);
    let group = s
        .map
        .edges
        .iter()
        .find(|e| e.feature == EdgeFeature::MajorRiver)
        .unwrap();
    assert_eq!(
        group.between,
        [("0505".to_string(), "0506".to_string()), ("0506".into(), "0606".into())]
    );
    let off = set_edges(&s, &[(c("0606"), c("0506"))], EdgeFeature::MajorRiver, false);
    off.apply(&mut s);
    let group = s
        .map
        .edges
        .iter()
        .find(|e| e.feature == EdgeFeature::MajorRiver)
        .unwrap();
    assert_eq!(group.between.len(), 1);
    set_edges(&s, &[(c("0505"), c("0506"))], EdgeFeature::MajorRiver, false).apply(&mut s);
    assert!(s.map.edges.iter().all(|e| e.feature != EdgeFeature::MajorRiver));
    let mut t = before.clone();
    let again = set_edges(&t, &pairs, EdgeFeature::MajorRiver, true);
    again.apply(&mut t).apply(&mut t);
    assert_eq!(t, before);
}

#[test]
fn roads_are_drawn_as_paths_and_cut_where_a_step_is_taken_off() {
    let mut s = new_scenario(GridKind::Square { diagonals: false }, 6, 3, "rommel", "clear");
    add_road(&s, &[c("0101"), c("0201"), c("0301"), c("0401")]).apply(&mut s);
    assert_eq!(s.map.roads, [["0101", "0201", "0301", "0401"]]);
    // A gap (not adjacent) starts a new road; one cell alone is no road.
    add_road(&s, &[c("0102"), c("0202"), c("0503"), c("0603")]).apply(&mut s);
    assert_eq!(s.map.roads.len(), 3);
    remove_road_step(&s, c("0301"), c("0201")).apply(&mut s);
    assert_eq!(s.map.roads[0], ["0101", "0201"]);
    assert_eq!(s.map.roads[1], ["0301", "0401"]);
}

#[test]
fn units_are_placed_moved_copied_and_deleted_by_id() {
    let mut s = mortain();
    let before = s.clone();
    let mut h = History::default();
    let unit = new_unit(&s, "us", UnitClass::Infantry, UnitSize::Battalion, c("0303"));
    assert_eq!(unit.id, "us-infantry");
    h.make(&mut s, |s| place_unit(s, unit.clone()));
    h.make(&mut s, |s| place_unit(s, unit));
    assert_eq!(units_in(&s, c("0303")), ["us-infantry", "us-infantry-2"]);
    h.make(&mut s, |s| {
        move_units(s, &["us-infantry".into(), "us-120".into()], c("0404"))
    });
    assert_eq!(units_in(&s, c("0404")), ["us-120", "us-infantry"]);
    h.make(&mut s, |s| {
        copy_units(s, &["us-120".into(), "us-117".into()], c("0505"))
    });
    assert_eq!(units_in(&s, c("0505")), ["us-120-2", "us-117-2"]);
    h.make(&mut s, |s| delete_units(s, &["us-120".into(), "us-infantry-2".into()]));
    assert!(s.units.iter().all(|u| u.id != "us-120" && u.id != "us-infantry-2"));
    // The hand-written units keep their order.
    let order: Vec<&str> = s.units.iter().map(|u| u.id.as_str()).take(3).collect();
    assert_eq!(order, ["us-2-120", "us-117", "us-119"]);
    let mut renamed = s.units[0].clone();
    renamed.name = "Lost Battalion".into();
    renamed.movement = 3.0;
    h.make(&mut s, |s| update_unit(s, "us-2-120", renamed));
    assert_eq!((s.units[0].name.as_str(), s.units[0].movement), ("Lost Battalion", 3.0));
    while h.undo(&mut s) {}
    assert_eq!(s, before);
}

#[test]
fn places_features_and_objectives_are_set_and_cleared() {
    let mut s = mortain();
    let before = s.clone();
    let mut h = History::default();
    h.make(&mut s, |s| name_place(s, c("0303"), "Ger"));
    assert_eq!(s.map.places["0303"], "Ger");
    h.make(&mut s, |s| name_place(s, c("1012"), ""));
    assert!(!s.map.places.contains_key("1012"));
    h.make(&mut s, |s| toggle_feature(s, c("0303"), CellFeature::Town));
    h.make(&mut s, |s| toggle_feature(s, c("0303"), CellFeature::Fortification));
    assert_eq!(s.map.features["0303"], [CellFeature::Town, CellFeature::Fortification]);
    let objective = RawObjective {
        cell: String::new(),
        name: "Ger".into(),
        points: 2,
        held_by: Some("german".into()),
    };
    h.make(&mut s, |s| set_objective(s, c("0303"), Some(objective)));
    assert_eq!(s.objectives.last().unwrap().cell, "0303");
    h.make(&mut s, |s| set_objective(s, c("1012"), None));
    assert!(s.objectives.iter().all(|o| o.cell != "1012"));
    while h.undo(&mut s) {}
    assert_eq!(s, before);
}

#[test]
fn a_resize_keeps_everything_where_it_stands() {
    let s = mortain();
    let grown = {
        let mut t = s.clone();
        resize(
            &s,
            Margins {
                left: 2,
                right: 1,
                top: 1,
                bottom: 0,
            },
            "clear",
        )
        .unwrap()
        .apply(&mut t);
        t
    };
    assert_eq!((grown.map.width, grown.map.height), (27, 19));
    // Mortain (1012) is now at 1213; its town, its objective, the US regiment there, its name.
    assert_eq!(char_at(&grown, c("1213")), char_at(&s, c("1012")));
    assert_eq!(grown.map.places["1213"], "Mortain");
    assert!(grown.objectives.iter().any(|o| o.cell == "1213" && o.name == "Mortain"));
    assert!(grown.units.iter().any(|u| u.id == "us-120" && u.cell == "1213"));
    assert_eq!(char_at(&grown, c("0101")), Some('.'));
    assert_eq!(grown.map.roads[0][0], "0309");
    // It still validates, with every river and road where it was.
    let text = scenario_text(&grown, "").unwrap();
    Scenario::from_ron_str("grown.ron", &text).unwrap();
    // A flat-topped map gains columns on the left two at a time.
    let e = resize(
        &s,
        Margins {
            left: 1,
            ..Margins::default()
        },
        "clear",
    )
    .unwrap_err();
    assert!(e.contains("two at a time"), "{e}");
    // Shrinking drops what falls off: the Germans east of column 20 are gone, nothing else.
    let mut shrunk = s.clone();
    resize(
        &s,
        Margins {
            right: -5,
            ..Margins::default()
        },
        "clear",
    )
    .unwrap()
    .apply(&mut shrunk);
    assert_eq!(shrunk.map.width, 19);
    assert!(shrunk.units.iter().all(|u| u.cell.as_str() < "2000"));
    assert_eq!(
        shrunk.units.len(),
        s.units.iter().filter(|u| u.cell.as_str() < "2000").count()
    );
    assert!(
        resize(
            &s,
            Margins {
                left: -24,
                ..Margins::default()
            },
            "clear"
        )
        .is_err()
    );
}

#[test]
fn the_history_goes_back_its_depth_and_knows_when_it_matches_the_file() {
    let mut s = new_scenario(GridKind::Square { diagonals: true }, 3, 3, "rommel", "clear");
    let mut h = History::default();
    for i in 0..HISTORY_DEPTH + 5 {
        let turns = i as u32 + 1;
        h.make(&mut s, |s| {
            Edit::Properties(Box::new(hexfront::edit::Properties {
                turns,
                ..hexfront::edit::Properties::of(s)
            }))
        });
    }
    assert_eq!(h.can_undo(), HISTORY_DEPTH);
    h.saved();
    assert!(!h.is_dirty());
    h.undo(&mut s);
    assert!(h.is_dirty());
    h.redo(&mut s);
    assert!(!h.is_dirty());
    h.undo(&mut s);
    // A new edit after undoing past the save: the saved state is gone for good.
    h.make(&mut s, |s| {
        Edit::Properties(Box::new(hexfront::edit::Properties {
            turns: 99,
            ..hexfront::edit::Properties::of(s)
        }))
    });
    h.undo(&mut s);
    h.undo(&mut s);
    h.redo(&mut s);
    assert!(h.is_dirty());
}

/// Builds the small scenario from "New": a 12×10 map, a river, a road, two units a side,
/// an objective; it validates, and a game of it plays a turn.
#[test]
fn a_scenario_built_from_new_validates_and_plays() {
    let mut s = new_scenario(GridKind::Hex { top: HexTop::Flat }, 12, 10, "killing-ground", "clear");
    let mut h = History::default();
    let grid = grid_of(&s);
    h.make(&mut s, |s| paint(s, &brush(&grid, c("0405"), 2), "woods"));
    let river: Vec<(Cell, Cell)> = (1..=10)
        .map(|r| (c(&format!("06{r:02}")), c(&format!("07{r:02}"))))
        .collect();
    h.make(&mut s, |s| set_edges(s, &river, EdgeFeature::River, true));
    let road: Vec<Cell> = (1..=12).map(|col| c(&format!("{col:02}05"))).collect();
    h.make(&mut s, |s| add_road(s, &road));
    for (side, cells) in [("blue", ["0204", "0206"]), ("red", ["1104", "1106"])] {
        for cell in cells {
            let unit = new_unit(&s, side, UnitClass::Infantry, UnitSize::Regiment, c(cell));
            h.make(&mut s, |s| place_unit(s, unit));
        }
    }
    let objective = RawObjective {
        cell: String::new(),
        name: "Bridge town".into(),
        points: 3,
        held_by: Some("red".into()),
    };
    h.make(&mut s, |s| set_objective(s, c("0705"), Some(objective)));
    h.make(&mut s, |s| name_place(s, c("0705"), "Bridge town"));
    let mut properties = hexfront::edit::Properties::of(&s);
    properties.win = vec![RawWin {
        side: "blue".into(),
        hold: vec!["0705".into()],
        points: None,
        more_points: false,
        sudden_death: false,
        lead: None,
        level: None,
    }];
    properties.otherwise = Some("red".into());
    h.apply(&mut s, Edit::Properties(Box::new(properties)));
    assert_eq!(s.sides[0].home_edge, Some(MapEdge::West));
    let text = scenario_text(&s, "").unwrap();
    let scenario = Scenario::from_ron_str("built.ron", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(scenario.units.len(), 4);
    assert_eq!(round_trip(&s), s);
    let mut app = common::board::start(&scenario);
    let turn = |app: &bevy::app::App| app.world().resource::<hexfront::game::phase::TurnState>().turn;
    for _ in 0..20 {
        if turn(&app) == 2 {
            break;
        }
        common::board::give(&mut app, hexfront::game::order::Order::EndPhase).unwrap();
    }
    assert_eq!(turn(&app), 2);
}

/// One random thing a designer does.
#[derive(Clone, Debug)]
enum Op {
    Paint(u8, u8, u8, u8),
    Fill(u8, u8, u8),
    Edge(u8, u8, u8, u8, bool),
    Road(u8, u8, u8),
    Place(u8, u8, bool),
    Feature(u8, u8, u8),
    Objective(u8, u8, bool),
    NewUnit(u8, u8, u8),
    Move(u8, u8, u8),
    Copy(u8, u8, u8),
    Delete(u8),
    Resize(i8, i8, i8, i8),
    Turns(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (any::<u8>(), any::<u8>(), any::<u8>(), 1u8..4).prop_map(|(a, b, t, n)| Op::Paint(a, b, t, n)),
        (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(a, b, t)| Op::Fill(a, b, t)),
        (any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>(), any::<bool>())
            .prop_map(|(a, b, d, f, p)| Op::Edge(a, b, d, f, p)),
        (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(a, b, d)| Op::Road(a, b, d)),
        (any::<u8>(), any::<u8>(), any::<bool>()).prop_map(|(a, b, p)| Op::Place(a, b, p)),
        (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(a, b, f)| Op::Feature(a, b, f)),
        (any::<u8>(), any::<u8>(), any::<bool>()).prop_map(|(a, b, p)| Op::Objective(a, b, p)),
        (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(a, b, k)| Op::NewUnit(a, b, k)),
        (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(u, a, b)| Op::Move(u, a, b)),
        (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(u, a, b)| Op::Copy(u, a, b)),
        any::<u8>().prop_map(Op::Delete),
        (-2i8..3, -2i8..3, -2i8..3, -2i8..3).prop_map(|(l, r, t, b)| Op::Resize(l, r, t, b)),
        (1u8..30).prop_map(Op::Turns),
    ]
}

fn edit_for(s: &RawScenario, op: &Op) -> Edit {
    let grid = grid_of(s);
    let at = |a: u8, b: u8| Cell::new(a as i32 % grid.width as i32, b as i32 % grid.height as i32);
    let terrains: Vec<String> = s.map.legend.values().cloned().chain(["hills".to_string()]).collect();
    // One to three units, from the u-th on.
    let unit_ids = |u: u8| -> Vec<String> {
        let n = s.units.len().max(1);
        (0..1 + u as usize % 3)
            .filter_map(|k| s.units.get((u as usize + k * 7) % n).map(|x| x.id.clone()))
            .collect()
    };
    match *op {
        Op::Paint(a, b, t, n) => paint(
            s,
            &brush(&grid, at(a, b), n as u32),
            &terrains[t as usize % terrains.len()],
        ),
        Op::Fill(a, b, t) => fill(s, at(a, b), &terrains[t as usize % terrains.len()]),
        Op::Edge(a, b, d, f, present) => {
            let from = at(a, b);
            let to = grid.step(from, hexfront::rules::grid::Direction(d % 6));
            let feature = EdgeFeature::ALL[f as usize % EdgeFeature::ALL.len()];
            set_edges(s, &[(from, to)], feature, present)
        }
        Op::Road(a, b, d) => {
            let start = at(a, b);
            let dir = hexfront::rules::grid::Direction(d % 6);
            let next = grid.step(start, dir);
            add_road(s, &[start, next, grid.step(next, dir)])
        }
        Op::Place(a, b, named) => name_place(s, at(a, b), if named { "Somewhere 'quoted' \"too\"" } else { "" }),
        Op::Feature(a, b, f) => {
            let all = [
                CellFeature::Town,
                CellFeature::City,
                CellFeature::Fortification,
                CellFeature::Airbase,
            ];
            toggle_feature(s, at(a, b), all[f as usize % all.len()])
        }
        Op::Objective(a, b, on) => set_objective(
            s,
            at(a, b),
            on.then(|| RawObjective {
                cell: String::new(),
                name: format!("Objective {a}"),
                points: b as u32 % 5,
                held_by: None,
            }),
        ),
        Op::NewUnit(a, b, k) => {
            let side = &s.sides[k as usize % s.sides.len()].id;
            place_unit(s, new_unit(s, side, UnitClass::Armor, UnitSize::Battalion, at(a, b)))
        }
        Op::Move(u, a, b) => move_units(s, &unit_ids(u), at(a, b)),
        Op::Copy(u, a, b) => copy_units(s, &unit_ids(u), at(a, b)),
        Op::Delete(u) => delete_units(s, &unit_ids(u)),
        Op::Resize(l, r, t, b) => {
            let m = Margins {
                left: l as i32 * 2,
                right: r as i32,
                top: t as i32,
                bottom: b as i32,
            };
            resize(s, m, "clear").unwrap_or(Edit::Batch(vec![]))
        }
        Op::Turns(n) => Edit::Properties(Box::new(hexfront::edit::Properties {
            turns: n as u32,
            ..hexfront::edit::Properties::of(s)
        })),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any sequence of edits: undoing them all gives back the exact scenario, redoing them all
    /// the exact edited one, each step of the way; and the edited scenario saved and loaded is
    /// identical.
    #[test]
    fn undo_and_redo_restore_exact_states_and_saves_round_trip(ops in prop::collection::vec(op(), 1..25)) {
        let start = mortain();
        let mut s = start.clone();
        let mut history = History::default();
        let mut states = vec![s.clone()];
        for op in &ops {
            let edit = edit_for(&s, op);
            let empty = edit.is_empty();
            history.apply(&mut s, edit);
            if !empty {
                states.push(s.clone());
            }
        }
        prop_assert_eq!(history.can_undo(), states.len() - 1);
        prop_assert_eq!(round_trip(&s), s.clone());
        let end = s.clone();
        for expected in states.iter().rev().skip(1) {
            prop_assert!(history.undo(&mut s));
            prop_assert_eq!(&s, expected);
        }
        prop_assert!(!history.undo(&mut s));
        prop_assert_eq!(&s, &start);
        while history.redo(&mut s) {}
        prop_assert_eq!(s, end);
    }
}

#[test]
fn renaming_a_side_renames_it_wherever_it_is_named() {
    let mut s = mortain();
    let before = s.clone();
    let mut h = History::default();
    h.make(&mut s, |s| rename_side(s, "us", "usa"));
    assert_eq!(s.sides[1].id, "usa");
    assert!(s.units.iter().all(|u| u.side != "us"));
    assert_eq!(
        s.units.iter().filter(|u| u.side == "usa").count(),
        before.units.iter().filter(|u| u.side == "us").count()
    );
    assert!(s.objectives.iter().all(|o| o.held_by.as_deref() == Some("usa")));
    assert_eq!(s.otherwise.as_deref(), Some("usa"));
    Scenario::from_ron_str("renamed.ron", &scenario_text(&s, "").unwrap()).unwrap();
    h.undo(&mut s);
    assert_eq!(s, before);
}

#[test]
fn terrain_a_new_ruleset_lacks_is_replaced_and_a_terrain_painted_over_leaves_the_legend() {
    // A Killing Ground map moved to Small General: `clear` is not a Small General terrain.
    let mut s = new_scenario(GridKind::Hex { top: HexTop::Flat }, 4, 3, "small-general", "clear");
    assert!(Scenario::from_ron_str("x.ron", &scenario_text(&s, "").unwrap()).is_err());
    replace_terrain(&s, "clear", "grass").apply(&mut s);
    assert_eq!(s.map.legend.values().collect::<Vec<_>>(), ["grass"]);
    Scenario::from_ron_str("x.ron", &scenario_text(&s, "").unwrap()).unwrap();
    // Painting every cell with another terrain drops the old one from the legend.
    let mut t = new_scenario(GridKind::Hex { top: HexTop::Flat }, 4, 3, "small-general", "clear");
    let all: Vec<Cell> = grid_of(&t).cells().collect();
    paint(&t, &all, "grass").apply(&mut t);
    assert_eq!(t.map.legend.values().collect::<Vec<_>>(), ["grass"]);
    Scenario::from_ron_str("x.ron", &scenario_text(&t, "").unwrap()).unwrap();
    // Merging into a terrain the legend has already.
    let mut u = mortain();
    let woods = u.map.rows.iter().map(|r| r.matches('f').count()).sum::<usize>();
    let hills = u.map.rows.iter().map(|r| r.matches('h').count()).sum::<usize>();
    replace_terrain(&u, "woods", "hills").apply(&mut u);
    assert!(legend_char(&u, "woods").is_none());
    assert_eq!(
        u.map.rows.iter().map(|r| r.matches('h').count()).sum::<usize>(),
        woods + hills
    );
}

#[test]
fn typing_into_one_field_is_one_undo_step() {
    let mut s = mortain();
    let before = s.clone();
    let mut h = History::default();
    for name in ["L", "Lo", "Los", "Lost"] {
        let mut u = s.units[0].clone();
        u.name = name.into();
        let edit = update_unit(&s, "us-2-120", u);
        h.apply_joining(&mut s, edit, "unit us-2-120");
    }
    assert_eq!(h.can_undo(), 1);
    h.make(&mut s, |s| name_place(s, c("0101"), "Here"));
    assert_eq!(h.can_undo(), 2);
    h.undo(&mut s);
    h.undo(&mut s);
    assert_eq!(s, before);
}

#[test]
fn after_a_save_typing_is_a_step_of_its_own_and_undo_comes_back_to_the_saved_state() {
    let mut s = mortain();
    let mut h = History::default();
    let typed = |s: &RawScenario, name: &str| name_place(s, c("0101"), name);
    let e = typed(&s, "Ab");
    h.apply_joining(&mut s, e, "field");
    h.saved();
    let saved = s.clone();
    let e = typed(&s, "Abc");
    h.apply_joining(&mut s, e, "field");
    assert!(h.is_dirty());
    h.undo(&mut s);
    assert_eq!(s, saved);
    assert!(!h.is_dirty());
}

#[test]
fn a_place_name_keeps_its_spaces_while_typed_and_a_blank_one_clears_it() {
    let mut s = mortain();
    name_place(&s, c("0101"), "Hill ").apply(&mut s);
    assert_eq!(s.map.places["0101"], "Hill ");
    name_place(&s, c("0101"), "   ").apply(&mut s);
    assert!(!s.map.places.contains_key("0101"));
}

#[test]
fn a_new_terrain_never_takes_a_legend_character_in_use() {
    // Every letter of `water` and `~` already stand for other terrain.
    let mut s = new_scenario(GridKind::Square { diagonals: false }, 3, 2, "rommel", "clear");
    for (ch, id) in [
        ('w', "a"),
        ('W', "b"),
        ('a', "c"),
        ('A', "d"),
        ('t', "e"),
        ('T', "f"),
        ('e', "g"),
        ('E', "h"),
        ('r', "i"),
        ('R', "j"),
        ('~', "k"),
    ] {
        s.map.legend.insert(ch, id.into());
    }
    let before = s.map.legend.clone();
    let mut grown = s.clone();
    resize(
        &s,
        Margins {
            right: 1,
            ..Margins::default()
        },
        "water",
    )
    .unwrap()
    .apply(&mut grown);
    for (ch, id) in &before {
        assert_eq!(grown.map.legend.get(ch), Some(id), "{ch} was taken over");
    }
    let new = legend_char(&grown, "water").unwrap();
    assert!(!before.contains_key(&new));
    assert!(grown.map.rows.iter().all(|r| r.ends_with(new)));
}
