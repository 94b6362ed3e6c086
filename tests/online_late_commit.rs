//! An entry committed behind the server's back, as PostgreSQL may finish the commit of a server
//! process killed while committing after another process rebuilt the game: the log holds an
//! entry that memory does not. The same order sent again is accepted as the resend it is and
//! recorded once; another order at that index is refused; the followers get the entry from the
//! log either way. On SQLite, or PostgreSQL as for the other online tests.

mod common;

use common::online::{create, db_count, db_url, join_and_follow, next, player, temp_dir};
use hexfront::ai::{ComputerPlayer, Profile};
use hexfront::game::execute::execute;
use hexfront::game::log::OrderLog;
use hexfront::game::order::{IssuedOrder, Order};
use hexfront::net::client::{Client, Follower};
use hexfront::net::protocol::{ClientMessage, Opponent, ServerMessage};

/// The entry `order` of `side` makes next in `scratch`'s copy of the game, as the server stores
/// it (JSON).
fn entry_of(scratch: &mut Follower, side: &str, order: Order) -> String {
    let world = scratch.world();
    let index = execute(world, IssuedOrder::new(side.to_string(), order)).expect("a legal order");
    serde_json::to_string(&world.resource::<OrderLog>().entries[index]).unwrap()
}

/// Writes entry `index` of `game` straight into the database, as a dead process's commit would.
async fn commit_behind_its_back(db: &str, game: &str, index: usize, entry: &str) {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(db).await.unwrap();
    sqlx::query("INSERT INTO entries (game, idx, entry, at) VALUES ($1, $2, $3, $4)")
        .bind(game)
        .bind(index as i64)
        .bind(entry)
        .bind(hexfront::net::store::now())
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
}

/// Sends `message` and returns its answer, applying the pushes that come meanwhile.
async fn answer(c: &mut Client, f: &mut Follower, message: &ClientMessage) -> ServerMessage {
    c.send(message).await.unwrap();
    loop {
        match next(c).await {
            m @ (ServerMessage::Accepted { .. } | ServerMessage::Refused { .. } | ServerMessage::Error { .. }) => {
                return m;
            }
            m => f.take(&m).unwrap(),
        }
    }
}

/// Reads `c`'s pushes until its copy holds `len` entries.
async fn until_len(c: &mut Client, f: &mut Follower, len: usize) {
    while f.len() < len {
        let m = next(c).await;
        f.take(&m).unwrap();
    }
}

#[test]
fn an_entry_committed_behind_the_servers_back_is_found_when_its_order_comes_again() {
    let dir = temp_dir("late-commit");
    common::online::runtime().block_on(async {
        let db = db_url(&dir).await;
        let server = hexfront::net::server::start("127.0.0.1:0".parse().unwrap(), &db)
            .await
            .unwrap();
        let (mut a, _, _) = player(server.addr, "Anna").await;
        let (mut b, _, _) = player(server.addr, "Bert").await;
        let (game, invite, _) = create(&mut a, "st-vith-1944", "german", Opponent::Invite).await;
        // Both follow: the server holds the game in memory, with no entry.
        let (mut fa, mut fb) = join_and_follow(&mut a, &mut b, &game, invite).await;
        let side = fa.view.you.clone().expect("Anna's side");
        let mut ai = ComputerPlayer::new(fa.my_side().unwrap(), Profile::standard(), 41);
        let mut scratch = Follower::new(fa.view.clone()).unwrap();

        // Entry 0, Anna's first move, committed behind the server's back; Anna sends that move.
        let first = ai.next_order(scratch.world()).expect("an order to give");
        assert!(matches!(first, Order::Move { .. }), "{first:?}");
        commit_behind_its_back(&db, &game, 0, &entry_of(&mut scratch, &side, first.clone())).await;
        let order = |expect, order| ClientMessage::Order {
            game: game.clone(),
            expect,
            order,
        };
        let accepted = answer(&mut a, &mut fa, &order(0, first.clone())).await;
        assert_eq!(
            accepted,
            ServerMessage::Accepted {
                game: game.clone(),
                index: 0
            }
        );
        until_len(&mut a, &mut fa, 1).await;
        until_len(&mut b, &mut fb, 1).await;
        let once = "SELECT COUNT(*) AS n FROM entries";
        assert_eq!(db_count(&db, once).await, 1, "recorded once");

        // Entry 1, another move, behind its back again; Anna now ends the phase instead.
        let second = ai.next_order(scratch.world()).expect("an order to give");
        assert_ne!(second, Order::EndPhase);
        commit_behind_its_back(&db, &game, 1, &entry_of(&mut scratch, &side, second.clone())).await;
        let refused = answer(&mut a, &mut fa, &order(1, Order::EndPhase)).await;
        assert!(
            matches!(&refused, ServerMessage::Refused { reason, .. } if reason.contains("another order came first")),
            "{refused:?}"
        );
        // Everyone gets the entry that stands, from the log, each checked against its hash.
        until_len(&mut a, &mut fa, 2).await;
        until_len(&mut b, &mut fb, 2).await;
        for f in [&fa, &fb] {
            let orders: Vec<&Order> = f.entries().iter().map(|e| &e.order).collect();
            assert_eq!(orders, [&first, &second]);
            assert_eq!(f.checked, 2);
        }
        assert_eq!(db_count(&db, once).await, 2);

        // The game goes on from there: Anna's next order is entry 2.
        let third = ai.next_order(scratch.world()).expect("an order to give");
        let next_one = answer(&mut a, &mut fa, &order(2, third)).await;
        assert_eq!(
            next_one,
            ServerMessage::Accepted {
                game: game.clone(),
                index: 2
            }
        );
        until_len(&mut b, &mut fb, 3).await;
        assert_eq!(fb.checked, 3);
        server.stop().await;
    });
}
