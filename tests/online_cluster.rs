//! Two `hexfront serve` processes on one PostgreSQL: a game whose players and observers are
//! split across them is carried out by one process at a time (the one that holds its advisory
//! lock, handed over on request), its entries reach every connection through LISTEN/NOTIFY, and
//! when one process is killed with SIGKILL the other takes the game over and its clients go on.
//! Needs `HEXFRONT_TEST_POSTGRES` (as `.ci/run` sets); without it the test says so and passes.

mod common;

use common::online::{
    Seat, create, http_get, join_and_follow, next, play_on, postgres_db, spawn_server, temp_dir, verify_finished, watch,
};
use hexfront::ai::side_to_act;
use hexfront::net::client::{Client, Follower};
use hexfront::net::protocol::{ClientMessage, Opponent, ServerMessage};
use std::net::SocketAddr;

const SCENARIO: &str = "mortain-1944";

/// A client logged in as the player whose token is `token`.
async fn login(addr: SocketAddr, token: &str) -> Client {
    let mut c = Client::connect(&format!("ws://{addr}/ws")).await.unwrap();
    let answer = c.request(&ClientMessage::Login { token: token.into() }).await.unwrap();
    assert!(matches!(answer, ServerMessage::LoggedIn { .. }), "{answer:?}");
    c
}

/// A registered client: (client, token).
async fn register(addr: SocketAddr, name: &str) -> (Client, String) {
    let (c, _, token) = common::online::player(addr, name).await;
    (c, token)
}

/// Both seats play until the log holds `entries` entries (or the game ends), the observers
/// taking what comes meanwhile.
async fn play_until(a: &mut Seat, b: &mut Seat, observers: &mut [(Client, Follower)], game: &str, entries: usize) {
    while a.follower.len() < entries && a.follower.ended.is_none() {
        a.act(game).await;
        b.act(game).await;
        tokio::select! {
            m = next(&mut a.client) => a.take(m),
            m = next(&mut b.client) => b.take(m),
        }
    }
    while b.follower.len() < a.follower.len() {
        let m = next(&mut b.client).await;
        b.take(m);
    }
    for (client, follower) in observers.iter_mut() {
        while follower.len() < a.follower.len() {
            let m = next(client).await;
            follower.take(&m).unwrap();
        }
    }
}

/// A server process, killed when the test ends however it ends.
struct Process(std::process::Child);

impl Process {
    fn kill(&mut self) {
        self.0.kill().unwrap();
        self.0.wait().unwrap();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// (claims a server process took over from another, copies it brought up to date on taking a
/// game back rather than rebuilt), from its `/api/status`.
fn taken_over(addr: SocketAddr) -> (u64, u64) {
    let (status, body) = http_get(addr, "/api/status");
    assert_eq!(status, 200, "{body}");
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(json["database"], "postgres");
    (
        json["taken_over"].as_u64().unwrap(),
        json["caught_up"].as_u64().unwrap(),
    )
}

/// Reads `seat`'s messages until it holds `len` entries.
async fn until_len(seat: &mut Seat, len: usize) {
    while seat.follower.len() != len {
        let m = next(&mut seat.client).await;
        seat.take(m);
    }
}

/// Sends `message` and takes its answer, the seat taking what came before it.
async fn ask(seat: &mut Seat, message: &ClientMessage) -> ServerMessage {
    seat.client.send(message).await.unwrap();
    loop {
        match next(&mut seat.client).await {
            m @ (ServerMessage::TakenBack { .. }
            | ServerMessage::Options { .. }
            | ServerMessage::Refused { .. }
            | ServerMessage::Error { .. }) => return m,
            other => seat.take(other),
        }
    }
}

/// The side to act first gives an order through its process, the other player's process reads
/// the game (its copy then holds that order), and the order is taken back and given again: the
/// other process must see that the log changed, not only grew, when it next takes the game.
async fn first_order_taken_back(a: &mut Seat, b: &mut Seat, game: &str) {
    let a_first = side_to_act(a.follower.world()) == a.follower.my_side();
    let (mover, other) = if a_first { (a, b) } else { (b, a) };
    mover.act(game).await;
    until_len(mover, 1).await;
    until_len(other, 1).await;
    let options = ask(other, &ClientMessage::Options { game: game.into() }).await;
    assert!(matches!(options, ServerMessage::Options { .. }), "{options:?}");
    let undo = ClientMessage::Undo {
        game: game.into(),
        expect: 1,
    };
    let answer = ask(mover, &undo).await;
    assert!(
        matches!(answer, ServerMessage::TakenBack { index: 0, .. }),
        "{answer:?}"
    );
    until_len(mover, 0).await;
    until_len(other, 0).await;
    mover.sent = None;
}

/// Every copy holds the same entries, each with the same hash.
fn same_log(copies: &[&Follower]) -> usize {
    let first = copies[0].entries();
    for other in &copies[1..] {
        assert_eq!(other.len(), first.len());
        for (x, y) in first.iter().zip(other.entries()) {
            assert_eq!(
                (x.index, &x.order, x.hash),
                (y.index, &y.order, y.hash),
                "entry {}",
                x.index
            );
        }
    }
    first.len() * copies.len()
}

#[test]
fn two_server_processes_share_a_game_and_one_takes_it_over_when_the_other_dies() {
    let Ok(base) = std::env::var("HEXFRONT_TEST_POSTGRES") else {
        eprintln!("skipped: set HEXFRONT_TEST_POSTGRES to a PostgreSQL URL to run the two-process test");
        return;
    };
    let dir = temp_dir("cluster");
    let rt = common::online::runtime();
    rt.block_on(async {
        let db = postgres_db(&base, &dir).await;
        let (first, at_first) = spawn_server(&db, &dir.join("first.log"));
        let (second, at_second) = spawn_server(&db, &dir.join("second.log"));
        let (mut first, mut second) = (Process(first), Process(second));

        // Anna plays from the first process, Bert from the second; an observer on each.
        let (mut anna, anna_token) = register(at_first, "Anna").await;
        let (mut bert, _) = register(at_second, "Bert").await;
        // Hash-chained dice are for a server on a player's computer, not a shared database.
        let chained = ClientMessage::Create {
            scenario: SCENARIO.into(),
            side: "us".into(),
            opponent: Opponent::Invite,
            contribution: hexfront::net::client::contribution(),
            observer_delay: Default::default(),
            turn_time: None,
            chain: Some(true),
        };
        let refused = anna.request(&chained).await.unwrap();
        assert!(
            matches!(&refused, ServerMessage::Error { message } if message.contains("PostgreSQL")),
            "{refused:?}"
        );
        let (game, invite, _) = create(&mut anna, SCENARIO, "us", Opponent::Invite).await;
        let (fa, fb) = join_and_follow(&mut anna, &mut bert, &game, invite).await;
        let mut a = Seat::new(anna, fa, "standard", 1);
        let mut b = Seat::new(bert, fb, "standard", 2);
        first_order_taken_back(&mut a, &mut b, &game).await;
        let mut observers = Vec::new();
        for addr in [at_first, at_second] {
            let (mut c, _) = register(addr, "Watcher").await;
            let f = watch(&mut c, &game, 0, None).await;
            observers.push((c, f));
        }

        play_until(&mut a, &mut b, &mut observers, &game, 60).await;
        let before = a.follower.len();
        assert!(before >= 60, "the game ended after {before} entries");
        let mut compared = same_log(&[&a.follower, &b.follower, &observers[0].1, &observers[1].1]);
        // Both processes carried out orders of this game.
        let (one, two) = (a.orders, b.orders);
        assert!(one > 0 && two > 0, "orders given: Anna {one}, Bert {two}");
        let handed = [taken_over(at_first), taken_over(at_second)];
        assert!(
            handed.iter().all(|n| n.0 > 0),
            "claims taken over from the other process: {handed:?}"
        );
        assert!(
            handed.iter().any(|n| n.1 > 0),
            "no copy was brought up to date: {handed:?}"
        );

        // The first process dies: Anna and its observer go on through the second.
        first.kill();
        let anna = login(at_second, &anna_token).await;
        a = a.resumed(anna, &game).await;
        let (watcher, held) = observers.remove(0);
        drop(watcher);
        let (mut c, _) = register(at_second, "Watcher again").await;
        let since = held.len();
        let f = watch(&mut c, &game, since, Some(held)).await;
        observers.insert(0, (c, f));

        play_on(&mut a, &mut b, &game).await;
        play_until(&mut a, &mut b, &mut observers, &game, usize::MAX).await;
        compared += same_log(&[&a.follower, &b.follower, &observers[0].1, &observers[1].1]);
        assert_eq!(a.follower.ended, b.follower.ended);
        let after = a.follower.len();
        assert!(after > before, "no entry after the takeover ({before} before)");
        verify_finished(at_second, &game, &dir);
        second.kill();
        let checked = a.follower.checked + b.follower.checked;
        println!(
            "two processes: {after} entries ({before} before the kill), {compared} entry copies compared, \
             {checked} hashes checked by the players' clients; the game changed hands {} and {} times before \
             the kill",
            handed[0].0, handed[1].0
        );
        println!(
            "copies brought up to date on taking the game back (not rebuilt): {} and {}",
            handed[0].1, handed[1].1
        );
    });
}

/// What a process's `/api/status` says: (games held, claims taken over).
fn held_and_taken(addr: SocketAddr) -> (u64, u64) {
    let (_, body) = http_get(addr, "/api/status");
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    (
        json["games_held"].as_u64().unwrap(),
        json["taken_over"].as_u64().unwrap(),
    )
}

#[test]
fn observers_on_another_process_read_a_game_without_taking_it() {
    let Ok(base) = std::env::var("HEXFRONT_TEST_POSTGRES") else {
        eprintln!("skipped: set HEXFRONT_TEST_POSTGRES to a PostgreSQL URL to run the two-process test");
        return;
    };
    let dir = temp_dir("cluster-readers");
    let rt = common::online::runtime();
    rt.block_on(async {
        let db = postgres_db(&base, &dir).await;
        let (first, at_first) = spawn_server(&db, &dir.join("first.log"));
        let (second, at_second) = spawn_server(&db, &dir.join("second.log"));
        let (_first, _second) = (Process(first), Process(second));
        // Both players on the first process; two observers on the second, each reading the
        // game's log as it grows and asking what it takes now after every entry.
        let (mut anna, _) = register(at_first, "Anna").await;
        let (mut bert, _) = register(at_first, "Bert").await;
        let (game, invite, _) = create(&mut anna, SCENARIO, "us", Opponent::Invite).await;
        let (fa, fb) = join_and_follow(&mut anna, &mut bert, &game, invite).await;
        let mut a = Seat::new(anna, fa, "standard", 3);
        let mut b = Seat::new(bert, fb, "standard", 4);
        let mut observers = Vec::new();
        for name in ["Watcher 1", "Watcher 2"] {
            let (mut c, _) = register(at_second, name).await;
            let f = watch(&mut c, &game, 0, None).await;
            observers.push((c, f));
        }
        let mut reads = 0;
        for target in (2..=40).step_by(2) {
            play_until(&mut a, &mut b, &mut observers, &game, target).await;
            for (client, follower) in observers.iter_mut() {
                let held = follower.len();
                client
                    .send(&ClientMessage::Options { game: game.clone() })
                    .await
                    .unwrap();
                loop {
                    match next(client).await {
                        ServerMessage::Options { expect, .. } => {
                            // Read from the database when asked: never behind what this client
                            // held when it asked (entries it received while waiting may be newer).
                            assert!(expect >= held, "the reading process's copy is up to date");
                            break;
                        }
                        m => follower.take(&m).unwrap(),
                    }
                }
                reads += 1;
            }
        }
        // Orders still on their way come back; then every copy reads to the longest log.
        for seat in [&mut a, &mut b] {
            if let Some(e) = seat.sent.filter(|e| seat.follower.len() <= *e) {
                until_len(seat, e + 1).await;
            }
        }
        let longest = a.follower.len().max(b.follower.len());
        until_len(&mut a, longest).await;
        until_len(&mut b, longest).await;
        for (client, follower) in observers.iter_mut() {
            while follower.len() < longest {
                let m = next(client).await;
                follower.take(&m).unwrap();
            }
        }
        let compared = same_log(&[&a.follower, &b.follower, &observers[0].1, &observers[1].1]);
        let (held_second, taken_second) = held_and_taken(at_second);
        let (held_first, taken_first) = held_and_taken(at_first);
        assert_eq!(
            (held_second, taken_second),
            (0, 0),
            "the readers' process took no claim"
        );
        assert_eq!(
            (held_first, taken_first),
            (1, 0),
            "the players' process kept the game throughout"
        );
        println!("{reads} reads on the other process, {compared} entry copies compared, no claim changed hands");
    });
}
