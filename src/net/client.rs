//! The headless client: a WebSocket connection that speaks the protocol (`Client`), and a copy of
//! the game that follows the server's entries (`Follower`): each applied with the dice the entry
//! names (never a seed: the client does not know it) and its state hash compared with the
//! server's. The desktop client and the tests use both.

use super::protocol::{ClientMessage, EntryView, GameView, PROTOCOL, ServerMessage};
use crate::game::components::GameRng;
use crate::game::execute::execute;
use crate::game::log::OrderLog;
use crate::game::order::IssuedOrder;
use crate::scenario::Scenario;
use bevy::prelude::*;
use futures_util::{SinkExt, StreamExt};
use std::collections::VecDeque;
use tokio_tungstenite::tungstenite::Message;

mod chain;
pub use chain::{CHAIN_LENGTH, ChainHolder, SavedChain, link_answer};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A connection to a server.
pub struct Client {
    socket: Socket,
    /// Messages received while waiting for an answer, to be read next.
    queued: VecDeque<ServerMessage>,
    /// Every frame received, as sent (tests look through them).
    pub frames: Vec<String>,
    /// When the server was last heard from (any frame, a pong too).
    pub last_heard: std::time::Instant,
}

/// Why a connection was not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unwelcome {
    /// Nothing answered at the address, or the connection dropped before the welcome.
    Unreachable(String),
    /// The server answered and refused (another release).
    Refused(String),
}

impl std::fmt::Display for Unwelcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unwelcome::Unreachable(why) | Unwelcome::Refused(why) => f.write_str(why),
        }
    }
}

impl Client {
    /// Connects to `url` (`ws://host:port/ws`) and says hello.
    pub async fn connect(url: &str) -> Result<Self, String> {
        Self::open(url, PROTOCOL, crate::version::VERSION)
            .await
            .map_err(|e| e.to_string())
    }

    /// Connects to `url` and says hello with this protocol number and version: a server of
    /// another release refuses (`Unwelcome::Refused`), one that does not answer is
    /// `Unwelcome::Unreachable`.
    pub async fn open(url: &str, protocol: u32, version: &str) -> Result<Self, Unwelcome> {
        // Nagle off: an order is one small frame, to go out at once.
        let (socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(socket_config()), true)
            .await
            .map_err(|e| Unwelcome::Unreachable(format!("cannot connect to {url}: {e}")))?;
        let mut client = Self {
            socket,
            queued: VecDeque::new(),
            frames: Vec::new(),
            last_heard: std::time::Instant::now(),
        };
        let hello = ClientMessage::Hello {
            protocol,
            version: version.into(),
        };
        match client.request(&hello).await.map_err(Unwelcome::Unreachable)? {
            ServerMessage::Welcome { .. } => Ok(client),
            ServerMessage::Error { message } => Err(Unwelcome::Refused(message)),
            other => Err(Unwelcome::Refused(format!("the server did not welcome us: {other:?}"))),
        }
    }

    /// Asks the server for a sign of life (a WebSocket ping; its pong counts as heard).
    pub async fn ping(&mut self) -> Result<(), String> {
        self.socket
            .send(Message::Ping(Default::default()))
            .await
            .map_err(|e| format!("the connection dropped: {e}"))
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
            self.last_heard = std::time::Instant::now();
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
        let mine = self.view.you.clone();
        link_answer(&self.entries, mine.as_deref(), self.chain.as_mut(), message)
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

/// The game a client puts on its board for the online game `view`: its scenario at the start,
/// under the game's edition, its retreats and advances carried out by the rules as the server
/// carries them out (a board waiting for a player's choice would fall out of step). The seed is
/// a stand-in: every die comes with its entry.
pub fn board_game(view: &GameView) -> Result<crate::game::save::LoadedGame, String> {
    let scenario =
        super::user_scenarios::scenario_of(&view.scenario, &view.scenario_text, view.ruleset_text.as_deref())?;
    let mut game = crate::game::save::LoadedGame::new(scenario, 0);
    game.edition = view.edition;
    game.automatic_after_combat = true;
    Ok(game)
}

/// Starts the game in `world` again and carries out `entries` (after a reveal or an undo): how
/// many hashes were checked.
pub fn replay_entries(world: &mut World, entries: &[EntryView]) -> Result<usize, String> {
    let origin = world.resource::<crate::game::start::GameOrigin>().clone();
    crate::game::start::respawn(world, &origin.scenario, origin.seed);
    world.write_message(crate::game::undo::GameRebuilt);
    let mut checked = 0;
    for e in entries {
        checked += usize::from(apply(world, e)?);
    }
    Ok(checked)
}

/// Carries out `entry` with the dice it names and compares the outcome with the server's:
/// whether its hash was checked (a hidden entry's cannot be until its reveal).
pub fn apply(world: &mut World, entry: &EntryView) -> Result<bool, String> {
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

/// Checks a finished online game's dice from what this client holds: the secret revealed at the
/// end matches the commitment published at the start, and the seed it gives with the seats'
/// contributions (and each roll's chain link) rolls every die of every entry as the server
/// rolled it, to the same state hashes. Returns the dice checked and the game as a save that
/// replays anywhere (`hexfront replay --verify` checks its proof), or what does not check.
pub fn verify_dice(view: &GameView, entries: &[EntryView], secret: &str) -> Result<DiceChecked, String> {
    use crate::game::dice_proof;
    let secret_bytes = dice_proof::from_hex(secret).map_err(|e| format!("the secret revealed: {e}"))?;
    if dice_proof::commitment(&secret_bytes) != view.commitment {
        return Err(format!(
            "the secret revealed at the end does not match the commitment published at the start ({})",
            view.commitment
        ));
    }
    let contributions = view
        .contributions
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let c = c
                .as_deref()
                .ok_or_else(|| format!("seat {} gave no contribution", i + 1))?;
            dice_proof::from_hex(c).map_err(|e| format!("seat {}'s contribution: {e}", i + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let seed = dice_proof::seed(&secret_bytes, &contributions);
    let scenario =
        super::user_scenarios::scenario_of(&view.scenario, &view.scenario_text, view.ruleset_text.as_deref())?;
    let mut app = crate::game::headless_app(&scenario, seed);
    crate::game::start::set_edition(app.world_mut(), view.edition);
    let world = app.world_mut();
    let mut dice = 0;
    for e in entries {
        let issued = IssuedOrder {
            side: e.side.clone(),
            order: e.order.clone(),
            link: e.link.clone(),
        };
        let at = execute(world, issued).map_err(|r| format!("entry {}: refused here: {}", e.index + 1, r.reason))?;
        let got = &world.resource::<OrderLog>().entries[at];
        if got.dice != e.dice {
            return Err(format!(
                "entry {} ({}): the committed seed rolls {}, the server rolled {}",
                e.index + 1,
                e.words,
                got.dice_words(),
                e.dice.iter().map(|d| d.face.to_string()).collect::<Vec<_>>().join(",")
            ));
        }
        if got.hash != e.hash {
            return Err(format!("entry {} ({}): the state hash differs", e.index + 1, e.words));
        }
        dice += e.dice.len();
    }
    let mut saved = crate::game::save::saved_game(world);
    saved.online = Some(dice_proof::DiceProof {
        commitment: view.commitment.clone(),
        contributions: view.contributions.iter().flatten().cloned().collect(),
        secret: secret.to_string(),
        chain_end: view.chain_ends.iter().flatten().next().cloned(),
    });
    saved.seed = seed;
    Ok(DiceChecked { dice, saved })
}

/// A finished online game whose dice checked.
#[derive(Clone, Debug)]
pub struct DiceChecked {
    /// Dice rolled again from the committed secret.
    pub dice: usize,
    /// The game as a save, with its dice proof.
    pub saved: crate::game::save::SavedGame,
}
