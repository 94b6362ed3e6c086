//! What the online tests share: a server on a free port of 127.0.0.1 with a temporary SQLite
//! file (or a PostgreSQL database when `HEXFRONT_TEST_POSTGRES` is set), registered players,
//! games made and followed.

use hexfront::ai::{ComputerPlayer, Profile, side_to_act};
use hexfront::net::client::{Client, Follower, contribution};
use hexfront::net::protocol::{ClientMessage, ObserverDelay, Opponent, ServerMessage, TurnTime};
use hexfront::net::server;
use std::io::{BufRead, Read, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The test's folder (its SQLite database, downloaded games), removed when the test ends well.
pub fn temp_dir(name: &str) -> super::Scratch {
    super::Scratch::new(&format!("hexfront-online-{}-{name}", std::process::id()))
}

/// A server on a free port. Its database: a SQLite file in `dir`, or, with
/// `HEXFRONT_TEST_POSTGRES` set (a PostgreSQL URL whose user may create databases), a database of
/// this test's own there, made afresh the first time (a restarted server finds it again).
pub async fn start(dir: &std::path::Path) -> server::ServerHandle {
    server::start("127.0.0.1:0".parse().unwrap(), &db_url(dir).await)
        .await
        .unwrap()
}

pub async fn db_url(dir: &std::path::Path) -> String {
    match std::env::var("HEXFRONT_TEST_POSTGRES") {
        Ok(base) if !base.is_empty() => postgres_db(&base, dir).await,
        _ => hexfront::net::store::Store::sqlite_url(&dir.join("server.db")),
    }
}

/// The test's PostgreSQL database (named after `dir`), made the first time it is asked for.
pub async fn postgres_db(base: &str, dir: &std::path::Path) -> String {
    use sqlx::Connection;
    // `hexfront-online-PID-NAME`: one database a test, whatever the process.
    let folder = dir.file_name().unwrap().to_string_lossy().into_owned();
    let test = folder.splitn(4, '-').nth(3).unwrap_or(&folder);
    let name = format!("hexfront_test_{}", test.replace(['-', '.'], "_"));
    let marker = dir.join("postgres-made");
    if !marker.exists() {
        sqlx::any::install_default_drivers();
        let mut admin = sqlx::AnyConnection::connect(base).await.unwrap();
        for sql in [
            format!("DROP DATABASE IF EXISTS {name}"),
            format!("CREATE DATABASE {name}"),
        ] {
            sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
                .execute(&mut admin)
                .await
                .unwrap();
        }
        std::fs::write(&marker, &name).unwrap();
    }
    let (server, _) = base.rsplit_once('/').expect("a URL ending in /DATABASE");
    format!("{server}/{name}")
}

/// What `sql` (a `SELECT COUNT(*) AS n …`) counts in the database at `db`.
pub async fn db_count(db: &str, sql: &'static str) -> i64 {
    use sqlx::{Connection, Row};
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(db).await.unwrap();
    let n = sqlx::query(sql).fetch_one(&mut conn).await.unwrap().get("n");
    conn.close().await.unwrap();
    n
}

pub fn ws(addr: SocketAddr) -> String {
    format!("ws://{addr}/ws")
}

/// A plain HTTP GET: (status, body).
pub fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    http_get_as(addr, path, None)
}

/// A plain HTTP GET as the player whose token is given: (status, body).
pub fn http_get_as(addr: SocketAddr, path: &str, token: Option<&str>) -> (u16, String) {
    http_request(addr, "GET", path, token, None, "")
}

/// A plain HTTP POST of `body` (JSON) to `path`, with a bearer token if given: (status, body).
pub fn http_post(addr: SocketAddr, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
    http_request(addr, "POST", path, token, Some(body), "")
}

/// One HTTP/1.1 request on a connection of its own, with `headers` (each ending in `\r\n`)
/// added: (status, body).
pub fn http_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
    headers: &str,
) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let content = body.map_or(String::new(), |b| {
        format!("Content-Type: application/json\r\nContent-Length: {}\r\n", b.len())
    });
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}{content}{headers}Connection: close\r\n\r\n{}",
        body.unwrap_or_default()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

/// The next message, or a failure after a minute of silence.
pub async fn next(client: &mut Client) -> ServerMessage {
    tokio::time::timeout(Duration::from_secs(120), client.next())
        .await
        .expect("the server answers within two minutes")
        .expect("the connection holds")
}

/// A registered client: (client, player id, token).
pub async fn player(addr: SocketAddr, name: &str) -> (Client, String, String) {
    let mut c = Client::connect(&ws(addr)).await.unwrap();
    match c.request(&ClientMessage::Register { name: name.into() }).await.unwrap() {
        ServerMessage::Registered { player, token } => (c, player, token),
        other => panic!("not registered: {other:?}"),
    }
}

/// Makes a game: (id, invite code, commitment).
pub async fn create(
    c: &mut Client,
    scenario: &str,
    side: &str,
    opponent: Opponent,
) -> (String, Option<String>, String) {
    create_with(c, scenario, side, opponent, ObserverDelay::None, None).await
}

/// Makes a game with an observer delay and a time per turn: (id, invite code, commitment).
pub async fn create_with(
    c: &mut Client,
    scenario: &str,
    side: &str,
    opponent: Opponent,
    observer_delay: ObserverDelay,
    turn_time: Option<TurnTime>,
) -> (String, Option<String>, String) {
    let created = c
        .request(&ClientMessage::Create {
            scenario: scenario.into(),
            side: side.into(),
            opponent,
            contribution: contribution(),
            observer_delay,
            turn_time,
            chain: None,
        })
        .await
        .unwrap();
    match created {
        ServerMessage::Created {
            game,
            invite,
            commitment,
        } => (game, invite, commitment),
        other => panic!("not created: {other:?}"),
    }
}

/// Bert (`b`) takes the free seat of Anna's (`a`) game with its invite code; then both follow it
/// from the start: (Anna's follower, Bert's).
pub async fn join_and_follow(
    a: &mut Client,
    b: &mut Client,
    game: &str,
    invite: Option<String>,
) -> (Follower, Follower) {
    let join = ClientMessage::Join {
        game: game.into(),
        invite,
        contribution: contribution(),
        chain_end: None,
    };
    let joined = b.request(&join).await.unwrap();
    assert!(matches!(joined, ServerMessage::Joined { .. }), "{joined:?}");
    (watch(a, game, 0, None).await, watch(b, game, 0, None).await)
}

/// Follows `game` from `since`: the game's description first.
pub async fn watch(c: &mut Client, game: &str, since: usize, follower: Option<Follower>) -> Follower {
    c.send(&ClientMessage::Watch {
        game: game.into(),
        since,
    })
    .await
    .unwrap();
    loop {
        match next(c).await {
            ServerMessage::Game(view) => return follower.unwrap_or_else(|| Follower::new(view).unwrap()),
            ServerMessage::Error { message } => panic!("watch refused: {message}"),
            _ => {}
        }
    }
}

/// One seat played by the computer through a client, until the game ends or `stop` says so.
pub struct Seat {
    pub client: Client,
    pub follower: Follower,
    pub ai: ComputerPlayer,
    /// The order sent and not yet seen in the log (its `expect`).
    pub sent: Option<usize>,
    /// That order's message (sent again after a lost connection).
    pub last: Option<ClientMessage>,
    pub orders: usize,
    /// Hash-chained dice, this seat holding the chain: whether it sends each link asked for
    /// (else the last request waits in `asked`), and the links sent.
    pub answer_links: bool,
    pub asked: Option<ServerMessage>,
    pub links: usize,
    /// Messages to send before the next order (links).
    pub outgoing: Vec<ClientMessage>,
    /// Orders held for a chain link.
    pub held: usize,
}

impl Seat {
    pub fn new(client: Client, follower: Follower, level: &str, seed: u64) -> Self {
        let side = follower.my_side().expect("seated");
        Self {
            client,
            follower,
            ai: ComputerPlayer::new(side, Profile::parse(level).unwrap(), seed),
            sent: None,
            last: None,
            orders: 0,
            answer_links: true,
            asked: None,
            links: 0,
            outgoing: Vec::new(),
            held: 0,
        }
    }

    /// Goes on over `client` (logged in to a server on the same database) after the connection
    /// was lost: follows the game again from the entries held and sends the order that had not
    /// come back again (the server answers it, or carries it out if it was lost).
    pub async fn resumed(self, mut client: Client, game: &str) -> Self {
        let held = self.follower.len();
        let follower = watch(&mut client, game, held, Some(self.follower)).await;
        if self.sent.is_some()
            && let Some(last) = &self.last
        {
            client.send(last).await.unwrap();
        }
        Self {
            client,
            follower,
            ..self
        }
    }

    /// Gives an order if it is this seat's turn (and its last one has come back as an entry).
    pub async fn act(&mut self, game: &str) {
        for m in std::mem::take(&mut self.outgoing) {
            self.client.send(&m).await.unwrap();
        }
        if self.sent.is_some_and(|e| self.follower.len() <= e) || self.follower.ended.is_some() {
            return;
        }
        self.sent = None;
        let mine = self.follower.my_side();
        let world = self.follower.world();
        if side_to_act(world) != mine {
            return;
        }
        let order = self.ai.next_order(world).expect("the computer has an order");
        let expect = self.follower.len();
        let message = ClientMessage::Order {
            game: game.into(),
            expect,
            order,
        };
        self.client.send(&message).await.unwrap();
        self.last = Some(message);
        self.sent = Some(expect);
        self.orders += 1;
    }

    /// Takes one message from the server.
    pub fn take(&mut self, m: ServerMessage) {
        match &m {
            ServerMessage::LinkWanted { .. } if self.answer_links => {
                let answer = self.follower.link(&m).unwrap().expect("a link");
                self.outgoing.push(answer);
                self.links += 1;
            }
            ServerMessage::LinkWanted { .. } => self.asked = Some(m),
            ServerMessage::Held { .. } => self.held += 1,
            ServerMessage::Refused { reason, .. } => panic!("a computer order was refused: {reason}"),
            ServerMessage::Error { message } => panic!("server error: {message}"),
            _ => self.follower.take(&m).unwrap(),
        }
    }
}

/// A seat goes on after its server restarted on the same database, at `addr`: a new connection
/// logged in with `token` follows the game from the entries the seat holds (each checked against
/// the server's hash) and plays to the end against the server's computer.
pub async fn play_on_after_restart(seat: &mut Seat, addr: SocketAddr, token: &str, game: &str) {
    let held = seat.follower.len();
    let mut client = Client::connect(&ws(addr)).await.unwrap();
    client
        .request(&ClientMessage::Login { token: token.into() })
        .await
        .unwrap();
    let blank = Follower::new(seat.follower.view.clone()).unwrap();
    let follower = std::mem::replace(&mut seat.follower, blank);
    seat.follower = watch(&mut client, game, held, Some(follower)).await;
    seat.client = client;
    while seat.follower.ended.is_none() {
        seat.act(game).await;
        let m = next(&mut seat.client).await;
        seat.take(m);
    }
    assert_eq!(seat.follower.checked, seat.follower.len());
    assert!(seat.follower.len() > held, "the game went on after the restart");
}

/// Both seats until the game is over for both: each acts when it is its turn, and takes
/// whatever arrives first.
pub async fn play_on(a: &mut Seat, b: &mut Seat, game: &str) {
    while a.follower.ended.is_none() || b.follower.ended.is_none() {
        a.act(game).await;
        b.act(game).await;
        tokio::select! {
            m = next(&mut a.client) => a.take(m),
            m = next(&mut b.client) => b.take(m),
        }
    }
}

/// `hexfront serve` on a free port of 127.0.0.1 with the database at `db`: the process and its
/// address (read from the line it prints when it listens).
pub fn spawn_server(db: &str, log: &Path) -> (Child, SocketAddr) {
    let stderr = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexfront"))
        .args(["serve", "--listen", "127.0.0.1:0", "--db", db])
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines
            .next()
            .unwrap_or_else(|| panic!("the server stopped before it listened; see {}", log.display()))
            .unwrap();
        if let Some(rest) = line.split("on http://").nth(1) {
            break rest.split_whitespace().next().unwrap().parse().unwrap();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    (child, addr)
}

/// `hexfront replay --verify FILE`: (success, what it printed, what it said on standard error).
pub fn replay_verify(file: &Path) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hexfront"))
        .args(["replay", "--verify"])
        .arg(file)
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// A finished game's save, downloaded and checked by `hexfront replay --verify`.
pub fn verify_finished(addr: SocketAddr, game: &str, dir: &Path) {
    let (status, body) = http_get(addr, &format!("/api/games/{game}/saved"));
    assert_eq!(status, 200, "{body}");
    let file = dir.join(format!("{game}.ron"));
    std::fs::write(&file, body).unwrap();
    let (ok, _, said) = replay_verify(&file);
    assert!(ok, "{said}");
}
