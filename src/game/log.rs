//! The order log, the truth of a game: every order carried out, with the side that issued it,
//! every die rolled while carrying it out, the dice position before and after, and the state hash
//! after it. Saves, turn files, replays and undo are all this log replayed from the scenario.

use super::hash::StateHash;
use super::order::{IssuedOrder, Order};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// A die rolled while carrying out an order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DieRecord {
    /// `d6`, `d10`, or `dN` for a die numbered 1..N.
    pub die: String,
    pub face: u8,
    /// What it was rolled for (`combat`, `ER check`, `random retreat direction`).
    pub purpose: String,
}

impl From<&crate::combat::Roll> for DieRecord {
    fn from(r: &crate::combat::Roll) -> Self {
        Self {
            die: r.die.name(),
            face: r.face,
            purpose: r.purpose.to_string(),
        }
    }
}

/// Where the game stood when an order was issued (filled in as it is carried out, not saved).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct When {
    pub turn: u32,
    /// Index of the side to play.
    pub side: usize,
    /// Index into the ruleset's player turn.
    pub phase: usize,
}

/// One order carried out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogEntry {
    pub side: String,
    pub order: Order,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<DieRecord>,
    /// The seeded generator's position (words drawn) before and after the order.
    pub rng: (u64, u64),
    /// The state hash after the order.
    pub hash: StateHash,
    /// The other player's hash-chain link its dice were drawn with (a game hosted by one of its
    /// players; `dice_proof`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// What the game said while carrying it out, in words (rebuilt by replaying, not saved).
    #[serde(skip)]
    pub lines: Vec<String>,
    /// Turn, side and phase when it was issued (rebuilt by replaying, not saved).
    #[serde(skip)]
    pub when: When,
    /// The order in words as it was given, units by name with the cells they stood in (not
    /// saved).
    #[serde(skip)]
    pub words: String,
    /// The same as the other side reads it before a reveal (not saved).
    #[serde(skip)]
    pub public: String,
}

impl LogEntry {
    pub fn issued(&self) -> IssuedOrder {
        IssuedOrder {
            link: self.link.clone(),
            ..IssuedOrder::new(self.side.clone(), self.order.clone())
        }
    }

    /// The order in words as the players may read it: a secret not yet revealed by a later
    /// entry (`revealed`) is left out.
    pub fn public_words(&self, revealed: bool) -> String {
        let (words, public) = if self.words.is_empty() {
            // Not carried out here (straight from a file): by id.
            let by_id = |id: &str| (id.to_string(), None);
            (self.order.words_with(&by_id), self.order.public_words_with(&by_id))
        } else {
            (self.words.clone(), self.public.clone())
        };
        if revealed || !self.order.has_secret() {
            words
        } else {
            public
        }
    }

    /// Whether undo must stop before this entry: it rolled dice (or moved the dice generator),
    /// revealed a secret, or is a defender's answer (given for the defender, not the player at
    /// the keyboard, to take back).
    pub fn is_barrier(&self) -> bool {
        !self.dice.is_empty() || matches!(self.order, Order::Defend(_) | Order::Answer(_)) || self.rng.0 != self.rng.1
    }

    /// The dice in words: `5 (combat), 2 (ER check)`, or `-`.
    pub fn dice_words(&self) -> String {
        if self.dice.is_empty() {
            return "-".into();
        }
        self.dice
            .iter()
            .map(|d| format!("{} ({} {})", d.face, d.die, d.purpose))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The orders of the game so far, oldest first, and the ones undone (for redo), newest undone
/// last.
#[derive(Resource, Clone, Debug, Default)]
pub struct OrderLog {
    pub entries: Vec<LogEntry>,
    pub undone: Vec<IssuedOrder>,
}

/// Adds `line` to what the game said, as a note on the last order (the log panel shows it under
/// that order): a standing answer that gave it, the computer's turn report after its last order.
pub fn note_after_last_order(world: &mut World, line: String) {
    if let Some(mut log) = world.get_resource_mut::<OrderLog>()
        && let Some(last) = log.entries.last_mut()
    {
        last.lines.push(line.clone());
    }
    world.resource_mut::<super::components::GameLog>().push(line);
}

impl OrderLog {
    /// Whether entry `i`'s secret, if it has one, has been revealed by a later entry.
    pub fn revealed(&self, i: usize) -> bool {
        self.entries[i + 1..]
            .iter()
            .any(|e| matches!(e.order, Order::Defend(_)))
    }

    /// How far back undo may go: the number of entries that must stay (everything up to and
    /// including the last barrier).
    pub fn undo_floor(&self) -> usize {
        self.entries.iter().rposition(LogEntry::is_barrier).map_or(0, |i| i + 1)
    }
}
