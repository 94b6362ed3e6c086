//! A player uploads a scenario of their own with the user ruleset it names (`POST
//! /api/scenarios`, real sockets): refusals name the field, or the file, line and field at fault;
//! the same texts get the same id and are stored once; a game made from the upload is played to
//! its end against the server's computer, every entry checked by a client that built the
//! scenario from the texts the server sent, and the finished game verifies as a saved game.

mod common;

use common::online::*;
use hexfront::net::protocol::{ClientMessage, Opponent, ServerMessage};
use serde_json::{Value, json};

/// Mortain on a ruleset of the player's own: the Killing Ground with bocage easier for tanks.
fn texts() -> (String, String) {
    let (scenario, _) = hexfront::net::lobby::shipped("mortain-1944").unwrap();
    let scenario = scenario.replacen("ruleset: \"killing-ground\"", "ruleset: \"our-rules.ron\"", 1);
    let rules = hexfront::scenario::user_ruleset::starting_text("killing-ground", "our-rules").unwrap();
    let bocage = "pattern: Hedges, cost: (foot: 2, motorized: 3, mechanized: 3)";
    assert!(rules.contains(bocage));
    let rules = rules
        .replacen(
            bocage,
            "pattern: Hedges, cost: (foot: 2, motorized: 3, mechanized: 2)",
            1,
        )
        .replacen("name: \"The Killing Ground\"", "name: \"Our Killing Ground\"", 1);
    (scenario, rules)
}

fn body(scenario: &str, ruleset: Option<(&str, &str)>) -> String {
    let mut b = json!({ "scenario": { "file": "mortain-ours.ron", "text": scenario } });
    if let Some((file, text)) = ruleset {
        b["ruleset"] = json!({ "file": file, "text": text });
    }
    b.to_string()
}

/// The status answering a request whose body is over the upload limit.
fn too_large(addr: std::net::SocketAddr, token: &str) -> u16 {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let length = hexfront::net::user_scenarios::MAX_UPLOAD_BODY + 1;
    write!(
        s,
        "POST /api/scenarios HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    // The body, until the server stops taking it (it may answer and close before the end).
    let chunk = vec![b'x'; 64 * 1024];
    let mut sent = 0;
    while sent < length && s.write_all(&chunk[..chunk.len().min(length - sent)]).is_ok() {
        sent += chunk.len();
    }
    // Only the answer's head is read.
    s.set_read_timeout(Some(std::time::Duration::from_secs(30))).unwrap();
    let mut head = [0u8; 12];
    s.read_exact(&mut head).unwrap();
    String::from_utf8_lossy(&head[9..12]).parse().unwrap_or(0)
}

async fn stored_texts(db: &str) -> i64 {
    db_count(db, "SELECT COUNT(*) AS n FROM scenario_texts").await
}

#[test]
fn an_uploaded_scenario_with_its_own_ruleset_is_checked_stored_once_and_played_to_a_verified_end() {
    let dir = temp_dir("uploads");
    let rt = runtime();
    rt.block_on(async {
        let db = db_url(&dir).await;
        let server = start(&dir).await;
        let (mut a, _, token) = player(server.addr, "Anna").await;
        let (scenario, rules) = texts();
        let post = |b: &str, t: Option<&str>| http_post(server.addr, "/api/scenarios", t, b);

        // Refusals, each naming what is wrong; nothing stored.
        let broken_rules = rules.replacen("terrain: [", "terrian: [", 1);
        let broken_line = 1 + broken_rules.lines().position(|l| l.contains("terrian")).unwrap();
        let refusals: Vec<(u16, String, Option<&str>, String)> = vec![
            (
                401,
                body(&scenario, Some(("our-rules.ron", &rules))),
                None,
                "Bearer".into(),
            ),
            (
                400,
                "{\"scenario\": 3}".into(),
                Some(&token),
                "not the JSON expected".into(),
            ),
            (
                422,
                body(&scenario, None),
                Some(&token),
                "field `ruleset`: the ruleset file `our-rules.ron` was not given".into(),
            ),
            (
                422,
                body(&scenario, Some(("other.ron", &rules))),
                Some(&token),
                "names the ruleset file `our-rules.ron`".into(),
            ),
            (
                422,
                body(&scenario, Some(("our-rules.ron", &broken_rules))),
                Some(&token),
                format!("our-rules.ron:{broken_line}:"),
            ),
            (
                422,
                body(
                    &scenario.replacen("units: [", "unitz: [", 1),
                    Some(("our-rules.ron", &rules)),
                ),
                Some(&token),
                "mortain-ours.ron:".into(),
            ),
            (
                422,
                body(&"x".repeat(hexfront::net::user_scenarios::MAX_UPLOAD_TEXT + 1), None),
                Some(&token),
                "at most".into(),
            ),
        ];
        for (i, (status, b, t, says)) in refusals.iter().enumerate() {
            let (got, answer) = post(b, *t);
            assert_eq!(got, *status, "refusal {i}: {answer}");
            assert!(answer.contains(says.as_str()), "refusal {i}: {answer}");
        }
        assert_eq!(
            too_large(server.addr, &token),
            413,
            "a body over the limit is refused unread"
        );
        assert_eq!(stored_texts(&db).await, 0, "a refusal stores nothing");

        // Accepted: the same texts, the same id, each text once.
        let (status, answer) = post(&body(&scenario, Some(("our-rules.ron", &rules))), Some(&token));
        assert_eq!(status, 200, "{answer}");
        let answer: Value = serde_json::from_str(&answer).unwrap();
        let id = answer["scenario"].as_str().unwrap().to_string();
        assert!(
            id.starts_with("u-") && answer["sides"] == json!(["german", "us"]),
            "{answer}"
        );
        let (_, again) = post(&body(&scenario, Some(("our-rules.ron", &rules))), Some(&token));
        assert!(again.contains(&id), "{again}");
        assert_eq!(stored_texts(&db).await, 2);

        match a
            .request(&ClientMessage::Create {
                scenario: "u-0123".into(),
                side: "german".into(),
                opponent: Opponent::Computer("novice".into()),
                contribution: hexfront::net::client::contribution(),
                observer_delay: Default::default(),
                turn_time: None,
                chain: None,
            })
            .await
            .unwrap()
        {
            ServerMessage::Error { message } => assert!(message.contains("no uploaded scenario `u-0123`"), "{message}"),
            other => panic!("an unknown upload was taken: {other:?}"),
        }

        // Two games of it: still two texts. One is played out.
        let (game, _, _) = create(&mut a, &id, "german", Opponent::Computer("novice".into())).await;
        let (other, _, _) = create(&mut a, &id, "us", Opponent::Computer("novice".into())).await;
        assert_ne!(game, other);
        assert_eq!(stored_texts(&db).await, 2, "two games, one copy of each text");
        let follower = watch(&mut a, &game, 0, None).await;
        assert_eq!(follower.view.ruleset_text.as_deref(), Some(rules.as_str()));
        assert_eq!(follower.view.scenario, "mortain-ours");
        let mut seat = Seat::new(a, follower, "standard", 11);
        while seat.follower.ended.is_none() {
            seat.act(&game).await;
            let m = next(&mut seat.client).await;
            seat.take(m);
        }
        assert_eq!(seat.follower.checked, seat.follower.len(), "every entry's hash checked");
        verify_finished(server.addr, &game, &dir);
        let (_, saved) = http_get(server.addr, &format!("/api/games/{game}/saved"));
        assert!(
            saved.contains("Our Killing Ground") && saved.contains("mechanized: 2"),
            "the save carries the user ruleset"
        );
        // A player keeps at most 50 uploads: 49 more (each a comment apart) and the next is refused.
        let limit = hexfront::net::user_scenarios::MAX_UPLOADS_A_PLAYER as usize;
        for i in 1..limit {
            let (status, answer) = post(
                &body(&format!("// copy {i}\n{scenario}"), Some(("our-rules.ron", &rules))),
                Some(&token),
            );
            assert_eq!(status, 200, "upload {i}: {answer}");
        }
        let (status, answer) = post(
            &body(&format!("// one too many\n{scenario}"), Some(("our-rules.ron", &rules))),
            Some(&token),
        );
        assert!(status == 422 && answer.contains("limit"), "{status}: {answer}");
        assert_eq!(
            stored_texts(&db).await,
            limit as i64 + 1,
            "50 scenario texts, one ruleset text"
        );
        println!(
            "{} refusals, 1 upload (2 texts), {} entries played and checked, verified",
            refusals.len(),
            seat.follower.len()
        );
        server.stop().await;
    });
}
