//! The desktop client's link to a server, off the frame: a task on the network runtime connects,
//! says hello, logs in (registering once; the caller keeps the token), follows one game and sends
//! what the window asks; what the server says comes back as events the window reads without
//! waiting (`poll`). A lost connection is tried again after a growing pause and the game followed
//! is caught up where the window stands (`ledger`); an order in flight is sent again, and the
//! server answers it rather than carrying it out twice. A server of another release is refused
//! once, not tried again until asked.

mod ledger;
mod session;

pub use ledger::Ledger;

use super::protocol::{ClientMessage, ObserverDelay, Opponent, ServerMessage, TurnTime};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::mpsc as async_mpsc;

/// The runtime the client's network work (and a server hosted in the client) runs on: two
/// threads of its own, never the frame's.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("hexfront-net")
            .enable_all()
            .build()
            .expect("the operating system gives threads")
    })
}

/// Who connects where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The server as typed: `host:port`, `ws://host:port` or `ws://host:port/ws`.
    pub address: String,
    /// The display name a new player registers with.
    pub name: String,
    /// The player's token, once registered.
    pub token: Option<String>,
    /// Where the hash chains of games joined are written (`None`: kept in memory only).
    pub chains: Option<PathBuf>,
}

/// The WebSocket URL of a server address as a player types it, or what is wrong with it.
pub fn socket_url(address: &str) -> Result<String, String> {
    let a = address.trim().trim_end_matches('/');
    if a.is_empty() {
        return Err("type the server's address, e.g. 192.168.1.20:7878".into());
    }
    if a.starts_with("wss://") || a.starts_with("https://") {
        return Err(format!(
            "{a}: this client speaks plain ws:// only (no TLS yet); connect to the server's own port, or through a VPN"
        ));
    }
    let bare = a.trim_start_matches("ws://").trim_start_matches("http://");
    let bare = bare.strip_suffix("/ws").unwrap_or(bare);
    if bare.contains('/') || bare.contains(char::is_whitespace) {
        return Err(format!("{a}: an address is a host and a port, e.g. 192.168.1.20:7878"));
    }
    let with_port = if bare.rsplit_once(':').is_some_and(|(_, p)| p.parse::<u16>().is_ok()) {
        bare.to_string()
    } else {
        format!("{bare}:7878")
    };
    Ok(format!("ws://{with_port}/ws"))
}

/// How the connection stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkState {
    Connecting {
        attempt: u32,
    },
    /// Connected and logged in.
    Online,
    /// Lost (or never made): tried again in `retry_in`.
    Lost {
        why: String,
        retry_in: Duration,
    },
    /// The server refused (another release, a token it does not know): not tried again until
    /// `Command::Retry`.
    Refused(String),
}

/// What the window asks of the link.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Makes a game (the random contribution to its dice is added here) and follows it.
    Create {
        scenario: String,
        side: String,
        opponent: Opponent,
        observer_delay: ObserverDelay,
        turn_time: Option<TurnTime>,
    },
    /// Takes the free seat of a game (with its invite code, if it has one) and follows it.
    Join { game: String, invite: Option<String> },
    /// Follows a game from its start: one of this player's, or one to watch.
    Follow { game: String },
    /// Stops following (the window left the game).
    Unfollow,
    /// An order for the followed game, given when its log holds `expect` entries.
    Order {
        expect: usize,
        order: crate::game::order::Order,
    },
    /// Takes back this player's last order of the followed game.
    Undo { expect: usize },
    /// A line in the followed game's chat.
    Chat { text: String },
    /// Asks for the lists (`ServerMessage::Games`).
    Games,
    /// Uploads a scenario of the player's (with the ruleset file it names), for games of it.
    Upload(super::user_scenarios::UploadRequest),
    /// Connects now (after a refusal, or without waiting out the pause).
    Retry,
}

/// What the link tells the window (a server message is large; events are few, so unboxed).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Link(LinkState),
    /// A new player was registered: the token to keep (shown nowhere).
    Registered {
        player: String,
        token: String,
    },
    LoggedIn {
        player: String,
        name: String,
    },
    /// What the server said, in order; the followed game's entries each once (`Ledger`).
    Server(ServerMessage),
    /// Something went wrong that the window should say (with what to do).
    Trouble(String),
    /// A scenario uploaded: the id `Command::Create` takes.
    Uploaded {
        scenario: String,
    },
}

/// A link to a server, running until dropped.
pub struct Remote {
    commands: async_mpsc::UnboundedSender<Command>,
    /// Behind a lock only so that the window's resource holding the link may be shared.
    events: std::sync::Mutex<mpsc::Receiver<Event>>,
    task: tokio::task::JoinHandle<()>,
}

/// Called after each event is sent (the window wakes to read it).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

impl Remote {
    /// Starts linking to `account`'s server, saying hello as this release.
    pub fn start(account: Account, waker: Option<Waker>) -> Self {
        Self::start_as(
            account,
            waker,
            super::protocol::PROTOCOL,
            crate::version::VERSION.into(),
        )
    }

    /// `start`, saying hello with this protocol number and version (the tests pose as another
    /// release).
    pub fn start_as(account: Account, waker: Option<Waker>, protocol: u32, version: String) -> Self {
        let (commands, received) = async_mpsc::unbounded_channel();
        let (sender, events) = mpsc::channel();
        let out = session::Out { sender, waker };
        let task = runtime().spawn(session::run(account, received, out, (protocol, version)));
        Self {
            commands,
            events: std::sync::Mutex::new(events),
            task,
        }
    }

    pub fn send(&self, command: Command) {
        let _ = self.commands.send(command);
    }

    /// The events since the last call, without waiting.
    pub fn poll(&self) -> Vec<Event> {
        self.events.lock().map(|e| e.try_iter().collect()).unwrap_or_default()
    }

    /// The next event, waiting up to `timeout` (tests).
    pub fn wait(&self, timeout: Duration) -> Option<Event> {
        self.events.lock().ok()?.recv_timeout(timeout).ok()
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The pause before connecting again after `attempt` failures: half a second, doubling to four.
pub fn pause_after(attempt: u32) -> Duration {
    Duration::from_millis((500u64 << attempt.min(4).saturating_sub(1)).min(5_000))
}

/// The server's HTTP address for a WebSocket URL (`ws://h:p/ws` → `http://h:p`).
fn http_base(url: &str) -> String {
    let bare = url.trim_start_matches("ws://");
    format!("http://{}", bare.strip_suffix("/ws").unwrap_or(bare))
}

/// `POST /api/scenarios`: the id of the scenario uploaded, or the server's refusal in its words.
async fn upload(
    url: &str,
    token: Option<&str>,
    request: &super::user_scenarios::UploadRequest,
) -> Result<String, String> {
    let token = token.ok_or("log in first: an upload is a player's")?;
    let client = reqwest::Client::builder()
        .tls_backend_preconfigured(super::notice::tls()?)
        .no_proxy()
        .timeout(Duration::from_secs(60))
        .build()
        .map_err(|e| format!("upload: {e}"))?;
    let answer = client
        .post(format!("{}/api/scenarios", http_base(url)))
        .bearer_auth(token)
        .json(request)
        .send()
        .await
        .map_err(|e| format!("upload: the server did not answer ({e})"))?;
    let ok = answer.status().is_success();
    let body: serde_json::Value = answer.json().await.map_err(|e| format!("upload: {e}"))?;
    let field = |name: &str| body.get(name).and_then(|v| v.as_str()).map(str::to_string);
    match (ok, field("scenario"), field("message")) {
        (true, Some(id), _) => Ok(id),
        (_, _, Some(message)) => Err(message),
        _ => Err(format!("upload: an answer this client does not read: {body}")),
    }
}

/// A message a client sends to create a game, with its contribution to the dice.
fn create_message(command: &Command) -> Option<ClientMessage> {
    let Command::Create {
        scenario,
        side,
        opponent,
        observer_delay,
        turn_time,
    } = command
    else {
        return None;
    };
    Some(ClientMessage::Create {
        scenario: scenario.clone(),
        side: side.clone(),
        opponent: opponent.clone(),
        contribution: super::client::contribution(),
        observer_delay: *observer_delay,
        turn_time: *turn_time,
        chain: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_as_typed_become_socket_urls_or_say_what_is_wrong() {
        assert_eq!(socket_url("192.168.1.20:7878").unwrap(), "ws://192.168.1.20:7878/ws");
        assert_eq!(socket_url(" example.org ").unwrap(), "ws://example.org:7878/ws");
        assert_eq!(socket_url("ws://h:9/ws/").unwrap(), "ws://h:9/ws");
        assert_eq!(socket_url("http://h:9").unwrap(), "ws://h:9/ws");
        assert!(socket_url("").unwrap_err().contains("type the server's address"));
        assert!(socket_url("wss://h").unwrap_err().contains("no TLS"));
        assert!(socket_url("h:9/x").unwrap_err().contains("a host and a port"));
        let pauses: Vec<u64> = (1..=6).map(|a| pause_after(a).as_millis() as u64).collect();
        assert_eq!(pauses, [500, 1000, 2000, 4000, 4000, 4000]);
    }
}
