//! A server started on a database of the release before save format 4 (its stored attacks with a
//! field per option, schema 7) rewrites them once as lists of options and its games go on: a
//! follower replays every entry to the server's hashes, the player plays on, and an entry that
//! reads neither way stops the migration by name and changes nothing. A database of schema 8
//! (each game with a copy of its scenario's text) keeps each text once.

mod common;

use common::online::*;
use hexfront::net::client::Client;
use hexfront::net::protocol::{ClientMessage, Opponent};
use serde_json::{Map, Value, json};
use sqlx::{Connection, Row};

/// An attack's options as protocol 1 and save format 3 wrote them: a field each.
fn old_attack(attack: &mut Map<String, Value>) -> usize {
    let Some(Value::Array(options)) = attack.remove("options") else {
        return 0;
    };
    let mut choices = Map::new();
    for option in &options {
        let (kind, value) = match option {
            Value::String(kind) => (kind.as_str(), Value::Null),
            Value::Object(o) => {
                let (k, v) = o.iter().next().unwrap();
                (k.as_str(), v.clone())
            }
            other => panic!("an option is a string or an object: {other}"),
        };
        match kind {
            "RetreatAsSteps" => drop(choices.insert("retreat".into(), value)),
            "Exchange" => drop(choices.insert("german_exchange".into(), json!(true))),
            "LossesFirst" => drop(choices.insert("losses_first".into(), value)),
            "AcceleratedEffort" => drop(attack.insert("accelerated_effort".into(), value)),
            "Tactics" => drop(attack.insert("tactics".into(), value)),
            "Barrage" => drop(attack.insert("barrage".into(), value)),
            "Flanking" => drop(attack.insert("flanking".into(), json!(true))),
            other => panic!("an option of today's format: {other}"),
        }
    }
    if !choices.is_empty() {
        attack.insert("choices".into(), Value::Object(choices));
    }
    options.len()
}

/// Rewrites the stored entries as the release before format 4 wrote them and puts the schema
/// back to 7: the options turned back, and how many entries were changed.
async fn as_the_release_before(db: &str) -> (usize, usize) {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(db).await.unwrap();
    let rows = sqlx::query("SELECT game, idx, entry FROM entries")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    let (mut options, mut changed) = (0, 0);
    for row in rows {
        let (game, idx, text): (String, i64, String) = (row.get("game"), row.get("idx"), row.get("entry"));
        let mut entry: Value = serde_json::from_str(&text).unwrap();
        let Some(Value::Object(attack)) = entry.pointer_mut("/order/Attack") else {
            continue;
        };
        let n = old_attack(attack);
        if n == 0 {
            continue;
        }
        options += n;
        changed += 1;
        sqlx::query("UPDATE entries SET entry = $1 WHERE game = $2 AND idx = $3")
            .bind(entry.to_string())
            .bind(&game)
            .bind(idx)
            .execute(&mut conn)
            .await
            .unwrap();
    }
    conn.close().await.unwrap();
    as_schema_8(db).await;
    let mut conn = sqlx::AnyConnection::connect(db).await.unwrap();
    sqlx::query("DELETE FROM schema_version WHERE version > 7")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    (options, changed)
}

/// Puts the database back as schema 8 left it: each game with its own copy of its scenario's
/// text, no table of texts, no uploads.
async fn as_schema_8(db: &str) {
    let mut conn = sqlx::AnyConnection::connect(db).await.unwrap();
    for sql in [
        "ALTER TABLE games ADD COLUMN scenario_text TEXT NOT NULL DEFAULT ''",
        "UPDATE games SET scenario_text = (SELECT text FROM scenario_texts WHERE scenario_texts.hash = games.scenario_hash)",
        "ALTER TABLE games DROP COLUMN scenario_hash",
        "ALTER TABLE games DROP COLUMN ruleset_hash",
        "DROP TABLE scenario_texts",
        "DROP TABLE uploads",
        "DELETE FROM schema_version WHERE version > 8",
    ] {
        sqlx::query(sql).execute(&mut conn).await.unwrap();
    }
    conn.close().await.unwrap();
}

#[test]
fn each_scenario_text_is_stored_once_and_an_older_database_moves_its_copies() {
    let dir = temp_dir("texts");
    let rt = runtime();
    rt.block_on(async {
        let db = db_url(&dir).await;
        let server = start(&dir).await;
        let (mut a, _, token) = player(server.addr, "Anna").await;
        let mut games = Vec::new();
        for scenario in ["mortain-1944", "st-vith-1944", "mortain-1944", "mortain-1944"] {
            let side = if scenario.starts_with("mortain") {
                "german"
            } else {
                "us"
            };
            games.push(
                create(&mut a, scenario, side, Opponent::Computer("novice".into()))
                    .await
                    .0,
            );
        }
        assert_eq!(
            db_count(&db, "SELECT COUNT(*) AS n FROM scenario_texts").await,
            2,
            "two texts for four games"
        );
        server.stop().await;

        as_schema_8(&db).await;
        let copies = "SELECT COUNT(*) AS n FROM games WHERE LENGTH(scenario_text) > 1000";
        assert_eq!(db_count(&db, copies).await, 4, "schema 8 keeps a copy a game");

        // The server of this release moves the copies, one text each, and every game reads.
        let server = start(&dir).await;
        assert_eq!(db_count(&db, "SELECT COUNT(*) AS n FROM scenario_texts").await, 2);
        let mut conn = sqlx::AnyConnection::connect(&db).await.unwrap();
        let columns = sqlx::query("SELECT * FROM games").fetch_one(&mut conn).await.unwrap();
        assert!(
            columns.try_get::<String, _>("scenario_text").is_err(),
            "the games' copies are gone"
        );
        conn.close().await.unwrap();
        let mut watcher = Client::connect(&ws(server.addr)).await.unwrap();
        watcher.request(&ClientMessage::Login { token }).await.unwrap();
        for (game, scenario) in games
            .iter()
            .zip(["mortain-1944", "st-vith-1944", "mortain-1944", "mortain-1944"])
        {
            let follower = watch(&mut watcher, game, 0, None).await;
            let (shipped, _) = hexfront::net::lobby::shipped(scenario).unwrap();
            assert_eq!(follower.view.scenario_text, shipped, "{game}");
        }
        println!("4 games, 2 texts before and after the migration");
        server.stop().await;
    });
}

/// Stored entries holding `needle` (read whole: `LIKE` takes `_` for any letter).
async fn count_entries(db: &str, needle: &str) -> usize {
    let mut conn = sqlx::AnyConnection::connect(db).await.unwrap();
    let rows = sqlx::query("SELECT entry FROM entries")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    rows.iter()
        .filter(|r| r.get::<String, _>("entry").contains(needle))
        .count()
}

#[test]
fn a_server_on_the_release_befores_database_rewrites_its_attacks_and_the_game_goes_on() {
    let dir = temp_dir("migration");
    let rt = runtime();
    rt.block_on(async {
        let db = db_url(&dir).await;
        let server = start(&dir).await;
        let (mut a, _, token) = player(server.addr, "Anna").await;
        let (game, _, _) = create(&mut a, "mortain-1944", "german", Opponent::Computer("novice".into())).await;
        let fa = watch(&mut a, &game, 0, None).await;
        let mut sa = Seat::new(a, fa, "standard", 7);
        // Until the log holds attacks with options (Killing Ground: Accelerated Efforts, retreats
        // taken as steps) and the game waits for Anna, her last order back: the server's
        // computer is not writing when the server stops.
        let idle = |s: &mut Seat| {
            let mine = s.follower.my_side();
            hexfront::ai::side_to_act(s.follower.world()) == mine
                && s.sent.is_none_or(|e| s.follower.len() > e)
        };
        while sa.follower.len() < 40 || count_entries(&db, "\"options\"").await < 2 || !idle(&mut sa) {
            assert!(sa.follower.ended.is_none() && sa.follower.len() < 400, "no attack took an option");
            sa.act(&game).await;
            let m = next(&mut sa.client).await;
            sa.take(m);
        }
        server.stop().await;
        let held = sa.follower.len();
        let (options, changed) = as_the_release_before(&db).await;
        assert!(options >= 2 && changed >= 2, "{options} options in {changed} entries");
        assert_eq!(count_entries(&db, "\"options\"").await, 0);

        // An entry that reads neither way stops the migration, by name, and changes nothing.
        let mut conn = sqlx::AnyConnection::connect(&db).await.unwrap();
        let broken = r#"{"side":"german","order":{"Attack":{"attackers":["x"],"target":"0101","speed":9}},"rng":[0,0],"hash":"00000000.00000000.00000000.00000000"}"#;
        sqlx::query("INSERT INTO entries (game, idx, entry, at) VALUES ('zz-broken', 0, $1, 0)")
            .bind(broken)
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
        let refused = hexfront::net::server::start("127.0.0.1:0".parse().unwrap(), &db)
            .await
            .err()
            .expect("the migration stops at the broken entry");
        assert!(refused.contains("game `zz-broken` entry 0") && refused.contains("speed"), "{refused}");
        assert_eq!(count_entries(&db, "\"options\"").await, 0, "nothing was rewritten");
        let mut conn = sqlx::AnyConnection::connect(&db).await.unwrap();
        sqlx::query("DELETE FROM entries WHERE game = 'zz-broken'")
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();

        // The server of this release rewrites the attacks and rebuilds the game from them.
        let server = start(&dir).await;
        assert_eq!(count_entries(&db, "\"options\"").await, changed);
        assert_eq!(count_entries(&db, "\"accelerated_effort\"").await, 0);
        let mut watcher = Client::connect(&ws(server.addr)).await.unwrap();
        watcher.request(&ClientMessage::Login { token: token.clone() }).await.unwrap();
        let mut fresh = watch(&mut watcher, &game, 0, None).await;
        while fresh.len() < held {
            let m = next(&mut watcher).await;
            fresh.take(&m).unwrap();
        }
        assert_eq!(fresh.checked, held, "every migrated entry replays to the server's hash");
        // The player goes on from the entries it holds, to the end of the game.
        play_on_after_restart(&mut sa, server.addr, &token, &game).await;
        println!(
            "{held} entries held, {changed} attacks with {options} options migrated, {} entries at the end",
            sa.follower.len()
        );
        server.stop().await;
    });
}
