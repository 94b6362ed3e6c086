//! The games' chat in the database: lines kept by room, the last ones read back.

use super::{Store, db_error};
use sqlx::Row;

impl Store {
    /// Keeps a chat line (`at`: milliseconds since 1970).
    pub async fn add_chat(&self, game: &str, room: &str, sender: &str, text: &str, at: i64) -> Result<(), String> {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).map_err(|e| format!("no random bytes from the operating system: {e}"))?;
        let id = format!("c-{}", crate::game::dice_proof::hex(&bytes));
        sqlx::query("INSERT INTO chat (id, game, room, sender, text, at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(id)
            .bind(game)
            .bind(room)
            .bind(sender)
            .bind(text)
            .bind(at)
            .execute(&self.pool)
            .await
            .map(|_| ())
            .map_err(|e| db_error("keeping a chat line", e))
    }

    /// The last `limit` lines of a game's chat room, oldest first: (sender, text, at).
    pub async fn recent_chat(
        &self,
        game: &str,
        room: &str,
        limit: usize,
    ) -> Result<Vec<(String, String, i64)>, String> {
        let rows =
            sqlx::query("SELECT sender, text, at FROM chat WHERE game = $1 AND room = $2 ORDER BY at DESC LIMIT $3")
                .bind(game)
                .bind(room)
                .bind(limit as i64)
                .fetch_all(&self.pool)
                .await
                .map_err(|e| db_error("reading the chat", e))?;
        let mut lines: Vec<_> = rows
            .into_iter()
            .map(|r| {
                (
                    r.get::<String, _>("sender"),
                    r.get::<String, _>("text"),
                    r.get::<i64, _>("at"),
                )
            })
            .collect();
        lines.reverse();
        Ok(lines)
    }
}
