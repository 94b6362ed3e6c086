//! Autosave: with an `Autosave` resource present (the desktop client adds one; it takes it away
//! while a game is only watched), the game is written to its file, atomically, each time a phase
//! ends and when the game is over, after the order that did it is in the log. Each game has a
//! file of its own (`storage::autosave_path`); the newest `storage::AUTOSAVES_KEPT` are kept.

use super::GameSystems;
use super::phase::{GameState, TurnState};
use bevy::prelude::*;
use std::path::PathBuf;

/// Where to autosave, and the turn state (and whether the game was over) last saved, so each
/// phase is written once.
#[derive(Resource, Clone, Debug)]
pub struct Autosave {
    pub path: PathBuf,
    pub last: Option<(TurnState, bool)>,
}

impl Autosave {
    pub fn new(path: PathBuf) -> Self {
        Self { path, last: None }
    }
}

/// The outcome of the last save or load, for the status bar.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct SaveStatus {
    pub message: String,
    pub failed: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveStatus>().add_systems(
        Update,
        autosave.after(GameSystems::Orders).run_if(
            resource_exists::<Autosave>
                .and_then(resource_exists::<TurnState>)
                .and_then(in_state(GameState::Playing).or_else(in_state(GameState::Over))),
        ),
    );
}

/// Saves when the turn state, or whether the game is over, differs from the last one saved. The
/// first seen (a new or loaded game) is only remembered: there is nothing to protect yet.
pub(super) fn autosave(world: &mut World) {
    let now = (
        world.resource::<TurnState>().clone(),
        *world.resource::<State<GameState>>().get() == GameState::Over,
    );
    let autosave = world.resource::<Autosave>().clone();
    match &autosave.last {
        None => {
            world.resource_mut::<Autosave>().last = Some(now);
            return;
        }
        Some(last) if *last == now => return,
        _ => {}
    }
    let status = match write_autosave(world, &autosave.path) {
        Ok(()) => SaveStatus {
            message: format!("Autosaved to {}", autosave.path.display()),
            failed: false,
        },
        Err(e) => SaveStatus {
            message: format!("Autosave failed: {e}"),
            failed: true,
        },
    };
    if status.failed {
        warn!("{}", status.message);
    }
    world.insert_resource(status);
    world.resource_mut::<Autosave>().last = Some(now);
}

/// Writes the game to its autosave file; when that makes a new file (a new game's first autosave),
/// the oldest autosaves beyond the few kept go.
pub fn write_autosave(world: &mut World, path: &std::path::Path) -> Result<(), crate::source::LoadError> {
    let first_write = !path.exists();
    super::save::save_game(world, path)?;
    if first_write && let Some(dir) = path.parent() {
        for old in crate::storage::prune_autosaves(dir, crate::storage::AUTOSAVES_KEPT, path) {
            info!("Removed the old autosave {}", old.display());
        }
    }
    Ok(())
}
