//! Which edition of the engine's rules a game is played under. A game keeps the edition it began
//! with (its save records it), so its log replays exactly after a rule is corrected; a new game
//! plays the current edition.

use bevy::prelude::*;

/// The editions, each with what it changed:
/// 1. The rules before editions were recorded (every save that does not name one).
/// 2. War Against Russia: dispersed units recover at the end of their owner's player turn (in
///    edition 1 they never did).
/// 3. Killing Ground 8.96: the defender names the type of the attacker's first step loss as its
///    answer (in editions 1-2 it always named armor, without being asked).
/// 4. Small General's simultaneous attack: an attack counts the distinct hexsides its target was
///    attacked across this combat phase, itself included (+1 for two … +5 for six); in editions
///    1-3 every attack counted one hexside.
pub const CURRENT_EDITION: u32 = 4;

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

    /// Whether the defender is asked which type the attacker loses first (edition 3 on).
    pub fn defender_names_type(self) -> bool {
        self.0 >= 3
    }

    /// Whether an attack counts the hexsides attacked across before it (edition 4 on).
    pub fn counts_hexsides(self) -> bool {
        self.0 >= 4
    }

    /// The answers this edition's rules give (`answers` as today's rules list them): without
    /// 8.96's choice before edition 3, which leaves exactly the older list, in its order.
    pub fn answers_of(
        self,
        mut answers: Vec<crate::combat::odds::AnswerOption>,
    ) -> Vec<crate::combat::odds::AnswerOption> {
        if !self.defender_names_type() {
            answers.retain(|a| !a.choices.names_infantry);
        }
        answers
    }
}

/// The edition of a save that does not name one.
pub fn first_edition() -> u32 {
    1
}
