//! Where committed entries meet the connections following their game: one broadcast channel a
//! game, made when the first connection follows it; each connection turns an entry into its own
//! view (`view`), so a secret reaches only its owner before the reveal. With several server
//! processes on one database, each event is also handed to a relay (`cluster`) that passes it to
//! the other processes' hubs.

use super::protocol::{EntryView, ServerMessage};
use crate::game::log::LogEntry;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// One accepted order, as the worker announces it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Committed {
    pub index: usize,
    pub entry: LogEntry,
    /// Earlier entries whose secret this one reveals, with their index.
    pub reveals: Vec<(usize, LogEntry)>,
    /// The game ended with it: the winner, why, and the server's secret.
    pub ended: Option<(Option<String>, String, String)>,
    /// When it was made (milliseconds since 1970).
    pub at: i64,
    /// The game's turn after it.
    pub turn: u32,
}

/// What a game's followers are told: an accepted entry, a chat line, or that a side let its
/// time per turn lapse.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Event {
    Entry(Box<Committed>),
    Lapsed {
        side: String,
        waited: u64,
        conceded: bool,
    },
    /// The last order was taken back: the log holds `index` entries, in turn `turn`.
    Undone {
        index: usize,
        turn: u32,
    },
    Chat {
        room: String,
        from: String,
        text: String,
        at: i64,
    },
    /// An order that rolls waits for the chain holder's next link (hash-chained dice).
    LinkWanted(LinkWanted),
    /// Something happened in the game that another process could not pass on whole (too large
    /// for a notification, or lost while the database connection was down): read the log again.
    Behind,
}

/// The order fixed as entry `index` that rolls and waits for the next link of `holder`'s chain
/// (a game with hash-chained dice), as the holder may see it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LinkWanted {
    pub index: usize,
    /// The side whose player holds the chain.
    pub holder: String,
    /// The side that gave the order.
    pub side: String,
    pub order: crate::game::order::Order,
    pub words: String,
    /// The other side's secrets the order reveals (index, side, order, words): the holder sees
    /// them before it gives the link, so they cannot be chosen once the dice are known.
    pub reveals: Vec<(usize, String, crate::game::order::Order, String)>,
}

impl LinkWanted {
    /// The messages asking the holder for the link: the reveals first.
    pub fn messages(&self, game: &str) -> Vec<ServerMessage> {
        let mut out: Vec<ServerMessage> = self
            .reveals
            .iter()
            .filter(|(_, side, _, _)| *side != self.holder)
            .map(|(index, _, order, words)| ServerMessage::Revealed {
                game: game.to_string(),
                index: *index,
                order: order.clone(),
                words: words.clone(),
            })
            .collect();
        out.push(ServerMessage::LinkWanted {
            game: game.to_string(),
            index: self.index,
            side: self.side.clone(),
            order: self.order.clone(),
            words: self.words.clone(),
        });
        out
    }
}

/// Entries a slow connection may fall behind by before it must catch up from the log (the
/// channel keeps this many of each game's last events in memory).
const BACKLOG: usize = 256;

/// Where a hub hands the events it publishes for the other server processes.
pub type Relay = tokio::sync::mpsc::UnboundedSender<(String, Arc<Event>)>;

/// The channels, by game.
#[derive(Clone, Default)]
pub struct Hub {
    games: Arc<Mutex<HashMap<String, broadcast::Sender<Arc<Event>>>>>,
    relay: Option<Relay>,
}

impl Hub {
    /// A hub that also hands every event it publishes to `relay`.
    pub fn relaying(relay: Relay) -> Self {
        Self {
            games: Default::default(),
            relay: Some(relay),
        }
    }

    pub fn subscribe(&self, game: &str) -> broadcast::Receiver<Arc<Event>> {
        let mut games = self.games.lock().expect("hub lock");
        games
            .entry(game.to_string())
            .or_insert_with(|| broadcast::channel(BACKLOG).0)
            .subscribe()
    }

    pub fn announce(&self, game: &str, committed: Committed) {
        self.publish(game, Event::Entry(Box::new(committed)));
    }

    /// Tells the game's followers here, and (through the relay) those of the other processes.
    pub fn publish(&self, game: &str, event: Event) {
        let event = Arc::new(event);
        if let Some(relay) = &self.relay {
            let _ = relay.send((game.to_string(), event.clone()));
        }
        self.publish_here(game, event);
    }

    /// Tells the followers of every game followed here to read their log again (events may
    /// have been lost).
    pub fn everyone_behind(&self) {
        let games: Vec<String> = self.games.lock().expect("hub lock").keys().cloned().collect();
        for game in games {
            self.publish_here(&game, Arc::new(Event::Behind));
        }
    }

    /// Tells the game's followers connected to this process only.
    pub fn publish_here(&self, game: &str, event: Arc<Event>) {
        let mut games = self.games.lock().expect("hub lock");
        if let Some(tx) = games.get(game)
            && tx.send(event).is_err()
        {
            // Nobody follows it any more.
            games.remove(game);
        }
    }
}

/// Entry `index` as the side `viewer` (an id; `None` an observer) may see it: another side's
/// secret (Rommel's tactics) is left out until `revealed`.
pub fn view(index: usize, entry: &LogEntry, viewer: Option<&str>, revealed: bool) -> EntryView {
    let hidden = entry.order.has_secret() && !revealed && viewer != Some(entry.side.as_str());
    let (order, words) = if hidden {
        (entry.order.without_secrets().0, entry.public_words(false))
    } else {
        (entry.order.clone(), entry.public_words(true))
    };
    EntryView {
        index,
        side: entry.side.clone(),
        order,
        hidden,
        words,
        dice: entry.dice.clone(),
        hash: entry.hash,
        link: entry.link.clone(),
    }
}

/// The messages a connection sends for a committed entry: the reveals it brings, the entry, and
/// the end of the game.
pub fn messages(game: &str, c: &Committed, viewer: Option<&str>) -> Vec<ServerMessage> {
    let mut out = Vec::new();
    for (j, e) in &c.reveals {
        if viewer != Some(e.side.as_str()) {
            out.push(ServerMessage::Revealed {
                game: game.to_string(),
                index: *j,
                order: e.order.clone(),
                words: e.public_words(true),
            });
        }
    }
    out.push(ServerMessage::Entry {
        game: game.to_string(),
        entry: view(c.index, &c.entry, viewer, false),
    });
    if let Some((winner, reason, secret)) = &c.ended {
        out.push(ServerMessage::Ended {
            game: game.to_string(),
            winner: winner.clone(),
            reason: reason.clone(),
            secret: secret.clone(),
        });
    }
    out
}
