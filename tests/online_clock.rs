//! Time on the server, over real sockets: observers held a turn, or some seconds, behind the
//! players (and shown everything once the game is over); a time per turn that tells both
//! players once a wait, and concedes for the side that let it lapse when the game was made so.

mod common;

use common::online::*;
use hexfront::ai::side_to_act;
use hexfront::game::log::OrderLog;
use hexfront::game::order::Order;
use hexfront::game::phase::TurnState;
use hexfront::net::client::{Client, Follower};
use hexfront::net::protocol::{ClientMessage, ObserverDelay, Opponent, ServerMessage, TurnTime};
use hexfront::net::server;
use std::time::Duration;

fn turn_of(f: &mut Follower) -> u32 {
    f.world().resource::<TurnState>().turn
}

/// Entries the follower holds that were given before `turn`.
fn entries_before(f: &mut Follower, turn: u32) -> usize {
    let log = &f.world().resource::<OrderLog>().entries;
    log.iter().filter(|e| e.when.turn < turn).count()
}

/// Takes what arrives within `quiet` of the last message (nothing arriving is no failure).
async fn drain(c: &mut Client, f: &mut Follower, quiet: Duration) -> Vec<ServerMessage> {
    let mut got = Vec::new();
    while let Ok(m) = tokio::time::timeout(quiet, c.next()).await {
        let m = m.expect("the connection holds");
        f.take(&m).unwrap();
        got.push(m);
    }
    got
}

/// Plays the seat until the game waits for it, with nothing of its own outstanding, in turn
/// `turn` or later (the server is then idle: its computer has played); false if the game ended
/// first (its dice are the server's secret: a game may end early).
async fn play_until(seat: &mut Seat, game: &str, turn: u32) -> bool {
    loop {
        let mine = seat.follower.my_side();
        let settled = seat.sent.is_none_or(|e| seat.follower.len() > e);
        if settled && side_to_act(seat.follower.world()) == mine && turn_of(&mut seat.follower) >= turn {
            return true;
        }
        if seat.follower.ended.is_some() {
            return false;
        }
        seat.act(game).await;
        let m = next(&mut seat.client).await;
        seat.take(m);
    }
}

/// One held-back check in turn `turn`: Anna gives one order of it, and Otto holds exactly the
/// entries of the turns before. False if the game ended first.
async fn held_a_turn_behind(anna: &mut Seat, otto: &mut Client, fo: &mut Follower, game: &str, turn: u32) -> bool {
    if !play_until(anna, game, turn).await {
        return false;
    }
    // One order of the new turn, which Otto may not see yet.
    let held = anna.follower.len();
    while anna.follower.len() == held {
        anna.act(game).await;
        let m = next(&mut anna.client).await;
        anna.take(m);
    }
    drain(otto, fo, Duration::from_millis(400)).await;
    let now = turn_of(&mut anna.follower);
    let due = entries_before(&mut anna.follower, now);
    if anna.follower.ended.is_some() {
        return false;
    }
    assert_eq!(fo.len(), due, "turn {now}: Otto sees the turns before it, no more");
    assert!(due < anna.follower.len(), "turn {now} has entries Otto may not see yet");
    assert_eq!(fo.checked, fo.len());
    true
}

/// Anna (the US) against the server's novice at Mortain (no sudden death: it lasts), followed by her seat; and Otto, an observer.
async fn anna_and_otto(addr: std::net::SocketAddr, delay: ObserverDelay) -> (Seat, Client, Follower, String) {
    let (mut a, _, _) = player(addr, "Anna").await;
    let computer = Opponent::Computer("novice".into());
    let (game, _, _) = create_with(&mut a, "mortain-1944", "us", computer, delay, None).await;
    let fa = watch(&mut a, &game, 0, None).await;
    assert_eq!(fa.view.observer_delay, delay);
    let (mut o, _, _) = player(addr, "Otto").await;
    let fo = watch(&mut o, &game, 0, None).await;
    assert_eq!(fo.view.you, None, "Otto holds no seat");
    (Seat::new(a, fa, "standard", 11), o, fo, game)
}

#[test]
fn observers_held_a_turn_behind_see_a_turn_once_the_next_begins_and_all_at_the_end() {
    let dir = temp_dir("one-turn");
    runtime().block_on(async {
        let server = start(&dir).await;
        let (mut anna, mut otto, mut fo, game) = anna_and_otto(server.addr, ObserverDelay::OneTurn).await;
        assert!(
            held_a_turn_behind(&mut anna, &mut otto, &mut fo, &game, 2).await,
            "the game lasts into turn 2: {:?}",
            anna.follower.ended
        );
        // The orders the game takes now would tell Otto where things stand.
        let asked = otto
            .request(&ClientMessage::Options { game: game.clone() })
            .await
            .unwrap();
        assert!(
            matches!(&asked, ServerMessage::Error { message } if message.contains("holds its observers back")),
            "{asked:?}"
        );
        // A late observer is held back as much.
        let (mut late, _, _) = player(server.addr, "Lena").await;
        let mut fl = watch(&mut late, &game, 0, None).await;
        drain(&mut late, &mut fl, Duration::from_millis(400)).await;
        assert_eq!(fl.len(), fo.len());
        // Two more turns, while the game lasts.
        let mut checked_turns = 1;
        for turn in [3, 4] {
            if !held_a_turn_behind(&mut anna, &mut otto, &mut fo, &game, turn).await {
                break;
            }
            checked_turns += 1;
        }
        eprintln!("turns checked held back: {checked_turns}");
        // Anna concedes (unless the game is over already): Otto sees it all.
        drain(&mut anna.client, &mut anna.follower, Duration::from_millis(400)).await;
        if anna.follower.ended.is_none() {
            let expect = anna.follower.len();
            let concede = ClientMessage::Order {
                game: game.clone(),
                expect,
                order: Order::Concede,
            };
            anna.client.send(&concede).await.unwrap();
            while anna.follower.ended.is_none() {
                let m = next(&mut anna.client).await;
                anna.take(m);
            }
            assert_eq!(anna.follower.ended.as_ref().unwrap().0.as_deref(), Some("german"));
        }
        drain(&mut otto, &mut fo, Duration::from_millis(400)).await;
        assert_eq!(fo.len(), anna.follower.len());
        assert_eq!(fo.ended, anna.follower.ended);
        server.stop().await;
    });
}

#[test]
fn observers_held_seconds_behind_see_each_entry_when_it_is_old_enough() {
    let dir = temp_dir("seconds");
    runtime().block_on(async {
        let server = start(&dir).await;
        let (mut anna, mut otto, mut fo, game) = anna_and_otto(server.addr, ObserverDelay::Seconds(3)).await;
        while anna.follower.len() < 6 {
            anna.act(&game).await;
            let m = next(&mut anna.client).await;
            anna.take(m);
        }
        let made = std::time::Instant::now();
        drain(&mut otto, &mut fo, Duration::from_millis(200)).await;
        let early = fo.len();
        assert!(
            early < anna.follower.len() || made.elapsed() >= Duration::from_secs(3),
            "Otto saw the newest entry before its three seconds were up"
        );
        let mut waited = 0;
        while fo.len() < 6 && waited < 100 {
            drain(&mut otto, &mut fo, Duration::from_millis(100)).await;
            waited += 1;
        }
        assert!(fo.len() >= 6, "the entries reach Otto once they are three seconds old");
        assert!(made.elapsed() >= Duration::from_secs(2), "not before");
        assert_eq!(fo.checked, fo.len());
        server.stop().await;
    });
}

/// Waits for a `time_lapsed` message on `c`: (side, conceded).
async fn lapse_on(c: &mut Client, f: &mut Follower) -> (String, bool) {
    loop {
        let m = next(c).await;
        f.take(&m).unwrap();
        if let ServerMessage::TimeLapsed { side, conceded, .. } = m {
            return (side, conceded);
        }
    }
}

/// Anna (German) and Bert (US) in a game with a time per turn, both following it.
async fn timed_game(addr: std::net::SocketAddr, turn_time: TurnTime) -> (Seat, Seat, String) {
    let (mut a, _, _) = player(addr, "Anna").await;
    let (mut b, _, _) = player(addr, "Bert").await;
    let (game, invite, _) = create_with(
        &mut a,
        "st-vith-1944",
        "german",
        Opponent::Invite,
        ObserverDelay::None,
        Some(turn_time),
    )
    .await;
    let (fa, fb) = join_and_follow(&mut a, &mut b, &game, invite).await;
    assert_eq!(fa.view.turn_time, Some(turn_time));
    (Seat::new(a, fa, "standard", 21), Seat::new(b, fb, "standard", 22), game)
}

async fn timed_server(dir: &std::path::Path) -> server::ServerHandle {
    let options = server::Options {
        clock: Duration::from_millis(100),
        ..Default::default()
    };
    server::start_with("127.0.0.1:0".parse().unwrap(), &db_url(dir).await, options)
        .await
        .unwrap()
}

#[test]
fn a_lapsed_time_per_turn_is_told_to_both_players_once_a_wait() {
    let dir = temp_dir("turn-time");
    runtime().block_on(async {
        let server = timed_server(&dir).await;
        let turn_time = TurnTime {
            seconds: 1,
            concede: false,
        };
        let (mut anna, mut bert, game) = timed_game(server.addr, turn_time).await;
        // Nobody moves: the German is waited for, and both are told.
        let told_anna = lapse_on(&mut anna.client, &mut anna.follower).await;
        let told_bert = lapse_on(&mut bert.client, &mut bert.follower).await;
        assert_eq!(told_anna, ("german".to_string(), false));
        assert_eq!(told_bert, told_anna);
        // Once a wait: nothing more while the German still thinks.
        let more = drain(&mut bert.client, &mut bert.follower, Duration::from_millis(1500)).await;
        assert!(
            !more.iter().any(|m| matches!(m, ServerMessage::TimeLapsed { .. })),
            "{more:?}"
        );
        // The German plays until the game turns to the US: a new wait, told again.
        let us = bert.follower.my_side();
        while side_to_act(anna.follower.world()) != us || anna.sent.is_some_and(|e| anna.follower.len() <= e) {
            anna.act(&game).await;
            let m = next(&mut anna.client).await;
            anna.take(m);
        }
        let (side, conceded) = lapse_on(&mut bert.client, &mut bert.follower).await;
        assert_eq!((side.as_str(), conceded), ("us", false));
        assert!(
            anna.follower.ended.is_none(),
            "nothing decided: the game was not made so"
        );
        server.stop().await;
    });
}

#[test]
fn a_side_that_lets_its_time_lapse_concedes_when_the_game_was_made_so() {
    let dir = temp_dir("turn-time-concede");
    runtime().block_on(async {
        let server = timed_server(&dir).await;
        let turn_time = TurnTime {
            seconds: 1,
            concede: true,
        };
        let (mut anna, mut bert, game) = timed_game(server.addr, turn_time).await;
        let (side, conceded) = lapse_on(&mut bert.client, &mut bert.follower).await;
        assert_eq!((side.as_str(), conceded), ("german", true));
        while bert.follower.ended.is_none() {
            let m = next(&mut bert.client).await;
            bert.take(m);
        }
        assert_eq!(bert.follower.ended.as_ref().unwrap().0.as_deref(), Some("us"));
        assert_eq!(bert.follower.checked, bert.follower.len());
        while anna.follower.ended.is_none() {
            let m = next(&mut anna.client).await;
            anna.take(m);
        }
        // The conceded game downloads as a finished one.
        let (status, saved) = http_get(server.addr, &format!("/api/games/{game}/saved"));
        assert_eq!(status, 200, "{saved}");
        assert!(saved.contains("Concede"), "{saved}");
        server.stop().await;
    });
}

/// A small HTTP endpoint on 127.0.0.1: answers 204 to every request and hands over its path and
/// body.
async fn hook_endpoint() -> (String, tokio::sync::mpsc::UnboundedReceiver<(String, String)>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            let tx = tx.clone();
            tokio::spawn(async move {
                let (mut buf, mut chunk) = (Vec::new(), [0u8; 4096]);
                while let Ok(n @ 1..) = s.read(&mut chunk).await {
                    buf.extend_from_slice(&chunk[..n]);
                    let text = String::from_utf8_lossy(&buf).into_owned();
                    let Some((head, body)) = text.split_once("\r\n\r\n") else {
                        continue;
                    };
                    let length = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")?
                                .trim()
                                .parse()
                                .ok()
                        })
                        .unwrap_or(0);
                    if body.len() >= length {
                        let path = head.split_whitespace().nth(1).unwrap_or_default().to_string();
                        let _ = tx.send((path, body[..length].to_string()));
                        let _ = s
                            .write_all(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
                            .await;
                        break;
                    }
                }
            });
        }
    });
    (format!("http://{addr}"), rx)
}

/// Both seats play until the game waits for `side` in that side's own player turn, both
/// clients in step.
async fn both_until(a: &mut Seat, b: &mut Seat, game: &str, side: Option<usize>) {
    loop {
        assert!(a.follower.ended.is_none(), "the game lasts into its second turn");
        let settled = |s: &Seat| s.sent.is_none_or(|e| s.follower.len() > e);
        let own_turn = side == Some(a.follower.world().resource::<TurnState>().active.0);
        if settled(a)
            && settled(b)
            && a.follower.len() == b.follower.len()
            && own_turn
            && side_to_act(a.follower.world()) == side
        {
            return;
        }
        a.act(game).await;
        b.act(game).await;
        tokio::select! {
            m = next(&mut a.client) => a.take(m),
            m = next(&mut b.client) => b.take(m),
        }
    }
}

async fn set_webhook(c: &mut Client, url: &str) -> ServerMessage {
    c.request(&ClientMessage::Webhook { url: Some(url.into()) })
        .await
        .unwrap()
}

#[test]
fn a_webhook_to_a_private_address_or_of_another_scheme_is_refused_by_name() {
    let dir = temp_dir("webhook-refused");
    runtime().block_on(async {
        let server = start(&dir).await;
        let (mut c, _, _) = player(server.addr, "Carl").await;
        let cases = [
            ("http://127.0.0.1:9/hook", "loopback or private"),
            ("http://localhost:9/hook", "loopback or private"),
            ("http://10.1.2.3/hook", "loopback or private"),
            ("http://[fd00::1]/hook", "loopback or private"),
            ("ftp://example.com/x", "http or https"),
            ("not a url", "is not a URL"),
        ];
        for (url, says) in cases {
            let answer = set_webhook(&mut c, url).await;
            assert!(
                matches!(&answer, ServerMessage::Error { message } if message.contains(says)),
                "{url}: {answer:?}"
            );
        }
        let cleared = c.request(&ClientMessage::Webhook { url: None }).await.unwrap();
        assert_eq!(cleared, ServerMessage::WebhookSet { url: None });
        server.stop().await;
    });
}

#[test]
fn a_player_away_gets_a_your_turn_webhook_at_most_once_an_hour_a_game() {
    let dir = temp_dir("webhook");
    runtime().block_on(async {
        let options = server::Options {
            clock: Duration::from_millis(100),
            allow_private_webhooks: true,
            public_url: Some("https://games.example.org".into()),
            ..Default::default()
        };
        let server = server::start_with("127.0.0.1:0".parse().unwrap(), &db_url(&dir).await, options)
            .await
            .unwrap();
        let (hooks, mut posts) = hook_endpoint().await;
        let (mut a, _, _) = player(server.addr, "Anna").await;
        let (mut b, _, token_b) = player(server.addr, "Bert").await;
        for (c, who) in [(&mut a, "anna"), (&mut b, "bert")] {
            let url = format!("{hooks}/{who}");
            let answer = set_webhook(c, &url).await;
            assert_eq!(answer, ServerMessage::WebhookSet { url: Some(url) });
        }
        let (game, invite, _) = create(&mut a, "mortain-1944", "german", Opponent::Invite).await;
        let (fa, fb) = join_and_follow(&mut a, &mut b, &game, invite).await;
        let mut anna = Seat::new(a, fa, "standard", 31);
        let mut bert = Seat::new(b, fb, "standard", 32);
        let us = bert.follower.my_side();
        // Bert leaves; Anna plays her turn, and the game turns to him.
        bert.client.close().await;
        while side_to_act(anna.follower.world()) != us || anna.sent.is_some_and(|e| anna.follower.len() <= e) {
            anna.act(&game).await;
            let m = next(&mut anna.client).await;
            anna.take(m);
        }
        let (path, body) = tokio::time::timeout(Duration::from_secs(20), posts.recv())
            .await
            .expect("a notice within twenty seconds")
            .unwrap();
        assert_eq!(path, "/bert", "only the player away is told");
        let notice: serde_json::Value = serde_json::from_str(&body).unwrap();
        let content = notice["content"].as_str().unwrap();
        assert!(content.contains(&game) && content.contains("`us`"), "{content}");
        assert!(content.contains("https://games.example.org"), "{content}");
        // Bert comes back and plays his turn (no notice while he is connected), then leaves.
        let mut b2 = Client::connect(&ws(server.addr)).await.unwrap();
        b2.request(&ClientMessage::Login { token: token_b }).await.unwrap();
        let mut bert = bert.resumed(b2, &game).await;
        let german = anna.follower.my_side();
        both_until(&mut anna, &mut bert, &game, german).await;
        bert.client.close().await;
        // The game turns to him again within the hour: no second notice.
        while side_to_act(anna.follower.world()) != us || anna.sent.is_some_and(|e| anna.follower.len() <= e) {
            anna.act(&game).await;
            let m = next(&mut anna.client).await;
            anna.take(m);
        }
        let late = tokio::time::timeout(Duration::from_millis(1500), posts.recv()).await;
        assert!(late.is_err(), "a second notice within the hour: {late:?}");
        server.stop().await;
    });
}
