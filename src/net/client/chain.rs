//! A guest's hash chain for a game with hash-chained dice (a game hosted by the other player):
//! its end goes with `join`, each link is revealed for one order that rolls once the server says
//! that order is fixed, and the links given are checked against the entries that come. It can be
//! written to a file and read back, so a client closed and opened again goes on with the same
//! chain (a new one would not hash to the end committed).

use crate::game::dice_proof::{self, from_hex, hex};
use crate::game::order::Order;
use crate::net::protocol::{ClientMessage, EntryView, ServerMessage};
use serde::{Deserialize, Serialize};

/// Links a chain of this length: enough for a long game's rolls.
pub const CHAIN_LENGTH: usize = 100_000;

/// This client's hash chain for one game.
pub struct ChainHolder {
    /// The random start the links are hashed from (kept to write the chain down).
    start: [u8; 32],
    end: String,
    /// The links in the order they are revealed.
    links: Vec<String>,
    next: usize,
    /// The order and link given for each entry.
    given: std::collections::BTreeMap<usize, (Order, String)>,
}

/// A chain as written to a file: its start and what was given (the links are hashed again).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedChain {
    pub start: String,
    pub length: usize,
    pub next: usize,
    pub given: Vec<(usize, Order, String)>,
}

impl ChainHolder {
    /// A new chain of `length` links from a random start.
    pub fn new(length: usize) -> Self {
        Self::from_start(crate::net::lobby::random_bytes::<32>(), length)
    }

    fn from_start(start: [u8; 32], length: usize) -> Self {
        let (end, links) = dice_proof::chain(start, length);
        Self {
            start,
            end,
            links,
            next: 0,
            given: Default::default(),
        }
    }

    /// The chain as it is to be written down.
    pub fn saved(&self) -> SavedChain {
        SavedChain {
            start: hex(&self.start),
            length: self.links.len(),
            next: self.next,
            given: self
                .given
                .iter()
                .map(|(i, (o, l))| (*i, o.clone(), l.clone()))
                .collect(),
        }
    }

    /// The chain written down as `saved`, or what is wrong with it.
    pub fn from_saved(saved: SavedChain) -> Result<Self, String> {
        let start = from_hex(&saved.start).map_err(|e| format!("start: {e}"))?;
        if saved.length == 0 || saved.length > 10 * CHAIN_LENGTH || saved.next > saved.length {
            return Err(format!("length {} with {} links given", saved.length, saved.next));
        }
        let mut chain = Self::from_start(start, saved.length);
        chain.next = saved.next;
        for (i, order, link) in saved.given {
            if !chain.links[..chain.next].contains(&link) {
                return Err(format!(
                    "entry {i}: a link that is not among the first {} of the chain",
                    chain.next
                ));
            }
            chain.given.insert(i, (order, link));
        }
        Ok(chain)
    }

    /// The chain's end, to commit to when taking the seat.
    pub fn end(&self) -> &str {
        &self.end
    }

    /// The link for the order fixed as entry `index`: the next one (the same again for the same
    /// entry and order). A second order for an entry already given a link is refused: the host
    /// would be trying the dice twice.
    pub fn link_for(&mut self, index: usize, order: &Order) -> Result<String, String> {
        if let Some((given, link)) = self.given.get(&index) {
            if given == order {
                return Ok(link.clone());
            }
            return Err(format!(
                "entry {index}: a link was asked for a second, different order there (the host changed an order after seeing its dice)"
            ));
        }
        let link = self
            .links
            .get(self.next)
            .cloned()
            .ok_or("this client's hash chain is used up")?;
        self.next += 1;
        self.given.insert(index, (order.clone(), link.clone()));
        Ok(link)
    }

    /// Checks `entry` against the links given: an entry with a link carries one this client
    /// gave for that very entry, with the order it was given for.
    pub fn check(&self, entry: &EntryView) -> Result<(), String> {
        let given = self.given.get(&entry.index);
        if let Some(link) = &entry.link
            && given.is_none_or(|(_, l)| l != link)
        {
            return Err(format!(
                "entry {}: it carries a chain link this client did not give for it (the host asked for a link elsewhere and used it here)",
                entry.index
            ));
        }
        let Some((order, link)) = given else {
            return Ok(());
        };
        if entry.hidden {
            return Ok(());
        }
        if &entry.order != order || entry.link.as_ref() != Some(link) {
            return Err(format!(
                "entry {}: not the order this client gave its link for, or not with that link: the host changed an order after seeing its dice",
                entry.index
            ));
        }
        Ok(())
    }

    /// The last entry this client gave a link for.
    pub fn last_given(&self) -> Option<usize> {
        self.given.keys().next_back().copied()
    }
}

/// The answer to a `link_wanted` message, given the entries held and the side this client plays:
/// only for the next entry (a link given for another would let the host learn the dice of an
/// order it has not fixed), and only once every secret of the other side is revealed (a secret
/// still hidden could be chosen once the dice are known).
pub fn link_answer(
    entries: &[EntryView],
    mine: Option<&str>,
    chain: Option<&mut ChainHolder>,
    message: &ServerMessage,
) -> Result<Option<ClientMessage>, String> {
    let ServerMessage::LinkWanted { game, index, order, .. } = message else {
        return Ok(None);
    };
    let held = entries.len();
    if *index != held {
        return Err(format!(
            "game `{game}` asks a link for entry {index}, but the next entry is {held}"
        ));
    }
    if let Some(e) = entries.iter().find(|e| e.hidden && Some(e.side.as_str()) != mine) {
        return Err(format!(
            "game `{game}` asks a link while entry {} of {} is still hidden: its secret must be revealed before the dice",
            e.index, e.side
        ));
    }
    let Some(chain) = chain else {
        return Err(format!(
            "game `{game}` asks this client for a chain link it does not hold"
        ));
    };
    let link = chain.link_for(*index, order)?;
    Ok(Some(ClientMessage::Link {
        game: game.clone(),
        index: *index,
        link,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_written_down_gives_the_same_links_and_refuses_a_forged_one() {
        let mut chain = ChainHolder::new(5);
        let first = chain.link_for(3, &Order::EndPhase).unwrap();
        let text = serde_json::to_string(&chain.saved()).unwrap();
        let mut back = ChainHolder::from_saved(serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back.end(), chain.end());
        assert_eq!(
            back.link_for(3, &Order::EndPhase).unwrap(),
            first,
            "the same link again"
        );
        let second = back.link_for(4, &Order::EndPhase).unwrap();
        assert_eq!(second, chain.link_for(4, &Order::EndPhase).unwrap());
        assert_eq!(
            dice_proof::chain_step(&second).unwrap(),
            first,
            "each link hashes to the one before"
        );
        let mut forged = chain.saved();
        forged.given[0].2 = "00".repeat(32);
        let err = ChainHolder::from_saved(forged).err().unwrap();
        assert!(err.contains("not among the first"), "{err}");
    }
}
