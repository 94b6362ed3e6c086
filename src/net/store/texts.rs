//! Scenario and ruleset texts, each kept once by its BLAKE3 hash however many games use it, and
//! the scenarios players uploaded (which text, which ruleset text, who, when).

use super::{Store, db_error, now};
use crate::game::dice_proof::hex;
use sqlx::Row;

/// A text's key in `scenario_texts`: its BLAKE3 hash in hex.
pub fn text_hash(text: &str) -> String {
    hex(blake3::hash(text.as_bytes()).as_bytes())
}

/// Stores `text` unless a copy is there already: its hash.
pub(super) async fn put_text(conn: &mut sqlx::AnyConnection, text: &str) -> Result<String, String> {
    let hash = text_hash(text);
    sqlx::query("INSERT INTO scenario_texts (hash, text) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING")
        .bind(&hash)
        .bind(text)
        .execute(conn)
        .await
        .map_err(|e| db_error("storing a scenario's text", e))?;
    Ok(hash)
}

/// A scenario a player uploaded, with its user ruleset when it names one.
#[derive(Clone, Debug, PartialEq)]
pub struct Upload {
    pub id: String,
    /// The file name it was uploaded as (`my-battle.ron`): errors and the game list name it.
    pub file: String,
    pub scenario_text: String,
    pub ruleset_text: Option<String>,
}

impl Upload {
    /// The id an upload of these texts gets: the same texts, the same id.
    pub fn id_of(scenario_text: &str, ruleset_text: Option<&str>) -> String {
        let key = format!(
            "{}:{}",
            text_hash(scenario_text),
            ruleset_text.map(text_hash).unwrap_or_default()
        );
        format!("u-{}", &text_hash(&key)[..32])
    }
}

impl Store {
    /// Stores an upload by `player` (its texts once each); an identical upload is kept as it was.
    pub async fn add_upload(&self, upload: &Upload, player: &str) -> Result<(), String> {
        let e = |x| db_error("storing an uploaded scenario", x);
        let mut tx = self.pool.begin().await.map_err(e)?;
        let scenario_hash = put_text(&mut tx, &upload.scenario_text).await?;
        let ruleset_hash = match &upload.ruleset_text {
            Some(text) => Some(put_text(&mut tx, text).await?),
            None => None,
        };
        sqlx::query(
            "INSERT INTO uploads (id, file, scenario_hash, ruleset_hash, player, at) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(&upload.id)
        .bind(&upload.file)
        .bind(scenario_hash)
        .bind(ruleset_hash)
        .bind(player)
        .bind(now())
        .execute(&mut *tx)
        .await
        .map_err(e)?;
        tx.commit().await.map_err(e)
    }

    /// The upload `id`, if there is one.
    pub async fn upload(&self, id: &str) -> Result<Option<Upload>, String> {
        let row = sqlx::query(
            "SELECT u.id, u.file, t.text AS scenario_text, r.text AS ruleset_text FROM uploads u \
             JOIN scenario_texts t ON t.hash = u.scenario_hash LEFT JOIN scenario_texts r ON r.hash = u.ruleset_hash \
             WHERE u.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| db_error("reading an uploaded scenario", e))?;
        Ok(row.map(|r| Upload {
            id: r.get("id"),
            file: r.get("file"),
            scenario_text: r.get("scenario_text"),
            ruleset_text: r.get("ruleset_text"),
        }))
    }

    /// How many uploads `player` keeps.
    pub async fn uploads_of(&self, player: &str) -> Result<i64, String> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM uploads WHERE player = $1")
            .bind(player)
            .fetch_one(&self.pool)
            .await
            .map_err(|e| db_error("counting a player's uploads", e))?;
        Ok(row.get("n"))
    }

    /// How many distinct texts the database keeps (the operator's status, the tests).
    pub async fn text_count(&self) -> Result<i64, String> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM scenario_texts")
            .fetch_one(&self.pool)
            .await
            .map_err(|e| db_error("counting the stored texts", e))?;
        Ok(row.get("n"))
    }
}
