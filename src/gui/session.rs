//! The session: what the window holds (the start screen, a game played or watched, the editor)
//! and every way between them, carried out here. A game starts by a `StartGame` request (from
//! the start screen, a file opened, the editor's play-test, a live reload, the showcase), which
//! `start_pending` spawns once the old game is gone; `open_file_game` starts one read from a file.
//! A new game (F2, the Game menu, the end screen), Quit (Ctrl+Q, the menus) and closing the window
//! ask first while a game is being played; whichever way it goes, the game is first written to its
//! autosave, so nothing is lost. F5 in a game started from the editor goes back to it.

use super::start::StartMenu;
use super::state::Replay;
use super::state::{ConfirmLeave, Leave, StartGame};
use crate::game::autosave::{Autosave, SaveStatus};
use crate::game::log::OrderLog;
use crate::game::phase::GameState;
use crate::game::save::{LoadedGame, start_loaded};
use crate::storage;
use bevy::prelude::*;
use bevy::window::WindowCloseRequested;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ConfirmLeave>()
        .add_systems(Update, (quit_key, close_requested))
        .add_systems(Update, start_pending.run_if(in_state(GameState::NoGame)))
        .add_systems(Update, back_to_editor.run_if(in_state(GameState::Playing)))
        .add_systems(EguiPrimaryContextPass, confirm_leave);
}

/// Spawns the waiting game once the old one is gone and replays its log (to the end, or to the
/// entry to watch from), with its autosave file.
fn start_pending(mut commands: Commands, pending: Option<Res<StartGame>>) {
    let Some(pending) = pending else { return };
    let start = pending.clone();
    commands.remove_resource::<StartGame>();
    commands.insert_resource(super::state::OpenedFrom(start.from.clone()));
    commands.insert_resource(Autosave::new(storage::autosave_path(
        &storage::saves_dir(),
        start.from.as_deref(),
        &start.game.scenario.raw.name,
        std::time::SystemTime::now(),
    )));
    commands.queue(move |world: &mut World| {
        if let Err(e) = start_loaded(world, &start.game, start.watch) {
            // Checked when the file was read, so only a bug gets here: say so, keep what replayed.
            world.insert_resource(SaveStatus {
                message: format!("The game did not replay: {e}"),
                failed: true,
            });
        }
        if let Some(at) = start.watch {
            let mut replay = Replay::new(start.game.log.clone(), at);
            // A turn file's new orders are what its receiver came to watch.
            replay.new_from = start.game.turn_file.as_ref().map(|_| at);
            super::state::watch(world, replay);
        }
    });
}

/// Starts `game`, read from the file at `from` (a save, a turn file), in place of the one in play
/// (to watch from entry `watch` when given).
pub fn open_file_game(world: &mut World, game: LoadedGame, watch: Option<usize>, from: &std::path::Path) {
    world.insert_resource(StartGame {
        game,
        watch,
        from: Some(from.to_path_buf()),
    });
    world.resource_mut::<NextState<GameState>>().set(GameState::NoGame);
}

/// Whether leaving now asks first: a game is being played (not watched, not over) and has orders.
pub fn asks_first(world: &World) -> bool {
    // An online game stays on its server: leaving it loses nothing.
    if world.contains_resource::<super::online::OnlineSeat>() {
        return false;
    }
    let playing = world
        .get_resource::<State<GameState>>()
        .is_some_and(|s| *s.get() == GameState::Playing);
    let game_at_stake = playing
        && !world.contains_resource::<Replay>()
        && world.get_resource::<OrderLog>().is_some_and(|l| !l.entries.is_empty());
    game_at_stake || unsaved_scenario(world)
}

/// The editor holds edits its file does not have.
fn unsaved_scenario(world: &World) -> bool {
    world
        .get_resource::<super::editor::Editor>()
        .is_some_and(|e| e.is_dirty())
}

/// Leaves at once when nothing is at stake, else asks.
pub fn ask_or_leave(world: &mut World, leave: Leave) {
    // Quitting stops a server hosted here: asked while someone else is connected to it.
    let hosting = leave == Leave::Quit && super::online::hosting_others(world);
    if asks_first(world) || hosting {
        world.resource_mut::<ConfirmLeave>().0 = Some(leave);
    } else {
        leave_now(world, leave);
    }
}

/// Writes the game to its autosave, then goes.
pub fn leave_now(world: &mut World, leave: Leave) {
    world.resource_mut::<ConfirmLeave>().0 = None;
    super::session::autosave_before_leaving(world);
    match leave {
        Leave::NewGame => {
            // The list is read again (new saves show), keeping the seed and seats chosen.
            let fresh = StartMenu::scan();
            let menu = match world.remove_resource::<StartMenu>() {
                Some(old) => fresh.keeping_choices(&old),
                None => fresh,
            };
            world.insert_resource(menu);
            world.resource_mut::<NextState<GameState>>().set(GameState::NoGame);
        }
        Leave::Quit => {
            world.write_message(AppExit::Success);
        }
    }
}

fn quit_key(keys: Res<super::keymap::Keys>, mut commands: Commands) {
    if keys.just(super::keymap::Action::Quit) {
        commands.queue(|w: &mut World| ask_or_leave(w, Leave::Quit));
    }
}

/// The window's close button asks like Quit; a second press while asked closes.
fn close_requested(
    mut requests: MessageReader<WindowCloseRequested>,
    confirm: Res<ConfirmLeave>,
    mut commands: Commands,
) {
    if requests.read().count() == 0 {
        return;
    }
    if confirm.0 == Some(Leave::Quit) {
        commands.queue(|w: &mut World| leave_now(w, Leave::Quit));
    } else {
        commands.queue(|w: &mut World| ask_or_leave(w, Leave::Quit));
    }
}

fn confirm_leave(
    mut contexts: EguiContexts,
    mut confirm: ResMut<ConfirmLeave>,
    keys: Res<super::keymap::Keys>,
    autosave: Option<Res<Autosave>>,
    editor: Option<Res<super::editor::Editor>>,
    state: Option<Res<State<GameState>>>,
    mut commands: Commands,
    (online, online_seat): (Res<super::online::Online>, Option<Res<super::online::OnlineSeat>>),
) -> Result {
    let Some(leave) = confirm.0 else { return Ok(()) };
    let hosting = online.hosting_others();
    let online_game = online_seat.is_some();
    let editing = state.is_some_and(|s| *s.get() == GameState::NoGame);
    let unsaved = editor.as_ref().filter(|e| e.is_dirty()).map(|e| e.title());
    if keys.just(super::keymap::Action::Cancel) {
        confirm.0 = None;
        return Ok(());
    }
    let go = keys.just(super::keymap::Action::Confirm);
    let ctx = contexts.ctx_mut()?;
    let (title, button) = match leave {
        // A play-test goes back to the editor it came from (which stays open under the game).
        Leave::NewGame if editor.is_some() && !editing => ("Leave this play-test?", "Back to the editor (Enter)"),
        Leave::NewGame => ("Leave this game?", "Leave for the start screen (Enter)"),
        Leave::Quit => ("Quit Hexfront?", "Quit (Enter)"),
    };
    let mut chosen = go;
    egui::Window::new(title)
        .id(egui::Id::new("confirm-leave"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            if let Some(name) = &unsaved {
                ui.colored_label(
                    egui::Color32::from_rgb(230, 150, 90),
                    format!("The editor's scenario ({name}) has edits not saved: leaving drops them (Stay, then Ctrl+S saves)."),
                );
            }
            if hosting && leave == Leave::Quit {
                ui.colored_label(
                    egui::Color32::from_rgb(230, 150, 90),
                    "Other players are connected to the server you host here: quitting stops it and disconnects them (their games stay in its file for the next time you host).",
                );
            }
            // In the editor only its scenario is at stake; in a game, the game goes to its autosave.
            if !editing && !online_game {
            ui.label("The game in progress is saved first, order by order, to its autosave:");
            if let Some(a) = &autosave {
                let name = a
                    .path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                ui.label(egui::RichText::new(name).monospace())
                    .on_hover_text(a.path.display().to_string());
            }
            ui.label("Continue it later from the start screen's Saved games.");
            }
            ui.horizontal(|ui| {
                if ui.button(egui::RichText::new(button).strong()).clicked() {
                    chosen = true;
                }
                if ui.button("Stay (Esc)").clicked() {
                    confirm.0 = None;
                }
            });
        });
    if chosen {
        commands.queue(move |w: &mut World| leave_now(w, leave));
    }
    Ok(())
}

/// Before the game being played is left (a new game, another file opened) it is written to its
/// autosave file, so no order given since the last phase ended is lost.
pub(super) fn autosave_before_leaving(world: &mut World) {
    let playing = world
        .get_resource::<State<GameState>>()
        .is_some_and(|s| *s.get() == GameState::Playing);
    let Some(path) = world.get_resource::<Autosave>().map(|a| a.path.clone()) else {
        return;
    };
    // A game with no orders yet has nothing to keep (and must not push a real autosave out).
    let orders = world
        .get_resource::<crate::game::log::OrderLog>()
        .is_some_and(|l| !l.entries.is_empty());
    if !(playing && orders) {
        return;
    }
    if let Err(e) = crate::game::autosave::write_autosave(world, &path) {
        warn!("The game was not saved before leaving it: {e}");
    }
}

/// F5 in a game started from the editor leaves it (saved to its autosave first) for the editor.
fn back_to_editor(keys: Res<super::keymap::Keys>, editor: Option<Res<super::editor::Editor>>, mut commands: Commands) {
    if editor.is_some() && keys.just(super::keymap::Action::BackToEditor) {
        commands.queue(|w: &mut World| leave_now(w, Leave::NewGame));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world_in(state: GameState, orders: usize) -> World {
        let mut world = World::new();
        world.insert_resource(State::new(state));
        world.init_resource::<NextState<GameState>>();
        world.init_resource::<ConfirmLeave>();
        world.init_resource::<Messages<AppExit>>();
        let mut log = OrderLog::default();
        for _ in 0..orders {
            log.entries.push(crate::game::log::LogEntry {
                side: "us".into(),
                order: crate::game::order::Order::EndPhase,
                dice: Vec::new(),
                rng: (0, 0),
                hash: Default::default(),
                link: None,
                lines: Vec::new(),
                when: Default::default(),
                words: String::new(),
                public: String::new(),
            });
        }
        world.insert_resource(log);
        world
    }

    #[test]
    fn leaving_a_game_being_played_asks_first_and_nothing_else_does() {
        let mut world = world_in(GameState::Playing, 3);
        ask_or_leave(&mut world, Leave::Quit);
        assert_eq!(world.resource::<ConfirmLeave>().0, Some(Leave::Quit));
        assert!(world.resource::<Messages<AppExit>>().is_empty(), "asked, not gone");
        // No orders yet, a finished game, or the start screen: no question.
        for (state, orders) in [(GameState::Playing, 0), (GameState::Over, 3), (GameState::NoGame, 0)] {
            let mut world = world_in(state, orders);
            ask_or_leave(&mut world, Leave::Quit);
            assert_eq!(world.resource::<ConfirmLeave>().0, None);
            assert!(
                !world.resource::<Messages<AppExit>>().is_empty(),
                "{state:?}: gone at once"
            );
        }
        // Watching a replay is not playing.
        let mut world = world_in(GameState::Playing, 3);
        world.insert_resource(Replay::new(Vec::new(), 0));
        assert!(!asks_first(&world));
    }
}
