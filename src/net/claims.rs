//! Several server processes on one PostgreSQL: which process carries out a game. Each process
//! holds a session advisory lock per game it keeps in play, on one connection of its own; when
//! it dies the database ends that session and the locks go with it. A process that needs a game
//! another one holds asks it to let go (`NOTIFY hexfront_release`) and takes the lock once free.

use super::store::db_error;
use sqlx::postgres::PgConnection;
use sqlx::{Connection, Row};
use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The channel on which a process asks the holder of a game to let it go (payload: the asking
/// process's origin and the game, a space between).
pub const RELEASE_CHANNEL: &str = "hexfront_release";

/// How long a process waits for a game another process holds before it gives up.
pub const CLAIM_WAIT: Duration = Duration::from_secs(20);

/// This process's claims on games.
pub struct Claims {
    url: String,
    /// The session holding the locks (`None` after it failed: every claim went with it).
    session: tokio::sync::Mutex<Option<PgConnection>>,
    /// The games this process holds.
    held: Mutex<HashSet<String>>,
    /// Claims taken from another process that held the game (after asking it to let go).
    taken_over: AtomicU64,
    /// This process among those sharing the database (random).
    origin: String,
    /// Games taken back whose copy in memory was brought up to date (not rebuilt).
    caught_up: AtomicU64,
}

/// A game's advisory-lock key.
pub fn key(game: &str) -> i64 {
    let hash = blake3::hash(game.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&hash.as_bytes()[..8]);
    i64::from_le_bytes(first)
}

impl Claims {
    /// Opens the session that will hold this process's locks.
    pub async fn connect(url: &str) -> Result<Self, String> {
        let session = PgConnection::connect(url)
            .await
            .map_err(|e| db_error("opening the session that holds the games' locks", e))?;
        Ok(Self {
            url: url.to_string(),
            session: tokio::sync::Mutex::new(Some(session)),
            held: Mutex::new(HashSet::new()),
            taken_over: AtomicU64::new(0),
            caught_up: AtomicU64::new(0),
            origin: crate::game::dice_proof::hex(&super::lobby::random_bytes::<8>()),
        })
    }

    /// (games this process holds now, claims it took from another process since it started,
    /// copies brought up to date on taking a game back).
    pub fn counts(&self) -> (usize, u64, u64) {
        let held = self.held.lock().expect("claims lock").len();
        let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
        (held, load(&self.taken_over), load(&self.caught_up))
    }

    /// Notes a copy brought up to date on taking a game back (for `counts`).
    pub fn note_caught_up(&self) {
        self.caught_up.fetch_add(1, Ordering::Relaxed);
    }

    /// Whether this process holds `game` (it may carry it out).
    pub fn holds(&self, game: &str) -> bool {
        self.held.lock().expect("claims lock").contains(game)
    }

    /// Runs `sql` with `key` on the session (opened again if it failed; the claims held on the
    /// failed one are gone): its one boolean answer, or true for a statement without one.
    async fn ask(&self, sql: &'static str, key: i64) -> Result<bool, String> {
        let mut session = self.session.lock().await;
        if session.is_none() {
            let fresh = PgConnection::connect(&self.url)
                .await
                .map_err(|e| db_error("opening the session that holds the games' locks again", e))?;
            *session = Some(fresh);
        }
        let conn = session.as_mut().expect("a session was just opened");
        match sqlx::query(sql).bind(key).fetch_optional(&mut *conn).await {
            Ok(row) => row
                .map(|r| r.try_get::<bool, _>(0))
                .transpose()
                .map(|answer| answer.unwrap_or(true))
                .map_err(|e| db_error("the games' locks", e)),
            Err(e) => {
                // The session (and every lock on it) is gone, or in doubt: end it for sure.
                *session = None;
                self.held.lock().expect("claims lock").clear();
                Err(db_error("the games' locks", e))
            }
        }
    }

    /// Takes `game` for this process if no other holds it: whether it did.
    pub async fn try_claim(&self, game: &str) -> Result<bool, String> {
        if self.holds(game) {
            return Ok(true);
        }
        let took = self.ask("SELECT pg_try_advisory_lock($1)", key(game)).await?;
        if took {
            self.held.lock().expect("claims lock").insert(game.to_string());
        }
        Ok(took)
    }

    /// Notes a claim taken from another process after asking it (for `counts`).
    pub fn note_taken_over(&self) {
        self.taken_over.fetch_add(1, Ordering::Relaxed);
    }

    /// This process, as its requests name it (its own are not for it).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Asks whichever process holds `game` to let it go (the payload: this process's origin and
    /// the game, a space between).
    pub async fn ask_release(&self, game: &str) -> Result<(), String> {
        let mut session = self.session.lock().await;
        let Some(conn) = session.as_mut() else {
            return Ok(());
        };
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(RELEASE_CHANNEL)
            .bind(format!("{} {game}", self.origin))
            .execute(&mut *conn)
            .await
            .map(|_| ())
            .map_err(|e| db_error("asking another process for a game", e))
    }

    /// Lets `game` go, if this process holds it.
    pub async fn release(&self, game: &str) -> Result<(), String> {
        if !self.held.lock().expect("claims lock").remove(game) {
            return Ok(());
        }
        self.ask("SELECT pg_advisory_unlock($1)", key(game)).await.map(|_| ())
    }
}
