//! What an online game adds on the board: a strip under the top bar (the game on its server, the
//! opponent's dot, whose turn, the connection lost and coming back, an undo of the opponent's),
//! the chat (T), and at the end the verdict with the dice check and a way to keep a copy.

use super::play::{Fairness, OnlineGame};
use super::{Online, seat::OnlineSeat};
use crate::game::components::Sides;
use crate::net::protocol::ServerMessage;
use crate::net::remote::{Command, LinkState};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, chat_key.run_if(resource_exists::<OnlineGame>))
        .add_systems(
            EguiPrimaryContextPass,
            (presence_strip, chat_window, end_panel)
                .run_if(resource_exists::<OnlineGame>.and_then(resource_exists::<Sides>)),
        );
}

fn chat_key(keys: Res<crate::gui::keymap::Keys>, mut game: ResMut<OnlineGame>) {
    if keys.just(crate::gui::keymap::Action::Chat) {
        game.chat_open = !game.chat_open;
        game.unread = 0;
    }
}

/// The strip under the top bar.
fn presence_strip(
    mut contexts: EguiContexts,
    online: Res<Online>,
    mut game: ResMut<OnlineGame>,
    sides: Res<Sides>,
    seat: Res<OnlineSeat>,
    palette: Res<crate::gui::state::Palette>,
    mut noted: Local<Option<(String, std::time::Instant)>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let to_act = game.to_act;
    // A note goes by itself after ten seconds (OK sends it sooner).
    match (&game.note, &*noted) {
        (Some(n), Some((seen, at))) if n == seen => {
            if at.elapsed().as_secs() >= 10 {
                game.note = None;
            }
        }
        (Some(n), _) => *noted = Some((n.clone(), std::time::Instant::now())),
        (None, _) => *noted = None,
    }
    let mine = seat.0;
    egui::Area::new(egui::Id::new("online-strip"))
        // Top left under the top bar: the CRT and attack windows take the top centre during
        // combat, the stack panel the bottom, the cell's box the top right.
        .anchor(egui::Align2::LEFT_TOP, [8.0, 34.0])
        .interactable(true)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    link_words(ui, &online, &palette);
                    ui.separator();
                    let you = mine.and_then(|m| sides.0.get(m)).map(|s| s.name.clone());
                    match &you {
                        Some(side) => ui.label(format!("You: {side}")),
                        None => {
                            let seats: Vec<String> = game
                                .view
                                .seats
                                .iter()
                                .map(|s| format!("{} ({})", s.taken_by.clone().unwrap_or_else(|| "free".into()), s.name))
                                .collect();
                            ui.label(format!("Watching {}", seats.join(" vs ")))
                        }
                    };
                    let (dot, words) = match game.opponent_online {
                        Some(true) => (palette.good, "connected"),
                        Some(false) => (palette.warn, "not connected"),
                        None => (palette.warn, "…"),
                    };
                    if mine.is_some() {
                        ui.label(format!("vs {}", game.opponent().unwrap_or_default()));
                        ui.colored_label(dot, "●").on_hover_text(format!("Your opponent is {words}"));
                    }
                    ui.separator();
                    turn_words(ui, &game, &sides, mine, to_act, &palette);
                    let label = if game.unread > 0 {
                        format!("Chat ({} new)", game.unread)
                    } else {
                        "Chat".to_string()
                    };
                    if ui.button(label).on_hover_text("The game's chat (T)").clicked() {
                        game.chat_open = !game.chat_open;
                        game.unread = 0;
                    }
                });
                if !game.view.started
                    && mine.is_some()
                    && let Some(code) = &online.invite_code
                {
                    ui.horizontal(|ui| {
                        ui.label("Code for your friend:");
                        ui.label(egui::RichText::new(code).monospace().strong());
                        if ui
                            .button("Copy")
                            .on_hover_text("Send it to your friend: they join with it on their Online tab")
                            .clicked()
                        {
                            game.note = Some(crate::gui::clipboard::copied(code).0);
                        }
                    });
                }
                if let Some(note) = game.note.clone() {
                    ui.horizontal(|ui| {
                        ui.colored_label(palette.warn, note);
                        if ui.small_button("OK").clicked() {
                            game.note = None;
                        }
                    });
                }
                if let Some(broken) = &game.broken {
                    ui.colored_label(
                        palette.bad,
                        format!("This copy of the game no longer agrees with the server's: {broken}. Leave (F2) and open the game again."),
                    );
                }
            });
        });
    Ok(())
}

fn link_words(ui: &mut egui::Ui, online: &Online, palette: &crate::gui::state::Palette) {
    match &online.link {
        Some(LinkState::Online) => {
            ui.colored_label(palette.good, "● online");
        }
        Some(LinkState::Lost { retry_in, .. }) => {
            ui.colored_label(
                palette.bad,
                format!(
                    "Connection lost: reconnecting in {:.0} s… (look around meanwhile)",
                    retry_in.as_secs_f32().ceil()
                ),
            );
        }
        Some(LinkState::Connecting { .. }) | None => {
            ui.colored_label(palette.warn, "reconnecting…");
        }
        Some(LinkState::Refused(why)) => {
            ui.colored_label(palette.bad, format!("The server refused: {why}"));
        }
    }
}

fn turn_words(
    ui: &mut egui::Ui,
    game: &OnlineGame,
    sides: &Sides,
    mine: Option<usize>,
    to_act: Option<usize>,
    palette: &crate::gui::state::Palette,
) {
    if game.ended.is_some() {
        ui.label("Game over");
        return;
    }
    if !game.view.started {
        ui.colored_label(palette.warn, "Waiting for a player to take the other seat");
        return;
    }
    if let Some((_, words)) = &game.waiting {
        ui.label(format!("Sent: {words}…"));
        return;
    }
    let queued = game
        .incoming
        .iter()
        .filter(|m| matches!(m, ServerMessage::Entry { .. }))
        .count();
    if queued > 0 {
        ui.label(format!("Showing the orders given: {queued} to go"));
        return;
    }
    let acting = to_act.and_then(|s| sides.0.get(s)).map_or("?", |s| s.name.as_str());
    match (mine, to_act) {
        (Some(m), Some(a)) if m == a => {
            ui.colored_label(palette.highlight, "Your turn");
        }
        (Some(_), _) => {
            ui.label(format!(
                "Waiting for {} ({acting})",
                game.opponent().unwrap_or_default()
            ));
        }
        (None, _) => {
            ui.label(format!("{acting} to play"));
        }
    }
}

/// The chat: the players' room, or (watching) the watchers' own.
fn chat_window(
    mut contexts: EguiContexts,
    mut game: ResMut<OnlineGame>,
    mut online: ResMut<Online>,
    seat: Res<OnlineSeat>,
    mut draft: Local<String>,
    mut opened: Local<bool>,
) -> Result {
    if !game.chat_open {
        *opened = false;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let room = if seat.0.is_some() {
        "Chat with your opponent"
    } else {
        "Chat among watchers"
    };
    let mut open = true;
    let mut send = None;
    egui::Window::new(room)
        .id(egui::Id::new("online-chat"))
        .open(&mut open)
        .default_pos(ctx.viewport_rect().right_bottom() - egui::vec2(380.0, 320.0))
        .default_width(340.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(200.0)
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    if game.chat.is_empty() {
                        ui.label(egui::RichText::new("No messages yet.").weak());
                    }
                    for line in &game.chat {
                        ui.horizontal_wrapped(|ui| {
                            ui.label(egui::RichText::new(format!("{}:", line.from)).strong());
                            ui.label(&line.text);
                        });
                    }
                });
            let field = ui.add(
                egui::TextEdit::singleline(&mut *draft)
                    .hint_text("Type, Enter sends")
                    .desired_width(f32::INFINITY),
            );
            // Typing goes to the field as soon as the chat opens.
            if !*opened {
                field.request_focus();
            }
            if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) && !draft.trim().is_empty() {
                send = Some(std::mem::take(&mut *draft));
                field.request_focus();
            }
        });
    if let Some(text) = send
        && let Some(r) = &online.remote
    {
        r.send(Command::Chat { text });
        online.notice = None;
    }
    game.chat_open = open;
    game.unread = 0;
    *opened = true;
    Ok(())
}

/// The end: the verdict and the dice check, and a copy kept.
fn end_panel(
    mut contexts: EguiContexts,
    game: Res<OnlineGame>,
    palette: Res<crate::gui::state::Palette>,
    mut commands: MessageWriter<crate::gui::saves::GameCommand>,
) -> Result {
    let Some((winner, reason)) = &game.ended else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Online game over")
        .id(egui::Id::new("online-end"))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -60.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            let side_name = |id: &str| {
                game.view
                    .seats
                    .iter()
                    .find(|s| s.side == id)
                    .map_or(id.to_string(), |s| s.name.clone())
            };
            // The reason usually names the winner already.
            let verdict = match winner {
                _ if reason.contains(" wins") => reason.clone(),
                Some(w) => format!("{} wins: {reason}", side_name(w)),
                None => format!("No winner: {reason}"),
            };
            ui.label(egui::RichText::new("Leave with F2: the game stays on the server, under My games.").weak());
            ui.label(egui::RichText::new(verdict).strong());
            let commitment = &game.view.commitment;
            let short = &commitment[..commitment.len().min(16)];
            match &game.fairness {
                Some(Fairness::Verified(c)) => {
                    ui.colored_label(
                        palette.good,
                        format!(
                            "Dice verified: the server committed to its secret at the start (BLAKE3 {short}…) and revealed it at the end; every die checks ({} dice).",
                            c.dice
                        ),
                    );
                    if ui.button("Save a copy (Ctrl+S)").on_hover_text("A saved game with its dice proof: the replay theatre plays it, `hexfront replay --verify` checks it").clicked() {
                        commands.write(crate::gui::saves::GameCommand::Save);
                    }
                }
                Some(Fairness::NotVerified(why)) => {
                    ui.colored_label(palette.bad, format!("Dice NOT verified: {why}"));
                }
                _ => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("Checking the dice against the server's commitment…");
                    });
                }
            }
        });
    Ok(())
}
