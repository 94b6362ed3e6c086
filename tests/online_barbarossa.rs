//! The grand scenario over the network: Barbarossa's game view (its scenario text alone is larger
//! than a client's 64 KiB message limit) reaches a client, which rebuilds the game and plays
//! against the server's computer, every entry checked against the server's hash.

mod common;

use common::online::*;
use hexfront::net::protocol::Opponent;

#[test]
fn a_client_plays_barbarossa_against_the_servers_computer() {
    let dir = temp_dir("barbarossa");
    let rt = runtime();
    rt.block_on(async {
        let server = start(&dir).await;
        let (mut a, _, _) = player(server.addr, "Anna").await;
        let (game, _, _) = create(
            &mut a,
            "barbarossa-centre-1941",
            "german",
            Opponent::Computer("novice".into()),
        )
        .await;
        let fa = watch(&mut a, &game, 0, None).await;
        assert!(
            fa.view.scenario_text.len() > hexfront::net::protocol::MAX_FRAME,
            "the scenario is larger than one client message ({} bytes)",
            fa.view.scenario_text.len()
        );
        let mut sa = Seat::new(a, fa, "novice", 3);
        // Past the German player turn into the Soviet one, the server's computer playing it.
        while sa.follower.len() < 60 && sa.follower.ended.is_none() {
            sa.act(&game).await;
            let m = next(&mut sa.client).await;
            sa.take(m);
        }
        assert_eq!(sa.follower.checked, sa.follower.len());
        let sides: std::collections::BTreeSet<&str> = sa.follower.entries().iter().map(|e| e.side.as_str()).collect();
        assert!(sides.len() == 2, "both sides gave orders: {sides:?}");
        println!("{} entries, every one checked", sa.follower.len());
        server.stop().await;
    });
}
