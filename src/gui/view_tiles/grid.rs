//! The tiles' geometry, pure: the grid they are cut on at one zoom, which tiles and which parts of
//! the still picture make up a view, and which tiles a moving view reaches next.

use bevy::math::IRect;
use bevy::prelude::*;

/// A tile's side in pixels.
pub const TILE: i32 = 256;
/// Tiles around the view baked ahead and kept: this many rings.
pub const RINGS: i32 = 1;
/// Frames ahead the tiles are baked for: one the view reaches later is left till then.
const HORIZON: f32 = 90.0;

/// One rectangle of a picture copied into the frame: from its pixel `from` to the frame's `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceCopy {
    pub image: AssetId<Image>,
    pub from: UVec2,
    pub to: UVec2,
    pub size: UVec2,
}

/// The grid tiles are cut on at one zoom: screen pixels per world unit, and the world point at
/// the top-left corner of tile (0, 0). Grid pixels run right and down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileGrid {
    pub per_unit: f32,
    pub origin: Vec2,
}

impl TileGrid {
    /// A world point in the grid's pixels.
    pub fn pixel(&self, at: Vec2) -> Vec2 {
        Vec2::new(at.x - self.origin.x, self.origin.y - at.y) * self.per_unit
    }

    /// Whether a view showing `per_unit` pixels a world unit is at this grid's zoom.
    pub fn same_zoom(&self, per_unit: f32) -> bool {
        (self.per_unit - per_unit).abs() <= self.per_unit * 1e-5
    }

    /// The pixels of a view centred on `centre` showing `area` world units on `pixels` pixels,
    /// its top-left corner at the nearest whole grid pixel.
    pub fn view_rect(&self, centre: Vec2, area: Vec2, pixels: UVec2) -> IRect {
        let corner = self.pixel(centre + Vec2::new(-area.x, area.y) / 2.0).round().as_ivec2();
        IRect::from_corners(corner, corner + pixels.as_ivec2())
    }

    /// A tile's pixels.
    pub fn tile_rect(cell: IVec2) -> IRect {
        IRect::from_corners(cell * TILE, (cell + IVec2::ONE) * TILE)
    }

    /// The world point at a tile's centre, and the world size of a tile.
    pub fn tile_world(&self, cell: IVec2) -> (Vec2, Vec2) {
        let side = TILE as f32 / self.per_unit;
        let centre = self.origin + Vec2::new(cell.x as f32 + 0.5, -(cell.y as f32 + 0.5)) * side;
        (centre, Vec2::splat(side))
    }
}

/// Whether `rect` lies within the rings kept around `view`, one ring more: a tile or picture
/// there is worth keeping.
pub fn near(view: IRect, rect: IRect) -> bool {
    !view.inflate(TILE * (RINGS + 1)).intersect(rect).is_empty()
}

/// Whether `outer` holds every pixel of `inner` (Bevy's `IRect::contains` counts the far edge in).
fn holds(outer: IRect, inner: IRect) -> bool {
    inner.min.cmpge(outer.min).all() && inner.max.cmple(outer.max).all()
}

/// The tiles a rectangle of grid pixels overlaps, row by row.
pub fn cells_over(rect: IRect) -> impl Iterator<Item = IVec2> {
    let lo = rect.min.div_euclid(IVec2::splat(TILE));
    let hi = (rect.max - IVec2::ONE).div_euclid(IVec2::splat(TILE));
    (lo.y..=hi.y).flat_map(move |y| (lo.x..=hi.x).map(move |x| IVec2::new(x, y)))
}

/// The copies that make up the view `view` (grid pixels), tile by tile: from the still picture
/// `still` (its image and pixels) where it holds that part whole, else from the tile. `Err`
/// lists the tiles missing.
pub fn assemble(
    view: IRect,
    still: Option<(AssetId<Image>, IRect)>,
    tile: impl Fn(IVec2) -> Option<AssetId<Image>>,
) -> Result<Vec<PieceCopy>, Vec<IVec2>> {
    let mut copies = Vec::new();
    let mut missing = Vec::new();
    for cell in cells_over(view) {
        let part = view.intersect(TileGrid::tile_rect(cell));
        let source = match still.filter(|(_, s)| holds(*s, part)) {
            Some((image, s)) => Some((image, part.min - s.min)),
            None => tile(cell).map(|image| (image, part.min - cell * TILE)),
        };
        match source {
            Some((image, from)) => copies.push(PieceCopy {
                image,
                from: from.as_uvec2(),
                to: (part.min - view.min).as_uvec2(),
                size: part.size().as_uvec2(),
            }),
            None => missing.push(cell),
        }
    }
    if missing.is_empty() { Ok(copies) } else { Err(missing) }
}

/// The tiles to bake ahead around `view`, moving `velocity` grid pixels a frame: those within
/// `RINGS` of it that do not exist yet and that it reaches within `HORIZON` frames where the
/// still picture (`still`) does not hold them, soonest first.
pub fn wanted_ahead(view: IRect, velocity: Vec2, still: Option<IRect>, have: impl Fn(IVec2) -> bool) -> Vec<IVec2> {
    let mut cells: Vec<(f32, IVec2)> = cells_over(view.inflate(TILE * RINGS))
        .filter(|&c| !have(c))
        .filter_map(|c| {
            let soonest = uncovered(TileGrid::tile_rect(c), still)
                .into_iter()
                .map(|part| frames_until(view, velocity, part))
                .fold(f32::INFINITY, f32::min);
            (soonest <= HORIZON).then_some((soonest, c))
        })
        .collect();
    cells.sort_by(|a, b| a.0.total_cmp(&b.0));
    cells.into_iter().map(|(_, c)| c).collect()
}

/// The parts of `cell` outside `still`: up to four rectangles.
fn uncovered(cell: IRect, still: Option<IRect>) -> Vec<IRect> {
    let inner = still.map_or(IRect::default(), |s| cell.intersect(s));
    if inner.is_empty() {
        return vec![cell];
    }
    [
        IRect::from_corners(cell.min, IVec2::new(cell.max.x, inner.min.y)),
        IRect::from_corners(IVec2::new(cell.min.x, inner.max.y), cell.max),
        IRect::from_corners(
            IVec2::new(cell.min.x, inner.min.y),
            IVec2::new(inner.min.x, inner.max.y),
        ),
        IRect::from_corners(
            IVec2::new(inner.max.x, inner.min.y),
            IVec2::new(cell.max.x, inner.max.y),
        ),
    ]
    .into_iter()
    .filter(|r| !r.is_empty())
    .collect()
}

/// Frames until a view moving `velocity` pixels a frame overlaps `target` (0 if it does now,
/// infinite if never).
fn frames_until(view: IRect, velocity: Vec2, target: IRect) -> f32 {
    // The open interval of times the two overlap along one axis.
    let axis = |lo: i32, hi: i32, t_lo: i32, t_hi: i32, v: f32| {
        if v == 0.0 {
            if lo < t_hi && hi > t_lo {
                (f32::NEG_INFINITY, f32::INFINITY)
            } else {
                (0.0, 0.0)
            }
        } else {
            let a = (t_lo - hi) as f32 / v;
            let b = (t_hi - lo) as f32 / v;
            (a.min(b), a.max(b))
        }
    };
    let x = axis(view.min.x, view.max.x, target.min.x, target.max.x, velocity.x);
    let y = axis(view.min.y, view.max.y, target.min.y, target.max.y, velocity.y);
    let start = x.0.max(y.0).max(0.0);
    if start < x.1.min(y.1) { start } else { f32::INFINITY }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn image(n: u128) -> AssetId<Image> {
        AssetId::Uuid {
            uuid: bevy::asset::uuid::Uuid::from_u128(n),
        }
    }

    #[test]
    fn a_view_is_copied_whole_from_tiles_and_the_still_picture_without_overlap() {
        let mut checked = 0;
        // A still picture of the window's size, and one a pixel short of tiles' edges (1279×1023).
        let cases = [(0, 0), (12, 0), (1, 1), (255, 7), (-300, 511), (1000, -1000)]
            .into_iter()
            .flat_map(|at| [(at, (1600, 1000)), (at, (1279, 1023))]);
        for ((x, y), (w, h)) in cases {
            let view = IRect::from_corners(IVec2::new(x, y), IVec2::new(x + w, y + h));
            let still = Some((image(1), IRect::new(0, 0, w, h)));
            let copies = assemble(view, still, |c| {
                Some(image(100 + (c.x + 50 + 100 * (c.y + 50)) as u128))
            })
            .unwrap();
            // Every pixel of the frame exactly once, each copy inside its picture.
            let mut covered = vec![0u8; (w * h) as usize];
            for c in &copies {
                let source = if c.image == image(1) {
                    UVec2::new(w as u32, h as u32)
                } else {
                    UVec2::splat(TILE as u32)
                };
                assert!((c.from + c.size).cmple(source).all(), "{c:?} reads past its picture");
                for py in c.to.y..c.to.y + c.size.y {
                    for px in c.to.x..c.to.x + c.size.x {
                        covered[(py * w as u32 + px) as usize] += 1;
                    }
                }
            }
            assert!(covered.iter().all(|&n| n == 1), "view {w}×{h} at {x},{y}");
            checked += 1;
        }
        assert_eq!(checked, 12);
    }

    #[test]
    fn the_still_picture_stands_in_for_tiles_it_holds_and_missing_tiles_are_named() {
        let view = IRect::new(12, 0, 1612, 1000);
        let still = Some((image(1), IRect::new(0, 0, 1600, 1000)));
        let missing = assemble(view, still, |_| None).unwrap_err();
        // The strip past the still picture's right edge: the column of tiles 6 (1536..1792).
        assert_eq!(missing, (0..4).map(|y| IVec2::new(6, y)).collect::<Vec<_>>());
        // Not moved: the still picture alone.
        let copies = assemble(IRect::new(0, 0, 1600, 1000), still, |_| None).unwrap();
        assert!(copies.iter().all(|c| c.image == image(1)) && copies.len() == 7 * 4);
    }

    #[test]
    fn tiles_ahead_come_first_the_way_the_view_moves_and_none_it_will_not_reach() {
        let view = IRect::new(0, 0, 1600, 1000);
        let right = wanted_ahead(view, Vec2::new(12.0, 0.0), Some(view), |_| false);
        let left = wanted_ahead(view, Vec2::new(-12.0, 0.0), Some(view), |_| false);
        let down = wanted_ahead(view, Vec2::new(0.0, 12.0), Some(view), |_| false);
        // Moving right: the column past the still picture's right edge (tiles 6 and 7), its four
        // rows first; nothing above or below the view, which it never reaches.
        assert_eq!(right[..4], (0..4).map(|y| IVec2::new(6, y)).collect::<Vec<_>>()[..]);
        assert!(right.iter().all(|c| c.x >= 6 && (0..4).contains(&c.y)), "{right:?}");
        assert_eq!(right.len(), 8);
        assert!(left.iter().all(|c| c.x == -1 && (0..4).contains(&c.y)), "{left:?}");
        assert_eq!(left.len(), 4);
        // Moving down: row 3 first (its bottom strip lies past the picture), then row 4.
        assert!(down[..7].iter().all(|c| c.y == 3) && down.iter().all(|c| c.y >= 3 && (0..7).contains(&c.x)));
        // Standing still, nothing ahead; without a still picture, the view's own tiles first.
        assert!(wanted_ahead(view, Vec2::ZERO, Some(view), |_| false).is_empty());
        assert_eq!(wanted_ahead(view, Vec2::ZERO, None, |_| false).len(), 7 * 4);
    }

    #[test]
    fn a_grid_puts_a_view_on_whole_pixels_and_tiles_where_the_camera_sees_them() {
        let grid = TileGrid {
            per_unit: 2.0,
            origin: Vec2::new(-400.0, 250.0),
        };
        // The view whose corner is the origin sits at pixel 0; one moved 6 world units right and
        // 3 up is 12 pixels right and 6 up.
        let area = Vec2::new(800.0, 500.0);
        assert_eq!(
            grid.view_rect(Vec2::ZERO, area, UVec2::new(1600, 1000)).min,
            IVec2::ZERO
        );
        assert_eq!(
            grid.view_rect(Vec2::new(6.0, 3.0), area, UVec2::new(1600, 1000)).min,
            IVec2::new(12, -6)
        );
        let (centre, side) = grid.tile_world(IVec2::new(1, 2));
        assert_eq!(side, Vec2::splat(128.0));
        assert_eq!(grid.pixel(centre), Vec2::new(1.5, 2.5) * TILE as f32);
        assert!(grid.same_zoom(2.0) && !grid.same_zoom(2.01));
    }
}
