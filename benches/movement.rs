//! Movement search speed: every reachable cell for one unit, as the GUI computes on each
//! selection and the AI will for every unit. Targets in the issue notes; numbers in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use hexfront::rules::grid::{Cell, Grid, GridKind, HexTop};
use hexfront::rules::movement::{Blocked, EdgeCrossing, MovementRules, adjacent_zoc, reachable};
use hexfront::rules::terrain::{Board, EdgeFeature, Mobility, Mp, TerrainId};
use std::hint::black_box;

/// A 200×200 flat-hex map with a terrain mix, a river every 25 columns and a road every 20 rows.
fn big_board() -> (Board, MovementRules) {
    let grid = Grid::new(GridKind::Hex { top: HexTop::Flat }, 200, 200);
    let mut board = Board::new(grid, TerrainId(0));
    for c in grid.cells() {
        let t = ((c.col * 7 + c.row * 13) % 10) as u16;
        board.set_terrain(
            c,
            TerrainId(if t < 6 {
                0
            } else if t < 9 {
                1
            } else {
                2
            }),
        );
    }
    for row in 0..200 {
        for col in (12..200).step_by(25) {
            let _ = board.add_edge_feature(Cell::new(col, row), Cell::new(col + 1, row), EdgeFeature::River);
        }
    }
    for row in (5..200).step_by(20) {
        for col in 0..199 {
            let _ = board.add_edge_feature(Cell::new(col, row), Cell::new(col + 1, row), EdgeFeature::Road);
        }
    }
    let whole = |p: u32| Some(Mp::whole(p));
    let rules = MovementRules {
        terrain: vec![
            ("Clear".into(), [whole(1), whole(1), whole(1)]),
            ("Woods".into(), [whole(2), whole(3), whole(2)]),
            ("Marsh".into(), [whole(3), None, None]),
        ],
        edges: {
            let mut e = [EdgeCrossing::NoEffect; 7];
            e[EdgeFeature::River as usize] = EdgeCrossing::Add(Mp::whole(1));
            e
        },
        road: [Mp::from_f32(0.5); 3],
    };
    (board, rules)
}

fn bench(c: &mut Criterion) {
    let (board, rules) = big_board();
    let enemies: Vec<Cell> = (0..2000).map(|i| Cell::new((i * 37) % 200, (i * 91) % 200)).collect();
    let zoc = adjacent_zoc(&board.grid, enemies.iter().copied());
    // A cell clear of the enemy's zones of control, so the search has room to run.
    let start = (0..200)
        .map(|c| Cell::new(c, 100))
        .find(|c| !zoc.contains(c))
        .expect("an open cell");
    let enemy_set: rustc_hash::FxHashSet<Cell> = enemies.iter().copied().collect();
    let fast_cost = |a: Cell, b: Cell| {
        if enemy_set.contains(&b) {
            return Err(Blocked::EnemyUnits);
        }
        rules.step_cost(&board, a, b, Mobility::Mechanized)
    };
    let with_enemies = |r: Mp| reachable(&board.grid, black_box(start), r, true, fast_cost, |x| zoc.contains(&x));
    let open = |r: Mp| {
        reachable(
            &board.grid,
            black_box(start),
            r,
            true,
            |a, b| rules.step_cost(&board, a, b, Mobility::Motorized),
            |_| false,
        )
    };
    for mp in [8, 20] {
        let n = with_enemies(Mp::whole(mp)).len();
        c.bench_function(
            &format!("reachable: {mp} MP mechanized among 2000 enemy units, 200x200 ({n} cells reached)"),
            |b| b.iter(|| with_enemies(Mp::whole(mp))),
        );
        let n = open(Mp::whole(mp)).len();
        c.bench_function(
            &format!("reachable: {mp} MP motorized, no enemies, 200x200 ({n} cells reached)"),
            |b| b.iter(|| open(Mp::whole(mp))),
        );
    }
    c.bench_function("zoc: 2000 enemy units on 200x200", |b| {
        b.iter(|| adjacent_zoc(&board.grid, black_box(&enemies).iter().copied()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
