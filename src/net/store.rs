//! The server's database: players (by the hash of their token), games (scenario, secret and
//! commitment, invite code), seats and the order log, one row an entry. SQLite in the data folder
//! by default, PostgreSQL by URL: the same schema and queries (`$N` parameters, which both read).

mod chat;
mod lists;
mod schema;
mod texts;
mod waits;

use super::protocol::{ObserverDelay, TurnTime};
pub use lists::Listing;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};
use std::sync::Arc;
pub use texts::{Upload, text_hash};
pub use waits::{Lapse, Notice};

/// One of a player's games, as their list shows it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GameListed {
    pub game: String,
    pub scenario: String,
    pub ended: bool,
    /// When it was made (milliseconds since 1970).
    pub created: i64,
    /// Hash-chained dice: the player holding the chain must be connected when an order rolls.
    pub chained: bool,
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: String,
    /// The shipped scenario's file name without `.ron`, or the uploaded scenario's.
    pub scenario: String,
    /// Its text when the game was made (a later release may change the file); stored once
    /// however many games use it.
    pub scenario_text: String,
    /// The text of the user ruleset an uploaded scenario names (none for a built-in ruleset).
    pub ruleset_text: Option<String>,
    pub edition: u32,
    /// The server's secret (hex): never sent before the game ends.
    pub secret: String,
    pub commitment: String,
    pub invite: Option<String>,
    /// Listed as open to anyone.
    pub listed: bool,
    pub ended: bool,
    pub observer_delay: ObserverDelay,
    pub turn_time: Option<TurnTime>,
    /// The side the game waits for (id) and since when (milliseconds since 1970), once known.
    pub waiting: Option<(String, i64)>,
    /// Hash-chained dice: each order that rolls mixes a link of the joining player's chain.
    pub chained: bool,
}

impl GameRow {
    /// The scenario the game was made from (its text as stored, not today's shipped file).
    pub fn scenario(&self) -> Result<crate::scenario::Scenario, String> {
        super::user_scenarios::scenario_of(&self.scenario, &self.scenario_text, self.ruleset_text.as_deref())
            .map_err(|e| format!("game `{}`: its scenario no longer loads: {e}", self.id))
    }
}

/// A seat as stored: who holds it and their contribution to the dice.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatRow {
    pub side: usize,
    pub player: Option<String>,
    /// The level of the server's computer player holding it.
    pub computer: Option<String>,
    pub contribution: Option<String>,
    /// The end of this seat's hash chain (a game with hash-chained dice).
    pub chain_end: Option<String>,
}

impl SeatRow {
    pub fn taken(&self) -> bool {
        self.player.is_some() || self.computer.is_some()
    }
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    /// A PostgreSQL database (several server processes may share it), not a SQLite file.
    postgres: bool,
    /// SQLite's checkpoints, made apart from the commits.
    _checkpointer: Option<Arc<Checkpointer>>,
}

/// The advisory-lock key of the schema's migrations, on PostgreSQL (a game's claim is keyed by a
/// hash of its id: sharing this one would only make that game wait for a migration).
const MIGRATION_KEY: i64 = 0x6865_7866_726f_6e74; // "hexfront"

pub(super) fn db_error(what: &str, e: sqlx::Error) -> String {
    format!("database: {what}: {e}")
}

impl Store {
    /// Opens (creating, for SQLite) the database at `url` and brings its schema up to date. A
    /// SQLite URL may end in `synchronous=normal` (or `full`, the default): see `docs/online.md`.
    pub async fn open(url: &str) -> Result<Self, String> {
        install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let (url, synchronous) = if sqlite {
            sqlite_synchronous(url)?
        } else {
            (url.to_string(), None)
        };
        let pool = AnyPoolOptions::new()
            // One writer at a time is what SQLite allows; PostgreSQL takes several.
            .max_connections(if sqlite { 1 } else { 8 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if let Some(mode) = synchronous {
                        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("PRAGMA synchronous={mode}")))
                            .execute(&mut *conn)
                            .await?;
                    }
                    if sqlite {
                        // Checkpoints are made by `checkpoints`, not by the commit that fills
                        // the log (it would wait for the disk with every order behind it).
                        sqlx::raw_sql("PRAGMA wal_autocheckpoint=0").execute(&mut *conn).await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .map_err(|e| db_error(&format!("cannot open {url}"), e))?;
        if sqlite {
            // Write-ahead logging: a commit is one append and one fsync of the log (synchronous
            // stays FULL: an acknowledged order survives a power cut), readers never block it.
            sqlx::query("PRAGMA journal_mode=WAL")
                .execute(&pool)
                .await
                .map_err(|e| db_error("turning on write-ahead logging", e))?;
        }
        let checkpointer = sqlite.then(|| Arc::new(Checkpointer(tokio::spawn(checkpoints(url.clone())))));
        let store = Self {
            pool,
            postgres: !sqlite,
            _checkpointer: checkpointer,
        };
        if let Err(why) = store.migrate().await {
            store.pool.close().await;
            return Err(why);
        }
        Ok(store)
    }

    /// The database URL for a SQLite file (made if missing).
    pub fn sqlite_url(path: &std::path::Path) -> String {
        format!("sqlite://{}?mode=rwc", path.display())
    }

    async fn migrate(&self) -> Result<(), String> {
        let e = |x| db_error("migrating the schema", x);
        let mut conn = self.pool.acquire().await.map_err(e)?;
        if self.postgres {
            // Several processes starting at once: one migrates, the others wait and find it done.
            sqlx::query("SELECT pg_advisory_lock($1)")
                .bind(MIGRATION_KEY)
                .execute(&mut *conn)
                .await
                .map_err(e)?;
        }
        let migrated = schema::migrate_on(&mut conn).await;
        if self.postgres {
            sqlx::query("SELECT pg_advisory_unlock($1)")
                .bind(MIGRATION_KEY)
                .execute(&mut *conn)
                .await
                .map_err(e)?;
        }
        migrated
    }

    /// Whether the database is PostgreSQL (several server processes may share it).
    pub fn is_postgres(&self) -> bool {
        self.postgres
    }

    /// Sends `payload` to every process listening on `channel` (PostgreSQL's `NOTIFY`).
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<(), String> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(channel)
            .bind(payload)
            .execute(&self.pool)
            .await
            .map(|_| ())
            .map_err(|e| db_error("notifying the other server processes", e))
    }

    pub async fn add_player(&self, id: &str, token_hash: &str, name: &str) -> Result<(), String> {
        sqlx::query("INSERT INTO players (id, token_hash, name) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(token_hash)
            .bind(name)
            .execute(&self.pool)
            .await
            .map(|_| ())
            .map_err(|e| db_error("adding a player", e))
    }

    /// The player (id, name) whose token hashes to `token_hash`.
    pub async fn player_by_token(&self, token_hash: &str) -> Result<Option<(String, String)>, String> {
        let row = sqlx::query("SELECT id, name FROM players WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| db_error("finding a player", e))?;
        Ok(row.map(|r| (r.get::<String, _>("id"), r.get::<String, _>("name"))))
    }

    pub async fn player_name(&self, id: &str) -> Result<Option<String>, String> {
        let row = sqlx::query("SELECT name FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| db_error("finding a player", e))?;
        Ok(row.map(|r| r.get::<String, _>("name")))
    }

    /// Stores a new game with its seats (the creator's taken, the other as given).
    pub async fn add_game(&self, game: &GameRow, seats: &[SeatRow]) -> Result<(), String> {
        let e = |x| db_error("adding a game", x);
        let mut tx = self.pool.begin().await.map_err(e)?;
        let scenario_hash = texts::put_text(&mut tx, &game.scenario_text).await?;
        let ruleset_hash = match &game.ruleset_text {
            Some(text) => Some(texts::put_text(&mut tx, text).await?),
            None => None,
        };
        sqlx::query(
            "INSERT INTO games (id, scenario, scenario_hash, edition, secret, commitment, invite, listed, ended, created, \
             observer_delay, turn_seconds, turn_concede, chained, ruleset_hash) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $10, $11, $12, $13, $14)",
        )
        .bind(&game.id)
        .bind(&game.scenario)
        .bind(scenario_hash)
        .bind(i64::from(game.edition))
        .bind(&game.secret)
        .bind(&game.commitment)
        .bind(game.invite.clone())
        .bind(i64::from(game.listed))
        .bind(now())
        .bind(serde_json::to_string(&game.observer_delay).map_err(|x| x.to_string())?)
        .bind(game.turn_time.map(|t| i64::from(t.seconds)))
        .bind(game.turn_time.map_or(0, |t| i64::from(t.concede)))
        .bind(i64::from(game.chained))
        .bind(ruleset_hash)
        .execute(&mut *tx)
        .await
        .map_err(e)?;
        for s in seats {
            sqlx::query("INSERT INTO seats (game, side, player, computer, contribution) VALUES ($1, $2, $3, $4, $5)")
                .bind(&game.id)
                .bind(s.side as i64)
                .bind(s.player.clone())
                .bind(s.computer.clone())
                .bind(s.contribution.clone())
                .execute(&mut *tx)
                .await
                .map_err(e)?;
        }
        tx.commit().await.map_err(e)
    }

    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, String> {
        let row = sqlx::query(
            "SELECT g.id, g.scenario, t.text AS scenario_text, r.text AS ruleset_text, g.edition, g.secret, g.commitment, \
             g.invite, g.listed, g.ended, g.observer_delay, g.turn_seconds, g.turn_concede, g.waiting_side, \
             g.waiting_since, g.chained FROM games g JOIN scenario_texts t ON t.hash = g.scenario_hash \
             LEFT JOIN scenario_texts r ON r.hash = g.ruleset_hash WHERE g.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| db_error("reading a game", e))?;
        Ok(row.map(|r| GameRow {
            id: r.get("id"),
            scenario: r.get("scenario"),
            scenario_text: r.get("scenario_text"),
            ruleset_text: r.get("ruleset_text"),
            edition: r.get::<i64, _>("edition") as u32,
            secret: r.get("secret"),
            commitment: r.get("commitment"),
            invite: r.get("invite"),
            listed: r.get::<i64, _>("listed") != 0,
            ended: r.get::<i64, _>("ended") != 0,
            observer_delay: r
                .get::<Option<String>, _>("observer_delay")
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or_default(),
            turn_time: turn_time(r.get("turn_seconds"), r.get("turn_concede")),
            waiting: r
                .get::<Option<String>, _>("waiting_side")
                .zip(r.get::<Option<i64>, _>("waiting_since")),
            chained: r.get::<i64, _>("chained") != 0,
        }))
    }

    pub async fn seats(&self, game: &str) -> Result<Vec<SeatRow>, String> {
        let rows = sqlx::query(
            "SELECT side, player, computer, contribution, chain_end FROM seats WHERE game = $1 ORDER BY side",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| db_error("reading seats", e))?;
        Ok(rows
            .into_iter()
            .map(|r| SeatRow {
                side: r.get::<i64, _>("side") as usize,
                player: r.get("player"),
                computer: r.get("computer"),
                contribution: r.get("contribution"),
                chain_end: r.get("chain_end"),
            })
            .collect())
    }

    /// Takes a free seat (with the player's contribution and, for hash-chained dice, chain
    /// end): false when somebody took it first.
    pub async fn take_seat(
        &self,
        game: &str,
        side: usize,
        player: &str,
        (contribution, chain_end): (&str, Option<&str>),
    ) -> Result<bool, String> {
        let done = sqlx::query(
            "UPDATE seats SET player = $1, contribution = $2, chain_end = $5 \
             WHERE game = $3 AND side = $4 AND player IS NULL AND computer IS NULL",
        )
        .bind(player)
        .bind(contribution)
        .bind(game)
        .bind(side as i64)
        .bind(chain_end)
        .execute(&self.pool)
        .await
        .map_err(|e| db_error("taking a seat", e))?;
        Ok(done.rows_affected() == 1)
    }

    /// Commits entry `index` of a game's log (as JSON), made at `at` (milliseconds since 1970).
    /// Fails if that entry exists: an order is never recorded twice.
    pub async fn append_entry(&self, game: &str, index: usize, entry: &str, at: i64) -> Result<(), String> {
        sqlx::query("INSERT INTO entries (game, idx, entry, at) VALUES ($1, $2, $3, $4)")
            .bind(game)
            .bind(index as i64)
            .bind(entry)
            .bind(at)
            .execute(&self.pool)
            .await
            .map(|_| ())
            .map_err(|e| db_error(&format!("recording entry {index} of game {game}"), e))
    }

    /// Takes back entry `index`, the last of a game's log (an undo), made at `at`: an entry
    /// another process wrote at that index since is not this one, and stays.
    pub async fn remove_last_entry(&self, game: &str, index: usize, at: i64) -> Result<(), String> {
        let done = sqlx::query(
            "DELETE FROM entries WHERE game = $1 AND idx = $2 AND at = $3 \
             AND NOT EXISTS (SELECT 1 FROM entries later WHERE later.game = $1 AND later.idx > $2)",
        )
        .bind(game)
        .bind(index as i64)
        .bind(at)
        .execute(&self.pool)
        .await
        .map_err(|e| db_error(&format!("taking back entry {index} of game {game}"), e))?;
        if done.rows_affected() != 1 {
            return Err(format!("entry {index} of game {game} is not the last"));
        }
        Ok(())
    }

    /// A game's log, oldest first: when each entry was made, and its text (JSON) from entry
    /// `from` on (empty before: a copy held in memory needs only the entries it lacks).
    pub async fn entries_from(&self, game: &str, from: usize) -> Result<Vec<(i64, String)>, String> {
        let rows = sqlx::query(
            "SELECT at, CASE WHEN idx >= $2 THEN entry ELSE '' END AS entry FROM entries WHERE game = $1 ORDER BY idx",
        )
        .bind(game)
        .bind(from as i64)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| db_error("reading a game's log", e))?;
        Ok(rows.into_iter().map(|r| (r.get("at"), r.get("entry"))).collect())
    }

    pub async fn set_ended(&self, game: &str) -> Result<(), String> {
        sqlx::query("UPDATE games SET ended = 1 WHERE id = $1")
            .bind(game)
            .execute(&self.pool)
            .await
            .map(|_| ())
            .map_err(|e| db_error("ending a game", e))
    }

    /// Games anyone may join (listed, a seat free, not ended), newest first, at most `limit`.
    /// The newest `limit` games in which `player` holds a seat.
    pub async fn player_games(&self, player: &str, limit: usize) -> Result<Vec<GameListed>, String> {
        let rows = sqlx::query(
            "SELECT g.id, g.scenario, g.ended, g.created, g.chained FROM games g JOIN seats s ON s.game = g.id \
             WHERE s.player = $1 ORDER BY g.created DESC LIMIT $2",
        )
        .bind(player)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| db_error("listing a player's games", e))?;
        Ok(rows
            .into_iter()
            .map(|r| GameListed {
                game: r.get("id"),
                scenario: r.get("scenario"),
                ended: r.get::<i64, _>("ended") != 0,
                created: r.get("created"),
                chained: r.get::<i64, _>("chained") != 0,
            })
            .collect())
    }

    pub async fn open_games(&self, limit: usize) -> Result<Vec<String>, String> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE listed = 1 AND ended = 0 AND EXISTS \
             (SELECT 1 FROM seats WHERE seats.game = games.id AND player IS NULL AND computer IS NULL) \
             ORDER BY created DESC LIMIT $1",
        )
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| db_error("listing games", e))?;
        Ok(rows.into_iter().map(|r| r.get::<String, _>("id")).collect())
    }
}

/// The SQLite checkpoints' task, ended when the last copy of the store goes.
#[derive(Debug)]
struct Checkpointer(tokio::task::JoinHandle<()>);

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Copies the write-ahead log into the SQLite database every second, on a connection of its
/// own: a passive checkpoint waits for no writer and no writer waits for it (nor for its
/// fsync). The log stays about as large as a second of commits.
async fn checkpoints(url: String) {
    use sqlx::Connection;
    let Ok(mut conn) = sqlx::AnyConnection::connect(&url).await else {
        eprintln!("database: no connection for checkpoints; the write-ahead log grows until restart");
        return;
    };
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
    loop {
        tick.tick().await;
        if let Err(e) = sqlx::raw_sql("PRAGMA wal_checkpoint(PASSIVE)").execute(&mut conn).await {
            eprintln!("database: a checkpoint failed: {e}");
        }
    }
}

/// A SQLite URL without its `synchronous=` parameter, and that parameter (checked).
fn sqlite_synchronous(url: &str) -> Result<(String, Option<&'static str>), String> {
    let Some((base, query)) = url.split_once('?') else {
        return Ok((url.to_string(), None));
    };
    let mut kept = Vec::new();
    let mut mode = None;
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some(("synchronous", value)) => {
                mode = Some(match value.to_ascii_lowercase().as_str() {
                    "full" => "FULL",
                    "normal" => "NORMAL",
                    other => return Err(format!("--db: synchronous={other}: use full or normal")),
                })
            }
            _ => kept.push(pair),
        }
    }
    let url = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    Ok((url, mode))
}

/// A game's time per turn from its columns.
fn turn_time(seconds: Option<i64>, concede: i64) -> Option<TurnTime> {
    Some(TurnTime {
        seconds: u32::try_from(seconds?).ok()?,
        concede: concede != 0,
    })
}

/// Milliseconds since 1970.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sqlite_urls_synchronous_is_taken_out_and_checked() {
        let (url, mode) = sqlite_synchronous("sqlite:///srv/h.db?mode=rwc&synchronous=normal").unwrap();
        assert_eq!((url.as_str(), mode), ("sqlite:///srv/h.db?mode=rwc", Some("NORMAL")));
        let (url, mode) = sqlite_synchronous("sqlite:///srv/h.db?mode=rwc").unwrap();
        assert_eq!((url.as_str(), mode), ("sqlite:///srv/h.db?mode=rwc", None));
        assert!(
            sqlite_synchronous("sqlite://h.db?synchronous=off")
                .unwrap_err()
                .contains("full or normal")
        );
    }
}
