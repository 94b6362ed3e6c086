//! Starting a game: its scenario spawned, its origin and edition of the rules recorded, and the
//! world settled into its first phase; and the same game started again (undo, loads, replays).
//! Above both `spawn` (which only makes entities and resources) and `execute` (which settles).

use super::components::Unit;
use super::edition::{CURRENT_EDITION, RulesEdition};
use crate::scenario::Scenario;
use bevy::prelude::*;

/// Where the game began: the scenario (a saved position, for a game migrated from an old save)
/// and the seed. With the log it is the whole game.
#[derive(Resource, Clone, Debug)]
pub struct GameOrigin {
    pub scenario: Scenario,
    pub seed: u64,
    /// The edition of the rules the game is played under (`game::edition`).
    pub edition: u32,
}

/// Puts the game in `world` under `edition` (and its origin, which replays it elsewhere).
pub fn set_edition(world: &mut World, edition: u32) {
    world.insert_resource(RulesEdition(edition));
    if let Some(mut origin) = world.get_resource_mut::<GameOrigin>() {
        origin.edition = edition;
    }
}

/// Starts a game of `scenario` with `seed` in `world`: spawns it, records where it began (the
/// current edition of the rules) and brings it to its first phase.
pub fn start_game(world: &mut World, scenario: &Scenario, seed: u64) {
    super::spawn::spawn_scenario(world, scenario, seed);
    world.insert_resource(GameOrigin {
        scenario: scenario.clone(),
        seed,
        edition: CURRENT_EDITION,
    });
    world.insert_resource(RulesEdition::default());
    super::settle::settle(world);
}

/// Clears the units of the game in `world` and starts `scenario` again (undo, replays).
pub fn respawn(world: &mut World, scenario: &Scenario, seed: u64) {
    let units: Vec<Entity> = world.query_filtered::<Entity, With<Unit>>().iter(world).collect();
    for e in units {
        world.despawn(e);
    }
    // The game started again is the same game: it keeps its edition of the rules.
    let edition = world.get_resource::<RulesEdition>().copied();
    start_game(world, scenario, seed);
    if let Some(edition) = edition {
        set_edition(world, edition.0);
    }
}
