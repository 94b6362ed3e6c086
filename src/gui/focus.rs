//! Keeps the combat being resolved in sight: when a panel (attack, CRT, result, retreat or advance
//! choice) covers one of its cells — the target, the attackers, the retreat paths, the cells to
//! advance into — the board glides, by the shortest move that clears them all, until none is
//! covered. It moves once per change of cells or panels, so the player can pan away afterwards,
//! and once the combat is over it glides back where the player had it, unless they moved it since.

use super::answer_ask::AnswerAsk;
use super::attack::AttackPlan;
use super::choices::Asked;
use super::layout::Layout;
use super::state::BoardCamera;
use crate::game::components::{Position, Unit};

/// Where each unit stands, by id.
type UnitCells<'w, 's> = Query<'w, 's, (&'static Unit, &'static Position)>;
use crate::rules::grid::Cell;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, RequestRedraw};
use bevy_egui::{EguiContexts, egui};

/// The windows that sit over the board while a combat is resolved.
const PANELS: [&str; 6] = [
    "attack-panel",
    "defender-answer",
    "crt-panel",
    "result-panel",
    "retreat-choice",
    "advance-choice",
];

/// Room kept between the cells and a panel or the edge, in screen pixels.
const MARGIN: f32 = 12.0;

/// Seconds without combat cells before the board goes back: between a roll and the retreat or
/// advance question after it there are frames with none.
const GO_BACK_AFTER: f32 = 0.3;

/// Where the camera is gliding to, and what it last made room for.
#[derive(Resource, Default)]
struct Glide {
    to: Option<Vec2>,
    cleared: Option<(Vec<Cell>, Vec<usize>)>,
    /// The panels' places as last read: a panel shown anew, moved or grown reads at its old place
    /// for a frame, so room is made once they stand still.
    seen: Vec<(usize, egui::Rect)>,
    /// Where the player had the camera before this combat's first glide, and where the last glide
    /// took it.
    home: Option<(Vec2, Vec2)>,
    /// How long the combat's cells have been gone, in seconds.
    gone_for: f32,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Glide>()
        .add_systems(
            OnEnter(crate::game::phase::GameState::NoGame),
            |mut g: ResMut<Glide>| *g = Glide::default(),
        )
        .add_systems(Update, (make_room, glide).chain().run_if(resource_exists::<Layout>));
}

/// The cells of the combat in hand, in a stable order.
fn combat_cells(plan: &AttackPlan, asked: &Asked, answer: &AnswerAsk, positions: &UnitCells) -> Vec<Cell> {
    let mut cells = core_cells(plan, asked, answer, positions);
    if let Some(r) = &asked.retreat {
        cells.extend(r.paths.iter().flat_map(|(path, _, _)| path.iter().copied()));
    }
    if let Some(a) = &asked.advance {
        cells.extend(a.targets.iter().map(|(c, _)| *c));
    }
    cells.sort_by_key(|c| (c.col, c.row));
    cells.dedup();
    cells
}

/// The cells that matter most: the target, the attackers, the cell retreated from or advanced into.
fn core_cells(plan: &AttackPlan, asked: &Asked, answer: &AnswerAsk, positions: &UnitCells) -> Vec<Cell> {
    let mut cells: Vec<Cell> = plan.target.into_iter().collect();
    if plan.target.is_some() {
        cells.extend(
            positions
                .iter()
                .filter(|(u, _)| plan.attackers.contains(&u.id))
                .map(|(_, p)| p.0),
        );
    }
    cells.extend(asked.retreat.as_ref().map(|r| r.from));
    cells.extend(asked.advance.as_ref().map(|a| a.into));
    // A defender's question: the attack it answers.
    if asked.retreat.is_none() && asked.advance.is_none() && answer.asking() {
        cells.extend(answer.cells.iter().copied());
    }
    cells
}

/// The smallest move (screen pixels, y down) that takes `cells` off every one of `panels` and
/// keeps them inside `free`, searched on a grid of `step` pixels; `None` when nothing is covered,
/// or when no such move exists (the cells are larger than any free room).
pub fn room_for(cells: egui::Rect, panels: &[egui::Rect], free: egui::Rect, step: f32) -> Option<egui::Vec2> {
    let covered = |r: egui::Rect| panels.iter().any(|p| p.expand(MARGIN).intersects(r));
    if !covered(cells) {
        return None;
    }
    let inside = free.shrink(MARGIN);
    let (nx, ny) = (
        (inside.width() / step).ceil() as i32,
        (inside.height() / step).ceil() as i32,
    );
    let mut best: Option<egui::Vec2> = None;
    for ix in -nx..=nx {
        for iy in -ny..=ny {
            let d = egui::vec2(ix as f32 * step, iy as f32 * step);
            if best.is_some_and(|b| b.length_sq() <= d.length_sq()) {
                continue;
            }
            let moved = cells.translate(d);
            if inside.contains_rect(moved) && !covered(moved) {
                best = Some(d);
            }
        }
    }
    best
}

/// Whether the camera is where the last glide took it, or on its way there: the player has not
/// moved it since.
fn unmoved(glide: &Glide, at: Vec2, left: Vec2) -> bool {
    glide.to == Some(left) || at.distance(left) < 0.5
}

/// Where the camera goes back to after the combat: where the player had it before its first
/// glide, or where it is now if they have moved it since.
fn home_before(glide: &Glide, at: Vec2) -> Vec2 {
    match glide.home {
        Some((home, left)) if unmoved(glide, at, left) => home,
        _ => at,
    }
}

/// With the combat's cells gone for a moment, sends the camera back home if the player left it
/// where the glides did. Returns whether it is still waiting.
fn go_home(glide: &mut Glide, at: Vec2, dt: f32) -> bool {
    let Some((home, left)) = glide.home else {
        return false;
    };
    glide.gone_for += dt;
    if glide.gone_for < GO_BACK_AFTER {
        return true;
    }
    if unmoved(glide, at, left) {
        glide.to = Some(home);
    }
    glide.home = None;
    false
}

fn make_room(
    mut contexts: EguiContexts,
    mut glide: ResMut<Glide>,
    plan: Res<AttackPlan>,
    asked: Res<Asked>,
    answer: Res<AnswerAsk>,
    positions: UnitCells,
    layout: Res<Layout>,
    windows: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform, &Transform, &Projection), With<BoardCamera>>,
    log_panel: Res<super::log_panel::LogPanel>,
    time: Res<Time>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let cells = combat_cells(&plan, &asked, &answer, &positions);
    if cells.is_empty() {
        glide.cleared = None;
        glide.seen.clear();
        // Capped: the first frame after the window slept carries the whole idle time.
        let dt = time.delta_secs().min(1.0 / 30.0);
        if let Ok((_, _, t, _)) = camera.single()
            && go_home(&mut glide, t.translation.truncate(), dt)
        {
            redraw.write(RequestRedraw);
        }
        return;
    }
    glide.gone_for = 0.0;
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let rects: Vec<(usize, egui::Rect)> = ctx.memory(|m| {
        PANELS
            .iter()
            .enumerate()
            // Only panels shown last frame: egui remembers the place of every area ever shown.
            .filter(|(_, id)| {
                [egui::Order::Middle, egui::Order::Foreground]
                    .into_iter()
                    .any(|order| m.areas().is_visible(&egui::LayerId::new(order, egui::Id::new(**id))))
            })
            .filter_map(|(i, id)| m.area_rect(egui::Id::new(*id)).map(|r| (i, r)))
            .collect()
    });
    // While an attack is prepared the target alone is its key: Shift+clicking more attackers in
    // never moves the board under the pointer.
    let keyed = match plan.target {
        Some(target) if asked.retreat.is_none() && asked.advance.is_none() => vec![target],
        _ => cells.clone(),
    };
    let key = (keyed, rects.iter().map(|(i, _)| *i).collect::<Vec<_>>());
    // Pinning moves the attack panel from the hovered target's side to its corner and grows it:
    // the place read in that frame is the old one.
    let settled = rects == glide.seen;
    glide.seen.clone_from(&rects);
    if glide.cleared.as_ref() == Some(&key) || rects.is_empty() {
        return;
    }
    if !settled {
        redraw.write(RequestRedraw);
        return;
    }
    let (Ok(window), Ok((camera, global, transform, Projection::Orthographic(ortho)))) =
        (windows.single(), camera.single())
    else {
        return;
    };
    // egui points → window pixels (logical).
    let points = ctx.pixels_per_point() / window.scale_factor();
    let scale = |r: egui::Rect| {
        egui::Rect::from_min_max(
            (r.min.to_vec2() * points).to_pos2(),
            (r.max.to_vec2() * points).to_pos2(),
        )
    };
    // The board's room: below the menu bar, above the status bar, left of the log panel.
    let free = egui::Rect::from_min_max(
        egui::pos2(0.0, 40.0),
        egui::pos2(window.width() - log_panel.right_inset(), window.height() - 34.0),
    );
    let panels: Vec<egui::Rect> = rects.iter().map(|(_, r)| scale(*r)).collect();
    let radius = layout.side() / ortho.scale;
    let bounds_of = |cells: &[Cell]| -> Option<egui::Rect> {
        let mut bounds = egui::Rect::NOTHING;
        for cell in cells {
            let p = camera
                .world_to_viewport(global, layout.center(*cell).extend(0.0))
                .ok()?;
            bounds = bounds.union(egui::Rect::from_center_size(
                egui::pos2(p.x, p.y),
                egui::Vec2::splat(2.0 * radius),
            ));
        }
        Some(bounds)
    };
    let (Some(all), Some(core)) = (
        bounds_of(&cells),
        bounds_of(&core_cells(&plan, &asked, &answer, &positions)),
    ) else {
        return;
    };
    glide.cleared = Some(key);
    // Every cell of the combat when they fit between the panels; else the units fighting and the
    // cells being retreated from or advanced into.
    let room = room_for(all, &panels, free, 16.0).or_else(|| room_for(core, &panels, free, 16.0));
    if let Some(d) = room {
        // The board moves by d on screen: the camera the other way (world y is up).
        let at = transform.translation.truncate();
        let to = at + Vec2::new(-d.x, d.y) * ortho.scale;
        glide.home = Some((home_before(&glide, at), to));
        glide.to = Some(to);
    }
}

/// Moves the camera a share of the way each frame: smooth, never a jump.
fn glide(
    mut glide: ResMut<Glide>,
    time: Res<Time>,
    mut camera: Query<&mut Transform, With<BoardCamera>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(to) = glide.to else { return };
    let Ok(mut t) = camera.single_mut() else { return };
    let now = t.translation.truncate();
    let share = 1.0 - (-time.delta_secs() * 8.0).exp();
    let next = if now.distance(to) < 0.5 {
        to
    } else {
        now.lerp(to, share)
    };
    t.translation = next.extend(t.translation.z);
    if next == to {
        glide.to = None;
    } else {
        redraw.write(RequestRedraw);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f32, y: f32, w: f32, h: f32) -> egui::Rect {
        egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(w, h))
    }

    #[test]
    fn uncovered_cells_stay_and_covered_ones_move_the_least_way_out() {
        let free = rect(0.0, 30.0, 1300.0, 940.0);
        let crt = rect(500.0, 40.0, 400.0, 300.0);
        // Below the CRT: nothing to do.
        assert_eq!(room_for(rect(600.0, 500.0, 100.0, 60.0), &[crt], free, 10.0), None);
        // Under its lower edge: moved down just clear of it (the margin kept).
        let d = room_for(rect(600.0, 300.0, 100.0, 60.0), &[crt], free, 10.0).unwrap();
        assert_eq!(d, egui::vec2(0.0, 60.0));
        let moved = rect(600.0, 300.0, 100.0, 60.0).translate(d);
        assert!(!crt.expand(MARGIN).intersects(moved) && free.contains_rect(moved));
        // Between two panels the way out is sideways when that is shorter.
        let attack = rect(0.0, 40.0, 400.0, 900.0);
        let d = room_for(rect(390.0, 100.0, 40.0, 40.0), &[attack, crt], free, 10.0).unwrap();
        assert!(d.x > 0.0 && d.length() < 60.0, "{d:?}");
        // Larger than any room: left where it is.
        assert_eq!(room_for(rect(0.0, 30.0, 1300.0, 900.0), &[crt], free, 10.0), None);
    }

    #[test]
    fn after_the_combat_the_board_goes_back_unless_the_player_moved_it() {
        let (home, left) = (Vec2::ZERO, Vec2::new(-48.0, 16.0));
        let mut glide = Glide {
            home: Some((home, left)),
            ..default()
        };
        // A frame without cells (a roll, before its question): it waits.
        assert!(go_home(&mut glide, left, 0.1));
        assert_eq!(glide.to, None);
        // Then back where the player had it.
        assert!(!go_home(&mut glide, left, GO_BACK_AFTER));
        assert_eq!((glide.to, glide.home), (Some(home), None));
        // A second glide of the same combat keeps the first home; panned since, home is here.
        let mut glide = Glide {
            home: Some((home, left)),
            ..default()
        };
        assert_eq!(home_before(&glide, left), home);
        assert_eq!(home_before(&glide, left + Vec2::X * 100.0), left + Vec2::X * 100.0);
        // Panned since: it stays.
        glide.gone_for = 1.0;
        assert!(!go_home(&mut glide, left + Vec2::X * 100.0, 0.1));
        assert_eq!((glide.to, glide.home), (None, None));
    }
}
