//! Where a cell sits on the editor's board, in the board's world (x right, y down): read by the
//! board's input and by its drawing alike.

use crate::gui::layout::Layout;
use crate::rules::grid::Cell;
use bevy_egui::egui::{self, Pos2};

/// Cells per side of a terrain mesh chunk.
pub(super) const CHUNK: i32 = 16;

/// A cell's centre in the editor's world (x right, y down).
pub(super) fn center(layout: &Layout, cell: Cell) -> Pos2 {
    let v = layout.center(cell);
    egui::pos2(v.x, -v.y)
}

/// A cell's corners in the editor's world.
pub(super) fn corners(layout: &Layout, cell: Cell) -> Vec<Pos2> {
    layout
        .corners(cell)
        .into_iter()
        .map(|v| egui::pos2(v.x, -v.y))
        .collect()
}
