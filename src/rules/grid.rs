//! Grid geometry: one `Cell` type over hex maps (flat- or pointy-top, via `hexx`) and square maps
//! (4- or 8-neighbour). Cells are offset coordinates (column, row), 0-based, row 0 at the top;
//! board labels are 1-based (`0412` = column 4, row 12).

use hexx::{Hex, HexOrientation, OffsetHexMode};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A cell of a rectangular board, in offset coordinates. Column 0 is the left edge, row 0 the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    pub col: i32,
    pub row: i32,
}

impl Cell {
    pub const fn new(col: i32, row: i32) -> Self {
        Self { col, row }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&label(*self))
    }
}

/// Hex orientation, as the scenario file names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HexTop {
    /// Flat-topped hexes in vertical columns; odd columns (0201, 0401 …) sit half a hex lower.
    Flat,
    /// Pointy-topped hexes in horizontal rows; odd rows (0102, 0104 …) sit half a hex right.
    Pointy,
}

/// Which kind of board: hexes or squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GridKind {
    Hex {
        top: HexTop,
    },
    /// Squares; `diagonals: true` makes the 8 surrounding squares neighbours.
    Square {
        diagonals: bool,
    },
}

impl GridKind {
    /// How many neighbours (and directions, and edges) each cell has.
    pub const fn directions(self) -> usize {
        match self {
            GridKind::Hex { .. } => 6,
            GridKind::Square { diagonals: false } => 4,
            GridKind::Square { diagonals: true } => 8,
        }
    }
}

/// A direction from a cell to one of its neighbours: an index in `0..kind.directions()`.
/// Hex: hexx's `EdgeDirection` index. Squares: clockwise from north (N, E, S, W, or with
/// diagonals N, NE, E, SE, S, SW, W, NW).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Direction(pub u8);

const SQUARE4: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
const SQUARE8: [(i32, i32); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];

/// A side's friendly map edge, toward which its units retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MapEdge {
    North,
    East,
    South,
    West,
}

/// A rectangular board of `width` × `height` cells of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    pub kind: GridKind,
    pub width: u32,
    pub height: u32,
}

impl Grid {
    /// Hexes rather than squares.
    pub const fn is_hex(&self) -> bool {
        matches!(self.kind, GridKind::Hex { .. })
    }

    pub const fn new(kind: GridKind, width: u32, height: u32) -> Self {
        Self { kind, width, height }
    }

    pub fn contains(&self, cell: Cell) -> bool {
        cell.col >= 0 && cell.row >= 0 && (cell.col as u32) < self.width && (cell.row as u32) < self.height
    }

    /// Dense index of an on-map cell (row-major); `None` off the map.
    pub fn index(&self, cell: Cell) -> Option<usize> {
        self.contains(cell)
            .then(|| cell.row as usize * self.width as usize + cell.col as usize)
    }

    pub fn cell_count(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height as i32).flat_map(move |row| (0..self.width as i32).map(move |col| Cell::new(col, row)))
    }

    fn to_hex(top: HexTop, cell: Cell) -> Hex {
        let (mode, orientation) = hex_mode(top);
        Hex::from_offset_coordinates([cell.col, cell.row], mode, orientation)
    }

    fn from_hex(top: HexTop, hex: Hex) -> Cell {
        let (mode, orientation) = hex_mode(top);
        let [col, row] = hex.to_offset_coordinates(mode, orientation);
        Cell::new(col, row)
    }

    /// The cell one step from `cell` in `dir`, whether or not it is on the map.
    pub fn step(&self, cell: Cell, dir: Direction) -> Cell {
        match self.kind {
            GridKind::Hex { top } => {
                let hex = Self::to_hex(top, cell).neighbor(hexx::EdgeDirection::ALL_DIRECTIONS[dir.0 as usize]);
                Self::from_hex(top, hex)
            }
            GridKind::Square { diagonals } => {
                let (dc, dr) = if diagonals {
                    SQUARE8[dir.0 as usize]
                } else {
                    SQUARE4[dir.0 as usize]
                };
                Cell::new(cell.col + dc, cell.row + dr)
            }
        }
    }

    /// All directions of this grid.
    pub fn directions(&self) -> impl Iterator<Item = Direction> {
        (0..self.kind.directions() as u8).map(Direction)
    }

    /// The on-map neighbours of `cell`, in direction order.
    pub fn neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.directions()
            .map(move |dir| self.step(cell, dir))
            .filter(|c| self.contains(*c))
    }

    /// The direction from `a` to its neighbour `b`, or `None` when they are not adjacent.
    pub fn direction(&self, a: Cell, b: Cell) -> Option<Direction> {
        self.directions().find(|dir| self.step(a, *dir) == b)
    }

    pub fn are_adjacent(&self, a: Cell, b: Cell) -> bool {
        self.direction(a, b).is_some()
    }

    /// Steps between two cells: hex distance, Manhattan (4-neighbour) or Chebyshev (8-neighbour).
    pub fn distance(&self, a: Cell, b: Cell) -> u32 {
        match self.kind {
            GridKind::Hex { top } => Self::to_hex(top, a).unsigned_distance_to(Self::to_hex(top, b)),
            GridKind::Square { diagonals: false } => a.col.abs_diff(b.col) + a.row.abs_diff(b.row),
            GridKind::Square { diagonals: true } => a.col.abs_diff(b.col).max(a.row.abs_diff(b.row)),
        }
    }

    /// Rows or columns between `cell` and a map edge: retreats "toward the friendly edge" make
    /// this smaller.
    pub fn cells_from_edge(&self, cell: Cell, edge: MapEdge) -> i32 {
        match edge {
            MapEdge::North => cell.row,
            MapEdge::South => self.height as i32 - 1 - cell.row,
            MapEdge::West => cell.col,
            MapEdge::East => self.width as i32 - 1 - cell.col,
        }
    }

    /// On-map cells at exactly `radius` steps from `center` (the centre itself for 0).
    pub fn ring(&self, center: Cell, radius: u32) -> Vec<Cell> {
        match self.kind {
            GridKind::Hex { top } => Self::to_hex(top, center)
                .ring(radius)
                .map(|h| Self::from_hex(top, h))
                .filter(|c| self.contains(*c))
                .collect(),
            GridKind::Square { .. } => {
                let r = radius as i32;
                let mut out = Vec::new();
                for row in center.row - r..=center.row + r {
                    for col in center.col - r..=center.col + r {
                        let c = Cell::new(col, row);
                        if self.contains(c) && self.distance(center, c) == radius {
                            out.push(c);
                        }
                    }
                }
                out
            }
        }
    }

    /// On-map cells within `radius` steps of `center`, the centre included.
    pub fn range(&self, center: Cell, radius: u32) -> Vec<Cell> {
        (0..=radius).flat_map(|r| self.ring(center, r)).collect()
    }

    /// A straight line of adjacent cells from `a` to `b`, both ends included. Each cell is a
    /// neighbour of the one before, so a line is a legal path on an empty, open map.
    pub fn line(&self, a: Cell, b: Cell) -> Vec<Cell> {
        match self.kind {
            GridKind::Hex { top } => Self::to_hex(top, a)
                .line_to(Self::to_hex(top, b))
                .map(|h| Self::from_hex(top, h))
                .collect(),
            GridKind::Square { diagonals } => square_line(a, b, diagonals),
        }
    }

    /// The edge between `cell` and its neighbour in `dir`.
    pub fn edge(&self, cell: Cell, dir: Direction) -> Edge {
        Edge::new(cell, self.step(cell, dir))
    }
}

fn hex_mode(top: HexTop) -> (OffsetHexMode, HexOrientation) {
    match top {
        HexTop::Flat => (OffsetHexMode::Odd, HexOrientation::Flat),
        HexTop::Pointy => (OffsetHexMode::Odd, HexOrientation::Pointy),
    }
}

/// Squares crossed by the segment a→b: Bresenham with diagonal steps (8-neighbour), or with each
/// diagonal step split into two orthogonal steps (4-neighbour) so consecutive cells stay adjacent.
fn square_line(a: Cell, b: Cell, diagonals: bool) -> Vec<Cell> {
    let (dx, dy) = ((b.col - a.col).abs(), -(b.row - a.row).abs());
    let (sx, sy) = ((b.col - a.col).signum(), (b.row - a.row).signum());
    let mut err = dx + dy;
    let mut cur = a;
    let mut out = vec![a];
    while cur != b {
        let e2 = 2 * err;
        let step_x = e2 >= dy;
        let step_y = e2 <= dx;
        if step_x && step_y && !diagonals {
            // Split the diagonal: x first, then y.
            err += dy;
            cur.col += sx;
            out.push(cur);
            err += dx;
            cur.row += sy;
            out.push(cur);
            continue;
        }
        if step_x {
            err += dy;
            cur.col += sx;
        }
        if step_y {
            err += dx;
            cur.row += sy;
        }
        out.push(cur);
    }
    out
}

/// The shared side of two adjacent cells (a hexside), stored with its cells in a canonical order
/// so `Edge::new(a, b) == Edge::new(b, a)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Edge {
    pub a: Cell,
    pub b: Cell,
}

impl Edge {
    pub fn new(a: Cell, b: Cell) -> Self {
        if a <= b { Self { a, b } } else { Self { a: b, b: a } }
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.a, self.b)
    }
}

const SQRT3: f32 = 1.732_050_8;

/// Where a cell's centre lies in a drawing of the grid with sides of 1 (a hex's circumradius, a
/// square's side), x to the right and y down. The board, the editor and `hexfront render` all
/// place cells by it (scaled to their own size).
pub fn unit_center(kind: GridKind, cell: Cell) -> (f32, f32) {
    let (c, r) = (cell.col as f32, cell.row as f32);
    let odd = |n: i32| (n & 1) as f32;
    match kind {
        GridKind::Hex { top: HexTop::Flat } => (1.5 * c, SQRT3 * (r + 0.5 * odd(cell.col))),
        GridKind::Hex { top: HexTop::Pointy } => (SQRT3 * (c + 0.5 * odd(cell.row)), 1.5 * r),
        GridKind::Square { .. } => (c, r),
    }
}

/// The column and row near (x, y) in that drawing: the nearest centre is this cell's or one of
/// its eight offset neighbours'.
pub fn near_unit(kind: GridKind, x: f32, y: f32) -> (i32, i32) {
    match kind {
        GridKind::Hex { top: HexTop::Flat } => ((x / 1.5).round() as i32, (y / SQRT3).round() as i32),
        GridKind::Hex { top: HexTop::Pointy } => ((x / SQRT3).round() as i32, (y / 1.5).round() as i32),
        GridKind::Square { .. } => (x.round() as i32, y.round() as i32),
    }
}

/// The board-game label of a cell: 1-based column then row, at least two digits each (`0412`).
pub fn label(cell: Cell) -> String {
    let width = if cell.col + 1 >= 100 || cell.row + 1 >= 100 {
        3
    } else {
        2
    };
    format!("{:0width$}{:0width$}", cell.col + 1, cell.row + 1)
}

/// Parses a board-game label back into a cell. Accepts 4 digits (`0412`) or 6 (`104099`) for
/// maps past 99 columns or rows.
pub fn parse_label(text: &str) -> Result<Cell, String> {
    let t = text.trim();
    if !t.chars().all(|c| c.is_ascii_digit()) || !(t.len() == 4 || t.len() == 6) {
        return Err(format!(
            "`{text}` is not a cell label: write column then row, two digits each (e.g. `0412`), or three each past 99"
        ));
    }
    let half = t.len() / 2;
    let col: i32 = t[..half].parse().map_err(|_| format!("bad column in `{text}`"))?;
    let row: i32 = t[half..].parse().map_err(|_| format!("bad row in `{text}`"))?;
    if col == 0 || row == 0 {
        return Err(format!("`{text}`: columns and rows are numbered from 01"));
    }
    Ok(Cell::new(col - 1, row - 1))
}

/// Serde for a `Cell` written as its board label (`"0412"`), as orders and saves write cells.
pub mod as_label {
    use super::{Cell, label, parse_label};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(cell: &Cell, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&label(*cell))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        let text = String::deserialize(d)?;
        parse_label(&text).map_err(serde::de::Error::custom)
    }
}

/// Serde for a list of cells written as board labels (`["0412", "0413"]`).
pub mod as_labels {
    use super::{Cell, label, parse_label};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(cells: &[Cell], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(cells.iter().map(|c| label(*c)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Cell>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|t| parse_label(t).map_err(serde::de::Error::custom))
            .collect()
    }
}
