//! The stored-games benchmark: a SQLite database holding many stored games (copies of a real
//! log of St. Vith, played out by random legal orders), the server on it, and two things a
//! player waits for: their list of games (the newest 50 of their 1,000) and a game opened cold
//! (not in the server's memory: rebuilt by replaying its log from the database, then sent), each
//! as p50/p99 over many tries.
//!
//! ```sh
//! cargo bench --no-default-features --bench online_stored -- --games 100000 --tries 500
//! ```

use hexfront::game::dice_proof::{self, hex};
use hexfront::net::client::Client;
use hexfront::net::protocol::{ClientMessage, ServerMessage};
use hexfront::net::store::{GameRow, SeatRow, Store};
use rand::SeedableRng;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Games of the player whose list is read.
const MINE: usize = 1_000;
/// Games stored with the whole log (the rest keep its first entries), for the cold opens.
const WHOLE: usize = 1_000;
/// Entries the other games keep.
const SHORT: usize = 10;

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(default)
}

/// The game's row and seats (every copy shares the secret and contributions, so every copy's
/// log replays with the same dice).
fn template(me: &str, other: &str) -> (GameRow, Vec<SeatRow>) {
    let (text, _) = hexfront::net::lobby::shipped("st-vith-1944").unwrap();
    let secret = [7u8; 32];
    let row = GameRow {
        id: String::new(),
        scenario: "st-vith-1944".into(),
        scenario_text: text.into(),
        ruleset_text: None,
        edition: hexfront::game::edition::CURRENT_EDITION,
        secret: hex(&secret),
        commitment: dice_proof::commitment(&secret),
        invite: None,
        listed: false,
        ended: false,
        observer_delay: Default::default(),
        turn_time: None,
        waiting: None,
        chained: false,
    };
    let seat = |side: usize, player: &str, c: u8| SeatRow {
        side,
        player: Some(player.into()),
        computer: None,
        contribution: Some(hex(&[c; 32])),
        chain_end: None,
    };
    (row, vec![seat(0, me, 1), seat(1, other, 2)])
}

/// A real log: random legal orders to the game's end (entries as stored, JSON).
fn real_log(row: &GameRow, seats: &[SeatRow]) -> Vec<String> {
    let seed = hexfront::net::live::game_seed(row, seats).unwrap();
    let scenario = row.scenario().unwrap();
    let mut app = hexfront::game::headless_app(&scenario, seed);
    let world = app.world_mut();
    hexfront::game::start::set_edition(world, row.edition);
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    let mut entries = Vec::new();
    while entries.len() < 2_000 {
        let Some(order) = hexfront::ai::random::random_order(world, &mut rng) else {
            break;
        };
        let Ok(i) = hexfront::game::execute::execute(world, order) else {
            continue;
        };
        let entry = &world.resource::<hexfront::game::log::OrderLog>().entries[i];
        entries.push(serde_json::to_string(entry).unwrap());
    }
    entries
}

/// Stores `n` copies, `MINE` of them the player's, `WHOLE` with the whole log.
async fn populate(url: &str, n: usize, row: &GameRow, seats: &[SeatRow], log: &[String]) {
    use sqlx::Connection;
    let mut db = sqlx::AnyConnection::connect(url).await.unwrap();
    let started = Instant::now();
    let text_hash = hexfront::net::store::text_hash(&row.scenario_text);
    sqlx::query("INSERT INTO scenario_texts (hash, text) VALUES ($1, $2)")
        .bind(&text_hash)
        .bind(&row.scenario_text)
        .execute(&mut db)
        .await
        .unwrap();
    for chunk in (0..n).collect::<Vec<_>>().chunks(2_000) {
        let mut tx = db.begin().await.unwrap();
        for &i in chunk {
            let id = format!("g-{i:012x}");
            let player = if i % (n / MINE).max(1) == 0 {
                seats[0].player.clone()
            } else {
                Some("p-others".into())
            };
            sqlx::query(
                "INSERT INTO games (id, scenario, scenario_hash, edition, secret, commitment, invite, listed, ended, created, \
                 observer_delay, turn_seconds, turn_concede) VALUES ($1, $2, $3, $4, $5, $6, NULL, 0, 0, $7, '\"none\"', NULL, 0)",
            )
            .bind(&id)
            .bind(&row.scenario)
            .bind(&text_hash)
            .bind(i64::from(row.edition))
            .bind(&row.secret)
            .bind(&row.commitment)
            .bind(i as i64)
            .execute(&mut *tx)
            .await
            .unwrap();
            for (s, p) in seats.iter().zip([player, seats[1].player.clone()]) {
                sqlx::query(
                    "INSERT INTO seats (game, side, player, computer, contribution) VALUES ($1, $2, $3, NULL, $4)",
                )
                .bind(&id)
                .bind(s.side as i64)
                .bind(p)
                .bind(s.contribution.clone())
                .execute(&mut *tx)
                .await
                .unwrap();
            }
            let keep = if i % (n / WHOLE).max(1) == 1 {
                log.len()
            } else {
                SHORT.min(log.len())
            };
            for (k, e) in log.iter().take(keep).enumerate() {
                sqlx::query("INSERT INTO entries (game, idx, entry, at) VALUES ($1, $2, $3, 0)")
                    .bind(&id)
                    .bind(k as i64)
                    .bind(e)
                    .execute(&mut *tx)
                    .await
                    .unwrap();
            }
        }
        tx.commit().await.unwrap();
    }
    eprintln!("{n} games stored in {:.0} s", started.elapsed().as_secs_f64());
}

fn get(addr: SocketAddr, path: &str, token: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_nodelay(true).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text[9..12].parse().unwrap();
    (status, text.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string())
}

fn percentiles(mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    let at = |p: f64| ms[((ms.len() - 1) as f64 * p).round() as usize];
    format!("p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms", at(0.5), at(0.99), at(1.0))
}

fn main() {
    let n = arg("--games", 100_000).max(WHOLE * 2);
    let tries = arg("--tries", 500);
    let dir = std::env::temp_dir().join(format!("hexfront-stored-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("{}&synchronous=normal", Store::sqlite_url(&dir.join("stored.db")));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = Store::open(&url).await.unwrap();
        let token = "b".repeat(64);
        store
            .add_player("p-me", &hexfront::net::lobby::token_hash(&token), "Me")
            .await
            .unwrap();
        store.add_player("p-others", "x", "Others").await.unwrap();
        drop(store);
        let (row, seats) = template("p-me", "p-others");
        let log = real_log(&row, &seats);
        eprintln!("a real log of {} entries", log.len());
        populate(&url.replace("&synchronous=normal", ""), n, &row, &seats, &log).await;
        // Every game cold: a game leaves memory as soon as it was used.
        let options = hexfront::net::server::Options {
            idle: Duration::ZERO,
            ..Default::default()
        };
        let server = hexfront::net::server::start_with("127.0.0.1:0".parse().unwrap(), &url, options)
            .await
            .unwrap();
        let addr = server.addr;
        let mut lists = Vec::new();
        for _ in 0..tries {
            let t = Instant::now();
            let (status, body) = get(addr, "/api/players/me/games", &token);
            lists.push(t.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(status, 200, "{body}");
            assert_eq!(body.matches("\"game\"").count(), 50);
        }
        let mut opens = Vec::new();
        let mut c = Client::connect(&format!("ws://{addr}/ws")).await.unwrap();
        let step = (n / WHOLE).max(1);
        for k in 0..tries {
            let id = format!("g-{:012x}", (k % WHOLE) * step + 1);
            let t = Instant::now();
            c.send(&ClientMessage::Watch { game: id, since: 0 }).await.unwrap();
            let mut got = 0;
            while got < log.len() {
                if let ServerMessage::Entry { .. } = c.next().await.unwrap() {
                    got += 1;
                }
            }
            opens.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        let size = std::fs::metadata(dir.join("stored.db")).map_or(0, |m| m.len());
        println!(
            "{n} stored games ({:.0} MiB of SQLite), the player's 50 newest of {MINE}: {}",
            size as f64 / 1_048_576.0,
            percentiles(lists)
        );
        println!(
            "a game of {} entries opened cold (rebuilt from the database, then sent): {}",
            log.len(),
            percentiles(opens)
        );
        server.stop().await;
    });
    let _ = std::fs::remove_dir_all(&dir);
}
