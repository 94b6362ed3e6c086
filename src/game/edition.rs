//! Which edition of the engine's rules a game is played under. A game keeps the edition it began
//! with (its save records it), so its log replays exactly after a rule is corrected; a new game
//! plays the current edition.

use bevy::prelude::*;

/// The editions, each with what it changed:
/// 1. The rules before editions were recorded (every save that does not name one).
/// 2. War Against Russia: dispersed units recover at the end of their owner's player turn (in
///    edition 1 they never did).
pub const CURRENT_EDITION: u32 = 2;

/// The edition of the game in play (`CURRENT_EDITION` for a new game).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesEdition(pub u32);

impl Default for RulesEdition {
    fn default() -> Self {
        Self(CURRENT_EDITION)
    }
}

impl RulesEdition {
    /// Whether dispersed units recover (edition 2 on).
    pub fn dispersal_ends(self) -> bool {
        self.0 >= 2
    }
}

/// The edition of a save that does not name one.
pub fn first_edition() -> u32 {
    1
}
