//! The start screen's Online tab: the server and the player's name, connecting and hosting, My
//! games (the ones waiting for this player first), joining by code, open games to join, live
//! games to watch, a new online game, and the player's token carried to another computer.

use super::Online;
use super::form::{DELAYS, LEVELS, TURN_TIMES, ago, parse_code};
use crate::net::protocol::{ListedGame, MyGame};
use crate::net::remote::{Command, LinkState};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        online_tab.run_if(
            in_state(crate::game::phase::GameState::NoGame)
                .and_then(crate::gui::editor::closed)
                .and_then(|o: Res<Online>| o.form.shown),
        ),
    );
}

fn online_tab(
    mut contexts: EguiContexts,
    mut online: ResMut<Online>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    pending: Option<Res<crate::gui::state::StartGame>>,
    palette: Res<crate::gui::state::Palette>,
) -> Result {
    if pending.is_some() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let waker = proxy.map(|p| super::waker_of(&p));
    let mut root = crate::gui::root_ui::root(ctx, "online-tab");
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.heading("Hexfront");
            ui.label(egui::RichText::new("online").weak());
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui
                    .button("← Local games")
                    .on_hover_text("Games on this computer: hotseat, against the computer, saved games")
                    .clicked()
                {
                    online.form.shown = false;
                }
            });
        });
        ui.separator();
        server_row(ui, &mut online, waker.clone(), &palette);
        host_row(ui, &mut online);
        if let Some((text, bad)) = &online.notice {
            let colour = if *bad { palette.bad } else { palette.good };
            ui.colored_label(colour, text);
        }
        ui.separator();
        ui.columns(2, |cols| {
            my_games(&mut cols[0], &mut online, &palette);
            new_game(&mut cols[1], &mut online);
            listed(&mut cols[1], &mut online);
        });
        ui.separator();
        token_row(ui, &mut online);
    });
    Ok(())
}

fn server_row(
    ui: &mut egui::Ui,
    online: &mut Online,
    waker: Option<crate::net::remote::Waker>,
    palette: &crate::gui::state::Palette,
) {
    ui.horizontal(|ui| {
        ui.label("Server");
        ui.add(egui::TextEdit::singleline(&mut online.file.address).desired_width(180.0))
            .on_hover_text("The server's address and port, e.g. 192.168.1.20:7878 (a friend hosting on their computer tells you theirs)");
        ui.label("Your name");
        ui.add(egui::TextEdit::singleline(&mut online.file.name).desired_width(140.0))
            .on_hover_text("The name the other players see (a new player is made with it on a server the first time)");
        let ready = !online.file.address.trim().is_empty() && !online.file.name.trim().is_empty();
        if ui
            .add_enabled(ready, egui::Button::new(egui::RichText::new("Connect").strong()))
            .on_hover_text("Connect to the server as this player (again, if connected)")
            .on_disabled_hover_text("Type the server's address and your name first")
            .clicked()
        {
            online.save_file();
            online.notice = None;
            online.connect(waker);
        }
        let (dot, words) = match &online.link {
            None if online.remote.is_none() => (palette.warn, "not connected".to_string()),
            None | Some(LinkState::Connecting { .. }) => (palette.warn, "connecting…".to_string()),
            Some(LinkState::Online) => (
                palette.good,
                format!("connected as {}", online.me.as_ref().map_or("?", |(_, n)| n.as_str())),
            ),
            Some(LinkState::Lost { why, retry_in }) => (
                palette.bad,
                format!("{why}; trying again in {:.0} s", retry_in.as_secs_f32().ceil()),
            ),
            Some(LinkState::Refused(why)) => (palette.bad, why.clone()),
        };
        ui.colored_label(dot, "●");
        ui.label(words);
        if matches!(online.link, Some(LinkState::Refused(_)) | Some(LinkState::Lost { .. }))
            && ui.button("Try again").clicked()
            && let Some(r) = &online.remote
        {
            r.send(Command::Retry);
        }
    });
}

fn host_row(ui: &mut egui::Ui, online: &mut Online) {
    ui.horizontal(|ui| {
        if let Some(port) = online.hosted.port() {
            let lan = online.hosted.lan.map_or_else(|| "this computer's address".to_string(), |ip| format!("{ip}:{port}"));
            ui.label(format!(
                "Hosting on this computer, port {port}. A friend on the same network connects to {lan}; a friend elsewhere needs a port forward of TCP {port} on your router, or a hosted server."
            ));
            if ui.button("Stop hosting").on_hover_text("Stops the server; its games stay for the next time").clicked() {
                online.hosted.stop();
            }
            return;
        }
        let starting = online.hosted.starting();
        if ui
            .add_enabled(!starting, egui::Button::new("Host on this computer"))
            .on_hover_text("Starts a server in this window for a friend to join; its dice are hash-chained, so you cannot predict them either")
            .clicked()
        {
            match online.form.port.trim().parse::<u16>() {
                Ok(port) => online.hosted.start(port),
                Err(_) => online.notice = Some(("The port is a number from 1 to 65535 (7878 unless it is taken)".into(), true)),
            }
        }
        ui.label("port");
        ui.add(egui::TextEdit::singleline(&mut online.form.port).desired_width(50.0));
        if starting {
            ui.spinner();
        }
        if let Some(e) = &online.hosted.error {
            ui.colored_label(egui::Color32::from_rgb(230, 120, 100), e);
        }
    });
}

fn my_games(ui: &mut egui::Ui, online: &mut Online, palette: &crate::gui::state::Palette) {
    ui.heading("My games");
    if !online.online() {
        ui.label(egui::RichText::new("Connect to see your games.").weak());
    } else if online.mine.is_empty() {
        ui.label(egui::RichText::new("No games yet: make one (New online game) or join one by its code.").weak());
    }
    let mut games: Vec<MyGame> = online.mine.clone();
    games.sort_by_key(|g| (g.ended, !g.your_turn, -g.created));
    let mut open = None;
    let mut copied = None;
    egui::ScrollArea::vertical()
        .id_salt("my-games")
        .max_height(260.0)
        .show(ui, |ui| {
            for g in &games {
                if let Some(picked) = game_row(ui, g, &online.form, palette) {
                    open = Some(picked);
                }
                if let Some(invite) = &g.invite {
                    ui.horizontal(|ui| {
                        let code = format!("{}.{invite}", g.game);
                        ui.label(
                            egui::RichText::new(format!("code for your friend: {code}"))
                                .monospace()
                                .small(),
                        );
                        if ui
                            .small_button("Copy")
                            .on_hover_text("Copies the code to the clipboard")
                            .clicked()
                        {
                            copied = Some(code);
                        }
                    });
                }
            }
        });
    if let Some(code) = copied {
        online.notice = Some(crate::gui::clipboard::copied(&code));
    }
    if let Some((game, code)) = open {
        online.invite_code = code;
        follow(online, game);
    }
    ui.add_space(8.0);
    join_row(ui, online);
}

/// Join by code: the field (Ctrl+V pastes), Paste, Join (Enter).
fn join_row(ui: &mut egui::Ui, online: &mut Online) {
    ui.horizontal(|ui| {
        ui.label("Join by code");
        let field = ui.add(
            egui::TextEdit::singleline(&mut online.form.code)
                .desired_width(220.0)
                .hint_text("g-….…"),
        );
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        // Ctrl+V (Cmd+V) in the field, or the button: the code from the clipboard.
        let ctrl_v = field.has_focus() && ui.input(|i| i.modifiers.command && i.key_pressed(egui::Key::V));
        if ctrl_v
            || ui
                .button("Paste")
                .on_hover_text("The code from the clipboard")
                .clicked()
        {
            match crate::gui::clipboard::paste() {
                Ok(text) => online.form.code = text.trim().to_string(),
                Err(e) => online.notice = Some((e, true)),
            }
        }
        if (ui.add_enabled(online.online(), egui::Button::new("Join")).clicked() || enter) && online.online() {
            match parse_code(&online.form.code) {
                Ok((game, invite)) => {
                    online.opening = Some(game.clone());
                    if let Some(r) = &online.remote {
                        r.send(Command::Join { game, invite });
                    }
                }
                Err(e) => online.notice = Some((e, true)),
            }
        }
    });
}

/// One of My games: whose turn, scenario, sides, the opponent's dot, what it waits for, Open
/// (the game and its code, when picked).
fn game_row(
    ui: &mut egui::Ui,
    g: &MyGame,
    form: &super::form::Form,
    palette: &crate::gui::state::Palette,
) -> Option<(String, Option<String>)> {
    let mut picked = None;
    ui.horizontal(|ui| {
        if g.your_turn && !g.ended {
            ui.colored_label(palette.highlight, "▶ Your turn");
        }
        let opponent = g.opponent.clone().unwrap_or_else(|| "waiting for a player".into());
        ui.label(format!(
            "{} — you: {} vs {opponent}",
            form.scenario_name(&g.scenario),
            form.side_name(&g.scenario, g.seat)
        ))
        .on_hover_text(format!("{} · {} orders so far", g.game, g.entries));
        ui.label(
            egui::RichText::new(g.game.trim_start_matches("g-").get(..4).unwrap_or_default())
                .weak()
                .small(),
        )
        .on_hover_text("The game's id begins so (games of one scenario against one player are told apart by it)");
        if g.opponent.is_some() {
            let (colour, words) = if g.opponent_online {
                (palette.good, "connected now")
            } else {
                (palette.warn, "not connected")
            };
            ui.colored_label(colour, "●").on_hover_text(words);
        }
        let status = match (&g.ended, &g.waiting_side, g.waiting_since) {
            (true, ..) => "over".to_string(),
            (_, Some(side), Some(since)) if !g.your_turn => {
                format!("waiting for {} · {}", form.side_named(&g.scenario, side), ago(since))
            }
            (_, _, Some(since)) => format!("for {}", ago(since)),
            _ => String::new(),
        };
        ui.label(egui::RichText::new(status).weak());
        if ui.button("Open").on_hover_text("Put this game on the board").clicked() {
            picked = Some((g.game.clone(), g.invite.as_ref().map(|i| format!("{}.{i}", g.game))));
        }
    });
    picked
}

/// Opens `game` on the board: follows it, and starts the board when its description comes.
fn follow(online: &mut Online, game: String) {
    online.opening = Some(game.clone());
    if let Some(r) = &online.remote {
        r.send(Command::Follow { game });
    }
}

/// The new game's choices: scenario, side, opponent, time per turn, watchers.
fn choices(ui: &mut egui::Ui, form: &mut super::form::Form) {
    egui::Grid::new("new-online-game").num_columns(2).show(ui, |ui| {
        ui.label("Scenario");
        let name = form
            .scenarios
            .get(form.scenario)
            .map_or("", |s| s.name.as_str())
            .to_string();
        egui::ComboBox::from_id_salt("online-scenario")
            .selected_text(name)
            .show_ui(ui, |ui| {
                for (i, s) in form.scenarios.iter().enumerate() {
                    if ui.selectable_value(&mut form.scenario, i, &s.name).changed() {
                        form.side = 0;
                    }
                }
            });
        ui.end_row();
        ui.label("Your side");
        if let Some(s) = form.scenarios.get(form.scenario) {
            ui.horizontal(|ui| {
                for (i, (_, side)) in s.sides.iter().enumerate() {
                    ui.radio_value(&mut form.side, i, side);
                }
            });
        }
        ui.end_row();
        ui.label("Opponent");
        ui.horizontal(|ui| {
            ui.radio_value(&mut form.opponent, 0, "a friend with the code")
                .on_hover_text("Only someone with the code can take the other seat");
            ui.radio_value(&mut form.opponent, 1, "anyone")
                .on_hover_text("Listed under Open games for anyone to join");
            ui.radio_value(&mut form.opponent, 2, "the server's computer");
            if form.opponent == 2 {
                egui::ComboBox::from_id_salt("online-level")
                    .selected_text(LEVELS[form.level])
                    .show_ui(ui, |ui| {
                        for (i, l) in LEVELS.iter().enumerate() {
                            ui.selectable_value(&mut form.level, i, *l);
                        }
                    });
            }
        });
        ui.end_row();
        ui.label("Time per turn");
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("online-turn-time")
                .selected_text(TURN_TIMES[form.turn_time].0)
                .show_ui(ui, |ui| {
                    for (i, (l, _)) in TURN_TIMES.iter().enumerate() {
                        ui.selectable_value(&mut form.turn_time, i, *l);
                    }
                });
            if form.turn_time > 0 {
                ui.checkbox(&mut form.concede, "a lapse concedes")
                    .on_hover_text("Off: both players are only told when a side takes longer");
            }
        });
        ui.end_row();
        ui.label("Watchers");
        egui::ComboBox::from_id_salt("online-delay")
            .selected_text(DELAYS[form.delay].0)
            .show_ui(ui, |ui| {
                for (i, (l, _)) in DELAYS.iter().enumerate() {
                    ui.selectable_value(&mut form.delay, i, *l);
                }
            })
            .response
            .on_hover_text("How far behind the players a game's watchers (a stream) are held; the server enforces it");
        ui.end_row();
    });
}

fn new_game(ui: &mut egui::Ui, online: &mut Online) {
    ui.heading("New online game");
    choices(ui, &mut online.form);
    own_file_row(ui, online);
    let create = online.form.create();
    if ui
        .add_enabled(
            online.online() && create.is_some(),
            egui::Button::new(egui::RichText::new("Create game").strong()),
        )
        .on_disabled_hover_text("Connect to a server first")
        .clicked()
        && let (Some(c), Some(r)) = (create, &online.remote)
    {
        online.invite_code = None;
        r.send(c);
    }
    // The code stays until the seat is taken.
    let taken = |code: &str| {
        let game = code.split('.').next().unwrap_or_default();
        online.mine.iter().any(|g| g.game == game && g.opponent.is_some())
    };
    if let Some(code) = online.invite_code.clone().filter(|c| !taken(c)) {
        let mut copy = false;
        ui.horizontal(|ui| {
            ui.label("Code for your friend:");
            ui.label(egui::RichText::new(&code).monospace().strong());
            copy = ui
                .button("Copy")
                .on_hover_text("Copies the code: send it to your friend")
                .clicked();
        });
        if copy {
            online.notice = Some(crate::gui::clipboard::copied(&code));
        }
    }
}

/// A scenario file of the player's (and the ruleset it names): checked here, then uploaded.
fn own_file_row(ui: &mut egui::Ui, online: &mut Online) {
    ui.horizontal(|ui| {
        ui.label("or a file of yours");
        ui.add(
            egui::TextEdit::singleline(&mut online.form.own_file)
                .desired_width(260.0)
                .hint_text("path/to/my-scenario.ron"),
        )
        .on_hover_text("A scenario file (with the ruleset file it names, found as the game finds it); the server checks it as `hexfront validate` does");
        let busy = online.form.uploading.is_some();
        if ui
            .add_enabled(online.online() && !busy, egui::Button::new("Upload"))
            .on_disabled_hover_text("Connect first")
            .clicked()
        {
            let path = std::path::PathBuf::from(online.form.own_file.trim());
            match crate::net::user_scenarios::upload_request(&path) {
                Ok((request, scenario)) => {
                    online.form.uploading = Some(super::form::Offered {
                        stem: String::new(),
                        name: format!("{} (your file)", scenario.raw.name),
                        sides: scenario.sides.iter().map(|d| (d.id.clone(), d.name.clone())).collect(),
                    });
                    online.notice = Some((format!("Uploading {}…", path.display()), false));
                    if let Some(r) = &online.remote {
                        r.send(Command::Upload(request));
                    }
                }
                Err(e) => online.notice = Some((e, true)),
            }
        }
        if busy {
            ui.spinner();
        }
    });
}

fn listed(ui: &mut egui::Ui, online: &mut Online) {
    ui.add_space(8.0);
    ui.heading("Open games");
    let (open, live): (Vec<ListedGame>, Vec<ListedGame>) = (online.open.clone(), online.live.clone());
    if open.is_empty() {
        ui.label(egui::RichText::new("None waiting for a player.").weak());
    }
    for g in open.iter().take(8) {
        ui.horizontal(|ui| {
            ui.label(format!(
                "{} — {}",
                online.form.scenario_name(&g.scenario),
                seats_words(g)
            ));
            if ui.button("Join").clicked()
                && let Some(r) = &online.remote
            {
                online.opening = Some(g.game.clone());
                r.send(Command::Join {
                    game: g.game.clone(),
                    invite: None,
                });
            }
        });
    }
    ui.add_space(8.0);
    ui.heading("Live games to watch");
    if live.is_empty() {
        ui.label(egui::RichText::new("None under way.").weak());
    }
    let mut watch = None;
    for g in live.iter().take(8) {
        ui.horizontal(|ui| {
            ui.label(format!(
                "{} — {} · {} orders",
                online.form.scenario_name(&g.scenario),
                seats_words(g),
                g.entries
            ));
            if ui
                .button("Watch")
                .on_hover_text("Read-only, as the game's creator lets watchers see it (F11: presentation mode)")
                .clicked()
            {
                watch = Some(g.game.clone());
            }
        });
    }
    ui.horizontal(|ui| {
        ui.label("Watch a game by its id");
        let field = ui.add(
            egui::TextEdit::singleline(&mut online.form.watch_id)
                .desired_width(140.0)
                .hint_text("g-…"),
        );
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.add_enabled(online.online(), egui::Button::new("Watch")).clicked() || enter) && online.online() {
            match parse_code(&online.form.watch_id) {
                Ok((game, _)) => watch = Some(game),
                Err(e) => online.notice = Some((e, true)),
            }
        }
    });
    if let Some(game) = watch {
        follow(online, game);
    }
}

fn seats_words(g: &ListedGame) -> String {
    g.seats
        .iter()
        .map(|s| s.clone().unwrap_or_else(|| "free seat".into()))
        .collect::<Vec<_>>()
        .join(" vs ")
}

fn token_row(ui: &mut egui::Ui, online: &mut Online) {
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("Your player on this server is kept in the data folder (never shown).").weak());
        // The default follows the server typed; a path the player typed stays.
        let default = super::account::default_export_path(&online.file.address)
            .display()
            .to_string();
        if online.form.token_path.is_empty() || online.form.token_path == online.form.token_default {
            online.form.token_path = default.clone();
        }
        online.form.token_default = default;
        ui.add(egui::TextEdit::singleline(&mut online.form.token_path).desired_width(280.0))
            .on_hover_text("The file to export your player to, or import it from");
        let path = std::path::PathBuf::from(online.form.token_path.trim());
        if ui
            .button("Export")
            .on_hover_text("Writes your player to the file: take it to another computer and Import it there")
            .clicked()
        {
            online.notice = Some(match online.file.export(&online.file.address, &path) {
                Ok(()) => (
                    format!(
                        "Your player was written to {}: keep it private, it is your login",
                        path.display()
                    ),
                    false,
                ),
                Err(e) => (e, true),
            });
        }
        if ui
            .button("Import")
            .on_hover_text("Reads a player exported on another computer; Connect then plays as them")
            .clicked()
        {
            let result = online.file.import(&path);
            online.notice = Some(match result {
                Ok(who) => {
                    online.save_file();
                    (format!("Imported {who}: Connect to play as them"), false)
                }
                Err(e) => (e, true),
            });
        }
    });
}
