//! What lies on cell sides and in cells, as art in world units (y up; a hex's circumradius or a
//! square's side is `side`): roads from centre to centre, rivers and lakes along sides with
//! their width, bridges drawn across them, fortification lines, towns and cities as blocks along
//! the cell's top, fortifications, airbases, ports and objectives' stars. The window's board and
//! the pictures draw the same shapes.

use super::Shape;
use crate::rules::terrain::{CellFeature, EdgeFeature};

/// Which layer a shape goes in, bottom first: roads run under water, bridges over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    Roads,
    Water,
    Works,
    Marks,
}

type P = [f32; 2];

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}
fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1]]
}
fn times(a: P, k: f32) -> P {
    [a[0] * k, a[1] * k]
}
fn unit(a: P) -> P {
    let l = (a[0] * a[0] + a[1] * a[1]).sqrt();
    if l == 0.0 { [0.0, 0.0] } else { [a[0] / l, a[1] / l] }
}
fn lerp(a: P, b: P, t: f32) -> P {
    add(a, times(sub(b, a), t))
}

fn line(a: P, b: P, width: f32, color: [u8; 3]) -> Shape {
    Shape::Stroke {
        points: vec![a, b],
        width,
        color,
    }
}

pub const ROAD: [u8; 3] = [140, 92, 51];
pub const RIVER: [u8; 3] = [51, 115, 204];
pub const LAKE: [u8; 3] = [77, 140, 217];
pub const WORKS_RED: [u8; 3] = [179, 26, 26];
pub const INK: [u8; 3] = [31, 26, 20];
pub const OBJECTIVE_GOLD: [u8; 3] = [242, 191, 26];

/// An edge feature between the cells centred at `ca` and `cb`, whose shared side runs `a`–`b`.
pub fn edge(feature: EdgeFeature, (ca, cb): (P, P), (a, b): (P, P), side: f32) -> (Layer, Vec<Shape>) {
    match feature {
        EdgeFeature::Road => (
            Layer::Roads,
            vec![
                line(ca, cb, side * 0.11, ROAD),
                Shape::Disc {
                    center: ca,
                    radius: side * 0.055,
                    color: ROAD,
                },
                Shape::Disc {
                    center: cb,
                    radius: side * 0.055,
                    color: ROAD,
                },
            ],
        ),
        EdgeFeature::River => (Layer::Water, vec![line(a, b, side * 0.14, RIVER)]),
        EdgeFeature::MajorRiver => (Layer::Water, vec![line(a, b, side * 0.26, RIVER)]),
        EdgeFeature::Lake | EdgeFeature::Strait => (Layer::Water, vec![line(a, b, side * 0.34, LAKE)]),
        EdgeFeature::Bridge => {
            let dir = times(unit(sub(cb, ca)), side * 0.22);
            let mid = lerp(a, b, 0.5);
            let n = times(unit(sub(b, a)), side * 0.13);
            (
                Layer::Works,
                vec![
                    line(sub(mid, dir), add(mid, dir), side * 0.22, [64, 56, 51]),
                    line(add(sub(mid, dir), n), add(add(mid, dir), n), side * 0.04, [0, 0, 0]),
                    line(sub(sub(mid, dir), n), sub(add(mid, dir), n), side * 0.04, [0, 0, 0]),
                ],
            )
        }
        EdgeFeature::FortificationLine => {
            let n = times(unit(sub(cb, ca)), side * 0.12);
            let mut shapes = vec![line(a, b, side * 0.08, WORKS_RED)];
            for t in [0.2, 0.5, 0.8] {
                let p = lerp(a, b, t);
                shapes.push(line(p, add(p, n), side * 0.06, WORKS_RED));
            }
            (Layer::Works, shapes)
        }
    }
}

/// A block from `at` (bottom left), `w` wide and `h` tall.
fn block(at: P, w: f32, h: f32, color: [u8; 3]) -> Shape {
    Shape::Polygon {
        points: vec![at, add(at, [w, 0.0]), add(at, [w, h]), add(at, [0.0, h])],
        color,
    }
}

/// A cell feature in the cell centred at `c` with `corners`: in the band between a counter's top
/// (`counter_half` above the centre) and the cell's top edge, so a unit standing there leaves it
/// in view. Sizes are in world units, as the window draws them (both callers draw in world
/// units), so a square's taller band fits the same blocks.
pub fn cell(feature: CellFeature, c: P, corners: &[P], side: f32, counter_half: f32) -> Vec<Shape> {
    let k = 1.0;
    let top_edge = corners.iter().map(|p| p[1] - c[1]).fold(0.0, f32::max);
    let base = counter_half + 1.5 * k;
    let band = (top_edge - base).max(4.0 * k);
    let mid = add(c, [0.0, base + band * 0.5]);
    match feature {
        CellFeature::Town => vec![block(add(c, [-2.5 * k, base]), 5.0 * k, band * 0.7, INK)],
        CellFeature::City | CellFeature::MajorCity | CellFeature::VictoryCity(_) => {
            let n = if feature == CellFeature::City { 3 } else { 5 };
            let w = 4.0 * k;
            let mut shapes: Vec<Shape> = (0..n)
                .map(|i| {
                    let x = (i as f32 - (n - 1) as f32 / 2.0) * (w + 1.5 * k) - w / 2.0;
                    block(add(c, [x, base]), w, band * [0.6, 0.95, 0.75, 0.9, 0.55][i], INK)
                })
                .collect();
            if matches!(feature, CellFeature::VictoryCity(_)) {
                let mut ring: Vec<P> = corners.iter().map(|p| lerp(c, *p, 0.93)).collect();
                ring.push(ring[0]);
                shapes.push(Shape::Stroke {
                    points: ring,
                    width: 2.0 * k,
                    color: INK,
                });
            }
            shapes
        }
        CellFeature::Fortification => {
            let inner: Vec<P> = corners.iter().map(|p| lerp(c, *p, 0.86)).collect();
            let mut ring = inner.clone();
            ring.push(inner[0]);
            let mut shapes = vec![Shape::Stroke {
                points: ring,
                width: side * 0.06,
                color: WORKS_RED,
            }];
            for (i, p) in inner.iter().enumerate() {
                let m = lerp(*p, inner[(i + 1) % inner.len()], 0.5);
                shapes.push(line(
                    m,
                    add(m, times(unit(sub(c, m)), side * 0.1)),
                    side * 0.05,
                    WORKS_RED,
                ));
            }
            shapes
        }
        CellFeature::Airbase => {
            let at = add(mid, [side * 0.3, 0.0]);
            let d = [6.0 * k, band * 0.4];
            vec![
                line(sub(at, d), add(at, d), 2.2 * k, INK),
                line(sub(at, [d[0], -d[1]]), add(at, [d[0], -d[1]]), 2.2 * k, INK),
            ]
        }
        CellFeature::Port => {
            let at = sub(mid, [side * 0.3, 0.0]);
            let navy = [26, 51, 115];
            let h = band * 0.45;
            vec![
                line(add(at, [0.0, h]), sub(at, [0.0, h]), 1.8 * k, navy),
                line(add(at, [-3.0 * k, h * 0.5]), add(at, [3.0 * k, h * 0.5]), 1.8 * k, navy),
                line(sub(at, [5.0 * k, h * 0.3]), sub(at, [0.0, h]), 1.8 * k, navy),
                line(add(at, [5.0 * k, -h * 0.3]), sub(at, [0.0, h]), 1.8 * k, navy),
            ]
        }
    }
}

/// The points of a five-pointed star around `c`, outer and inner radius.
pub fn star(c: P, outer: f32, inner: f32) -> Vec<P> {
    (0..5)
        .flat_map(|i| {
            let a = std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::TAU / 5.0;
            let b = a + std::f32::consts::PI / 5.0;
            [
                add(c, [a.cos() * outer, a.sin() * outer]),
                add(c, [b.cos() * inner, b.sin() * inner]),
            ]
        })
        .collect()
}

/// An objective: a gold star outline over the cell.
pub fn objective(c: P, side: f32) -> Vec<Shape> {
    let mut points = star(c, side * 0.8, side * 0.35);
    points.push(points[0]);
    vec![Shape::Stroke {
        points,
        width: side * 0.06,
        color: OBJECTIVE_GOLD,
    }]
}

/// A filled star (a star is not convex: a pentagon and five triangles) in `color`.
pub fn filled_star(c: P, outer: f32, inner: f32, color: [u8; 3]) -> Vec<Shape> {
    let points = star(c, outer, inner);
    let n = points.len();
    let mut shapes = vec![Shape::Polygon {
        points: points.iter().skip(1).step_by(2).copied().collect(),
        color,
    }];
    for i in 0..5 {
        shapes.push(Shape::Polygon {
            points: vec![points[(2 * i + n - 1) % n], points[2 * i], points[2 * i + 1]],
            color,
        });
    }
    shapes
}
