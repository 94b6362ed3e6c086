//! The map as a picture, drawn on the CPU without a window (`hexfront render`, the highlights),
//! with the window's art: each cell's terrain (`terrain.rs`) under subdued cell outlines, roads,
//! rivers with their width and bridges across them, towns, fortifications and objectives' stars
//! (`features.rs`), the units as counters with their NATO symbols, size marks and values
//! (`token.rs`), stacks offset as in the window, and place names in the map face on a halo, each
//! at the spot around its cell that covers the least of the counters (`labels.rs`).

use super::labels::{Rect, least_covered};
pub use super::token::{Token, start_tokens};
use crate::rules::grid::{Cell, GridKind, near_unit, unit_center};
use crate::rules::terrain::EdgeFeature;
use crate::scenario::Scenario;
use image::{Rgb, RgbImage};

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

/// The most pixels a picture may have (64 Mpx, 192 MiB): a tall map's height is capped by it.
pub const MOST_PIXELS: u64 = 64 << 20;

/// The picture's height over its width for `s`'s map (margins included).
pub fn aspect(s: &Scenario) -> f32 {
    let (w, h) = world_size(s);
    h / w
}

/// The map's size in cell units, a margin of one around it: the whole picture's `Frame`.
pub fn world_size(s: &Scenario) -> (f32, f32) {
    let grid = s.board.grid;
    let geo = Geometry { kind: grid.kind };
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
    (max_x + 2.0, max_y + 2.0)
}

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
    /// Added to a cell's centre (in cell units) before scaling: the margin, less the frame's
    /// corner when the picture shows part of the map.
    offset: (f32, f32),
}

impl Placement {
    /// The pixel at a cell's centre.
    pub fn center(&self, c: Cell) -> (f32, f32) {
        let (x, y) = unit_center(self.kind, c);
        ((x + self.offset.0) * self.scale, (y + self.offset.1) * self.scale)
    }

    /// Pixels per cell unit (a hex's circumradius, a square's side).
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// Half a cell across, in pixels.
    pub fn inner(&self) -> f32 {
        Geometry { kind: self.kind }.inner() * self.scale
    }
}

/// A part of the map's picture, in cell units from the whole picture's top left (the whole
/// picture is `(0, 0)` to `world_size`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Frame {
    /// The whole map, its margin included.
    pub fn whole(s: &Scenario) -> Frame {
        let (w, h) = world_size(s);
        Frame { x: 0.0, y: 0.0, w, h }
    }
}

/// The map of `s` with `units` where they stand, or the scenario's units at the start when
/// `None`; and where the cells landed.
pub fn render_position(s: &Scenario, width: u32, units: Option<&[Token]>) -> (RgbImage, Placement) {
    render_frame(s, Frame::whole(s), width, units)
}

/// The part `frame` of the map's picture, `width` pixels wide (narrower when the picture would
/// pass `MOST_PIXELS`), with `units` (or the start's); and where the cells landed.
pub fn render_frame(s: &Scenario, frame: Frame, width: u32, units: Option<&[Token]>) -> (RgbImage, Placement) {
    let grid = s.board.grid;
    let geo = Geometry { kind: grid.kind };
    let margin = 1.0;
    let mut width = width.max(16);
    let aspect = frame.h / frame.w.max(1e-3);
    if (width as f64).powi(2) * aspect as f64 > MOST_PIXELS as f64 {
        width = ((MOST_PIXELS as f64 / aspect as f64).sqrt() as u32).max(16);
    }
    let scale = width as f32 / frame.w.max(1e-3);
    let height = ((frame.h * scale).round() as u32).max(16);
    let fills = grid
        .cells()
        .map(|cell| {
            s.board.terrain(cell).map(|t| {
                let look = s.ruleset.terrain_look(t);
                rgb(super::terrain::cell_art(look.pattern, look.color, cell, grid.kind).fill)
            })
        })
        .collect();
    let picture = Picture { s, geo, fills };
    let offset = (margin - frame.x, margin - frame.y);
    let mut image = RgbImage::from_fn(width, height, |px, py| {
        picture.pixel((
            (px as f32 + 0.5) / scale - offset.0,
            (py as f32 + 0.5) / scale - offset.1,
        ))
    });
    let at = Placement {
        kind: grid.kind,
        scale,
        offset,
    };
    let tokens = units.map_or_else(|| start_tokens(s), <[Token]>::to_vec);
    paint_board(&mut image, s, &at, &tokens);
    (image, at)
}

/// Everything over the terrain's fill, bottom first: the terrain's marks, roads, water, works,
/// objectives, place names, counters.
fn paint_board(image: &mut RgbImage, s: &Scenario, at: &Placement, tokens: &[Token]) {
    use super::features::{self, Layer};
    let kind = s.board.grid.kind;
    let side = super::cell_side(kind);
    let world = |c: Cell| super::cell_center(kind, c, side).to_array();
    // World units (y up) to pixels (y down).
    let origin = [at.offset.0 * at.scale, at.offset.1 * at.scale];
    let k = at.scale / side;
    let paint = |image: &mut RgbImage, shapes: &[super::Shape]| {
        for shape in shapes {
            super::raster::paint(image, &shape.placed(origin, k, true));
        }
    };
    for cell in s.board.grid.cells() {
        let Some(t) = s.board.terrain(cell) else { continue };
        let look = s.ruleset.terrain_look(t);
        let art = super::terrain::cell_art(look.pattern, look.color, cell, kind);
        let c = world(cell);
        let blends = super::blend::edge_blends(
            kind,
            cell,
            art.fill,
            &super::blend::unlike_neighbours(&s.board, &s.ruleset, cell, t),
        );
        let placed: Vec<super::Shape> = blends
            .iter()
            .chain(&art.marks)
            .map(|m| m.placed(c, side, false))
            .collect();
        paint(image, &placed);
    }
    let mut layers: Vec<(Layer, Vec<super::Shape>)> = Vec::new();
    for (edge, list) in s.board.edges() {
        let (ca, cb) = (world(edge.a), world(edge.b));
        let mid = [(ca[0] + cb[0]) / 2.0, (ca[1] + cb[1]) / 2.0];
        let (dx, dy) = (cb[0] - ca[0], cb[1] - ca[1]);
        let len = (dx * dx + dy * dy).sqrt().max(1e-6);
        let along = [-dy / len * side / 2.0, dx / len * side / 2.0];
        let ends = (
            [mid[0] - along[0], mid[1] - along[1]],
            [mid[0] + along[0], mid[1] + along[1]],
        );
        for feature in list.iter() {
            layers.push(features::edge(feature, (ca, cb), ends, side));
        }
    }
    for (cell, list) in s.board.all_features() {
        let corners = corners(kind, world(cell), side);
        for f in list {
            layers.push((
                Layer::Works,
                features::cell(*f, world(cell), &corners, side, COUNTER_HALF),
            ));
        }
    }
    for o in &s.objectives {
        layers.push((Layer::Marks, features::objective(world(o.cell), side)));
    }
    layers.sort_by_key(|(layer, _)| *layer);
    for (_, shapes) in &layers {
        paint(image, shapes);
    }
    place_names(image, s, at, tokens, &super::text::Pen::map_face());
    counters(image, s, at, tokens, &super::text::Pen::counter_face());
}

use super::counter::{HALF_SIDE as COUNTER_HALF, STACK_STEP};

/// The corners of a cell centred at `c`, counter-clockwise (as the window's layout).
fn corners(kind: GridKind, c: [f32; 2], side: f32) -> Vec<[f32; 2]> {
    match kind {
        GridKind::Hex { top } => {
            let start = if top == crate::rules::grid::HexTop::Flat {
                0.0f32
            } else {
                30.0
            };
            (0..6)
                .map(|i| {
                    let a = (start + 60.0 * i as f32).to_radians();
                    [c[0] + side * a.cos(), c[1] + side * a.sin()]
                })
                .collect()
        }
        GridKind::Square { .. } => {
            let h = side / 2.0;
            vec![
                [c[0] + h, c[1] + h],
                [c[0] - h, c[1] + h],
                [c[0] - h, c[1] - h],
                [c[0] + h, c[1] - h],
            ]
        }
    }
}

/// The rectangle a name `w` wide at `size` covers from its top left, its halo included.
fn label_rect((x, y): (f32, f32), w: f32, size: f32) -> Rect {
    [x - 1.0, y - 1.0, x + w + 1.0, y + size * 1.15 + 1.0]
}

/// Where each stack of counters covers the picture.
fn counter_rects(s: &Scenario, at: &Placement, tokens: &[Token]) -> Vec<Rect> {
    let k = at.scale / super::cell_side(s.board.grid.kind);
    let half = COUNTER_HALF * k;
    let mut cells: Vec<(Cell, usize)> = Vec::new();
    for t in tokens {
        match cells.iter_mut().find(|(c, _)| *c == t.cell) {
            Some((_, n)) => *n += 1,
            None => cells.push((t.cell, 1)),
        }
    }
    cells
        .into_iter()
        .map(|(cell, n)| super::counter::stack_rect(at.center(cell), half, (n, STACK_STEP * k), 0.0))
        .collect()
}

/// Where a place's name goes, `w` by `size` pixels, for a cell centred at (`cx`, `cy`): under
/// the cell, over it, right or left of it, a line lower or higher, or at a corner, whichever
/// covers the least of the counters and the names placed so far (the first of equals); its top
/// left.
fn label_spot(at: &Placement, (cx, cy): (f32, f32), (w, size): (f32, f32), taken: &[Rect]) -> (f32, f32) {
    let (r, h) = (at.inner(), size * 1.15 + 2.0);
    let candidates = [
        (cx - w / 2.0, cy + at.scale * 0.62),
        (cx - w / 2.0, cy - at.scale * 0.62 - h),
        (cx + r * 0.9, cy - h / 2.0),
        (cx - r * 0.9 - w, cy - h / 2.0),
        (cx - w / 2.0, cy + at.scale * 0.62 + h),
        (cx - w / 2.0, cy - at.scale * 0.62 - 2.0 * h),
        (cx + r * 0.6, cy + at.scale * 0.62),
        (cx - r * 0.6 - w, cy + at.scale * 0.62),
        (cx + r * 0.6, cy - at.scale * 0.62 - h),
        (cx - r * 0.6 - w, cy - at.scale * 0.62 - h),
    ];
    let rects: Vec<Rect> = candidates.iter().map(|p| label_rect(*p, w, size)).collect();
    candidates[least_covered(&rects, taken)]
}

/// Place names are never drawn smaller than this many pixels high.
const MIN_NAME_PX: f32 = 10.0;
/// Names smaller than this sit on a pale plate as well as their halo.
const PLATE_BELOW_PX: f32 = 14.0;
/// The pale halo (and plate) behind a name.
const NAME_HALO: [u8; 3] = [250, 245, 225];

/// Each place's name near its cell, dark on a pale halo, clear of the counters where a spot
/// around the cell is, when the picture is large enough to read it.
fn place_names(image: &mut RgbImage, s: &Scenario, at: &Placement, tokens: &[Token], pen: &super::text::Pen) {
    // A third of the cell, and never smaller than reads; none when cells are specks.
    if at.inner() * 0.32 < 5.0 {
        return;
    }
    let size = (at.inner() * 0.32).max(MIN_NAME_PX);
    let mut taken = counter_rects(s, at, tokens);
    for (cell, name) in &s.places {
        let w = pen.width(name, size);
        let (x, y) = label_spot(at, at.center(*cell), (w, size), &taken);
        let rect = label_rect((x, y), w, size);
        taken.push(rect);
        if size < PLATE_BELOW_PX {
            // Small type on a pale plate: a road or river through the letters would hide them.
            let [x0, y0, x1, y1] = rect;
            let (x0, y0) = (x0.floor() as i64 - 1, y0.floor() as i64);
            let (w, h) = (x1.ceil() as i64 + 1 - x0, y1.ceil() as i64 - y0);
            super::text::fill(image, (x0, y0, w, h), NAME_HALO, 0.82);
        }
        for (dx, dy) in [
            (-1.0, 0.0),
            (1.0, 0.0),
            (0.0, -1.0),
            (0.0, 1.0),
            (-1.0, -1.0),
            (1.0, 1.0),
            (-1.0, 1.0),
            (1.0, -1.0),
        ] {
            pen.write(image, (x + dx, y + dy), size, NAME_HALO, name, false);
        }
        pen.write(image, (x, y), size, [20, 15, 10], name, false);
    }
}

/// The units as the window draws them: stacks offset, the last on top; each counter's face, its
/// band's designation and formation, size mark and values when large enough to read.
fn counters(image: &mut RgbImage, s: &Scenario, at: &Placement, tokens: &[Token], pen: &super::text::Pen) {
    let side = super::cell_side(s.board.grid.kind);
    let k = at.scale / side;
    let half = COUNTER_HALF * k;
    let mut by_cell: Vec<(Cell, Vec<&Token>)> = Vec::new();
    for t in tokens {
        match by_cell.iter_mut().find(|(c, _)| *c == t.cell) {
            Some((_, list)) => list.push(t),
            None => by_cell.push((t.cell, vec![t])),
        }
    }
    for (cell, stack) in by_cell {
        let (cx, cy) = at.center(cell);
        let n = stack.len();
        for (i, t) in stack.iter().enumerate() {
            let off = (i as f32 - (n - 1) as f32 / 2.0) * STACK_STEP * k;
            let centre = [cx + off, cy - off];
            super::token::paint_counter(image, s, t, centre, half, pen);
        }
    }
}

/// What a pixel of the picture looks up: the scenario's terrain.
struct Picture<'a> {
    s: &'a Scenario,
    geo: Geometry,
    /// Each cell's fill (its art's tone), in the grid's cell order.
    fills: Vec<Option<Rgb<u8>>>,
}

impl Picture<'_> {
    /// The colour at world point `p`: the cell's fill (its art's tone), a subdued outline near
    /// its sides, or the background off the map.
    fn pixel(&self, p: (f32, f32)) -> Rgb<u8> {
        let (geo, grid, background) = (self.geo, self.s.board.grid, Rgb([40, 43, 48]));
        let (col, row) = geo.near(p.0, p.1);
        // The nearest and second-nearest centres: the cell, and how near its side the point is.
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
        let index = || cell.row as usize * grid.width as usize + cell.col as usize;
        let Some(base) = grid
            .contains(cell)
            .then(|| self.fills.get(index()).copied().flatten())
            .flatten()
        else {
            return background;
        };
        // Grid lines subdued: the terrain reads first.
        if (near[1].0 - d0) / 2.0 < 0.025 {
            shade(base, 0.8)
        } else {
            base
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_names_move_off_the_counters_when_a_spot_is_free() {
        use crate::art::labels::{covered, overlap};
        let s = crate::scenario::default_scenario().unwrap();
        let (_, at) = render_position(&s, 1600, None);
        let tokens = start_tokens(&s);
        let counters = counter_rects(&s, &at, &tokens);
        // The face the names are drawn in, at their size.
        let pen = crate::art::text::Pen::map_face();
        let size = at.inner() * 0.32;
        let (mut moved, mut clear) = (0, 0);
        let (mut chosen_cover, mut under_cover) = (0.0, 0.0);
        let mut taken = counters.clone();
        for (cell, name) in &s.places {
            let w = pen.width(name, size);
            let (cx, cy) = at.center(*cell);
            let under = (cx - w / 2.0, cy + at.scale() * 0.62);
            let (x, y) = label_spot(&at, (cx, cy), (w, size), &taken);
            let rect = label_rect((x, y), w, size);
            let on_counters: f32 = counters.iter().map(|c| overlap(&rect, c)).sum();
            chosen_cover += on_counters;
            under_cover += covered(&label_rect(under, w, size), &counters);
            moved += usize::from((x, y) != under);
            clear += usize::from(on_counters < 0.5);
            taken.push(rect);
        }
        // The names cover far less of the counters than at their cells' feet.
        assert!(under_cover > 0.0, "some name's foot is on a counter");
        assert!(
            chosen_cover < under_cover * 0.25,
            "{chosen_cover} of {under_cover} covered"
        );
        assert!(s.places.len() >= 8, "{}", s.places.len());
        assert!(
            clear * 10 >= s.places.len() * 8,
            "{clear} of {} clear of counters",
            s.places.len()
        );
        assert!(moved >= 1, "some name had a counter under it and moved");
        // A counter right under the cell sends the name above it.
        let (cx, cy) = (400.0, 400.0);
        let below = [cx - 40.0, cy + at.scale() * 0.5, cx + 40.0, cy + at.scale() * 1.5];
        let (_, y) = label_spot(&at, (cx, cy), (60.0, 12.0), &[below]);
        assert!(y < cy, "above the cell: {y}");
    }

    #[test]
    fn the_picture_shows_terrain_art_counters_and_stars_where_they_are() {
        let s = crate::scenario::default_scenario().unwrap();
        let (img, at) = render_position(&s, 1600, None);
        assert_eq!(img.width(), 1600);
        let px = |(x, y): (f32, f32)| img.get_pixel(x as u32, y as u32).0;
        let half = COUNTER_HALF * at.scale / crate::art::cell_side(s.board.grid.kind);
        let mut checked = 0;
        // A unit alone in its cell: its counter's frame in its side's colour, the values' ink
        // on the face.
        for u in s.units.iter().filter(|u| u.arrives.is_none()) {
            if s.units
                .iter()
                .filter(|o| o.cell == u.cell && o.arrives.is_none())
                .count()
                > 1
            {
                continue;
            }
            let (cx, cy) = at.center(u.cell);
            assert_eq!(px((cx - half * 0.95, cy)), s.sides[u.side].color, "{}", u.id);
            checked += 1;
        }
        assert!(checked >= 5, "{checked}");
        // An objective's star: gold on its outline's top point.
        let o = &s.objectives[0];
        let (cx, cy) = at.center(o.cell);
        let side = crate::art::cell_side(s.board.grid.kind);
        let top = (cx, cy - 0.8 * side * at.scale / side + 1.0);
        let gold = crate::art::features::OBJECTIVE_GOLD;
        let near_gold = (-3..=3).any(|dy| px((top.0, top.1 + dy as f32)) == gold);
        assert!(near_gold, "the star's top point");
        // An empty cell shows its terrain's art: its fill (the ruleset's colour, toned) somewhere.
        let empty = s
            .board
            .grid
            .cells()
            .find(|c| {
                s.units.iter().all(|u| u.cell != *c)
                    && !s.objectives.iter().any(|o| o.cell == *c)
                    && s.board.edges().iter().all(|(e, _)| e.a != *c && e.b != *c)
                    && s.board.features(*c).is_empty()
            })
            .unwrap();
        let look = s.ruleset.terrain_look(s.board.terrain(empty).unwrap());
        let art = crate::art::terrain::cell_art(look.pattern, look.color, empty, s.board.grid.kind);
        let (cx, cy) = at.center(empty);
        let r = at.inner() * 0.5;
        let fill_seen = (-2..=2)
            .flat_map(|i| (-2..=2).map(move |j| (cx + i as f32 * r / 2.0, cy + j as f32 * r / 2.0)))
            .filter(|p| px(*p) == art.fill)
            .count();
        assert!(fill_seen >= 1, "the fill shows somewhere in the cell");
        // Many colours: a drawn map, not a blank.
        let mut colours: Vec<[u8; 3]> = img.pixels().map(|p| p.0).collect();
        colours.sort();
        colours.dedup();
        assert!(colours.len() > 200, "{}", colours.len());
    }
}
