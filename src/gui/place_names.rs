//! Place names kept clear of the counters: whenever units move (or the zoom changes the names'
//! size), each name goes to the spot around its cell — at its foot, under or over its stack, to
//! its right or left — that covers the least of the counters and of the names placed before it,
//! by the pictures' rule (`art::labels::least_covered`).

use super::board::{NAME_SIZE, PlaceName};
use super::detail::ZoomDetail;
use super::layout::Layout;
use crate::art::counter::{HALF_SIDE, STACK_STEP, stack_rect};
use crate::art::labels::{Rect, centred, least_covered};
use crate::game::components::MapIndex;
use crate::rules::grid::Cell;
use bevy::prelude::*;
use std::collections::BTreeMap;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        keep_names_clear
            .after(super::detail::DetailSystems)
            .run_if(resource_exists::<Layout>.and_then(resource_exists::<MapIndex>)),
    );
}

/// Where the counters of `stacks` (cell, how many) cover the board, in world units.
pub fn counter_rects(layout: &Layout, stacks: impl Iterator<Item = (Cell, usize)>) -> Vec<Rect> {
    stacks
        .map(|(cell, n)| {
            let c = layout.center(cell);
            stack_rect((c.x, c.y), HALF_SIDE, (n, STACK_STEP), 3.0)
        })
        .collect()
}

/// The centre for a name `size` (width, height) of `cell` with `stack` counters in it, clear of
/// `taken` where a spot is: its foot first, then under and over the stack, right, left, then a
/// line lower or higher still and the four corners.
pub fn name_spot(layout: &Layout, cell: Cell, stack: usize, (w, h): (f32, f32), taken: &[Rect]) -> Vec2 {
    let c = layout.center(cell);
    let reach = stack_rect((0.0, 0.0), HALF_SIDE, (stack, STACK_STEP), 3.0)[2];
    let (down, across) = (reach + h / 2.0 + 1.0, reach + w / 2.0 + 2.0);
    let spots = [
        c - Vec2::new(0.0, layout.side() * 0.72),
        c - Vec2::new(0.0, down),
        c + Vec2::new(0.0, down),
        c + Vec2::new(across, 0.0),
        c - Vec2::new(across, 0.0),
        c - Vec2::new(0.0, down + h),
        c + Vec2::new(0.0, down + h),
        c + Vec2::new(across * 0.7, down),
        c + Vec2::new(-across * 0.7, down),
        c + Vec2::new(across * 0.7, -down),
        c + Vec2::new(-across * 0.7, -down),
    ];
    let rects: Vec<Rect> = spots.iter().map(|p| centred((p.x, p.y), (w, h))).collect();
    spots[least_covered(&rects, taken)]
}

/// How far a name's spots reach past its width from its cell's centre: a stack's half-side.
const COUNTER_REACH: f32 = 2.0 * HALF_SIDE;

/// The rectangles of `taken` within `reach` of `centre` across and down: all a name's spots can
/// touch.
fn near_rects(taken: &[Rect], centre: Vec2, reach: f32) -> Vec<Rect> {
    let area = [centre.x - reach, centre.y - reach, centre.x + reach, centre.y + reach];
    taken
        .iter()
        .filter(|r| r[0] < area[2] && r[2] > area[0] && r[1] < area[3] && r[3] > area[1])
        .copied()
        .collect()
}

/// Moves each name (and its halo) to its spot when the units or the names' size changed.
fn keep_names_clear(
    layout: Res<Layout>,
    index: Res<MapIndex>,
    detail: Res<ZoomDetail>,
    mut names: Query<(&mut PlaceName, &Text2d, &mut Transform)>,
    (mut widths, mut last_scale): (Local<std::collections::HashMap<String, f32>>, Local<f32>),
) {
    // Looking at a `Mut` marks nothing changed; only writing through it does.
    let added = names.iter_mut().any(|(p, _, _)| p.is_added());
    // Names grow in steps as the camera draws back (`detail.rs`): a zoom counts only when it
    // takes them to another size, a few times a sweep, not every frame of it.
    let k = detail.name_scale;
    let resized = (k - *last_scale).abs() > 1e-3;
    if !(index.is_changed() || added || resized) {
        return;
    }
    *last_scale = k;
    // Each name's width at size 1 in the map face, measured once (advances scale with size).
    let mut width = |name: &str| -> f32 {
        if !widths.contains_key(name) {
            let w = crate::art::text::Pen::map_face().width(name, 1.0);
            widths.insert(name.to_string(), w);
        }
        widths[name]
    };
    let mut taken = counter_rects(&layout, index.occupied().map(|(c, s)| (c, s.len())));
    // One spot per named cell, in the cells' order, each taking its rectangle.
    let mut spots: BTreeMap<(i32, i32), Vec2> = BTreeMap::new();
    let mut cells: Vec<(Cell, String)> = names.iter().map(|(p, t, _)| (p.cell, t.0.clone())).collect();
    cells.sort_by_key(|(c, _)| (c.row, c.col));
    cells.dedup_by_key(|(c, _)| *c);
    for (cell, name) in cells {
        let size = (width(&name) * NAME_SIZE * k + 4.0, NAME_SIZE * k * 1.25);
        let near = near_rects(&taken, layout.center(cell), size.0 + size.1 + COUNTER_REACH);
        let spot = name_spot(&layout, cell, index.stack(cell).len(), size, &near);
        taken.push(centred((spot.x, spot.y), size));
        spots.insert((cell.col, cell.row), spot);
    }
    // The spot is the name's place from now on (`detail.rs` sizes it there at the next zoom);
    // its transform follows at once.
    for (mut place, _, mut transform) in &mut names {
        let Some(spot) = spots.get(&(place.cell.col, place.cell.row)).copied() else {
            continue;
        };
        if place.at != spot {
            place.at = spot;
        }
        let at = place.at + place.offset * k;
        if transform.translation.truncate() != at {
            transform.translation = at.extend(transform.translation.z);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_leaves_its_cells_counters_for_a_free_spot_and_stays_at_its_foot_when_free() {
        let grid = crate::scenario::default_scenario().unwrap().board.grid;
        let layout = Layout { grid };
        let cell = Cell::new(10, 10);
        let size = (90.0, 16.0);
        // Nothing there: at its foot.
        let foot = name_spot(&layout, cell, 0, size, &[]);
        assert_eq!(foot, layout.center(cell) - Vec2::new(0.0, layout.side() * 0.72));
        // A counter in the cell: the name leaves it, and the spot chosen covers no counter.
        let taken = counter_rects(&layout, [(cell, 1)].into_iter());
        let spot = name_spot(&layout, cell, 1, size, &taken);
        assert_ne!(spot, foot);
        let rect = centred((spot.x, spot.y), size);
        assert_eq!(crate::art::labels::covered(&rect, &taken), 0.0);
        // Its own cell and the one below both held: still clear (over the stack).
        let below = Cell::new(10, 11);
        let taken = counter_rects(&layout, [(cell, 2), (below, 1)].into_iter());
        let spot = name_spot(&layout, cell, 2, size, &taken);
        assert_eq!(
            crate::art::labels::covered(&centred((spot.x, spot.y), size), &taken),
            0.0
        );
    }
}
