//! The database's part in waiting: whom each game waits for and since when, the times per turn
//! that lapsed, players' webhooks and the "your turn" notices due.

use super::{Store, db_error, turn_time};
use crate::net::protocol::TurnTime;
use sqlx::Row;

/// A game that waits for a player with a webhook, not noticed of this wait yet.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub game: String,
    pub scenario: String,
    /// The side waited for (id), its player, their webhook, and since when.
    pub side: String,
    pub player: String,
    pub webhook: String,
    pub since: i64,
}

/// A game whose side to act has let its time per turn lapse, not told yet.
#[derive(Clone, Debug, PartialEq)]
pub struct Lapse {
    pub game: String,
    /// The side waited for (id) and since when (milliseconds since 1970).
    pub side: String,
    pub since: i64,
    pub turn_time: TurnTime,
}

impl Store {
    /// Notes that the game waits for `side` (an id), held by `player` (`None`: the computer),
    /// since `since`.
    pub async fn set_waiting(&self, game: &str, side: &str, player: Option<&str>, since: i64) -> Result<(), String> {
        sqlx::query("UPDATE games SET waiting_side = $1, waiting_since = $2, waiting_player = $3 WHERE id = $4")
            .bind(side)
            .bind(since)
            .bind(player)
            .bind(game)
            .execute(&self.pool)
            .await
            .map(|_| ())
            .map_err(|e| db_error("noting whom a game waits for", e))
    }

    /// What of a game's row changes in play: whether it ended, and whom it waits for since
    /// when (`None`: no such game). A copy brought up to date reads this, not the texts.
    pub async fn game_progress(&self, game: &str) -> Result<Option<(bool, Option<(String, i64)>)>, String> {
        let row = sqlx::query("SELECT ended, waiting_side, waiting_since FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await
            .map_err(|e| db_error("reading a game's progress", e))?;
        Ok(row.map(|r| {
            let waiting = r
                .get::<Option<String>, _>("waiting_side")
                .zip(r.get::<Option<i64>, _>("waiting_since"));
            (r.get::<i64, _>("ended") != 0, waiting)
        }))
    }

    /// Games in play whose time per turn has lapsed at `now` and whose players were not told of
    /// this wait yet.
    pub async fn lapsed(&self, now: i64) -> Result<Vec<Lapse>, String> {
        let rows = sqlx::query(
            "SELECT id, waiting_side, waiting_since, turn_seconds, turn_concede FROM games \
             WHERE ended = 0 AND turn_seconds IS NOT NULL AND waiting_side IS NOT NULL \
             AND waiting_since + turn_seconds * 1000 <= $1 AND (lapse_told IS NULL OR lapse_told <> waiting_since)",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| db_error("looking for lapsed turns", e))?;
        Ok(rows
            .into_iter()
            .filter_map(|r| {
                Some(Lapse {
                    game: r.get("id"),
                    side: r.get("waiting_side"),
                    since: r.get("waiting_since"),
                    turn_time: turn_time(r.get("turn_seconds"), r.get("turn_concede"))?,
                })
            })
            .collect())
    }

    /// Sets (or with `None` clears) a player's webhook URL.
    pub async fn set_webhook(&self, player: &str, url: Option<&str>) -> Result<(), String> {
        sqlx::query("UPDATE players SET webhook = $1 WHERE id = $2")
            .bind(url)
            .bind(player)
            .execute(&self.pool)
            .await
            .map(|_| ())
            .map_err(|e| db_error("setting a webhook", e))
    }

    /// Games in play that wait for a player with a webhook, not noticed of this wait, whose last
    /// notice is `gap` milliseconds old at `now`, and who no server process has seen connected
    /// since `seen_since`.
    pub async fn due_notices(&self, now: i64, gap: i64, seen_since: i64) -> Result<Vec<Notice>, String> {
        let rows = sqlx::query(
            "SELECT g.id, g.scenario, g.waiting_side, g.waiting_player, g.waiting_since, p.webhook \
             FROM games g JOIN players p ON p.id = g.waiting_player \
             WHERE g.ended = 0 AND p.webhook IS NOT NULL AND g.waiting_since IS NOT NULL \
             AND (g.noticed_since IS NULL OR g.noticed_since <> g.waiting_since) \
             AND (g.noticed_at IS NULL OR g.noticed_at + $2 <= $1) AND (p.seen_at IS NULL OR p.seen_at < $3)",
        )
        .bind(now)
        .bind(gap)
        .bind(seen_since)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| db_error("looking for your-turn notices", e))?;
        Ok(rows
            .into_iter()
            .map(|r| Notice {
                game: r.get("id"),
                scenario: r.get("scenario"),
                side: r.get("waiting_side"),
                player: r.get("waiting_player"),
                webhook: r.get("webhook"),
                since: r.get("waiting_since"),
            })
            .collect())
    }

    /// Notes that `players` are connected (to this process) at `at`, so that no process sends
    /// them a notice.
    pub async fn mark_seen(&self, players: &[String], at: i64) -> Result<(), String> {
        for chunk in players.chunks(500) {
            let marks = (2..chunk.len() + 2)
                .map(|i| format!("${i}"))
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!("UPDATE players SET seen_at = $1 WHERE id IN ({marks})");
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(at);
            for id in chunk {
                query = query.bind(id);
            }
            query
                .execute(&self.pool)
                .await
                .map_err(|e| db_error("noting who is connected", e))?;
        }
        Ok(())
    }

    /// Marks a game noticed of the wait since `since` at `now`: false when it was already, or
    /// its last notice is younger than `gap` (another server sent it).
    pub async fn set_noticed(&self, game: &str, since: i64, now: i64, gap: i64) -> Result<bool, String> {
        let done = sqlx::query(
            "UPDATE games SET noticed_since = $1, noticed_at = $2 WHERE id = $3 \
             AND (noticed_since IS NULL OR noticed_since <> $1) AND (noticed_at IS NULL OR noticed_at + $4 <= $2)",
        )
        .bind(since)
        .bind(now)
        .bind(game)
        .bind(gap)
        .execute(&self.pool)
        .await
        .map_err(|e| db_error("noting a your-turn notice", e))?;
        Ok(done.rows_affected() == 1)
    }

    /// Marks the wait since `since` as told: false when it was already (by another server).
    pub async fn set_lapse_told(&self, game: &str, since: i64) -> Result<bool, String> {
        let done =
            sqlx::query("UPDATE games SET lapse_told = $1 WHERE id = $2 AND (lapse_told IS NULL OR lapse_told <> $1)")
                .bind(since)
                .bind(game)
                .execute(&self.pool)
                .await
                .map_err(|e| db_error("noting a lapsed turn", e))?;
        Ok(done.rows_affected() == 1)
    }
}
