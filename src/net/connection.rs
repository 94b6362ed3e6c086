//! One WebSocket connection: reads the client's messages one by one, answers each (an error
//! names what was wrong and changes nothing), and follows the games it watches, sending each
//! entry as this connection's player may see it.

use super::chat;
use super::follow::{Follow, Start};
use super::live::{Job, Refusal};
use super::lobby;
use super::outbox::{Inbox, Outbox};
use super::protocol::{ClientMessage, ObserverDelay, Opponent, PROTOCOL, ServerMessage};
use super::rate::{self, Bucket};
use super::shared::Shared;
use crate::game::order::Order;
use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::oneshot;

/// What the server knows of a connection.
struct Conn {
    shared: Shared,
    out: Outbox,
    greeted: bool,
    /// (id, name) once registered or logged in.
    player: Option<(String, String)>,
    /// The games followed, each by a task of its own (a second `watch` of a game replaces the
    /// first).
    watching: std::collections::HashMap<String, tokio::task::JoinHandle<()>>,
    /// Messages this connection may still send.
    bucket: Bucket,
    /// A WebSocket connection (its player counts as connected), not one HTTP request.
    live: bool,
    /// Where it comes from, for the per-address limits (`None`: this machine, no limit).
    address: Option<std::net::IpAddr>,
}

/// Serves one connection until the client closes it.
pub async fn connection(socket: WebSocket, shared: Shared, address: Option<std::net::IpAddr>) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut outbox) = super::outbox::outbox(shared.outbox_limit);
    let writer = tokio::spawn(async move {
        while let Some(m) = outbox.recv().await {
            if sink.send(Message::Text(m.to_json().into())).await.is_err() {
                break;
            }
        }
    });
    let mut conn = Conn {
        shared,
        out,
        greeted: false,
        player: None,
        watching: Default::default(),
        bucket: rate::connection_bucket(),
        live: true,
        address,
    };
    let mut closing = conn.shared.closing.clone();
    let mut overflowed = false;
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            _ = closing.changed() => break,
            // The client does not read what it follows: cut it off.
            _ = conn.out.overflowed() => {
                overflowed = true;
                break;
            }
        };
        match frame {
            Some(Ok(Message::Text(text))) => conn.handle(text.as_str()).await,
            Some(Ok(Message::Binary(_))) => {
                conn.error("binary frames are not part of the protocol: send JSON text".into())
            }
            Some(Ok(Message::Close(_))) | None => break,
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                // A frame over the limit, or a broken connection: say so if it still listens.
                conn.error(format!("connection closed: {e}"));
                break;
            }
        }
    }
    for (_, w) in conn.watching.drain() {
        w.abort();
    }
    if let Some((id, _)) = &conn.player {
        conn.shared.set_online(id, false);
    }
    drop(conn);
    // What is queued goes out, unless the client stopped reading (then nothing will).
    let stop = writer.abort_handle();
    if overflowed || tokio::time::timeout(WRITER_GRACE, writer).await.is_err() {
        stop.abort();
    }
}

/// How long a closing connection's writer may take to send what is queued.
const WRITER_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// A connection for one HTTP request: greeted, its player found by `token`.
async fn http_conn(
    shared: Shared,
    token: Option<&str>,
    address: Option<std::net::IpAddr>,
) -> Result<(Conn, Inbox), String> {
    let (out, outbox) = super::outbox::outbox(shared.outbox_limit);
    let mut conn = Conn {
        shared,
        out,
        greeted: true,
        player: None,
        watching: Default::default(),
        bucket: rate::connection_bucket(),
        live: false,
        address,
    };
    if let Some(token) = token {
        let player = conn.shared.store.player_by_token(&lobby::token_hash(token)).await?;
        conn.player = Some(player.ok_or("Authorization: no player has this token")?);
    }
    Ok((conn, outbox))
}

/// One message over plain HTTP (`POST /api/request`), from the player whose token is given:
/// the answer a WebSocket would get (`None`: a chat line, which has none), or the error.
/// Following a game is the WebSocket's; HTTP reads it with `messages_since`.
pub async fn http_request(
    shared: Shared,
    token: Option<&str>,
    address: Option<std::net::IpAddr>,
    body: &str,
) -> Result<Option<ServerMessage>, String> {
    let message = ClientMessage::parse(body)?;
    if matches!(message, ClientMessage::Watch { .. } | ClientMessage::Hello { .. }) {
        return Err(
            "`watch` and `hello` are the WebSocket's: over HTTP read a game with GET /api/games/ID/messages?since=N"
                .into(),
        );
    }
    let (mut conn, mut outbox) = http_conn(shared, token, address).await?;
    if let Some((id, _)) = &conn.player
        && !conn.shared.player_allows(id, std::time::Instant::now())
    {
        return Err("too many messages from this player: at most 150 a second; this one was dropped".into());
    }
    conn.dispatch(message).await?;
    drop(conn);
    Ok(outbox.recv().await)
}

/// What `watch` would send for `game` from entry `since`, as the token's player may see it: the
/// game, its entries and reveals, the end, the chat's last lines.
pub async fn messages_since(
    shared: Shared,
    token: Option<&str>,
    game: String,
    since: usize,
) -> Result<Vec<ServerMessage>, String> {
    // The request counted against its address already (reading asks for no new player).
    let (mut conn, mut outbox) = http_conn(shared, token, None).await?;
    conn.watch(game, since).await?;
    for (_, w) in conn.watching.drain() {
        w.abort();
    }
    drop(conn);
    // Everything `watch` sends for the log so far is sent before it returns.
    let mut out = Vec::new();
    while let Some(m) = outbox.try_recv() {
        out.push(m);
    }
    Ok(out)
}

impl Conn {
    fn send(&self, m: ServerMessage) {
        let _ = self.out.send(m);
    }

    fn error(&self, message: String) {
        self.send(ServerMessage::Error { message });
    }

    async fn handle(&mut self, text: &str) {
        let now = std::time::Instant::now();
        if !self.bucket.allow(now) {
            return self.error("too many messages: at most 100 a second (200 at once); this one was dropped".into());
        }
        if let Some((id, _)) = &self.player
            && !self.shared.player_allows(id, now)
        {
            return self.error(
                "too many messages from this player: at most 150 a second over all connections; this one was dropped"
                    .into(),
            );
        }
        let message = match ClientMessage::parse(text) {
            Ok(m) => m,
            Err(e) => return self.error(e),
        };
        if !self.greeted && !matches!(message, ClientMessage::Hello { .. }) {
            return self.error(format!(
                "say hello first: {{\"type\":\"hello\",\"protocol\":{PROTOCOL},\"version\":\"{}\"}}",
                crate::version::VERSION
            ));
        }
        if let Err(e) = self.dispatch(message).await {
            self.error(e);
        }
    }

    async fn dispatch(&mut self, message: ClientMessage) -> Result<(), String> {
        let store = self.shared.store.clone();
        match message {
            ClientMessage::Hello { protocol, version } => self.hello(protocol, &version),
            ClientMessage::Register { name } => {
                if let Some(address) = self.address
                    && !self.shared.address_allows(address, true, std::time::Instant::now())
                {
                    return Err(format!(
                        "register: too many new players from {address}: one every ten seconds (twenty at once); log in with a token you have"
                    ));
                }
                let (id, token) = lobby::register(&store, &name).await?;
                self.bind(&id, name.trim());
                self.send(ServerMessage::Registered { player: id, token });
                Ok(())
            }
            ClientMessage::Login { token } => {
                let (id, name) = store
                    .player_by_token(&lobby::token_hash(&token))
                    .await?
                    .ok_or("token: no player has this token")?;
                self.bind(&id, &name);
                self.send(ServerMessage::LoggedIn { player: id, name });
                Ok(())
            }
            ClientMessage::Create {
                scenario,
                side,
                opponent,
                contribution,
                observer_delay,
                turn_time,
                chain,
            } => {
                let player = self.player_id()?;
                let new = lobby::NewGame {
                    scenario: &scenario,
                    side: &side,
                    opponent: &opponent,
                    contribution: &contribution,
                    observer_delay,
                    turn_time,
                    chain: chain
                        .unwrap_or(self.shared.chained_dice_by_default && !matches!(opponent, Opponent::Computer(_))),
                };
                let (game, invite, commitment) = lobby::create(&store, &player, new).await?;
                self.send(ServerMessage::Created {
                    game,
                    invite,
                    commitment,
                });
                Ok(())
            }
            ClientMessage::Join {
                game,
                invite,
                contribution,
                chain_end,
            } => {
                let player = self.player_id()?;
                let seed = (contribution.as_str(), chain_end.as_deref());
                let side = lobby::join(&store, &player, &game, invite.as_deref(), seed).await?;
                self.send(ServerMessage::Joined { game, side });
                Ok(())
            }
            ClientMessage::Watch { game, since } => self.watch(game, since).await,
            ClientMessage::Order { game, expect, order } => self.order(game, expect, order).await,
            ClientMessage::Options { game } => self.options(game).await,
            ClientMessage::Chat { game, text } => self.chat(game, text).await,
            ClientMessage::Webhook { url } => self.webhook(url).await,
            ClientMessage::Undo { game, expect } => self.undo(game, expect).await,
            ClientMessage::Link { game, index, link } => self.link(game, index, link).await,
            ClientMessage::Games => self.games().await,
        }
    }

    /// The start screen's lists: this player's games (whether each opponent is connected to
    /// this process), the open games and the live ones.
    async fn games(&self) -> Result<(), String> {
        let store = &self.shared.store;
        let mine = match &self.player {
            Some((id, _)) => store.my_game_list(id, 50).await?,
            None => Vec::new(),
        };
        let mine = mine
            .into_iter()
            .map(|(mut g, opponent)| {
                g.opponent_online = opponent.is_some_and(|o| self.shared.is_online(&o));
                g
            })
            .collect();
        let open = store.listed_games(super::store::Listing::Open, 50).await?;
        let live = store.listed_games(super::store::Listing::Live, 50).await?;
        self.send(ServerMessage::Games { mine, open, live });
        Ok(())
    }

    /// This connection now speaks for player `id`.
    fn bind(&mut self, id: &str, name: &str) {
        if self.live {
            if let Some((old, _)) = &self.player {
                self.shared.set_online(old, false);
            }
            self.shared.set_online(id, true);
        }
        self.player = Some((id.to_string(), name.to_string()));
    }

    async fn undo(&mut self, game: String, expect: usize) -> Result<(), String> {
        let player = self.player_id()?;
        let job = |reply| Job::Undo {
            game: game.clone(),
            player,
            expect,
            reply,
        };
        let out = self.ask(&game, job).await?;
        self.answer("the undo", (game, expect), out, |game, index| {
            ServerMessage::TakenBack { game, index }
        })
    }

    /// Sends what the worker made of an order, undo or link (`what`) for `game` at `expect`:
    /// `done` with its entry's index, `refused` with the rule, `held` when it waits for a chain
    /// link; an error when nothing was recorded.
    fn answer(
        &self,
        what: &str,
        (game, expect): (String, usize),
        out: Result<usize, Refusal>,
        done: impl FnOnce(String, usize) -> ServerMessage,
    ) -> Result<(), String> {
        match out {
            Ok(index) => self.send(done(game, index)),
            Err(Refusal::Refused(reason)) => self.send(ServerMessage::Refused { game, expect, reason }),
            Err(Refusal::Failed(why)) => return Err(format!("{what} was not recorded: {why}")),
            Err(Refusal::Held(index)) => self.send(ServerMessage::Held { game, index }),
        }
        Ok(())
    }

    /// The next link of this player's hash chain for the order waiting as entry `index`.
    async fn link(&mut self, game: String, index: usize, link: String) -> Result<(), String> {
        let player = self.player_id()?;
        let job = |reply| Job::Link {
            game: game.clone(),
            player,
            index,
            link,
            reply,
        };
        let out = self.ask(&game, job).await?;
        self.answer("the order", (game, index), out, |game, index| {
            ServerMessage::LinkTaken { game, index }
        })
    }

    async fn webhook(&mut self, url: Option<String>) -> Result<(), String> {
        let player = self.player_id()?;
        let url = match url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
            Some(text) => Some(
                super::notice::check_url(text, self.shared.allow_private_webhooks)
                    .await?
                    .url
                    .to_string(),
            ),
            None => None,
        };
        self.shared.store.set_webhook(&player, url.as_deref()).await?;
        self.send(ServerMessage::WebhookSet { url });
        Ok(())
    }

    fn hello(&mut self, protocol: u32, version: &str) -> Result<(), String> {
        if protocol != PROTOCOL || version != crate::version::VERSION {
            return Err(format!(
                "this server speaks protocol {PROTOCOL} of Hexfront {}; the client sent protocol {protocol} of Hexfront {version}: both must be the same release (the dice and hashes come from the same engine)",
                crate::version::VERSION
            ));
        }
        self.greeted = true;
        self.send(ServerMessage::Welcome {
            protocol: PROTOCOL,
            version: crate::version::VERSION.into(),
        });
        Ok(())
    }

    fn player_id(&self) -> Result<String, String> {
        self.player
            .as_ref()
            .map(|(id, _)| id.clone())
            .ok_or_else(|| "register or log in first (`register` or `login`)".into())
    }

    /// Hands the job `make` builds to the game's worker and waits for its answer.
    async fn ask<T>(&self, game: &str, make: impl FnOnce(oneshot::Sender<T>) -> Job) -> Result<T, String> {
        let (reply, answer) = oneshot::channel();
        self.shared.workers.send(game, make(reply));
        answer.await.map_err(|_| "the game's worker stopped".to_string())
    }

    async fn order(&mut self, game: String, expect: usize, order: Order) -> Result<(), String> {
        let player = self.player_id()?;
        let job = |reply| Job::Order {
            game: game.clone(),
            player,
            expect,
            order,
            reply,
        };
        let out = self.ask(&game, job).await?;
        self.answer("the order", (game, expect), out, |game, index| {
            ServerMessage::Accepted { game, index }
        })
    }

    async fn chat(&mut self, game: String, text: String) -> Result<(), String> {
        let (id, name) = self.player.clone().ok_or("chat: register or log in first")?;
        if !self.shared.chat_allows(&id, std::time::Instant::now()) {
            return Err("chat: at most a line a second (five at once); this one was not sent".into());
        }
        // Every game has its seats: none means no game.
        let seats = self.shared.store.seats(&game).await?;
        if seats.is_empty() {
            return Err(format!("game: no game `{game}`"));
        }
        let seated = seats.iter().any(|s| s.player.as_deref() == Some(id.as_str()));
        chat::post(&self.shared, &game, &name, seated, &text).await
    }

    async fn options(&mut self, game: String) -> Result<(), String> {
        let player = self.player.as_ref().map(|(id, _)| id.clone());
        let job = |reply| Job::Options {
            game: game.clone(),
            player,
            reply,
        };
        let (expect, yours, options) = self.ask(&game, job).await??;
        self.send(ServerMessage::Options {
            game,
            expect,
            yours,
            options,
        });
        Ok(())
    }

    /// Sends the game, its entries from `since`, and from then on each new one (to an observer
    /// of a game that holds observers back, each once it may be seen).
    async fn watch(&mut self, game: String, since: usize) -> Result<(), String> {
        let player = self.player.as_ref().map(|(id, _)| id.clone());
        let view = lobby::game_view(&self.shared.store, &game, player.as_deref()).await?;
        let viewer = view.you.clone();
        let delay = if viewer.is_none() {
            view.observer_delay
        } else {
            ObserverDelay::None
        };
        // Follow first, then read the log: nothing falls between the two.
        let updates = self.shared.hub.subscribe(&game);
        let job = |reply| Job::Log {
            game: game.clone(),
            reply,
        };
        let snapshot = self.ask(&game, job).await??;
        self.send(ServerMessage::Game(view));
        let seated = viewer.is_some();
        let start = Start {
            game: game.clone(),
            viewer,
            delay,
            since,
        };
        let follow = Follow::start(self.out.clone(), start, &snapshot, self.shared.workers.clone());
        for line in chat::history(&self.shared.store, &game, seated).await? {
            self.send(line);
        }
        let task = tokio::spawn(follow.run(updates));
        if let Some(previous) = self.watching.insert(game, task) {
            previous.abort();
        }
        Ok(())
    }
}
