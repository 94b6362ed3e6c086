//! Time per turn: a task that looks every tick for games whose side to act has let its time
//! lapse, tells the game's followers (once a wait, even with several servers on one database),
//! and concedes for that side when the game was made so; and sends the "your turn" notices due
//! (`notice`), noting first who is connected here (several processes may share the database).

use super::hub::Event;
use super::live::Job;
use super::shared::Shared;
use super::store;
use std::time::Duration;

/// Runs until the server stops.
pub async fn run(shared: Shared, tick: Duration) {
    let mut closing = shared.closing.clone();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(tick) => {}
            _ = closing.changed() => return,
        }
        if let Err(e) = check(&shared, store::now()).await {
            eprintln!("time per turn: {e}");
        }
        let now = store::now();
        // Who is connected here, for the other processes' notices: seen within three ticks (a
        // lone process on SQLite knows without writing it down).
        if shared.store.is_postgres()
            && let Err(e) = shared.store.mark_seen(&shared.online_players(), now).await
        {
            eprintln!("your-turn notices: {e}");
        }
        let seen_since = now - 3 * i64::try_from(tick.as_millis()).unwrap_or(i64::MAX / 4);
        if let Err(e) = super::notice::check(&shared, now, seen_since).await {
            eprintln!("your-turn notices: {e}");
        }
    }
}

/// Tells (and concedes for) every wait lapsed at `now` not told yet.
async fn check(shared: &Shared, now: i64) -> Result<(), String> {
    for lapse in shared.store.lapsed(now).await? {
        if !shared.store.set_lapse_told(&lapse.game, lapse.since).await? {
            continue;
        }
        if lapse.turn_time.concede {
            // The game's worker concedes if the game still waits for that side, and tells.
            let job = Job::Lapse {
                game: lapse.game.clone(),
                side: lapse.side,
                since: lapse.since,
            };
            shared.workers.send(&lapse.game, job);
        } else {
            let waited = u64::try_from((now - lapse.since) / 1000).unwrap_or(0);
            let told = Event::Lapsed {
                side: lapse.side.clone(),
                waited,
                conceded: false,
            };
            shared.hub.publish(&lapse.game, told);
        }
    }
    Ok(())
}
