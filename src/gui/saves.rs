//! Saving and loading from the client: the Game menu's commands and their hotkeys (Ctrl+S save,
//! Ctrl+O load, F2 new game), the load window listing the saves folder, and a toast saying what
//! happened. Saves are written atomically by `game::spawn::save_game`.

use super::settings::{Palette, SettingsFile};
use super::start::{StartMenu, load_into_game};
use crate::game::autosave::SaveStatus;
use crate::game::components::{GameRng, ScenarioSource};
use crate::game::phase::{GameState, TurnState};
use crate::storage::{self, SaveFile};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// What the Game menu and its hotkeys ask for.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameCommand {
    Save,
    OpenLoad,
    NewGame,
    Settings,
}

/// The load window.
#[derive(Resource, Default)]
struct LoadWindow {
    open: bool,
    saves: Vec<SaveFile>,
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
        .add_systems(
            Update,
            (hotkeys, handle_commands, save_now.run_if(resource_exists::<SaveNow>)).chain(),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (load_window, toast).run_if(resource_exists::<TurnState>),
        );
}

/// A save to write this frame (an exclusive system does it).
#[derive(Resource)]
struct SaveNow(std::path::PathBuf);

fn hotkeys(keys: Res<ButtonInput<KeyCode>>, mut out: MessageWriter<GameCommand>) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight, KeyCode::SuperLeft]);
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        out.write(GameCommand::Save);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyO) {
        out.write(GameCommand::OpenLoad);
    }
    if keys.just_pressed(KeyCode::F2) {
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
    mut next: ResMut<NextState<GameState>>,
    mut load: ResMut<LoadWindow>,
    mut settings: ResMut<SettingsFile>,
) {
    for c in incoming.read() {
        match c {
            GameCommand::Save if *state.get() != GameState::NoGame => {
                if let (Some(turn), Some(source)) = (&turn, &source) {
                    let name = format!("{}-turn-{}", storage::slug(&source.0.name), turn.turn);
                    commands.insert_resource(SaveNow(storage::saves_dir().join(format!("{name}.ron"))));
                }
            }
            GameCommand::Save => {}
            GameCommand::OpenLoad => {
                load.open = !load.open;
                load.saves = storage::list_saves(&storage::saves_dir());
            }
            GameCommand::NewGame => {
                commands.remove_resource::<StartMenu>();
                next.set(GameState::NoGame);
            }
            GameCommand::Settings => settings.open = !settings.open,
        }
    }
}

fn save_now(world: &mut World) {
    let Some(SaveNow(path)) = world.remove_resource::<SaveNow>() else {
        return;
    };
    let status = match crate::game::spawn::save_game(world, &path) {
        Ok(()) => SaveStatus {
            message: format!("Saved to {}", path.display()),
            failed: false,
        },
        Err(e) => SaveStatus {
            message: format!("Not saved: {e}"),
            failed: true,
        },
    };
    world.insert_resource(status);
}

fn load_window(
    mut contexts: EguiContexts,
    mut load: ResMut<LoadWindow>,
    mut commands: Commands,
    mut next: ResMut<NextState<GameState>>,
    mut status: ResMut<SaveStatus>,
    rng: Res<GameRng>,
) -> Result {
    if !load.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut chosen = None;
    egui::Window::new("Load a saved game (Ctrl+O)")
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(storage::saves_dir().display().to_string())
                    .small()
                    .weak(),
            );
            if load.saves.is_empty() {
                ui.label("No saved games yet: Ctrl+S saves, and every phase end autosaves.");
            }
            egui::ScrollArea::vertical().max_height(360.0).show(ui, |ui| {
                for s in &load.saves {
                    if ui.button(&s.name).on_hover_text(s.path.display().to_string()).clicked() {
                        chosen = Some(s.path.clone());
                    }
                }
            });
        });
    load.open = open;
    if let Some(path) = chosen {
        load_into_game(&path, rng.seed, &mut commands, &mut next, &mut status);
        load.open = status.failed;
    }
    Ok(())
}

fn toast(
    mut contexts: EguiContexts,
    status: Res<SaveStatus>,
    mut toast: ResMut<Toast>,
    time: Res<Time>,
    palette: Res<Palette>,
) -> Result {
    if status.message.is_empty() {
        return Ok(());
    }
    if toast.shown != status.message {
        toast.shown = status.message.clone();
        toast.since = time.elapsed_secs();
    }
    let age = time.elapsed_secs() - toast.since;
    // Failures stay until the next message; successes fade after five seconds.
    if !status.failed && age > 5.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("save-toast"))
        .anchor(egui::Align2::RIGHT_BOTTOM, [-12.0, -40.0])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                let color = if status.failed { palette.bad } else { palette.good };
                ui.colored_label(color, &status.message);
            });
        });
    Ok(())
}
