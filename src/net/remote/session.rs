//! The link's task: connections one after another (a pause between), and within one the login,
//! the game followed again, and the select loop between the window's commands, the server's
//! messages and a heartbeat that notices a server gone silent.

use super::ledger::Ledger;
use super::{Account, Command, Event, LinkState, Waker, create_message, pause_after, socket_url};
use crate::net::client::{CHAIN_LENGTH, ChainHolder, Client, SavedChain, Unwelcome, contribution, link_answer};
use crate::net::protocol::{ClientMessage, ServerMessage};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;

/// How often the link checks on the server; silence for `SILENCE` counts as a lost connection.
const BEAT: Duration = Duration::from_secs(3);
const SILENCE: Duration = Duration::from_secs(10);

/// Where events go.
#[derive(Clone)]
pub(super) struct Out {
    pub sender: std::sync::mpsc::Sender<Event>,
    pub waker: Option<Waker>,
}

impl Out {
    fn send(&self, event: Event) {
        let _ = self.sender.send(event);
        if let Some(wake) = &self.waker {
            wake();
        }
    }
}

/// How a connection ended.
enum Ended {
    /// The window dropped the link.
    Closed,
    Lost(String),
    Refused(String),
}

/// What the link remembers across connections.
struct Link {
    account: Account,
    url: String,
    hello: (u32, String),
    out: Out,
    ledger: Option<Ledger>,
    /// An order or undo sent and not yet answered: sent again on a new connection.
    pending: Option<ClientMessage>,
    /// Joining a game: (game, invite), waiting for its description to know whether it chains
    /// its dice; then the chain made for it, waiting for `joined`.
    joining: Option<(String, Option<String>)>,
    joining_chain: Option<ChainHolder>,
    logged_in: bool,
}

pub(super) async fn run(account: Account, mut commands: UnboundedReceiver<Command>, out: Out, hello: (u32, String)) {
    let url = match socket_url(&account.address) {
        Ok(url) => url,
        Err(why) => {
            out.send(Event::Link(LinkState::Refused(why)));
            return;
        }
    };
    let mut link = Link {
        account,
        url,
        hello,
        out,
        ledger: None,
        pending: None,
        joining: None,
        joining_chain: None,
        logged_in: false,
    };
    let mut attempt = 0;
    loop {
        link.out.send(Event::Link(LinkState::Connecting { attempt }));
        let opened = tokio::time::timeout(SILENCE, Client::open(&link.url, link.hello.0, &link.hello.1))
            .await
            .unwrap_or_else(|_| {
                Err(Unwelcome::Unreachable(format!(
                    "no welcome within {} s",
                    SILENCE.as_secs()
                )))
            });
        let ended = match opened {
            Ok(client) => {
                attempt = 0;
                link.connected(client, &mut commands).await
            }
            Err(Unwelcome::Unreachable(why)) => Ended::Lost(format!(
                "the server at {} is not answering ({why})",
                link.account.address.trim()
            )),
            Err(Unwelcome::Refused(why)) => Ended::Refused(why),
        };
        link.logged_in = false;
        let wait = match ended {
            Ended::Closed => return,
            Ended::Refused(why) => {
                link.out.send(Event::Link(LinkState::Refused(why)));
                None
            }
            Ended::Lost(why) => {
                attempt += 1;
                let pause = pause_after(attempt);
                link.out.send(Event::Link(LinkState::Lost { why, retry_in: pause }));
                Some(pause)
            }
        };
        if !link.wait_away(wait, &mut commands).await {
            return;
        }
    }
}

impl Link {
    /// Between connections: waits out the pause (`None`: until `Retry`), keeping an order given
    /// meanwhile to send once connected. False when the window dropped the link.
    async fn wait_away(&mut self, pause: Option<Duration>, commands: &mut UnboundedReceiver<Command>) -> bool {
        let until = pause.map(|p| tokio::time::Instant::now() + p);
        loop {
            let command = match until {
                Some(t) => match tokio::time::timeout_at(t, commands.recv()).await {
                    Ok(c) => c,
                    Err(_) => return true,
                },
                None => commands.recv().await,
            };
            match command {
                None => return false,
                Some(Command::Retry) => return true,
                Some(c @ (Command::Order { .. } | Command::Undo { .. })) => self.pending = self.game_message(&c),
                Some(Command::Follow { game }) => self.ledger = Some(self.ledger_for(game)),
                Some(Command::Unfollow) => self.ledger = None,
                Some(Command::Games) => {}
                Some(_) => self.out.send(Event::Trouble(
                    "not connected to the server: this waits until the connection is back".into(),
                )),
            }
        }
    }

    /// One connection, until it ends.
    async fn connected(&mut self, mut client: Client, commands: &mut UnboundedReceiver<Command>) -> Ended {
        let first = match &self.account.token {
            Some(token) => ClientMessage::Login { token: token.clone() },
            None => ClientMessage::Register {
                name: self.account.name.clone(),
            },
        };
        if let Err(why) = client.send(&first).await {
            return Ended::Lost(why);
        }
        let mut beat = tokio::time::interval(BEAT);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let step = tokio::select! {
                command = commands.recv() => match command {
                    None => return Ended::Closed,
                    Some(c) => self.command(&mut client, c).await,
                },
                message = client.next() => match message {
                    Err(why) => return Ended::Lost(why),
                    Ok(m) => self.message(&mut client, m).await,
                },
                _ = beat.tick() => self.heartbeat(&mut client).await,
            };
            if let Err(ended) = step {
                client.close().await;
                return ended;
            }
        }
    }

    async fn heartbeat(&mut self, client: &mut Client) -> Result<(), Ended> {
        if client.last_heard.elapsed() > SILENCE {
            return Err(Ended::Lost(format!(
                "the server stopped answering (nothing heard for {} s)",
                SILENCE.as_secs()
            )));
        }
        client.ping().await.map_err(Ended::Lost)?;
        // Following a game: the lists again, for whether the opponent is connected.
        if self.ledger.is_some() && self.logged_in {
            client.send(&ClientMessage::Games).await.map_err(Ended::Lost)?;
        }
        // A game waiting for its second player: its description again, to see the seat taken.
        if let Some(l) = &self.ledger
            && self.logged_in
            && !l.started
        {
            let watch = ClientMessage::Watch {
                game: l.game.clone(),
                since: l.entries.len(),
            };
            client.send(&watch).await.map_err(Ended::Lost)?;
        }
        Ok(())
    }

    /// The order or undo of a command, for the followed game.
    fn game_message(&self, command: &Command) -> Option<ClientMessage> {
        let game = self.ledger.as_ref()?.game.clone();
        match command {
            Command::Order { expect, order } => Some(ClientMessage::Order {
                game,
                expect: *expect,
                order: order.clone(),
            }),
            Command::Undo { expect } => Some(ClientMessage::Undo { game, expect: *expect }),
            Command::Chat { text } => Some(ClientMessage::Chat {
                game,
                text: text.clone(),
            }),
            _ => None,
        }
    }

    async fn command(&mut self, client: &mut Client, command: Command) -> Result<(), Ended> {
        let message = match &command {
            Command::Create { .. } => create_message(&command),
            Command::Join { game, invite } => {
                self.joining = Some((game.clone(), invite.clone()));
                self.ledger = None;
                Some(ClientMessage::Watch {
                    game: game.clone(),
                    since: 0,
                })
            }
            Command::Follow { game } => {
                self.ledger = Some(self.ledger_for(game.clone()));
                return self.follow_from_start(client, game.clone()).await;
            }
            Command::Unfollow => {
                self.ledger = None;
                None
            }
            Command::Order { .. } | Command::Undo { .. } => {
                self.pending = self.game_message(&command);
                self.pending.clone()
            }
            Command::Chat { .. } => self.game_message(&command),
            Command::Games => Some(ClientMessage::Games),
            Command::Retry => None,
            Command::Upload(request) => {
                // Over HTTP, off this loop: the link goes on meanwhile.
                let (out, url, token, request) = (
                    self.out.clone(),
                    self.url.clone(),
                    self.account.token.clone(),
                    request.clone(),
                );
                tokio::spawn(async move {
                    out.send(match super::upload(&url, token.as_deref(), &request).await {
                        Ok(scenario) => Event::Uploaded { scenario },
                        Err(why) => Event::Trouble(why),
                    });
                });
                None
            }
        };
        match message {
            Some(m) => client.send(&m).await.map_err(Ended::Lost),
            None => Ok(()),
        }
    }

    async fn message(&mut self, client: &mut Client, message: ServerMessage) -> Result<(), Ended> {
        match message {
            ServerMessage::Registered { player, token } => {
                self.account.token = Some(token.clone());
                self.out.send(Event::Registered { player, token });
                self.logged_in(client).await
            }
            ServerMessage::LoggedIn { player, name } => {
                self.out.send(Event::LoggedIn { player, name });
                self.logged_in(client).await
            }
            ServerMessage::Error { message } if !self.logged_in => Err(Ended::Refused(format!(
                "the server refused this player: {message}. Register again (clear the token in the Online tab) or import the token file you exported"
            ))),
            ServerMessage::Error { message } => {
                self.pending = None;
                if self.joining.take().is_some() {
                    self.joining_chain = None;
                }
                self.out.send(Event::Server(ServerMessage::Error { message }));
                Ok(())
            }
            ServerMessage::Game(view) if self.joining.as_ref().is_some_and(|(g, _)| *g == view.game) => {
                self.join(client, view).await
            }
            ServerMessage::Joined { game, side } => {
                self.joining = None;
                let mut ledger = Ledger::new(game.clone());
                ledger.chain = self.joining_chain.take();
                if let Some(chain) = &ledger.chain {
                    self.save_chain(&game, chain);
                }
                self.ledger = Some(ledger);
                self.out.send(Event::Server(ServerMessage::Joined {
                    game: game.clone(),
                    side,
                }));
                client
                    .send(&ClientMessage::Watch { game, since: 0 })
                    .await
                    .map_err(Ended::Lost)
            }
            ServerMessage::Created {
                game,
                invite,
                commitment,
            } => {
                self.ledger = Some(Ledger::new(game.clone()));
                self.out.send(Event::Server(ServerMessage::Created {
                    game: game.clone(),
                    invite,
                    commitment,
                }));
                self.follow_from_start(client, game).await
            }
            m @ ServerMessage::LinkWanted { .. } => self.give_link(client, &m).await,
            m @ (ServerMessage::Accepted { .. } | ServerMessage::Refused { .. } | ServerMessage::TakenBack { .. }) => {
                self.pending = None;
                self.out.send(Event::Server(m));
                Ok(())
            }
            m => self.game_message_in(client, m).await,
        }
    }

    /// A message of a game: through the ledger when it is the followed game's.
    async fn game_message_in(&mut self, client: &mut Client, m: ServerMessage) -> Result<(), Ended> {
        let Some(ledger) = self.ledger.as_mut().filter(|l| l.concerns(&m)) else {
            let of_a_game = matches!(
                m,
                ServerMessage::Entry { .. } | ServerMessage::Revealed { .. } | ServerMessage::Undone { .. }
            );
            if !of_a_game {
                self.out.send(Event::Server(m));
            }
            return Ok(());
        };
        if let ServerMessage::Game(view) = &m
            && ledger.chain.is_none()
            && view.chained
        {
            ledger.chain = load_chain(self.account.chains.as_deref(), &view.game, &self.url);
        }
        match ledger.take(m) {
            Ok(out) => {
                for m in out {
                    self.out.send(Event::Server(m));
                }
                Ok(())
            }
            Err(why) => {
                // Follow again from the start: the ledger passes on only what differs.
                ledger.resyncing = true;
                let game = ledger.game.clone();
                self.out
                    .send(Event::Trouble(format!("caught up with the game again: {}", why.0)));
                self.follow_from_start(client, game).await
            }
        }
    }

    /// Follows `game` from its start; the answer to `options` after it marks the catch-up's end.
    async fn follow_from_start(&mut self, client: &mut Client, game: String) -> Result<(), Ended> {
        let watch = ClientMessage::Watch {
            game: game.clone(),
            since: 0,
        };
        client.send(&watch).await.map_err(Ended::Lost)?;
        client.send(&ClientMessage::Options { game }).await.map_err(Ended::Lost)
    }

    /// Logged in: the game followed is followed again from its start (only what changed comes
    /// through) and an order left unanswered is sent again.
    async fn logged_in(&mut self, client: &mut Client) -> Result<(), Ended> {
        self.logged_in = true;
        self.out.send(Event::Link(LinkState::Online));
        if let Some(l) = &mut self.ledger {
            l.resyncing = true;
            let game = l.game.clone();
            self.follow_from_start(client, game).await?;
        }
        if let Some(m) = self.pending.clone() {
            client.send(&m).await.map_err(Ended::Lost)?;
        }
        Ok(())
    }

    /// The description of the game being joined came: join it, with a chain when it chains its
    /// dice (or follow it, when this player sits there already).
    async fn join(&mut self, client: &mut Client, view: crate::net::protocol::GameView) -> Result<(), Ended> {
        let (game, invite) = self.joining.clone().expect("joining");
        if view.you.is_some() {
            self.joining = None;
            self.ledger = Some(self.ledger_for(game.clone()));
            return self.follow_from_start(client, game).await;
        }
        let chain = view.chained.then(|| ChainHolder::new(CHAIN_LENGTH));
        let message = ClientMessage::Join {
            game,
            invite,
            contribution: contribution(),
            chain_end: chain.as_ref().map(|c| c.end().to_string()),
        };
        self.joining_chain = chain;
        client.send(&message).await.map_err(Ended::Lost)
    }

    async fn give_link(&mut self, client: &mut Client, m: &ServerMessage) -> Result<(), Ended> {
        let Some(ledger) = self
            .ledger
            .as_mut()
            .filter(|l| matches!(m, ServerMessage::LinkWanted { game, .. } if *game == l.game))
        else {
            return Ok(());
        };
        match link_answer(&ledger.entries, ledger.you.as_deref(), ledger.chain.as_mut(), m) {
            Ok(Some(answer)) => {
                let game = ledger.game.clone();
                if let Some(chain) = &self.ledger.as_ref().and_then(|l| l.chain.as_ref()) {
                    self.save_chain(&game, chain);
                }
                client.send(&answer).await.map_err(Ended::Lost)
            }
            Ok(None) => Ok(()),
            Err(why) => {
                self.out
                    .send(Event::Trouble(format!("no link given for the dice: {why}")));
                Ok(())
            }
        }
    }

    /// A ledger for following `game` from its start, with this client's chain for it if one
    /// was written down.
    fn ledger_for(&self, game: String) -> Ledger {
        let mut ledger = Ledger::new(game.clone());
        ledger.chain = load_chain(self.account.chains.as_deref(), &game, &self.url);
        ledger
    }

    fn save_chain(&self, game: &str, chain: &ChainHolder) {
        let Some(dir) = &self.account.chains else { return };
        let path = chain_path(dir, game, &self.url);
        let text = serde_json::to_string(&chain.saved()).expect("a chain serializes");
        if let Err(e) = std::fs::create_dir_all(dir)
            .map_err(|e| e.to_string())
            .and_then(|_| crate::storage::write_atomic(&path, &text))
        {
            self.out.send(Event::Trouble(format!(
                "{}: the game's hash chain was not written ({e}); closing the client now would leave the game unable to roll",
                path.display()
            )));
        }
    }
}

/// Where the chain of `game` on the server at `url` is written.
fn chain_path(dir: &std::path::Path, game: &str, url: &str) -> std::path::PathBuf {
    let server: String = url
        .trim_start_matches("ws://")
        .trim_end_matches("/ws")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let game: String = game
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    dir.join(format!("{server}-{game}.json"))
}

fn load_chain(dir: Option<&std::path::Path>, game: &str, url: &str) -> Option<ChainHolder> {
    let text = std::fs::read_to_string(chain_path(dir?, game, url)).ok()?;
    let saved: SavedChain = serde_json::from_str(&text).ok()?;
    ChainHolder::from_saved(saved).ok()
}
