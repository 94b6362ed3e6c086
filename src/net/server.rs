//! `hexfront serve`: the HTTP and WebSocket server. Started from a library call with a handle to
//! stop it (the client will host games with it; the tests start it on port 0). Live play goes
//! over `/ws` (`protocol`); `/api/…` answers plain HTTP with JSON for lists and downloads.

use super::claims::Claims;
use super::connection::connection;
use super::hub::Hub;
use super::live::{Job, Workers};
use super::protocol::{MAX_FRAME, PROTOCOL, SOCKET_BUFFER, ServerMessage};
use super::shared::Shared;
use super::store::Store;
use axum::Extension;
use axum::Router;
use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;

/// A running server: its address, and the way to stop it.
pub struct ServerHandle {
    pub addr: SocketAddr,
    /// The players with a connection open, by id (how many connections each).
    online: Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
    stop: Option<oneshot::Sender<()>>,
    close: tokio::sync::watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl ServerHandle {
    /// The players connected now (ids).
    pub fn connected_players(&self) -> Vec<String> {
        self.online.lock().expect("online lock").keys().cloned().collect()
    }

    /// Stops taking connections and waits for the server to end.
    pub async fn stop(mut self) {
        let _ = self.close.send(true);
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = self.task.await;
    }
}

/// How a server runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// A game nobody touched for this long leaves memory (rebuilt from the database when next
    /// asked for).
    pub idle: Duration,
    /// How often the server looks for lapsed times per turn and notices to send.
    pub clock: Duration,
    /// Whether webhooks may reach loopback and private addresses.
    pub allow_private_webhooks: bool,
    /// The address players reach this server at, named in notices.
    pub public_url: Option<String>,
    /// Games between two players get hash-chained dice unless their creator says otherwise: for
    /// a server a player runs on their own computer (they could read its secrets).
    pub chained_dice_by_default: bool,
    /// Messages a connection may have waiting (it does not read) before it is cut off.
    pub outbox_limit: usize,
    /// Threads carrying out the games' orders (`None`: one a processor core).
    pub workers: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            idle: Duration::from_secs(600),
            clock: Duration::from_secs(5),
            allow_private_webhooks: false,
            public_url: None,
            chained_dice_by_default: false,
            outbox_limit: super::outbox::LIMIT,
            workers: None,
        }
    }
}

/// Starts a server on `listen` (port 0: any free port) with the database at `db_url`, on the
/// current tokio runtime.
pub async fn start(listen: SocketAddr, db_url: &str) -> Result<ServerHandle, String> {
    start_with(listen, db_url, Options::default()).await
}

/// `start` with `options`.
pub async fn start_with(listen: SocketAddr, db_url: &str, options: Options) -> Result<ServerHandle, String> {
    let store = Store::open(db_url).await?;
    if options.chained_dice_by_default && store.is_postgres() {
        return Err("--chained-dice is for a server on a player's own computer (SQLite); hash-chained dice are refused on a PostgreSQL database that several processes may share".into());
    }
    let cores = options
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    let (close, closing) = tokio::sync::watch::channel(false);
    let (hub, workers, claims) = if store.is_postgres() {
        clustered(db_url, &store, cores, options.idle, closing.clone()).await?
    } else {
        let hub = Hub::default();
        let handle = tokio::runtime::Handle::current();
        let workers = Workers::start(cores, store.clone(), hub.clone(), handle, options.idle);
        (hub, workers, None)
    };
    let shared = Shared {
        players: Default::default(),
        chatters: Default::default(),
        addresses: Default::default(),
        store,
        workers,
        hub,
        closing,
        online: Default::default(),
        allow_private_webhooks: options.allow_private_webhooks,
        public_url: options.public_url.clone(),
        claims,
        chained_dice_by_default: options.chained_dice_by_default,
        outbox_limit: options.outbox_limit,
    };
    tokio::spawn(super::clock::run(shared.clone(), options.clock));
    let online = shared.online.clone();
    let app = Router::new()
        .route("/ws", get(upgrade))
        .route("/api/version", get(version))
        .route("/api/status", get(status))
        .route("/api/games", get(open_games))
        .route("/api/players/me/games", get(my_games))
        .route("/api/games/{id}/saved", get(saved))
        .route("/api/games/{id}/messages", get(messages))
        .route("/api/request", axum::routing::post(request))
        .route(
            "/api/scenarios",
            axum::routing::post(upload_scenario).layer(axum::extract::DefaultBodyLimit::max(
                super::user_scenarios::MAX_UPLOAD_BODY,
            )),
        )
        .layer(axum::middleware::from_fn_with_state(shared.clone(), per_address))
        .with_state(shared);
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    // Small frames go out at once (Nagle's wait and the peer's delayed ACK cost 40 ms a turn).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp: &mut tokio::net::TcpStream| {
        let _ = tcp.set_nodelay(true);
    });
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let app = app.into_make_service_with_connect_info::<SocketAddr>();
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await;
    });
    Ok(ServerHandle {
        addr,
        online,
        stop: Some(stop),
        close,
        task,
    })
}

/// The hub and workers of a process that may share its PostgreSQL database with others: each
/// game is carried out under this process's claim, and events pass between the processes.
async fn clustered(
    db_url: &str,
    store: &Store,
    cores: usize,
    idle: Duration,
    closing: tokio::sync::watch::Receiver<bool>,
) -> Result<(Hub, Workers, Option<Arc<Claims>>), String> {
    let (relay, relayed) = tokio::sync::mpsc::unbounded_channel();
    let hub = Hub::relaying(relay);
    let claims = Arc::new(Claims::connect(db_url).await?);
    let handle = tokio::runtime::Handle::current();
    let workers = Workers::start_claiming(cores, store.clone(), hub.clone(), handle, idle, Some(claims.clone()));
    let origin = claims.origin().to_string();
    super::cluster::start(
        db_url,
        origin,
        store.clone(),
        hub.clone(),
        workers.clone(),
        relayed,
        closing,
    )
    .await?;
    Ok((hub, workers, Some(claims)))
}

/// Runs a server until Ctrl+C (`hexfront serve`).
pub fn serve_forever(listen: SocketAddr, db_url: &str, options: Options) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async {
        let handle = start_with(listen, db_url, options).await?;
        println!(
            "Hexfront server {} (protocol {PROTOCOL}) on http://{} — WebSocket ws://{}/ws; database {}",
            crate::version::LONG,
            handle.addr,
            handle.addr,
            redact(db_url)
        );
        let _ = tokio::signal::ctrl_c().await;
        println!("Stopping.");
        handle.stop().await;
        Ok(())
    })
}

/// A database URL without its password.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}://…@{}", &url[..scheme], &url[at + 1..]),
        _ => url.to_string(),
    }
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(shared): State<Shared>,
    Extension(ClientAddress(address)): Extension<ClientAddress>,
) -> Response {
    // Frames a little over the limit still reach the handler, which names the limit; far over
    // it, the connection closes.
    ws.max_message_size(4 * MAX_FRAME)
        .max_frame_size(4 * MAX_FRAME)
        .read_buffer_size(SOCKET_BUFFER)
        .write_buffer_size(SOCKET_BUFFER)
        .on_upgrade(move |socket| connection(socket, shared, address))
}

/// The address a request counts against (`rate::client_address`), found once by `per_address`
/// for the handlers after it.
#[derive(Clone, Copy)]
struct ClientAddress(Option<std::net::IpAddr>);

/// Every HTTP request (a WebSocket's opening included) counts against its address's limit.
async fn per_address(
    State(shared): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let address = super::rate::client_address(peer, request.headers());
    if let Some(address) = address
        && !shared.address_allows(address, false, std::time::Instant::now())
    {
        let why = format!("too many requests from {address}: at most 20 a second (60 at once); wait a moment");
        return (StatusCode::TOO_MANY_REQUESTS, why).into_response();
    }
    request.extensions_mut().insert(ClientAddress(address));
    next.run(request).await
}

async fn version() -> impl IntoResponse {
    axum::Json(
        serde_json::json!({ "protocol": PROTOCOL, "version": crate::version::VERSION, "build": crate::version::LONG }),
    )
}

/// What this process holds: its database kind and, sharing PostgreSQL with other processes, the
/// games it holds and the claims it took over from another process since it started.
async fn status(State(shared): State<Shared>) -> impl IntoResponse {
    let database = if shared.store.is_postgres() {
        "postgres"
    } else {
        "sqlite"
    };
    let (held, taken_over, caught_up) = shared.claims.as_ref().map_or((0, 0, 0), |c| c.counts());
    axum::Json(serde_json::json!({
        "protocol": PROTOCOL,
        "database": database,
        "games_held": held,
        "taken_over": taken_over,
        "caught_up": caught_up,
    }))
}

async fn open_games(State(shared): State<Shared>) -> Response {
    match shared.store.open_games(50).await {
        Ok(games) => axum::Json(serde_json::json!({ "games": games })).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e).into_response(),
    }
}

/// The newest 50 games of the player whose bearer token is given.
async fn my_games(State(shared): State<Shared>, headers: axum::http::HeaderMap) -> Response {
    let player = match player_of(&shared, &headers).await {
        Ok(player) => player,
        Err(refusal) => return refusal,
    };
    match shared.store.player_games(&player, 50).await {
        Ok(games) => axum::Json(serde_json::json!({ "games": games })).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e).into_response(),
    }
}

/// The player whose token `Authorization: Bearer TOKEN` gives, or the refusal to send.
async fn player_of(shared: &Shared, headers: &axum::http::HeaderMap) -> Result<String, Response> {
    let Some(token) = bearer(headers) else {
        return Err((StatusCode::UNAUTHORIZED, "Authorization: Bearer TOKEN is needed").into_response());
    };
    match shared.store.player_by_token(&super::lobby::token_hash(&token)).await {
        Ok(Some((id, _))) => Ok(id),
        Ok(None) => Err((StatusCode::UNAUTHORIZED, "Authorization: no player has this token").into_response()),
        Err(e) => Err((StatusCode::INTERNAL_SERVER_ERROR, e).into_response()),
    }
}

/// `POST /api/scenarios`: a player's scenario (and the ruleset file it names), checked as
/// `hexfront validate` checks files and stored; answered with the id `create` takes.
async fn upload_scenario(State(shared): State<Shared>, headers: axum::http::HeaderMap, body: String) -> Response {
    let player = match player_of(&shared, &headers).await {
        Ok(player) => player,
        Err(refusal) => return refusal,
    };
    let request: super::user_scenarios::UploadRequest = match serde_json::from_str(&body) {
        Ok(request) => request,
        Err(e) => {
            return bad_request(format!(
                "the upload is not the JSON expected ({e}): {{\"scenario\":{{\"file\":\"NAME.ron\",\"text\":\"…\"}},\"ruleset\":{{\"file\":…,\"text\":…}} or left out}}"
            ));
        }
    };
    match super::lobby::upload(&shared.store, &player, request).await {
        Ok((id, scenario)) => axum::Json(serde_json::json!({
            "scenario": id,
            "name": scenario.raw.name,
            "sides": scenario.raw.sides.iter().map(|s| s.id.clone()).collect::<Vec<_>>(),
            "ruleset": scenario.raw.ruleset,
        }))
        .into_response(),
        Err(message) if message.starts_with("database") => (StatusCode::INTERNAL_SERVER_ERROR, message).into_response(),
        Err(message) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            axum::Json(ServerMessage::Error { message }),
        )
            .into_response(),
    }
}

/// The player's token from `Authorization: Bearer TOKEN`, if given.
fn bearer(headers: &axum::http::HeaderMap) -> Option<String> {
    let value = headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(|t| t.trim().to_string())
}

fn bad_request(message: String) -> Response {
    (StatusCode::BAD_REQUEST, axum::Json(ServerMessage::Error { message })).into_response()
}

/// A client message over HTTP: the body as on the WebSocket, the player by bearer token.
async fn request(
    State(shared): State<Shared>,
    Extension(ClientAddress(address)): Extension<ClientAddress>,
    headers: axum::http::HeaderMap,
    body: String,
) -> Response {
    if body.len() > 4 * MAX_FRAME {
        return bad_request(format!("a request of {} bytes: the limit is {MAX_FRAME}", body.len()));
    }
    match super::connection::http_request(shared, bearer(&headers).as_deref(), address, &body).await {
        Ok(Some(ServerMessage::Error { message })) => bad_request(message),
        Ok(Some(answer)) => axum::Json(answer).into_response(),
        Ok(None) => StatusCode::NO_CONTENT.into_response(),
        Err(message) => bad_request(message),
    }
}

#[derive(serde::Deserialize)]
struct Since {
    #[serde(default)]
    since: usize,
}

/// What `watch` would send, as JSON: `GET /api/games/ID/messages?since=N`.
async fn messages(
    Path(id): Path<String>,
    axum::extract::Query(q): axum::extract::Query<Since>,
    State(shared): State<Shared>,
    headers: axum::http::HeaderMap,
) -> Response {
    match super::connection::messages_since(shared, bearer(&headers).as_deref(), id, q.since).await {
        Ok(list) => axum::Json(list).into_response(),
        Err(message) => bad_request(message),
    }
}

/// A finished game as a saved game (RON) that `hexfront replay --verify` checks, its secret
/// included.
async fn saved(Path(id): Path<String>, State(shared): State<Shared>) -> Response {
    let (reply, answer) = oneshot::channel();
    shared.workers.send(
        &id,
        Job::Saved {
            game: id.clone(),
            reply,
        },
    );
    match answer.await {
        Ok(Ok(game)) => match crate::game::save::to_text(&game) {
            Ok(text) => text.into_response(),
            Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
        },
        Ok(Err(why)) if why.starts_with("no game") => (StatusCode::NOT_FOUND, why).into_response(),
        Ok(Err(why)) => (StatusCode::CONFLICT, why).into_response(),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the game's worker stopped".to_string(),
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_stay_out_of_what_the_server_prints() {
        assert_eq!(
            super::redact("postgres://u:secret@db:5432/hex"),
            "postgres://…@db:5432/hex"
        );
        assert_eq!(super::redact("sqlite:///tmp/x.db"), "sqlite:///tmp/x.db");
    }
}
