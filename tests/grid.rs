//! Geometry of both grids: neighbours, distance, direction, rings, lines, edges and labels.

use hexfront::rules::grid::*;

const FLAT: GridKind = GridKind::Hex { top: HexTop::Flat };
const POINTY: GridKind = GridKind::Hex { top: HexTop::Pointy };
const SQ4: GridKind = GridKind::Square { diagonals: false };
const SQ8: GridKind = GridKind::Square { diagonals: true };

fn sorted(mut v: Vec<Cell>) -> Vec<Cell> {
    v.sort();
    v
}

#[test]
fn flat_hex_odd_columns_sit_half_a_hex_lower() {
    let g = Grid::new(FLAT, 10, 10);
    // Column 2 (index 1) is odd: 0201 touches 0101 and 0102 on its left, 0301 and 0302 on its right.
    let n = sorted(g.neighbours(Cell::new(1, 0)).collect());
    assert_eq!(
        n,
        sorted(vec![
            Cell::new(0, 0),
            Cell::new(0, 1),
            Cell::new(1, 1),
            Cell::new(2, 0),
            Cell::new(2, 1)
        ])
    );
    // An even column: 0302 touches 0201, 0202 on the left (they sit lower... and higher).
    let n = sorted(g.neighbours(Cell::new(2, 1)).collect());
    assert_eq!(
        n,
        sorted(vec![
            Cell::new(1, 0),
            Cell::new(1, 1),
            Cell::new(2, 0),
            Cell::new(2, 2),
            Cell::new(3, 0),
            Cell::new(3, 1)
        ])
    );
}

#[test]
fn pointy_hex_odd_rows_sit_half_a_hex_right() {
    let g = Grid::new(POINTY, 10, 10);
    let n = sorted(g.neighbours(Cell::new(0, 1)).collect());
    assert_eq!(
        n,
        sorted(vec![
            Cell::new(0, 0),
            Cell::new(1, 0),
            Cell::new(1, 1),
            Cell::new(0, 2),
            Cell::new(1, 2)
        ])
    );
}

#[test]
fn neighbours_are_symmetric_and_at_distance_one_on_every_grid() {
    for kind in [FLAT, POINTY, SQ4, SQ8] {
        let g = Grid::new(kind, 9, 7);
        for c in g.cells() {
            for n in g.neighbours(c) {
                assert!(g.neighbours(n).any(|m| m == c), "{kind:?}: {n} does not list {c}");
                assert_eq!(g.distance(c, n), 1);
                let dir = g.direction(c, n).expect("adjacent cells have a direction");
                assert_eq!(g.step(c, dir), n);
            }
        }
        // An interior cell has the full count.
        assert_eq!(g.neighbours(Cell::new(4, 3)).count(), kind.directions());
    }
}

#[test]
fn distances_on_each_grid() {
    let (a, b) = (Cell::new(0, 0), Cell::new(3, 0));
    assert_eq!(Grid::new(FLAT, 10, 10).distance(a, b), 3);
    assert_eq!(Grid::new(FLAT, 10, 10).distance(Cell::new(0, 0), Cell::new(0, 4)), 4);
    // Flat hex: moving 4 columns right also moves 2 rows down for free.
    assert_eq!(Grid::new(FLAT, 10, 10).distance(Cell::new(0, 0), Cell::new(4, 2)), 4);
    assert_eq!(Grid::new(SQ4, 10, 10).distance(Cell::new(1, 1), Cell::new(4, 5)), 7);
    assert_eq!(Grid::new(SQ8, 10, 10).distance(Cell::new(1, 1), Cell::new(4, 5)), 4);
}

#[test]
fn rings_have_the_classic_sizes_and_ranges_add_up() {
    for (kind, per_ring) in [(FLAT, 6), (POINTY, 6), (SQ4, 4), (SQ8, 8)] {
        let g = Grid::new(kind, 30, 30);
        let c = Cell::new(15, 15);
        assert_eq!(g.ring(c, 0), vec![c]);
        for r in 1..=4 {
            let ring = g.ring(c, r);
            assert_eq!(ring.len(), per_ring * r as usize, "{kind:?} ring {r}");
            assert!(ring.iter().all(|x| g.distance(c, *x) == r));
        }
        let range = g.range(c, 3);
        assert_eq!(range.len(), 1 + per_ring * 6);
    }
    // Rings are clipped at the map edge.
    let g = Grid::new(SQ4, 5, 5);
    assert_eq!(g.ring(Cell::new(0, 0), 1).len(), 2);
}

#[test]
fn lines_are_chains_of_neighbours() {
    for kind in [FLAT, POINTY, SQ4, SQ8] {
        let g = Grid::new(kind, 20, 20);
        for (a, b) in [
            (Cell::new(1, 1), Cell::new(12, 7)),
            (Cell::new(15, 2), Cell::new(3, 18)),
            (Cell::new(5, 5), Cell::new(5, 5)),
        ] {
            let line = g.line(a, b);
            assert_eq!(line.first(), Some(&a));
            assert_eq!(line.last(), Some(&b));
            assert_eq!(
                line.len() as u32,
                g.distance(a, b) + 1,
                "{kind:?} {a}->{b}: a line is a shortest path"
            );
            for w in line.windows(2) {
                assert!(
                    g.are_adjacent(w[0], w[1]),
                    "{kind:?}: {} and {} not adjacent",
                    w[0],
                    w[1]
                );
            }
        }
    }
}

#[test]
fn edges_are_the_same_from_both_sides() {
    let g = Grid::new(FLAT, 5, 5);
    let (a, b) = (Cell::new(1, 1), Cell::new(2, 1));
    assert_eq!(Edge::new(a, b), Edge::new(b, a));
    let dir = g.direction(a, b).unwrap();
    assert_eq!(g.edge(a, dir), Edge::new(b, a));
}

#[test]
fn labels_both_ways() {
    assert_eq!(label(Cell::new(3, 11)), "0412");
    assert_eq!(parse_label("0412"), Ok(Cell::new(3, 11)));
    assert_eq!(label(Cell::new(103, 98)), "104099");
    assert_eq!(parse_label("104099"), Ok(Cell::new(103, 98)));
    for bad in ["412", "04a2", "0012", "", "1234567"] {
        assert!(parse_label(bad).is_err(), "{bad} should not parse");
    }
    let g = Grid::new(SQ8, 12, 12);
    for c in g.cells() {
        assert_eq!(parse_label(&label(c)), Ok(c));
    }
}
