//! A connection following a game: its catch-up from the log, then each event as the connection
//! may see it (an observer of a game that holds observers back gets each entry once it may be
//! seen), and a new catch-up from the log when a burst outruns it.

use super::chat;
use super::delay::Held;
use super::hub::{self, Committed, Event};
use super::live::{Job, LogSnapshot, Workers};
use super::outbox::Outbox;
use super::protocol::{ObserverDelay, ServerMessage};
use crate::game::log::LogEntry;
use crate::game::order::Order;
use tokio::sync::{broadcast, oneshot};

/// How a connection starts following a game.
pub(super) struct Start {
    pub game: String,
    /// The side the connection plays (`None`: an observer).
    pub viewer: Option<String>,
    /// How far behind it is held (an observer of a game that holds observers back).
    pub delay: ObserverDelay,
    /// Entries the client holds.
    pub since: usize,
}

/// One connection following one game: what it forwards, and what it holds back.
pub(super) struct Follow {
    out: Outbox,
    game: String,
    /// The side the connection plays (`None`: an observer).
    viewer: Option<String>,
    /// Entries the connection has been sent (or, held back, has queued): the next index due.
    sent: usize,
    /// An observer held back: the entries not yet to be seen.
    held: Option<Held>,
    /// The game's worker, to read the log again when the connection falls behind.
    workers: Workers,
}

impl Follow {
    /// Sends the log from `start.since` (all of it to a player, or to anyone once the game is
    /// over; what may be seen now to an observer held back, the rest queued).
    pub fn start(out: Outbox, start: Start, snapshot: &LogSnapshot, workers: Workers) -> Self {
        let Start {
            game,
            viewer,
            delay,
            since,
        } = start;
        let mut follow = Follow {
            out,
            game,
            viewer,
            sent: 0,
            held: None,
            workers,
        };
        if delay == ObserverDelay::None || snapshot.ended.is_some() {
            follow.sent = catch_up(&follow.out, &follow.game, snapshot, since, follow.viewer.as_deref());
            // The holder of the game's chain, back: the order still waiting for its link.
            if let Some(asked) = &snapshot.link_wanted
                && follow.viewer.as_ref() == Some(&asked.holder)
            {
                follow.out.send_all(asked.messages(&follow.game));
            }
        } else {
            let mut held = Held::new(delay, snapshot.turn, since);
            for c in committed_since(snapshot, since) {
                held.push(c);
            }
            follow.sent = snapshot.entries.len();
            follow.held = Some(held);
            follow.release();
        }
        follow
    }

    /// Forwards the game's events until the connection's task is stopped.
    pub async fn run(mut self, mut updates: broadcast::Receiver<std::sync::Arc<Event>>) {
        loop {
            let wake = self.held.as_ref().and_then(Held::next_release);
            let sleep = async {
                match wake {
                    Some(at) => {
                        let ms = u64::try_from(at - super::store::now()).unwrap_or(0);
                        tokio::time::sleep(std::time::Duration::from_millis(ms)).await
                    }
                    None => std::future::pending().await,
                }
            };
            let event = tokio::select! {
                event = updates.recv() => event,
                _ = sleep => {
                    self.release();
                    continue;
                }
            };
            let behind = match event {
                Ok(event) if self.missed(&event) => 1,
                Ok(event) => {
                    self.take(&event);
                    continue;
                }
                // A burst (a computer's whole turn) outran this connection: read the log again.
                Err(broadcast::error::RecvError::Lagged(n)) => n,
                Err(broadcast::error::RecvError::Closed) => break,
            };
            if !self.catch_up_again().await {
                let _ = self.out.send(ServerMessage::Error {
                    message: format!(
                        "game `{}`: this connection fell {behind} entries behind; watch again from the last entry you hold",
                        self.game
                    ),
                });
                break;
            }
        }
    }

    /// Whether `event` shows that entries were missed (another server process could not pass one
    /// on): the log must be read again.
    fn missed(&self, event: &Event) -> bool {
        match event {
            Event::Behind => true,
            Event::Entry(c) => c.index > self.sent,
            _ => false,
        }
    }

    /// Sends (or queues, held back) what the log holds past what was sent; false when the log
    /// cannot be read.
    async fn catch_up_again(&mut self) -> bool {
        let (reply, answer) = oneshot::channel();
        let job = Job::Log {
            game: self.game.clone(),
            reply,
        };
        self.workers.send(&self.game, job);
        let Ok(Ok(snapshot)) = answer.await else {
            return false;
        };
        match &mut self.held {
            None => self.sent = catch_up(&self.out, &self.game, &snapshot, self.sent, self.viewer.as_deref()),
            Some(held) => {
                for c in committed_since(&snapshot, self.sent) {
                    held.push(c);
                }
                self.sent = snapshot.entries.len().max(self.sent);
                self.release();
            }
        }
        true
    }

    fn take(&mut self, event: &Event) {
        let game = self.game.clone();
        match event {
            Event::Entry(c) if c.index >= self.sent => {
                self.sent = c.index + 1;
                match &mut self.held {
                    Some(held) => {
                        held.push((**c).clone());
                        self.release();
                    }
                    None => self.out.send_all(hub::messages(&game, c, self.viewer.as_deref())),
                }
            }
            Event::Entry(_) => {}
            Event::Chat { room, from, text, at } if *room == chat::room(self.viewer.is_some()) => {
                let _ = self.out.send(ServerMessage::Chat {
                    game,
                    room: room.clone(),
                    from: from.clone(),
                    text: text.clone(),
                    at: *at,
                });
            }
            Event::Chat { .. } => {}
            Event::Undone { index, turn } => {
                let told = match &mut self.held {
                    Some(held) => held.undo(*index, *turn),
                    None => true,
                };
                self.sent = self.sent.min(*index);
                if told {
                    let _ = self.out.send(ServerMessage::Undone { game, index: *index });
                }
            }
            // Observers held back learn of a lapse when they see the entries around it.
            Event::Lapsed { .. } if self.held.is_some() => {}
            Event::Behind => {}
            Event::LinkWanted(asked) if self.viewer.as_ref() == Some(&asked.holder) => {
                self.out.send_all(asked.messages(&game));
            }
            Event::LinkWanted(_) => {}
            Event::Lapsed { side, waited, conceded } => {
                let _ = self.out.send(ServerMessage::TimeLapsed {
                    game,
                    side: side.clone(),
                    waited: *waited,
                    conceded: *conceded,
                });
            }
        }
    }

    /// Sends what a held-back observer may see now.
    fn release(&mut self) {
        let Some(held) = &mut self.held else { return };
        for c in held.due(super::store::now()) {
            self.out.send_all(hub::messages(&self.game, &c, None));
        }
    }
}

/// The log from `since` as committed entries (for an observer held back).
fn committed_since(snapshot: &LogSnapshot, since: usize) -> Vec<Committed> {
    let entries = &snapshot.entries;
    (since..entries.len())
        .map(|i| Committed {
            index: i,
            entry: entries[i].clone(),
            reveals: super::live::newly_revealed(entries, i)
                .into_iter()
                .map(|j| (j, entries[j].clone()))
                .collect(),
            ended: None,
            at: snapshot.times.get(i).copied().unwrap_or(0),
            turn: snapshot.turn,
        })
        .collect()
}

/// Sends the log from `since` as `viewer` may see it; the number of entries it covered.
fn catch_up(out: &Outbox, game: &str, snapshot: &LogSnapshot, since: usize, viewer: Option<&str>) -> usize {
    let entries: &[LogEntry] = &snapshot.entries;
    for (i, e) in entries.iter().enumerate().skip(since) {
        // A secret from before `since` that this entry reveals.
        for j in super::live::newly_revealed(entries, i) {
            if j < since && viewer != Some(entries[j].side.as_str()) {
                let _ = out.send(ServerMessage::Revealed {
                    game: game.to_string(),
                    index: j,
                    order: entries[j].order.clone(),
                    words: entries[j].public_words(true),
                });
            }
        }
        let revealed = entries[i + 1..]
            .iter()
            .any(|later| matches!(later.order, Order::Defend(_)));
        let _ = out.send(ServerMessage::Entry {
            game: game.to_string(),
            entry: hub::view(i, e, viewer, revealed),
        });
    }
    if let Some((winner, reason, secret)) = &snapshot.ended {
        let _ = out.send(ServerMessage::Ended {
            game: game.to_string(),
            winner: winner.clone(),
            reason: reason.clone(),
            secret: secret.clone(),
        });
    }
    entries.len()
}
