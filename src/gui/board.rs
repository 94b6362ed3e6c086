//! Draws the map once when a game starts: terrain colours with patterns, cell outlines, rivers,
//! roads, bridges, fortification lines, place names, objectives and (toggled) cell labels.

use super::layout::{Layout, MeshBuilder};
use super::state::rgb;
use crate::game::components::GameMap;
use crate::game::phase::GameState;
use crate::rules::terrain::{CellFeature, EdgeFeature};
use crate::scenario::ruleset::Pattern;
use bevy::prelude::*;
use bevy::text::FontSize;

/// Cell labels (`0412`), shown with the C key.
#[derive(Component)]
pub struct CellLabel;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShowLabels>()
        .add_systems(OnEnter(GameState::Playing), draw_board)
        .add_systems(Update, make_labels.run_if(super::board_shown));
}

fn darker(c: Color, f: f32) -> Color {
    let s = c.to_srgba();
    Color::srgb(s.red * f, s.green * f, s.blue * f)
}

/// Small marks over a cell so terrain reads without colour alone.
fn draw_pattern(mb: &mut MeshBuilder, pattern: Pattern, c: Vec2, s: f32, base: Color) {
    let ink = darker(base, 0.62);
    let w = s * 0.045;
    match pattern {
        Pattern::Plain => {}
        Pattern::Trees => {
            for off in [Vec2::new(-0.32, 0.12), Vec2::new(0.3, 0.18), Vec2::new(0.0, -0.28)] {
                let p = c + off * s;
                mb.polygon(
                    &[
                        p + Vec2::new(0.0, 0.16 * s),
                        p + Vec2::new(-0.11 * s, -0.06 * s),
                        p + Vec2::new(0.11 * s, -0.06 * s),
                    ],
                    ink,
                );
                mb.line(p + Vec2::new(0.0, -0.06 * s), p + Vec2::new(0.0, -0.13 * s), w, ink);
            }
        }
        Pattern::Hedges => {
            // Small fields boxed by hedgerows: a crooked grid of short dark strokes.
            for (a, b) in [
                (Vec2::new(-0.45, 0.15), Vec2::new(0.1, 0.22)),
                (Vec2::new(0.1, 0.22), Vec2::new(0.45, 0.1)),
                (Vec2::new(-0.35, -0.25), Vec2::new(0.35, -0.18)),
                (Vec2::new(-0.1, 0.5), Vec2::new(-0.05, -0.55)),
                (Vec2::new(0.28, 0.45), Vec2::new(0.3, -0.5)),
            ] {
                mb.line(c + a * s, c + b * s, w * 1.2, ink);
            }
        }
        Pattern::Hills => {
            for off in [Vec2::new(-0.25, 0.1), Vec2::new(0.25, -0.15)] {
                let p = c + off * s;
                let arc: Vec<Vec2> = (0..=8)
                    .map(|i| {
                        let a = std::f32::consts::PI * i as f32 / 8.0;
                        p + Vec2::new(a.cos() * 0.2 * s, a.sin() * 0.12 * s)
                    })
                    .collect();
                mb.polyline(&arc, w, ink);
            }
        }
        Pattern::Peaks => {
            for off in [Vec2::new(-0.22, -0.05), Vec2::new(0.18, 0.05)] {
                let p = c + off * s;
                mb.polyline(
                    &[
                        p + Vec2::new(-0.2 * s, -0.14 * s),
                        p + Vec2::new(0.0, 0.2 * s),
                        p + Vec2::new(0.2 * s, -0.14 * s),
                    ],
                    w * 1.3,
                    ink,
                );
            }
        }
        Pattern::Marsh => {
            for (dy, dx) in [(0.2, -0.1), (0.0, 0.12), (-0.2, -0.05)] {
                let p = c + Vec2::new(dx, dy) * s;
                mb.line(p - Vec2::new(0.22 * s, 0.0), p + Vec2::new(0.22 * s, 0.0), w, ink);
                mb.line(p + Vec2::new(0.0, 0.0), p + Vec2::new(0.0, 0.1 * s), w * 0.8, ink);
            }
        }
        Pattern::Buildings => {
            for off in [
                Vec2::new(-0.2, 0.15),
                Vec2::new(0.16, 0.18),
                Vec2::new(-0.05, -0.18),
                Vec2::new(0.25, -0.12),
            ] {
                let p = c + off * s;
                let h = 0.09 * s;
                mb.polygon(
                    &[
                        p + Vec2::new(-h, -h),
                        p + Vec2::new(h, -h),
                        p + Vec2::new(h, h),
                        p + Vec2::new(-h, h),
                    ],
                    darker(base, 0.55),
                );
            }
        }
        Pattern::Water => {
            for dy in [0.18, -0.12] {
                let wave: Vec<Vec2> = (0..=8)
                    .map(|i| {
                        let t = i as f32 / 8.0;
                        c + Vec2::new(
                            (t - 0.5) * 0.6 * s,
                            dy * s + (t * std::f32::consts::TAU).sin() * 0.05 * s,
                        )
                    })
                    .collect();
                mb.polyline(&wave, w, Color::srgb(0.85, 0.92, 1.0));
            }
        }
        Pattern::Sand => {
            for off in [
                Vec2::new(-0.25, 0.2),
                Vec2::new(0.2, 0.25),
                Vec2::new(0.0, 0.0),
                Vec2::new(-0.2, -0.22),
                Vec2::new(0.26, -0.18),
            ] {
                mb.disc(c + off * s, 0.035 * s, ink);
            }
        }
    }
}

/// Cells a side of one board chunk: chunks off screen are culled, and each is a handful of meshes.
const CHUNK: i32 = 8;

/// A piece of the board drawn as meshes: shown when zoomed in, baked into the board picture for
/// the view from afar (`detail.rs`).
#[derive(Component)]
pub struct BoardChunk;

/// A place name (or one of its halo copies): `offset` from `at` in screen pixels at size `size`,
/// kept that size on screen when zoomed out (`detail.rs`).
#[derive(Component, Clone, Copy)]
pub struct PlaceName {
    pub at: Vec2,
    pub offset: Vec2,
    pub size: f32,
}

/// Whether the cell labels are on (C); they are made the first time they are asked for.
#[derive(Resource, Default)]
pub struct ShowLabels(pub bool);

fn spawn_mesh(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    material: &Handle<ColorMaterial>,
    mb: MeshBuilder,
    z: f32,
) {
    if mb.is_empty() {
        return;
    }
    commands.spawn((
        Mesh2d(meshes.add(mb.build())),
        MeshMaterial2d(material.clone()),
        Transform::from_xyz(0.0, 0.0, z),
        BoardChunk,
        super::render_layers::board_layers(),
        DespawnOnEnter(GameState::NoGame),
    ));
}

fn chunk_of(cell: crate::rules::grid::Cell) -> (i32, i32) {
    (cell.col.div_euclid(CHUNK), cell.row.div_euclid(CHUNK))
}

fn draw_board(
    mut commands: Commands,
    map: Res<GameMap>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let layout = Layout { grid: map.board.grid };
    commands.insert_resource(layout);
    commands.insert_resource(ShowLabels(false));
    let white = materials.add(ColorMaterial::from_color(Color::WHITE));
    let mut ground: std::collections::BTreeMap<(i32, i32), MeshBuilder> = Default::default();
    let mut features: std::collections::BTreeMap<(i32, i32), FeatureMeshes> = Default::default();
    for cell in map.board.grid.cells() {
        draw_cell(ground.entry(chunk_of(cell)).or_default(), &map, &layout, cell);
    }
    for (edge, list) in map.board.edges() {
        let f = features.entry(chunk_of(edge.a)).or_default();
        for feature in list.iter() {
            draw_edge_feature(f, &layout, edge.a, edge.b, feature);
        }
    }
    for (cell, list) in map.board.all_features() {
        let f = features.entry(chunk_of(cell)).or_default();
        for feature in list {
            draw_cell_feature(f, &layout, cell, *feature);
        }
    }
    for o in &map.objectives {
        draw_objective(
            &mut features.entry(chunk_of(o.cell)).or_default().marks,
            &layout,
            o.cell,
        );
    }
    for (_, mb) in ground {
        spawn_mesh(&mut commands, &mut meshes, &white, mb, 0.0);
    }
    // Roads first (under water), then water, then what crosses it, then objectives.
    for (_, f) in features {
        spawn_mesh(&mut commands, &mut meshes, &white, f.roads, 0.3);
        spawn_mesh(&mut commands, &mut meshes, &white, f.water, 0.4);
        spawn_mesh(&mut commands, &mut meshes, &white, f.works, 0.45);
        spawn_mesh(&mut commands, &mut meshes, &white, f.marks, 0.5);
    }
    let far_star = meshes.add(far_objective_mesh());
    for o in &map.objectives {
        let c = layout.center(o.cell);
        commands.spawn((
            Mesh2d(far_star.clone()),
            MeshMaterial2d(white.clone()),
            Transform::from_xyz(c.x, c.y, 0.55),
            Visibility::Hidden,
            ObjectiveMark,
            DespawnOnEnter(GameState::NoGame),
        ));
    }
    let s = layout.side();
    // Close in, a small star at the cell's left edge, over the counters: a stack standing on an
    // objective never hides it.
    for o in &map.objectives {
        let c = layout.center(o.cell) - Vec2::new(s * 0.8, 0.0);
        commands.spawn((
            Mesh2d(far_star.clone()),
            MeshMaterial2d(white.clone()),
            Transform::from_xyz(c.x, c.y, 3.5).with_scale(Vec3::splat(0.6)),
            super::counters::CounterPart,
            DespawnOnEnter(GameState::NoGame),
        ));
    }
    for (cell, name) in &map.places {
        let at = layout.center(*cell) - Vec2::new(0.0, s * 0.72);
        // A pale halo (the name drawn eight times, offset) keeps it legible over roads and rivers.
        let halo = Color::srgba(0.98, 0.96, 0.88, 0.9);
        for k in 0..8 {
            let a = k as f32 * std::f32::consts::FRAC_PI_4;
            let offset = Vec2::new(a.cos(), a.sin()) * 1.3;
            spawn_place_name(&mut commands, name, at, offset, halo, 0.59);
        }
        // Under the counters but at the cell's foot, so a stack in a town covers only the middle of
        // its name (a name drawn over them would hide the neighbours' values).
        spawn_place_name(&mut commands, name, at, Vec2::ZERO, Color::srgb(0.08, 0.06, 0.04), 0.6);
    }
}

/// One cell's terrain colour, its pattern and its outline.
fn draw_cell(mb: &mut MeshBuilder, map: &GameMap, layout: &Layout, cell: crate::rules::grid::Cell) {
    let Some(t) = map.board.terrain(cell) else { return };
    let look = map.ruleset.terrain_look(t);
    let color = rgb(look.color);
    let corners = layout.corners(cell);
    mb.polygon(&corners, color);
    draw_pattern(mb, look.pattern, layout.center(cell), layout.side(), color);
    mb.ring(&corners, 0.9, Color::srgba(0.15, 0.15, 0.1, 0.45));
}

/// What lies on cell edges and over cells in one chunk, a mesh per layer.
#[derive(Default)]
struct FeatureMeshes {
    roads: MeshBuilder,
    water: MeshBuilder,
    works: MeshBuilder,
    marks: MeshBuilder,
}

fn draw_edge_feature(
    f: &mut FeatureMeshes,
    layout: &Layout,
    from: crate::rules::grid::Cell,
    to: crate::rules::grid::Cell,
    feature: EdgeFeature,
) {
    let s = layout.side();
    let (a, b) = layout.edge_segment(from, to);
    let (ca, cb) = (layout.center(from), layout.center(to));
    let river = Color::srgb(0.2, 0.45, 0.8);
    match feature {
        EdgeFeature::Road => {
            let road = Color::srgb(0.55, 0.36, 0.2);
            f.roads.line(ca, cb, s * 0.11, road);
            f.roads.disc(ca, s * 0.055, road);
            f.roads.disc(cb, s * 0.055, road);
        }
        EdgeFeature::River => f.water.line(a, b, s * 0.14, river),
        EdgeFeature::MajorRiver => f.water.line(a, b, s * 0.26, river),
        EdgeFeature::Lake | EdgeFeature::Strait => f.water.line(a, b, s * 0.34, Color::srgb(0.3, 0.55, 0.85)),
        EdgeFeature::Bridge => {
            let dir = (cb - ca).normalize_or_zero() * s * 0.22;
            let mid = (a + b) / 2.0;
            let n = (b - a).normalize_or_zero() * s * 0.13;
            f.works
                .line(mid - dir, mid + dir, s * 0.22, Color::srgb(0.25, 0.22, 0.2));
            f.works.line(mid - dir + n, mid + dir + n, s * 0.04, Color::BLACK);
            f.works.line(mid - dir - n, mid + dir - n, s * 0.04, Color::BLACK);
        }
        EdgeFeature::FortificationLine => {
            f.works.line(a, b, s * 0.08, Color::srgb(0.7, 0.1, 0.1));
            let n = (cb - ca).normalize_or_zero() * s * 0.12;
            for t in [0.2, 0.5, 0.8] {
                let p = a.lerp(b, t);
                f.works.line(p, p + n, s * 0.06, Color::srgb(0.7, 0.1, 0.1));
            }
        }
    }
}

/// A town or city (dark blocks along the cell's top, more for a bigger place), a fortification
/// (a red toothed ring inside the cell's edge), an airbase (a runway cross) or a port (an anchor):
/// drawn in the band between a counter's top and the cell's top edge, so a unit standing there
/// leaves them in view.
fn draw_cell_feature(f: &mut FeatureMeshes, layout: &Layout, cell: crate::rules::grid::Cell, feature: CellFeature) {
    let s = layout.side();
    let c = layout.center(cell);
    let corners = layout.corners(cell);
    let top_edge = corners.iter().map(|p| p.y - c.y).fold(0.0, f32::max);
    let base = super::counters::COUNTER / 2.0 + 1.5;
    let band = (top_edge - base).max(4.0);
    let ink = Color::srgb(0.12, 0.1, 0.08);
    let block = |mb: &mut MeshBuilder, x: f32, w: f32, h: f32| {
        let at = c + Vec2::new(x, base);
        mb.polygon(
            &[at, at + Vec2::new(w, 0.0), at + Vec2::new(w, h), at + Vec2::new(0.0, h)],
            ink,
        );
    };
    let mid = c + Vec2::new(0.0, base + band * 0.5);
    match feature {
        CellFeature::Town => block(&mut f.works, -2.5, 5.0, band * 0.7),
        CellFeature::City | CellFeature::MajorCity | CellFeature::VictoryCity(_) => {
            let n = if feature == CellFeature::City { 3 } else { 5 };
            let w = 4.0;
            for k in 0..n {
                let x = (k as f32 - (n - 1) as f32 / 2.0) * (w + 1.5) - w / 2.0;
                let h = band * [0.6, 0.95, 0.75, 0.9, 0.55][k];
                block(&mut f.works, x, w, h);
            }
            if matches!(feature, CellFeature::VictoryCity(_)) {
                let ring: Vec<Vec2> = corners.iter().map(|p| c + (*p - c) * 0.93).collect();
                f.works.ring(&ring, 2.0, ink);
            }
        }
        CellFeature::Fortification => {
            let red = Color::srgb(0.7, 0.1, 0.1);
            let inner: Vec<Vec2> = corners.iter().map(|p| c + (*p - c) * 0.86).collect();
            f.works.ring(&inner, s * 0.06, red);
            for (i, p) in inner.iter().enumerate() {
                let q = inner[(i + 1) % inner.len()];
                let m = p.lerp(q, 0.5);
                f.works
                    .line(m, m + (c - m).normalize_or_zero() * s * 0.1, s * 0.05, red);
            }
        }
        CellFeature::Airbase => {
            let at = mid + Vec2::new(s * 0.3, 0.0);
            let d = Vec2::new(6.0, band * 0.4);
            f.works.line(at - d, at + d, 2.2, ink);
            f.works
                .line(at - Vec2::new(d.x, -d.y), at + Vec2::new(d.x, -d.y), 2.2, ink);
        }
        CellFeature::Port => {
            let at = mid - Vec2::new(s * 0.3, 0.0);
            let navy = Color::srgb(0.1, 0.2, 0.45);
            let h = band * 0.45;
            f.works.line(at + Vec2::new(0.0, h), at - Vec2::new(0.0, h), 1.8, navy);
            f.works
                .line(at + Vec2::new(-3.0, h * 0.5), at + Vec2::new(3.0, h * 0.5), 1.8, navy);
            f.works
                .line(at - Vec2::new(5.0, h * 0.3), at - Vec2::new(0.0, h), 1.8, navy);
            f.works
                .line(at + Vec2::new(5.0, -h * 0.3), at - Vec2::new(0.0, h), 1.8, navy);
        }
    }
}

/// An objective: a gold star outline.
fn draw_objective(mb: &mut MeshBuilder, layout: &Layout, cell: crate::rules::grid::Cell) {
    let s = layout.side();
    mb.ring(&star(layout.center(cell), s * 0.8, s * 0.35), s * 0.06, OBJECTIVE_GOLD);
}

const OBJECTIVE_GOLD: Color = Color::srgba(0.95, 0.75, 0.1, 0.9);

/// The points of a five-pointed star around `c`, outer and inner radius.
fn star(c: Vec2, outer: f32, inner: f32) -> Vec<Vec2> {
    (0..5)
        .flat_map(|i| {
            let a = std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::TAU / 5.0;
            let b = a + std::f32::consts::PI / 5.0;
            [
                c + Vec2::new(a.cos(), a.sin()) * outer,
                c + Vec2::new(b.cos(), b.sin()) * inner,
            ]
        })
        .collect()
}

/// An objective seen from afar: a filled gold star in a dark rim, kept its size on screen
/// (`detail.rs`), where the board picture's thin outline would be lost.
#[derive(Component)]
pub struct ObjectiveMark;

fn far_objective_mesh() -> Mesh {
    let mut mb = MeshBuilder::default();
    let (rim, gold) = (star(Vec2::ZERO, 13.0, 6.0), star(Vec2::ZERO, 10.0, 4.5));
    // A star is not convex: fill it as a pentagon and five triangles.
    for (points, color) in [(rim, Color::srgb(0.2, 0.15, 0.05)), (gold, OBJECTIVE_GOLD)] {
        let inner: Vec<Vec2> = points.iter().skip(1).step_by(2).copied().collect();
        mb.polygon(&inner, color);
        for i in 0..5 {
            let n = points.len();
            mb.polygon(&[points[(2 * i + n - 1) % n], points[2 * i], points[2 * i + 1]], color);
        }
    }
    mb.build()
}

fn spawn_place_name(commands: &mut Commands, name: &str, at: Vec2, offset: Vec2, color: Color, z: f32) {
    let place = PlaceName { at, offset, size: 13.0 };
    let p = at + offset;
    commands.spawn((
        Text2d::new(name),
        TextFont {
            font_size: FontSize::Px(place.size),
            ..default()
        },
        TextColor(color),
        Transform::from_xyz(p.x, p.y, z),
        place,
        DespawnOnEnter(GameState::NoGame),
    ));
}

/// Makes the cell labels (`0412`) the first time they are shown.
fn make_labels(
    mut commands: Commands,
    show: Option<Res<ShowLabels>>,
    layout: Option<Res<Layout>>,
    labels: Query<(), With<CellLabel>>,
) {
    let (Some(show), Some(layout)) = (show, layout) else {
        return;
    };
    if !show.0 || !labels.is_empty() {
        return;
    }
    let s = layout.side();
    for cell in layout.grid.cells() {
        let at = layout.center(cell) + Vec2::new(0.0, s * 0.62);
        commands.spawn((
            Text2d::new(cell.to_string()),
            TextFont {
                font_size: FontSize::Px(10.0),
                ..default()
            },
            TextColor(Color::srgba(0.0, 0.0, 0.0, 0.7)),
            Transform::from_xyz(at.x, at.y, 0.61),
            CellLabel,
            DespawnOnEnter(GameState::NoGame),
        ));
    }
}

/// Turns the cell labels on or off (they show when zoomed in enough to read them).
pub fn toggle_labels(show: &mut ShowLabels) {
    show.0 = !show.0;
}
