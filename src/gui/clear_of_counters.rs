//! Lines drawn over the board (move trails, retreat choices, the selection and reach outlines,
//! zones of control) broken where a stack of counters stands: gizmos are drawn after everything
//! else, so a line through a counter would cross its values; broken, it reads as passing under.

use super::counters::COUNTER;
use super::layout::Layout;
use crate::art::counter::{STACK_STEP, stack_rect};
use crate::game::components::MapIndex;
use crate::rules::grid::Cell;
use bevy::gizmos::config::GizmoConfigGroup;
use bevy::math::{Rect, Vec2};
use bevy::prelude::{Color, Gizmos};

/// World units kept between a line's broken end and the counter's frame.
const GAP: f32 = 3.0;
/// The counter's dark frame around its face, in world units (`counters::face_mesh`).
const FRAME: f32 = 3.0;

/// The rectangle the counters of `cell`'s stack cover (with the gap a line keeps), or `None`
/// when nothing stands there.
pub fn stack_box(layout: &Layout, index: &MapIndex, cell: Cell) -> Option<Rect> {
    let n = index.stack(cell).len();
    (n > 0).then(|| box_of_stack(layout.center(cell), n))
}

/// The rectangle `n` counters stacked at `center` cover, each offset by `STACK_STEP` from the
/// one under it, with the gap a line keeps.
pub fn box_of_stack(center: Vec2, n: usize) -> Rect {
    let [x0, y0, x1, y1] = stack_rect((center.x, center.y), COUNTER / 2.0 + FRAME, (n, STACK_STEP), GAP);
    Rect::new(x0, y0, x1, y1)
}

/// The boxes of the stacks at `cells` (cells without counters give none).
pub fn boxes_at(layout: &Layout, index: &MapIndex, cells: &[Cell]) -> Vec<Rect> {
    cells.iter().filter_map(|c| stack_box(layout, index, *c)).collect()
}

/// The part `t0..t1` (0 at `a`, 1 at `b`) of the segment from `a` to `b` inside `r`, if any
/// (Liang and Barsky's clipping).
fn span_inside(a: Vec2, b: Vec2, r: Rect) -> Option<(f32, f32)> {
    let d = b - a;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [
        (-d.x, a.x - r.min.x),
        (d.x, r.max.x - a.x),
        (-d.y, a.y - r.min.y),
        (d.y, r.max.y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
            continue;
        }
        let t = q / p;
        if p < 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
    }
    (t0 < t1).then_some((t0, t1))
}

/// The pieces of the segment from `a` to `b` outside every box, in order from `a`.
pub fn pieces_outside(boxes: &[Rect], a: Vec2, b: Vec2) -> Vec<(Vec2, Vec2)> {
    let mut spans = vec![(0.0f32, 1.0f32)];
    for r in boxes {
        let Some((c0, c1)) = span_inside(a, b, *r) else {
            continue;
        };
        spans = spans
            .into_iter()
            .flat_map(|(s0, s1)| [(s0, c0.min(s1)), (c1.max(s0), s1)])
            .filter(|(s0, s1)| s1 - s0 > 1e-4)
            .collect();
    }
    spans
        .into_iter()
        .map(|(s0, s1)| (a.lerp(b, s0), a.lerp(b, s1)))
        .collect()
}

/// An arrow from `a` to `b` broken around the boxes: the pieces drawn as plain lines, and the
/// last piece (the one nearest `b`), which carries the head.
pub fn arrow_outside(boxes: &[Rect], a: Vec2, b: Vec2) -> (Vec<(Vec2, Vec2)>, Option<(Vec2, Vec2)>) {
    let mut pieces = pieces_outside(boxes, a, b);
    let head = pieces.pop();
    (pieces, head)
}

/// A trail's arrow head, in world units (a counter is 50 wide).
const ARROW_TIP: f32 = 14.0;

/// Draws the arrow from `a` to `b` broken around `boxes`, its head on the piece nearest `b`.
pub fn draw_arrow<C: GizmoConfigGroup>(gizmos: &mut Gizmos<'_, '_, C>, boxes: &[Rect], a: Vec2, b: Vec2, color: Color) {
    let (lines, head) = arrow_outside(boxes, a, b);
    for (p, q) in lines {
        gizmos.line_2d(p, q, color);
    }
    if let Some((p, q)) = head {
        gizmos
            .arrow_2d(p, q, color)
            .with_tip_length(ARROW_TIP.min(p.distance(q) * 0.8));
    }
}

/// Draws the line from `a` to `b` broken around `boxes`.
pub fn draw_line<C: GizmoConfigGroup>(gizmos: &mut Gizmos<'_, '_, C>, boxes: &[Rect], a: Vec2, b: Vec2, color: Color) {
    for (p, q) in pieces_outside(boxes, a, b) {
        gizmos.line_2d(p, q, color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn length(pieces: &[(Vec2, Vec2)]) -> f32 {
        pieces.iter().map(|(a, b)| a.distance(*b)).sum()
    }

    #[test]
    fn a_line_between_two_stacks_shows_only_the_gap_between_them() {
        let (a, b) = (Vec2::ZERO, Vec2::new(100.0, 0.0));
        let boxes = [box_of_stack(a, 1), box_of_stack(b, 1)];
        let pieces = pieces_outside(&boxes, a, b);
        assert_eq!(pieces.len(), 1, "{pieces:?}");
        let half = COUNTER / 2.0 + FRAME + GAP;
        assert!((pieces[0].0.x - half).abs() < 1e-3 && (pieces[0].1.x - (100.0 - half)).abs() < 1e-3);
        // No point of any piece inside a box.
        for (p, q) in &pieces {
            for t in 0..=10 {
                let x = p.lerp(*q, t as f32 / 10.0);
                assert!(boxes.iter().all(|r| !r.inflate(-1e-3).contains(x)), "{x} in a box");
            }
        }
    }

    #[test]
    fn a_line_past_an_empty_cell_or_beside_a_box_is_whole() {
        let (a, b) = (Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
        assert_eq!(pieces_outside(&[], a, b), vec![(a, b)]);
        let beside = box_of_stack(Vec2::new(0.0, 80.0), 3);
        assert_eq!(pieces_outside(&[beside], a, b), vec![(a, b)]);
        // Just below a box, along it.
        let edge = Rect::new(-10.0, 0.5, 10.0, 20.0);
        assert_eq!(length(&pieces_outside(&[edge], a, b)), 100.0);
    }

    #[test]
    fn a_box_across_the_middle_splits_the_line_in_two_and_one_over_it_hides_it() {
        let (a, b) = (Vec2::new(-100.0, -100.0), Vec2::new(100.0, 100.0));
        let middle = Rect::from_center_half_size(Vec2::ZERO, Vec2::splat(20.0));
        let pieces = pieces_outside(&[middle], a, b);
        assert_eq!(pieces.len(), 2);
        assert!((length(&pieces) - (a.distance(b) - 2.0 * 20.0 * 2f32.sqrt())).abs() < 1e-2);
        assert!(pieces[0].0 == a && pieces[1].1 == b, "in order from a");
        let over = Rect::from_center_half_size(Vec2::ZERO, Vec2::splat(500.0));
        assert!(pieces_outside(&[over], a, b).is_empty());
        assert_eq!(arrow_outside(&[over], a, b), (vec![], None));
    }

    #[test]
    fn an_arrow_keeps_its_head_on_the_piece_nearest_its_end() {
        let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(300.0, 0.0));
        let boxes = [box_of_stack(Vec2::new(150.0, 0.0), 1), box_of_stack(b, 2)];
        let (lines, head) = arrow_outside(&boxes, a, b);
        assert_eq!(lines, vec![(a, Vec2::new(150.0 - 31.0, 0.0))]);
        let (from, to) = head.expect("a head");
        assert!(
            (from.x - 181.0).abs() < 1e-3 && (to.x - (300.0 - 34.0)).abs() < 1e-3,
            "{from} {to}"
        );
    }

    #[test]
    fn a_taller_stack_covers_more() {
        let one = box_of_stack(Vec2::ZERO, 1);
        let four = box_of_stack(Vec2::ZERO, 4);
        assert!((four.width() - one.width() - 3.0 * STACK_STEP).abs() < 1e-4);
        assert!(four.contains(Vec2::splat(COUNTER / 2.0 + 1.5 * STACK_STEP)));
    }
}
