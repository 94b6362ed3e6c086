//! Undo online, over real sockets: a player takes back their own orders as in a local game (back
//! to the last die, reveal or defender's answer), the opponent and observers see it happen and
//! replay to the same hashes, and a late follower gets the log as it now stands.

mod common;

use common::online::*;
use hexfront::ai::side_to_act;
use hexfront::game::order::Order;
use hexfront::net::protocol::{ClientMessage, Opponent, ServerMessage};

/// Sends `message` and takes the answer, the pushes that came first applied by the seat.
async fn ask(seat: &mut Seat, message: &ClientMessage) -> ServerMessage {
    seat.client.send(message).await.unwrap();
    loop {
        let m = next(&mut seat.client).await;
        match m {
            ServerMessage::TakenBack { .. } | ServerMessage::Refused { .. } | ServerMessage::Error { .. } => return m,
            other => seat.take(other),
        }
    }
}

/// Reads `seat`'s messages until it holds `len` entries.
async fn until_len(seat: &mut Seat, len: usize) {
    while seat.follower.len() != len {
        let m = next(&mut seat.client).await;
        seat.take(m);
    }
}

fn undo(game: &str, expect: usize) -> ClientMessage {
    ClientMessage::Undo {
        game: game.into(),
        expect,
    }
}

#[test]
fn a_player_takes_back_their_own_orders_and_everyone_replays_to_the_same_hashes() {
    let dir = temp_dir("undo");
    runtime().block_on(async {
        let server = start(&dir).await;
        let (mut a, _, _) = player(server.addr, "Anna").await;
        let (mut b, _, _) = player(server.addr, "Bert").await;
        let (game, invite, _) = create(&mut a, "st-vith-1944", "german", Opponent::Invite).await;
        let (fa, fb) = join_and_follow(&mut a, &mut b, &game, invite).await;
        let mut anna = Seat::new(a, fa, "standard", 41);
        let mut bert = Seat::new(b, fb, "standard", 42);
        let (mut o, _, _) = player(server.addr, "Otto").await;
        let mut otto = watch(&mut o, &game, 0, None).await;
        // Anna moves twice; Bert and Otto follow.
        let mut moves = Vec::new();
        while moves.len() < 2 {
            let before = anna.follower.len();
            anna.act(&game).await;
            until_len(&mut anna, before + 1).await;
            moves.push(anna.follower.entries()[before].order.clone());
        }
        assert!(moves.iter().all(|m| matches!(m, Order::Move { .. })), "{moves:?}");
        until_len(&mut bert, 2).await;
        // Bert may not take back Anna's order.
        let refused = ask(&mut bert, &undo(&game, 2)).await;
        assert!(
            matches!(&refused, ServerMessage::Refused { reason, .. } if reason.contains("only that side")),
            "{refused:?}"
        );
        // An undo that names a stale log length is refused too.
        let stale = ask(&mut anna, &undo(&game, 1)).await;
        assert!(
            matches!(&stale, ServerMessage::Refused { reason, .. } if reason.contains("catch up")),
            "{stale:?}"
        );
        // Anna takes both back, one at a time; everyone replays to the server's hashes.
        for expect in [2, 1] {
            let answer = ask(&mut anna, &undo(&game, expect)).await;
            assert_eq!(
                answer,
                ServerMessage::TakenBack {
                    game: game.clone(),
                    index: expect - 1
                }
            );
            until_len(&mut anna, expect - 1).await;
            until_len(&mut bert, expect - 1).await;
        }
        // Otto saw both moves and both undos.
        let (mut seen, mut undos) = (0, 0);
        while undos < 2 {
            let m = next(&mut o).await;
            seen += usize::from(matches!(m, ServerMessage::Entry { .. }));
            undos += usize::from(matches!(m, ServerMessage::Undone { .. }));
            otto.take(&m).unwrap();
        }
        assert_eq!((seen, otto.len()), (2, 0));
        // Nothing left to take back.
        let nothing = ask(&mut anna, &undo(&game, 0)).await;
        assert!(
            matches!(&nothing, ServerMessage::Refused { reason, .. } if reason.contains("nothing to undo")),
            "{nothing:?}"
        );
        // The game goes on from there, into its first combat; the dice stop undo.
        anna.sent = None;
        let mut attacked = false;
        while !attacked {
            let german = anna.follower.my_side();
            let them = bert.follower.my_side();
            let len = anna.follower.len();
            if side_to_act(anna.follower.world()) == german {
                anna.act(&game).await;
            } else if side_to_act(bert.follower.world()) == them && bert.follower.len() == len {
                bert.act(&game).await;
            }
            tokio::select! {
                m = next(&mut anna.client) => anna.take(m),
                m = next(&mut bert.client) => bert.take(m),
            }
            attacked = anna.follower.entries().last().is_some_and(|e| !e.dice.is_empty());
        }
        let len = anna.follower.len();
        let barred = ask(&mut anna, &undo(&game, len)).await;
        assert!(
            matches!(&barred, ServerMessage::Refused { reason, .. } if reason.contains("dice are rolled")),
            "{barred:?}"
        );
        // Everyone holds the same log, checked entry by entry.
        until_len(&mut bert, len).await;
        while otto.len() != len {
            let m = next(&mut o).await;
            otto.take(&m).unwrap();
        }
        for f in [&anna.follower, &bert.follower, &otto] {
            assert_eq!(f.checked, f.len());
        }
        assert_eq!(anna.follower.entries(), bert.follower.entries());
        // A late follower gets the log as it stands now.
        let (mut late, _, _) = player(server.addr, "Lena").await;
        let mut fl = watch(&mut late, &game, 0, None).await;
        while fl.len() != len {
            let m = next(&mut late).await;
            fl.take(&m).unwrap();
        }
        assert_eq!(fl.entries(), anna.follower.entries());
        server.stop().await;
    });
}
