//! Several server processes on one PostgreSQL: each event a process publishes for a game (an
//! entry, an undo, a chat line, a lapse) reaches the connections the other processes hold
//! through `NOTIFY hexfront_events`, and a process asked for a game it holds lets it go
//! (`claims`).

use super::claims::RELEASE_CHANNEL;
use super::hub::{Event, Hub};
use super::live::{Job, Workers};
use super::store::Store;
use sqlx::postgres::PgListener;
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedReceiver;

/// The channel on which processes pass on their games' events.
pub const EVENTS_CHANNEL: &str = "hexfront_events";

/// PostgreSQL's limit on a notification's payload is 8000 bytes: an event over this is passed
/// on as `Event::Behind` (the followers read the log instead).
const MAX_PAYLOAD: usize = 7_900;

/// An event as passed between processes.
#[derive(serde::Serialize, serde::Deserialize)]
struct Relayed {
    /// The process that published it (it told its own followers already).
    origin: String,
    game: String,
    event: Event,
}

/// The payload passing `event` on, or `Event::Behind` when the event is too large.
fn payload(origin: &str, game: &str, event: &Event) -> Result<String, String> {
    let passed = |event: Event| Relayed {
        origin: origin.to_string(),
        game: game.to_string(),
        event,
    };
    let whole = serde_json::to_string(&passed(event.clone())).map_err(|e| e.to_string())?;
    if whole.len() <= MAX_PAYLOAD {
        return Ok(whole);
    }
    serde_json::to_string(&passed(Event::Behind)).map_err(|e| e.to_string())
}

/// Starts passing this process's events on (from `relayed`, one after another so they arrive
/// in order) and listening for the other processes' events and requests for games.
pub async fn start(
    url: &str,
    origin: String,
    store: Store,
    hub: Hub,
    workers: Workers,
    relayed: UnboundedReceiver<(String, Arc<Event>)>,
    closing: tokio::sync::watch::Receiver<bool>,
) -> Result<(), String> {
    let mut listener = PgListener::connect(url)
        .await
        .map_err(|e| format!("database: listening for the other server processes: {e}"))?;
    listener
        .listen_all([EVENTS_CHANNEL, RELEASE_CHANNEL])
        .await
        .map_err(|e| format!("database: listening for the other server processes: {e}"))?;
    tokio::spawn(pass_on(origin.clone(), store, relayed));
    tokio::spawn(listen(origin, listener, hub, workers, closing));
    Ok(())
}

async fn pass_on(origin: String, store: Store, mut relayed: UnboundedReceiver<(String, Arc<Event>)>) {
    while let Some((game, event)) = relayed.recv().await {
        let sent = match payload(&origin, &game, &event) {
            Ok(text) => store.notify(EVENTS_CHANNEL, &text).await,
            Err(e) => Err(e),
        };
        if let Err(e) = sent {
            eprintln!("game `{game}`: an event did not reach the other server processes: {e}");
        }
    }
}

async fn listen(
    origin: String,
    mut listener: PgListener,
    hub: Hub,
    workers: Workers,
    mut closing: tokio::sync::watch::Receiver<bool>,
) {
    let own = format!("{{\"origin\":{}", serde_json::to_string(&origin).unwrap_or_default());
    loop {
        let note = tokio::select! {
            note = listener.recv() => note,
            _ = closing.changed() => return,
        };
        match note {
            Ok(note) if note.channel() == RELEASE_CHANNEL => {
                // "ORIGIN GAME": a request of this process's own is not for it.
                match note.payload().split_once(' ') {
                    Some((from, game)) if from != origin => {
                        workers.send(game, Job::Release { game: game.to_string() });
                    }
                    _ => {}
                }
            }
            // This process's own events come back too: told already, skipped unread.
            Ok(note) if note.payload().starts_with(&own) => {}
            Ok(note) => match serde_json::from_str::<Relayed>(note.payload()) {
                Ok(passed) if passed.origin != origin => hub.publish_here(&passed.game, Arc::new(passed.event)),
                Ok(_) => {}
                Err(e) => eprintln!("an event from another server process does not read: {e}"),
            },
            Err(e) => {
                // The listener connects again on the next call; what was sent meanwhile is lost:
                // every game followed here reads its log again.
                eprintln!("database: listening for the other server processes: {e}");
                hub.everyone_behind();
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
        }
    }
}
