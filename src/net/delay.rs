//! Observers held back: in a game made with an observer delay, a connection that holds no seat
//! receives each entry only once it is old enough (a turn behind the play, or some seconds after
//! it was made), in order, and everything once the game is over.

use super::hub::Committed;
use super::protocol::ObserverDelay;
use std::collections::VecDeque;

/// The entries an observer is owed, held until they may be seen.
#[derive(Debug)]
pub struct Held {
    delay: ObserverDelay,
    queue: VecDeque<Committed>,
    /// The game's turn as of the newest entry known.
    turn_now: u32,
    over: bool,
    /// Entries the observer holds (sent, or held before it began following).
    shown: usize,
}

impl Held {
    /// Held back by `delay` in turn `turn_now`, the observer holding `shown` entries.
    pub fn new(delay: ObserverDelay, turn_now: u32, shown: usize) -> Self {
        Self {
            delay,
            queue: VecDeque::new(),
            turn_now,
            over: false,
            shown,
        }
    }

    /// The log was cut back to `index` entries, the game back in turn `turn`: whether the
    /// observer must be told (it holds some of the entries taken back); those still held are
    /// dropped.
    pub fn undo(&mut self, index: usize, turn: u32) -> bool {
        self.queue.retain(|c| c.index < index);
        self.turn_now = turn;
        let told = self.shown > index;
        self.shown = self.shown.min(index);
        told
    }

    /// An entry made (in log order).
    pub fn push(&mut self, c: Committed) {
        self.turn_now = self.turn_now.max(c.turn);
        self.over |= c.ended.is_some();
        self.queue.push_back(c);
    }

    /// Whether an entry may be seen at `now` (milliseconds since 1970).
    fn visible(&self, c: &Committed, now: i64) -> bool {
        self.over
            || match self.delay {
                ObserverDelay::None => true,
                ObserverDelay::OneTurn => c.entry.when.turn < self.turn_now,
                ObserverDelay::Seconds(s) => c.at + i64::from(s) * 1000 <= now,
            }
    }

    /// The entries that may be seen at `now`, oldest first (taken out).
    pub fn due(&mut self, now: i64) -> Vec<Committed> {
        let mut out = Vec::new();
        while let Some(front) = self.queue.front() {
            if !self.visible(front, now) {
                break;
            }
            if let Some(c) = self.queue.pop_front() {
                self.shown = c.index + 1;
                out.push(c);
            }
        }
        out
    }

    /// When the oldest held entry becomes visible by time alone (`None`: only a later entry can
    /// release it, or nothing is held).
    pub fn next_release(&self) -> Option<i64> {
        match (self.delay, self.queue.front()) {
            (ObserverDelay::Seconds(s), Some(c)) => Some(c.at + i64::from(s) * 1000),
            _ => None,
        }
    }

    pub fn held(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::log::{LogEntry, When};
    use crate::game::order::Order;

    fn made(index: usize, turn: u32, turn_after: u32, at: i64) -> Committed {
        Committed {
            index,
            entry: LogEntry {
                side: "a".into(),
                order: Order::EndPhase,
                dice: Vec::new(),
                rng: (0, 0),
                hash: Default::default(),
                link: None,
                lines: Vec::new(),
                when: When {
                    turn,
                    side: 0,
                    phase: 0,
                },
                words: String::new(),
                public: String::new(),
            },
            reveals: Vec::new(),
            ended: None,
            at,
            turn: turn_after,
        }
    }

    #[test]
    fn one_turn_behind_releases_a_turn_when_the_next_begins() {
        let mut held = Held::new(ObserverDelay::OneTurn, 1, 0);
        held.push(made(0, 1, 1, 0));
        held.push(made(1, 1, 1, 0));
        assert!(held.due(i64::MAX).is_empty(), "turn 1 is still being played");
        held.push(made(2, 1, 2, 0));
        let out: Vec<usize> = held.due(0).iter().map(|c| c.index).collect();
        assert_eq!(out, [0, 1, 2]);
        held.push(made(3, 2, 2, 0));
        assert_eq!(held.held(), 1);
        let mut last = made(4, 2, 2, 0);
        last.ended = Some((None, "over".into(), "00".into()));
        held.push(last);
        assert_eq!(held.due(0).len(), 2, "the end shows everything");
    }

    #[test]
    fn seconds_behind_releases_in_order_as_time_passes() {
        let mut held = Held::new(ObserverDelay::Seconds(60), 1, 0);
        held.push(made(0, 1, 1, 1_000));
        held.push(made(1, 1, 1, 5_000));
        assert_eq!(held.next_release(), Some(61_000));
        assert!(held.due(60_999).is_empty());
        assert_eq!(held.due(61_000).len(), 1);
        assert_eq!(held.next_release(), Some(65_000));
        assert_eq!(held.due(100_000).len(), 1);
        assert_eq!(held.next_release(), None);
    }

    #[test]
    fn an_undo_is_told_only_to_an_observer_who_saw_what_it_took_back() {
        let mut held = Held::new(ObserverDelay::Seconds(60), 1, 0);
        held.push(made(0, 1, 1, 0));
        held.push(made(1, 1, 1, 50_000));
        assert_eq!(held.due(60_000).len(), 1);
        assert!(!held.undo(1, 1), "entry 1 was still held back: dropped silently");
        assert_eq!(held.held(), 0);
        assert!(held.undo(0, 1), "entry 0 was seen: the observer is told");
    }

    #[test]
    fn an_undo_back_into_the_last_turn_holds_that_turn_back_again() {
        let mut held = Held::new(ObserverDelay::OneTurn, 1, 0);
        held.push(made(0, 1, 2, 0));
        assert_eq!(held.due(0).len(), 1, "turn 2 began: turn 1 is seen");
        // The order that began turn 2 is taken back, and turn 1 goes on.
        assert!(held.undo(0, 1));
        held.push(made(0, 1, 1, 0));
        assert!(held.due(0).is_empty(), "turn 1 is being played again");
    }
}
