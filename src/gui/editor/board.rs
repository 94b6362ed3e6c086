//! The editor's board: the map drawn with egui (terrain as meshes cached per chunk and remade
//! only where a stroke changed them; edges, roads, features, objectives, names and units on top),
//! panned with the right or middle button, zoomed with the wheel, and edited with the left
//! button by the current tool.

use super::{Editor, Tool};
use crate::edit::Edit;
use crate::edit::tools::{self, char_at, grid_of};
use crate::gui::layout::Layout;
use crate::rules::grid::{Cell, label, parse_label};
use crate::rules::terrain::EdgeFeature;
use crate::scenario::Ruleset;
use crate::scenario::file::RawScenario;
use bevy_egui::egui::{self, Color32, Mesh, Pos2, Rect, Shape, Stroke as Line};
use std::collections::HashMap;
use std::sync::Arc;

/// Cells per side of a terrain mesh chunk.
const CHUNK: i32 = 16;

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
    fn to_screen(self, rect: Rect, world: Pos2) -> Pos2 {
        rect.center() + (world - self.center) * self.zoom
    }

    fn to_world(self, rect: Rect, screen: Pos2) -> Pos2 {
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

/// A cell's centre in the editor's world (x right, y down).
fn center(layout: &Layout, cell: Cell) -> Pos2 {
    let v = layout.center(cell);
    egui::pos2(v.x, -v.y)
}

fn corners(layout: &Layout, cell: Cell) -> Vec<Pos2> {
    layout
        .corners(cell)
        .into_iter()
        .map(|v| egui::pos2(v.x, -v.y))
        .collect()
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

fn rgb([r, g, b]: [u8; 3]) -> Color32 {
    Color32::from_rgb(r, g, b)
}

fn darker(c: Color32, f: f32) -> Color32 {
    Color32::from_rgb(
        (c.r() as f32 * f) as u8,
        (c.g() as f32 * f) as u8,
        (c.b() as f32 * f) as u8,
    )
}

/// The colour of a terrain character: the ruleset's look, grey when unknown.
fn terrain_color(raw: &RawScenario, ruleset: Option<&Ruleset>, c: char) -> Color32 {
    let look = raw
        .map
        .legend
        .get(&c)
        .and_then(|id| ruleset.and_then(|r| r.terrain_ids.get(id).map(|t| r.terrain_look(*t).color)));
    look.map_or(Color32::from_rgb(150, 60, 150), rgb)
}

/// The terrain meshes, one per chunk of cells, remade only where the map changed.
#[derive(Default)]
pub struct TerrainMeshes {
    chunks: HashMap<(i32, i32), Arc<Mesh>>,
    /// The rows the meshes were made from.
    rows: Vec<Vec<char>>,
    made_for: Option<(
        crate::rules::grid::GridKind,
        u32,
        u32,
        std::collections::BTreeMap<char, String>,
    )>,
}

impl TerrainMeshes {
    /// Remakes the chunks whose cells changed since the last call (all of them when the grid or
    /// legend changed). Returns how many were remade.
    pub fn sync(&mut self, raw: &RawScenario, ruleset: Option<&Ruleset>) -> usize {
        let key = (raw.map.grid, raw.map.width, raw.map.height, raw.map.legend.clone());
        let rows: Vec<Vec<char>> = raw.map.rows.iter().map(|r| r.chars().collect()).collect();
        // A new legend entry changes no cell drawn so far; a changed or removed one may change any.
        let all = self.made_for.as_ref().is_none_or(|(g, w, h, legend)| {
            (*g, *w, *h) != (key.0, key.1, key.2) || legend.iter().any(|(c, id)| key.3.get(c) != Some(id))
        });
        if all {
            self.chunks.clear();
        }
        let grid = grid_of(raw);
        let layout = Layout { grid };
        let (cw, ch) = (
            (grid.width as i32 + CHUNK - 1) / CHUNK,
            (grid.height as i32 + CHUNK - 1) / CHUNK,
        );
        let mut remade = 0;
        for cy in 0..ch {
            for cx in 0..cw {
                let changed = all
                    || (cy * CHUNK..((cy + 1) * CHUNK).min(grid.height as i32)).any(|r| {
                        let (a, b) = (rows.get(r as usize), self.rows.get(r as usize));
                        let span = |v: Option<&Vec<char>>| {
                            v.map(|v| {
                                let lo = (cx * CHUNK) as usize;
                                let hi = (((cx + 1) * CHUNK) as usize).min(v.len());
                                v.get(lo..hi.max(lo)).unwrap_or(&[]).to_vec()
                            })
                        };
                        span(a) != span(b)
                    });
                if changed {
                    self.chunks
                        .insert((cx, cy), Arc::new(chunk_mesh(raw, ruleset, &layout, cx, cy)));
                    remade += 1;
                }
            }
        }
        self.rows = rows;
        self.made_for = Some(key);
        remade
    }
}

/// One chunk's cells: each a darker outline with its terrain colour inside.
fn chunk_mesh(raw: &RawScenario, ruleset: Option<&Ruleset>, layout: &Layout, cx: i32, cy: i32) -> Mesh {
    let mut mesh = Mesh::default();
    let grid = layout.grid;
    for row in cy * CHUNK..((cy + 1) * CHUNK).min(grid.height as i32) {
        for col in cx * CHUNK..((cx + 1) * CHUNK).min(grid.width as i32) {
            let cell = Cell::new(col, row);
            let Some(c) = char_at(raw, cell) else { continue };
            let fill = terrain_color(raw, ruleset, c);
            let mid = center(layout, cell);
            let outer = corners(layout, cell);
            fan(&mut mesh, mid, &outer, darker(fill, 0.72));
            let inner: Vec<Pos2> = outer.iter().map(|p| mid + (*p - mid) * 0.94).collect();
            fan(&mut mesh, mid, &inner, fill);
        }
    }
    mesh
}

fn fan(mesh: &mut Mesh, mid: Pos2, points: &[Pos2], color: Color32) {
    let base = mesh.vertices.len() as u32;
    mesh.colored_vertex(mid, color);
    for p in points {
        mesh.colored_vertex(*p, color);
    }
    let n = points.len() as u32;
    for i in 0..n {
        mesh.add_triangle(base, base + 1 + i, base + 1 + (i + 1) % n);
    }
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
    draw(&painter, rect, editor, &layout);
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

fn draw(painter: &egui::Painter, rect: Rect, editor: &Editor, layout: &Layout) {
    let view = editor.view;
    let to_screen =
        egui::emath::TSTransform::new(rect.center().to_vec2() - view.center.to_vec2() * view.zoom, view.zoom);
    let visible = Rect::from_min_max(view.to_world(rect, rect.min), view.to_world(rect, rect.max));
    let side = layout.side();
    for ((cx, cy), mesh) in &editor.meshes.chunks {
        let (a, b) = (
            Cell::new(cx * CHUNK, cy * CHUNK),
            Cell::new((cx + 1) * CHUNK, (cy + 1) * CHUNK),
        );
        let bounds = Rect::from_two_pos(center(layout, a), center(layout, b)).expand(side * 2.0);
        if !bounds.intersects(visible) {
            continue;
        }
        let mut m = (**mesh).clone();
        m.transform(to_screen);
        painter.add(Shape::mesh(m));
    }
    let z = view.zoom;
    let at = |cell: Cell| view.to_screen(rect, center(layout, cell));
    let on_screen = |cell: Cell| rect.expand(side * z).contains(at(cell));
    let parse = |l: &str| parse_label(l).ok().filter(|c| layout.grid.contains(*c));
    // Roads, centre to centre.
    for road in &editor.raw.map.roads {
        let points: Vec<Pos2> = road.iter().filter_map(|l| parse(l)).map(at).collect();
        painter.add(Shape::line(
            points,
            Line::new((side * 0.1 * z).max(1.5), Color32::from_rgb(150, 105, 60)),
        ));
    }
    // Edge features along cell sides.
    for group in &editor.raw.map.edges {
        let (width, color) = edge_look(group.feature, side);
        for (a, b) in &group.between {
            let (Some(a), Some(b)) = (parse(a), parse(b)) else {
                continue;
            };
            if !on_screen(a) {
                continue;
            }
            let (p, q) = layout.edge_segment(a, b);
            let (p, q) = (egui::pos2(p.x, -p.y), egui::pos2(q.x, -q.y));
            let (p, q) = (view.to_screen(rect, p), view.to_screen(rect, q));
            if group.feature == EdgeFeature::Bridge {
                let (ca, cb) = (at(a), at(b));
                let mid = p + (q - p) * 0.5;
                let across = (cb - ca).normalized() * side * 0.25 * z;
                painter.line_segment([mid - across, mid + across], Line::new((width * z).max(2.0), color));
            } else {
                painter.line_segment([p, q], Line::new((width * z).max(1.5), color));
            }
        }
    }
    draw_marks(painter, editor, layout, &at, &on_screen, z);
    draw_units(painter, editor, layout, &at, &on_screen, z);
    draw_names(painter, editor, layout, &at, &on_screen, z);
}

fn edge_look(feature: EdgeFeature, side: f32) -> (f32, Color32) {
    match feature {
        EdgeFeature::River => (side * 0.12, Color32::from_rgb(60, 120, 210)),
        EdgeFeature::MajorRiver => (side * 0.22, Color32::from_rgb(40, 95, 190)),
        EdgeFeature::Lake | EdgeFeature::Strait => (side * 0.3, Color32::from_rgb(50, 90, 170)),
        EdgeFeature::Bridge => (side * 0.1, Color32::from_rgb(120, 80, 40)),
        EdgeFeature::Road => (side * 0.08, Color32::from_rgb(150, 105, 60)),
        EdgeFeature::FortificationLine => (side * 0.14, Color32::from_rgb(190, 40, 40)),
    }
}

/// Features, objectives and place names.
fn draw_marks(
    painter: &egui::Painter,
    editor: &Editor,
    layout: &Layout,
    at: &dyn Fn(Cell) -> Pos2,
    on_screen: &dyn Fn(Cell) -> bool,
    z: f32,
) {
    let side = layout.side();
    let parse = |l: &str| parse_label(l).ok().filter(|c| layout.grid.contains(*c));
    for (cell, features) in &editor.raw.map.features {
        let Some(cell) = parse(cell).filter(|c| on_screen(*c)) else {
            continue;
        };
        let c = at(cell);
        for (i, f) in features.iter().enumerate() {
            let p = c + egui::vec2((i as f32 - 0.5) * side * 0.35 * z, -side * 0.55 * z);
            let r = side * 0.13 * z;
            match f {
                crate::rules::terrain::CellFeature::Fortification => {
                    painter.circle_stroke(
                        c,
                        side * 0.8 * z,
                        Line::new((side * 0.08 * z).max(1.5), Color32::from_rgb(190, 40, 40)),
                    );
                }
                crate::rules::terrain::CellFeature::Airbase | crate::rules::terrain::CellFeature::Port => {
                    painter.circle_filled(p, r, Color32::from_rgb(90, 90, 110));
                }
                _ => {
                    painter.rect_filled(
                        Rect::from_center_size(p, egui::vec2(r * 2.0, r * 2.0)),
                        1.0,
                        Color32::from_rgb(60, 50, 45),
                    );
                }
            }
        }
    }
    for o in &editor.raw.objectives {
        let Some(cell) = parse(&o.cell).filter(|c| on_screen(*c)) else {
            continue;
        };
        let c = at(cell) + egui::vec2(-side * 0.55 * z, 0.0);
        painter.add(Shape::convex_polygon(
            star(c, side * 0.22 * z),
            Color32::from_rgb(240, 190, 30),
            Line::new(1.0, Color32::BLACK),
        ));
    }
}

/// Place names, over the counters (a designer reads them while placing units).
fn draw_names(
    painter: &egui::Painter,
    editor: &Editor,
    layout: &Layout,
    at: &dyn Fn(Cell) -> Pos2,
    on_screen: &dyn Fn(Cell) -> bool,
    z: f32,
) {
    let side = layout.side();
    if side * z <= 14.0 {
        return;
    }
    for (cell, name) in &editor.raw.map.places {
        let Some(cell) = parse_label(cell)
            .ok()
            .filter(|c| layout.grid.contains(*c) && on_screen(*c))
        else {
            continue;
        };
        let p = at(cell) + egui::vec2(0.0, side * 0.68 * z);
        let font = egui::FontId::proportional((side * 0.26 * z).clamp(9.0, 18.0));
        let galley = painter.layout_no_wrap(name.clone(), font, Color32::from_rgb(20, 15, 10));
        let r = Rect::from_center_size(p, galley.size());
        painter.rect_filled(r.expand(1.0), 2.0, Color32::from_rgba_unmultiplied(245, 240, 225, 200));
        painter.galley(r.min, galley, Color32::from_rgb(20, 15, 10));
    }
}

fn star(c: Pos2, r: f32) -> Vec<Pos2> {
    // A convex stand-in for a star: a pentagon keeps egui's convex fill correct.
    (0..5)
        .map(|i| {
            let a = (-90.0 + 72.0 * i as f32).to_radians();
            c + egui::vec2(a.cos(), a.sin()) * r
        })
        .collect()
}

/// Units as counters in their side's colour, a stack's count on top.
fn draw_units(
    painter: &egui::Painter,
    editor: &Editor,
    layout: &Layout,
    at: &dyn Fn(Cell) -> Pos2,
    on_screen: &dyn Fn(Cell) -> bool,
    z: f32,
) {
    let side = layout.side();
    let mut stacks: HashMap<&str, Vec<&crate::scenario::file::RawUnit>> = HashMap::new();
    for u in &editor.raw.units {
        stacks.entry(u.cell.as_str()).or_default().push(u);
    }
    for (cell, units) in stacks {
        let Some(cell) = parse_label(cell)
            .ok()
            .filter(|c| layout.grid.contains(*c) && on_screen(*c))
        else {
            continue;
        };
        let top = units[units.len() - 1];
        let color = editor
            .raw
            .sides
            .iter()
            .find(|s| s.id == top.side)
            .and_then(|s| crate::scenario::ruleset::parse_color(&s.color).ok())
            .map_or(Color32::GRAY, rgb);
        let size = side * if layout.grid.is_hex() { 1.15 } else { 0.78 } * z;
        let c = at(cell);
        for k in (0..units.len().min(3)).rev() {
            let off = egui::vec2(k as f32, -(k as f32)) * size * 0.06;
            let r = Rect::from_center_size(c + off, egui::vec2(size, size));
            painter.rect_filled(r, size * 0.08, if k == 0 { color } else { darker(color, 0.7) });
        }
        let selected = units.iter().any(|u| editor.units.contains(&u.id));
        let outline = if selected {
            Line::new(3.0, Color32::YELLOW)
        } else {
            Line::new(1.0, Color32::BLACK)
        };
        let r = Rect::from_center_size(c, egui::vec2(size, size));
        painter.rect_stroke(r, size * 0.08, outline, egui::StrokeKind::Outside);
        if top.arrives.is_some() {
            painter.rect_stroke(
                r.shrink(size * 0.1),
                0.0,
                Line::new(1.0, Color32::WHITE),
                egui::StrokeKind::Inside,
            );
        }
        if size > 22.0 {
            let font = egui::FontId::proportional((size * 0.26).min(18.0));
            let class: String = format!("{:?}", top.class).chars().take(4).collect();
            painter.text(
                c - egui::vec2(0.0, size * 0.2),
                egui::Align2::CENTER_CENTER,
                class,
                font.clone(),
                Color32::WHITE,
            );
            painter.text(
                c + egui::vec2(0.0, size * 0.2),
                egui::Align2::CENTER_CENTER,
                values(top),
                font,
                Color32::WHITE,
            );
        }
        if units.len() > 1 {
            let badge = c + egui::vec2(size * 0.45, -size * 0.45);
            painter.circle_filled(badge, (size * 0.16).max(5.0), Color32::from_rgb(30, 30, 30));
            painter.text(
                badge,
                egui::Align2::CENTER_CENTER,
                units.len().to_string(),
                egui::FontId::proportional((size * 0.2).max(8.0)),
                Color32::WHITE,
            );
        }
    }
}

/// A unit's values as its counter prints them: `2-3-4`, `5-4` (strength, movement).
pub fn values(u: &crate::scenario::file::RawUnit) -> String {
    let combat = if let Some(s) = u.strength {
        s.to_string()
    } else if let (Some(a), Some(d)) = (u.attack, u.defense) {
        format!("{a}-{d}")
    } else if let Some(step) = u.steps.get(u.lost) {
        format!("{}-{}", step.attack, step.defense)
    } else if let Some(chit) = u.chit {
        chit.full.to_string()
    } else {
        "?".into()
    };
    format!("{combat}-{}", u.movement)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brush_stroke_remakes_only_the_chunks_it_touched() {
        let mut raw = crate::edit::tools::new_scenario(
            crate::rules::grid::GridKind::Hex {
                top: crate::rules::grid::HexTop::Flat,
            },
            64,
            40,
            "killing-ground",
            "clear",
        );
        let ruleset = Ruleset::builtin("killing-ground").unwrap().unwrap();
        let mut meshes = TerrainMeshes::default();
        assert_eq!(meshes.sync(&raw, Some(&ruleset)), 4 * 3);
        assert_eq!(meshes.sync(&raw, Some(&ruleset)), 0);
        let cells = tools::brush(&grid_of(&raw), Cell::new(5, 5), 2);
        tools::paint(&raw, &cells, "woods").apply(&mut raw);
        assert_eq!(meshes.sync(&raw, Some(&ruleset)), 1);
        // Across a chunk corner: four chunks.
        let cells = tools::brush(&grid_of(&raw), Cell::new(16, 16), 2);
        tools::paint(&raw, &cells, "town").apply(&mut raw);
        assert_eq!(meshes.sync(&raw, Some(&ruleset)), 4);
    }
}
