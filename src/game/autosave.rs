//! Autosave: with an `Autosave` resource present (the desktop client adds one), the game is
//! written to its file, atomically, each time a phase ends and when the game is over.

use super::GameSystems;
use super::phase::{GameState, TurnState};
use bevy::prelude::*;
use std::path::PathBuf;

/// Where to autosave, and the turn state last saved (so each phase is written once).
#[derive(Resource, Clone, Debug)]
pub struct Autosave {
    pub path: PathBuf,
    pub last: Option<TurnState>,
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
    app.init_resource::<SaveStatus>()
        .add_systems(
            Update,
            autosave
                .after(GameSystems::Orders)
                .run_if(in_state(GameState::Playing).and_then(resource_exists::<Autosave>)),
        )
        .add_systems(OnEnter(GameState::Over), autosave.run_if(resource_exists::<Autosave>));
}

/// Saves when the turn state differs from the last one saved. The first turn state seen (a new
/// or loaded game) is only remembered: there is nothing to protect yet.
fn autosave(world: &mut World) {
    let turn = world.resource::<TurnState>().clone();
    let over = *world.resource::<State<GameState>>().get() == GameState::Over;
    let autosave = world.resource::<Autosave>().clone();
    match &autosave.last {
        None => {
            world.resource_mut::<Autosave>().last = Some(turn);
            return;
        }
        Some(last) if *last == turn && !over => return,
        _ => {}
    }
    let status = match super::save::save_game(world, &autosave.path) {
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
    world.resource_mut::<Autosave>().last = Some(turn);
}
