//! The database's schema, step by step, and the migration that brings a database up to date:
//! each step in a transaction of its own; step 8 rewrites the stored attacks to save format 4's
//! options (`game::save_v3`).

use super::db_error;
use sqlx::Row;

/// The schema, step by step: step `i` takes a database from version `i` to `i + 1`.
const MIGRATIONS: &[&[&str]] = &[
    &[
        "CREATE TABLE players (id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, name TEXT NOT NULL)",
        "CREATE TABLE games (id TEXT PRIMARY KEY, scenario TEXT NOT NULL, scenario_text TEXT NOT NULL, \
     edition BIGINT NOT NULL, secret TEXT NOT NULL, commitment TEXT NOT NULL, invite TEXT, \
     listed BIGINT NOT NULL, ended BIGINT NOT NULL DEFAULT 0, created BIGINT NOT NULL)",
        "CREATE TABLE seats (game TEXT NOT NULL, side BIGINT NOT NULL, player TEXT, computer TEXT, \
     contribution TEXT, PRIMARY KEY (game, side))",
        "CREATE TABLE entries (game TEXT NOT NULL, idx BIGINT NOT NULL, entry TEXT NOT NULL, \
     PRIMARY KEY (game, idx))",
    ],
    // 2: the games' chat, a room for the players and one for observers.
    &[
        "CREATE TABLE chat (id TEXT PRIMARY KEY, game TEXT NOT NULL, room TEXT NOT NULL, sender TEXT NOT NULL, \
         text TEXT NOT NULL, at BIGINT NOT NULL)",
        "CREATE INDEX chat_by_game ON chat (game, room, at)",
    ],
    // 3: when each entry was made (observers held back by time); how far behind observers are
    // held; the time per turn, and whom the game waits for since when.
    &[
        "ALTER TABLE entries ADD COLUMN at BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN observer_delay TEXT",
        "ALTER TABLE games ADD COLUMN turn_seconds BIGINT",
        "ALTER TABLE games ADD COLUMN turn_concede BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN waiting_side TEXT",
        "ALTER TABLE games ADD COLUMN waiting_since BIGINT",
        "ALTER TABLE games ADD COLUMN lapse_told BIGINT",
    ],
    // 4: "your turn" webhooks: each player's URL, who the game waits for, the last notice.
    &[
        "ALTER TABLE players ADD COLUMN webhook TEXT",
        "ALTER TABLE games ADD COLUMN waiting_player TEXT",
        "ALTER TABLE games ADD COLUMN noticed_since BIGINT",
        "ALTER TABLE games ADD COLUMN noticed_at BIGINT",
    ],
    // 5: a player's games, newest first, without reading every seat.
    &[
        "CREATE INDEX seats_by_player ON seats (player)",
        "CREATE INDEX games_by_created ON games (created)",
    ],
    // 6: when a server process last saw each player connected (several processes may share
    // the database: none sends a notice to a player connected to another).
    &["ALTER TABLE players ADD COLUMN seen_at BIGINT"],
    // 7: hash-chained dice (a game hosted by one of its players): the joining player's chain end.
    &[
        "ALTER TABLE games ADD COLUMN chained BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE seats ADD COLUMN chain_end TEXT",
    ],
    // 8: an attack's options are the list its combat system offers (save format 4): no new
    // column; every stored attack is rewritten (`rewrite_attack_options`).
    &[],
    // 9: scenario and ruleset texts stored once each, by hash (`move_scenario_texts` fills them
    // from the games' own copies, then the games' column goes); scenarios players uploaded.
    &[
        "CREATE TABLE scenario_texts (hash TEXT PRIMARY KEY, text TEXT NOT NULL)",
        "ALTER TABLE games ADD COLUMN scenario_hash TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE games ADD COLUMN ruleset_hash TEXT",
        "CREATE TABLE uploads (id TEXT PRIMARY KEY, file TEXT NOT NULL, scenario_hash TEXT NOT NULL, \
         ruleset_hash TEXT, player TEXT NOT NULL, at BIGINT NOT NULL)",
    ],
];

/// The schema version whose step rewrites the stored attacks to save format 4's options.
const ATTACK_OPTIONS_STEP: usize = 8;

/// The schema version whose step stores each scenario text once.
const SCENARIO_TEXTS_STEP: usize = 9;

/// Brings the schema on `conn` up to date, a step a transaction.
pub(super) async fn migrate_on(conn: &mut sqlx::AnyConnection) -> Result<(), String> {
    use sqlx::Connection;
    let e = |x| db_error("migrating the schema", x);
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .execute(&mut *conn)
        .await
        .map_err(e)?;
    let row = sqlx::query("SELECT MAX(version) AS v FROM schema_version")
        .fetch_one(&mut *conn)
        .await
        .map_err(e)?;
    let at = row.try_get::<Option<i64>, _>("v").map_err(e)?.unwrap_or(0) as usize;
    for (i, step) in MIGRATIONS.iter().enumerate().skip(at) {
        let mut tx = conn.begin().await.map_err(e)?;
        if let Err(why) = migration_step(&mut tx, i + 1, step).await {
            // Rolled back here, not when the transaction is dropped: a server started next finds
            // the database as it was, unlocked.
            tx.rollback().await.map_err(e)?;
            return Err(why);
        }
        sqlx::query("INSERT INTO schema_version (version) VALUES ($1)")
            .bind((i + 1) as i64)
            .execute(&mut *tx)
            .await
            .map_err(e)?;
        tx.commit().await.map_err(e)?;
    }
    Ok(())
}

/// Step `version` of the schema's migrations, in its transaction.
async fn migration_step(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    version: usize,
    step: &[&'static str],
) -> Result<(), String> {
    for sql in step {
        sqlx::query(*sql)
            .execute(&mut **tx)
            .await
            .map_err(|x| db_error("migrating the schema", x))?;
    }
    if version == ATTACK_OPTIONS_STEP {
        rewrite_attack_options(tx).await?;
    }
    if version == SCENARIO_TEXTS_STEP {
        move_scenario_texts(tx).await?;
    }
    Ok(())
}

/// Moves each game's copy of its scenario's text into `scenario_texts`, once per distinct text,
/// a page of games at a time, then drops the games' column.
async fn move_scenario_texts(tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> Result<(), String> {
    let e = |x| db_error("storing each scenario text once (schema 9)", x);
    let (mut moved, mut after) = (0usize, String::new());
    loop {
        let rows = sqlx::query("SELECT id, scenario_text FROM games WHERE id > $1 ORDER BY id LIMIT 500")
            .bind(&after)
            .fetch_all(&mut **tx)
            .await
            .map_err(e)?;
        let Some(last) = rows.last() else { break };
        after = last.get("id");
        for row in &rows {
            let (id, text): (String, String) = (row.get("id"), row.get("scenario_text"));
            let hash = super::texts::put_text(tx, &text).await?;
            sqlx::query("UPDATE games SET scenario_hash = $1 WHERE id = $2")
                .bind(hash)
                .bind(id)
                .execute(&mut **tx)
                .await
                .map_err(e)?;
            moved += 1;
        }
    }
    sqlx::query("ALTER TABLE games DROP COLUMN scenario_text")
        .execute(&mut **tx)
        .await
        .map_err(e)?;
    if moved > 0 {
        eprintln!("database: the scenario texts of {moved} stored games kept once each, by hash (schema 9)");
    }
    Ok(())
}

/// Rewrites every stored entry whose attack has the third format's fields (`save_v3`), a page
/// of entries at a time, in the migration's transaction: the games replay as before. An entry
/// that reads neither way stops the migration, naming it (nothing is written).
async fn rewrite_attack_options(tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> Result<(), String> {
    let e = |x| db_error("rewriting the stored attacks (schema 8)", x);
    let (mut after, mut rewritten) = ((String::new(), -1i64), 0usize);
    loop {
        let rows = sqlx::query(
            "SELECT game, idx, entry FROM entries WHERE entry LIKE '%\"Attack\"%' \
             AND (game > $1 OR (game = $1 AND idx > $2)) ORDER BY game, idx LIMIT 500",
        )
        .bind(&after.0)
        .bind(after.1)
        .fetch_all(&mut **tx)
        .await
        .map_err(e)?;
        let Some(last) = rows.last() else { break };
        after = (last.get("game"), last.get("idx"));
        for row in &rows {
            let (game, idx, text): (String, i64, String) = (row.get("game"), row.get("idx"), row.get("entry"));
            let new = crate::game::save_v3::migrate_json(&text).map_err(|why| {
                format!("database: game `{game}` entry {idx} reads neither as today's nor as format 3: {why}")
            })?;
            if let Some(new) = new {
                sqlx::query("UPDATE entries SET entry = $1 WHERE game = $2 AND idx = $3")
                    .bind(new)
                    .bind(&game)
                    .bind(idx)
                    .execute(&mut **tx)
                    .await
                    .map_err(e)?;
                rewritten += 1;
            }
        }
    }
    if rewritten > 0 {
        eprintln!("database: {rewritten} stored attacks rewritten to list their options (schema 8)");
    }
    Ok(())
}
