//! The online load benchmark: `hexfront serve` in a process of its own (a temporary SQLite file),
//! and live games driven from here, each by two WebSocket clients (both seats, both following
//! the game) that give random legal orders, built from the server's `options`, at a fixed
//! open-loop rate. It reports the order round trip (`options` then `order` until `accepted`,
//! timed from the moment the order was due, so a late start counts), orders a second, ticks
//! missed because the game's last order was still on its way, and the server's memory and CPU
//! beside this tool's own CPU (both run on one machine).
//!
//! ```sh
//! cargo bench --no-default-features --bench online_load -- --games 1000 --every 5 --seconds 60
//! cargo bench --no-default-features --bench online_load -- --games 1000 --every 1.1 --synchronous normal
//! ```

use futures_util::{SinkExt, StreamExt};
use hexfront::game::order_options::random_pick;
use hexfront::net::protocol::{ClientMessage, Opponent, PROTOCOL, ServerMessage};
use std::io::BufRead;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

/// What to run.
struct Plan {
    games: usize,
    every: Duration,
    seconds: u64,
    scenario: String,
    /// SQLite's `synchronous` (`full`, the server's default, or `normal`).
    synchronous: String,
    /// The server's `--workers` (left to the server when not given).
    workers: Option<String>,
}

fn plan() -> Plan {
    let mut plan = Plan {
        games: 100,
        every: Duration::from_secs(5),
        seconds: 60,
        scenario: "st-vith-1944".into(),
        synchronous: "full".into(),
        workers: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--games" => plan.games = value.parse().expect("--games N"),
            "--every" => plan.every = Duration::from_secs_f64(value.parse().expect("--every SECONDS")),
            "--seconds" => plan.seconds = value.parse().expect("--seconds S"),
            "--scenario" => plan.scenario = value,
            "--synchronous" => plan.synchronous = value,
            "--workers" => plan.workers = Some(value),
            // `cargo bench` passes `--bench`.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    plan
}

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
struct Measured {
    /// Round trips in microseconds, from the moment the order was due.
    round_trips: Vec<u64>,
    /// The same by the window of the run the order was due in.
    windows: Vec<(usize, u64)>,
    refused: u64,
    missed: u64,
    idle: u64,
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
                m.round_trips.push(began.elapsed().as_micros() as u64);
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

/// (RSS in KiB, CPU seconds) of a process from /proc.
fn usage(pid: &str) -> (u64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|i| fields.get(*i)?.parse::<u64>().ok())
        .sum();
    (rss, ticks as f64 / 100.0)
}

fn spawn_server(db: &str, log: &std::path::Path, workers: Option<&str>) -> (std::process::Child, SocketAddr) {
    let log = std::fs::File::create(log).expect("the server's log file");
    let mut args = vec!["serve", "--listen", "127.0.0.1:0", "--idle", "1000000", "--db", db];
    if let Some(n) = workers {
        args.extend(["--workers", n]);
    }
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hexfront"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(log)
        .spawn()
        .expect("the server starts");
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("the server prints its address").unwrap();
        if let Some(rest) = line.split("on http://").nth(1) {
            break rest.split_whitespace().next().unwrap().parse().unwrap();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    (child, addr)
}

/// Seconds a window of the run covers, for the round trips by time.
const WINDOW: usize = 5;

/// The p99 round trip (ms) of each window of the run, in order.
fn window_p99(windows: &mut [(usize, u64)]) -> Vec<f64> {
    windows.sort_unstable();
    windows
        .chunk_by(|a, b| a.0 == b.0)
        .map(|w| percentile(&w.iter().map(|x| x.1).collect::<Vec<_>>(), 0.99))
        .collect()
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

fn main() {
    let plan = plan();
    let dir = std::env::temp_dir().join(format!("hexfront-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!(
        "{}&synchronous={}",
        hexfront::net::store::Store::sqlite_url(&dir.join("load.db")),
        plan.synchronous
    );
    let log = dir.join("server.log");
    let (mut child, addr) = spawn_server(&db, &log, plan.workers.as_deref());
    let pid = child.id().to_string();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let counts = Arc::new(Counts::default());
        let (rss_empty, _) = usage(&pid);
        let made = Instant::now();
        let games: Vec<Game> = futures_util::stream::iter(0..plan.games)
            .map(|_| new_game(addr, &plan.scenario, counts.clone()))
            .buffer_unordered(16)
            .collect()
            .await;
        // Every game is built (`new_game`); let the server settle before the clock starts.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let (rss_live, cpu_before) = usage(&pid);
        let (_, tool_before) = usage("self");
        eprintln!(
            "{} games of {} made in {:.1} s; server RSS {:.0} MiB empty, {:.0} MiB with them live",
            plan.games,
            plan.scenario,
            made.elapsed().as_secs_f64(),
            rss_empty as f64 / 1024.0,
            rss_live as f64 / 1024.0
        );
        let start = Instant::now();
        let end = start + Duration::from_secs(plan.seconds);
        let mut tasks = Vec::new();
        for (i, game) in games.into_iter().enumerate() {
            let phase = plan.every.mul_f64(i as f64 / plan.games as f64);
            tasks.push(tokio::spawn(drive(game, start, phase, plan.every, end, i as u64 * 7919 + 1)));
        }
        let mut all = Measured::default();
        let mut peak_rss = rss_live;
        for t in tasks {
            let m = t.await.unwrap();
            all.round_trips.extend(m.round_trips);
            all.refused += m.refused;
            all.missed += m.missed;
            all.windows.extend(m.windows);
            all.idle += m.idle;
            peak_rss = peak_rss.max(usage(&pid).0);
        }
        let elapsed = start.elapsed().as_secs_f64();
        let (rss_end, cpu_after) = usage(&pid);
        let (_, tool_after) = usage("self");
        all.round_trips.sort_unstable();
        let n = all.round_trips.len();
        let windows = window_p99(&mut all.windows);
        println!(
            "games {} | an order per game every {:.1} s | {:.0} s | scenario {} | SQLite synchronous={} | workers {}",
            plan.games,
            plan.every.as_secs_f64(),
            elapsed,
            plan.scenario,
            plan.synchronous,
            plan.workers.as_deref().unwrap_or("one a core")
        );
        println!(
            "orders accepted {n} ({:.1}/s), refused {}, no order to give {}, ticks missed {}; pushes received {}, games ended {}",
            n as f64 / elapsed,
            all.refused,
            all.idle,
            all.missed,
            counts.pushes.load(Ordering::Relaxed),
            counts.ended.load(Ordering::Relaxed) / 2
        );
        println!(
            "round trip (options + order, from the moment due): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            percentile(&all.round_trips, 0.5),
            percentile(&all.round_trips, 0.99),
            percentile(&all.round_trips, 1.0)
        );
        let by_time: Vec<String> = windows.iter().map(|p| format!("{p:.0}")).collect();
        println!("p99 by {WINDOW}-second window of the run (ms): {}", by_time.join(" "));
        println!(
            "server: RSS {:.0} MiB at the end (peak seen {:.0}), {:.2} MiB a live game; CPU {:.0}% of one core; this tool: CPU {:.0}%",
            rss_end as f64 / 1024.0,
            peak_rss as f64 / 1024.0,
            (rss_live.saturating_sub(rss_empty)) as f64 / 1024.0 / plan.games.max(1) as f64,
            100.0 * (cpu_after - cpu_before) / elapsed,
            100.0 * (tool_after - tool_before) / elapsed
        );
    });
    let _ = child.kill();
    let _ = child.wait();
    // What the server said on its standard error (its complaints), before its folder goes.
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    let lines: Vec<&str> = said.lines().collect();
    if !lines.is_empty() {
        println!("server's log: {} lines, the last ones:", lines.len());
        for line in &lines[lines.len().saturating_sub(10)..] {
            println!("  {line}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
