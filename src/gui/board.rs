//! Draws the map once when a game starts: terrain colours with patterns, cell outlines, rivers,
//! roads, bridges, fortification lines, place names, objectives and (toggled) cell labels.

use super::layout::{Layout, MeshBuilder};
use crate::game::components::GameMap;
use crate::game::phase::GameState;
use crate::rules::terrain::EdgeFeature;
use crate::scenario::ruleset::Pattern;
use bevy::prelude::*;
use bevy::text::FontSize;

/// Cell labels (`0412`), shown with the C key.
#[derive(Component)]
pub struct CellLabel;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(GameState::Playing), draw_board);
}

pub fn rgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
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

fn spawn_mesh(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    material: &Handle<ColorMaterial>,
    mb: MeshBuilder,
    z: f32,
) {
    commands.spawn((
        Mesh2d(meshes.add(mb.build())),
        MeshMaterial2d(material.clone()),
        Transform::from_xyz(0.0, 0.0, z),
        DespawnOnEnter(GameState::NoGame),
    ));
}

fn draw_board(
    mut commands: Commands,
    map: Res<GameMap>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let layout = Layout { grid: map.board.grid };
    commands.insert_resource(layout);
    let white = materials.add(ColorMaterial::from_color(Color::WHITE));
    let s = layout.side();
    let grid = map.board.grid;

    let (mut terrain, mut patterns, mut lines) =
        (MeshBuilder::default(), MeshBuilder::default(), MeshBuilder::default());
    let outline = Color::srgba(0.15, 0.15, 0.1, 0.45);
    for cell in grid.cells() {
        let Some(t) = map.board.terrain(cell) else { continue };
        let look = map.ruleset.terrain_look(t);
        let color = rgb(look.color);
        let corners = layout.corners(cell);
        terrain.polygon(&corners, color);
        draw_pattern(&mut patterns, look.pattern, layout.center(cell), s, color);
        lines.ring(&corners, 0.9, outline);
    }
    spawn_mesh(&mut commands, &mut meshes, &white, terrain, 0.0);
    spawn_mesh(&mut commands, &mut meshes, &white, patterns, 0.1);
    spawn_mesh(&mut commands, &mut meshes, &white, lines, 0.2);

    // Roads first (under water), then water, then what crosses it.
    let (mut roads, mut water, mut works) = (MeshBuilder::default(), MeshBuilder::default(), MeshBuilder::default());
    let road = Color::srgb(0.55, 0.36, 0.2);
    let river = Color::srgb(0.2, 0.45, 0.8);
    for (edge, features) in map.board.edges() {
        let (a, b) = layout.edge_segment(edge.a, edge.b);
        let (ca, cb) = (layout.center(edge.a), layout.center(edge.b));
        for f in features.iter() {
            match f {
                EdgeFeature::Road => {
                    roads.line(ca, cb, s * 0.11, road);
                    roads.disc(ca, s * 0.055, road);
                    roads.disc(cb, s * 0.055, road);
                }
                EdgeFeature::River => water.line(a, b, s * 0.14, river),
                EdgeFeature::MajorRiver => water.line(a, b, s * 0.26, river),
                EdgeFeature::Lake | EdgeFeature::Strait => water.line(a, b, s * 0.34, Color::srgb(0.3, 0.55, 0.85)),
                EdgeFeature::Bridge => {
                    let dir = (cb - ca).normalize_or_zero() * s * 0.22;
                    let mid = (a + b) / 2.0;
                    let n = (b - a).normalize_or_zero() * s * 0.13;
                    works.line(mid - dir, mid + dir, s * 0.22, Color::srgb(0.25, 0.22, 0.2));
                    works.line(mid - dir + n, mid + dir + n, s * 0.04, Color::BLACK);
                    works.line(mid - dir - n, mid + dir - n, s * 0.04, Color::BLACK);
                }
                EdgeFeature::FortificationLine => {
                    works.line(a, b, s * 0.08, Color::srgb(0.7, 0.1, 0.1));
                    let n = (cb - ca).normalize_or_zero() * s * 0.12;
                    for t in [0.2, 0.5, 0.8] {
                        let p = a.lerp(b, t);
                        works.line(p, p + n, s * 0.06, Color::srgb(0.7, 0.1, 0.1));
                    }
                }
            }
        }
    }
    spawn_mesh(&mut commands, &mut meshes, &white, roads, 0.3);
    spawn_mesh(&mut commands, &mut meshes, &white, water, 0.4);
    spawn_mesh(&mut commands, &mut meshes, &white, works, 0.45);

    // Objectives: a gold ring; place names under the cell centre.
    let mut marks = MeshBuilder::default();
    for o in &map.objectives {
        let c = layout.center(o.cell);
        let pts: Vec<Vec2> = (0..5)
            .flat_map(|i| {
                let a = std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::TAU / 5.0;
                let b = a + std::f32::consts::PI / 5.0;
                [
                    c + Vec2::new(a.cos(), a.sin()) * s * 0.8,
                    c + Vec2::new(b.cos(), b.sin()) * s * 0.35,
                ]
            })
            .collect();
        marks.ring(&pts, s * 0.06, Color::srgba(0.95, 0.75, 0.1, 0.9));
    }
    spawn_mesh(&mut commands, &mut meshes, &white, marks, 0.5);
    for (cell, name) in &map.places {
        let at = layout.center(*cell) - Vec2::new(0.0, s * 0.66);
        // A pale halo (the name drawn eight times, offset) keeps it legible over roads and rivers.
        let halo = Color::srgba(0.98, 0.96, 0.88, 0.9);
        for k in 0..8 {
            let a = k as f32 * std::f32::consts::FRAC_PI_4;
            spawn_text(
                &mut commands,
                name,
                at + Vec2::new(a.cos(), a.sin()) * 1.3,
                13.0,
                halo,
                0.59,
                false,
            );
        }
        spawn_text(&mut commands, name, at, 13.0, Color::srgb(0.08, 0.06, 0.04), 0.6, false);
    }
    for cell in grid.cells() {
        spawn_text(
            &mut commands,
            &cell.to_string(),
            layout.center(cell) + Vec2::new(0.0, s * 0.62),
            10.0,
            Color::srgba(0.0, 0.0, 0.0, 0.7),
            0.61,
            true,
        );
    }
}

fn spawn_text(commands: &mut Commands, text: &str, at: Vec2, size: f32, color: Color, z: f32, is_label: bool) {
    let mut e = commands.spawn((
        Text2d::new(text),
        TextFont {
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(color),
        Transform::from_xyz(at.x, at.y, z),
        DespawnOnEnter(GameState::NoGame),
    ));
    if is_label {
        e.insert((CellLabel, Visibility::Hidden));
    }
}

/// Shows or hides cell labels.
pub fn toggle_labels(labels: &mut Query<&mut Visibility, With<CellLabel>>) {
    for mut v in labels.iter_mut() {
        *v = match *v {
            Visibility::Hidden => Visibility::Visible,
            _ => Visibility::Hidden,
        };
    }
}
