//! A connection's outgoing messages, queued for its writer with a bound: a client that lets more
//! than the limit pile up (it does not read what it asked to follow) is cut off, rather than let
//! the server's memory grow with it. A client cut off reconnects and catches up from the log.

use super::protocol::ServerMessage;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::{Notify, mpsc};

/// Messages a connection may have waiting by default (a game view counting a unit for each KiB
/// of its texts): a whole catch-up of a long game fits.
pub const LIMIT: usize = 50_000;

/// The sending side: cloned by every task that speaks on the connection.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::UnboundedSender<ServerMessage>,
    queued: Arc<AtomicUsize>,
    limit: usize,
    overflow: Arc<Notify>,
}

/// The writer's side.
pub struct Inbox {
    rx: mpsc::UnboundedReceiver<ServerMessage>,
    queued: Arc<AtomicUsize>,
}

/// A new outbox holding at most `limit` messages not yet written.
pub fn outbox(limit: usize) -> (Outbox, Inbox) {
    let (tx, rx) = mpsc::unbounded_channel();
    let queued = Arc::new(AtomicUsize::new(0));
    let out = Outbox {
        tx,
        queued: queued.clone(),
        limit,
        overflow: Arc::new(Notify::new()),
    };
    (out, Inbox { rx, queued })
}

/// What a message counts for against the limit: one, and a game view (which carries its
/// scenario's texts) one more for each KiB of them, so that a client asking for the game again
/// and again without reading holds a bounded amount of memory.
fn weight(m: &ServerMessage) -> usize {
    match m {
        ServerMessage::Game(view) => {
            1 + (view.scenario_text.len() + view.ruleset_text.as_ref().map_or(0, String::len)) / 1024
        }
        _ => 1,
    }
}

impl Outbox {
    /// Queues `m`: false when the connection is gone, or has let too many messages pile up (it
    /// is then cut off: `overflowed` resolves).
    pub fn send(&self, m: ServerMessage) -> bool {
        let w = weight(&m);
        if self.queued.fetch_add(w, Ordering::Relaxed) + w > self.limit {
            self.queued.fetch_sub(w, Ordering::Relaxed);
            self.overflow.notify_one();
            return false;
        }
        if self.tx.send(m).is_err() {
            self.queued.fetch_sub(w, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// Queues each of `messages` in order (those past a full outbox are dropped, as `send`
    /// drops them).
    pub fn send_all(&self, messages: impl IntoIterator<Item = ServerMessage>) {
        for m in messages {
            self.send(m);
        }
    }

    /// Resolves once a message found the outbox full.
    pub async fn overflowed(&self) {
        self.overflow.notified().await
    }
}

impl Inbox {
    /// The next message to write.
    pub async fn recv(&mut self) -> Option<ServerMessage> {
        let m = self.rx.recv().await?;
        self.queued.fetch_sub(weight(&m), Ordering::Relaxed);
        Some(m)
    }

    /// The next message already queued, if any.
    pub fn try_recv(&mut self) -> Option<ServerMessage> {
        let m = self.rx.try_recv().ok()?;
        self.queued.fetch_sub(weight(&m), Ordering::Relaxed);
        Some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_outbox_refuses_the_next_message_and_says_so_until_one_is_written() {
        let (out, mut inbox) = outbox(2);
        let m = || ServerMessage::Error { message: "x".into() };
        assert!(out.send(m()) && out.send(m()));
        assert!(!out.send(m()), "the third waits over the limit");
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        // The overflow was noted for the connection to act on.
        rt.block_on(async {
            tokio::time::timeout(std::time::Duration::from_secs(1), out.overflowed())
                .await
                .expect("the overflow is told")
        });
        assert!(inbox.try_recv().is_some());
        assert!(out.send(m()), "room again once one was written");
        assert_eq!((inbox.try_recv().is_some(), inbox.try_recv().is_some()), (true, true));
        assert!(inbox.try_recv().is_none());
    }
}
