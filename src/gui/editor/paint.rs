//! Drawing the editor's board: terrain as meshes cached per chunk and remade only where a change
//! touched them, then roads and edge features, towns, objectives, units and place names on top,
//! only what is on screen.

use super::Editor;
use super::geometry::{CHUNK, center, corners};
use crate::edit::tools::{char_at, grid_of};
use crate::gui::layout::Layout;
use crate::rules::grid::{Cell, parse_label};
use crate::rules::terrain::EdgeFeature;
use crate::scenario::Ruleset;
use crate::scenario::file::RawScenario;
use bevy_egui::egui::{self, Color32, Mesh, Pos2, Rect, Shape, Stroke as Line};
use std::collections::HashMap;
use std::sync::Arc;

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

pub(super) fn draw(painter: &egui::Painter, rect: Rect, editor: &Editor, layout: &Layout) {
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
    let canvas = Canvas {
        painter,
        editor,
        layout,
        rect,
    };
    draw_lines(&canvas);
    draw_marks(&canvas);
    draw_units(&canvas);
    draw_names(&canvas);
}

/// Roads centre to centre, and edge features along cell sides.
fn draw_lines(canvas: &Canvas) {
    let Canvas {
        painter,
        editor,
        layout,
        ..
    } = *canvas;
    let (side, z) = (layout.side(), editor.view.zoom);
    let on_map = |l: &str| parse_label(l).ok().filter(|c| layout.grid.contains(*c));
    for road in &editor.raw.map.roads {
        let points: Vec<Pos2> = road.iter().filter_map(|l| on_map(l)).map(|c| canvas.at(c)).collect();
        painter.add(Shape::line(
            points,
            Line::new((side * 0.1 * z).max(1.5), rgb(crate::art::picture::ROAD_RGB)),
        ));
    }
    for group in &editor.raw.map.edges {
        let (width, color) = edge_look(group.feature, side);
        for (a, b) in &group.between {
            let (Some(a), Some(b)) = (canvas.visible(a), on_map(b)) else {
                continue;
            };
            let (p, q) = layout.edge_segment(a, b);
            let (p, q) = (egui::pos2(p.x, -p.y), egui::pos2(q.x, -q.y));
            let (p, q) = (
                editor.view.to_screen(canvas.rect, p),
                editor.view.to_screen(canvas.rect, q),
            );
            if group.feature == EdgeFeature::Bridge {
                let mid = p + (q - p) * 0.5;
                let across = (canvas.at(b) - canvas.at(a)).normalized() * side * 0.25 * z;
                painter.line_segment([mid - across, mid + across], Line::new((width * z).max(2.0), color));
            } else {
                painter.line_segment([p, q], Line::new((width * z).max(1.5), color));
            }
        }
    }
}

/// What drawing over the terrain needs: the painter, the scenario, where cells are on screen.
#[derive(Clone, Copy)]
struct Canvas<'a> {
    painter: &'a egui::Painter,
    editor: &'a Editor,
    layout: &'a Layout,
    rect: Rect,
}

impl Canvas<'_> {
    /// A cell's centre on screen.
    fn at(&self, cell: Cell) -> Pos2 {
        self.editor.view.to_screen(self.rect, center(self.layout, cell))
    }

    /// The cell a label names, when it is on the map and on screen.
    fn visible(&self, label: &str) -> Option<Cell> {
        let margin = self.layout.side() * self.editor.view.zoom;
        parse_label(label)
            .ok()
            .filter(|c| self.layout.grid.contains(*c) && self.rect.expand(margin).contains(self.at(*c)))
    }
}

/// An edge feature's line width and colour (the colours `hexfront render` uses).
fn edge_look(feature: EdgeFeature, side: f32) -> (f32, Color32) {
    let width = match feature {
        EdgeFeature::River => 0.12,
        EdgeFeature::MajorRiver => 0.22,
        EdgeFeature::Lake | EdgeFeature::Strait => 0.3,
        EdgeFeature::Bridge => 0.1,
        EdgeFeature::Road => 0.08,
        EdgeFeature::FortificationLine => 0.14,
    };
    (side * width, rgb(crate::art::picture::edge_rgb(feature)))
}

/// Features, objectives and place names.
fn draw_marks(canvas: &Canvas) {
    let Canvas {
        painter,
        editor,
        layout,
        ..
    } = *canvas;
    let z = editor.view.zoom;
    let side = layout.side();
    for (cell, features) in &editor.raw.map.features {
        let Some(cell) = canvas.visible(cell) else {
            continue;
        };
        let c = canvas.at(cell);
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
        let Some(cell) = canvas.visible(&o.cell) else {
            continue;
        };
        let c = canvas.at(cell) + egui::vec2(-side * 0.55 * z, 0.0);
        painter.add(Shape::convex_polygon(
            star(c, side * 0.22 * z),
            Color32::from_rgb(240, 190, 30),
            Line::new(1.0, Color32::BLACK),
        ));
    }
}

/// Place names, over the counters (a designer reads them while placing units).
fn draw_names(canvas: &Canvas) {
    let Canvas {
        painter,
        editor,
        layout,
        ..
    } = *canvas;
    let z = editor.view.zoom;
    let side = layout.side();
    if side * z <= 14.0 {
        return;
    }
    for (cell, name) in &editor.raw.map.places {
        let Some(cell) = canvas.visible(cell) else {
            continue;
        };
        let p = canvas.at(cell) + egui::vec2(0.0, side * 0.68 * z);
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
fn draw_units(canvas: &Canvas) {
    let Canvas {
        painter,
        editor,
        layout,
        ..
    } = *canvas;
    let z = editor.view.zoom;
    let side = layout.side();
    let mut stacks: HashMap<&str, Vec<&crate::scenario::file::RawUnit>> = HashMap::new();
    for u in &editor.raw.units {
        stacks.entry(u.cell.as_str()).or_default().push(u);
    }
    for (cell, units) in stacks {
        let Some(cell) = canvas.visible(cell) else {
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
        let c = canvas.at(cell);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::tools;

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
