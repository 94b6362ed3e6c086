//! Saving, loading and turn files from the client: the Game menu's commands and their hotkeys
//! (Ctrl+S save, Ctrl+O load, F2 new game), the load window listing saves and turn files with
//! Continue and Watch, play by e-mail (Send turn; opening a turn file plays the opponent's turn
//! back), conceding, and a toast saying what happened. Files are written atomically by
//! `game::save`; a file that does not replay exactly is refused and the game in progress goes on.

use super::state::PlayerOrder;
use super::state::Replay;

use super::state::{ConfirmConcede, LoadWindow};
use super::state::{Palette, SettingsFile};
use crate::game::autosave::{Autosave, SaveStatus};
use crate::game::components::{GameRng, ScenarioSource, Sides};
use crate::game::order::Order;
use crate::game::phase::{GameState, TurnState};
use crate::game::save::{continues_game, load_game, save_game, write_turn_file};
use crate::storage::{self, SaveFile};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::{Path, PathBuf};

/// What the Game menu and its hotkeys ask for.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameCommand {
    Save,
    OpenLoad,
    NewGame,
    Settings,
    /// Write a turn file for the side to play (play by e-mail).
    SendTurn,
    /// Watch the game in progress from its first order.
    Watch,
    /// Ask, then give up.
    Concede,
    /// Open or close the balance lab window (handled in `lab_window`).
    BalanceLab,
    /// Close Hexfront (asks while a game is being played).
    Quit,
}

/// When the status last changed, for the toast's fade.
#[derive(Resource, Default)]
struct Toast {
    shown: String,
    since: f32,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<GameCommand>()
        .init_resource::<LoadWindow>()
        .init_resource::<Toast>()
        .init_resource::<ConfirmConcede>()
        .add_systems(
            Update,
            (
                hotkeys,
                handle_commands,
                write_files
                    .run_if(resource_exists::<WriteNow>)
                    .before(super::state::CounterSystems),
            )
                .chain(),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (load_window, toast, confirm_concede).run_if(resource_exists::<TurnState>),
        )
        .add_systems(
            EguiPrimaryContextPass,
            crash_notice.run_if(resource_exists::<CrashNotice>),
        );
}

/// What the panic hook left for the player last time (where the emergency save went), shown once.
#[derive(Resource)]
pub struct CrashNotice(pub String);

fn crash_notice(mut contexts: EguiContexts, notice: Res<CrashNotice>, mut commands: Commands) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Hexfront stopped last time")
        .id(egui::Id::new("crash-notice"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
        .show(ctx, |ui| {
            ui.label(&notice.0);
            if ui.button("OK").clicked() {
                crate::game::emergency::dismiss_crash_notice();
                commands.remove_resource::<CrashNotice>();
            }
        });
    Ok(())
}

/// A file to write this frame (an exclusive system does it).
#[derive(Resource)]
enum WriteNow {
    Save(PathBuf),
    Turn(PathBuf),
    Watch,
}

fn hotkeys(keys: Res<super::keymap::Keys>, mut out: MessageWriter<GameCommand>) {
    use super::keymap::Action;
    if keys.just(Action::Save) {
        out.write(GameCommand::Save);
    }
    if keys.just(Action::Load) {
        out.write(GameCommand::OpenLoad);
    }
    if keys.just(Action::NewGame) {
        out.write(GameCommand::NewGame);
    }
}

#[allow(clippy::too_many_arguments)]
fn handle_commands(
    mut commands: Commands,
    mut incoming: MessageReader<GameCommand>,
    state: Res<State<GameState>>,
    turn: Option<Res<TurnState>>,
    source: Option<Res<ScenarioSource>>,
    sides: Option<Res<Sides>>,
    mut load: ResMut<LoadWindow>,
    mut settings: ResMut<SettingsFile>,
    mut concede: ResMut<ConfirmConcede>,
    (replay, mut status, autosave): (Option<Res<Replay>>, ResMut<SaveStatus>, Option<Res<Autosave>>),
) {
    let in_game = *state.get() != GameState::NoGame;
    for c in incoming.read() {
        let for_play = matches!(
            c,
            GameCommand::Save
                | GameCommand::SendTurn
                | GameCommand::Watch
                | GameCommand::Concede
                | GameCommand::OpenLoad
        );
        if replay.is_some() && for_play {
            *status = SaveStatus {
                message: "This is a replay: Continue the game (or Branch here) first".into(),
                failed: true,
            };
            continue;
        }
        match c {
            GameCommand::Save | GameCommand::SendTurn if in_game => {
                if let (Some(turn), Some(source), Some(sides)) = (&turn, &source, &sides) {
                    // Named after this game (its autosave's scenario and start time), so a save of
                    // another game of the same scenario is never written over.
                    let name = autosave
                        .as_ref()
                        .and_then(|a| storage::game_name_of_autosave(&a.path))
                        .unwrap_or_else(|| storage::slug(&source.0.name));
                    commands.insert_resource(match c {
                        GameCommand::Save => {
                            WriteNow::Save(storage::saves_dir().join(format!("{name}-turn-{}.ron", turn.turn)))
                        }
                        _ => {
                            let to = sides.0.get(turn.active.0).map_or("next", |s| s.id.as_str());
                            WriteNow::Turn(storage::turns_dir().join(format!("{name}-turn-{}-to-{to}.ron", turn.turn)))
                        }
                    });
                }
            }
            GameCommand::Watch if in_game => commands.insert_resource(WriteNow::Watch),
            GameCommand::Concede if *state.get() == GameState::Playing => concede.0 = true,
            GameCommand::Save | GameCommand::SendTurn | GameCommand::Watch | GameCommand::Concede => {}
            GameCommand::OpenLoad => {
                load.open = !load.open;
                load.saves = storage::list_saves(&storage::saves_dir());
                load.turns = storage::list_saves(&storage::turns_dir());
            }
            GameCommand::NewGame => {
                commands.queue(|w: &mut World| super::session::ask_or_leave(w, super::state::Leave::NewGame));
            }
            GameCommand::Quit => {
                commands.queue(|w: &mut World| super::session::ask_or_leave(w, super::state::Leave::Quit));
            }
            GameCommand::Settings => settings.open = !settings.open,
            GameCommand::BalanceLab => {}
        }
    }
}

fn write_files(world: &mut World) {
    let Some(job) = world.remove_resource::<WriteNow>() else {
        return;
    };
    if world.contains_resource::<super::online::OnlineSeat>() {
        let status = online_copy(world, job);
        world.insert_resource(status);
        return;
    }
    let status = match job {
        WriteNow::Save(path) => match save_game(world, &path) {
            Ok(()) => SaveStatus {
                message: format!("Saved to {}", path.display()),
                failed: false,
            },
            Err(e) => SaveStatus {
                message: format!("Not saved: {e}"),
                failed: true,
            },
        },
        WriteNow::Turn(path) => match write_turn_file(world, &path) {
            Ok(game) => {
                let to = game.turn_file.map_or_else(String::new, |t| t.to);
                let sides = world.resource::<Sides>();
                let to = sides.0.iter().find(|s| s.id == to).map_or(to, |s| s.name.clone());
                SaveStatus {
                    message: format!("Turn file written to {}: send it to {to}", path.display()),
                    failed: false,
                }
            }
            Err(e) => SaveStatus {
                message: e.message,
                failed: true,
            },
        },
        WriteNow::Watch => {
            let log = world.resource::<crate::game::log::OrderLog>().entries.clone();
            let mut replay = Replay::new(log, 0);
            let mut status = SaveStatus {
                message: "Watching the game from its first order: Continue the game returns to the last".into(),
                failed: false,
            };
            if let Err(e) = crate::game::undo::rebuild(world, &[]) {
                replay.problem = Some(e.to_string());
                status = SaveStatus {
                    message: format!("Cannot replay: {e}"),
                    failed: true,
                };
            }
            super::state::watch(world, replay);
            status
        }
    };
    world.insert_resource(status);
}

/// A save of an online game: its copy with the dice proof, once the game ended and its dice
/// checked (this window's copy rolled no dice of its own, so only that copy replays).
fn online_copy(world: &mut World, job: WriteNow) -> SaveStatus {
    let failed = |message: &str| SaveStatus {
        message: message.into(),
        failed: true,
    };
    let WriteNow::Save(path) = job else {
        return failed(
            "An online game is kept on the server: turn files and the replay are for its saved copy, once it ends",
        );
    };
    let checked = world
        .get_resource::<super::online::OnlineGame>()
        .and_then(|g| match &g.fairness {
            Some(super::online::Fairness::Verified(c)) => Some(c.saved.clone()),
            _ => None,
        });
    let Some(saved) = checked else {
        return failed(
            "An online game is kept on the server; a copy can be saved once it ends and its dice are checked",
        );
    };
    let written = crate::game::save::to_text(&saved)
        .map_err(|e| e.to_string())
        .and_then(|text| storage::write_atomic(&path, &text));
    match written {
        Ok(()) => SaveStatus {
            message: format!("Saved to {} (with its dice proof)", path.display()),
            failed: false,
        },
        Err(e) => SaveStatus {
            message: format!("Not saved: {e}"),
            failed: true,
        },
    }
}

/// Autosaves from now on to a new file named after this one with `suffix` (a branch of a watched
/// game never overwrites the file it came from).
pub fn autosave_elsewhere(world: &mut World, suffix: &str) {
    if let Some(mut autosave) = world.get_resource_mut::<Autosave>() {
        let stem = autosave
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        autosave.path = autosave.path.with_file_name(format!("{stem}-{suffix}.ron"));
        autosave.last = None;
    }
}

/// Opens a saved game or turn file from inside a game. A turn file that continues the game in
/// progress plays the opponent's new orders back on this board; anything else starts anew (to
/// continue, or to watch from the start, or from a turn file's new orders). A file that does not
/// load or replay is refused with the reason, and the game in progress goes on.
fn open_file(world: &mut World, path: &Path, watch: bool) -> SaveStatus {
    let seed = world.resource::<GameRng>().seed;
    let game = match load_game(path, seed) {
        Ok(g) => g,
        Err(e) => {
            let backup = storage::backup_of(path);
            let hint = if backup.is_file() {
                " (the version before its last save is kept: Backup, beside it in this list)"
            } else {
                ""
            };
            return SaveStatus {
                message: format!("Not loaded: {e}{hint}"),
                failed: true,
            };
        }
    };
    if let Some(info) = &game.turn_file {
        let playing = world.get_resource::<State<GameState>>().map(|s| *s.get()) == Some(GameState::Playing);
        match playing.then(|| continues_game(world, &game)) {
            Some(Ok(known)) => {
                let mut replay = Replay::new(game.log.clone(), known);
                replay.new_from = Some(known);
                replay.playing = true;
                super::state::watch(world, replay);
                return SaveStatus {
                    message: format!(
                        "Turn file from {}: playing back {}; Continue the game skips to the end",
                        info.from,
                        crate::rules::units::counted((game.log.len() - known) as u64, "new order", "new orders")
                    ),
                    failed: false,
                };
            }
            Some(Err(why)) if world.resource::<ScenarioSource>().0.name == game.scenario.raw.name => {
                return SaveStatus {
                    message: format!("Turn file refused: {why}. Nothing was changed."),
                    failed: true,
                };
            }
            _ => {}
        }
        let since = info.since;
        super::session::open_file_game(world, game, Some(since), path);
        return SaveStatus {
            message: format!(
                "Opened {}: watch the new orders, then Continue the game",
                path.display()
            ),
            failed: false,
        };
    }
    let message = if game.migrated {
        format!("Loaded {} (an older save: its orders start from here)", path.display())
    } else {
        format!("Loaded {}", path.display())
    };
    super::session::open_file_game(world, game, watch.then_some(0), path);
    SaveStatus { message, failed: false }
}

/// A file to open, chosen in the load window.
#[derive(Resource)]
struct OpenNow(PathBuf, bool);

fn open_now(world: &mut World) {
    if world.contains_resource::<OpenNow>() {
        super::session::autosave_before_leaving(world);
    }
    if let Some(OpenNow(path, watch)) = world.remove_resource::<OpenNow>() {
        let status = open_file(world, &path, watch);
        let failed = status.failed;
        world.insert_resource(status);
        world.resource_mut::<LoadWindow>().open = failed;
    }
}

fn load_window(
    mut contexts: EguiContexts,
    mut load: ResMut<LoadWindow>,
    mut commands: Commands,
    keys: Res<super::keymap::Keys>,
) -> Result {
    if !load.open {
        return Ok(());
    }
    if keys.just(super::keymap::Action::Cancel) {
        load.open = false;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut chosen = None;
    egui::Window::new("Open a game (Ctrl+O)")
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(storage::saves_dir().display().to_string())
                    .small()
                    .weak(),
            );
            let list = |ui: &mut egui::Ui, files: &[SaveFile], chosen: &mut Option<(PathBuf, bool)>| {
                for s in files {
                    ui.horizontal(|ui| {
                        let when = s
                            .modified
                            .map(|m| storage::when_in_words(m, std::time::SystemTime::now()))
                            .unwrap_or_default();
                        ui.label(&s.name).on_hover_text(s.path.display().to_string());
                        ui.label(egui::RichText::new(when).weak());
                        if ui
                            .button("Continue")
                            .on_hover_text("Play on from where it stands")
                            .clicked()
                        {
                            *chosen = Some((s.path.clone(), false));
                        }
                        if ui
                            .button("Watch")
                            .on_hover_text("Replay it order by order from the start")
                            .clicked()
                        {
                            *chosen = Some((s.path.clone(), true));
                        }
                        if let Some(backup) = &s.backup
                            && ui
                                .small_button("Backup")
                                .on_hover_text(
                                    "Continue the version before the last save (kept in case the newest is broken)",
                                )
                                .clicked()
                        {
                            *chosen = Some((backup.clone(), false));
                        }
                    });
                }
            };
            egui::ScrollArea::vertical().max_height(360.0).show(ui, |ui| {
                if load.saves.is_empty() {
                    ui.label("No saved games yet: Ctrl+S saves, and every phase end autosaves.");
                }
                list(ui, &load.saves, &mut chosen);
                if !load.turns.is_empty() {
                    ui.separator();
                    ui.strong("Turn files (play by e-mail)");
                    list(ui, &load.turns, &mut chosen);
                }
            });
            ui.separator();
            ui.horizontal(|ui| {
                let field = ui.add(
                    egui::TextEdit::singleline(&mut load.path)
                        .hint_text("or a path: …/turn-3-to-us.ron")
                        .desired_width(280.0),
                );
                // Enter in the field opens it, as the button does.
                let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if (ui.button("Open (Enter)").clicked() || entered) && !load.path.trim().is_empty() {
                    chosen = Some((PathBuf::from(load.path.trim()), false));
                }
            });
        });
    load.open = open;
    if let Some((path, watch)) = chosen {
        commands.insert_resource(OpenNow(path, watch));
        commands.queue(open_now);
    }
    Ok(())
}

fn confirm_concede(
    mut contexts: EguiContexts,
    mut concede: ResMut<ConfirmConcede>,
    mut orders: MessageWriter<PlayerOrder>,
    turn: Res<TurnState>,
    sides: Res<Sides>,
    keys: Res<super::keymap::Keys>,
    online: Option<Res<super::online::OnlineSeat>>,
) -> Result {
    if !concede.0 {
        return Ok(());
    }
    if keys.just(super::keymap::Action::Cancel) {
        concede.0 = false;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // Online, the player concedes for their own side, whoever is to move.
    let conceding = online.and_then(|o| o.0).unwrap_or(turn.active.0);
    let side = sides.0.get(conceding).map_or("?", |s| s.name.as_str()).to_string();
    egui::Window::new("Concede?")
        .id(egui::Id::new("confirm-concede"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(format!("{side} gives up and the other side wins."));
            ui.horizontal(|ui| {
                if ui.button(format!("{side} concedes")).clicked() {
                    orders.write(PlayerOrder(Order::Concede));
                    concede.0 = false;
                }
                if ui.button("Play on (Esc)").clicked() {
                    concede.0 = false;
                }
            });
        });
    Ok(())
}

fn toast(
    mut contexts: EguiContexts,
    status: Res<SaveStatus>,
    mut toast: ResMut<Toast>,
    time: Res<Time>,
    palette: Res<Palette>,
    presenting: Res<super::state::Presenting>,
) -> Result {
    // Viewers need no "saved" notes; a failure still shows.
    if status.message.is_empty() || presenting.0 && !status.failed {
        return Ok(());
    }
    // A new message, or the same one said again (a second Ctrl+S): shown afresh.
    if toast.shown != status.message || status.is_changed() {
        toast.shown = status.message.clone();
        toast.since = time.elapsed_secs();
    }
    let age = time.elapsed_secs() - toast.since;
    // Failures stay until the next message; successes fade after five seconds.
    if !status.failed && age > 5.0 {
        return Ok(());
    }
    if !status.failed {
        // Wakes the window to take the toast away when its time is up.
        contexts
            .ctx_mut()?
            .request_repaint_after(std::time::Duration::from_secs_f32(5.0 - age + 0.05));
    }
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("save-toast"))
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::RIGHT_BOTTOM, [-12.0, -40.0])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                let color = if status.failed { palette.bad } else { palette.good };
                ui.colored_label(color, &status.message);
            });
        });
    Ok(())
}
