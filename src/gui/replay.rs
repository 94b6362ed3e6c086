//! The replay view: a saved game, turn file or finished game played back order by order on the
//! board, with a timeline (step one order, one phase or one turn back and forth; play and pause
//! at a speed; a scrubber with a mark at each turn), the combat panels with the dice as they fell,
//! and "Branch here" to play on from any point (the log is cut; the file is never touched). As the
//! replay theatre (presentation mode, F11) it is a show: moves glide, combats roll with the odds
//! overlay and the play waits for them, and the log's upsets (found on another thread) are marked
//! on the timeline, the biggest a key away (U).

use super::present::overlay::{Overlay, TheatreMoments};
use super::present::theatre;
use crate::game::autosave::{Autosave, SaveStatus};
use crate::game::execute::replay_entry;
use crate::game::log::{LogEntry, OrderLog};
use crate::game::phase::GameState;
use crate::game::undo::rebuild;
use crate::show::highlights::upsets_to_show;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// A game being watched: its whole log and how many entries are on the board now.
#[derive(Resource, Clone, Debug)]
pub struct Replay {
    pub log: Vec<LogEntry>,
    /// Entries carried out on the board (0: the start).
    pub at: usize,
    pub playing: bool,
    /// Orders a second while playing.
    pub speed: f32,
    /// A turn file's new orders begin here (they are what the player came to watch).
    pub new_from: Option<usize>,
    /// What went wrong, shown in the timeline.
    pub problem: Option<String>,
    /// The upset last jumped to (U goes on to the next from there).
    pub last_upset: Option<usize>,
    since: f32,
    /// The game's autosave, set aside while watching (stepping through a game must not write over
    /// its file); back when play goes on.
    autosave: Option<Autosave>,
}

impl Replay {
    pub fn new(log: Vec<LogEntry>, at: usize) -> Self {
        Self {
            at: at.min(log.len()),
            log,
            playing: false,
            speed: 2.0,
            new_from: None,
            problem: None,
            last_upset: None,
            since: 0.0,
            autosave: None,
        }
    }

    /// The first entry of the turn (or phase, with `phase`) after entry `from`, or the end.
    pub(crate) fn next_mark(&self, from: usize, phase: bool) -> usize {
        let key = |e: &LogEntry| mark(e, phase);
        let Some(start) = self.log.get(from) else {
            return self.log.len();
        };
        let k = key(start);
        self.log[from..]
            .iter()
            .position(|e| key(e) != k)
            .map_or(self.log.len(), |i| from + i)
    }

    /// The first entry of the turn (or phase) before the one shown now.
    pub(crate) fn previous_mark(&self, phase: bool) -> usize {
        let key = |e: &LogEntry| mark(e, phase);
        if self.at == 0 {
            return 0;
        }
        let mut i = self.at - 1;
        let k = key(&self.log[i]);
        while i > 0 && key(&self.log[i - 1]) == k {
            i -= 1;
        }
        if i == self.at - 1 && i > 0 {
            // Already at a mark: go to the one before it.
            let k = key(&self.log[i - 1]);
            i -= 1;
            while i > 0 && key(&self.log[i - 1]) == k {
                i -= 1;
            }
        }
        i
    }
}

/// The turn (and, with `phase`, the side and phase) an entry was given in: the timeline's marks.
fn mark(e: &LogEntry, phase: bool) -> (u32, usize, usize) {
    if phase {
        (e.when.turn, e.when.side, e.when.phase)
    } else {
        (e.when.turn, 0, 0)
    }
}

/// Starts watching: `replay` goes in, the autosave is set aside until play goes on.
pub fn watch(world: &mut World, mut replay: Replay) {
    replay.autosave = world.remove_resource::<Autosave>();
    world.insert_resource(replay);
}

/// Where the timeline asks to go.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seek {
    To(usize),
    Branch,
    Close,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Seek>()
        .add_systems(
            Update,
            (theatre::find_moments, replay_keys, play_on).run_if(resource_exists::<Replay>),
        )
        .add_systems(PostUpdate, seek.run_if(resource_exists::<Replay>))
        .add_systems(EguiPrimaryContextPass, timeline.run_if(resource_exists::<Replay>))
        .add_systems(OnEnter(GameState::NoGame), |mut commands: Commands| {
            commands.remove_resource::<Replay>();
        });
}

fn replay_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut replay: ResMut<Replay>,
    mut seek: MessageWriter<Seek>,
    theatre: Res<TheatreMoments>,
) {
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if keys.just_pressed(KeyCode::KeyU) {
        theatre::jump_to_upset(&mut replay, &mut seek, &theatre);
    }
    if keys.just_pressed(KeyCode::Space) {
        replay.playing = !replay.playing;
    }
    if keys.just_pressed(KeyCode::ArrowRight) {
        let to = if shift {
            replay.next_mark(replay.at, true)
        } else {
            replay.at + 1
        };
        seek.write(Seek::To(to));
    }
    if keys.just_pressed(KeyCode::ArrowLeft) {
        let to = if shift {
            replay.previous_mark(true)
        } else {
            replay.at.saturating_sub(1)
        };
        seek.write(Seek::To(to));
    }
    if keys.just_pressed(KeyCode::Home) {
        seek.write(Seek::To(0));
    }
    if keys.just_pressed(KeyCode::End) {
        seek.write(Seek::To(replay.log.len()));
    }
}

fn play_on(
    time: Res<Time>,
    mut replay: ResMut<Replay>,
    mut seek: MessageWriter<Seek>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    overlay: Res<Overlay>,
    settings: Res<super::settings::Settings>,
) {
    if !replay.playing {
        return;
    }
    redraw.write(bevy::window::RequestRedraw);
    // A combat on show holds the play until its result has been seen.
    if overlay.busy(time.elapsed_secs_f64(), &settings) {
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
    for s in asked {
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
    presenting: Res<super::present::Presenting>,
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
            scrubber(ui, &mut replay, &mut seek, &theatre, 520.0);
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

/// A slider over the whole log with a tick and label at the start of each turn.
pub(crate) fn scrubber(
    ui: &mut egui::Ui,
    replay: &mut Replay,
    seek: &mut MessageWriter<Seek>,
    theatre: &TheatreMoments,
    width: f32,
) {
    let n = replay.log.len();
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 28.0), egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    let x_of = |i: usize| rect.left() + (i as f32 / n.max(1) as f32) * rect.width();
    painter.rect_filled(
        egui::Rect::from_min_max(
            egui::pos2(rect.left(), rect.center().y - 3.0),
            egui::pos2(rect.right(), rect.center().y + 3.0),
        ),
        2.0,
        egui::Color32::from_gray(70),
    );
    if let Some(new) = replay.new_from {
        painter.rect_filled(
            egui::Rect::from_min_max(
                egui::pos2(x_of(new), rect.center().y - 3.0),
                egui::pos2(rect.right(), rect.center().y + 3.0),
            ),
            2.0,
            egui::Color32::from_rgb(60, 110, 170),
        );
    }
    let mut turn = 0;
    for (i, e) in replay.log.iter().enumerate() {
        if e.when.turn != turn {
            turn = e.when.turn;
            let x = x_of(i);
            painter.line_segment(
                [egui::pos2(x, rect.top() + 4.0), egui::pos2(x, rect.bottom() - 2.0)],
                egui::Stroke::new(1.0, egui::Color32::from_gray(160)),
            );
            painter.text(
                egui::pos2(x + 2.0, rect.top()),
                egui::Align2::LEFT_TOP,
                format!("T{turn}"),
                egui::FontId::proportional(10.0),
                egui::Color32::from_gray(180),
            );
        }
        if !e.dice.is_empty() {
            painter.circle_filled(
                egui::pos2(x_of(i), rect.center().y + 8.0),
                1.5,
                egui::Color32::from_rgb(230, 180, 60),
            );
        }
    }
    // The upsets: orange flags, the biggest largest.
    if let Some(m) = theatre.0.as_ref() {
        for (rank, c) in upsets_to_show(m, theatre::UPSETS_MARKED).iter().enumerate() {
            let x = x_of(c.entry);
            let size = if rank == 0 { 6.0 } else { 4.0 };
            painter.add(egui::Shape::convex_polygon(
                vec![
                    egui::pos2(x - size, rect.bottom()),
                    egui::pos2(x + size, rect.bottom()),
                    egui::pos2(x, rect.bottom() - size * 1.6),
                ],
                egui::Color32::from_rgb(230, 159, 0),
                egui::Stroke::NONE,
            ));
        }
    }
    painter.circle_filled(egui::pos2(x_of(replay.at), rect.center().y), 7.0, egui::Color32::WHITE);
    if (response.clicked() || response.drag_stopped())
        && let Some(p) = response.interact_pointer_pos()
    {
        let to = (((p.x - rect.left()) / rect.width()) * n as f32)
            .round()
            .clamp(0.0, n as f32) as usize;
        seek.write(Seek::To(to));
    }
    response.on_hover_text(
        "Click or drag to jump; ticks mark each turn, gold dots the orders that rolled dice, orange flags the upsets",
    );
}
