//! A unit's counter as art, the same in the window and in the pictures: a drop shadow, a dark
//! edge, a frame in the side's colour around a lighter face (so black values read at ≥ 4.5:1),
//! a band across the top in its formation's colour, the NATO symbol on a light box, step pips
//! down the right edge. Shapes in units of the counter's half-side around its centre, y up; the
//! designation, formation, size mark and values are text, placed by the `*_Y` and `*_SIZE`
//! constants.

use super::{Shape, mixed};
use crate::rules::units::UnitClass;

/// Black: the counter's symbol, pips and values.
pub const INK: [u8; 3] = [13, 13, 13];

/// Where the counter's text sits, as a share of its half-side above the centre, and how large,
/// as a share of its half-side: the designation and formation on the band at the top, the size
/// mark (`III`) above the symbol, the values under it. The window and the pictures place their
/// text by these.
pub const BAND_TEXT_Y: f32 = 0.70;
pub const BAND_TEXT_SIZE: f32 = 0.32;
pub const SIZE_MARK_Y: f32 = 0.38;
pub const SIZE_MARK_SIZE: f32 = 0.34;
pub const VALUES_Y: f32 = -0.6;
pub const VALUES_SIZE: f32 = 0.56;
/// Where the band's two texts start and end across: the designation from the left, the
/// formation to the right.
pub const BAND_TEXT_LEFT: f32 = -0.8;
pub const BAND_TEXT_RIGHT: f32 = 0.8;

/// A counter's half-side in world units (the window's counters are 50 across), and how far each
/// counter of a stack sits from the one below it, across and up: the window and the pictures
/// draw stacks so.
pub const HALF_SIDE: f32 = 25.0;
pub const STACK_STEP: f32 = 6.0;

/// The rectangle a stack of `n` counters centred at `(x, y)` covers, `half` from its centre to a
/// counter's edge and `step` between counters, `pad` around: what a label keeps clear of.
pub fn stack_rect((x, y): (f32, f32), half: f32, (n, step): (usize, f32), pad: f32) -> [f32; 4] {
    let reach = half + pad + n.saturating_sub(1) as f32 * step / 2.0;
    [x - reach, y - reach, x + reach, y + reach]
}

/// The band across the counter's top: from this height to the face's top edge.
const BAND_BOTTOM: f32 = 0.53;

/// The face behind a counter's values: the side's colour, lightened.
pub fn face_fill(side: [u8; 3]) -> [u8; 3] {
    mixed(side, [255, 255, 255], 0.3)
}

fn square(h: f32, at: [f32; 2]) -> Vec<[f32; 2]> {
    vec![
        [at[0] - h, at[1] - h],
        [at[0] + h, at[1] - h],
        [at[0] + h, at[1] + h],
        [at[0] - h, at[1] + h],
    ]
}

/// The outline of an ellipse, closed.
fn ellipse(c: [f32; 2], rx: f32, ry: f32) -> Vec<[f32; 2]> {
    (0..=24)
        .map(|i| {
            let a = i as f32 / 24.0 * std::f32::consts::TAU;
            [c[0] + a.cos() * rx, c[1] + a.sin() * ry]
        })
        .collect()
}

/// A counter's face for a side's `color`, its `class`, `total` steps of which `remaining` left,
/// its formation's `band` colour across the top (the face's own without a formation); `shadow`
/// adds a drop shadow below right (the window draws stacks with their own offsets).
pub fn face(
    color: [u8; 3],
    class: UnitClass,
    (total, remaining): (usize, usize),
    band: Option<[u8; 3]>,
    shadow: bool,
) -> Vec<Shape> {
    // A counter is 2 units across; its frame and borders in the window's proportions (50 px).
    let px = 1.0 / 25.0;
    let mut shapes = Vec::new();
    if shadow {
        shapes.push(Shape::Polygon {
            points: square(1.0 + 1.5 * px, [4.0 * px, -4.0 * px]),
            color: [20, 22, 20],
        });
    }
    shapes.push(Shape::Polygon {
        points: square(1.0 + 1.5 * px, [0.0, 0.0]),
        color: [20, 20, 20],
    });
    shapes.push(Shape::Polygon {
        points: square(1.0, [0.0, 0.0]),
        color,
    });
    let fill = face_fill(color);
    let inner = 1.0 - 3.0 * px;
    shapes.push(Shape::Polygon {
        points: square(inner, [0.0, 0.0]),
        color: fill,
    });
    if let Some(band) = band {
        shapes.push(Shape::Polygon {
            points: vec![
                [-inner, BAND_BOTTOM],
                [inner, BAND_BOTTOM],
                [inner, inner],
                [-inner, inner],
            ],
            color: band,
        });
    }
    let (c, h) = ([0.0, -0.02], [0.5, 0.26]);
    shapes.push(Shape::Polygon {
        points: vec![
            [c[0] - h[0], c[1] - h[1]],
            [c[0] + h[0], c[1] - h[1]],
            [c[0] + h[0], c[1] + h[1]],
            [c[0] - h[0], c[1] + h[1]],
        ],
        color: mixed(fill, [255, 255, 255], 0.35),
    });
    shapes.extend(nato_symbol(class, c, h, INK));
    // Step pips down the right edge under the band: filled for steps left, hollow for steps lost.
    if total > 1 {
        let step = (7.0 * px).min(1.2 / (total - 1) as f32);
        for i in 0..total {
            let p = [1.0 - 4.0 * px, BAND_BOTTOM - 4.0 * px - i as f32 * step];
            if i < remaining {
                shapes.push(Shape::Disc {
                    center: p,
                    radius: 2.4 * px,
                    color: INK,
                });
            } else {
                shapes.push(Shape::Stroke {
                    points: ellipse(p, 2.4 * px, 2.4 * px),
                    width: 0.8 * px,
                    color: INK,
                });
            }
        }
    }
    shapes
}

/// The NATO symbol for a class inside a box of half-size `h` centred at `c`.
pub fn nato_symbol(class: UnitClass, c: [f32; 2], h: [f32; 2], ink: [u8; 3]) -> Vec<Shape> {
    let w = 1.3 / 25.0;
    let at = |x: f32, y: f32| [c[0] + h[0] * x, c[1] + h[1] * y];
    let (tl, tr, bl, br) = (at(-1.0, 1.0), at(1.0, 1.0), at(-1.0, -1.0), at(1.0, -1.0));
    let stroke = |points: Vec<[f32; 2]>, width: f32| Shape::Stroke {
        points,
        width,
        color: ink,
    };
    let mut s = vec![stroke(vec![tl, tr, br, bl, tl], w)];
    let cross = [stroke(vec![tl, br], w), stroke(vec![bl, tr], w)];
    let oval = stroke(ellipse(c, h[0] * 0.62, h[1] * 0.5), w);
    match class {
        UnitClass::Infantry => s.extend(cross),
        UnitClass::LightInfantry => {
            s.extend(cross);
            s.push(stroke(vec![at(-0.3, -1.0), at(0.3, -1.0)], w * 2.5));
        }
        UnitClass::Mechanized => {
            s.extend(cross);
            s.push(oval);
        }
        UnitClass::Motorized => {
            s.extend(cross);
            s.push(stroke(vec![at(0.0, 1.0), at(0.0, -1.0)], w));
        }
        UnitClass::Armor => s.push(oval),
        UnitClass::Artillery => s.push(Shape::Disc {
            center: c,
            radius: h[1] * 0.35,
            color: ink,
        }),
        UnitClass::Rocket => {
            s.push(Shape::Disc {
                center: at(0.0, -0.2),
                radius: h[1] * 0.28,
                color: ink,
            });
            s.push(stroke(vec![c, at(0.0, 0.85)], w));
        }
        UnitClass::AntiTank => s.push(stroke(vec![bl, at(0.0, 1.0), br], w)),
        UnitClass::Recon | UnitClass::Cavalry => s.push(stroke(vec![bl, tr], w)),
        UnitClass::Engineer => s.push(stroke(
            vec![at(-0.5, -0.3), at(-0.5, 0.3), at(0.5, 0.3), at(0.5, -0.3)],
            w,
        )),
        UnitClass::Airborne => {
            s.extend(cross);
            let arc: Vec<[f32; 2]> = (0..=8)
                .map(|i| {
                    let a = std::f32::consts::PI * i as f32 / 8.0;
                    at(-0.3 + a.cos() * 0.3, -0.8 + a.sin() * 0.3)
                })
                .collect();
            s.push(stroke(arc, w));
        }
        UnitClass::Headquarters => s.push(stroke(vec![at(-0.5, -1.0), at(-0.5, 1.0)], w * 1.5)),
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ruleset::Pattern;

    /// A counter reads against the ground it stands on: its frame (the side's colour) at least ΔE
    /// 20 from every land terrain on its map, its face at least 15 (US olive on bocage was 13).
    #[test]
    fn side_colours_stand_apart_from_the_terrain_under_them() {
        let mut checked = 0;
        for i in 0..crate::scenario::SHIPPED.len() {
            let s = crate::scenario::shipped_scenario(i).unwrap();
            let mut land: Vec<_> = s
                .board
                .grid
                .cells()
                .filter_map(|c| s.board.terrain(c))
                .map(|t| s.ruleset.terrain_look(t))
                .filter(|look| look.pattern != Pattern::Water)
                .map(|look| (look.name.clone(), look.color))
                .collect();
            land.sort();
            land.dedup();
            for side in &s.sides {
                for (name, ground) in &land {
                    let frame = super::super::delta_e(side.color, *ground);
                    let face = super::super::delta_e(face_fill(side.color), *ground);
                    let what = format!("{}: {} on {name}", s.raw.name, side.name);
                    assert!(frame >= 20.0, "{what}: the frame is ΔE {frame:.1} from the ground");
                    assert!(face >= 15.0, "{what}: the face is ΔE {face:.1} from the ground");
                    checked += 1;
                }
            }
            let apart = super::super::delta_e(s.sides[0].color, s.sides[1].color);
            assert!(apart >= 25.0, "{}: the sides are ΔE {apart:.1} apart", s.raw.name);
        }
        assert!(checked >= 60, "{checked}");
        // The measure can fail: the old US olive on Mortain's bocage.
        assert!(super::super::delta_e(face_fill([0x6a, 0x7f, 0x3c]), [0x9f, 0xb7, 0x72]) < 15.0);
    }
}
