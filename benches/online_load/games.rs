//! A driver process of the load benchmark: the live games it plays against one server, each by
//! two WebSocket clients, and what it measured.

use super::{Plan, WINDOW, usage};
use futures_util::{SinkExt, StreamExt};
use hexfront::game::order_options::random_pick;
use hexfront::net::protocol::{ClientMessage, Opponent, PROTOCOL, ServerMessage};
use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

/// One WebSocket connection: the answers to what it asked, in order; pushes only counted.
struct Conn {
    out: mpsc::UnboundedSender<String>,
    answers: mpsc::UnboundedReceiver<ServerMessage>,
}

/// Counts shared by every connection.
#[derive(Default)]
struct Counts {
    pushes: AtomicU64,
    ended: AtomicU64,
}

impl Conn {
    async fn open(addr: SocketAddr, counts: Arc<Counts>) -> Self {
        let config = hexfront::net::client::socket_config();
        let (socket, _) = tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/ws"), Some(config), true)
            .await
            .expect("connect");
        let (mut sink, mut stream) = socket.split();
        let (out, mut outbox) = mpsc::unbounded_channel::<String>();
        let (answer, answers) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(text) = outbox.recv().await {
                if sink.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
        });
        tokio::spawn(async move {
            while let Some(Ok(frame)) = stream.next().await {
                let Message::Text(text) = frame else { continue };
                // Pushes are counted, not read.
                let push = ["entry", "revealed", "chat", "game", "undone", "time_lapsed"]
                    .iter()
                    .any(|t| text.starts_with(&format!("{{\"type\":\"{t}\"")));
                if push {
                    counts.pushes.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                if text.starts_with("{\"type\":\"ended\"") {
                    counts.ended.fetch_add(1, Ordering::Relaxed);
                }
                if let Ok(m) = ServerMessage::parse(&text) {
                    let _ = answer.send(m);
                }
            }
        });
        let mut conn = Self { out, answers };
        let hello = ClientMessage::Hello {
            protocol: PROTOCOL,
            version: hexfront::version::VERSION.into(),
        };
        conn.ask(&hello).await;
        conn
    }

    /// Sends `m` and waits for its answer (an `ended` in between is skipped).
    async fn ask(&mut self, m: &ClientMessage) -> ServerMessage {
        self.out.send(serde_json::to_string(m).unwrap()).unwrap();
        loop {
            match self.answers.recv().await.expect("the server answers") {
                ServerMessage::Ended { .. } => {}
                answer => return answer,
            }
        }
    }
}

/// A game driven from here: its two seats (connection and side).
struct Game {
    id: String,
    seats: Vec<(Conn, String)>,
}

async fn new_game(addr: SocketAddr, scenario: &str, counts: Arc<Counts>) -> Game {
    let mut seats = Vec::new();
    let mut made: Option<(String, Option<String>)> = None;
    for (i, name) in ["A", "B"].iter().enumerate() {
        let mut c = Conn::open(addr, counts.clone()).await;
        c.ask(&ClientMessage::Register { name: (*name).into() }).await;
        let contribution = hexfront::net::client::contribution();
        let side = if i == 0 {
            let (_, shipped) = hexfront::net::lobby::shipped(scenario).expect("a shipped scenario");
            let first = shipped.raw.sides[0].id.clone();
            let create = ClientMessage::Create {
                scenario: scenario.into(),
                side: first.clone(),
                opponent: Opponent::Invite,
                contribution,
                observer_delay: Default::default(),
                turn_time: None,
                chain: None,
            };
            let ServerMessage::Created { game, invite, .. } = c.ask(&create).await else {
                panic!("not created")
            };
            made = Some((game, invite));
            first
        } else {
            let (game, invite) = made.clone().unwrap();
            let join = ClientMessage::Join {
                game,
                invite,
                contribution,
                chain_end: None,
            };
            let ServerMessage::Joined { side, .. } = c.ask(&join).await else {
                panic!("not joined")
            };
            side
        };
        seats.push((c, side));
    }
    let id = made.unwrap().0;
    for (c, _) in &mut seats {
        let watch = ClientMessage::Watch {
            game: id.clone(),
            since: 0,
        };
        c.out.send(serde_json::to_string(&watch).unwrap()).unwrap();
    }
    // The game is built on the server (by the watches) once its options come back: the run
    // measures live games, not games built as play begins.
    seats[0].0.ask(&ClientMessage::Options { game: id.clone() }).await;
    Game { id, seats }
}

/// What one game's driver measured.
#[derive(Default)]
pub struct Measured {
    /// Round trips in microseconds, from the moment the order was due.
    pub round_trips: Vec<u64>,
    /// The same by the window of the run the order was due in.
    pub windows: Vec<(usize, u64)>,
    pub refused: u64,
    pub missed: u64,
    pub idle: u64,
}

/// Gives an order every `every` from `start` (offset by `phase`) until `end`.
async fn drive(mut game: Game, start: Instant, phase: Duration, every: Duration, end: Instant, seed: u64) -> Measured {
    let mut m = Measured::default();
    let mut rng = seed | 1;
    let mut due = start + phase;
    while due < end {
        tokio::time::sleep_until(due.into()).await;
        let began = due;
        let ask = ClientMessage::Options { game: game.id.clone() };
        let ServerMessage::Options { expect, options, .. } = game.seats[0].0.ask(&ask).await else {
            m.idle += 1;
            due += every;
            continue;
        };
        let seat = game
            .seats
            .iter()
            .position(|(_, side)| options.side.as_ref() == Some(side));
        let (Some(seat), Some(order)) = (seat, random_pick(&options, &mut rng)) else {
            m.idle += 1;
            due += every;
            continue;
        };
        let order = ClientMessage::Order {
            game: game.id.clone(),
            expect,
            order,
        };
        match game.seats[seat].0.ask(&order).await {
            ServerMessage::Accepted { .. } => {
                let window = (began - start).as_secs() as usize / WINDOW;
                m.windows.push((window, began.elapsed().as_micros() as u64));
            }
            _ => m.refused += 1,
        }
        due += every;
        while due < Instant::now() && due < end {
            m.missed += 1;
            due += every;
        }
    }
    m
}

/// Runs this driver's games against the server at `addr` and writes what it measured to `out`:
/// a line `refused idle missed pushes ended cpu elapsed`, then `window micros` a round trip.
pub fn driver(plan: &Plan, addr: SocketAddr, index: usize, out: &std::path::Path) {
    let games = plan.games;
    let total = plan.games * plan.servers;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let counts = Arc::new(Counts::default());
        let games: Vec<Game> = futures_util::stream::iter(0..games)
            .map(|_| new_game(addr, &plan.scenario, counts.clone()))
            .buffer_unordered(16)
            .collect()
            .await;
        println!("ready");
        std::io::stdout().flush().unwrap();
        let go = tokio::task::spawn_blocking(|| std::io::stdin().lines().next());
        go.await.unwrap();
        let (_, cpu_before) = usage("self");
        let start = Instant::now();
        let end = start + Duration::from_secs(plan.seconds);
        let mut tasks = Vec::new();
        for (j, game) in games.into_iter().enumerate() {
            let i = j * plan.servers + index;
            let phase = plan.every.mul_f64(i as f64 / total as f64);
            tasks.push(tokio::spawn(drive(
                game,
                start,
                phase,
                plan.every,
                end,
                i as u64 * 7919 + 1,
            )));
        }
        let mut all = Measured::default();
        for t in tasks {
            let m = t.await.unwrap();
            all.refused += m.refused;
            all.missed += m.missed;
            all.windows.extend(m.windows);
            all.idle += m.idle;
        }
        let elapsed = start.elapsed().as_secs_f64();
        let (_, cpu_after) = usage("self");
        let mut text = format!(
            "{} {} {} {} {} {} {}\n",
            all.refused,
            all.idle,
            all.missed,
            counts.pushes.load(Ordering::Relaxed),
            counts.ended.load(Ordering::Relaxed),
            cpu_after - cpu_before,
            elapsed
        );
        for (w, micros) in &all.windows {
            text.push_str(&format!("{w} {micros}\n"));
        }
        std::fs::write(out, text).expect("the driver's results");
    });
}
