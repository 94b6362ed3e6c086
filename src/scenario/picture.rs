//! The map as a picture, drawn on the CPU without a window (`hexfront render`): terrain colours
//! with cell outlines, rivers and other edge features along cell sides, roads, towns, objectives
//! and the units at the start in their sides' colours. For sharing a scenario and for thumbnails.

use super::Scenario;
use crate::rules::grid::{Cell, GridKind, near_unit, unit_center};
use crate::rules::terrain::{CellFeature, EdgeFeature};
use image::{Rgb, RgbImage};
use std::collections::HashMap;

const SQRT3: f32 = 1.732_050_8;

/// Cell geometry with sides (hex circumradius, square side) of 1.
#[derive(Clone, Copy)]
struct Geometry {
    kind: GridKind,
}

impl Geometry {
    fn center(self, c: Cell) -> (f32, f32) {
        unit_center(self.kind, c)
    }

    /// The column and row near a point (the nearest centre is among their neighbours).
    fn near(self, x: f32, y: f32) -> (i32, i32) {
        near_unit(self.kind, x, y)
    }

    /// The half-size of a cell across (hex apothem, half a square).
    fn inner(self) -> f32 {
        match self.kind {
            GridKind::Hex { .. } => SQRT3 / 2.0,
            GridKind::Square { .. } => 0.5,
        }
    }
}

fn rgb([r, g, b]: [u8; 3]) -> Rgb<u8> {
    Rgb([r, g, b])
}

fn shade(Rgb([r, g, b]): Rgb<u8>, f: f32) -> Rgb<u8> {
    Rgb([(r as f32 * f) as u8, (g as f32 * f) as u8, (b as f32 * f) as u8])
}

/// The colour an edge feature is drawn in, in pictures and in the editor.
pub fn edge_rgb(f: EdgeFeature) -> [u8; 3] {
    match f {
        EdgeFeature::River => [60, 120, 210],
        EdgeFeature::MajorRiver => [40, 95, 190],
        EdgeFeature::Lake | EdgeFeature::Strait => [50, 90, 170],
        EdgeFeature::Bridge => [120, 80, 40],
        EdgeFeature::Road => ROAD_RGB,
        EdgeFeature::FortificationLine => [190, 40, 40],
    }
}

/// Roads, in pictures and in the editor.
pub const ROAD_RGB: [u8; 3] = [150, 105, 60];

/// How far from its side an edge feature reaches into a cell, as a share of the side (bridges
/// and roads are not drawn along sides).
fn edge_color(f: EdgeFeature) -> Option<(f32, Rgb<u8>)> {
    let reach = match f {
        EdgeFeature::River => 0.10,
        EdgeFeature::MajorRiver => 0.17,
        EdgeFeature::Lake | EdgeFeature::Strait => 0.22,
        EdgeFeature::FortificationLine => 0.12,
        EdgeFeature::Bridge | EdgeFeature::Road => return None,
    };
    Some((reach, rgb(edge_rgb(f))))
}

/// Distance from point p to segment a-b.
fn to_segment(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx * dx + dy * dy;
    let t = if len == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len).clamp(0.0, 1.0)
    };
    let (x, y) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
    (x * x + y * y).sqrt()
}

/// The most pixels a picture may have (64 Mpx, 192 MiB): a tall map's height is capped by it.
pub const MOST_PIXELS: u64 = 64 << 20;

/// The map of `s`, `width` pixels wide (narrower when the picture would pass `MOST_PIXELS`), with
/// the units at the start.
pub fn render(s: &Scenario, width: u32) -> RgbImage {
    render_position(s, width, None).0
}

/// Where the picture put the map: a cell's centre and size in pixels.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    kind: GridKind,
    scale: f32,
    margin: f32,
}

impl Placement {
    /// The pixel at a cell's centre.
    pub fn center(&self, c: Cell) -> (f32, f32) {
        let (x, y) = unit_center(self.kind, c);
        ((x + self.margin) * self.scale, (y + self.margin) * self.scale)
    }

    /// Half a cell across, in pixels.
    pub fn inner(&self) -> f32 {
        Geometry { kind: self.kind }.inner() * self.scale
    }
}

/// The map of `s` with `units` (cell and side index) where they stand, or the scenario's units at
/// the start when `None`; and where the cells landed.
pub fn render_position(s: &Scenario, width: u32, units: Option<&[(Cell, usize)]>) -> (RgbImage, Placement) {
    let grid = s.board.grid;
    let geo = Geometry { kind: grid.kind };
    let margin = 1.0;
    let (mut max_x, mut max_y) = (0.0f32, 0.0f32);
    for c in [
        Cell::new(grid.width as i32 - 1, grid.height as i32 - 1),
        Cell::new(grid.width as i32 - 2, grid.height as i32 - 1),
        Cell::new(grid.width as i32 - 1, grid.height as i32 - 2),
    ] {
        let (x, y) = geo.center(c);
        max_x = max_x.max(x);
        max_y = max_y.max(y);
    }
    let (world_w, world_h) = (max_x + 2.0 * margin, max_y + 2.0 * margin);
    let mut width = width.max(16);
    let aspect = world_h / world_w;
    if (width as f64).powi(2) * aspect as f64 > MOST_PIXELS as f64 {
        width = ((MOST_PIXELS as f64 / aspect as f64).sqrt() as u32).max(16);
    }
    let scale = width as f32 / world_w;
    let height = ((world_h * scale).ceil() as u32).max(16);
    let mut picture = Picture::new(s, geo);
    if let Some(units) = units {
        picture.units = units.iter().copied().collect();
    }
    let image = RgbImage::from_fn(width, height, |px, py| {
        picture.pixel((px as f32 / scale - margin, py as f32 / scale - margin))
    });
    (
        image,
        Placement {
            kind: grid.kind,
            scale,
            margin,
        },
    )
}

/// What a pixel of the picture looks up: the scenario, and its roads and units by cell.
struct Picture<'a> {
    s: &'a Scenario,
    geo: Geometry,
    roads: HashMap<Cell, Vec<Cell>>,
    units: HashMap<Cell, usize>,
    objectives: Vec<Cell>,
}

impl<'a> Picture<'a> {
    fn new(s: &'a Scenario, geo: Geometry) -> Self {
        let mut roads: HashMap<Cell, Vec<Cell>> = HashMap::new();
        for (edge, features) in s.board.edges() {
            if features.contains(EdgeFeature::Road) {
                roads.entry(edge.a).or_default().push(edge.b);
                roads.entry(edge.b).or_default().push(edge.a);
            }
        }
        let units: HashMap<Cell, usize> = s
            .units
            .iter()
            .filter(|u| u.arrives.is_none())
            .map(|u| (u.cell, u.side))
            .collect();
        let objectives: Vec<Cell> = s.objectives.iter().map(|o| o.cell).collect();
        Self {
            s,
            geo,
            roads,
            units,
            objectives,
        }
    }

    /// The colour at world point `p`.
    fn pixel(&self, p: (f32, f32)) -> Rgb<u8> {
        let Self {
            s,
            geo,
            roads,
            units,
            objectives,
        } = self;
        let (geo, grid, background) = (*geo, s.board.grid, Rgb([40, 43, 48]));
        let inner = geo.inner();
        let (col, row) = geo.near(p.0, p.1);
        // The nearest and second-nearest centres: the cell, and the side the point is closest to.
        let mut near: [(f32, Cell); 2] = [(f32::MAX, Cell::new(-1, -1)); 2];
        for dr in -1..=1 {
            for dc in -1..=1 {
                let c = Cell::new(col + dc, row + dr);
                let (x, y) = geo.center(c);
                let d = ((x - p.0).powi(2) + (y - p.1).powi(2)).sqrt();
                if d < near[0].0 {
                    near = [(d, c), near[0]];
                } else if d < near[1].0 {
                    near[1] = (d, c);
                }
            }
        }
        let (d0, cell) = near[0];
        let (d1, other) = near[1];
        let Some(t) = grid.contains(cell).then(|| s.board.terrain(cell)).flatten() else {
            return background;
        };
        let base = rgb(s.ruleset.terrain_look(t).color);
        // How far inside its cell the point is, by the perpendicular bisector with the neighbour.
        let to_side = (d1 - d0) / 2.0;
        let centre = geo.center(cell);
        if let Some(&side) = units.get(&cell) {
            let half = inner * 0.68;
            let (dx, dy) = ((p.0 - centre.0).abs(), (p.1 - centre.1).abs());
            if dx < half && dy < half {
                let color = rgb(s.sides[side].color);
                return if half - dx.max(dy) < 0.06 {
                    shade(color, 0.45)
                } else {
                    color
                };
            }
        }
        if objectives.contains(&cell) {
            let mark = (centre.0 - inner * 0.62, centre.1 - inner * 0.5);
            let d = ((p.0 - mark.0).powi(2) + (p.1 - mark.1).powi(2)).sqrt();
            if d < inner * 0.3 {
                return Rgb([240, 190, 30]);
            } else if d < inner * 0.3 + 0.05 {
                return Rgb([60, 45, 10]);
            }
        }
        if grid.contains(other)
            && let Some((w, color)) = s.board.edge(cell, other).iter().filter_map(edge_color).next()
            && to_side < w
        {
            return color;
        }
        for to in roads.get(&cell).into_iter().flatten() {
            if to_segment(p, centre, geo.center(*to)) < 0.07 {
                return rgb(ROAD_RGB);
            }
        }
        if s.board.has_feature(cell, |f| {
            matches!(
                f,
                CellFeature::Town | CellFeature::City | CellFeature::MajorCity | CellFeature::VictoryCity(_)
            )
        }) && (p.0 - centre.0).abs() < inner * 0.25
            && (p.1 - centre.1 - inner * 0.55).abs() < inner * 0.12
        {
            return Rgb([70, 60, 55]);
        }
        if to_side < 0.03 { shade(base, 0.72) } else { base }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_shows_terrain_rivers_and_units_where_they_are() {
        let s = crate::scenario::default_scenario().unwrap();
        let img = render(&s, 800);
        assert_eq!(img.width(), 800);
        let geo = Geometry {
            kind: s.board.grid.kind,
        };
        let scale = 800.0 / {
            let c = Cell::new(s.board.grid.width as i32 - 1, 0);
            geo.center(c).0 + 2.0
        };
        let at = |x: f32, y: f32| *img.get_pixel(((x + 1.0) * scale) as u32, ((y + 1.0) * scale) as u32);
        // A unit's counter at its cell's centre, in its side's colour.
        let u = s.units.iter().find(|u| u.arrives.is_none()).unwrap();
        let (x, y) = geo.center(u.cell);
        assert_eq!(at(x, y), rgb(s.sides[u.side].color));
        // An empty cell shows its terrain's colour.
        let empty = s
            .board
            .grid
            .cells()
            .find(|c| {
                s.units.iter().all(|u| u.cell != *c)
                    && !s.objectives.iter().any(|o| o.cell == *c)
                    && s.board.edges().iter().all(|(e, _)| e.a != *c && e.b != *c)
            })
            .unwrap();
        let (x, y) = geo.center(empty);
        assert_eq!(
            at(x, y),
            rgb(s.ruleset.terrain_look(s.board.terrain(empty).unwrap()).color)
        );
        // Many colours: a drawn map, not a blank.
        let mut colours: Vec<[u8; 3]> = img.pixels().map(|p| p.0).collect();
        colours.sort();
        colours.dedup();
        assert!(colours.len() > 8, "{}", colours.len());
    }
}
