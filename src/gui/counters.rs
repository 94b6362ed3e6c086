//! Unit counters in the classic style: side colour, NATO symbol, size marks, values, step pips
//! and status tags; stacks drawn offset so every counter shows, the last arrived on top.

use super::layout::{Layout, MeshBuilder};
use super::state::rgb;
use crate::art::{counter, designation};
use crate::game::components::{Formation, MapIndex, MovePoints, Position, Side, Sides, Statuses, Steps, Unit};
use crate::game::phase::GameState;
use crate::rules::grid::Cell;
use crate::rules::units::{UnitClass, UnitStatus};
use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::FontSize;

/// Counter side in world units.
pub const COUNTER: f32 = 50.0;
/// How far each counter in a stack sits from the one below it.
const STACK_OFFSET: Vec2 = Vec2::splat(crate::art::counter::STACK_STEP);

/// Marks a counter's drawn parts (children of the unit entity) so they can be rebuilt.
#[derive(Component)]
pub struct CounterPart;

/// How much larger than drawn a counter's words are laid out, so they stay crisp zoomed in.
const TEXT_OVERSAMPLE: f32 = 2.0;

/// A counter's band words (designation and formation): shown only close in (`detail.rs`).
#[derive(Component)]
pub struct BandText;

/// The unit count drawn on stacks of two or more.
#[derive(Component)]
pub struct StackBadge;

/// A counter seen from afar: a square of its side's colour (`detail.rs` swaps it for the face).
#[derive(Component)]
pub struct CounterPip;

/// What a counter's face mesh shows (side, class, steps, steps left, formation band); counters
/// that look alike share one mesh.
type FaceKey = (usize, UnitClass, usize, usize, Option<[u8; 3]>);

/// Meshes shared by counters: faces by look, pips by side, and the stack badge.
#[derive(Default)]
struct SharedMeshes {
    faces: std::collections::HashMap<FaceKey, Handle<Mesh>>,
    pips: std::collections::HashMap<usize, Handle<Mesh>>,
    badge: Option<Handle<Mesh>>,
    markers: std::collections::HashMap<UnitStatus, Handle<Mesh>>,
    material: Option<Handle<ColorMaterial>>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (draw_counters, place_counters, draw_stack_badges)
            .chain()
            .in_set(super::state::CounterSystems)
            .run_if(super::board_shown.and_then(resource_exists::<Layout>)),
    );
}

/// A status marker as on a real board: a chip with a short name, in an Okabe-Ito colour (told
/// apart by every common colour vision) with black or white text, whichever reads better.
pub fn status_marker(s: UnitStatus) -> (&'static str, [u8; 3], bool) {
    const ORANGE: [u8; 3] = [230, 159, 0];
    const YELLOW: [u8; 3] = [240, 228, 66];
    const VERMILLION: [u8; 3] = [213, 94, 0];
    match s {
        UnitStatus::Disorganized => ("DIS", ORANGE, false),
        UnitStatus::Dispersed => ("DSP", [160, 160, 160], false),
        UnitStatus::Tipped => ("TIP", [86, 180, 233], false),
        UnitStatus::LowSupply => ("LS", YELLOW, false),
        UnitStatus::OutOfSupply => ("OOS", VERMILLION, true),
        UnitStatus::Disrupted => ("DRP", YELLOW, false),
        UnitStatus::Shocked => ("SHK", ORANGE, false),
        UnitStatus::Panicked => ("PAN", VERMILLION, true),
        UnitStatus::Clearing => ("CLR", [204, 121, 167], false),
    }
}

/// A marker chip's mesh: a rectangle with a dark rim.
fn marker_mesh(fill: Color) -> Mesh {
    let mut mb = MeshBuilder::default();
    let (w, h) = (MARKER.x / 2.0, MARKER.y / 2.0);
    let rect = [Vec2::new(-w, -h), Vec2::new(w, -h), Vec2::new(w, h), Vec2::new(-w, h)];
    mb.polygon(&rect, Color::srgb(0.08, 0.08, 0.08));
    let inner: Vec<Vec2> = rect.iter().map(|p| *p - p.signum() * 1.2).collect();
    mb.polygon(&inner, fill);
    mb.build()
}

/// A status marker's size in world units (a counter is `COUNTER` wide).
const MARKER: Vec2 = Vec2::new(30.0, 16.0);

/// How far above its counter a status marker is drawn: over the counters stacked on it (each
/// `0.05` higher, `spot_in_stack`), which would cover its right end; under the stack badge.
const MARKER_Z: f32 = 0.8;

pub use crate::game::components::values_text;

type CounterData<'a> = (
    Entity,
    &'a Unit,
    &'a Side,
    &'a Steps,
    &'a Statuses,
    &'a MovePoints,
    Option<&'a Formation>,
    Option<&'a Children>,
);

/// The counter's ink: its values, size and symbol (`art::counter::INK`).
pub const COUNTER_INK: Color = Color::srgb_u8(
    crate::art::counter::INK[0],
    crate::art::counter::INK[1],
    crate::art::counter::INK[2],
);

/// A counter's face (`art::counter`, as in the pictures): shadow, border, side colour, NATO
/// symbol and step pips.
fn face_mesh(color: [u8; 3], class: UnitClass, steps: (usize, usize), band: Option<[u8; 3]>) -> Mesh {
    let mut mb = MeshBuilder::default();
    mb.shapes(
        &counter::face(color, class, steps, band, true),
        Vec2::ZERO,
        COUNTER / 2.0,
    );
    mb.build()
}

/// A counter from afar: its side's colour in a dark border.
fn pip_mesh(color: Color) -> Mesh {
    let mut mb = MeshBuilder::default();
    mb.polygon(&square(COUNTER / 2.0 + 3.0), Color::srgb(0.08, 0.08, 0.08));
    mb.polygon(&square(COUNTER / 2.0 - 3.0), color);
    mb.build()
}

fn square(h: f32) -> [Vec2; 4] {
    [Vec2::new(-h, -h), Vec2::new(h, -h), Vec2::new(h, h), Vec2::new(-h, h)]
}

/// A counter's words, each with where it sits and how large (in half-sides) and what it is
/// anchored by: the band's designation (left) and formation (right), the size mark, the values.
fn counter_texts(unit: &Unit, element: Option<&str>, values: String) -> [(String, Vec2, f32, Anchor); 4] {
    let (own, formation) = designation::band_texts(&unit.name, element);
    let band = |x: f32| Vec2::new(x, counter::BAND_TEXT_Y);
    [
        (
            own,
            band(counter::BAND_TEXT_LEFT),
            counter::BAND_TEXT_SIZE,
            Anchor::CENTER_LEFT,
        ),
        (
            formation,
            band(counter::BAND_TEXT_RIGHT),
            counter::BAND_TEXT_SIZE,
            Anchor::CENTER_RIGHT,
        ),
        (
            unit.size.mark().to_string(),
            Vec2::new(0.0, counter::SIZE_MARK_Y),
            counter::SIZE_MARK_SIZE,
            Anchor::CENTER,
        ),
        (
            values,
            Vec2::new(0.0, counter::VALUES_Y),
            counter::VALUES_SIZE,
            Anchor::CENTER,
        ),
    ]
}

/// Spawns a counter's words (`counter_texts`) for a counter `h` from its centre to its edge, in
/// `font` and `ink`; returns the entities.
fn spawn_counter_texts(
    commands: &mut Commands,
    texts: [(String, Vec2, f32, Anchor); 4],
    (font, ink): (&Handle<Font>, Color),
    h: f32,
) -> Vec<Entity> {
    let mut parts = Vec::new();
    for (i, (words, at, size, anchor)) in texts.into_iter().enumerate() {
        // Laid out at twice the size and drawn at half: crisp to twice the zoom.
        let mut part = commands.spawn((
            Text2d::new(words),
            TextFont {
                font: font.clone().into(),
                font_size: FontSize::Px(size * h * TEXT_OVERSAMPLE),
                ..default()
            },
            TextColor(ink),
            anchor,
            Transform::from_xyz(at.x * h, at.y * h, 0.01).with_scale(Vec3::splat(1.0 / TEXT_OVERSAMPLE)),
            CounterPart,
        ));
        // The band's two words come first.
        if i < 2 {
            part.insert(BandText);
        }
        parts.push(part.id());
    }
    parts
}

/// (Re)builds the drawn parts of counters that are new or whose steps or statuses changed.
fn draw_counters(
    mut commands: Commands,
    units: Query<CounterData, Or<(Added<Unit>, Changed<Steps>, Changed<Statuses>)>>,
    parts: Query<(), Or<(With<CounterPart>, With<CounterPip>)>>,
    sides: Res<Sides>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut shared: Local<SharedMeshes>,
    map: Res<crate::game::components::GameMap>,
    counter_font: Option<Res<super::fonts::CounterFont>>,
) {
    let full = map.ruleset.combat.counter_prints_defense();
    let font = counter_font.map(|f| f.0.clone()).unwrap_or_default();
    let material = shared
        .material
        .get_or_insert_with(|| materials.add(ColorMaterial::from_color(Color::WHITE)))
        .clone();
    for (entity, unit, side, steps, statuses, mp, formation, children) in &units {
        for child in children.into_iter().flatten() {
            if parts.contains(*child) {
                commands.entity(*child).despawn();
            }
        }
        let color = rgb(sides.0[side.0].color);
        let ink = COUNTER_INK;
        let h = COUNTER / 2.0;
        let track = &steps.0;
        let element = formation.and_then(|f| f.element.as_deref());
        let band = designation::band_color(&sides.0[side.0].formations, element);
        let key = (side.0, unit.class, track.total(), track.remaining(), band);
        let face = shared
            .faces
            .entry(key)
            .or_insert_with(|| {
                meshes.add(face_mesh(
                    sides.0[side.0].color,
                    unit.class,
                    (track.total(), track.remaining()),
                    band,
                ))
            })
            .clone();
        let pip = shared
            .pips
            .entry(side.0)
            .or_insert_with(|| meshes.add(pip_mesh(color)))
            .clone();
        let mut parts_of = vec![
            commands
                .spawn((
                    Mesh2d(face),
                    MeshMaterial2d(material.clone()),
                    Transform::default(),
                    CounterPart,
                ))
                .id(),
            commands
                .spawn((
                    Mesh2d(pip),
                    MeshMaterial2d(material.clone()),
                    Transform::default(),
                    CounterPip,
                ))
                .id(),
        ];
        let values = if track.is_cadre() {
            format!("{} c", values_text(steps, mp, full))
        } else {
            values_text(steps, mp, full)
        };
        let texts = counter_texts(unit, element, values);
        parts_of.extend(spawn_counter_texts(&mut commands, texts, (&font, ink), h));
        parts_of.extend(status_markers(
            &mut commands,
            &mut shared,
            &mut meshes,
            &material,
            statuses,
        ));
        commands
            .entity(entity)
            .insert_if_new((Transform::default(), Visibility::default()))
            .add_children(&parts_of);
    }
}

/// Status markers overlap the counter's left edge, one under another, as chits would, on top of
/// the rest of the stack.
fn status_markers(
    commands: &mut Commands,
    shared: &mut SharedMeshes,
    meshes: &mut Assets<Mesh>,
    material: &Handle<ColorMaterial>,
    statuses: &Statuses,
) -> Vec<Entity> {
    let h = COUNTER / 2.0;
    let mut out = Vec::new();
    for (i, status) in statuses.0.iter().enumerate() {
        let (label, [r, g, b], light_text) = status_marker(*status);
        let at = Vec2::new(-h - MARKER.x * 0.15, h * 0.5 - i as f32 * (MARKER.y + 1.0));
        let mesh = shared
            .markers
            .entry(*status)
            .or_insert_with(|| meshes.add(marker_mesh(Color::srgb_u8(r, g, b))))
            .clone();
        out.push(
            commands
                .spawn((
                    Mesh2d(mesh),
                    MeshMaterial2d(material.clone()),
                    Transform::from_xyz(at.x, at.y, MARKER_Z),
                    CounterPart,
                ))
                .id(),
        );
        let ink = if light_text { Color::WHITE } else { Color::BLACK };
        out.push(
            commands
                .spawn((
                    Text2d::new(label),
                    TextFont {
                        font_size: FontSize::Px(12.0),
                        ..default()
                    },
                    TextColor(ink),
                    Transform::from_xyz(at.x, at.y, MARKER_Z + 0.01),
                    CounterPart,
                ))
                .id(),
        );
    }
    out
}

/// Puts every counter in its cell, offset by its place in the stack: when the map index or the
/// layout changes, and when units were spawned (a game rebuilt to be watched from its start may
/// spawn them after this frame's index change was seen).
fn place_counters(
    index: Res<MapIndex>,
    layout: Res<Layout>,
    spawned: Query<(), Added<Unit>>,
    mut units: Query<&mut Transform, (With<Unit>, With<Position>)>,
) {
    if !index.is_changed() && !layout.is_changed() && spawned.is_empty() {
        return;
    }
    for (cell, stack) in index.occupied() {
        for (i, e) in stack.iter().enumerate() {
            if let Ok(mut t) = units.get_mut(*e) {
                *t = Transform::from_translation(spot_in_stack(&layout, cell, i, stack.len()));
            }
        }
    }
}

/// Where the `i`-th counter of a stack of `n` in `cell` is drawn (offset by its place, higher up
/// the stack nearer the viewer).
fn spot_in_stack(layout: &Layout, cell: Cell, i: usize, n: usize) -> Vec3 {
    let at = layout.center(cell) + STACK_OFFSET * i as f32 - STACK_OFFSET * (n - 1) as f32 / 2.0;
    at.extend(1.0 + i as f32 * 0.05)
}

/// Where `unit`'s counter is drawn now, by the map index.
pub fn counter_spot(layout: &Layout, index: &MapIndex, unit: Entity, cell: Cell) -> Option<Vec3> {
    let stack = index.stack(cell);
    let i = stack.iter().position(|e| *e == unit)?;
    Some(spot_in_stack(layout, cell, i, stack.len()))
}

/// A white disc with the unit count at the top-left corner of every stack of two or more.
fn draw_stack_badges(
    mut commands: Commands,
    index: Res<MapIndex>,
    layout: Res<Layout>,
    badges: Query<Entity, With<StackBadge>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut shared: Local<SharedMeshes>,
) {
    if !index.is_changed() {
        return;
    }
    for b in &badges {
        commands.entity(b).despawn();
    }
    let material = shared
        .material
        .get_or_insert_with(|| materials.add(ColorMaterial::from_color(Color::WHITE)))
        .clone();
    let mesh = shared
        .badge
        .get_or_insert_with(|| {
            let mut mb = MeshBuilder::default();
            mb.disc(Vec2::ZERO, 8.5, Color::srgb(0.1, 0.1, 0.1));
            mb.disc(Vec2::ZERO, 7.0, Color::WHITE);
            meshes.add(mb.build())
        })
        .clone();
    for (cell, stack) in index.occupied().filter(|(_, s)| s.len() > 1) {
        let top = layout.center(cell) + STACK_OFFSET * (stack.len() - 1) as f32 / 2.0;
        let at = top + Vec2::new(-COUNTER / 2.0, COUNTER / 2.0);
        commands
            .spawn((
                Mesh2d(mesh.clone()),
                MeshMaterial2d(material.clone()),
                Transform::from_xyz(at.x, at.y, 3.0),
                StackBadge,
                DespawnOnEnter(GameState::NoGame),
            ))
            .with_child((
                Text2d::new(stack.len().to_string()),
                TextFont {
                    font_size: FontSize::Px(11.0),
                    ..default()
                },
                TextColor(Color::BLACK),
                Transform::from_xyz(0.0, 0.0, 0.01),
            ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::art::contrast;

    #[test]
    fn counter_values_read_on_every_shipped_side_colour() {
        for i in 0..crate::scenario::SHIPPED.len() {
            let scenario = crate::scenario::shipped_scenario(i).unwrap();
            for side in &scenario.sides {
                let ratio = contrast(counter::INK, counter::face_fill(side.color));
                assert!(
                    ratio >= 4.5,
                    "{}: {} counters' text contrast {ratio:.2}:1 is under WCAG AA's 4.5:1",
                    scenario.raw.name,
                    side.name
                );
            }
        }
        // The check can fail: black on the side colour itself, for Mortain's Germans, did.
        assert!(contrast(counter::INK, [0x5d, 0x6f, 0x80]) < 4.5);
        assert!((contrast([0; 3], [255; 3]) - 21.0).abs() < 0.01);
    }
}
