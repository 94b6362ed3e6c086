//! Draws the map once when a game starts: terrain colours with patterns, cell outlines, rivers,
//! roads, bridges, fortification lines, place names, objectives and (toggled) cell labels.

use super::layout::{Layout, MeshBuilder};
use super::state::rgb;
use crate::game::components::GameMap;
use crate::game::phase::GameState;
use crate::rules::terrain::{CellFeature, EdgeFeature};
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

/// Cells a side of one board chunk: chunks off screen are culled, and each is a handful of meshes.
const CHUNK: i32 = 8;

/// A piece of the board drawn as meshes: shown when zoomed in, baked into the board picture for
/// the view from afar (`detail.rs`).
#[derive(Component)]
pub struct BoardChunk;

/// A place name (or one of its halo copies) for `cell`: `offset` from `at` in screen pixels at
/// size `size`, kept that size on screen when zoomed out (`detail.rs`); `at` moves to keep the
/// name clear of counters (`place_names.rs`).
#[derive(Component, Clone, Copy)]
pub struct PlaceName {
    pub cell: crate::rules::grid::Cell,
    pub at: Vec2,
    pub offset: Vec2,
    pub size: f32,
}

/// A place name's size on screen, in pixels.
pub const NAME_SIZE: f32 = 14.0;

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
    map_font: Option<Res<super::fonts::MapFont>>,
) {
    let font = map_font.map(|f| f.0.clone()).unwrap_or_default();
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
            spawn_place_name(&mut commands, name, (*cell, at, offset), &font, halo, 0.59);
        }
        // Under the counters but at the cell's foot, so a stack in a town covers only the middle of
        // its name (a name drawn over them would hide the neighbours' values).
        let ink = Color::srgb(0.08, 0.06, 0.04);
        spawn_place_name(&mut commands, name, (*cell, at, Vec2::ZERO), &font, ink, 0.6);
    }
}

/// One cell's terrain colour, its edges softened toward unlike neighbours, its pattern and its
/// outline.
fn draw_cell(mb: &mut MeshBuilder, map: &GameMap, layout: &Layout, cell: crate::rules::grid::Cell) {
    let Some(t) = map.board.terrain(cell) else { return };
    let look = map.ruleset.terrain_look(t);
    let art = crate::art::terrain::cell_art(look.pattern, look.color, cell, layout.grid.kind);
    let corners = layout.corners(cell);
    mb.polygon(&corners, rgb(art.fill));
    let unlike = crate::art::blend::unlike_neighbours(&map.board, &map.ruleset, cell, t);
    let blends = crate::art::blend::edge_blends(layout.grid.kind, cell, art.fill, &unlike);
    mb.shapes(&blends, layout.center(cell), layout.side());
    mb.shapes(&art.marks, layout.center(cell), layout.side());
    // Grid lines subdued: the terrain reads first.
    mb.ring(&corners, 0.7, Color::srgba(0.15, 0.15, 0.1, 0.3));
}

/// What lies on cell edges and over cells in one chunk, a mesh per layer.
#[derive(Default)]
struct FeatureMeshes {
    roads: MeshBuilder,
    water: MeshBuilder,
    works: MeshBuilder,
    marks: MeshBuilder,
}

impl FeatureMeshes {
    fn layer(&mut self, layer: crate::art::features::Layer) -> &mut MeshBuilder {
        use crate::art::features::Layer;
        match layer {
            Layer::Roads => &mut self.roads,
            Layer::Water => &mut self.water,
            Layer::Works => &mut self.works,
            Layer::Marks => &mut self.marks,
        }
    }
}

/// A road, river, bridge or line on the side between two cells (`art::features`).
fn draw_edge_feature(
    f: &mut FeatureMeshes,
    layout: &Layout,
    from: crate::rules::grid::Cell,
    to: crate::rules::grid::Cell,
    feature: EdgeFeature,
) {
    let (a, b) = layout.edge_segment(from, to);
    let centres = (layout.center(from).to_array(), layout.center(to).to_array());
    let (layer, shapes) = crate::art::features::edge(feature, centres, (a.to_array(), b.to_array()), layout.side());
    f.layer(layer).shapes(&shapes, Vec2::ZERO, 1.0);
}

/// A town or city, a fortification, an airbase or a port (`art::features`): drawn in the band
/// between a counter's top and the cell's top edge, so a unit standing there leaves them in view.
fn draw_cell_feature(f: &mut FeatureMeshes, layout: &Layout, cell: crate::rules::grid::Cell, feature: CellFeature) {
    let corners: Vec<[f32; 2]> = layout.corners(cell).iter().map(|p| p.to_array()).collect();
    let shapes = crate::art::features::cell(
        feature,
        layout.center(cell).to_array(),
        &corners,
        layout.side(),
        super::counters::COUNTER / 2.0,
    );
    f.works.shapes(&shapes, Vec2::ZERO, 1.0);
}

/// An objective: a gold star outline.
fn draw_objective(mb: &mut MeshBuilder, layout: &Layout, cell: crate::rules::grid::Cell) {
    mb.shapes(
        &crate::art::features::objective(layout.center(cell).to_array(), layout.side()),
        Vec2::ZERO,
        1.0,
    );
}

/// An objective seen from afar: a filled gold star in a dark rim, kept its size on screen
/// (`detail.rs`), where the board picture's thin outline would be lost.
#[derive(Component)]
pub struct ObjectiveMark;

fn far_objective_mesh() -> Mesh {
    use crate::art::features::{OBJECTIVE_GOLD, filled_star};
    let mut mb = MeshBuilder::default();
    mb.shapes(&filled_star([0.0, 0.0], 13.0, 6.0, [51, 38, 13]), Vec2::ZERO, 1.0);
    mb.shapes(&filled_star([0.0, 0.0], 10.0, 4.5, OBJECTIVE_GOLD), Vec2::ZERO, 1.0);
    mb.build()
}

fn spawn_place_name(
    commands: &mut Commands,
    name: &str,
    (cell, at, offset): (crate::rules::grid::Cell, Vec2, Vec2),
    font: &Handle<Font>,
    color: Color,
    z: f32,
) {
    let place = PlaceName {
        cell,
        at,
        offset,
        size: NAME_SIZE,
    };
    let p = at + offset;
    commands.spawn((
        Text2d::new(name),
        TextFont {
            font: font.clone().into(),
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
