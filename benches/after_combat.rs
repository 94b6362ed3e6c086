//! After-combat speed: every legal retreat path for a 3-unit stack, and the zone-of-control map
//! refresh after one move, on a 200×200 hex map holding 2,000 units under Next War's rules (the
//! most involved: stacking-point projection, terrain and river limits, ER-check EZOCs).
//! Targets (issue 4): retreat paths ≤ 100 µs median, ZOC refresh ≤ 1 ms.

use criterion::{Criterion, criterion_group, criterion_main};
use hexfront::rules::grid::{Cell, Grid, GridKind, HexTop, MapEdge};
use hexfront::rules::retreat::{Friends, RetreatWorld, Retreater, legal_retreats};
use hexfront::rules::terrain::{Board, EdgeFeature, Mobility, TerrainId};
use hexfront::rules::zoc::{ZocMap, ZocUnit};
use hexfront::scenario::Ruleset;
use std::hint::black_box;

const SIZE: i32 = 200;

fn board(r: &Ruleset) -> Board {
    let grid = Grid::new(GridKind::Hex { top: HexTop::Flat }, SIZE as u32, SIZE as u32);
    let t = |id: &str| r.terrain_ids[id];
    let mix = [
        t("flat"),
        t("flat"),
        t("flat"),
        t("flat-woods"),
        t("rough"),
        t("marsh"),
        t("urban"),
        t("mountain"),
    ];
    let mut board = Board::new(grid, TerrainId(0));
    for c in grid.cells() {
        board.set_terrain(c, mix[((c.col * 7 + c.row * 13) % mix.len() as i32) as usize]);
    }
    for row in 0..SIZE {
        for col in (12..SIZE).step_by(25) {
            let _ = board.add_edge_feature(Cell::new(col, row), Cell::new(col + 1, row), EdgeFeature::River);
        }
    }
    board
}

/// 2,000 units: 1,000 a side, scattered; divisions (3 stacking points) so that most project.
fn units() -> Vec<(Cell, ZocUnit)> {
    (0..2000)
        .map(|i| {
            (
                Cell::new((i * 37) % SIZE, (i * 91 + i / 200) % SIZE),
                ZocUnit {
                    side: (i % 2) as u8,
                    stacking_points: if i % 3 == 0 { 1 } else { 3 },
                    attack: 4,
                    suppressed: false,
                },
            )
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let rules = Ruleset::builtin("next-war").unwrap().unwrap();
    let board = board(&rules);
    let mut all = units();
    // The retreating stack: three blue brigades at the centre, attacked from the east.
    let stack = Cell::new(100, 100);
    let attacker = Cell::new(101, 100);
    all.retain(|(c, _)| board.grid.distance(*c, stack) > 1);
    for _ in 0..3 {
        all.push((
            stack,
            ZocUnit {
                side: 0,
                stacking_points: 1,
                attack: 2,
                suppressed: false,
            },
        ));
    }
    all.push((
        attacker,
        ZocUnit {
            side: 1,
            stacking_points: 3,
            attack: 6,
            suppressed: false,
        },
    ));
    // A red division two hexes west, so some paths cross its zone.
    all.push((
        Cell::new(98, 100),
        ZocUnit {
            side: 1,
            stacking_points: 3,
            attack: 6,
            suppressed: false,
        },
    ));
    let zoc = ZocMap::build(&board, &rules.zoc, all.iter().copied());
    let mut friendly = vec![Friends::default(); board.grid.cell_count()];
    for (c, u) in &all {
        if u.side == 0 {
            let f = &mut friendly[board.grid.index(*c).unwrap()];
            f.units += 1;
            f.stacking += u.stacking_points;
        }
    }
    let friends = |c: Cell| board.grid.index(c).map_or(Friends::default(), |i| friendly[i]);
    let attackers = [attacker];
    let world = RetreatWorld {
        board: &board,
        movement: &rules.movement,
        stacking: &rules.stacking,
        zoc_rules: &rules.zoc,
        zoc: &zoc,
        rules: &rules.retreat,
        friends: &friends,
        attackers: &attackers,
        attackers_came_from: &[],
        enemy_installation: &|_| false,
    };
    let retreaters = [Mobility::Foot, Mobility::Motorized, Mobility::Mechanized].map(|mobility| Retreater {
        side: 0,
        mobility,
        light_infantry: false,
        stacking_points: 1,
        home_edge: Some(MapEdge::West),
        came_from: None,
    });
    let legal: usize = retreaters
        .iter()
        .map(|r| legal_retreats(&world, r, stack, 2).legal.len())
        .sum();
    c.bench_function(
        &format!("retreat: all 2-hex paths for a 3-unit stack, 200x200, 2000 units ({legal} legal)"),
        |b| {
            b.iter(|| {
                retreaters
                    .iter()
                    .map(|r| legal_retreats(&world, r, black_box(stack), 2))
                    .collect::<Vec<_>>()
            })
        },
    );
    c.bench_function("zoc: full rebuild, 200x200, 2000 units (Next War rules)", |b| {
        b.iter(|| ZocMap::build(&board, &rules.zoc, black_box(&all).iter().copied()))
    });
    // One move: a red division steps one hex; refresh the two cells (what the AI does per
    // candidate move) — the game's system rebuilds fully, measured above.
    let mover = all.len() - 1;
    let (from, to) = (all[mover].0, Cell::new(97, 100));
    let mut moved = all.clone();
    moved[mover].0 = to;
    let at = |c: Cell| {
        moved
            .iter()
            .filter(move |(u, _)| *u == c)
            .map(|(_, z)| *z)
            .collect::<Vec<_>>()
    };
    c.bench_function("zoc: refresh the two cells of one move, 200x200, 2000 units", |b| {
        let mut map = zoc.clone();
        b.iter(|| map.refresh_cells(&board, &rules.zoc, black_box(&[from, to]), at))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
