//! A cell's terrain as art, varied per cell from its column and row (seeded, stable: the same
//! cell always looks the same): the fill's tone, and marks that read at a glance and look
//! printed — woods as clumps of shaded crowns, towns as clusters of roofs along a street, hills
//! lit from the north-west, peaks with a lit and a shaded face, crooked hedgerows, marsh reeds,
//! waves, dunes, tufts of grass. The terrain's colour is the ruleset's (the colour-blind palette
//! is kept); the marks only shade it.

use super::{Shape, mixed, scaled};
use crate::rules::grid::{Cell, GridKind};
use crate::scenario::ruleset::Pattern;

/// A cell's art: its fill and the marks over it.
#[derive(Clone, Debug, PartialEq)]
pub struct CellArt {
    pub fill: [u8; 3],
    pub marks: Vec<Shape>,
}

/// The cell's own generator (SplitMix64 of its column and row).
struct CellDice(u64);

impl CellDice {
    fn new(cell: Cell) -> Self {
        let key = (u64::from(cell.col as u32) << 32) | u64::from(cell.row as u32);
        Self(key ^ 0x5EED_A27B_0A2D_1F3C)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform draw in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    fn count(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }

    /// A point within `r` of the centre.
    fn spot(&mut self, r: f32) -> [f32; 2] {
        let a = self.range(0.0, std::f32::consts::TAU);
        let d = r * self.unit().sqrt();
        [a.cos() * d, a.sin() * d]
    }
}

/// Marks are made for a hex (apothem 0.87, marks within 0.6 of the centre): a square (half-side
/// 0.5) takes them shrunk whole, sizes with places, so nothing spills into its neighbours.
const SQUARE_SHRINK: f32 = 0.55;
const REACH: f32 = 0.6;

/// The fill of `cell` for terrain coloured `base`: the colour toned a little, in ten steps, so
/// fields and woods are never one flat colour (the first draw of the cell's dice).
pub fn cell_fill(base: [u8; 3], cell: Cell) -> [u8; 3] {
    let mut dice = CellDice::new(cell);
    fill_toned(base, &mut dice)
}

fn fill_toned(base: [u8; 3], dice: &mut CellDice) -> [u8; 3] {
    let tone = 0.955 + 0.01 * (dice.next() % 10) as f32;
    scaled(base, tone)
}

/// The art of `cell` with terrain drawn as `pattern` in `base`.
pub fn cell_art(pattern: Pattern, base: [u8; 3], cell: Cell, kind: GridKind) -> CellArt {
    let mut dice = CellDice::new(cell);
    let fill = fill_toned(base, &mut dice);
    let r = REACH;
    let marks = match pattern {
        Pattern::Plain => grass(&mut dice, fill, r),
        Pattern::Trees => woods(&mut dice, fill, r),
        Pattern::Hedges => hedgerows(&mut dice, fill, r),
        Pattern::Hills => hills(&mut dice, fill, r),
        Pattern::Peaks => peaks(&mut dice, fill, r),
        Pattern::Marsh => marsh(&mut dice, fill, r),
        Pattern::Buildings => town(&mut dice, fill, r),
        Pattern::Water => waves(&mut dice, fill, r),
        Pattern::Sand => dunes(&mut dice, fill, r),
    };
    let marks = match kind {
        GridKind::Hex { .. } => marks,
        GridKind::Square { .. } => marks
            .iter()
            .map(|m| m.placed([0.0, 0.0], SQUARE_SHRINK, false))
            .collect(),
    };
    CellArt { fill, marks }
}

fn add(a: [f32; 2], b: [f32; 2]) -> [f32; 2] {
    [a[0] + b[0], a[1] + b[1]]
}

/// A few tufts of grass: two short strokes in a V.
fn grass(d: &mut CellDice, fill: [u8; 3], r: f32) -> Vec<Shape> {
    let ink = scaled(fill, 0.84);
    (0..d.count(1, 4))
        .map(|_| {
            let p = d.spot(r);
            let h = d.range(0.05, 0.08);
            Shape::Stroke {
                points: vec![add(p, [-h * 0.6, h]), p, add(p, [h * 0.6, h])],
                width: 0.022,
                color: ink,
            }
        })
        .collect()
}

/// Woods: a clump of tree crowns, each with a shadow below right and a lit top left, the farther
/// (higher) ones drawn first.
fn woods(d: &mut CellDice, fill: [u8; 3], r: f32) -> Vec<Shape> {
    let mut crowns: Vec<([f32; 2], f32)> = (0..d.count(5, 8))
        .map(|_| (d.spot(r * 0.95), d.range(0.1, 0.17)))
        .collect();
    crowns.sort_by(|a, b| b.0[1].total_cmp(&a.0[1]));
    let (shadow, crown, light) = (
        scaled(fill, 0.55),
        scaled(fill, 0.74),
        mixed(scaled(fill, 0.9), [235, 240, 200], 0.18),
    );
    let mut marks = Vec::new();
    for (c, radius) in crowns {
        marks.push(Shape::Disc {
            center: add(c, [radius * 0.25, -radius * 0.3]),
            radius,
            color: shadow,
        });
        marks.push(Shape::Disc {
            center: c,
            radius,
            color: crown,
        });
        marks.push(Shape::Disc {
            center: add(c, [-radius * 0.3, radius * 0.3]),
            radius: radius * 0.45,
            color: light,
        });
    }
    marks
}

/// Bocage: crooked hedgerows boxing small fields, with a tree here and there along them.
fn hedgerows(d: &mut CellDice, fill: [u8; 3], r: f32) -> Vec<Shape> {
    let ink = scaled(fill, 0.6);
    let angle = d.range(0.0, std::f32::consts::PI);
    let (dir, across) = ([angle.cos(), angle.sin()], [-angle.sin(), angle.cos()]);
    let mut marks = Vec::new();
    for (k, axis, normal) in [(d.count(1, 2), dir, across), (d.count(1, 2), across, dir)] {
        for i in 0..k {
            let off = (i as f32 - (k as f32 - 1.0) / 2.0) * r * 0.9 + d.range(-0.08, 0.08);
            let base = [normal[0] * off, normal[1] * off];
            let bend = d.range(-0.09, 0.09);
            let points = vec![
                add(base, [-axis[0] * r, -axis[1] * r]),
                add(base, [normal[0] * bend, normal[1] * bend]),
                add(base, [axis[0] * r, axis[1] * r]),
            ];
            let tree = points[d.count(0, 2)];
            marks.push(Shape::Stroke {
                points,
                width: 0.055,
                color: ink,
            });
            marks.push(Shape::Disc {
                center: tree,
                radius: d.range(0.05, 0.075),
                color: scaled(fill, 0.5),
            });
        }
    }
    marks
}

/// Half an ellipse's outline points from angle `a0` to `a1`.
fn arc(c: [f32; 2], rx: f32, ry: f32, a0: f32, a1: f32) -> Vec<[f32; 2]> {
    (0..=10)
        .map(|i| {
            let a = a0 + (a1 - a0) * i as f32 / 10.0;
            [c[0] + a.cos() * rx, c[1] + a.sin() * ry]
        })
        .collect()
}

/// Hills: relief lit from the north-west (a light face up left, a shade down right) and a
/// contour line or two.
fn hills(d: &mut CellDice, fill: [u8; 3], r: f32) -> Vec<Shape> {
    let mut marks = Vec::new();
    for _ in 0..d.count(1, 2) {
        let c = d.spot(r * 0.45);
        let (rx, ry) = (d.range(0.3, 0.42), d.range(0.18, 0.26));
        let mut lit = vec![c];
        lit.extend(arc(c, rx, ry, std::f32::consts::FRAC_PI_2, std::f32::consts::PI * 1.1));
        marks.push(Shape::Polygon {
            points: lit,
            color: mixed(fill, [255, 250, 230], 0.2),
        });
        let mut shade = vec![c];
        shade.extend(arc(c, rx, ry, -std::f32::consts::FRAC_PI_2 * 1.1, 0.0));
        marks.push(Shape::Polygon {
            points: shade,
            color: scaled(fill, 0.84),
        });
        marks.push(Shape::Stroke {
            points: arc(c, rx, ry, 0.0, std::f32::consts::PI),
            width: 0.03,
            color: scaled(fill, 0.66),
        });
    }
    marks
}

/// Mountains: peaks with a lit west face and a shaded east face, the tallest capped with snow.
fn peaks(d: &mut CellDice, fill: [u8; 3], r: f32) -> Vec<Shape> {
    let mut tops: Vec<([f32; 2], f32)> = (0..d.count(1, 3))
        .map(|_| (d.spot(r * 0.5), d.range(0.22, 0.36)))
        .collect();
    tops.sort_by(|a, b| b.0[1].total_cmp(&a.0[1]));
    let mut marks = Vec::new();
    for (i, (c, h)) in tops.iter().enumerate() {
        let w = h * 0.8;
        let (left, right, top) = (add(*c, [-w, -h * 0.5]), add(*c, [w, -h * 0.5]), add(*c, [0.0, h * 0.6]));
        let foot = add(*c, [0.0, -h * 0.5]);
        marks.push(Shape::Polygon {
            points: vec![left, foot, top],
            color: mixed(fill, [250, 248, 240], 0.25),
        });
        marks.push(Shape::Polygon {
            points: vec![foot, right, top],
            color: scaled(fill, 0.62),
        });
        if i == 0 {
            let cap = |p: [f32; 2]| [top[0] + (p[0] - top[0]) * 0.3, top[1] + (p[1] - top[1]) * 0.3];
            marks.push(Shape::Polygon {
                points: vec![cap(left), cap(right), top],
                color: [245, 246, 250],
            });
        }
    }
    marks
}

/// Marsh: reeds standing in short lines of water.
fn marsh(d: &mut CellDice, fill: [u8; 3], r: f32) -> Vec<Shape> {
    let (water, reed) = (mixed(fill, [200, 228, 245], 0.55), scaled(fill, 0.58));
    let mut marks = Vec::new();
    for _ in 0..d.count(3, 5) {
        let p = d.spot(r * 0.9);
        let w = d.range(0.12, 0.2);
        marks.push(Shape::Stroke {
            points: vec![add(p, [-w, 0.0]), add(p, [w, 0.0])],
            width: 0.035,
            color: water,
        });
        for k in [-1.0, 0.0, 1.0] {
            let h = d.range(0.07, 0.12);
            marks.push(Shape::Stroke {
                points: vec![add(p, [k * w * 0.35, 0.01]), add(p, [k * w * 0.5, h])],
                width: 0.02,
                color: reed,
            });
        }
    }
    marks
}

/// A town: roofs along a street at an angle of its own, in tiles and slate.
fn town(d: &mut CellDice, fill: [u8; 3], r: f32) -> Vec<Shape> {
    let angle = d.range(0.0, std::f32::consts::PI);
    let (u, v) = ([angle.cos(), angle.sin()], [-angle.sin(), angle.cos()]);
    let mut marks = vec![Shape::Stroke {
        points: vec![[-u[0] * r, -u[1] * r], [u[0] * r, u[1] * r]],
        width: 0.07,
        color: mixed(fill, [235, 228, 210], 0.5),
    }];
    let roofs = [[150, 78, 58], [118, 110, 104], [165, 98, 70]];
    for i in 0..d.count(4, 8) {
        let along = d.range(-r * 0.85, r * 0.85);
        let side = if i % 2 == 0 { 1.0 } else { -1.0 } * d.range(0.1, 0.2);
        let c = [u[0] * along + v[0] * side, u[1] * along + v[1] * side];
        let (hw, hh) = (d.range(0.05, 0.09), d.range(0.04, 0.065));
        let corner = |a: f32, b: f32| [c[0] + u[0] * a + v[0] * b, c[1] + u[1] * a + v[1] * b];
        let roof = roofs[d.count(0, 2)];
        marks.push(Shape::Polygon {
            points: vec![corner(-hw, -hh), corner(hw, -hh), corner(hw, hh), corner(-hw, hh)],
            color: mixed(roof, fill, 0.15),
        });
        marks.push(Shape::Stroke {
            points: vec![corner(-hw, 0.0), corner(hw, 0.0)],
            width: 0.012,
            color: scaled(roof, 0.7),
        });
    }
    marks
}

/// Water: a few waves, each at its own height and phase.
fn waves(d: &mut CellDice, fill: [u8; 3], r: f32) -> Vec<Shape> {
    let ink = mixed(fill, [235, 245, 255], 0.55);
    (0..d.count(2, 3))
        .map(|_| {
            let c = d.spot(r * 0.7);
            let (w, phase) = (d.range(0.18, 0.3), d.range(0.0, std::f32::consts::TAU));
            let points = (0..=8)
                .map(|i| {
                    let t = i as f32 / 8.0;
                    [
                        c[0] + (t - 0.5) * 2.0 * w,
                        c[1] + (t * std::f32::consts::TAU + phase).sin() * 0.035,
                    ]
                })
                .collect();
            Shape::Stroke {
                points,
                width: 0.025,
                color: ink,
            }
        })
        .collect()
}

/// Sand: grains and a dune's crest.
fn dunes(d: &mut CellDice, fill: [u8; 3], r: f32) -> Vec<Shape> {
    let ink = scaled(fill, 0.76);
    let mut marks: Vec<Shape> = (0..d.count(4, 9))
        .map(|_| Shape::Disc {
            center: d.spot(r),
            radius: d.range(0.018, 0.032),
            color: ink,
        })
        .collect();
    let c = d.spot(r * 0.4);
    marks.push(Shape::Stroke {
        points: arc(c, d.range(0.2, 0.3), 0.1, 0.2, std::f32::consts::PI - 0.2),
        width: 0.03,
        color: scaled(fill, 0.82),
    });
    marks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_always_looks_the_same_and_its_neighbours_do_not() {
        let hex = GridKind::Hex {
            top: crate::rules::grid::HexTop::Flat,
        };
        let square = GridKind::Square { diagonals: false };
        let mut checked = 0;
        // Inside the circle a cell's sides touch: a hex's apothem, a square's half-side.
        for (kind, inside) in [(hex, 0.866), (square, 0.5)] {
            for pattern in [
                Pattern::Plain,
                Pattern::Trees,
                Pattern::Hedges,
                Pattern::Hills,
                Pattern::Peaks,
                Pattern::Marsh,
                Pattern::Buildings,
                Pattern::Water,
                Pattern::Sand,
            ] {
                let a = cell_art(pattern, [120, 140, 90], Cell::new(3, 4), kind);
                assert_eq!(a, cell_art(pattern, [120, 140, 90], Cell::new(3, 4), kind));
                assert_ne!(a, cell_art(pattern, [120, 140, 90], Cell::new(4, 4), kind));
                assert!(!a.marks.is_empty(), "{pattern:?}");
                for col in 0..40 {
                    for m in cell_art(pattern, [120, 140, 90], Cell::new(col, col % 7), kind).marks {
                        let (points, pad) = match m {
                            Shape::Polygon { points, .. } => (points, 0.0),
                            Shape::Stroke { points, width, .. } => (points, width / 2.0),
                            Shape::Disc { center, radius, .. } => (vec![center], radius),
                        };
                        for p in points {
                            let d = (p[0] * p[0] + p[1] * p[1]).sqrt() + pad;
                            assert!(d < inside, "{kind:?} {pattern:?} {p:?}: {d}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn no_more_than_a_tenth_of_one_terrains_cells_on_a_map_look_alike() {
        let mut checked = 0;
        for i in 0..crate::scenario::SHIPPED.len() {
            let s = crate::scenario::shipped_scenario(i).unwrap();
            let mut by_terrain: std::collections::BTreeMap<u16, Vec<String>> = Default::default();
            for cell in s.board.grid.cells() {
                let Some(t) = s.board.terrain(cell) else { continue };
                let look = s.ruleset.terrain_look(t);
                by_terrain.entry(t.0).or_default().push(format!(
                    "{:?}",
                    cell_art(look.pattern, look.color, cell, s.board.grid.kind)
                ));
            }
            for (t, arts) in by_terrain.iter().filter(|(_, a)| a.len() >= 10) {
                let mut counts: std::collections::HashMap<&str, usize> = Default::default();
                for a in arts {
                    *counts.entry(a.as_str()).or_default() += 1;
                }
                let alike: usize = counts.values().filter(|n| **n > 1).sum();
                assert!(
                    alike * 10 <= arts.len(),
                    "{}: terrain {t}: {alike} of {} cells drawn identically",
                    s.raw.name,
                    arts.len()
                );
                checked += arts.len();
            }
        }
        assert!(checked > 2000, "{checked} cells checked");
    }
}
