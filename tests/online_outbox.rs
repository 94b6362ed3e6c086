//! A connection that lets more messages pile up than the server keeps for it is cut off, and the
//! server goes on serving everyone else: here a server keeping at most four messages a
//! connection, and a catch-up of a game's first turn (more than four entries) to one client.

mod common;

use common::online::*;
use hexfront::net::client::Client;
use hexfront::net::protocol::{ClientMessage, Opponent, ServerMessage};
use hexfront::net::server;
use std::time::Duration;

#[test]
fn a_connection_whose_messages_pile_up_is_cut_off_and_the_server_goes_on() {
    let dir = temp_dir("outbox");
    runtime().block_on(async {
        let options = server::Options {
            outbox_limit: 4,
            ..Default::default()
        };
        let url = db_url(&dir).await;
        let server = server::start_with("127.0.0.1:0".parse().unwrap(), &url, options)
            .await
            .unwrap();
        // The computer (German) plays its first turn as soon as the game is read.
        let (mut anna, _, token) = player(server.addr, "Anna").await;
        let (game, _, _) = create(&mut anna, "mortain-1944", "us", Opponent::Computer("novice".into())).await;
        anna.send(&ClientMessage::Watch {
            game: game.clone(),
            since: 0,
        })
        .await
        .unwrap();
        // The catch-up is more than four messages at once: the connection ends.
        let mut received = 0;
        let cut = tokio::time::timeout(Duration::from_secs(20), async {
            while anna.next().await.is_ok() {
                received += 1;
            }
        })
        .await;
        assert!(cut.is_ok(), "the connection was not cut off ({received} messages)");
        assert!(received < 60, "{received} messages came before the cut");
        // The server serves others, and Anna again, as before.
        let mut again = Client::connect(&ws(server.addr)).await.unwrap();
        let back = again.request(&ClientMessage::Login { token }).await.unwrap();
        assert!(matches!(back, ServerMessage::LoggedIn { .. }), "{back:?}");
        let options = again
            .request(&ClientMessage::Options { game: game.clone() })
            .await
            .unwrap();
        let ServerMessage::Options { expect, .. } = options else {
            panic!("{options:?}")
        };
        assert!(expect > 4, "the computer's turn was played: {expect} entries");
        server.stop().await;
    });
}
