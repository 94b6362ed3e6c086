//! The database's lists for a client's start screen: a player's games with their opponent and
//! whom they wait for, the open games to join and the live games to watch.

use super::{Store, db_error};
use crate::net::protocol::{ListedGame, MyGame};
use sqlx::Row;

/// Which games `listed_games` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Open to anyone, with a free seat.
    Open,
    /// Under way between two seats, not by invite (an invite-only game is watched by its id).
    Live,
}

/// Who sits in a seat, in words.
fn seat_words(name: Option<String>, computer: Option<String>) -> Option<String> {
    name.or_else(|| computer.map(|level| format!("computer ({level})")))
}

impl Store {
    /// The newest `limit` games of `player`, each with its opponent's player id (to tell whether
    /// they are connected).
    pub async fn my_game_list(&self, player: &str, limit: usize) -> Result<Vec<(MyGame, Option<String>)>, String> {
        let rows = sqlx::query(
            "SELECT g.id, g.scenario, g.ended, g.created, g.invite, g.waiting_side, g.waiting_since, \
             g.waiting_player, s.side AS seat, o.player AS opponent, o.computer AS computer, p.name AS opponent_name, \
             (SELECT COUNT(*) FROM entries e WHERE e.game = g.id) AS entries \
             FROM seats s JOIN games g ON g.id = s.game \
             LEFT JOIN seats o ON o.game = g.id AND o.side <> s.side \
             LEFT JOIN players p ON p.id = o.player \
             WHERE s.player = $1 ORDER BY g.created DESC LIMIT $2",
        )
        .bind(player)
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| db_error("listing a player's games", e))?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let opponent_id: Option<String> = r.get("opponent");
                let opponent = seat_words(r.get("opponent_name"), r.get("computer"));
                let free = opponent.is_none();
                let game = MyGame {
                    game: r.get("id"),
                    scenario: r.get("scenario"),
                    seat: r.get::<i64, _>("seat") as usize,
                    opponent,
                    opponent_online: false,
                    invite: r.get::<Option<String>, _>("invite").filter(|_| free),
                    waiting_side: r.get("waiting_side"),
                    waiting_since: r.get("waiting_since"),
                    your_turn: r.get::<Option<String>, _>("waiting_player").as_deref() == Some(player),
                    entries: r.get::<i64, _>("entries") as usize,
                    ended: r.get::<i64, _>("ended") != 0,
                    created: r.get("created"),
                };
                (game, opponent_id)
            })
            .collect())
    }

    /// The newest `limit` games of a listing, with who sits where.
    pub async fn listed_games(&self, listing: Listing, limit: usize) -> Result<Vec<ListedGame>, String> {
        let which = match listing {
            Listing::Open => {
                "listed = 1 AND ended = 0 AND EXISTS (SELECT 1 FROM seats f WHERE f.game = games.id \
                 AND f.player IS NULL AND f.computer IS NULL)"
            }
            Listing::Live => {
                "ended = 0 AND invite IS NULL AND NOT EXISTS (SELECT 1 FROM seats f WHERE f.game = games.id \
                 AND f.player IS NULL AND f.computer IS NULL)"
            }
        };
        let query = format!(
            "SELECT g.id, g.scenario, g.created, s.side, p.name, s.computer, \
             (SELECT COUNT(*) FROM entries e WHERE e.game = g.id) AS entries \
             FROM games g JOIN seats s ON s.game = g.id LEFT JOIN players p ON p.id = s.player \
             WHERE g.id IN (SELECT id FROM games WHERE {which} ORDER BY created DESC LIMIT $1) \
             ORDER BY g.created DESC, g.id, s.side"
        );
        // `which` is one of the two fixed conditions above.
        let rows = sqlx::query(sqlx::AssertSqlSafe(query))
            .bind(limit as i64)
            .fetch_all(&self.pool)
            .await
            .map_err(|e| db_error("listing games", e))?;
        let mut out: Vec<ListedGame> = Vec::new();
        for r in rows {
            let id: String = r.get("id");
            if out.last().is_none_or(|g| g.game != id) {
                out.push(ListedGame {
                    game: id,
                    scenario: r.get("scenario"),
                    seats: Vec::new(),
                    entries: r.get::<i64, _>("entries") as usize,
                    created: r.get("created"),
                });
            }
            let seat = seat_words(r.get("name"), r.get("computer"));
            out.last_mut().expect("pushed above").seats.push(seat);
        }
        Ok(out)
    }
}
