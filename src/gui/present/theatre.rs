//! The replay theatre (a replay in presentation mode): the log's moments found off the frame when
//! a replay opens, the upsets ranked and jumped to (U, "Upset 1 of 3"), and the compact timeline
//! over the lower third. The replay view itself (stepping, seeking, the full timeline) is
//! `gui::replay`.

use super::overlay::TheatreMoments;
use crate::game::retreat::AfterCombatMode;
use crate::game::start::GameOrigin;
use crate::gui::state::{Replay, Seek};
use crate::show::highlights::upsets_to_show;
use crate::show::moments::{Moments, chance_words};
use bevy::prelude::*;
use bevy_egui::egui;

/// The theatre's moments being found on another thread.
#[derive(Resource)]
pub(crate) struct FindingMoments(std::sync::Mutex<std::sync::mpsc::Receiver<Moments>>);

/// When a replay opens, its log's moments (every combat's odds and upset) are found off the frame;
/// when they are in, the theatre has them.
pub(crate) fn find_moments(
    mut commands: Commands,
    replay: Res<Replay>,
    origin: Option<Res<GameOrigin>>,
    after_combat: Option<Res<AfterCombatMode>>,
    finding: Option<Res<FindingMoments>>,
    mut theatre: ResMut<TheatreMoments>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if replay.is_added() {
        theatre.0 = None;
        let Some(origin) = origin else { return };
        let game = crate::game::save::LoadedGame::begun_at(
            &origin,
            replay.log.clone(),
            after_combat.is_some_and(|a| a.automatic),
        );
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            if let Ok(m) = super::showcase::quietly(|| crate::show::moments::find(&game)) {
                let _ = tx.send(m);
            }
        });
        commands.insert_resource(FindingMoments(std::sync::Mutex::new(rx)));
        return;
    }
    let Some(finding) = finding else { return };
    match finding.0.lock().map(|rx| rx.try_recv()) {
        Ok(Ok(m)) => {
            theatre.0 = Some(m);
            commands.remove_resource::<FindingMoments>();
        }
        Ok(Err(std::sync::mpsc::TryRecvError::Empty)) => {
            // Frames keep coming until the answer is in (a second or two on a long log).
            redraw.write(bevy::window::RequestRedraw);
        }
        _ => commands.remove_resource::<FindingMoments>(),
    }
}

/// Jumped to an upset (U), paused before its dice: the camera goes to the combat's cell at once,
/// zoomed in to read, so its odds are talked over on the board and not over the whole map.
pub(crate) fn frame_the_upset(
    (replay, theatre): (Res<Replay>, Res<TheatreMoments>),
    goal: Option<ResMut<super::glide::CameraGoal>>,
    layout: Option<Res<crate::gui::layout::Layout>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    (presenting, settings): (Res<super::Presenting>, Res<crate::gui::state::Settings>),
    mut framed: Local<Option<usize>>,
) {
    let Some(at) = replay.last_upset.filter(|e| *e == replay.at && !replay.playing) else {
        *framed = None;
        return;
    };
    if *framed == Some(at) || !presenting.0 || !settings.streaming.follow_camera {
        return;
    }
    let (Some(mut goal), Some(layout), Some(moments), Ok(window)) =
        (goal, layout, theatre.0.as_ref(), windows.single())
    else {
        return;
    };
    let Some(combat) = moments.combats.iter().find(|c| c.entry == at) else {
        return;
    };
    goal.frame_at(
        layout.center(combat.target),
        crate::show::director::readable_scale(layout.grid.kind, window.height()),
    );
    *framed = Some(at);
}

/// The upset after the one last jumped to (the biggest first, round again): its rank (0 the
/// biggest), how many there are, and its entry.
pub(crate) fn next_upset(theatre: &TheatreMoments, last: Option<usize>) -> Option<(usize, usize, usize)> {
    let m = theatre.0.as_ref()?;
    let ranked: Vec<usize> = upsets_to_show(m, UPSETS_MARKED).iter().map(|c| c.entry).collect();
    let rank = match last.and_then(|l| ranked.iter().position(|e| *e == l)) {
        Some(i) => (i + 1) % ranked.len(),
        None => 0,
    };
    ranked.get(rank).map(|e| (rank, ranked.len(), *e))
}

/// Jumps to just before the next upset, paused: its odds show; Space rolls it.
pub(crate) fn jump_to_upset(replay: &mut Replay, seek: &mut MessageWriter<Seek>, theatre: &TheatreMoments) {
    if let Some((_, _, entry)) = next_upset(theatre, replay.last_upset) {
        replay.last_upset = Some(entry);
        replay.playing = false;
        seek.write(Seek::To(entry));
    }
}

/// `Upset 1 of 3` while the board is at (or just after) the upset last jumped to.
pub(crate) fn upset_label(theatre: &TheatreMoments, replay: &Replay) -> Option<String> {
    let m = theatre.0.as_ref()?;
    let last = replay.last_upset?;
    if replay.at != last && replay.at != last + 1 {
        return None;
    }
    let ranked = upsets_to_show(m, UPSETS_MARKED);
    let rank = ranked.iter().position(|c| c.entry == last)?;
    Some(format!(
        "Upset {} of {}: {}",
        rank + 1,
        ranked.len(),
        chance_words(ranked[rank].upset)
    ))
}

/// Upsets marked on the timeline.
pub(crate) const UPSETS_MARKED: usize = 5;

/// The theatre's timeline height at a UI scale of 1 (presentation mode keeps the map clear of it).
pub const COMPACT_HEIGHT: f32 = 62.0;

/// The theatre's timeline (presentation mode): one row of play controls, the scrubber with its
/// chapters (turns) and upsets, and the upset button, over the lower third's left end.
pub(crate) fn compact_timeline(
    ctx: &egui::Context,
    replay: &mut Replay,
    seek: &mut MessageWriter<Seek>,
    theatre: &TheatreMoments,
) {
    let n = replay.log.len();
    let above = ctx.content_rect().height() * super::LOWER_THIRD + 4.0;
    egui::Area::new(egui::Id::new("theatre-timeline"))
        .anchor(egui::Align2::LEFT_BOTTOM, [10.0, -above])
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_rgba_unmultiplied(14, 16, 20, 225))
                .corner_radius(6.0)
                .inner_margin(egui::Margin::symmetric(8, 4))
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        let to_start = replay.previous_mark(false);
                        if ui.button("⏪").on_hover_text("Back one turn").clicked() {
                            seek.write(Seek::To(to_start));
                        }
                        let play = if replay.playing { "⏸" } else { "▶" };
                        if ui
                            .button(egui::RichText::new(play).strong())
                            .on_hover_text("Play or pause (Space)")
                            .clicked()
                        {
                            replay.playing = !replay.playing;
                        }
                        let next = replay.next_mark(replay.at, false);
                        if ui.button("⏩").on_hover_text("Forward one turn").clicked() {
                            seek.write(Seek::To(next.min(n)));
                        }
                        scrubber(ui, replay, seek, theatre, 330.0);
                        ui.add(
                            egui::DragValue::new(&mut replay.speed)
                                .range(0.5..=20.0)
                                .speed(0.1)
                                .suffix("/s"),
                        )
                        .on_hover_text("Orders a second when playing (drag)");
                        let upset = next_upset(theatre, replay.last_upset);
                        if ui
                            .add_enabled(upset.is_some(), egui::Button::new("⚡ Upset (U)"))
                            .on_hover_text("Jump to just before the next upset, biggest first; Space rolls it")
                            .clicked()
                        {
                            jump_to_upset(replay, seek, theatre);
                        }
                        if let Some(label) = upset_label(theatre, replay) {
                            ui.label(
                                egui::RichText::new(label)
                                    .strong()
                                    .color(egui::Color32::from_rgb(230, 159, 0)),
                            );
                        }
                    });
                });
        });
}

/// "Biggest upset (U)" and what it was, once the moments are in.
pub(crate) fn upset_row(
    ui: &mut egui::Ui,
    replay: &mut Replay,
    seek: &mut MessageWriter<Seek>,
    theatre: &TheatreMoments,
) {
    ui.horizontal(|ui| {
        let Some(m) = theatre.0.as_ref() else {
            ui.add(egui::Spinner::new());
            ui.label(egui::RichText::new("finding the upsets…").weak());
            return;
        };
        let Some(top) = upsets_to_show(m, 1).first().copied() else {
            ui.label(egui::RichText::new(format!("{} combats, none an upset (every result had over a 1 in 4 chance)", m.combats.len())).weak());
            return;
        };
        let to = next_upset(theatre, replay.last_upset).map_or(top.entry, |(_, _, e)| e);
        if ui
            .button("⚡ Biggest upset (U)")
            .on_hover_text("Jump to just before the next of the upsets, biggest first: the combats whose result the odds gave the least chance. Space rolls it.")
            .clicked()
        {
            jump_to_upset(replay, seek, theatre);
        }
        let shown = m.combats.iter().find(|c| c.entry == to).unwrap_or(top);
        ui.label(egui::RichText::new(shown.headline()).small());
    });
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
        for (rank, c) in upsets_to_show(m, UPSETS_MARKED).iter().enumerate() {
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
