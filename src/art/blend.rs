//! Soft edges between unlike terrain: along each side two cells of different terrain share, two
//! thin strips inside one of them (the one whose terrain comes later in the ruleset) shade from
//! halfway toward the other's fill back to its own, so fields, woods and hills meet as on a
//! printed map in a ramp instead of at a hard cell edge. One cell of the two draws them, so a
//! map pays for one ramp an edge. Shapes in the cell's units around its centre (y up), as
//! `terrain.rs`'s marks.

use super::{Shape, mixed};
use crate::rules::grid::{Cell, GridKind, unit_center};
use crate::rules::terrain::{Board, TerrainId};
use crate::scenario::Ruleset;

/// Each strip's depth into the cell, in units of its side, and how far toward the neighbour's
/// fill it is mixed (outer strip first); the strips start `INSET` in from the side, so the
/// subdued cell outline still shows.
const STRIP: f32 = 0.075;
const INSET: f32 = 0.025;
const MIX: [f32; 2] = [0.5, 0.25];

/// The strips of `cell` (fill `own`) along the sides it shares with `unlike` (each neighbour of
/// another terrain and that neighbour's fill). A neighbour that shares no side (a square grid's
/// diagonal) or is not adjacent gets none.
pub fn edge_blends(kind: GridKind, cell: Cell, own: [u8; 3], unlike: &[(Cell, [u8; 3])]) -> Vec<Shape> {
    let (side_apart, shorten) = match kind {
        // Hex centres are √3 apart; a side shortens by tan 30° of the depth at each end.
        GridKind::Hex { .. } => (3f32.sqrt(), 0.577),
        GridKind::Square { .. } => (1.0, 1.0),
    };
    let (cx, cy) = unit_center(kind, cell);
    let mut shapes = Vec::new();
    for (n, fill) in unlike {
        let (nx, ny) = unit_center(kind, *n);
        // Toward the neighbour, y up.
        let d = [nx - cx, -(ny - cy)];
        let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
        if (len - side_apart).abs() > 1e-3 {
            continue;
        }
        let (u, p) = ([d[0] / len, d[1] / len], [-d[1] / len, d[0] / len]);
        let mid = [d[0] / 2.0, d[1] / 2.0];
        // The side's two ends moved `t` inward.
        let at = |t: f32, end: f32| {
            let h = (0.5 - t * shorten) * end;
            [mid[0] - u[0] * t + p[0] * h, mid[1] - u[1] * t + p[1] * h]
        };
        for (k, mix) in MIX.iter().enumerate() {
            let (t0, t1) = (INSET + k as f32 * STRIP, INSET + (k + 1) as f32 * STRIP);
            shapes.push(Shape::Polygon {
                points: vec![at(t0, 1.0), at(t0, -1.0), at(t1, -1.0), at(t1, 1.0)],
                color: mixed(own, *fill, *mix),
            });
        }
    }
    shapes
}

/// The neighbours of `cell` (terrain `t`) whose edges it softens, with their fills: those of a
/// terrain earlier in the ruleset (their side of the edge stays as it is).
pub fn unlike_neighbours(board: &Board, ruleset: &Ruleset, cell: Cell, t: TerrainId) -> Vec<(Cell, [u8; 3])> {
    board
        .grid
        .neighbours(cell)
        .filter_map(|n| {
            let other = board.terrain(n).filter(|o| o.0 < t.0)?;
            Some((n, super::terrain::cell_fill(ruleset.terrain_look(other).color, n)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::HexTop;

    /// Whether `q` (cell units, y up) is inside the cell centred at the origin.
    fn inside(kind: GridKind, q: [f32; 2]) -> bool {
        match kind {
            GridKind::Hex { top } => {
                // Within the apothem along each of the three side normals.
                let start: f32 = if top == HexTop::Flat { 30.0 } else { 0.0 };
                (0..3).all(|i| {
                    let a = (start + 60.0 * i as f32).to_radians();
                    (q[0] * a.cos() + q[1] * a.sin()).abs() <= 3f32.sqrt() / 2.0 + 1e-3
                })
            }
            GridKind::Square { .. } => q[0].abs() <= 0.5 + 1e-3 && q[1].abs() <= 0.5 + 1e-3,
        }
    }

    #[test]
    fn strips_lie_inside_the_cell_along_unlike_sides_only_shading_toward_the_neighbour() {
        let grid_kinds = [
            GridKind::Hex { top: HexTop::Flat },
            GridKind::Hex { top: HexTop::Pointy },
            GridKind::Square { diagonals: false },
            GridKind::Square { diagonals: true },
        ];
        let (own, other) = ([200, 210, 150], [90, 140, 80]);
        let mut checked = 0;
        for kind in grid_kinds {
            for cell in [Cell::new(4, 4), Cell::new(5, 4), Cell::new(4, 5)] {
                let grid = crate::rules::grid::Grid {
                    kind,
                    width: 12,
                    height: 12,
                };
                let neighbours: Vec<(Cell, [u8; 3])> = grid.neighbours(cell).map(|n| (n, other)).collect();
                let shapes = edge_blends(kind, cell, own, &neighbours);
                let sides = match kind {
                    GridKind::Hex { .. } => 6,
                    GridKind::Square { .. } => 4,
                };
                assert_eq!(
                    shapes.len(),
                    2 * sides,
                    "{kind:?} {cell}: two strips a side, none on corners"
                );
                for s in &shapes {
                    let Shape::Polygon { points, color } = s else {
                        panic!("strips are polygons")
                    };
                    assert!(points.iter().all(|q| inside(kind, *q)), "{kind:?} {cell}: {points:?}");
                    for ch in 0..3 {
                        let (lo, hi) = (own[ch].min(other[ch]), own[ch].max(other[ch]));
                        assert!(color[ch] > lo && color[ch] < hi, "{color:?} between the fills");
                    }
                    checked += 1;
                }
                // No unlike neighbour: nothing drawn.
                assert!(edge_blends(kind, cell, own, &[]).is_empty());
                // A cell two away shares no side.
                assert!(edge_blends(kind, cell, own, &[(Cell::new(cell.col + 2, cell.row), other)]).is_empty());
            }
        }
        assert_eq!(checked, 3 * 2 * (6 + 6 + 4 + 4));
    }

    #[test]
    fn each_edge_between_unlike_terrain_is_softened_from_one_side() {
        let s = crate::scenario::default_scenario().unwrap();
        let (board, grid) = (&s.board, s.board.grid);
        let mut edges = 0;
        for cell in grid.cells() {
            let t = board.terrain(cell).unwrap();
            for n in grid.neighbours(cell) {
                let u = board.terrain(n).unwrap();
                let here = unlike_neighbours(board, &s.ruleset, cell, t)
                    .iter()
                    .any(|(c, _)| *c == n);
                let there = unlike_neighbours(board, &s.ruleset, n, u)
                    .iter()
                    .any(|(c, _)| *c == cell);
                assert_eq!(here || there, t != u, "{cell} {n}");
                assert!(!(here && there), "{cell} {n}: both sides");
                edges += usize::from(here);
            }
        }
        assert!(edges > 100, "{edges} unlike edges on Mortain");
    }
}
