//! The board's art, drawn on the CPU as plain shapes: each cell's terrain varied per cell from a
//! seed (tone, woods as clumps, towns as building clusters, relief on hills, hedgerows, marsh,
//! waves), the same in the window (as meshes) and in `hexfront render` and `hexfront highlights`
//! (rasterised here). Shapes are in units of a cell's side around its centre, y up.

pub mod blend;
pub mod counter;
pub mod crop;
pub mod designation;
pub mod features;
pub mod labels;
pub mod picture;
pub mod raster;
pub mod terrain;
pub mod text;
pub mod title;
pub mod token;

use crate::rules::grid::{Cell, GridKind, unit_center};

/// A hex's circumradius and a square's side, in world units.
pub const HEX_SIZE: f32 = 40.0;
pub const SQUARE_SIDE: f32 = 64.0;

/// The length of a cell's side in world units.
pub fn cell_side(kind: GridKind) -> f32 {
    match kind {
        GridKind::Hex { .. } => HEX_SIZE,
        GridKind::Square { .. } => SQUARE_SIDE,
    }
}

/// A cell's centre in world units (y up, row 0 at the top) for cells `side` across: the board's
/// drawing, the pictures and the director's framing share it.
pub fn cell_center(kind: GridKind, cell: Cell, side: f32) -> bevy::math::Vec2 {
    let (x, y) = unit_center(kind, cell);
    bevy::math::Vec2::new(x, -y) * side
}

/// One shape of a cell's art.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A filled convex polygon.
    Polygon { points: Vec<[f32; 2]>, color: [u8; 3] },
    /// A stroke through the points, `width` across.
    Stroke {
        points: Vec<[f32; 2]>,
        width: f32,
        color: [u8; 3],
    },
    /// A filled disc.
    Disc {
        center: [f32; 2],
        radius: f32,
        color: [u8; 3],
    },
}

impl Shape {
    /// The shape moved by `at` and scaled by `side` (from cell units to world or pixel units);
    /// `flip` turns y down (pictures).
    pub fn placed(&self, at: [f32; 2], side: f32, flip: bool) -> Shape {
        let sy = if flip { -side } else { side };
        let p = |q: &[f32; 2]| [at[0] + q[0] * side, at[1] + q[1] * sy];
        match self {
            Shape::Polygon { points, color } => Shape::Polygon {
                points: points.iter().map(p).collect(),
                color: *color,
            },
            Shape::Stroke { points, width, color } => Shape::Stroke {
                points: points.iter().map(p).collect(),
                width: width * side,
                color: *color,
            },
            Shape::Disc { center, radius, color } => Shape::Disc {
                center: p(center),
                radius: radius * side,
                color: *color,
            },
        }
    }
}

/// A colour times `f` (each channel, clamped).
pub fn scaled([r, g, b]: [u8; 3], f: f32) -> [u8; 3] {
    let s = |c: u8| (f32::from(c) * f).round().clamp(0.0, 255.0) as u8;
    [s(r), s(g), s(b)]
}

/// A colour mixed toward `to` by `t` (0: itself, 1: `to`).
pub fn mixed([r, g, b]: [u8; 3], [r2, g2, b2]: [u8; 3], t: f32) -> [u8; 3] {
    let m = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
    [m(r, r2), m(g, g2), m(b, b2)]
}

/// A colour's channels in linear light (0 to 1).
fn linear([r, g, b]: [u8; 3]) -> [f32; 3] {
    let l = |c: u8| {
        let c = f32::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    [l(r), l(g), l(b)]
}

/// A colour's relative luminance (WCAG, 0 to 1).
pub fn luminance(c: [u8; 3]) -> f32 {
    let [r, g, b] = linear(c);
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

/// The WCAG contrast ratio of two colours (1 to 21): text wants 4.5 or more.
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f32 {
    let (x, y) = (luminance(a) + 0.05, luminance(b) + 0.05);
    x.max(y) / x.min(y)
}

/// A colour in CIELAB (D65).
fn lab(c: [u8; 3]) -> [f32; 3] {
    let [r, g, b] = linear(c);
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.950_47;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.088_83;
    let f = |v: f32| {
        if v > 0.008_856 {
            v.cbrt()
        } else {
            7.787 * v + 16.0 / 116.0
        }
    };
    [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
}

/// How far apart two colours look (CIE76 ΔE: about 2 is just noticeable, 15 and more reads as
/// another colour at a glance).
pub fn delta_e(a: [u8; 3], b: [u8; 3]) -> f32 {
    let (p, q) = (lab(a), lab(b));
    ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
}
