//! The replay view: a saved game, turn file or finished game played back order by order on the
//! board, with a timeline (step one order, one phase or one turn back and forth; play and pause
//! at a speed; a scrubber with a mark at each turn), the combat panels with the dice as they fell,
//! and "Branch here" to play on from any point (the log is cut; the file is never touched). As the
//! replay theatre (presentation mode, F11) it is a show: moves glide, combats roll with the odds
//! overlay and the play waits for them, and the log's upsets (found on another thread) are marked
//! on the timeline, the biggest a key away (U).

use super::present::overlay::{Overlay, TheatreMoments};
use super::present::theatre;
use super::state::{Replay, Seek};
use crate::game::autosave::SaveStatus;
use crate::game::execute::replay_entry;
use crate::game::log::OrderLog;
use crate::game::phase::GameState;
use crate::game::undo::rebuild;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Seek>()
        .add_systems(
            Update,
            (theatre::find_moments, theatre::frame_the_upset, replay_keys, play_on).run_if(resource_exists::<Replay>),
        )
        .add_systems(PostUpdate, seek.run_if(resource_exists::<Replay>))
        .add_systems(EguiPrimaryContextPass, timeline.run_if(resource_exists::<Replay>))
        .add_systems(OnEnter(GameState::NoGame), |mut commands: Commands| {
            commands.remove_resource::<Replay>();
        });
}

fn replay_keys(
    keys: Res<super::keymap::Keys>,
    mut replay: ResMut<Replay>,
    mut seek: MessageWriter<Seek>,
    theatre: Res<TheatreMoments>,
) {
    use super::keymap::Action;
    let shift = keys.shift();
    if keys.just(Action::NextUpset) {
        theatre::jump_to_upset(&mut replay, &mut seek, &theatre);
    }
    if keys.just(Action::ReplayPlay) {
        replay.playing = !replay.playing;
    }
    if keys.just(Action::ReplayOn) {
        let to = if shift {
            replay.next_mark(replay.at, true)
        } else {
            replay.at + 1
        };
        seek.write(Seek::To(to));
    }
    if keys.just(Action::ReplayBack) {
        let to = if shift {
            replay.previous_mark(true)
        } else {
            replay.at.saturating_sub(1)
        };
        seek.write(Seek::To(to));
    }
    if keys.just(Action::ReplayStart) {
        seek.write(Seek::To(0));
    }
    if keys.just(Action::ReplayEnd) {
        seek.write(Seek::To(replay.log.len()));
    }
}

fn play_on(
    time: Res<Time>,
    mut replay: ResMut<Replay>,
    mut seek: MessageWriter<Seek>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    overlay: Res<Overlay>,
    settings: Res<super::state::Settings>,
    stage: Res<super::present::stage::Stage>,
) {
    if !replay.playing {
        return;
    }
    redraw.write(bevy::window::RequestRedraw);
    // A combat on show holds the play until its result has been seen, one the director holds
    // until it has rolled, and one just rolled until its result reaches the card.
    let now = time.elapsed_secs_f64();
    if overlay.holds_play(&stage, now, &settings) || stage.director.holding.is_some() {
        return;
    }
    if replay.at >= replay.log.len() {
        replay.playing = false;
        return;
    }
    replay.since += time.delta_secs();
    if replay.since >= 1.0 / replay.speed.max(0.1) {
        replay.since = 0.0;
        seek.write(Seek::To(replay.at + 1));
    }
}

/// Moves the board to the asked entry: forward by carrying the orders out, back by rebuilding.
fn seek(world: &mut World) {
    let asked: Vec<Seek> = world.resource_mut::<Messages<Seek>>().drain().collect();
    let count = asked.len();
    for (i, s) in asked.into_iter().enumerate() {
        let mut replay = world.resource::<Replay>().clone();
        match s {
            Seek::Close => {
                // Back to where the log ends, then play on from there.
                let end = replay.log.len();
                go_to(world, &mut replay, end);
                world.remove_resource::<Replay>();
                if let Some(autosave) = replay.autosave {
                    world.insert_resource(autosave);
                }
                return;
            }
            Seek::Branch => {
                world.remove_resource::<Replay>();
                world.insert_resource(SaveStatus {
                    message: format!(
                        "Playing on from order {} of {}: the later orders are dropped; files are left as they were",
                        replay.at,
                        replay.log.len()
                    ),
                    failed: false,
                });
                if let Some(autosave) = replay.autosave {
                    world.insert_resource(autosave);
                    super::saves::autosave_elsewhere(world, &format!("branch-{}", replay.at));
                }
                return;
            }
            Seek::To(n) => {
                let n = n.min(replay.log.len());
                // One step on in presentation mode: a combat waits for the camera and the dice;
                // another seek asked meanwhile (back, a scrub, close) drops the wait.
                let later = i + 1 < count;
                if n == replay.at + 1 && later {
                    world.resource_mut::<super::present::stage::Stage>().reset();
                    continue;
                }
                if n == replay.at + 1
                    && let Some(entry) = replay.log.get(replay.at)
                    && !super::present::stage::may_roll(world, &entry.order)
                {
                    world.write_message(Seek::To(n));
                    continue;
                }
                go_to(world, &mut replay, n);
            }
        }
        world.insert_resource(replay);
    }
}

fn go_to(world: &mut World, replay: &mut Replay, n: usize) {
    replay.problem = None;
    if n < replay.at {
        if let Err(e) = rebuild(world, &replay.log[..n]) {
            replay.problem = Some(e.to_string());
        }
        // As far as the rebuild got.
        replay.at = world.resource::<OrderLog>().entries.len();
        return;
    }
    while replay.at < n {
        if let Err(e) = replay_entry(world, replay.at, &replay.log[replay.at]) {
            replay.problem = Some(e.to_string());
            replay.playing = false;
            return;
        }
        replay.at += 1;
    }
}

fn timeline(
    mut contexts: EguiContexts,
    mut replay: ResMut<Replay>,
    mut seek: MessageWriter<Seek>,
    log: Res<OrderLog>,
    sides: Res<crate::game::components::Sides>,
    theatre: Res<TheatreMoments>,
    presenting: Res<super::state::Presenting>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let n = replay.log.len();
    if presenting.0 {
        theatre::compact_timeline(ctx, &mut replay, &mut seek, &theatre);
        return Ok(());
    }
    egui::Window::new("Replay")
        .id(egui::Id::new("replay-timeline"))
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -36.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.strong("▶ Watching");
                let at = replay.at;
                let current = at.checked_sub(1).and_then(|i| log.entries.get(i));
                match current {
                    Some(e) => {
                        let side = sides.0.iter().find(|s| s.id == e.side).map_or("?", |s| s.name.as_str());
                        let words = e.public_words(log.revealed(at - 1));
                        ui.label(format!("after order {at} of {n} (turn {}): {side}: {words}", e.when.turn));
                    }
                    None => {
                        ui.label(format!("the start, before the first of {n} orders"));
                    }
                }
            });
            ui.horizontal(|ui| {
                let buttons: [(&str, &str, usize); 4] = [
                    ("⏮", "The start (Home)", 0),
                    ("⏪", "Back one turn", replay.previous_mark(false)),
                    ("◀◀", "Back one phase (Shift+←)", replay.previous_mark(true)),
                    ("◀", "Back one order (←)", replay.at.saturating_sub(1)),
                ];
                for (label, tip, to) in buttons {
                    if ui.button(label).on_hover_text(tip).clicked() {
                        seek.write(Seek::To(to));
                    }
                }
                let play = if replay.playing { "⏸" } else { "▶" };
                if ui.button(egui::RichText::new(play).strong()).on_hover_text("Play or pause (Space)").clicked() {
                    replay.playing = !replay.playing;
                }
                let forward: [(&str, &str, usize); 4] = [
                    ("▶|", "Forward one order (→)", replay.at + 1),
                    ("▶▶", "Forward one phase (Shift+→)", replay.next_mark(replay.at, true)),
                    ("⏩", "Forward one turn", replay.next_mark(replay.at, false)),
                    ("⏭", "The end (End)", n),
                ];
                for (label, tip, to) in forward {
                    if ui.button(label).on_hover_text(tip).clicked() {
                        seek.write(Seek::To(to.min(n)));
                    }
                }
            });
            theatre::scrubber(ui, &mut replay, &mut seek, &theatre, 520.0);
            theatre::upset_row(ui, &mut replay, &mut seek, &theatre);
            ui.add(
                egui::Slider::new(&mut replay.speed, 0.5..=20.0)
                    .logarithmic(true)
                    .text("orders a second when playing"),
            );
            if let Some(p) = &replay.problem {
                ui.colored_label(egui::Color32::from_rgb(220, 60, 40), p);
            }
            ui.horizontal(|ui| {
                if ui
                    .button("Branch here")
                    .on_hover_text("Play on from this point as a new game; the orders after it are dropped (the file is not changed)")
                    .clicked()
                {
                    seek.write(Seek::Branch);
                }
                if ui
                    .button("Continue the game")
                    .on_hover_text("Go to the last order and play on from there")
                    .clicked()
                {
                    seek.write(Seek::Close);
                }
            });
        });
    Ok(())
}
