//! Where a picture looks: the part of the map around the cells that matter (a combat's, a turn's
//! moves, the units at the start) at the shape a post wants (16:9, 1:1, or the map's own), kept
//! on the map; pure geometry for `hexfront render` and `hexfront highlights`.

use super::picture::{Frame, world_size};
use crate::rules::grid::{Cell, unit_center};
use crate::scenario::Scenario;

/// A picture's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aspect {
    /// The whole map, as tall as it is.
    Map,
    /// 16:9, a video frame or a wide post.
    Wide,
    /// 1:1, a square post.
    Square,
}

impl Aspect {
    /// `map`, `16:9` or `1:1` (what `--aspect` takes).
    pub fn parse(text: &str) -> Result<Aspect, String> {
        match text.trim() {
            "map" => Ok(Aspect::Map),
            "16:9" => Ok(Aspect::Wide),
            "1:1" => Ok(Aspect::Square),
            other => Err(format!("--aspect {other}: give 16:9, 1:1 or map")),
        }
    }

    /// Width over height; `None` for the map's own.
    pub fn ratio(self) -> Option<f32> {
        match self {
            Aspect::Map => None,
            Aspect::Wide => Some(16.0 / 9.0),
            Aspect::Square => Some(1.0),
        }
    }

    /// The picture's height for `width` (`map_aspect`: the map's height over its width).
    pub fn height(self, width: u32, map_aspect: f32) -> u32 {
        let h = match self.ratio() {
            Some(r) => width as f32 / r,
            None => width as f32 * map_aspect,
        };
        (h.round() as u32).max(16)
    }
}

/// How far past the outermost cells' centres a frame reaches, in cell units: their neighbours
/// show, so a combat is seen with its ground.
pub const REACH: f32 = 2.6;
/// The least a frame shows across its shorter side, in cell units (about four hexes), so a lone
/// cell is not blown up to fill the picture.
pub const LEAST: f32 = 7.0;

/// The frame of `s`'s picture around `cells` at width over height `ratio`: every cell with
/// `REACH` around it, at least `LEAST` across, grown to the ratio about their middle, then moved
/// (not shrunk) to stay on the map; where the map is smaller than the frame in both directions,
/// the frame shrinks to the map's size in one and centres it in the other. The whole map when
/// `cells` is empty, at the ratio.
pub fn around(s: &Scenario, cells: &[Cell], ratio: f32) -> Frame {
    let (world_w, world_h) = world_size(s);
    let centres: Vec<(f32, f32)> = cells
        .iter()
        .map(|c| {
            let (x, y) = unit_center(s.board.grid.kind, *c);
            (x + 1.0, y + 1.0)
        })
        .collect();
    let (mut x0, mut y0, mut x1, mut y1) = if centres.is_empty() {
        (0.0, 0.0, world_w, world_h)
    } else {
        centres
            .iter()
            .fold((f32::MAX, f32::MAX, f32::MIN, f32::MIN), |(a, b, c, d), &(x, y)| {
                (a.min(x - REACH), b.min(y - REACH), c.max(x + REACH), d.max(y + REACH))
            })
    };
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let (mut w, mut h) = ((x1 - x0).max(LEAST), (y1 - y0).max(LEAST));
    if w / h < ratio {
        w = h * ratio;
    } else {
        h = w / ratio;
    }
    // Larger than the map both ways: as large as the map one way, the map centred the other.
    let fit = (world_w / w).max(world_h / h);
    if fit < 1.0 {
        w *= fit;
        h *= fit;
    }
    let place = |centre: f32, size: f32, world: f32| {
        if size >= world {
            (world - size) / 2.0
        } else {
            (centre - size / 2.0).clamp(0.0, world - size)
        }
    };
    (x0, y0) = (place(cx, w, world_w), place(cy, h, world_h));
    (x1, y1) = (x0 + w, y0 + h);
    Frame {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    }
}

/// What a picture's map part, `width` by `map_h` pixels, shows at `aspect`: the whole map for
/// `Aspect::Map`, else `cells` framed at the part's own shape (a band or an overlay beside it
/// leaves the part less wide or less tall than the picture).
pub fn frame_for(s: &Scenario, cells: &[Cell], aspect: Aspect, (width, map_h): (u32, u32)) -> Frame {
    match aspect {
        Aspect::Map => Frame::whole(s),
        _ => around(s, cells, width as f32 / map_h.max(1) as f32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inside(f: &Frame, (x, y): (f32, f32), by: f32) -> bool {
        x - by >= f.x - 1e-3 && x + by <= f.x + f.w + 1e-3 && y - by >= f.y - 1e-3 && y + by <= f.y + f.h + 1e-3
    }

    #[test]
    fn a_frame_holds_its_cells_at_its_shape_on_the_map() {
        let mut checked = 0;
        for i in 0..crate::scenario::SHIPPED.len() {
            let s = crate::scenario::shipped_scenario(i).unwrap();
            let (world_w, world_h) = world_size(&s);
            let cells: Vec<Cell> = s.board.grid.cells().collect();
            // A cell, a pair far apart, a cluster: every few cells of the map.
            for (k, c) in cells.iter().enumerate().step_by(37) {
                let other = cells[(k * 7 + 11) % cells.len()];
                for group in [vec![*c], vec![*c, other]] {
                    for ratio in [16.0 / 9.0, 1.0] {
                        let f = around(&s, &group, ratio);
                        assert!((f.w / f.h - ratio).abs() < 1e-3, "{}: {f:?}", s.raw.name);
                        let fits = f.w <= world_w + 1e-3 && f.h <= world_h + 1e-3;
                        // On the map wherever it fits, centred where it is larger.
                        if f.w <= world_w {
                            assert!(f.x >= -1e-3 && f.x + f.w <= world_w + 1e-3, "{f:?}");
                        }
                        if f.h <= world_h {
                            assert!(f.y >= -1e-3 && f.y + f.h <= world_h + 1e-3, "{f:?}");
                        }
                        assert!(f.w.min(f.h) >= LEAST.min(world_w).min(world_h) - 1e-3, "{f:?}");
                        // The cells and a cell around each show whenever the frame was not shrunk
                        // to the map.
                        if fits && f.w.max(f.h) < world_w.max(world_h) {
                            for g in &group {
                                let (x, y) = unit_center(s.board.grid.kind, *g);
                                assert!(inside(&f, (x + 1.0, y + 1.0), 1.0), "{} {g}: {f:?}", s.raw.name);
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 400, "{checked}");
    }

    #[test]
    fn a_lone_cell_is_framed_with_its_ground_and_an_empty_list_frames_the_map() {
        let s = crate::scenario::default_scenario().unwrap();
        let grid = s.board.grid;
        let cell = Cell::new(grid.width as i32 / 2, grid.height as i32 / 2);
        let f = around(&s, &[cell], 16.0 / 9.0);
        let (x, y) = unit_center(s.board.grid.kind, cell);
        assert!((f.h - LEAST).abs() < 1e-3, "{f:?}");
        assert!(((f.x + f.w / 2.0) - (x + 1.0)).abs() < 1e-3, "centred across: {f:?}");
        assert!(((f.y + f.h / 2.0) - (y + 1.0)).abs() < 1e-3, "centred down: {f:?}");
        let whole = around(&s, &[], 1.0);
        let (world_w, world_h) = world_size(&s);
        assert!((whole.w - world_w.max(world_h)).abs() < 1e-3 || (whole.h - world_h.max(world_w)).abs() < 1e-3);
        assert_eq!(frame_for(&s, &[cell], Aspect::Map, (1600, 900)), Frame::whole(&s));
        assert_eq!(
            frame_for(&s, &[cell], Aspect::Wide, (1600, 900)),
            around(&s, &[cell], 16.0 / 9.0)
        );
        assert_eq!(Aspect::parse("16:9"), Ok(Aspect::Wide));
        assert!(Aspect::parse("4:3").unwrap_err().contains("16:9, 1:1 or map"));
        assert_eq!(Aspect::Wide.height(1600, 0.5), 900);
        assert_eq!(Aspect::Map.height(1000, 0.5), 500);
    }
}
