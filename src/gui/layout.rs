//! Where cells sit on screen: centres, corners, edge segments and picking, for hexes and squares,
//! and a builder for flat-coloured meshes (polygons and thick lines) drawn in world units.

use crate::rules::grid::{Cell, Grid, GridKind, HexTop, near_unit};
use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

/// Hex circumradius in world units; squares get a side of `SQUARE_SIDE`.
pub use crate::show::director::{HEX_SIZE, SQUARE_SIDE};

/// Screen geometry of one grid. World y grows upward, so row 0 is at the top (largest y).
#[derive(Resource, Clone, Copy, Debug)]
pub struct Layout {
    pub grid: Grid,
}

impl Layout {
    pub fn center(&self, cell: Cell) -> Vec2 {
        crate::show::director::cell_center(self.grid.kind, cell, self.side())
    }

    /// Corners of a cell, counter-clockwise.
    pub fn corners(&self, cell: Cell) -> Vec<Vec2> {
        let c = self.center(cell);
        match self.grid.kind {
            GridKind::Hex { top } => {
                let start = if top == HexTop::Flat { 0.0 } else { 30.0 };
                (0..6)
                    .map(|i| {
                        let a = (start + 60.0 * i as f32).to_radians();
                        c + HEX_SIZE * Vec2::new(a.cos(), a.sin())
                    })
                    .collect()
            }
            GridKind::Square { .. } => {
                let h = SQUARE_SIDE / 2.0;
                vec![
                    c + Vec2::new(h, h),
                    c + Vec2::new(-h, h),
                    c + Vec2::new(-h, -h),
                    c + Vec2::new(h, -h),
                ]
            }
        }
    }

    /// Length of a cell's side.
    pub fn side(&self) -> f32 {
        crate::show::director::cell_side(self.grid.kind)
    }

    /// The shared side of two adjacent cells, as a segment.
    pub fn edge_segment(&self, a: Cell, b: Cell) -> (Vec2, Vec2) {
        let (ca, cb) = (self.center(a), self.center(b));
        let mid = (ca + cb) / 2.0;
        let along = (cb - ca).perp().normalize_or_zero() * self.side() / 2.0;
        (mid - along, mid + along)
    }

    /// The cell under a world position (nearest centre), if on the map.
    pub fn pick(&self, world: Vec2) -> Option<Cell> {
        let (col, row) = near_unit(self.grid.kind, world.x / self.side(), -world.y / self.side());
        let mut best: Option<(f32, Cell)> = None;
        for dr in -1..=1 {
            for dc in -1..=1 {
                let cell = Cell::new(col + dc, row + dr);
                let d = self.center(cell).distance_squared(world);
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, cell));
                }
            }
        }
        best.map(|(_, c)| c).filter(|c| self.grid.contains(*c))
    }

    /// World rectangle holding the whole map.
    pub fn bounds(&self) -> Rect {
        let mut rect = Rect::from_center_size(self.center(Cell::new(0, 0)), Vec2::ZERO);
        for cell in [
            Cell::new(0, 0),
            Cell::new(self.grid.width as i32 - 1, 0),
            Cell::new(0, self.grid.height as i32 - 1),
            Cell::new(self.grid.width as i32 - 1, self.grid.height as i32 - 1),
            Cell::new(1, self.grid.height as i32 - 1),
            Cell::new(0, 1),
        ] {
            for p in self.corners(cell) {
                rect = rect.union_point(p);
            }
        }
        rect
    }
}

/// Accumulates coloured triangles into one mesh.
#[derive(Default)]
pub struct MeshBuilder {
    positions: Vec<[f32; 3]>,
    colors: Vec<[f32; 4]>,
    indices: Vec<u32>,
}

impl MeshBuilder {
    /// A filled convex polygon.
    pub fn polygon(&mut self, points: &[Vec2], color: Color) {
        let base = self.positions.len() as u32;
        let c = color.to_linear().to_f32_array();
        for p in points {
            self.positions.push([p.x, p.y, 0.0]);
            self.colors.push(c);
        }
        for i in 1..points.len().saturating_sub(1) as u32 {
            self.indices.extend([base, base + i, base + i + 1]);
        }
    }

    /// A line segment `width` world units thick.
    pub fn line(&mut self, a: Vec2, b: Vec2, width: f32, color: Color) {
        let n = (b - a).perp().normalize_or_zero() * width / 2.0;
        self.polygon(&[a - n, b - n, b + n, a + n], color);
    }

    /// A polyline through `points`, with round-ish joints (a small square at each joint).
    pub fn polyline(&mut self, points: &[Vec2], width: f32, color: Color) {
        for pair in points.windows(2) {
            self.line(pair[0], pair[1], width, color);
        }
    }

    /// A closed outline.
    pub fn ring(&mut self, points: &[Vec2], width: f32, color: Color) {
        for i in 0..points.len() {
            self.line(points[i], points[(i + 1) % points.len()], width, color);
        }
    }

    /// An ellipse outline.
    pub fn ellipse(&mut self, center: Vec2, radii: Vec2, width: f32, color: Color) {
        let pts: Vec<Vec2> = (0..24)
            .map(|i| {
                let a = i as f32 / 24.0 * std::f32::consts::TAU;
                center + Vec2::new(a.cos() * radii.x, a.sin() * radii.y)
            })
            .collect();
        self.ring(&pts, width, color);
    }

    /// A filled disc (small ones with fewer sides: a tree crown 5 units across needs no 16).
    pub fn disc(&mut self, center: Vec2, radius: f32, color: Color) {
        let n = if radius < 8.0 { 9 } else { 16 };
        let pts: Vec<Vec2> = (0..n)
            .map(|i| {
                let a = i as f32 / n as f32 * std::f32::consts::TAU;
                center + radius * Vec2::new(a.cos(), a.sin())
            })
            .collect();
        self.polygon(&pts, color);
    }

    /// Art shapes (`crate::art`), their units `scale` world units across, around `at`.
    pub fn shapes(&mut self, shapes: &[crate::art::Shape], at: Vec2, scale: f32) {
        use crate::art::Shape;
        let rgb = |[r, g, b]: [u8; 3]| Color::srgb_u8(r, g, b);
        let points = |p: &[[f32; 2]]| p.iter().map(|q| Vec2::from_array(*q)).collect::<Vec<Vec2>>();
        for shape in shapes {
            match shape.placed(at.to_array(), scale, false) {
                Shape::Polygon { points: p, color } => self.polygon(&points(&p), rgb(color)),
                Shape::Stroke {
                    points: p,
                    width,
                    color,
                } => self.polyline(&points(&p), width, rgb(color)),
                Shape::Disc { center, radius, color } => self.disc(Vec2::from_array(center), radius, rgb(color)),
            }
        }
    }

    /// Whether nothing was drawn.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    pub fn build(self) -> Mesh {
        Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
            .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, self.positions)
            .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, self.colors)
            .with_inserted_indices(Indices::U32(self.indices))
    }
}
