//! The messages of online play, as JSON over a WebSocket (`/ws`): what a client may send, what
//! the server answers and pushes. Every message is an object with a `type` field; the first one a
//! client sends is `hello`, naming the protocol number and the package version.

use crate::game::hash::StateHash;
use crate::game::log::DieRecord;
use crate::game::order::Order;
use crate::game::order_options::OrderOptions;
use serde::{Deserialize, Serialize};

/// The protocol number: a client and a server must have the same (the dice and hashes come from
/// the same engine).
pub const PROTOCOL: u32 = 3;

/// The largest frame either side accepts (scenario uploads go by HTTP).
pub const MAX_FRAME: usize = 64 * 1024;

/// Each WebSocket's read and write buffers, on both sides (they grow for a larger frame). The
/// library's default, 128 KiB each, cost a server with 6,000 connections 1.5 GiB, filled in as
/// play began: seconds of page faults before the first orders were answered.
pub const SOCKET_BUFFER: usize = 4 * 1024;

/// Who takes the seat the creator of a game does not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Opponent {
    /// Anyone with the invite code.
    Invite,
    /// Anyone: the game is listed as open.
    Open,
    /// The server's computer player at this level (`novice`, `standard`, `expert`).
    Computer(String),
}

/// How far behind the players a game's observers are held (everyone not seated): set when the
/// game is made, enforced by the server for everything observers receive. Once the game is
/// over they see it all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObserverDelay {
    /// Observers see each entry as it is made.
    #[default]
    None,
    /// Observers see a turn's entries once the next turn has begun.
    OneTurn,
    /// Observers see each entry this many seconds after it was made.
    Seconds(u32),
}

/// A limit on how long the game waits for a side (from the moment the game turns to it until it
/// hands the game on): when it lapses both players are told, once a wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnTime {
    /// Seconds a side may take (86400: a day).
    pub seconds: u32,
    /// Whether a side that lets the time lapse concedes the game (off: the players are only told).
    #[serde(default)]
    pub concede: bool,
}

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: the protocol number and the package version.
    Hello { protocol: u32, version: String },
    /// Makes a new player (a display name); the answer carries its token, shown once.
    Register { name: String },
    /// Binds this connection to the player whose token this is.
    Login { token: String },
    /// Makes a game of a shipped scenario (its file name without `.ron`, e.g. `mortain-1944`),
    /// taking the side `side` (an id) with this random contribution to the dice (64 hex digits).
    Create {
        scenario: String,
        side: String,
        opponent: Opponent,
        contribution: String,
        /// How far behind observers are held (default: not at all).
        #[serde(default)]
        observer_delay: ObserverDelay,
        /// A limit on each side's wait (default: none).
        #[serde(default)]
        turn_time: Option<TurnTime>,
        /// Hash-chained dice, for a game hosted by one of its players (who could read the
        /// server's secret): the joining player's client reveals a link of its hash chain for
        /// each order that rolls, once that order is fixed. Left out: the server's default (on
        /// for a server a player runs on their own computer, against another player).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chain: Option<bool>,
    },
    /// Takes the free seat of a game (the invite code, when it has one).
    Join {
        game: String,
        #[serde(default)]
        invite: Option<String>,
        contribution: String,
        /// The end of this client's hash chain (64 hex digits), for a game with hash-chained
        /// dice: each link it reveals later must hash to the one before, the first to this.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chain_end: Option<String>,
    },
    /// Follows a game from entry `since` on (0: from the start): its description, then every
    /// entry as this connection may see it, then each new one as it is accepted.
    Watch { game: String, since: usize },
    /// An order for the seat this player holds, given when the log has `expect` entries: sent
    /// again after a lost connection, it is answered, not carried out twice.
    Order { game: String, expect: usize, order: Order },
    /// The orders the game takes now: whose they are, by kind, with each field's allowed values.
    Options { game: String },
    /// A line in the game's chat: the players' room for a seated player, the observers' for
    /// anyone else logged in.
    Chat { game: String, text: String },
    /// Takes back this player's last order when the log has `expect` entries, as undo does in a
    /// local game: back to the last die rolled, secret revealed or defender's answer.
    Undo { game: String, expect: usize },
    /// Sets this player's "your turn" webhook (a URL taking a Discord-style JSON POST), or with
    /// `null` clears it: a notice comes when a game waits for you and you are not connected.
    Webhook { url: Option<String> },
    /// The next link of this player's hash chain, for the order at `index` that the server
    /// asked a link for (`link_wanted`) in a game with hash-chained dice.
    Link { game: String, index: usize, link: String },
    /// The lists a client's start screen shows: this player's games (none before logging in),
    /// the open games to join, the live games to watch.
    Games,
}

/// One of a player's games, as the client's My games lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MyGame {
    pub game: String,
    /// The scenario's file name without `.ron` (a shipped one, or an uploaded one's id).
    pub scenario: String,
    /// The seat this player holds: its index among the scenario's sides.
    pub seat: usize,
    /// Who sits in the other seat: a player's name, `computer (LEVEL)`, `None` while free.
    pub opponent: Option<String>,
    /// Whether that player has a connection open to this server now.
    pub opponent_online: bool,
    /// The invite code, while the other seat waits for the player who has it.
    pub invite: Option<String>,
    /// The side the game waits for (id), and since when (milliseconds since 1970).
    pub waiting_side: Option<String>,
    pub waiting_since: Option<i64>,
    /// Whether the game waits for this player.
    pub your_turn: bool,
    /// Entries in its log.
    pub entries: usize,
    pub ended: bool,
    /// When it was made (milliseconds since 1970).
    pub created: i64,
}

/// A game anyone may join or watch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListedGame {
    pub game: String,
    pub scenario: String,
    /// Who sits in each seat, by side: a player's name, `computer (LEVEL)`, `None` while free.
    pub seats: Vec<Option<String>>,
    pub entries: usize,
    pub created: i64,
}

/// A seat of a game, as everybody may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatView {
    /// The side's id and name.
    pub side: String,
    pub name: String,
    /// Who sits there: a player's display name, `computer (LEVEL)`, or `None` while free.
    pub taken_by: Option<String>,
}

/// A game as a client needs it to follow the play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameView {
    pub game: String,
    /// The scenario's file name without `.ron` (a shipped one, or an uploaded one's) and
    /// display name.
    pub scenario: String,
    pub scenario_name: String,
    /// The scenario's text as the game was made from it (RON).
    pub scenario_text: String,
    /// The user ruleset's text, for an uploaded scenario that names one (RON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset_text: Option<String>,
    /// The rules edition the game is played under.
    pub edition: u32,
    pub seats: Vec<SeatView>,
    /// The BLAKE3 commitment to the server's secret, published when the game was made.
    pub commitment: String,
    /// Each seat's contribution to the dice, by side (`None` while the seat is free).
    pub contributions: Vec<Option<String>>,
    /// The side this connection plays, if any.
    pub you: Option<String>,
    /// Whether both seats are taken and play has begun.
    pub started: bool,
    /// How far behind the players observers are held.
    #[serde(default)]
    pub observer_delay: ObserverDelay,
    /// The limit on each side's wait, if the game has one.
    #[serde(default)]
    pub turn_time: Option<TurnTime>,
    /// Whether the dice are hash-chained (a game hosted by one of its players): the player
    /// holding the chain must be connected when an order rolls.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chained: bool,
    /// Each seat's committed hash-chain end, by side (the joining player's, in a chained game).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chain_ends: Vec<Option<String>>,
}

/// One accepted order, as a connection may see it. While it holds a secret of another side
/// (Rommel's hidden tactics) it is `hidden` and `order` leaves the secret out; `revealed` brings
/// the whole order later, and only then can its hash be checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryView {
    pub index: usize,
    /// The side that gave it (id).
    pub side: String,
    pub order: Order,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// The order in words as this connection may read them.
    pub words: String,
    /// The dice rolled while carrying it out (their faces: a client applies the entry with them).
    pub dice: Vec<DieRecord>,
    /// The state hash after it.
    pub hash: StateHash,
    /// The hash-chain link its dice were drawn with (a game with hash-chained dice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMessage {
    Welcome {
        protocol: u32,
        version: String,
    },
    Registered {
        player: String,
        token: String,
    },
    LoggedIn {
        player: String,
        name: String,
    },
    Created {
        game: String,
        invite: Option<String>,
        commitment: String,
    },
    Joined {
        game: String,
        side: String,
    },
    /// The game followed, before its entries.
    Game(GameView),
    Entry {
        game: String,
        entry: EntryView,
    },
    /// A hidden part of an earlier entry, now that the rules reveal it.
    Revealed {
        game: String,
        index: usize,
        order: Order,
        words: String,
    },
    /// The orders the game takes now (when the log has `expect` entries), and whether they are
    /// this connection's to give.
    Options {
        game: String,
        expect: usize,
        yours: bool,
        options: OrderOptions,
    },
    /// The order sent with `expect` is entry `index` of the log.
    Accepted {
        game: String,
        index: usize,
    },
    /// An order refused, with the rule that refuses it; nothing changed.
    Refused {
        game: String,
        expect: usize,
        reason: String,
    },
    /// The game is over: who won and why, and the server's secret (64 hex digits), so anyone can
    /// check the dice against the commitment.
    Ended {
        game: String,
        winner: Option<String>,
        reason: String,
        secret: String,
    },
    /// The game has waited for `side` longer than its time per turn (`waited` seconds so far);
    /// `conceded` when the game was made so that this ends it.
    TimeLapsed {
        game: String,
        side: String,
        waited: u64,
        conceded: bool,
    },
    /// A chat line: its room (`players` or `observers`), who wrote it, when (milliseconds since
    /// 1970).
    Chat {
        game: String,
        room: String,
        from: String,
        text: String,
        at: i64,
    },
    /// The log was cut back to `index` entries by an undo (the last order taken back), to
    /// everyone following the game: drop what you hold from there and replay.
    Undone {
        game: String,
        index: usize,
    },
    /// Your undo was carried out: the log now holds `index` entries.
    TakenBack {
        game: String,
        index: usize,
    },
    /// To the player holding a game's hash chain: the order that will be entry `index` is fixed
    /// and rolls dice; send the next link of your chain (`link`). `order` is that order as you
    /// may see it: the entry that comes must carry it, and your link.
    LinkWanted {
        game: String,
        index: usize,
        side: String,
        order: Order,
        words: String,
    },
    /// Your order is fixed as entry `index` and rolls dice: it waits for the link of the player
    /// holding the game's hash chain, and its entry comes when the link does.
    Held {
        game: String,
        index: usize,
    },
    /// Your link was taken: entry `index` was carried out with it.
    LinkTaken {
        game: String,
        index: usize,
    },
    /// The answer to `games`: the newest 50 of each list.
    Games {
        mine: Vec<MyGame>,
        open: Vec<ListedGame>,
        live: Vec<ListedGame>,
    },
    /// The player's webhook as it now stands.
    WebhookSet {
        url: Option<String>,
    },
    /// A message the server could not take: what was wrong with it.
    Error {
        message: String,
    },
}

impl ClientMessage {
    /// Reads a client's frame, or says what is wrong with it (naming the field, if serde does).
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.len() > MAX_FRAME {
            return Err(format!("message of {} bytes: the limit is {MAX_FRAME}", text.len()));
        }
        serde_json::from_str(text).map_err(|e| format!("not a message this server knows: {e}"))
    }
}

impl ServerMessage {
    pub fn parse(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("not a message this client knows: {e}"))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_and_garbage_is_named() {
        let order = ClientMessage::Order {
            game: "g1".into(),
            expect: 3,
            order: Order::EndPhase,
        };
        let text = serde_json::to_string(&order).unwrap();
        assert_eq!(text, r#"{"type":"order","game":"g1","expect":3,"order":"EndPhase"}"#);
        assert_eq!(ClientMessage::parse(&text), Ok(order));
        assert!(ClientMessage::parse("{").unwrap_err().contains("not a message"));
        assert!(
            ClientMessage::parse(r#"{"type":"order","game":"g","expect":1,"order":"Fly"}"#)
                .unwrap_err()
                .contains("Fly")
        );
        assert!(
            ClientMessage::parse(&"x".repeat(MAX_FRAME + 1))
                .unwrap_err()
                .contains("limit")
        );
        let hello = ServerMessage::Welcome {
            protocol: PROTOCOL,
            version: "0.1.0".into(),
        };
        assert_eq!(ServerMessage::parse(&hello.to_json()), Ok(hello));
    }
}
