//! Motion for viewers: in presentation mode and the replay theatre, counters glide along the
//! paths of moves, retreats and advances instead of jumping; and the camera follows the action
//! (each move's end, each combat's cell), easing there and never jumping, unless the streamer
//! fixed it (setting, or G in presentation mode).

use super::super::counters::counter_spot;
use super::super::layout::Layout;
use super::super::state::BoardCamera;
use super::super::state::Replay;
use super::super::state::Settings;
use crate::game::advance::Advanced;
use crate::game::combat_phase::CombatResolved;
use crate::game::components::MapIndex;
use crate::game::movement::Moved;
use crate::game::retreat::Retreated;
use crate::rules::grid::Cell;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, RequestRedraw};

/// A counter on its way: the points it passes (the last is where it ends), where it rests at the
/// end (its place in the stack, height included), and its clock.
#[derive(Component, Clone, Debug)]
pub struct Glide {
    points: Vec<Vec2>,
    rest: Vec3,
    started: f32,
    secs: f32,
}

/// Seconds a counter takes per cell of its path.
const SECS_PER_CELL: f32 = 0.18;

/// Where the camera is asked to go: a point to bring into view, and (for a combat in presentation
/// mode) a scale to zoom to; `back` asks for the fitted whole map again.
#[derive(Resource, Default)]
pub struct CameraGoal {
    pub at: Option<Vec2>,
    pub zoom: Option<f32>,
    pub back: bool,
    /// The camera zoomed in on a combat and goes back once its card is gone.
    zoomed_in: bool,
    /// Where the last combat of this turn was: after its card the camera stands back to a
    /// medium shot around it (`medium_shot`), not to the whole map.
    last_combat: Option<Vec2>,
    /// Asked for the medium shot around this point.
    settle_at: Option<Vec2>,
}

impl CameraGoal {
    /// Zoom in on `at` to `zoom` as on a combat (the camera stands back after its card), whatever
    /// was asked before.
    pub fn frame_at(&mut self, at: Vec2, zoom: f32) {
        self.at = Some(at);
        self.zoom = Some(zoom);
        self.zoomed_in = true;
        self.last_combat = Some(at);
        self.settle_at = None;
        self.back = false;
    }

    /// The director framed a combat at `at`: the camera stands back after its card.
    pub fn framed_combat(&mut self, at: Option<Vec2>) {
        self.zoomed_in = true;
        self.at = None;
        self.zoom = None;
        self.last_combat = at;
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CameraGoal>()
        .add_systems(Update, fixed_camera_key.run_if(super::on))
        .add_systems(
            PostUpdate,
            (start_glides, glide, zoom_back, follow, super::stage::camera_on_stage)
                .chain()
                .before(TransformSystems::Propagate)
                .run_if(resource_exists::<Layout>.and_then(super::super::board_shown)),
        );
}

/// Whether viewers are watching: presentation mode, or a replay playing.
fn showing(presenting: &super::Presenting, replay: Option<&Replay>) -> bool {
    presenting.0 || replay.is_some_and(|r| r.playing)
}

fn fixed_camera_key(keys: Res<super::super::keymap::Keys>, mut settings: ResMut<Settings>) {
    if keys.just(super::super::keymap::Action::Glide) {
        settings.streaming.follow_camera = !settings.streaming.follow_camera;
    }
}

/// Each move, retreat and advance starts its counters gliding; the camera's goal is where it ends.
fn start_glides(
    mut commands: Commands,
    (mut moved, mut retreated, mut advanced, mut fought): (
        MessageReader<Moved>,
        MessageReader<Retreated>,
        MessageReader<Advanced>,
        MessageReader<CombatResolved>,
    ),
    (layout, index): (Res<Layout>, Res<MapIndex>),
    time: Res<Time>,
    presenting: Res<super::Presenting>,
    replay: Option<Res<Replay>>,
    settings: Res<Settings>,
    mut goal: ResMut<CameraGoal>,
    (windows, stage): (Query<&Window, With<PrimaryWindow>>, Res<super::stage::Stage>),
    mut rebuilt: MessageReader<crate::game::undo::GameRebuilt>,
) {
    let mut paths: Vec<(Vec<Entity>, Vec<Cell>)> = Vec::new();
    paths.extend(moved.read().map(|m| (m.units.clone(), m.path.clone())));
    paths.extend(retreated.read().filter(|r| !r.path.is_empty()).map(|r| {
        let mut cells = vec![r.from];
        cells.extend(&r.path);
        (vec![r.unit], cells)
    }));
    paths.extend(advanced.read().map(|a| (a.units.clone(), vec![a.from, a.to])));
    let combat = fought.read().last().map(|c| c.target);
    if !showing(&presenting, replay.as_deref()) {
        return;
    }
    // A rebuild (undo, stepping back) moves many at once: they just appear, and the camera
    // stays.
    if paths.len() > 4 || rebuilt.read().count() > 0 {
        return;
    }
    let now = time.elapsed_secs();
    for (units, cells) in &paths {
        let Some(last) = cells.last() else { continue };
        for e in units {
            // Where it ends, from the map index (the counters may not have been placed yet).
            let Some(rest) = counter_spot(&layout, &index, *e, *last) else {
                continue;
            };
            let mut points: Vec<Vec2> = cells[..cells.len() - 1].iter().map(|c| layout.center(*c)).collect();
            points.push(rest.truncate());
            if points.len() >= 2 {
                commands.entity(*e).try_insert(Glide {
                    secs: SECS_PER_CELL * (points.len() - 1) as f32,
                    points,
                    rest,
                    started: now,
                });
            }
        }
    }
    if settings.streaming.follow_camera {
        let last = paths.last().and_then(|(_, cells)| cells.last().copied());
        if let Some(cell) = combat.or(last) {
            goal.at = Some(layout.center(cell));
        }
        let now = time.elapsed_secs_f64();
        match combat {
            // The director framed it before the roll (`stage.rs`).
            // (However long its result waited for the defender's answer.)
            Some(cell) if stage.rolled_recently(cell, now, f64::INFINITY) => goal.at = None,
            // A combat it did not hold (an online game's, a redo): zoomed in to read.
            Some(_) if presenting.0 => {
                let height = windows.single().map_or(1080.0, |w| w.height());
                goal.zoom = Some(crate::show::director::readable_scale(layout.grid.kind, height));
                goal.zoomed_in = true;
                goal.last_combat = goal.at;
            }
            _ => {}
        }
    }
}

/// Once a combat's card has gone, the camera that zoomed in on it stands back to a medium shot
/// around it, where the counters still read; each new turn opens on the whole map.
fn zoom_back(
    mut goal: ResMut<CameraGoal>,
    overlay: Res<super::overlay::Overlay>,
    (mut stage, layout): (ResMut<super::stage::Stage>, Res<Layout>),
    (turn, presenting, settings): (
        Option<Res<crate::game::phase::TurnState>>,
        Res<super::Presenting>,
        Res<Settings>,
    ),
    mut seen_turn: Local<Option<u32>>,
) {
    if std::mem::take(&mut stage.framed) {
        let at = stage.last_rolled.map(|(cell, _)| layout.center(cell));
        goal.framed_combat(at);
    }
    let turn = turn.map(|t| t.turn);
    if turn != *seen_turn {
        // A new turn: its first shot is the whole map, where the last turn's combats are gone.
        let following = presenting.0 && settings.streaming.follow_camera;
        if seen_turn.is_some() && following && !goal.zoomed_in {
            goal.back = true;
        }
        goal.last_combat = None;
        *seen_turn = turn;
    }
    if goal.zoomed_in && overlay.card.is_none() && goal.at.is_none() {
        goal.zoomed_in = false;
        match goal.last_combat {
            Some(at) => goal.settle_at = Some(at),
            None => goal.back = true,
        }
    }
}

/// The point `t` (0..1) of the way along `points`.
pub fn along(points: &[Vec2], t: f32) -> Vec2 {
    let legs = points.len().saturating_sub(1);
    if legs == 0 {
        return points.first().copied().unwrap_or_default();
    }
    let x = (t.clamp(0.0, 1.0) * legs as f32).min(legs as f32 - 1e-4);
    let i = x.floor() as usize;
    let f = x - i as f32;
    // Eased within each leg: counters settle into each cell.
    let f = f * f * (3.0 - 2.0 * f);
    points[i].lerp(points[i + 1], f)
}

fn glide(
    mut commands: Commands,
    time: Res<Time>,
    mut gliding: Query<(Entity, &Glide, &mut Transform)>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let now = time.elapsed_secs();
    for (e, g, mut t) in &mut gliding {
        let p = (now - g.started) / g.secs.max(0.01);
        if p >= 1.0 {
            t.translation = g.rest;
            commands.entity(e).try_remove::<Glide>();
        } else {
            // Above the other counters while it travels.
            t.translation = along(&g.points, p).extend(t.translation.z.max(5.0));
            redraw.write(RequestRedraw);
        }
    }
}

/// Eases the camera toward its goal: a move's end when it is outside the free part of the frame
/// (clear of the overlay and the lower third, with a margin), brought to that part's middle; a
/// combat in presentation mode also zoomed in to read; the fitted map when asked back. Decided
/// once per goal, so it never stops short with a jerk.
fn follow(
    mut goal: ResMut<CameraGoal>,
    mut heading: Local<Option<(Vec2, f32)>>,
    time: Res<Time>,
    frame: Res<super::Frame>,
    presenting: Res<super::Presenting>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut camera: Query<(&mut Transform, &mut Projection), (With<BoardCamera>, Without<Glide>)>,
    mut redraw: MessageWriter<RequestRedraw>,
    (stage, overlay, settings): (Res<super::stage::Stage>, Res<super::overlay::Overlay>, Res<Settings>),
    layout: Res<Layout>,
) {
    if stage.director.holding.is_some() {
        // The director moves the camera to a combat (`stage.rs`); nothing else pulls at it, not
        // even afterwards: a stand-back asked for before the hold (the last card gone) would
        // otherwise pull the camera off this combat while its result shows.
        *heading = None;
        goal.at = None;
        goal.settle_at = None;
        goal.back = false;
        return;
    }
    let (Ok(window), Ok((mut t, mut projection))) = (windows.single(), camera.single_mut()) else {
        return;
    };
    let Projection::Orthographic(o) = projection.as_mut() else {
        return;
    };
    // Clear of the lower third, and of the overlay while a card shows.
    let overlay_on = overlay.card.is_some();
    let (right, bottom) = if presenting.0 {
        let zoom = crate::show::director::ui_zoom(window.height(), settings.ui_scale);
        let right = if overlay_on {
            crate::show::director::OVERLAY_WIDTH * zoom
        } else {
            frame.right
        };
        (right, frame.bottom)
    } else {
        (0.0, 0.0)
    };
    if std::mem::take(&mut goal.back) {
        *heading = frame.fit;
    }
    if let Some(at) = goal.settle_at.take() {
        let screen = crate::show::director::Screen {
            size: Vec2::new(window.width(), window.height()),
            overlay: 0.0,
            lower_third: frame.bottom,
        };
        let readable = crate::show::director::readable_scale(layout.grid.kind, window.height());
        let shot = crate::show::director::medium_shot(at, layout.bounds(), &screen, readable);
        *heading = Some((shot.center, shot.scale));
    }
    if let Some(target) = goal.at.take() {
        let scale = goal.zoom.take().map_or(o.scale, |z| z.min(o.scale));
        // The free part's middle, as an offset from the frame's middle, in world units (y up).
        let free_middle = Vec2::new(-right / 2.0, bottom / 2.0) * scale;
        let size = Vec2::new(window.width(), window.height());
        let free_half = (size - Vec2::new(right, bottom)) * o.scale / 2.0;
        let off = target - (t.translation.truncate() + free_middle);
        let outside = off.x.abs() > free_half.x * 0.92 || off.y.abs() > free_half.y * 0.92;
        if outside || scale < o.scale {
            *heading = Some((target - free_middle, scale));
        }
    }
    let Some((to, scale)) = *heading else { return };
    let off = to - t.translation.truncate();
    if off.length() < o.scale && (scale - o.scale).abs() < 1e-3 * scale {
        *heading = None;
        return;
    }
    let ease = 1.0 - (-4.0 * time.delta_secs().min(1.0 / 20.0)).exp();
    t.translation += (off * ease).extend(0.0);
    o.scale += (scale - o.scale) * ease;
    redraw.write(RequestRedraw);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::show::director::{Combat, Cue, Screen, Shot};

    /// The camera systems between two combats, in a world with a window, a board camera on the
    /// whole map and the director's stage.
    fn camera_world() -> App {
        let mut app = App::new();
        app.add_message::<RequestRedraw>()
            .init_resource::<Time>()
            .init_resource::<CameraGoal>()
            .init_resource::<super::super::stage::Stage>()
            .init_resource::<super::super::overlay::Overlay>()
            .init_resource::<super::super::Frame>()
            .insert_resource(super::super::Presenting(true))
            .insert_resource(Settings::default())
            .insert_resource(Layout {
                grid: crate::rules::grid::Grid {
                    kind: crate::rules::grid::GridKind::Hex {
                        top: crate::rules::grid::HexTop::Flat,
                    },
                    width: 20,
                    height: 14,
                },
            })
            .add_systems(Update, (zoom_back, follow).chain());
        let mut window = Window::default();
        window.resolution = bevy::window::WindowResolution::new(1920, 1080).with_scale_factor_override(1.0);
        app.world_mut().spawn((window, PrimaryWindow));
        let mut ortho = OrthographicProjection::default_2d();
        ortho.scale = 1.0;
        app.world_mut()
            .spawn((BoardCamera, Transform::default(), Projection::Orthographic(ortho)));
        app
    }

    fn a_card() -> super::super::card::Card {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/smolensk-game.ron");
        let text = std::fs::read_to_string(path).unwrap();
        let game = crate::game::save::parse_game_str(path, &text, 1).unwrap();
        let moments = crate::show::moments::find(&game).unwrap();
        super::super::card::Card {
            moment: moments.combats[0].clone(),
            rolled_at: Some(2.0),
            tumbling_since: None,
            table: None,
            then: Vec::new(),
        }
    }

    fn shot(app: &mut App) -> Shot {
        let mut q = app
            .world_mut()
            .query_filtered::<(&Transform, &Projection), With<BoardCamera>>();
        let (t, p) = q.single(app.world()).unwrap();
        let Projection::Orthographic(o) = p else {
            panic!("orthographic")
        };
        Shot {
            center: t.translation.truncate(),
            scale: o.scale,
        }
    }

    fn frames(app: &mut App, n: usize) {
        for _ in 0..n {
            app.world_mut()
                .resource_mut::<Time>()
                .advance_by(std::time::Duration::from_millis(16));
            app.update();
        }
    }

    #[test]
    fn a_stand_back_asked_before_a_combat_is_held_does_not_pull_the_camera_off_its_result() {
        let mut app = camera_world();
        let layout = *app.world().resource::<Layout>();
        let (first, second) = (Cell::new(3, 3), Cell::new(15, 10));
        // The first combat's card has gone: the camera is to stand back around it...
        app.world_mut()
            .resource_mut::<CameraGoal>()
            .framed_combat(Some(layout.center(first)));
        // ...while in the same frame the next combat's order is held, framed by the director.
        let screen = Screen {
            size: Vec2::new(1920.0, 1080.0),
            overlay: 800.0,
            lower_third: 108.0,
        };
        let target = layout.center(second);
        let combat = || Combat {
            cells: Rect::from_center_size(target, Vec2::splat(2.0 * layout.side())),
            target: second.to_string(),
        };
        let now = shot(&mut app);
        let mut stage = app.world_mut().resource_mut::<super::super::stage::Stage>();
        assert_eq!(stage.director.cue(combat(), &screen, 0.5, now, 0.0, 1.6), Cue::Hold);
        frames(&mut app, 1);
        // The director's camera frames the combat; the dice tumble and it rolls there.
        let framed = app
            .world()
            .resource::<super::super::stage::Stage>()
            .director
            .camera(2.0)
            .unwrap();
        let mut q = app
            .world_mut()
            .query_filtered::<(&mut Transform, &mut Projection), With<BoardCamera>>();
        let (mut t, mut p) = q.single_mut(app.world_mut()).unwrap();
        t.translation = framed.center.extend(0.0);
        if let Projection::Orthographic(o) = p.as_mut() {
            o.scale = framed.scale;
        }
        let mut stage = app.world_mut().resource_mut::<super::super::stage::Stage>();
        assert!(matches!(
            stage.director.cue(combat(), &screen, 0.5, framed, 2.0, 1.6),
            Cue::Roll(_)
        ));
        stage.framed = true;
        stage.last_rolled = Some((second, 2.0));
        // Its result is on the card (a combat of the committed game stands in for it): the
        // camera stays on it for as long as the card shows.
        app.world_mut().resource_mut::<super::super::overlay::Overlay>().card = Some(a_card());
        frames(&mut app, 90);
        assert_eq!(
            shot(&mut app),
            framed,
            "the camera stayed on the combat whose result shows"
        );
    }

    #[test]
    fn a_glide_passes_every_cell_of_its_path_in_order() {
        let points = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)];
        assert_eq!(along(&points, 0.0), Vec2::ZERO);
        assert!((along(&points, 0.5) - Vec2::new(10.0, 0.0)).length() < 0.01);
        assert!((along(&points, 1.0) - Vec2::new(10.0, 10.0)).length() < 0.01);
        // Halfway along the first leg, eased: exactly in the middle (symmetric easing).
        assert!((along(&points, 0.25) - Vec2::new(5.0, 0.0)).length() < 0.01);
        assert_eq!(along(&points[..1], 0.7), Vec2::ZERO);
    }
}
