//! Properties of retreats on random boards, for every ruleset's retreat rules: each step one cell
//! farther from the combat, never through enemy units, never ending (or, where forbidden,
//! stepping) in an enemy ZOC without friends; carried out by the systems, no unit is ever in two
//! cells and total steps only go down.

mod common;

use bevy::prelude::*;
use common::board::*;
use hexfront::combat::Chooser;
use hexfront::game::components::{MapIndex, Position, Side, Steps};
use hexfront::game::retreat::Retreated;
use hexfront::rules::grid::Cell;
use hexfront::rules::retreat::{EzocEnd, EzocEntry};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

const W: i32 = 9;
const H: i32 = 7;

/// A random board of `ruleset` with `n` units a side; returns the app and the unit ids.
fn random_game(ruleset: &str, rng: &mut ChaCha8Rng, n: usize) -> (App, Vec<(String, usize)>) {
    let (legend, chars, class_size): (&str, &[char], (&str, &str)) = match ruleset {
        "next-war" => (
            "'.': \"flat\", 'r': \"rough\", 'm': \"marsh\", 'u': \"urban\", 'M': \"mountain\"",
            &['.', '.', '.', 'r', 'm', 'u', 'M'],
            ("Infantry", "Division"),
        ),
        "war-against-russia" => (
            "'.': \"clear\", 'f': \"forest\", 's': \"swamp\"",
            &['.', '.', 'f', 's'],
            ("Infantry", "Corps"),
        ),
        "small-general" => (
            "'.': \"grass\", 'f': \"forest\"",
            &['.', '.', 'f'],
            ("Infantry", "Regiment"),
        ),
        _ => (
            "'.': \"clear\", 'w': \"woods\", '~': \"water\"",
            &['.', '.', '.', 'w', '~'],
            ("Infantry", "Battalion"),
        ),
    };
    let rows: Vec<String> = (0..H)
        .map(|_| (0..W).map(|_| chars[rng.random_range(0..chars.len())]).collect())
        .collect();
    let row_refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut rivers = Vec::new();
    for _ in 0..6 {
        let (c, r) = (rng.random_range(1..W), rng.random_range(1..=H));
        rivers.push(format!("(\"{:02}{:02}\", \"{:02}{:02}\")", c, r, c + 1, r));
    }
    let extra = format!("edges: [(feature: River, between: [{}])]", rivers.join(", "));
    let mut units = Vec::new();
    let mut ids = Vec::new();
    let mut taken = std::collections::HashSet::new();
    for i in 0..2 * n {
        let side = i % 2;
        let label = loop {
            let (c, r) = (rng.random_range(1..=W), rng.random_range(1..=H));
            let t = rows[(r - 1) as usize].as_bytes()[(c - 1) as usize] as char;
            if "~M".contains(t) || !taken.insert((c, r)) {
                continue;
            }
            break format!("{c:02}{r:02}");
        };
        let id = format!("u{i}");
        units.push(unit(
            &id,
            ["blue", "red"][side],
            class_size.0,
            class_size.1,
            &label,
            "steps: [(attack: 3, defense: 3), (attack: 2, defense: 2), (attack: 1, defense: 1)], er: 4",
        ));
        ids.push((id, side));
    }
    let grid = if ruleset == "rommel" {
        "Square(diagonals: false)"
    } else {
        "Hex(top: Flat)"
    };
    let s = fixture(ruleset, grid, legend, &row_refs, &extra, &units);
    (start(&s), ids)
}

fn check_index(app: &mut App) {
    let index = app.world().resource::<MapIndex>().clone();
    let mut q = app.world_mut().query::<(Entity, &Position)>();
    let live: Vec<(Entity, Cell)> = q.iter(app.world()).map(|(e, p)| (e, p.0)).collect();
    let listed: usize = index.occupied().map(|(_, s)| s.len()).sum();
    assert_eq!(listed, live.len(), "every unit listed once");
    for (e, c) in live {
        assert_eq!(
            index.stack(c).iter().filter(|x| **x == e).count(),
            1,
            "{e:?} in its cell once"
        );
    }
}

fn total_steps(app: &mut App) -> usize {
    let mut q = app.world_mut().query::<&Steps>();
    q.iter(app.world()).map(|s| s.0.remaining()).sum()
}

#[test]
fn legal_retreats_keep_every_rule_on_random_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut checked, mut refused) = (0, 0);
    for ruleset in ["next-war", "war-against-russia", "killing-ground", "small-general"] {
        for round in 0..12 {
            let (mut app, ids) = random_game(ruleset, &mut rng, 6);
            let rules = app
                .world()
                .resource::<hexfront::game::components::GameMap>()
                .ruleset
                .clone();
            let grid = app.world().resource::<hexfront::game::components::GameMap>().board.grid;
            let zoc = zoc(&app);
            for (who, side) in &ids {
                let e = id(&mut app, who);
                let from = app.world().get::<Position>(e).unwrap().0;
                let opponents: Vec<&str> = ids
                    .iter()
                    .filter(|(_, s)| s != side)
                    .map(|(i, _)| i.as_str())
                    .take(1)
                    .collect();
                for length in 1..=2 {
                    let o = options(&mut app, who, length, &opponents);
                    checked += o.legal.len();
                    refused += o.illegal.len();
                    let holds = |app: &mut App, c: Cell, own: bool| {
                        let index = app.world().resource::<MapIndex>().clone();
                        index
                            .stack(c)
                            .iter()
                            .any(|x| *x != e && (app.world().get::<Side>(*x).unwrap().0 == *side) == own)
                    };
                    for p in &o.legal {
                        assert_eq!(p.cells.len() as u32, length);
                        let mut prev = from;
                        for (k, c) in p.cells.iter().enumerate() {
                            assert_eq!(
                                grid.distance(from, *c),
                                k as u32 + 1,
                                "{ruleset} {round}: each step farther"
                            );
                            assert!(grid.are_adjacent(prev, *c));
                            assert!(
                                !holds(&mut app, *c, false),
                                "{ruleset} {round}: never through enemy units"
                            );
                            let ezoc = zoc.in_enemy_zoc(*c, *side as u8) && !holds(&mut app, *c, true);
                            if rules.retreat.ezoc_entry == EzocEntry::UnlessFriendly {
                                assert!(!ezoc, "{ruleset} {round}: {who} steps into an EZOC at {c}");
                            }
                            prev = *c;
                        }
                        let end = p.end();
                        if rules.retreat.ezoc_end == EzocEnd::UnlessFriendly {
                            assert!(
                                !zoc.in_enemy_zoc(end, *side as u8) || holds(&mut app, end, true),
                                "{ruleset} {round}: {who} ends alone in an EZOC at {end}"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(
        checked > 500 && refused > 500,
        "the boards exercise the rules: {checked} legal, {refused} illegal"
    );
}

#[test]
fn retreats_carried_out_keep_the_map_consistent_and_only_take_steps() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut moved = 0;
    for ruleset in ["next-war", "war-against-russia", "killing-ground", "small-general"] {
        for round in 0..8 {
            let (mut app, ids) = random_game(ruleset, &mut rng, 5);
            for (who, side) in ids.iter().take(6) {
                if find(&mut app, who).is_none() {
                    continue;
                }
                let before = total_steps(&mut app);
                let alive: Vec<&str> = ids
                    .iter()
                    .filter(|(_, s)| s != side)
                    .map(|(i, _)| i.as_str())
                    .filter(|i| find(&mut app, i).is_some())
                    .collect();
                let enemy = &alive[..alive.len().min(1)];
                let enemy_cells: Vec<Cell> = ids
                    .iter()
                    .filter(|(_, s)| s != side)
                    .filter_map(|(i, _)| at(&mut app, i))
                    .map(|label| cell(&label))
                    .collect();
                let chooser = [Chooser::Owner, Chooser::Opponent, Chooser::Random][rng.random_range(0..3)];
                app.world_mut().resource_mut::<Messages<Retreated>>().clear();
                order_retreat(&mut app, who, rng.random_range(1..=2), chooser, enemy);
                check_index(&mut app);
                assert!(total_steps(&mut app) <= before, "{ruleset} {round}: steps only go down");
                let m = app.world().resource::<Messages<Retreated>>();
                for r in m.get_cursor().read(m) {
                    moved += usize::from(!r.path.is_empty());
                    for c in &r.path {
                        assert!(
                            !enemy_cells.contains(c),
                            "{ruleset} {round}: {who} passed through enemy units at {c}"
                        );
                    }
                }
            }
        }
    }
    assert!(moved > 40, "retreats were carried out: {moved}");
}
