//! The editor's board: where cells sit on it, panned with the right or middle button, zoomed
//! with the wheel, and edited with the left button by the current tool (drawing is `paint`).

use super::geometry::{center, corners};
use super::{Editor, Tool};
use crate::edit::Edit;
use crate::edit::tools::{self, char_at, grid_of};
use crate::gui::layout::Layout;
use crate::rules::grid::{Cell, label};
use bevy_egui::egui::{self, Color32, Pos2, Rect, Shape, Stroke as Line};

/// Which part of the map the board shows: the world point at its centre and the zoom (screen
/// pixels per world unit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    pub center: Pos2,
    pub zoom: f32,
    /// Set once the whole map has been fitted into the board.
    pub fitted: bool,
}

impl Default for View {
    fn default() -> Self {
        Self {
            center: Pos2::ZERO,
            zoom: 1.0,
            fitted: false,
        }
    }
}

impl View {
    pub(super) fn to_screen(self, rect: Rect, world: Pos2) -> Pos2 {
        rect.center() + (world - self.center) * self.zoom
    }

    pub(super) fn to_world(self, rect: Rect, screen: Pos2) -> Pos2 {
        self.center + (screen - rect.center()) / self.zoom
    }

    /// Fits the whole map into `rect`.
    pub fn fit(&mut self, rect: Rect, layout: &Layout) {
        let b = layout.bounds();
        let world = Rect::from_min_max(egui::pos2(b.min.x, -b.max.y), egui::pos2(b.max.x, -b.min.y));
        self.center = world.center();
        self.zoom = (rect.width() / world.width()).min(rect.height() / world.height()) * 0.96;
        self.fitted = true;
    }
}

/// A drag in progress with the left button.
#[derive(Clone, Debug, Default)]
pub struct Stroke {
    /// The inverses of the edits made so far, to record as one step when it ends.
    undo: Vec<Edit>,
    /// The cells passed (a road being drawn).
    path: Vec<Cell>,
    /// Where a select-drag started.
    from: Option<Cell>,
}

fn pick(layout: &Layout, world: Pos2) -> Option<Cell> {
    layout.pick(bevy::math::Vec2::new(world.x, -world.y))
}

/// The cell side nearest `world` in `cell`: the neighbour across it.
fn nearest_side(layout: &Layout, cell: Cell, world: Pos2) -> Option<Cell> {
    let grid = layout.grid;
    grid.neighbours(cell).min_by(|a, b| {
        let da = center(layout, *a).distance_sq(world);
        let db = center(layout, *b).distance_sq(world);
        da.total_cmp(&db)
    })
}

/// The side `world` is on when drawing along sides: near the middle part of one side, not at a
/// corner where a drag turning from one side to the next would catch a third.
fn side_under(layout: &Layout, cell: Cell, world: Pos2) -> Option<Cell> {
    let other = nearest_side(layout, cell, world)?;
    let (p, q) = layout.edge_segment(cell, other);
    let (p, q) = (egui::pos2(p.x, -p.y), egui::pos2(q.x, -q.y));
    let d = q - p;
    let length = d.length().max(1e-3);
    let along = (world - p).dot(d) / length;
    let across = ((world - p).x * d.y - (world - p).y * d.x).abs() / length;
    (across < layout.side() * 0.35 && along > length * 0.2 && along < length * 0.8).then_some(other)
}

/// The board: draws the map and takes the pointer for the current tool.
pub fn board(ui: &mut egui::Ui, editor: &mut Editor) {
    let rect = ui.max_rect();
    let response = ui.allocate_rect(rect, egui::Sense::click_and_drag());
    let layout = Layout {
        grid: grid_of(&editor.raw),
    };
    if !editor.view.fitted {
        editor.view.fit(rect, &layout);
        // For scripts driving the editor (.ci/editor-smoke): where the map sits on screen.
        let v = editor.view;
        bevy::log::info!(
            "editor board: rect {:.1} {:.1} {:.1} {:.1}; centre {:.3} {:.3}; zoom {:.5}",
            rect.min.x,
            rect.min.y,
            rect.max.x,
            rect.max.y,
            v.center.x,
            v.center.y,
            v.zoom
        );
    }
    navigate(ui, &response, rect, &mut editor.view);
    let pointer = response.hover_pos().map(|p| editor.view.to_world(rect, p));
    let hovered = pointer.and_then(|w| pick(&layout, w));
    use_tool(ui, &response, editor, &layout, pointer, hovered);
    let painter = ui.painter_at(rect);
    super::paint::draw(&painter, rect, editor, &layout);
    if let (Some(cell), Some(world)) = (hovered, pointer) {
        preview(&painter, rect, editor, &layout, cell, world);
        hover_text(ui, rect, editor, cell);
    }
}

/// Right or middle drag pans; the wheel zooms on the pointer.
fn navigate(ui: &egui::Ui, response: &egui::Response, rect: Rect, view: &mut View) {
    if response.dragged_by(egui::PointerButton::Secondary) || response.dragged_by(egui::PointerButton::Middle) {
        view.center -= response.drag_delta() / view.zoom;
    }
    if let Some(at) = response.hover_pos() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            let before = view.to_world(rect, at);
            view.zoom = (view.zoom * 1.0015f32.powf(scroll)).clamp(0.02, 8.0);
            let after = view.to_world(rect, at);
            view.center += before - after;
        }
    }
}

fn use_tool(
    ui: &egui::Ui,
    response: &egui::Response,
    editor: &mut Editor,
    layout: &Layout,
    pointer: Option<Pos2>,
    hovered: Option<Cell>,
) {
    let (pressed, down, released, shift, ctrl) = ui.input(|i| {
        (
            i.pointer.primary_pressed(),
            i.pointer.primary_down(),
            i.pointer.primary_released(),
            i.modifiers.shift,
            i.modifiers.command,
        )
    });
    if pressed && response.hovered() {
        // A stroke whose release never came (the window lost the pointer) is recorded first.
        if let Some(old) = editor.stroke.take() {
            end(editor, old, None, false);
        }
        editor.stroke = Some(Stroke::default());
        if let Some(cell) = hovered {
            begin(editor, layout, cell, pointer.unwrap_or_default(), shift);
        }
    } else if down
        && editor.stroke.is_some()
        && let Some(cell) = hovered
    {
        continue_stroke(editor, layout, cell, pointer.unwrap_or_default(), shift);
    }
    if released && let Some(stroke) = editor.stroke.take() {
        end(editor, stroke, hovered, ctrl);
    }
}

/// Applies an edit as part of the stroke (one undo step when it ends).
fn stroke_edit(editor: &mut Editor, edit: Edit) {
    if edit.is_empty() {
        return;
    }
    let inverse = edit.apply(&mut editor.raw);
    if let Some(s) = editor.stroke.as_mut() {
        s.undo.push(inverse);
    }
    editor.changed();
    editor.refresh_meshes();
}

fn begin(editor: &mut Editor, layout: &Layout, cell: Cell, world: Pos2, shift: bool) {
    match editor.tool {
        Tool::Select => {
            let here = tools::units_in(&editor.raw, cell);
            if shift {
                for id in here {
                    if !editor.units.contains(&id) {
                        editor.units.push(id);
                    }
                }
            } else {
                editor.units = here;
            }
            editor.cell = Some(cell);
            if let Some(s) = editor.stroke.as_mut() {
                s.from = Some(cell);
            }
        }
        Tool::Terrain if editor.settings.fill => {
            let edit = tools::fill(&editor.raw, cell, &editor.settings.terrain);
            stroke_edit(editor, edit);
        }
        Tool::Place => editor.cell = Some(cell),
        Tool::Feature => {
            let edit = tools::toggle_feature(&editor.raw, cell, editor.settings.feature);
            editor.cell = Some(cell);
            editor.apply(edit);
        }
        Tool::Objective => {
            let exists = editor.raw.objectives.iter().any(|o| o.cell == label(cell));
            let objective = (!exists).then(|| crate::scenario::file::RawObjective {
                cell: label(cell),
                name: editor
                    .raw
                    .map
                    .places
                    .get(&label(cell))
                    .cloned()
                    .unwrap_or_else(|| format!("Objective {}", label(cell))),
                points: editor.settings.objective_points,
                held_by: None,
            });
            let edit = tools::set_objective(&editor.raw, cell, objective);
            editor.cell = Some(cell);
            editor.apply(edit);
        }
        Tool::Unit => {
            let Some(side) = editor.raw.sides.get(editor.settings.side).map(|s| s.id.clone()) else {
                editor.status = "Add a side first (scenario properties)".into();
                return;
            };
            let unit = tools::new_unit(&editor.raw, &side, editor.settings.class, editor.settings.size, cell);
            let id = tools::fresh_id(&editor.raw, &unit.id);
            editor.apply(tools::place_unit(&editor.raw, unit));
            editor.cell = Some(cell);
            editor.units = vec![id];
        }
        _ => continue_stroke(editor, layout, cell, world, shift),
    }
}

fn continue_stroke(editor: &mut Editor, layout: &Layout, cell: Cell, world: Pos2, shift: bool) {
    let erase = editor.settings.erase || shift;
    match editor.tool {
        Tool::Terrain if !editor.settings.fill => {
            let cells = tools::brush(&layout.grid, cell, editor.settings.brush);
            let edit = tools::paint(&editor.raw, &cells, &editor.settings.terrain);
            stroke_edit(editor, edit);
        }
        Tool::Edge => {
            if let Some(other) = side_under(layout, cell, world) {
                let edit = tools::set_edges(&editor.raw, &[(cell, other)], editor.settings.edge, !erase);
                stroke_edit(editor, edit);
            }
        }
        Tool::Road if erase => {
            if let Some(other) = nearest_side(layout, cell, world) {
                let edit = tools::remove_road_step(&editor.raw, cell, other);
                stroke_edit(editor, edit);
            }
        }
        Tool::Road => {
            if let Some(s) = editor.stroke.as_mut()
                && s.path.last() != Some(&cell)
            {
                s.path.push(cell);
            }
        }
        _ => {}
    }
}

fn end(editor: &mut Editor, stroke: Stroke, released_on: Option<Cell>, ctrl: bool) {
    let mut undo = stroke.undo;
    if !undo.is_empty() {
        undo.reverse();
        editor.history.record(Edit::Batch(undo));
    }
    match editor.tool {
        Tool::Road if stroke.path.len() >= 2 => {
            let edit = tools::add_road(&editor.raw, &stroke.path);
            editor.apply(edit);
        }
        Tool::Select => {
            if let (Some(from), Some(to)) = (stroke.from, released_on)
                && from != to
                && !editor.units.is_empty()
            {
                let ids = editor.units.clone();
                let edit = if ctrl {
                    tools::copy_units(&editor.raw, &ids, to)
                } else {
                    tools::move_units(&editor.raw, &ids, to)
                };
                editor.apply(edit);
                editor.cell = Some(to);
                if ctrl {
                    editor.units = tools::units_in(&editor.raw, to)
                        .into_iter()
                        .rev()
                        .take(ids.len())
                        .collect();
                }
            }
        }
        _ => {}
    }
}

/// What the tool would do where the pointer is: the brush, the side, the road so far.
fn preview(painter: &egui::Painter, rect: Rect, editor: &Editor, layout: &Layout, cell: Cell, world: Pos2) {
    let view = editor.view;
    let outline = |cell: Cell, color: Color32| {
        let points: Vec<Pos2> = corners(layout, cell)
            .into_iter()
            .map(|p| view.to_screen(rect, p))
            .collect();
        painter.add(Shape::closed_line(points, Line::new(2.0, color)));
    };
    match editor.tool {
        Tool::Terrain if !editor.settings.fill => {
            for c in tools::brush(&layout.grid, cell, editor.settings.brush) {
                outline(c, Color32::WHITE);
            }
        }
        Tool::Edge | Tool::Road if editor.tool == Tool::Edge || editor.settings.erase => {
            if let Some(other) = nearest_side(layout, cell, world) {
                let (p, q) = layout.edge_segment(cell, other);
                let (p, q) = (egui::pos2(p.x, -p.y), egui::pos2(q.x, -q.y));
                painter.line_segment(
                    [view.to_screen(rect, p), view.to_screen(rect, q)],
                    Line::new(4.0, Color32::WHITE),
                );
            }
        }
        _ => outline(cell, Color32::from_rgb(255, 235, 120)),
    }
    if let Some(s) = &editor.stroke
        && editor.tool == Tool::Road
        && !s.path.is_empty()
    {
        let points: Vec<Pos2> = s
            .path
            .iter()
            .map(|c| view.to_screen(rect, center(layout, *c)))
            .collect();
        painter.add(Shape::line(points, Line::new(3.0, Color32::from_rgb(230, 170, 90))));
    }
    if let Some(selected) = editor.cell {
        outline(selected, Color32::YELLOW);
    }
}

/// The hovered cell in words, at the board's foot.
fn hover_text(ui: &egui::Ui, rect: Rect, editor: &Editor, cell: Cell) {
    let terrain = char_at(&editor.raw, cell)
        .and_then(|c| editor.raw.map.legend.get(&c).cloned())
        .unwrap_or_else(|| "?".into());
    // The ruleset's name for it, as the palette shows it.
    let terrain = editor
        .ruleset
        .as_ref()
        .and_then(|r| r.terrain_ids.get(&terrain).map(|t| r.terrain_look(*t).name.clone()))
        .unwrap_or(terrain);
    let mut words = vec![label(cell), terrain];
    if let Some(name) = editor.raw.map.places.get(&label(cell)) {
        words.push(name.clone());
    }
    let units = tools::units_in(&editor.raw, cell);
    if !units.is_empty() {
        words.push(crate::rules::units::counted(units.len() as u64, "unit", "units"));
    }
    let text = words.join(" · ");
    let painter = ui.painter_at(rect);
    let font = egui::FontId::proportional(15.0);
    let galley = painter.layout_no_wrap(text, font, Color32::WHITE);
    let at = rect.left_bottom() + egui::vec2(8.0, -8.0 - galley.size().y);
    painter.rect_filled(
        Rect::from_min_size(at, galley.size()).expand(4.0),
        3.0,
        Color32::from_black_alpha(170),
    );
    painter.galley(at, galley, Color32::WHITE);
}

impl Editor {
    /// Remakes the terrain meshes the last change touched (during a stroke, at once).
    pub fn refresh_meshes(&mut self) {
        let ruleset = self.ruleset.clone();
        self.meshes.sync(&self.raw, ruleset.as_deref());
    }
}
