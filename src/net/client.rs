//! The headless client: a WebSocket connection that speaks the protocol (`Client`), and a copy of
//! the game that follows the server's entries (`Follower`): each applied with the dice the entry
//! names (never a seed: the client does not know it) and its state hash compared with the
//! server's. The desktop client and the tests use both.

use super::protocol::{ClientMessage, EntryView, GameView, PROTOCOL, ServerMessage};
use crate::game::components::GameRng;
use crate::game::execute::execute;
use crate::game::log::OrderLog;
use crate::game::order::{IssuedOrder, Order};
use crate::scenario::Scenario;
use bevy::prelude::*;
use futures_util::{SinkExt, StreamExt};
use std::collections::VecDeque;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A connection to a server.
pub struct Client {
    socket: Socket,
    /// Messages received while waiting for an answer, to be read next.
    queued: VecDeque<ServerMessage>,
    /// Every frame received, as sent (tests look through them).
    pub frames: Vec<String>,
}

impl Client {
    /// Connects to `url` (`ws://host:port/ws`) and says hello.
    pub async fn connect(url: &str) -> Result<Self, String> {
        // Nagle off: an order is one small frame, to go out at once.
        let (socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(socket_config()), true)
            .await
            .map_err(|e| format!("cannot connect to {url}: {e}"))?;
        let mut client = Self {
            socket,
            queued: VecDeque::new(),
            frames: Vec::new(),
        };
        let hello = ClientMessage::Hello {
            protocol: PROTOCOL,
            version: crate::version::VERSION.into(),
        };
        match client.request(&hello).await? {
            ServerMessage::Welcome { .. } => Ok(client),
            other => Err(format!("the server did not welcome us: {other:?}")),
        }
    }

    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), String> {
        let text = serde_json::to_string(message).map_err(|e| e.to_string())?;
        self.send_text(text).await
    }

    /// Sends a frame as it is (tests send garbage with it).
    pub async fn send_text(&mut self, text: String) -> Result<(), String> {
        self.socket
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| format!("the connection dropped: {e}"))
    }

    /// The next message from the server.
    pub async fn next(&mut self) -> Result<ServerMessage, String> {
        if let Some(m) = self.queued.pop_front() {
            return Ok(m);
        }
        self.read().await
    }

    async fn read(&mut self) -> Result<ServerMessage, String> {
        loop {
            let frame = self
                .socket
                .next()
                .await
                .ok_or("the server closed the connection")?
                .map_err(|e| format!("the connection dropped: {e}"))?;
            if let Message::Text(text) = frame {
                self.frames.push(text.to_string());
                return ServerMessage::parse(&text);
            }
        }
    }

    /// Sends `message` and waits for its answer (any message but the game's pushes: entries,
    /// reveals, undos, the end, lapsed times, chat lines and the game's description, which stay
    /// queued for `next`).
    /// A chat line has no answer but an error: send it with `send`.
    pub async fn request(&mut self, message: &ClientMessage) -> Result<ServerMessage, String> {
        self.send(message).await?;
        loop {
            let m = self.read().await?;
            match m {
                ServerMessage::Entry { .. }
                | ServerMessage::Revealed { .. }
                | ServerMessage::Ended { .. }
                | ServerMessage::Chat { .. }
                | ServerMessage::Undone { .. }
                | ServerMessage::TimeLapsed { .. }
                | ServerMessage::LinkWanted { .. }
                | ServerMessage::Game(_) => self.queued.push_back(m),
                answer => return Ok(answer),
            }
        }
    }

    /// Closes the connection (the client gives nothing more).
    pub async fn close(&mut self) {
        let _ = self.socket.close(None).await;
    }
}

/// A WebSocket's settings: small buffers (`protocol::SOCKET_BUFFER`), frames up to four times
/// the largest a server sends.
pub fn socket_config() -> tokio_tungstenite::tungstenite::protocol::WebSocketConfig {
    tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(super::protocol::SOCKET_BUFFER)
        .write_buffer_size(super::protocol::SOCKET_BUFFER)
}

/// A random contribution to a game's dice (64 hex digits).
pub fn contribution() -> String {
    crate::game::dice_proof::hex(&super::lobby::random_bytes::<32>())
}

/// Links a chain of this length: enough for a long game's rolls.
pub const CHAIN_LENGTH: usize = 100_000;

/// This client's hash chain, for a game with hash-chained dice whose seat it takes (a game
/// hosted by the other player): its end goes with `join`, and each link is revealed for one
/// order that rolls, once the server says that order is fixed.
pub struct ChainHolder {
    end: String,
    /// The links in the order they are revealed.
    links: Vec<String>,
    next: usize,
    /// The order and link given for each entry.
    given: std::collections::BTreeMap<usize, (Order, String)>,
}

impl ChainHolder {
    /// A new chain of `length` links from a random start.
    pub fn new(length: usize) -> Self {
        let (end, links) = crate::game::dice_proof::chain(super::lobby::random_bytes::<32>(), length);
        Self {
            end,
            links,
            next: 0,
            given: Default::default(),
        }
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

/// A copy of an online game, kept in step with the server's entries.
pub struct Follower {
    pub view: GameView,
    scenario: Scenario,
    app: App,
    /// Entries received, oldest first (a hidden one's order without its secret until revealed).
    entries: Vec<EntryView>,
    /// How the game ended: winner, why and the server's secret.
    pub ended: Option<(Option<String>, String, String)>,
    /// Entries held whose hash was checked against the server's (all but those still hidden).
    pub checked: usize,
    /// The links of a game with hash-chained dice, checked one after another.
    walk: crate::game::dice_proof::ChainWalk,
    /// This client's chain, when it holds the game's (it took the seat with its end).
    pub chain: Option<ChainHolder>,
}

impl Follower {
    /// A follower of the game `view` describes, at its start.
    pub fn new(view: GameView) -> Result<Self, String> {
        let scenario =
            super::user_scenarios::scenario_of(&view.scenario, &view.scenario_text, view.ruleset_text.as_deref())?;
        let app = fresh_app(&scenario, view.edition);
        let walk = crate::game::dice_proof::ChainWalk {
            chained: view.chained,
            last: view.chain_ends.iter().flatten().next().cloned(),
        };
        Ok(Self {
            view,
            scenario,
            app,
            entries: Vec::new(),
            ended: None,
            checked: 0,
            walk,
            chain: None,
        })
    }

    pub fn world(&mut self) -> &mut World {
        self.app.world_mut()
    }

    /// The entries received, oldest first.
    pub fn entries(&self) -> &[EntryView] {
        &self.entries
    }

    /// Entries received.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The index of the side this connection plays.
    pub fn my_side(&self) -> Option<usize> {
        let you = self.view.you.as_ref()?;
        self.view.seats.iter().position(|s| &s.side == you)
    }

    /// Takes a message of the game: an entry is applied and checked, a reveal or an undo replays
    /// the game with the entries as they now stand, the end is noted. Others are ignored.
    pub fn take(&mut self, message: &ServerMessage) -> Result<(), String> {
        match message {
            ServerMessage::Entry { entry, .. } => {
                if entry.index != self.entries.len() {
                    return Err(format!(
                        "entry {} arrived when {} were held: entries were lost or doubled",
                        entry.index,
                        self.entries.len()
                    ));
                }
                self.walk
                    .step(!entry.dice.is_empty(), entry.link.as_deref())
                    .map_err(|e| format!("entry {}: {e}", entry.index))?;
                if let Some(chain) = &self.chain {
                    chain.check(entry)?;
                }
                let checked = apply(self.app.world_mut(), entry)?;
                self.checked += usize::from(checked);
                self.entries.push(entry.clone());
                Ok(())
            }
            ServerMessage::Revealed { index, order, .. } => {
                let e = self
                    .entries
                    .get_mut(*index)
                    .ok_or_else(|| format!("a reveal of entry {index}, which this client does not hold"))?;
                if !e.hidden {
                    // Told again (with the entry that revealed it): it must not change.
                    if &e.order != order {
                        return Err(format!("entry {index} was revealed twice, differently"));
                    }
                    return Ok(());
                }
                e.order = order.clone();
                e.hidden = false;
                self.rebuild()
            }
            ServerMessage::Undone { index, .. } if *index < self.entries.len() => {
                // An order this client gave a link for is fixed: taking back from before it
                // would let the host rearrange the game around dice it has seen.
                if let Some(given) = self.chain.as_ref().and_then(ChainHolder::last_given)
                    && *index <= given
                {
                    return Err(format!(
                        "the log was taken back to {index} entries, past entry {given} whose dice this client's link drew"
                    ));
                }
                self.entries.truncate(*index);
                self.rebuild()
            }
            ServerMessage::Ended {
                winner, reason, secret, ..
            } => {
                self.ended = Some((winner.clone(), reason.clone(), secret.clone()));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The answer to `LinkWanted` for this game, when this client holds its chain.
    pub fn link(&mut self, message: &ServerMessage) -> Result<Option<ClientMessage>, String> {
        let ServerMessage::LinkWanted { game, index, order, .. } = message else {
            return Ok(None);
        };
        let held = self.entries.len();
        // Only for the next entry: a link given for another would let the host learn the dice
        // of an order it has not fixed yet.
        if *index != held {
            return Err(format!(
                "game `{game}` asks a link for entry {index}, but the next entry is {held}"
            ));
        }
        // A secret of the other side still hidden could be chosen once the dice are known: it
        // is revealed before the link (the server sends the reveals first).
        let mine = self.view.you.clone();
        if let Some(e) = self.entries.iter().find(|e| e.hidden && Some(&e.side) != mine.as_ref()) {
            return Err(format!(
                "game `{game}` asks a link while entry {} of {} is still hidden: its secret must be revealed before the dice",
                e.index, e.side
            ));
        }
        let Some(chain) = &mut self.chain else {
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

    /// Replays every entry held from the start (after a reveal).
    fn rebuild(&mut self) -> Result<(), String> {
        self.app = fresh_app(&self.scenario, self.view.edition);
        self.checked = 0;
        for e in &self.entries {
            self.checked += usize::from(apply(self.app.world_mut(), e)?);
        }
        Ok(())
    }
}

fn fresh_app(scenario: &Scenario, edition: u32) -> App {
    // The seed is the server's secret: the dice come with each entry.
    let mut app = crate::game::headless_app(scenario, 0);
    crate::game::start::set_edition(app.world_mut(), edition);
    app
}

/// Carries out `entry` with the dice it names and compares the outcome with the server's:
/// whether its hash was checked (a hidden entry's cannot be until its reveal).
fn apply(world: &mut World, entry: &EntryView) -> Result<bool, String> {
    world.resource_mut::<GameRng>().forced = entry.dice.iter().map(|d| d.face).collect();
    let carried = execute(world, IssuedOrder::new(entry.side.clone(), entry.order.clone()));
    let left = std::mem::take(&mut world.resource_mut::<GameRng>().forced);
    let at = carried.map_err(|r| format!("entry {} ({}): refused here: {}", entry.index, entry.words, r.reason))?;
    let got = &world.resource::<OrderLog>().entries[at];
    if got.dice != entry.dice || !left.is_empty() {
        return Err(format!(
            "entry {} ({}): the dice differ: the server rolled {}, here {}",
            entry.index,
            entry.words,
            entry
                .dice
                .iter()
                .map(|d| d.face.to_string())
                .collect::<Vec<_>>()
                .join(","),
            got.dice_words()
        ));
    }
    if entry.hidden {
        return Ok(false);
    }
    if got.hash != entry.hash {
        return Err(format!(
            "entry {} ({}): the state hash differs (server {}, here {}): {}",
            entry.index,
            entry.words,
            entry.hash,
            got.hash,
            entry.hash.differences(&got.hash).join("; ")
        ));
    }
    Ok(true)
}
