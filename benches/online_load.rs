//! The online load benchmark: `hexfront serve` in processes of their own, and live games driven
//! by driver processes of this tool (one a server; a process may hold only so many sockets), each
//! game by two WebSocket clients (both seats, both following the game) that give random legal
//! orders, built from the server's `options`, at a fixed open-loop rate. It reports the order round
//! trip (`options` then `order` until `accepted`, timed from the moment the order was due, so a
//! late start counts), orders a second, ticks missed because the game's last order was still on
//! its way, and the servers' memory and CPU beside this tool's own CPU and PostgreSQL's (all run
//! on one machine).
//!
//! One server on a temporary SQLite file by default; `--db postgres://…` (a user who may create
//! databases) makes a fresh database `hexfront_load` there, and `--servers K` runs K server
//! processes on it, each game held by one of them.
//!
//! ```sh
//! cargo bench --no-default-features --bench online_load -- --games 1000 --every 5 --seconds 60
//! cargo bench --no-default-features --bench online_load -- --games 1000 --every 1.1 --synchronous normal
//! cargo bench --no-default-features --bench online_load -- --games 10000 --every 10 \
//!     --db postgres://hexfront_ci:hexfront_ci@127.0.0.1:5432/hexfront_ci --servers 2
//! ```

#[path = "online_load/games.rs"]
mod games;

use games::{Measured, driver};
use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone)]
struct Plan {
    games: usize,
    every: Duration,
    seconds: u64,
    scenario: String,
    /// SQLite's `synchronous` (`full`, the server's default, or `normal`).
    synchronous: String,
    /// The server's `--workers` (left to the server when not given).
    workers: Option<String>,
    /// A PostgreSQL URL (a user who may create databases); SQLite when not given.
    postgres: Option<String>,
    /// Server processes (each with a driver process of this tool).
    servers: usize,
    /// In a driver process: the server it drives, its index among the drivers, and the file its
    /// round trips go to.
    drive: Option<(SocketAddr, usize, std::path::PathBuf)>,
}

fn plan() -> Plan {
    let mut plan = Plan {
        games: 100,
        every: Duration::from_secs(5),
        seconds: 60,
        scenario: "st-vith-1944".into(),
        synchronous: "full".into(),
        workers: None,
        postgres: None,
        servers: 1,
        drive: None,
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
            "--db" => plan.postgres = Some(value),
            "--servers" => plan.servers = value.parse().expect("--servers K"),
            "--drive" => {
                let mut parts = value.split(',');
                let addr = parts
                    .next()
                    .and_then(|a| a.parse().ok())
                    .expect("--drive ADDR,INDEX,FILE");
                let index = parts
                    .next()
                    .and_then(|a| a.parse().ok())
                    .expect("--drive ADDR,INDEX,FILE");
                let file = parts.next().expect("--drive ADDR,INDEX,FILE").into();
                plan.drive = Some((addr, index, file));
            }
            // `cargo bench` passes `--bench`.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    assert!(plan.servers >= 1, "--servers K needs K of at least 1");
    assert!(
        plan.servers == 1 || plan.postgres.is_some(),
        "--servers above 1 needs --db postgres://… (processes share a game store only there)"
    );
    plan
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
    match plan.drive.clone() {
        Some((addr, index, out)) => driver(&plan, addr, index, &out),
        None => conduct(&plan),
    }
}

/// This driver's share of the games (of `plan.games` over `plan.servers` drivers).
fn share(plan: &Plan, index: usize) -> usize {
    plan.games / plan.servers + usize::from(index < plan.games % plan.servers)
}

/// A fresh database `hexfront_load` beside the one `base` names; its URL.
fn fresh_postgres(base: &str) -> String {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut admin = sqlx::AnyConnection::connect(base.split('?').next().unwrap_or(base))
            .await
            .expect("PostgreSQL answers");
        for sql in ["DROP DATABASE IF EXISTS hexfront_load", "CREATE DATABASE hexfront_load"] {
            sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
                .execute(&mut admin)
                .await
                .expect("the user may create databases");
        }
    });
    // Its parameters kept (`?options=-c%20synchronous_commit%3Doff`, say).
    let (url, query) = base.split_once('?').unwrap_or((base, ""));
    let (server, _) = url.rsplit_once('/').expect("a URL ending in /DATABASE");
    match query {
        "" => format!("{server}/hexfront_load"),
        _ => format!("{server}/hexfront_load?{query}"),
    }
}

/// CPU seconds of every PostgreSQL process on this machine (0 without one).
fn postgres_cpu() -> f64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    dir.filter_map(|e| e.ok())
        .filter(|e| std::fs::read_to_string(e.path().join("comm")).is_ok_and(|c| c.trim() == "postgres"))
        .map(|e| usage(&e.file_name().to_string_lossy()).1)
        .sum()
}

/// Starts the servers and the drivers, starts the clock once every game is live, and reports.
fn conduct(plan: &Plan) {
    let dir = std::env::temp_dir().join(format!("hexfront-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = match &plan.postgres {
        Some(base) => fresh_postgres(base),
        None => format!(
            "{}&synchronous={}",
            hexfront::net::store::Store::sqlite_url(&dir.join("load.db")),
            plan.synchronous
        ),
    };
    let mut servers: Vec<(std::process::Child, SocketAddr)> = (0..plan.servers)
        .map(|k| spawn_server(&db, &dir.join(format!("server{k}.log")), plan.workers.as_deref()))
        .collect();
    let pids: Vec<String> = servers.iter().map(|(c, _)| c.id().to_string()).collect();
    let servers_usage = || {
        pids.iter()
            .map(|p| usage(p))
            .fold((0, 0.0), |(r, c), (r2, c2)| (r + r2, c + c2))
    };
    let (rss_empty, _) = servers_usage();
    let made = Instant::now();
    let mut drivers: Vec<_> = servers
        .iter()
        .enumerate()
        .map(|(k, (_, addr))| spawn_driver(plan, *addr, k, &dir.join(format!("driver{k}.txt"))))
        .collect();
    for (child, lines) in &mut drivers {
        let ready = lines.next().and_then(|l| l.ok()).unwrap_or_default();
        assert_eq!(ready, "ready", "a driver made its games (driver {})", child.id());
    }
    // Every game is built; let the servers settle before the clock starts.
    std::thread::sleep(Duration::from_secs(2));
    let (rss_live, cpu_before) = servers_usage();
    let postgres_before = postgres_cpu();
    eprintln!(
        "{} games of {} made in {:.1} s on {} server(s); server RSS {:.0} MiB empty, {:.0} MiB with them live",
        plan.games,
        plan.scenario,
        made.elapsed().as_secs_f64(),
        plan.servers,
        rss_empty as f64 / 1024.0,
        rss_live as f64 / 1024.0
    );
    for (child, _) in &mut drivers {
        let stdin = child.stdin.as_mut().unwrap();
        writeln!(stdin, "go").unwrap();
        stdin.flush().unwrap();
    }
    let mut peak_rss = rss_live;
    while drivers.iter_mut().any(|(c, _)| c.try_wait().unwrap().is_none()) {
        std::thread::sleep(Duration::from_millis(500));
        peak_rss = peak_rss.max(servers_usage().0);
    }
    let (rss_end, cpu_after) = servers_usage();
    let postgres_used = postgres_cpu() - postgres_before;
    let mut all = Measured::default();
    let mut done = Done::default();
    for k in 0..plan.servers {
        done.add(read_driver(&dir.join(format!("driver{k}.txt")), &mut all));
    }
    let usage = Usage {
        rss_empty,
        rss_live,
        rss_end,
        peak_rss,
        server_cpu: cpu_after - cpu_before,
        postgres_cpu: postgres_used,
    };
    report(plan, all, &done, &usage);
    for (child, _) in &mut servers {
        let _ = child.kill();
        let _ = child.wait();
    }
    for k in 0..plan.servers {
        print_log(&dir.join(format!("server{k}.log")));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

type Lines = std::io::Lines<std::io::BufReader<std::process::ChildStdout>>;

/// A driver process of this tool for the server at `addr`: it says `ready` once its games are
/// live and starts on `go`.
fn spawn_driver(plan: &Plan, addr: SocketAddr, index: usize, out: &std::path::Path) -> (std::process::Child, Lines) {
    let mut args = vec![
        "--games".to_string(),
        share(plan, index).to_string(),
        "--every".into(),
        plan.every.as_secs_f64().to_string(),
        "--seconds".into(),
        plan.seconds.to_string(),
        "--scenario".into(),
        plan.scenario.clone(),
        "--servers".into(),
        plan.servers.to_string(),
        "--drive".into(),
        format!("{addr},{index},{}", out.display()),
    ];
    if let Some(db) = &plan.postgres {
        args.extend(["--db".into(), db.clone()]);
    }
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("a driver starts");
    let lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    (child, lines)
}

/// What a driver counted besides its round trips.
#[derive(Default)]
struct Done {
    pushes: u64,
    ended: u64,
    /// The drivers' CPU seconds over the run, and the longest run.
    cpu: f64,
    elapsed: f64,
}

impl Done {
    fn add(&mut self, other: Done) {
        self.pushes += other.pushes;
        self.ended += other.ended;
        self.cpu += other.cpu;
        self.elapsed = self.elapsed.max(other.elapsed);
    }
}

/// The servers' memory (KiB) and CPU (seconds) over the run, and PostgreSQL's CPU.
struct Usage {
    rss_empty: u64,
    rss_live: u64,
    rss_end: u64,
    peak_rss: u64,
    server_cpu: f64,
    postgres_cpu: f64,
}

/// Adds a driver's round trips to `all` and returns its counts.
fn read_driver(file: &std::path::Path, all: &mut Measured) -> Done {
    let text = std::fs::read_to_string(file).expect("a driver wrote its results");
    let mut lines = text.lines();
    let head: Vec<f64> = lines
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    all.refused += head[0] as u64;
    all.idle += head[1] as u64;
    all.missed += head[2] as u64;
    for line in lines {
        let (w, micros) = line.split_once(' ').unwrap();
        let micros: u64 = micros.parse().unwrap();
        all.windows.push((w.parse().unwrap(), micros));
        all.round_trips.push(micros);
    }
    Done {
        pushes: head[3] as u64,
        ended: head[4] as u64,
        cpu: head[5],
        elapsed: head[6],
    }
}

fn report(plan: &Plan, mut all: Measured, done: &Done, usage: &Usage) {
    let elapsed = done.elapsed;
    all.round_trips.sort_unstable();
    let n = all.round_trips.len();
    let windows = window_p99(&mut all.windows);
    let store = match &plan.postgres {
        Some(_) => "PostgreSQL".to_string(),
        None => format!("SQLite synchronous={}", plan.synchronous),
    };
    println!(
        "games {} | an order per game every {:.1} s | {:.0} s | scenario {} | {store} | {} server(s), workers {}",
        plan.games,
        plan.every.as_secs_f64(),
        elapsed,
        plan.scenario,
        plan.servers,
        plan.workers.as_deref().unwrap_or("one a core")
    );
    println!(
        "orders accepted {n} ({:.1}/s), refused {}, no order to give {}, ticks missed {}; pushes received {}, games ended {}",
        n as f64 / elapsed,
        all.refused,
        all.idle,
        all.missed,
        done.pushes,
        done.ended / 2
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
        "servers: RSS {:.0} MiB at the end (peak seen {:.0}), {:.2} MiB a live game; CPU {:.0}% of one core; this tool: CPU {:.0}%; PostgreSQL: CPU {:.0}%",
        usage.rss_end as f64 / 1024.0,
        usage.peak_rss as f64 / 1024.0,
        (usage.rss_live.saturating_sub(usage.rss_empty)) as f64 / 1024.0 / plan.games.max(1) as f64,
        100.0 * usage.server_cpu / elapsed,
        100.0 * done.cpu / elapsed,
        100.0 * usage.postgres_cpu / elapsed
    );
}

/// What a server said on its standard error (its complaints), before its folder goes.
fn print_log(log: &std::path::Path) {
    let said = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = said.lines().collect();
    if !lines.is_empty() {
        println!("{}: {} lines, the last ones:", log.display(), lines.len());
        for line in &lines[lines.len().saturating_sub(10)..] {
            println!("  {line}");
        }
    }
}
