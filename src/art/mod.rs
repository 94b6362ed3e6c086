//! The board's art, drawn on the CPU as plain shapes: each cell's terrain varied per cell from a
//! seed (tone, woods as clumps, towns as building clusters, relief on hills, hedgerows, marsh,
//! waves), the same in the window (as meshes) and in `hexfront render` and `hexfront highlights`
//! (rasterised here). Shapes are in units of a cell's side around its centre, y up.

pub mod counter;
pub mod features;
pub mod picture;
pub mod raster;
pub mod terrain;
pub mod text;

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
