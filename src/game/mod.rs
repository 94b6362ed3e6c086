//! Bevy plugins that turn the rules into a game: the ECS model, phases as states, and the
//! systems that carry out orders. All of it runs without rendering.

pub mod advance;
pub mod autosave;
pub mod combat;
pub mod components;
pub mod movement;
pub mod phase;
pub mod retreat;
pub mod situation;
pub mod spawn;
pub mod victory;
pub mod zoc;

use bevy::prelude::*;

/// The order of game systems within `Update`. When adding a variant, order it in the
/// `configure_sets` call in `plugin`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameSystems {
    /// Bring derived maps (zones of control) up to date before orders read them.
    Zones,
    /// Carry out orders (messages) from players, the AI and tests: moves, then attacks.
    Orders,
    /// Carry out what combat demands: retreats, then advances (combat sub-steps).
    AfterCombat,
    /// End phases and turns, after this frame's orders.
    TurnFlow,
    /// Keep derived state (the phase sub-state, fresh movement points) in step with the turn.
    Bookkeeping,
}

/// All game plugins. Add after `StatesPlugin` (part of `DefaultPlugins`).
pub fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            GameSystems::Zones,
            GameSystems::Orders,
            GameSystems::AfterCombat,
            GameSystems::TurnFlow,
            GameSystems::Bookkeeping,
        )
            .chain(),
    )
    .add_plugins((
        phase::plugin,
        zoc::plugin,
        movement::plugin,
        combat::plugin,
        retreat::plugin,
        advance::plugin,
        victory::plugin,
        autosave::plugin,
        spawn::plugin,
    ));
}

/// A headless app for tests and command-line tools: `MinimalPlugins` + states + the game, with
/// `scenario` spawned and its first phase entered.
pub fn headless_app(scenario: &crate::scenario::Scenario, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .add_plugins(plugin);
    spawn::spawn_scenario(app.world_mut(), scenario, seed);
    // One update enters GameState::Playing, a second enters the first Phase.
    app.update();
    app.update();
    app
}
