//! The director on stage: in presentation mode an order that rolls a combat's dice (the
//! computer's, the player's, a standing answer or a replayed one) waits while the camera frames
//! the combat's cells clear of the overlay and the lower third and the dice tumble on the card,
//! then is carried out, so the board changes in the frame the result shows, never before. The
//! framing and timing are `show::director`'s pure functions; this file feeds them the window and
//! the camera. Whatever else happens meanwhile — presentation mode turned off, an undo, a game
//! loaded or left — drops the hold (`reset`), so nothing waits for a roll that will not come.

use super::super::layout::Layout;
use super::super::state::{BoardCamera, Presenting, Settings};
use super::card::Card;
use crate::game::order::Order;
use crate::game::phase::GameState;
use crate::rules::grid::Cell;
use crate::show::director::{
    Combat, Cue, Director, Framed, Screen, Shot, cells_rect, combat_cells, presentation_screen, readable_scale,
};
use crate::show::moments::{before_roll, side_names};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, RequestRedraw};

/// The longest the next order waits for a rolled combat's result to reach the card.
const RESULT_WAIT_SECS: f64 = 3.0;

/// The director's hold, and what waits on it.
#[derive(Resource, Default)]
pub struct Stage {
    pub director: Director,
    pub player_order: Option<Order>,
    /// The held combat's card (before its roll, the dice tumbling): the overlay shows it.
    pub card: Option<Card>,
    /// A combat was framed and rolled with the camera following: it goes back to the whole map
    /// after the card.
    pub framed: bool,
    /// The cell of the last combat the director let roll, and when: its result shows at once
    /// (the dice have tumbled), and the camera is where the director put it.
    pub last_rolled: Option<(Cell, f64)>,
    /// The last combat let roll has not shown its result yet (or said it will not come): the
    /// replay and the computer wait, however slow the frame after the roll.
    pub result_due: bool,
    /// Counts resets: an order held elsewhere (the computer's) under an older count is dropped.
    pub generation: u64,
}

impl Stage {
    /// Forgets the hold and everything waiting on it.
    pub fn reset(&mut self) {
        *self = Stage {
            generation: self.generation + 1,
            ..Stage::default()
        };
    }

    /// Whether the next order waits for the last roll's result to reach the card. A result that
    /// never comes (the order refused, the card gone) stops the wait after a few seconds.
    pub fn awaits_result(&self, now: f64) -> bool {
        self.result_due && self.last_rolled.is_some_and(|(_, t)| now - t < RESULT_WAIT_SECS)
    }

    /// Whether the director let the combat at `target` roll within the last `secs`.
    pub fn rolled_recently(&self, target: Cell, now: f64, secs: f64) -> bool {
        self.last_rolled.is_some_and(|(at, t)| at == target && now - t <= secs)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Stage>()
        .add_systems(OnEnter(GameState::NoGame), reset_stage)
        .add_systems(PreUpdate, reset_when_interrupted);
}

/// The overlay sees the reset by the stage's count changing (`overlay::drop_on_reset`).
fn reset_stage(mut stage: ResMut<Stage>) {
    stage.reset();
}

/// Presentation mode turned off, a game rebuilt (undo, a replay stepping back) or a replay
/// opened: the hold and the card go.
fn reset_when_interrupted(
    presenting: Res<Presenting>,
    mut rebuilt: MessageReader<crate::game::undo::GameRebuilt>,
    replay: Option<Res<super::super::state::Replay>>,
    stage: ResMut<Stage>,
) {
    let off = presenting.is_changed() && !presenting.0;
    let rebuilt = rebuilt.read().count() > 0;
    let opened = replay.is_some_and(|r| r.is_added());
    if off || rebuilt || opened {
        reset_stage(stage);
    }
}

/// The presentation frame as the window has it now (the overlay's column counted).
pub fn screen_now(world: &mut World) -> Option<Screen> {
    let mut windows = world.query_filtered::<&Window, With<PrimaryWindow>>();
    let window = windows.single(world).ok()?;
    let size = Vec2::new(window.width(), window.height());
    let mut screen = presentation_screen(size, world.resource::<Settings>().ui_scale, true, 0.0);
    // The lower third as fitted, the theatre's timeline included.
    screen.lower_third = screen.lower_third.max(world.resource::<super::Frame>().bottom);
    Some(screen)
}

/// The board camera's shot now.
fn shot_now(world: &mut World) -> Option<Shot> {
    let mut cameras = world.query_filtered::<(&Transform, &Projection), With<BoardCamera>>();
    let (t, p) = cameras.single(world).ok()?;
    let Projection::Orthographic(o) = p else { return None };
    Some(Shot {
        center: t.translation.truncate(),
        scale: o.scale,
    })
}

/// Lets an order go without a hold: any hold left from another is dropped with its card.
fn go(world: &mut World) -> bool {
    let mut stage = world.resource_mut::<Stage>();
    if stage.director.holding.is_some() {
        stage.director.holding = None;
        stage.card = None;
    }
    true
}

/// Whether `order` may be carried out now. Outside presentation mode, and for orders that roll
/// no combat, at once; a combat's order waits (`false`: ask again next frame) while the director
/// frames it and its dice tumble on the card, and goes when the result can show.
pub fn may_roll(world: &mut World, order: &Order) -> bool {
    if !world.resource::<Presenting>().0 || !world.contains_resource::<Layout>() {
        return go(world);
    }
    let Some(Ok((planned, odds))) = crate::game::fight::odds_before(world, order) else {
        return go(world);
    };
    let (Some(screen), Some(shot)) = (screen_now(world), shot_now(world)) else {
        return go(world);
    };
    let layout = *world.resource::<Layout>();
    let centres: Vec<Vec2> = combat_cells(&planned).iter().map(|c| layout.center(*c)).collect();
    let Some(cells) = cells_rect(&centres, layout.side()) else {
        return go(world);
    };
    let target = planned.order.target;
    let combat = Combat {
        cells,
        target: target.to_string(),
    };
    let now = world.resource::<Time>().elapsed_secs_f64();
    let tumble = f64::from(world.resource::<Settings>().streaming.roll_secs);
    let readable = readable_scale(layout.grid.kind, screen.size.y);
    let follow = world.resource::<Settings>().streaming.follow_camera;
    let mut stage = world.resource_mut::<Stage>();
    // A fixed camera (G) stays where the streamer put it: the hold is the tumble's alone.
    let cue = stage.director.cue(
        combat,
        &screen,
        if follow { readable } else { shot.scale },
        shot,
        now,
        tumble,
    );
    if !follow && let Some(h) = stage.director.holding.as_mut() {
        h.camera.to = shot;
        h.camera.from = shot;
    }
    let since = stage.director.tumbling_since();
    world.write_message(RequestRedraw);
    match cue {
        Cue::Hold => {
            let entry = world.resource::<crate::game::log::OrderLog>().entries.len();
            let turn = world.resource::<crate::game::phase::TurnState>();
            let sides = side_names(turn, world.resource::<crate::game::components::Sides>());
            let moment = before_roll(entry, turn.turn, sides, target, &planned.situation, &odds);
            world.resource_mut::<Stage>().card = Some(Card {
                moment,
                rolled_at: None,
                tumbling_since: since,
                table: Some((odds.assessment.cell.clone(), Vec::new())),
                then: Vec::new(),
            });
            false
        }
        Cue::Roll(planned_frame) => {
            // Logged from where the camera really is, not where the director meant it to be.
            let framed = Framed {
                cells: shot.rect_to_screen(&screen, cells),
                ..planned_frame
            };
            if framed.inside() {
                info!("{}", framed.line());
            } else {
                warn!("{}", framed.line());
            }
            let mut stage = world.resource_mut::<Stage>();
            stage.framed = follow;
            stage.last_rolled = Some((target, now));
            stage.result_due = true;
            true
        }
    }
}

/// While a combat is held, the camera is where the director's move has it.
pub(super) fn camera_on_stage(
    stage: Res<Stage>,
    time: Res<Time>,
    mut camera: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    let Some(shot) = stage.director.camera(time.elapsed_secs_f64()) else {
        return;
    };
    let Ok((mut t, mut p)) = camera.single_mut() else {
        return;
    };
    if let Projection::Orthographic(o) = p.as_mut() {
        t.translation = shot.center.extend(t.translation.z);
        o.scale = shot.scale;
    }
}
