//! Play across the internet over real sockets: the real server on 127.0.0.1 (port 0) with a
//! temporary SQLite file, and headless clients whose orders the computer player chooses. Every
//! entry's hash is checked by both clients; the finished game downloads as a save that `hexfront
//! replay --verify` checks with its dice proof; no frame carries the secret or another side's
//! hidden tactics before their time; a dropped client catches up; a resent order is not applied
//! twice; hostile messages are answered with errors and change nothing.

mod common;

use common::online::*;
use hexfront::ai::side_to_act;
use hexfront::net::client::{Client, Follower, contribution};
use hexfront::net::protocol::{ClientMessage, Opponent, ServerMessage};
use hexfront::net::server;
use std::net::SocketAddr;
use std::time::Duration;

/// Plays a whole game of `scenario` between two clients; returns both seats and the game id.
async fn play(addr: SocketAddr, scenario: &str, first_side: &str) -> (Seat, Seat, String, String) {
    let (mut a, _, _) = player(addr, "Anna").await;
    let (mut b, _, _) = player(addr, "Bert").await;
    let (game, invite, commitment) = create(&mut a, scenario, first_side, Opponent::Invite).await;
    let (fa, fb) = join_and_follow(&mut a, &mut b, &game, invite).await;
    assert_eq!(fa.view.commitment, commitment);
    let mut seats = (Seat::new(a, fa, "standard", 1), Seat::new(b, fb, "standard", 2));
    play_on(&mut seats.0, &mut seats.1, &game).await;
    (seats.0, seats.1, game, commitment)
}

/// What one seat received that another side hid: (hidden entries, reveals). Fails on any entry
/// of another side that carries a secret in the clear before its reveal.
fn secrets_kept(seat: &Seat) -> (usize, usize) {
    let me = seat.follower.view.you.clone().unwrap();
    let (mut hidden, mut reveals) = (0, 0);
    for f in &seat.client.frames {
        match ServerMessage::parse(f).unwrap() {
            ServerMessage::Entry { entry, .. } if entry.side != me => {
                assert!(!entry.order.has_secret(), "a hidden order in the clear: {f}");
                hidden += usize::from(entry.hidden);
            }
            ServerMessage::Revealed { .. } => reveals += 1,
            _ => {}
        }
    }
    (hidden, reveals)
}

/// A whole game of `scenario` between two clients, checked entry by entry, its secrets kept and
/// its dice verified after the end. Returns (entries, hidden entries, reveals).
fn two_clients_play(scenario: &str, first_side: &str) -> (usize, usize, usize) {
    let dir = temp_dir(scenario);
    let rt = runtime();
    rt.block_on(async {
        let server = start(&dir).await;
        let addr = server.addr;
        let (a, b, game, commitment) = play(addr, scenario, first_side).await;
        let entries = a.follower.len();
        assert!(entries > 20, "a whole game has more than 20 entries, not {entries}");
        assert_eq!(b.follower.len(), entries);
        // Every entry checked by both clients against the server's hash.
        assert_eq!(a.follower.checked, entries);
        assert_eq!(b.follower.checked, entries);
        let (_, _, secret) = a.follower.ended.clone().unwrap();
        assert_eq!(b.follower.ended.as_ref().unwrap().2, secret);
        // The client's own check of the dice (the desktop client's "Dice verified" line): every
        // die rolled again from the committed secret; a secret other than the committed one fails.
        let rolled: usize = a.follower.entries().iter().map(|e| e.dice.len()).sum();
        assert!(rolled > 0);
        // The desktop client's board (as `gui::online` starts it) takes every entry to the
        // server's hashes: retreats and advances carried out as the server carries them out.
        let board = hexfront::net::client::board_game(&b.follower.view).unwrap();
        let mut app = hexfront::game::save::replay_app(&board, None).unwrap();
        let on_board: usize = b
            .follower
            .entries()
            .iter()
            .map(|e| usize::from(hexfront::net::client::apply(app.world_mut(), e).unwrap()))
            .sum();
        assert_eq!(on_board, entries, "every entry's hash checked on the client's board");
        let checked = hexfront::net::client::verify_dice(&a.follower.view, a.follower.entries(), &secret).unwrap();
        assert_eq!(checked.dice, rolled);
        // Its save replays with its proof, as the server's download does.
        let text = hexfront::game::save::to_text(&checked.saved).unwrap();
        let kept = dir.join(format!("{game}-client.ron"));
        std::fs::write(&kept, text).unwrap();
        let (verified, out, err) = replay_verify(&kept);
        assert!(verified, "{out}{err}");
        let forged = format!("{}{}", if secret.starts_with('0') { "1" } else { "0" }, &secret[1..]);
        let refused = hexfront::net::client::verify_dice(&b.follower.view, b.follower.entries(), &forged).unwrap_err();
        assert!(refused.contains("does not match the commitment"), "{refused}");
        // The secret appears in no frame before the end.
        for seat in [&a, &b] {
            let end = seat
                .client
                .frames
                .iter()
                .position(|f| f.contains("\"type\":\"ended\""))
                .unwrap();
            let early = seat.client.frames[..end].iter().filter(|f| f.contains(&secret)).count();
            assert_eq!(early, 0);
        }
        // Nothing more is taken once the game is over.
        let mut a = a;
        let late = a
            .client
            .request(&ClientMessage::Order {
                game: game.clone(),
                expect: entries,
                order: hexfront::game::order::Order::EndPhase,
            })
            .await
            .unwrap();
        // (An answer to an order given before the end may still be on its way.)
        let mut late = late;
        while matches!(late, ServerMessage::Accepted { index, .. } if index < entries) {
            late = next(&mut a.client).await;
        }
        assert!(matches!(late, ServerMessage::Refused { .. }), "{late:?}");
        let (hidden_a, reveals_a) = secrets_kept(&a);
        let (hidden_b, reveals_b) = secrets_kept(&b);
        assert_eq!(reveals_a, hidden_a);
        assert_eq!(reveals_b, hidden_b);
        // The finished game downloads and verifies, commitment included.
        let (status, saved) = http_get(addr, &format!("/api/games/{game}/saved"));
        assert_eq!(status, 200, "{saved}");
        assert!(saved.contains(&commitment));
        let file = dir.join("online.ron");
        std::fs::write(&file, &saved).unwrap();
        let (ok, _, err) = replay_verify(&file);
        assert!(ok, "{err}");
        // A forged secret is caught.
        std::fs::write(&file, saved.replace(&secret, &"0".repeat(64))).unwrap();
        let (ok, _, err) = replay_verify(&file);
        assert!(!ok);
        assert!(err.contains("dice proof"), "{err}");
        server.stop().await;
        (entries, hidden_a + hidden_b, reveals_a + reveals_b)
    })
}

#[test]
fn two_clients_play_st_vith_to_the_end_and_the_dice_verify() {
    let (entries, _, _) = two_clients_play("st-vith-1944", "german");
    assert!(entries > 20);
}

#[test]
fn two_clients_play_sidi_bou_zid_and_hidden_tactics_stay_hidden_until_revealed() {
    let (_, hidden, reveals) = two_clients_play("sidi-bou-zid-1943", "german");
    assert!(hidden > 0, "Rommel's secret tactics were used and hidden");
    assert_eq!(reveals, hidden);
}

#[test]
fn two_clients_play_mortain_smolensk_and_chorwon_to_the_end() {
    for (scenario, side) in [
        ("mortain-1944", "german"),
        ("smolensk-1941", "german"),
        ("chorwon-hypothetical", "kpa"),
    ] {
        let (entries, _, _) = two_clients_play(scenario, side);
        assert!(entries > 20, "{scenario}");
    }
}

/// The first answer to `text` sent as it is.
async fn answer_to(c: &mut Client, text: &str) -> ServerMessage {
    c.send_text(text.to_string()).await.unwrap();
    next(c).await
}

fn error_of(m: &ServerMessage) -> String {
    match m {
        ServerMessage::Error { message } => message.clone(),
        ServerMessage::Refused { reason, .. } => reason.clone(),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn hostile_messages_are_answered_by_name_and_change_nothing() {
    let dir = temp_dir("hostile");
    let rt = runtime();
    rt.block_on(async {
        let server = start(&dir).await;
        let addr = server.addr;
        let mut checked = 0;
        // Before hello, and a hello from another release.
        let (mut raw, _) = tokio_tungstenite::connect_async(ws(addr)).await.unwrap();
        use futures_util::{SinkExt, StreamExt};
        use tokio_tungstenite::tungstenite::Message;
        for (text, expected) in [
            (r#"{"type":"register","name":"x"}"#, "say hello first"),
            (r#"{"type":"hello","protocol":99,"version":"0.0.1"}"#, "protocol 99"),
        ] {
            raw.send(Message::Text(text.into())).await.unwrap();
            let Some(Ok(Message::Text(reply))) = raw.next().await else { panic!() };
            let message = error_of(&ServerMessage::parse(&reply).unwrap());
            assert!(message.contains(expected), "{message}");
            checked += 1;
        }
        let (mut a, _, _) = player(addr, "Anna").await;
        let (mut b, _, token_b) = player(addr, "Bert").await;
        let (mut c, _, _) = player(addr, "Cleo").await;
        let big = format!(r#"{{"type":"register","name":"{}"}}"#, "x".repeat(70_000));
        let cases: Vec<(String, &str)> = vec![
            ("{{{".into(), "not a message"),
            (r#"{"type":"fly"}"#.into(), "fly"),
            (big, "limit"),
            (r#"{"type":"watch","game":"g-nope","since":0}"#.into(), "no game `g-nope`"),
            (r#"{"type":"register","name":""}"#.into(), "1 to 40 characters"),
            (r#"{"type":"login","token":"abc"}"#.into(), "no player has this token"),
            (
                format!(r#"{{"type":"create","scenario":"atlantis","side":"german","opponent":"invite","contribution":"{}"}}"#, contribution()),
                "no shipped scenario `atlantis`",
            ),
            (
                format!(r#"{{"type":"create","scenario":"st-vith-1944","side":"french","opponent":"invite","contribution":"{}"}}"#, contribution()),
                "side: `french`",
            ),
            (
                r#"{"type":"create","scenario":"st-vith-1944","side":"german","opponent":"invite","contribution":"12"}"#.into(),
                "contribution:",
            ),
            (
                // 64 bytes, but multi-byte characters: named, and the connection lives on.
                format!(r#"{{"type":"create","scenario":"st-vith-1944","side":"german","opponent":"invite","contribution":"a{}a"}}"#, "é".repeat(31)),
                "contribution: expected 64 hex digits",
            ),
            (
                format!(r#"{{"type":"create","scenario":"st-vith-1944","side":"german","opponent":{{"computer":"grandmaster"}},"contribution":"{}"}}"#, contribution()),
                "grandmaster",
            ),
        ];
        for (text, expected) in &cases {
            let message = error_of(&answer_to(&mut c, text).await);
            assert!(message.contains(expected), "`{text:.60}` answered `{message}`, not naming `{expected}`");
            checked += 1;
        }
        // A game between Anna and Bert, Cleo watching.
        let (game, invite, _) = create(&mut a, "st-vith-1944", "german", Opponent::Invite).await;
        let wrong = c
            .request(&ClientMessage::Join {
                game: game.clone(),
                invite: Some("0000000000".into()),
                contribution: contribution(),
                chain_end: None,
            })
            .await
            .unwrap();
        assert!(error_of(&wrong).contains("invite:"));
        let joined = b
            .request(&ClientMessage::Join {
                game: game.clone(),
                invite: invite.clone(),
                contribution: contribution(),
                chain_end: None,
            })
            .await
            .unwrap();
        assert!(matches!(joined, ServerMessage::Joined { .. }));
        let full = c
            .request(&ClientMessage::Join {
                game: game.clone(),
                invite,
                contribution: contribution(),
                chain_end: None,
            })
            .await
            .unwrap();
        assert!(error_of(&full).contains("no free seat"));
        checked += 2;
        let order = |expect, order| ClientMessage::Order {
            game: game.clone(),
            expect,
            order,
        };
        use hexfront::game::order::Order;
        let unknown_unit = Order::Move {
            units: vec!["no-such-unit".into()],
            to: hexfront::rules::grid::parse_label("0101").unwrap(),
        };
        for (who, message, expected) in [
            (0, order(0, Order::EndPhase), "you do not hold that seat"),
            (1, order(0, Order::EndPhase), "you do not hold that seat"),
            (2, order(5, Order::EndPhase), "has only 0 entries"),
            (2, order(0, unknown_unit), "no-such-unit"),
        ] {
            let client = match who {
                0 => &mut c,
                1 => &mut b,
                _ => &mut a,
            };
            let m = client.request(&message).await.unwrap();
            assert!(error_of(&m).contains(expected), "{m:?}");
            checked += 1;
        }
        // An order, then the same order sent again: one entry.
        let first = a.request(&order(0, Order::EndPhase)).await.unwrap();
        assert_eq!(first, ServerMessage::Accepted { game: game.clone(), index: 0 });
        let again = a.request(&order(0, Order::EndPhase)).await.unwrap();
        assert_eq!(again, ServerMessage::Accepted { game: game.clone(), index: 0 });
        let stale = b.request(&order(0, Order::EndPhase)).await.unwrap();
        assert!(error_of(&stale).contains("another order came first"));
        checked += 3;
        let mut follower = watch(&mut c, &game, 0, None).await;
        let m = next(&mut c).await;
        follower.take(&m).unwrap();
        assert_eq!(follower.len(), 1);
        assert_eq!(follower.checked, 1);
        // A new connection with Bert's token is Bert; the server still serves.
        let mut b2 = Client::connect(&ws(addr)).await.unwrap();
        let m = b2.request(&ClientMessage::Login { token: token_b }).await.unwrap();
        assert!(matches!(m, ServerMessage::LoggedIn { ref name, .. } if name == "Bert"), "{m:?}");
        checked += 2;
        assert_eq!(checked, 24);
        server.stop().await;
    });
}

#[test]
fn a_dropped_client_catches_up_and_the_game_goes_on() {
    let dir = temp_dir("reconnect");
    let rt = runtime();
    rt.block_on(async {
        let server = start(&dir).await;
        let addr = server.addr;
        let (a, _, _) = player(addr, "Anna").await;
        let (b, _, token_b) = player(addr, "Bert").await;
        let (mut a, mut b) = (a, b);
        let (game, _, _) = create(&mut a, "st-vith-1944", "german", Opponent::Open).await;
        // Listed as open, then joined without a code.
        let (status, list) = http_get(addr, "/api/games");
        assert_eq!(status, 200);
        assert!(list.contains(&game), "{list}");
        b.request(&ClientMessage::Join {
            game: game.clone(),
            invite: None,
            contribution: contribution(),
            chain_end: None,
        })
        .await
        .unwrap();
        let fa = watch(&mut a, &game, 0, None).await;
        let fb = watch(&mut b, &game, 0, None).await;
        let mut sa = Seat::new(a, fa, "standard", 3);
        let mut sb = Seat::new(b, fb, "standard", 4);
        // Play until it is Anna's turn to move, both clients in step, after some entries.
        let anna = sa.follower.my_side();
        while sb.follower.len() < 15
            || sa.follower.len() != sb.follower.len()
            || sa.sent.is_some_and(|e| sa.follower.len() <= e)
            || side_to_act(sa.follower.world()) != anna
        {
            sa.act(&game).await;
            sb.act(&game).await;
            tokio::select! {
                m = next(&mut sa.client) => sa.take(m),
                m = next(&mut sb.client) => sb.take(m),
            }
        }
        // Bert's connection drops; Anna plays on while she can.
        let held = sb.follower.len();
        sb.client.close().await;
        for _ in 0..60 {
            sa.act(&game).await;
            match tokio::time::timeout(Duration::from_millis(500), sa.client.next()).await {
                Ok(m) => sa.take(m.unwrap()),
                Err(_) => break,
            }
        }
        assert!(sa.follower.len() > held, "entries were made while Bert was away");
        // Bert comes back with his token and the entries he holds.
        let mut b2 = Client::connect(&ws(addr)).await.unwrap();
        b2.request(&ClientMessage::Login { token: token_b }).await.unwrap();
        assert_eq!(sb.follower.len(), held);
        let mut sb = sb.resumed(b2, &game).await;
        play_on(&mut sa, &mut sb, &game).await;
        assert_eq!(sb.follower.len(), sa.follower.len());
        assert_eq!(sb.follower.checked, sb.follower.len());
        assert!(sb.follower.ended.is_some());
        server.stop().await;
    });
}

#[test]
fn a_player_against_the_servers_computer_plays_to_the_end_and_a_restarted_server_rebuilds_the_game() {
    let dir = temp_dir("computer");
    let rt = runtime();
    rt.block_on(async {
        let server = start(&dir).await;
        let (mut a, _, token) = player(server.addr, "Anna").await;
        let (game, _, _) = create(&mut a, "mortain-1944", "us", Opponent::Computer("novice".into())).await;
        let fa = watch(&mut a, &game, 0, None).await;
        assert_eq!(fa.view.seats[0].taken_by.as_deref(), Some("computer (novice)"));
        let mut sa = Seat::new(a, fa, "standard", 5);
        // Some of the game, then the server stops and starts again on the same database.
        while sa.follower.len() < 40 {
            sa.act(&game).await;
            let m = next(&mut sa.client).await;
            sa.take(m);
        }
        assert!(
            sa.follower.ended.is_none(),
            "40 entries are not a whole game of Mortain"
        );
        server.stop().await;
        let server = start(&dir).await;
        // The game is rebuilt from the database; the client goes on from the entries it holds.
        play_on_after_restart(&mut sa, server.addr, &token, &game).await;
        server.stop().await;
    });
}

#[test]
fn orders_picked_from_the_servers_options_are_never_refused_over_whole_games() {
    let dir = temp_dir("options");
    let rt = runtime();
    rt.block_on(async {
        let server = start(&dir).await;
        let mut given = 0;
        let mut kinds = std::collections::BTreeSet::new();
        for (scenario, side) in [
            ("st-vith-1944", "us"),
            ("sidi-bou-zid-1943", "german"),
            ("smolensk-1941", "soviet"),
        ] {
            let (mut a, _, _) = player(server.addr, "Random").await;
            let (game, _, _) = create(&mut a, scenario, side, Opponent::Computer("novice".into())).await;
            let mut follower = watch(&mut a, &game, 0, None).await;
            let mut rng = 0x9e37_79b9_7f4a_7c15u64;
            while follower.ended.is_none() {
                let m = a.request(&ClientMessage::Options { game: game.clone() }).await.unwrap();
                let ServerMessage::Options {
                    expect, yours, options, ..
                } = m
                else {
                    panic!("{m:?}")
                };
                // Bring the copy up to the log the options were read at.
                while follower.len() < expect {
                    let m = next(&mut a).await;
                    follower.take(&m).unwrap();
                }
                if follower.ended.is_some() {
                    break;
                }
                if !yours {
                    let m = next(&mut a).await;
                    follower.take(&m).unwrap();
                    continue;
                }
                assert_eq!(options.side.as_deref(), Some(side));
                let order =
                    hexfront::game::order_options::random_pick(&options, &mut rng).expect("the game takes some order");
                let answer = a
                    .request(&ClientMessage::Order {
                        game: game.clone(),
                        expect,
                        order: order.clone(),
                    })
                    .await
                    .unwrap();
                assert!(
                    matches!(answer, ServerMessage::Accepted { .. }),
                    "{scenario}: {order:?} from the options: {answer:?}"
                );
                given += 1;
                kinds.insert(format!("{order:?}").split([' ', '(', '{']).next().unwrap().to_string());
            }
            assert_eq!(follower.checked, follower.len(), "{scenario}");
        }
        // Whole games of three rulesets: moves, ending phases, and the answers the computer's
        // attacks ask for.
        assert!(given > 50, "{given} orders given");
        // (Whether a random player ever stands next to an enemy in its combat phase depends on
        // the server's dice, which no test chooses: attacks are not required.)
        for kind in ["Move", "EndPhase", "Defend"] {
            assert!(kinds.contains(kind), "no {kind} among {kinds:?}");
        }
        server.stop().await;
    });
}

/// The next chat line or error `c` receives (other messages skipped).
async fn next_chat_or_error(c: &mut Client) -> ServerMessage {
    loop {
        let m = next(c).await;
        if matches!(m, ServerMessage::Chat { .. } | ServerMessage::Error { .. }) {
            return m;
        }
    }
}

#[test]
fn players_and_observers_chat_in_rooms_of_their_own_and_floods_are_held_back() {
    let dir = temp_dir("chat");
    let rt = runtime();
    rt.block_on(async {
        let server = start(&dir).await;
        let addr = server.addr;
        let (mut a, _, _) = player(addr, "Anna").await;
        let (mut b, _, token_b) = player(addr, "Bert").await;
        let (mut c, _, _) = player(addr, "Cleo").await;
        let (game, invite, _) = create(&mut a, "st-vith-1944", "german", Opponent::Invite).await;
        b.request(&ClientMessage::Join {
            game: game.clone(),
            invite,
            contribution: contribution(),
            chain_end: None,
        })
        .await
        .unwrap();
        for client in [&mut a, &mut b, &mut c] {
            watch(client, &game, 0, None).await;
        }
        // A second watch of the same game replaces the first: Anna reads each line once (a
        // doubled "Good luck" would come where "Thanks" is awaited below).
        watch(&mut a, &game, 0, None).await;
        let say = |text: &str| ClientMessage::Chat {
            game: game.clone(),
            text: text.into(),
        };
        a.send(&say("Good luck, Bert")).await.unwrap();
        for client in [&mut a, &mut b] {
            let m = next_chat_or_error(client).await;
            assert!(
                matches!(&m, ServerMessage::Chat { room, from, text, .. } if room == "players" && from == "Anna" && text == "Good luck, Bert"),
                "{m:?}"
            );
        }
        c.send(&say("Anna will win")).await.unwrap();
        let m = next_chat_or_error(&mut c).await;
        assert!(matches!(&m, ServerMessage::Chat { room, .. } if room == "observers"), "{m:?}");
        // Each room reads only its own lines.
        b.send(&say("Thanks")).await.unwrap();
        assert!(matches!(next_chat_or_error(&mut a).await, ServerMessage::Chat { ref text, .. } if text == "Thanks"));
        for client in [&a, &b] {
            assert!(!client.frames.iter().any(|f| f.contains("Anna will win")));
        }
        assert!(!c.frames.iter().any(|f| f.contains("Good luck") || f.contains("Thanks")));
        // Refused lines, by name.
        c.send(&say(&"x".repeat(501))).await.unwrap();
        assert!(error_of(&next_chat_or_error(&mut c).await).contains("at most 500 characters"));
        let mut anonymous = Client::connect(&ws(addr)).await.unwrap();
        anonymous.send(&say("hi")).await.unwrap();
        assert!(error_of(&next_chat_or_error(&mut anonymous).await).contains("log in first"));
        // Bert again, later: the players' last lines, none of the observers'.
        let mut b2 = Client::connect(&ws(addr)).await.unwrap();
        b2.request(&ClientMessage::Login { token: token_b }).await.unwrap();
        watch(&mut b2, &game, 0, None).await;
        let first = next_chat_or_error(&mut b2).await;
        assert!(matches!(&first, ServerMessage::Chat { text, .. } if text == "Good luck, Bert"), "{first:?}");
        let second = next_chat_or_error(&mut b2).await;
        assert!(matches!(&second, ServerMessage::Chat { text, .. } if text == "Thanks"), "{second:?}");
        // A flood of chat: five at once pass, then a line a second.
        let (mut d, _, _) = player(addr, "Dora").await;
        watch(&mut d, &game, 0, None).await;
        let seen = next_chat_or_error(&mut d).await;
        assert!(matches!(&seen, ServerMessage::Chat { text, .. } if text == "Anna will win"), "the observers' history: {seen:?}");
        for i in 0..8 {
            d.send(&say(&format!("spam {i}"))).await.unwrap();
        }
        let mut refused = 0;
        for _ in 0..8 {
            if let ServerMessage::Error { message } = next_chat_or_error(&mut d).await {
                assert!(message.contains("a line a second"), "{message}");
                refused += 1;
            }
        }
        // (Three when the lines come faster than a second apart, as here; a slow machine may
        // have refilled one.)
        assert!((1..=3).contains(&refused), "{refused} refused");
        // A flood of frames: 200 at once pass (each answered: not a message), the rest are dropped
        // with an error.
        let mut flood = Client::connect(&ws(addr)).await.unwrap();
        for _ in 0..400 {
            flood.send_text("{}".into()).await.unwrap();
        }
        let mut dropped = 0;
        for _ in 0..400 {
            match next(&mut flood).await {
                ServerMessage::Error { message } if message.contains("too many messages") => dropped += 1,
                ServerMessage::Error { message } => assert!(message.contains("not a message"), "{message}"),
                other => panic!("{other:?}"),
            }
        }
        // Past the burst (the hello took one of its 200), less what refilled meanwhile.
        assert!((1..=201).contains(&dropped), "{dropped} dropped");
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let m = flood.request(&ClientMessage::Options { game: game.clone() }).await.unwrap();
        assert!(matches!(m, ServerMessage::Options { .. }), "the connection serves again: {m:?}");
        server.stop().await;
    });
}

#[test]
fn games_that_leave_memory_after_every_order_still_play_to_the_end() {
    let dir = temp_dir("idle");
    let rt = runtime();
    rt.block_on(async {
        // Idle at once: every order, watch and question rebuilds the game from the database.
        let options = server::Options {
            idle: Duration::ZERO,
            ..Default::default()
        };
        let url = db_url(&dir).await;
        let server = server::start_with("127.0.0.1:0".parse().unwrap(), &url, options)
            .await
            .unwrap();
        let (a, b, _, _) = play(server.addr, "st-vith-1944", "german").await;
        assert!(a.follower.ended.is_some() && b.follower.ended.is_some());
        assert!(a.follower.len() > 20);
        assert_eq!(a.follower.checked, a.follower.len());
        assert_eq!(b.follower.checked, b.follower.len());
        server.stop().await;
    });
}

fn answer(body: &str) -> ServerMessage {
    ServerMessage::parse(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

#[test]
fn a_bot_plays_a_whole_game_over_plain_http() {
    let dir = temp_dir("http");
    let rt = runtime();
    let server = rt.block_on(start(&dir));
    let addr = server.addr;
    // Blocking HTTP from a thread of its own, as a bot in any language would.
    let played = std::thread::spawn(move || {
        let json = |m: &ClientMessage| serde_json::to_string(m).unwrap();
        let (status, body) = http_post(
            addr,
            "/api/request",
            None,
            &json(&ClientMessage::Register { name: "Curl".into() }),
        );
        assert_eq!(status, 200, "{body}");
        let ServerMessage::Registered { token, .. } = answer(&body) else {
            panic!("{body}")
        };
        let create = ClientMessage::Create {
            // Mortain: six turns, no sudden death (St. Vith may end before the bot has given four orders).
            scenario: "mortain-1944".into(),
            side: "us".into(),
            opponent: Opponent::Computer("novice".into()),
            contribution: contribution(),
            observer_delay: Default::default(),
            turn_time: None,
            chain: None,
        };
        let (_, body) = http_post(addr, "/api/request", Some(&token), &json(&create));
        let ServerMessage::Created { game, .. } = answer(&body) else {
            panic!("{body}")
        };
        // The player's own games, newest first.
        let (status, body) = http_get_as(addr, "/api/players/me/games", Some(&token));
        assert_eq!(status, 200, "{body}");
        let mine: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(mine["games"][0]["game"], game.as_str(), "{body}");
        assert_eq!(mine["games"][0]["scenario"], "mortain-1944", "{body}");
        assert_eq!(mine["games"][0]["chained"], false, "{body}");
        let (status, body) = http_get_as(addr, "/api/players/me/games", None);
        assert_eq!(status, 401, "{body}");
        // Refusals by name, with 400.
        let (status, body) = http_post(
            addr,
            "/api/request",
            Some("0"),
            &json(&ClientMessage::Options { game: game.clone() }),
        );
        assert_eq!(status, 400);
        assert!(body.contains("no player has this token"), "{body}");
        let (status, body) = http_post(addr, "/api/request", None, "{{{");
        assert_eq!(status, 400);
        assert!(body.contains("not a message"), "{body}");
        let (mut rng, mut orders) = (0x2545_f491_4f6c_dd1du64, 0);
        loop {
            let (_, body) = http_post(
                addr,
                "/api/request",
                Some(&token),
                &json(&ClientMessage::Options { game: game.clone() }),
            );
            let ServerMessage::Options {
                expect, yours, options, ..
            } = answer(&body)
            else {
                panic!("{body}")
            };
            if options.side.is_none() {
                break;
            }
            assert!(yours, "the computer has played its part before the answer");
            let order = hexfront::game::order_options::random_pick(&options, &mut rng).unwrap();
            let (status, body) = http_post(
                addr,
                "/api/request",
                Some(&token),
                &json(&ClientMessage::Order {
                    game: game.clone(),
                    expect,
                    order,
                }),
            );
            assert_eq!(status, 200, "{body}");
            assert!(
                matches!(answer(&body), ServerMessage::Accepted { index, .. } if index == expect),
                "{body}"
            );
            orders += 1;
        }
        // The whole game as watch would send it, checked by a follower.
        let (status, body) = http_get(addr, &format!("/api/games/{game}/messages?since=0"));
        assert_eq!(status, 200);
        let messages: Vec<ServerMessage> = serde_json::from_str(&body).unwrap();
        let ServerMessage::Game(view) = messages[0].clone() else {
            panic!("{:?}", messages[0])
        };
        let mut follower = Follower::new(view).unwrap();
        for m in &messages[1..] {
            follower.take(m).unwrap();
        }
        assert!(follower.ended.is_some());
        assert_eq!(follower.checked, follower.len());
        (orders, follower.len())
    })
    .join()
    .unwrap();
    assert!(played.0 > 3 && played.1 > played.0, "{played:?}");
    rt.block_on(server.stop());
}
