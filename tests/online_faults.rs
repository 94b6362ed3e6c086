//! The server killed with SIGKILL at random moments while several games stream orders: after
//! each restart on the same database every acknowledged order is there (the same order at the
//! same index), the clients' copies replay every entry to the server's hash, a resent order is
//! taken once, and the games go on; finished games verify with `hexfront replay --verify`.
//! Its database is a SQLite file, or PostgreSQL as for the other online tests.
//! `HEXFRONT_FAULT_KILLS` sets how many kills (100 by default), `HEXFRONT_FAULT_SEED` the
//! moments' seed.

mod common;

use common::online::{create, db_url, join_and_follow, next, spawn_server, temp_dir, verify_finished, watch};
use futures_util::future::select_all;
use hexfront::ai::{ComputerPlayer, Profile, side_to_act};
use hexfront::game::order::Order;
use hexfront::net::client::{Client, Follower};
use hexfront::net::protocol::{ClientMessage, Opponent, ServerMessage};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

/// Games played at once, each by two clients.
const GAMES: usize = 3;
const SCENARIO: &str = "st-vith-1944";

/// One player of a game: its token, its connection while the server lives, its copy of the game
/// and the computer player that chooses its orders.
struct Seat {
    token: String,
    client: Option<Client>,
    follower: Option<Follower>,
    ai: Option<ComputerPlayer>,
    /// The log length the last order sent expects (the seat waits for that entry).
    sent: Option<usize>,
    /// Orders sent and not answered yet, by the log length they expect.
    unanswered: BTreeMap<usize, Order>,
}

/// A game and its two seats.
struct Game {
    id: String,
    seats: [Seat; 2],
    /// Every order the server acknowledged, by index.
    acked: BTreeMap<usize, Order>,
}

/// What the run counted.
#[derive(Default, Debug)]
struct Tally {
    kills: usize,
    acknowledged: usize,
    /// Orders the server committed whose acknowledgement the kill swallowed.
    committed_unacknowledged: usize,
    /// Orders sent again after a restart because the log did not hold them.
    resent: usize,
    entries_checked: usize,
    finished: usize,
}

async fn connect(addr: SocketAddr, token: Option<&str>) -> (Client, String) {
    let mut c = Client::connect(&format!("ws://{addr}/ws")).await.unwrap();
    let message = match token {
        Some(t) => ClientMessage::Login { token: t.into() },
        None => ClientMessage::Register { name: "Faulty".into() },
    };
    match c.request(&message).await.unwrap() {
        ServerMessage::Registered { token, .. } => (c, token),
        ServerMessage::LoggedIn { .. } => (c, token.unwrap().into()),
        other => panic!("not let in: {other:?}"),
    }
}

/// A new game between two new players, both following it.
async fn new_game(addr: SocketAddr, number: u64) -> Game {
    let (mut a, token_a) = connect(addr, None).await;
    let (mut b, token_b) = connect(addr, None).await;
    let (game, invite, _) = create(&mut a, SCENARIO, "german", Opponent::Invite).await;
    let (fa, fb) = join_and_follow(&mut a, &mut b, &game, invite).await;
    let mut seats = Vec::new();
    for (i, (client, token, follower)) in [(a, token_a, fa), (b, token_b, fb)].into_iter().enumerate() {
        let side = follower.my_side().unwrap();
        seats.push(Seat {
            token,
            client: Some(client),
            follower: Some(follower),
            ai: Some(ComputerPlayer::new(side, Profile::standard(), number * 2 + i as u64)),
            sent: None,
            unanswered: BTreeMap::new(),
        });
    }
    let [a, b]: [Seat; 2] = seats.try_into().ok().unwrap();
    Game {
        id: game,
        seats: [a, b],
        acked: BTreeMap::new(),
    }
}

impl Seat {
    fn follower(&mut self) -> &mut Follower {
        self.follower.as_mut().unwrap()
    }

    /// Sends this seat's next order when the game waits for it and its last one came back.
    async fn act(&mut self, game: &str) {
        let len = self.follower().len();
        if self.sent.is_some_and(|e| len <= e) || self.follower().ended.is_some() {
            return;
        }
        self.sent = None;
        let follower = self.follower.as_mut().unwrap();
        let mine = follower.my_side();
        if side_to_act(follower.world()) != mine {
            return;
        }
        let order = self.ai.as_mut().unwrap().next_order(follower.world()).unwrap();
        self.send(game, len, order).await;
    }

    async fn send(&mut self, game: &str, expect: usize, order: Order) {
        let message = ClientMessage::Order {
            game: game.into(),
            expect,
            order: order.clone(),
        };
        self.sent = Some(expect);
        self.unanswered.insert(expect, order);
        // A send into a dead server is found out by the next read.
        let _ = self.client.as_mut().unwrap().send(&message).await;
    }
}

impl Game {
    /// Takes one message for seat `s` (its connection may not drop: the kill comes after).
    fn take(&mut self, s: usize, message: Result<ServerMessage, String>, tally: &mut Tally) {
        let message = message.unwrap_or_else(|e| panic!("game {}: a connection dropped before the kill: {e}", self.id));
        match &message {
            ServerMessage::Accepted { index, .. } => {
                let order = self.seats[s]
                    .unanswered
                    .remove(index)
                    .unwrap_or_else(|| panic!("game {}: accepted as {index}, an order not sent", self.id));
                if self.acked.insert(*index, order).is_none() {
                    tally.acknowledged += 1;
                }
            }
            ServerMessage::Refused { reason, .. } => panic!("game {}: an order was refused: {reason}", self.id),
            ServerMessage::Error { message } => panic!("game {}: server error: {message}", self.id),
            m => {
                let follower = self.seats[s].follower();
                follower.take(m).unwrap_or_else(|e| panic!("game {}: {e}", self.id));
            }
        }
    }

    fn ended(&self) -> bool {
        self.seats.iter().all(|s| s.follower.as_ref().unwrap().ended.is_some())
    }

    /// After a restart: each seat logs in again and follows from the entries it holds; the log
    /// must hold every acknowledged order; an order the log does not hold is sent again.
    async fn resume(&mut self, addr: SocketAddr, tally: &mut Tally) {
        for s in 0..2 {
            let seat = &mut self.seats[s];
            let (mut client, _) = connect(addr, Some(&seat.token)).await;
            let held = seat.follower().len();
            let follower = seat.follower.take();
            seat.follower = Some(watch(&mut client, &self.id, held, follower).await);
            seat.client = Some(client);
        }
        let want = self.acked.keys().next_back().map_or(0, |i| i + 1);
        for s in 0..2 {
            while self.seats[s].follower().len() < want {
                let m = next(self.seats[s].client.as_mut().unwrap()).await;
                self.take(s, Ok(m), tally);
            }
            let follower = self.seats[s].follower.as_ref().unwrap();
            for (index, order) in &self.acked {
                assert_eq!(
                    &follower.entries()[*index].order,
                    order,
                    "game {}: acknowledged entry {index} changed after a kill",
                    self.id
                );
            }
        }
        for s in 0..2 {
            let len = self.seats[s].follower().len();
            for (expect, order) in std::mem::take(&mut self.seats[s].unanswered) {
                if expect < len {
                    // Committed before the kill: taken, though its answer was lost.
                    assert_eq!(self.seats[s].follower().entries()[expect].order, order);
                    tally.committed_unacknowledged += 1;
                    self.acked.insert(expect, order);
                } else {
                    // Not in the log: sent again, and taken once.
                    tally.resent += 1;
                    self.seats[s].send(&self.id, expect, order).await;
                }
            }
        }
    }
}

/// Streams every game's orders until `deadline` or until a connection drops.
async fn stream(games: &mut [Game], deadline: tokio::time::Instant, tally: &mut Tally) {
    loop {
        for g in games.iter_mut() {
            for s in 0..2 {
                if g.seats[s].client.is_some() {
                    let id = g.id.clone();
                    g.seats[s].act(&id).await;
                }
            }
        }
        let mut whose = Vec::new();
        let mut reads = Vec::new();
        for (gi, g) in games.iter_mut().enumerate() {
            for (si, seat) in g.seats.iter_mut().enumerate() {
                if let Some(c) = seat.client.as_mut() {
                    whose.push((gi, si));
                    reads.push(Box::pin(c.next()));
                }
            }
        }
        if reads.is_empty() {
            return;
        }
        let got = tokio::select! {
            (message, i, _) = select_all(reads) => Some((whose[i], message)),
            _ = tokio::time::sleep_until(deadline) => None,
        };
        let Some(((gi, si), message)) = got else { return };
        games[gi].take(si, message, tally);
    }
}

#[test]
fn a_server_killed_a_hundred_times_loses_no_acknowledged_order() {
    let kills: usize = std::env::var("HEXFRONT_FAULT_KILLS").map_or(100, |v| v.parse().unwrap());
    let seed: u64 = std::env::var("HEXFRONT_FAULT_SEED").map_or(1, |v| v.parse().unwrap());
    let dir = temp_dir("faults");
    let log = dir.join("server.log");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        // A SQLite file, or a PostgreSQL database with `HEXFRONT_TEST_POSTGRES` set.
        let db = db_url(&dir).await;
        let mut games: Vec<Game> = Vec::new();
        let mut made = 0;
        for _ in 0..=kills {
            let (mut child, addr) = spawn_server(&db, &log);
            for g in games.iter_mut() {
                g.resume(addr, &mut tally).await;
            }
            // Finished games are checked end to end and replaced by new ones.
            for g in games.iter_mut().filter(|g| g.ended()) {
                verify_finished(addr, &g.id, &dir);
                tally.finished += 1;
                made += 1;
                *g = new_game(addr, made).await;
            }
            while games.len() < GAMES {
                made += 1;
                games.push(new_game(addr, made).await);
            }
            if tally.kills == kills {
                let _ = child.kill();
                let _ = child.wait();
                break;
            }
            let moment = Duration::from_millis(rng.random_range(20..400));
            stream(&mut games, tokio::time::Instant::now() + moment, &mut tally).await;
            child.kill().unwrap();
            child.wait().unwrap();
            tally.kills += 1;
            for seat in games.iter_mut().flat_map(|g| g.seats.iter_mut()) {
                seat.client = None;
            }
        }
        tally.entries_checked = games
            .iter()
            .flat_map(|g| g.seats.iter())
            .map(|s| s.follower.as_ref().unwrap().checked)
            .sum();
        for g in &games {
            for s in &g.seats {
                let f = s.follower.as_ref().unwrap();
                assert_eq!(f.checked, f.len(), "every entry's hash checked");
            }
        }
    });
    eprintln!("{tally:?}");
    assert_eq!(tally.kills, kills);
    assert!(
        tally.acknowledged >= kills * 2,
        "orders flowed between the kills: {tally:?}"
    );
}
