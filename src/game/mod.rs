//! Bevy plugins that turn the rules into a game: the ECS model, phases as states, orders and
//! their log, and the steps that carry orders out. All of it runs without rendering.
//!
//! Every change to a game is an `Order` (`order.rs`) carried out by `execute::execute`, which
//! records it in the `OrderLog` (`log.rs`) with its dice and state hash (`hash.rs`). Saves and
//! turn files are the scenario, the seed and the log (`save.rs`); undo replays it (`undo.rs`).

pub mod advance;
pub mod answer_board;
pub mod attack_options;
pub mod attack_situation;
pub mod autosave;
pub mod combat_phase;
pub mod components;
pub mod dice_proof;
pub mod edition;
pub mod emergency;
pub mod execute;
pub mod fight;
pub mod hash;
pub mod hexsides;
pub mod inspect;
pub mod log;
pub mod movement;
pub mod must_attack;
pub mod order;
pub mod order_options;
pub mod phase;
pub mod reinforce;
pub mod reload;
pub mod retreat;
pub mod save;
pub mod save_file;
mod save_v2;
pub mod save_v3;
pub mod settle;
pub mod spawn;
pub mod standing;
pub mod start;
pub mod turn_report;
pub mod undo;
pub mod victory;
pub mod view;
pub mod zoc;

use bevy::prelude::*;

/// The order of game systems within `Update`. When adding a variant, order it in the
/// `configure_sets` call in `plugin`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameSystems {
    /// Bring derived maps (zones of control) up to date before orders read them.
    Zones,
    /// A point in `Update` that autosave and the emergency save run after. No system is in it:
    /// orders are carried out by `execute::execute` wherever they are given (the client's in
    /// `PostUpdate`), so what an order changed is saved the frame after.
    Orders,
}

/// All game plugins. Add after `StatesPlugin` (part of `DefaultPlugins`).
pub fn plugin(app: &mut App) {
    // Orders change the phase outside the frame loop (`settle::settle` runs these schedules),
    // hundreds of times in a replay: single-threaded, a run costs microseconds instead of waking
    // the task pool's threads.
    use bevy::ecs::schedule::SingleThreadedExecutor;
    use bevy::state::state::StateTransition;
    let single = |s: &mut Schedule| {
        s.set_executor(SingleThreadedExecutor::new());
    };
    app.edit_schedule(StateTransition, single)
        .edit_schedule(OnExit(phase::Phase::Combat), single)
        .edit_schedule(OnEnter(phase::GameState::Over), single)
        .edit_schedule(OnEnter(phase::GameState::Playing), single)
        .edit_schedule(OnEnter(phase::GameState::NoGame), single);
    app.init_resource::<standing::StandingAnswers>()
        .configure_sets(Update, (GameSystems::Zones, GameSystems::Orders).chain())
        .add_plugins((
            phase::plugin,
            zoc::plugin,
            must_attack::plugin,
            hexsides::plugin,
            movement::plugin,
            combat_phase::plugin,
            retreat::plugin,
            advance::plugin,
            victory::plugin,
            autosave::plugin,
            emergency::plugin,
            spawn::plugin,
            execute::plugin,
            undo::plugin,
        ));
}

/// A headless app for tests and command-line tools: `MinimalPlugins` + states + the game, with
/// `scenario` spawned and its first phase entered.
pub fn headless_app(scenario: &crate::scenario::Scenario, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .add_plugins(plugin);
    start::start_game(app.world_mut(), scenario, seed);
    app
}
