//! Hash-chained dice, over real sockets: in a game hosted by one of its players, each order that
//! rolls waits for the next link of the other player's hash chain and is carried out with it;
//! the holder's client gives one link an entry and checks the entry that comes; a wrong link, a
//! link from someone else, an order while one waits, are refused; the holder dropping and coming
//! back is asked again; the finished game verifies with `hexfront replay --verify`, and a save
//! whose links were tampered with does not.

mod common;

use common::online::*;
use hexfront::net::client::{ChainHolder, Client, contribution};
use hexfront::net::protocol::{ClientMessage, Opponent, ServerMessage};
use hexfront::net::server;

/// Links in the test chain (a real client makes `client::CHAIN_LENGTH`).
const LINKS: usize = 3_000;

/// Sends `message` from `seat` and takes its answer (a refusal or an error), the seat taking
/// what comes first.
async fn refusal(seat: &mut Seat, message: &ClientMessage) -> String {
    seat.client.send(message).await.unwrap();
    loop {
        match next(&mut seat.client).await {
            ServerMessage::Refused { reason, .. } => return reason,
            ServerMessage::Error { message } => return message,
            other => seat.take(other),
        }
    }
}

/// Creates a game with hash-chained dice and seats Bert with his chain: (game, Anna, Bert).
async fn chained_game(addr: std::net::SocketAddr) -> (String, Client, Client, String, ChainHolder) {
    let (mut a, _, _) = player(addr, "Anna (host)").await;
    let (mut b, _, token_b) = player(addr, "Bert").await;
    let create = |opponent, chain| ClientMessage::Create {
        scenario: "mortain-1944".into(),
        side: "us".into(),
        opponent,
        contribution: contribution(),
        observer_delay: Default::default(),
        turn_time: None,
        chain,
    };
    // A chain needs a second player's client.
    let computer = a
        .request(&create(Opponent::Computer("novice".into()), Some(true)))
        .await
        .unwrap();
    assert!(
        matches!(&computer, ServerMessage::Error { message } if message.contains("chain:")),
        "{computer:?}"
    );
    // Against the computer the server's default (chained dice) does not apply.
    let plain = a
        .request(&create(Opponent::Computer("novice".into()), None))
        .await
        .unwrap();
    assert!(matches!(plain, ServerMessage::Created { .. }), "{plain:?}");
    // Against a player it does: this server runs on the host's computer.
    let ServerMessage::Created { game, invite, .. } = a.request(&create(Opponent::Invite, None)).await.unwrap() else {
        panic!("not created")
    };
    let join = |chain_end| ClientMessage::Join {
        game: game.clone(),
        invite: invite.clone(),
        contribution: contribution(),
        chain_end,
    };
    let bare = b.request(&join(None)).await.unwrap();
    assert!(
        matches!(&bare, ServerMessage::Error { message } if message.contains("chain_end:")),
        "{bare:?}"
    );
    let holder = ChainHolder::new(LINKS);
    let joined = b.request(&join(Some(holder.end().to_string()))).await.unwrap();
    assert!(matches!(joined, ServerMessage::Joined { .. }), "{joined:?}");
    (game, a, b, token_b, holder)
}

#[test]
fn each_roll_waits_for_the_other_players_chain_link_and_the_game_verifies() {
    let dir = temp_dir("chain");
    runtime().block_on(async {
        // A game hosted on a player's computer: SQLite, hash-chained dice by default.
        let db = hexfront::net::store::Store::sqlite_url(&dir.join("server.db"));
        let hosted = server::Options {
            chained_dice_by_default: true,
            ..Default::default()
        };
        let server = server::start_with("127.0.0.1:0".parse().unwrap(), &db, hosted).await.unwrap();
        let (game, mut a, mut b, token_b, holder) = chained_game(server.addr).await;
        let fa = watch(&mut a, &game, 0, None).await;
        let mut fb = watch(&mut b, &game, 0, None).await;
        assert!(fa.view.chained && fb.view.chain_ends.iter().flatten().count() == 1);
        fb.chain = Some(holder);
        let mut anna = Seat::new(a, fa, "standard", 51);
        let mut bert = Seat::new(b, fb, "standard", 52);

        // Until the first order that rolls: Bert holds the link back.
        bert.answer_links = false;
        while bert.asked.is_none() {
            anna.act(&game).await;
            bert.act(&game).await;
            tokio::select! {
                m = next(&mut anna.client) => anna.take(m),
                m = next(&mut bert.client) => bert.take(m),
            }
        }
        let Some(ServerMessage::LinkWanted { index, .. }) = bert.asked.clone() else { unreachable!() };
        assert_eq!(anna.follower.len(), index, "the order that rolls is not in the log yet");
        let mut checked = 0;
        // While it waits, no other order goes through.
        let other = ClientMessage::Order {
            game: game.clone(),
            expect: index,
            order: hexfront::game::order::Order::EndPhase,
        };
        let why = refusal(&mut anna, &other).await;
        assert!(why.contains("waits for") && why.contains("chain link"), "{why}");
        // Only the holder's link, and only the next one of his chain.
        let link = |link: String| ClientMessage::Link {
            game: game.clone(),
            index,
            link,
        };
        let why = refusal(&mut anna, &link(contribution())).await;
        assert!(why.contains("you do not hold the chain"), "{why}");
        let why = refusal(&mut bert, &link(contribution())).await;
        assert!(why.contains("does not hash"), "{why}");
        checked += 3;
        // Bert drops and comes back: he is asked again, answers, and the order goes through.
        bert.client.close().await;
        bert.asked = None;
        bert.answer_links = true;
        let mut again = Client::connect(&ws(server.addr)).await.unwrap();
        again.request(&ClientMessage::Login { token: token_b }).await.unwrap();
        bert = bert.resumed(again, &game).await;
        play_on(&mut anna, &mut bert, &game).await;
        assert!(bert.follower.entries()[index].link.is_some(), "the held order came with its link");

        // The end: every entry's hash checked by both; each roll carried a link in chain order.
        let entries = anna.follower.entries();
        let rolled = entries.iter().filter(|e| !e.dice.is_empty()).count();
        let linked = entries.iter().filter(|e| e.link.is_some()).count();
        assert!(rolled > 0 && linked == rolled, "{rolled} entries rolled, {linked} carried a link");
        assert_eq!(bert.links, linked, "one link given an entry that rolled");
        assert_eq!(anna.follower.checked, anna.follower.len());
        assert_eq!(bert.follower.checked, bert.follower.len());
        checked += anna.follower.checked + bert.follower.checked;

        // The save verifies, chain included; with a link taken out, or swapped, it does not.
        verify_finished(server.addr, &game, &dir);
        let saved = std::fs::read_to_string(dir.join(format!("{game}.ron"))).unwrap();
        let first = entries.iter().find_map(|e| e.link.clone()).unwrap();
        let tampered = [
            saved.replacen(&format!("\n            link: \"{first}\","), "", 1),
            saved.replacen(&first, &contribution(), 1),
        ];
        for (i, text) in tampered.iter().enumerate() {
            assert!(*text != saved, "tampering {i} changed nothing");
            let file = dir.join(format!("tampered-{i}.ron"));
            std::fs::write(&file, text).unwrap();
            let (ok, _, said) = replay_verify(&file);
            assert!(!ok && said.contains("chain link"), "tampering {i}: {said}");
            checked += 1;
        }
        println!(
            "hash-chained dice: {} entries, {rolled} rolled with a link each, {} orders held for a link, {checked} checks",
            entries.len(),
            anna.held + bert.held
        );
        server.stop().await;
    });
}

#[test]
fn the_chain_holder_gives_one_link_an_entry_and_catches_an_order_changed_after_its_dice() {
    use hexfront::game::dice_proof::chain_step;
    use hexfront::game::order::Order;
    use hexfront::net::protocol::EntryView;
    let mut holder = ChainHolder::new(4);
    let end = holder.end().to_string();
    let first = holder.link_for(7, &Order::EndPhase).unwrap();
    assert_eq!(
        chain_step(&first).unwrap(),
        end,
        "the first link hashes to the committed end"
    );
    // Asked again for the same entry and order (a server restarted): the same link.
    assert_eq!(holder.link_for(7, &Order::EndPhase).unwrap(), first);
    // Asked for the same entry with another order: the host tries the dice twice.
    let changed = holder.link_for(7, &Order::Concede).unwrap_err();
    assert!(changed.contains("second, different order"), "{changed}");
    let second = holder.link_for(9, &Order::EndPhase).unwrap();
    assert_eq!(chain_step(&second).unwrap(), first);
    // The entry that comes must be the order the link was given for, with that link.
    let entry = |order: Order, link: Option<String>| EntryView {
        index: 7,
        side: "us".into(),
        order,
        hidden: false,
        words: String::new(),
        dice: Vec::new(),
        hash: Default::default(),
        link,
    };
    assert_eq!(holder.check(&entry(Order::EndPhase, Some(first.clone()))), Ok(()));
    assert!(holder.check(&entry(Order::Concede, Some(first.clone()))).is_err());
    assert!(holder.check(&entry(Order::EndPhase, Some(second))).is_err());
    assert!(holder.check(&entry(Order::EndPhase, None)).is_err());
    // A link given for one entry, used at another (asked for a made-up index): caught.
    let elsewhere = EntryView {
        index: 8,
        ..entry(Order::EndPhase, Some(first.clone()))
    };
    assert!(holder.check(&elsewhere).unwrap_err().contains("did not give"));
    // A chain runs out.
    for i in 10..12 {
        holder.link_for(i, &Order::EndPhase).unwrap();
    }
    assert!(holder.link_for(12, &Order::EndPhase).unwrap_err().contains("used up"));
}

/// The committed online game: a finished game of Mortain with hash-chained dice, as the server
/// gives it. Every build replays it to the same dice and hashes (the Windows check runs it too).
const COMMITTED: &str = "tests/fixtures/online-mortain-chained.ron";

#[test]
#[ignore = "writes tests/fixtures/online-mortain-chained.ron"]
fn write_the_committed_online_game() {
    let dir = temp_dir("chain-fixture");
    runtime().block_on(async {
        let db = hexfront::net::store::Store::sqlite_url(&dir.join("server.db"));
        let hosted = server::Options {
            chained_dice_by_default: true,
            ..Default::default()
        };
        let server = server::start_with("127.0.0.1:0".parse().unwrap(), &db, hosted)
            .await
            .unwrap();
        let (game, mut a, mut b, _, holder) = chained_game(server.addr).await;
        let fa = watch(&mut a, &game, 0, None).await;
        let mut fb = watch(&mut b, &game, 0, None).await;
        fb.chain = Some(holder);
        let (mut anna, mut bert) = (Seat::new(a, fa, "standard", 61), Seat::new(b, fb, "standard", 62));
        play_on(&mut anna, &mut bert, &game).await;
        let (status, body) = http_get(server.addr, &format!("/api/games/{game}/saved"));
        assert_eq!(status, 200, "{body}");
        std::fs::write(COMMITTED, body).unwrap();
        server.stop().await;
    });
}

#[test]
fn the_committed_online_game_verifies_chain_and_all() {
    let text = std::fs::read_to_string(COMMITTED).unwrap();
    let saved = hexfront::game::save::parse_game_str(std::path::Path::new(COMMITTED), &text, 1).unwrap();
    let proof = saved.online.as_ref().expect("an online game's dice proof");
    assert!(proof.chain_end.is_some(), "a game with hash-chained dice");
    let linked = saved.log.iter().filter(|e| e.link.is_some()).count();
    let rolled = saved.log.iter().filter(|e| !e.dice.is_empty()).count();
    assert!(
        linked > 0 && linked == rolled,
        "{rolled} entries rolled, {linked} carried a link"
    );
    let (ok, said, err) = replay_verify(std::path::Path::new(COMMITTED));
    assert!(ok, "{err}");
    assert!(
        said.contains("dice proof checked") && said.contains("hash-chained dice") && said.contains("replayed exactly"),
        "{said}"
    );
}

#[test]
fn the_holders_client_gives_a_link_only_for_the_next_entry_and_refuses_an_undo_past_one() {
    use hexfront::game::order::Order;
    use hexfront::net::client::Follower;
    use hexfront::net::protocol::{GameView, SeatView};
    let (text, scenario) = hexfront::net::lobby::shipped("mortain-1944").unwrap();
    let holder = ChainHolder::new(3);
    let view = GameView {
        game: "g-1".into(),
        scenario: "mortain-1944".into(),
        scenario_name: scenario.raw.name.clone(),
        scenario_text: text.into(),
        ruleset_text: None,
        edition: hexfront::game::edition::CURRENT_EDITION,
        seats: ["german", "us"]
            .iter()
            .map(|s| SeatView {
                side: (*s).into(),
                name: (*s).into(),
                taken_by: Some("someone".into()),
            })
            .collect(),
        commitment: String::new(),
        contributions: vec![None, None],
        you: Some("us".into()),
        started: true,
        observer_delay: Default::default(),
        turn_time: None,
        chained: true,
        chain_ends: vec![None, Some(holder.end().to_string())],
    };
    let mut follower = Follower::new(view).unwrap();
    follower.chain = Some(holder);
    let wanted = |index: usize| ServerMessage::LinkWanted {
        game: "g-1".into(),
        index,
        side: "german".into(),
        order: Order::EndPhase,
        words: String::new(),
    };
    // Not the next entry: the host would learn dice for an order it has not fixed.
    let ahead = follower.link(&wanted(5)).unwrap_err();
    assert!(ahead.contains("next entry is 0"), "{ahead}");
    let Some(ClientMessage::Link { index: 0, link, .. }) = follower.link(&wanted(0)).unwrap() else {
        panic!("no link for the next entry")
    };
    // The entry comes with that order and link (its hash as this build computes it).
    let mut app = hexfront::game::headless_app(&scenario, 0);
    let at = hexfront::game::execute::execute(
        app.world_mut(),
        hexfront::game::order::IssuedOrder::new("german", Order::EndPhase),
    )
    .unwrap();
    let hash = app.world().resource::<hexfront::game::log::OrderLog>().entries[at].hash;
    let entry = hexfront::net::protocol::EntryView {
        index: 0,
        side: "german".into(),
        order: Order::EndPhase,
        hidden: false,
        words: String::new(),
        dice: Vec::new(),
        hash,
        link: Some(link),
    };
    let game = "g-1".to_string();
    follower
        .take(&ServerMessage::Entry {
            game: game.clone(),
            entry,
        })
        .unwrap();
    // Taking the log back past an entry this client gave a link for: refused as cheating.
    let undone = follower.take(&ServerMessage::Undone { game, index: 0 }).unwrap_err();
    assert!(undone.contains("past entry 0"), "{undone}");
}
