//! The followed game's entries as the window holds them, so that a connection made again can
//! follow the game from its start and pass on only what changed while it was away: an entry held
//! already is not passed on twice, a secret revealed meanwhile comes as a reveal, an undo missed
//! comes as an undo. Pure: messages in, messages out.

use crate::net::client::ChainHolder;
use crate::net::protocol::{EntryView, ServerMessage};

/// The game the window follows.
pub struct Ledger {
    pub game: String,
    /// The entries passed on to the window, oldest first.
    pub entries: Vec<EntryView>,
    /// The side this connection plays (from the game's description).
    pub you: Option<String>,
    /// Whether both seats are taken.
    pub started: bool,
    /// This client's hash chain for the game, when it holds the game's (it joined a chained
    /// game hosted by the other player).
    pub chain: Option<ChainHolder>,
    /// Following again after a new connection: the answer to `options` says how long the log
    /// is, so entries held past it were taken back while away.
    pub resyncing: bool,
}

/// Something in the server's messages that cannot be: the game is followed again from its start.
#[derive(Debug, PartialEq, Eq)]
pub struct OutOfStep(pub String);

impl Ledger {
    pub fn new(game: String) -> Self {
        Self {
            game,
            entries: Vec::new(),
            you: None,
            started: false,
            chain: None,
            resyncing: false,
        }
    }

    /// Whether `message` is about this game.
    pub fn concerns(&self, message: &ServerMessage) -> bool {
        match message {
            ServerMessage::Entry { game, .. }
            | ServerMessage::Revealed { game, .. }
            | ServerMessage::Undone { game, .. }
            | ServerMessage::Options { game, .. } => *game == self.game,
            ServerMessage::Game(view) => view.game == self.game,
            _ => false,
        }
    }

    /// Takes a message of this game: what to pass on to the window.
    pub fn take(&mut self, message: ServerMessage) -> Result<Vec<ServerMessage>, OutOfStep> {
        match message {
            ServerMessage::Entry { game, entry } => self.entry(game, entry),
            ServerMessage::Revealed {
                game,
                index,
                order,
                words,
            } => {
                let Some(held) = self.entries.get_mut(index) else {
                    return Err(OutOfStep(format!(
                        "a reveal of entry {index}, which this client does not hold"
                    )));
                };
                if !held.hidden {
                    return Ok(Vec::new());
                }
                held.hidden = false;
                held.order = order.clone();
                held.words = words.clone();
                Ok(vec![ServerMessage::Revealed {
                    game,
                    index,
                    order,
                    words,
                }])
            }
            ServerMessage::Undone { game, index } => {
                if index >= self.entries.len() {
                    return Ok(Vec::new());
                }
                self.entries.truncate(index);
                Ok(vec![ServerMessage::Undone { game, index }])
            }
            ServerMessage::Options {
                game,
                expect,
                yours,
                options,
            } => {
                let mut out = Vec::new();
                if std::mem::take(&mut self.resyncing) && expect < self.entries.len() {
                    self.entries.truncate(expect);
                    out.push(ServerMessage::Undone {
                        game: game.clone(),
                        index: expect,
                    });
                }
                out.push(ServerMessage::Options {
                    game,
                    expect,
                    yours,
                    options,
                });
                Ok(out)
            }
            ServerMessage::Game(view) => {
                self.you = view.you.clone();
                self.started = view.started;
                Ok(vec![ServerMessage::Game(view)])
            }
            other => Ok(vec![other]),
        }
    }

    fn entry(&mut self, game: String, entry: EntryView) -> Result<Vec<ServerMessage>, OutOfStep> {
        let index = entry.index;
        if index > self.entries.len() {
            return Err(OutOfStep(format!(
                "entry {index} arrived when {} were held",
                self.entries.len()
            )));
        }
        if let Some(chain) = &self.chain {
            chain.check(&entry).map_err(OutOfStep)?;
        }
        if let Some(held) = self.entries.get_mut(index) {
            if *held == entry {
                return Ok(Vec::new());
            }
            let same_entry = held.side == entry.side && held.dice == entry.dice && held.hash == entry.hash;
            if held.hidden && !entry.hidden && same_entry {
                // Revealed while this client was away.
                *held = entry.clone();
                return Ok(vec![ServerMessage::Revealed {
                    game,
                    index,
                    order: entry.order,
                    words: entry.words,
                }]);
            }
            // Taken back while away, and something else given in its place.
            self.entries.truncate(index);
            self.entries.push(entry.clone());
            return Ok(vec![
                ServerMessage::Undone {
                    game: game.clone(),
                    index,
                },
                ServerMessage::Entry { game, entry },
            ]);
        }
        self.entries.push(entry.clone());
        Ok(vec![ServerMessage::Entry { game, entry }])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hash::StateHash;
    use crate::game::order::Order;

    fn entry(index: usize, words: &str, hidden: bool) -> ServerMessage {
        ServerMessage::Entry {
            game: "g".into(),
            entry: EntryView {
                index,
                side: "a".into(),
                order: Order::EndPhase,
                hidden,
                words: words.into(),
                dice: Vec::new(),
                hash: StateHash::default(),
                link: None,
            },
        }
    }

    fn kinds(out: &[ServerMessage]) -> Vec<&'static str> {
        out.iter()
            .map(|m| match m {
                ServerMessage::Entry { .. } => "entry",
                ServerMessage::Undone { .. } => "undone",
                ServerMessage::Revealed { .. } => "revealed",
                ServerMessage::Options { .. } => "options",
                _ => "other",
            })
            .collect()
    }

    #[test]
    fn following_again_passes_on_only_what_changed_while_away() {
        let mut ledger = Ledger::new("g".into());
        for (i, w) in ["one", "two", "three"].iter().enumerate() {
            assert_eq!(kinds(&ledger.take(entry(i, w, i == 2)).unwrap()), ["entry"]);
        }
        // The same three again (a new connection follows from the start): nothing passed on;
        // the hidden one now revealed: a reveal.
        assert!(ledger.take(entry(0, "one", false)).unwrap().is_empty());
        assert!(ledger.take(entry(1, "two", false)).unwrap().is_empty());
        assert_eq!(
            kinds(&ledger.take(entry(2, "three, tactics shown", false)).unwrap()),
            ["revealed"]
        );
        assert!(!ledger.entries[2].hidden);
        // Entry 1 taken back and another given: an undo, then the entry.
        assert_eq!(
            kinds(&ledger.take(entry(1, "other", false)).unwrap()),
            ["undone", "entry"]
        );
        assert_eq!(ledger.entries.len(), 2);
        // An entry past the next is out of step.
        assert!(ledger.take(entry(5, "far", false)).is_err());
        // Back after an undo that left nothing in its place: the answer to `options` says.
        ledger.resyncing = true;
        let options = ServerMessage::Options {
            game: "g".into(),
            expect: 1,
            yours: true,
            options: Default::default(),
        };
        assert_eq!(kinds(&ledger.take(options.clone()).unwrap()), ["undone", "options"]);
        assert_eq!(ledger.entries.len(), 1);
        assert_eq!(kinds(&ledger.take(options).unwrap()), ["options"], "once only");
    }
}
