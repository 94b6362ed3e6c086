//! An online game on the board: the server's entries played out one by one (the opponent's at
//! the computer's pace, this player's at once), reveals and undos replayed, this player's orders
//! and undos sent (nothing shown as done until the entry comes back), this side's standing
//! answers given, and the end checked: the secret against its commitment, every die rolled again.

use super::seat::{OnlineSeat, ToServer};
use crate::game::phase::GameState;
use crate::net::client::{DiceChecked, apply, replay_entries, verify_dice};
use crate::net::protocol::{EntryView, GameView, ServerMessage};
use crate::net::remote::Command;
use bevy::prelude::*;
use std::collections::VecDeque;

/// A chat line as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    pub from: String,
    pub text: String,
    /// Milliseconds since 1970.
    pub at: i64,
}

/// How the end's dice check stands.
pub enum Fairness {
    /// The secret came; the check waits until every entry is played out.
    Due(String),
    Checking(std::thread::JoinHandle<Result<DiceChecked, String>>),
    Verified(Box<DiceChecked>),
    NotVerified(String),
}

/// The online game on the board.
#[derive(Resource)]
pub struct OnlineGame {
    pub view: GameView,
    /// The entries played out on the board, as the server gave them.
    pub applied: Vec<EntryView>,
    /// Entries, reveals and undos received, not yet played out.
    pub incoming: VecDeque<ServerMessage>,
    /// An order or undo sent and not answered yet: the log length it was sent at, its words.
    pub waiting: Option<(usize, String)>,
    /// Seconds since the last of the opponent's entries was played out.
    waited: f32,
    pub chat: Vec<ChatLine>,
    pub unread: usize,
    pub chat_open: bool,
    /// How the game ended (winner, why) and the dice check.
    pub ended: Option<(Option<String>, String)>,
    pub fairness: Option<Fairness>,
    /// Whether the opponent is connected to the server (from the lists, every few seconds).
    pub opponent_online: Option<bool>,
    /// This copy stopped agreeing with the server's (a bug, or a server not to be trusted).
    pub broken: Option<String>,
    /// The last thing said about the game (an undo of the opponent's, a lapse of time).
    pub note: Option<String>,
    /// Catching up with the log as it stood when the game was opened: played out at once, not
    /// at the pace (the answer to `options` after the catch-up ends it).
    pub catching_up: bool,
    /// The side whose order the game waits for (as of the last frame).
    pub to_act: Option<usize>,
}

impl OnlineGame {
    pub fn new(view: GameView) -> Self {
        Self {
            view,
            applied: Vec::new(),
            incoming: VecDeque::new(),
            waiting: None,
            waited: 0.0,
            chat: Vec::new(),
            unread: 0,
            chat_open: false,
            ended: None,
            fairness: None,
            opponent_online: None,
            broken: None,
            note: None,
            catching_up: true,
            to_act: None,
        }
    }

    /// The side this window plays (index), if any.
    pub fn my_side(&self) -> Option<usize> {
        let you = self.view.you.as_ref()?;
        self.view.seats.iter().position(|s| &s.side == you)
    }

    /// Who sits in the other seat, in words.
    pub fn opponent(&self) -> Option<String> {
        let me = self.my_side();
        self.view
            .seats
            .iter()
            .enumerate()
            .find(|(i, _)| Some(*i) != me)
            .map(|(_, s)| s.taken_by.clone().unwrap_or_else(|| "nobody yet".into()))
    }

    /// Takes in a message of this game from the server.
    pub fn take(&mut self, message: ServerMessage) {
        match message {
            m @ (ServerMessage::Entry { .. }
            | ServerMessage::Revealed { .. }
            | ServerMessage::Undone { .. }
            | ServerMessage::Options { .. }) => self.incoming.push_back(m),
            ServerMessage::Accepted { .. } | ServerMessage::TakenBack { .. } => self.waiting = None,
            ServerMessage::Chat { from, text, at, .. } => {
                let mine = self
                    .my_side()
                    .and_then(|s| self.view.seats.get(s))
                    .and_then(|s| s.taken_by.as_ref())
                    == Some(&from);
                if !self.chat_open && !mine {
                    self.unread += 1;
                }
                self.chat.push(ChatLine { from, text, at });
            }
            ServerMessage::Ended {
                winner, reason, secret, ..
            } => {
                self.ended = Some((winner, reason));
                self.fairness = Some(Fairness::Due(secret));
            }
            ServerMessage::TimeLapsed {
                side, waited, conceded, ..
            } => {
                let hours = waited as f64 / 3600.0;
                self.note = Some(if conceded {
                    format!("{side} let the time per turn lapse ({hours:.1} h) and concedes")
                } else {
                    format!("{side} has taken longer than the time per turn ({hours:.1} h so far)")
                });
            }
            _ => {}
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<ToServer>().add_systems(
        PostUpdate,
        (send_orders, play_out, check_dice, name_the_dice)
            .chain()
            .after(crate::gui::state::OrderSystems)
            // Only once the board is up: entries that come before wait for it.
            .run_if(resource_exists::<OnlineGame>.and_then(crate::gui::board_shown)),
    );
}

/// The game's first line names its seed; an online game's dice are the server's (this copy's
/// seed is a stand-in, never rolled with).
fn name_the_dice(log: Option<ResMut<crate::game::components::GameLog>>) {
    let Some(mut log) = log else { return };
    if let Some(first) = log.0.first()
        && let Some(head) = first.strip_suffix(" Seed 0.")
    {
        let line = format!("{head} Online: the server rolls the dice; both clients check them at the end.");
        log.0[0] = line;
    }
}

/// The player's orders and undos, to the server (one at a time; none while the opponent's are
/// still being shown); this side's standing answer, when one answers the question now.
fn send_orders(world: &mut World) {
    let asked: Vec<ToServer> = world.resource_mut::<Messages<ToServer>>().drain().collect();
    for a in asked {
        if let Some(why) = not_now(world) {
            world.resource_mut::<crate::gui::state::HistoryNote>().0 = Some(why);
            continue;
        }
        let expect = world.resource::<OnlineGame>().applied.len();
        let (command, words) = match a {
            ToServer::Order(order) => {
                let words = crate::game::execute::public_words(world, &order);
                (Command::Order { expect, order }, words)
            }
            ToServer::Undo => (Command::Undo { expect }, "undo".to_string()),
        };
        super::send(world, command);
        world.resource_mut::<OnlineGame>().waiting = Some((expect, words));
    }
    standing_answer(world);
}

/// Why an order cannot go now, if it cannot.
fn not_now(world: &World) -> Option<String> {
    let game = world.resource::<OnlineGame>();
    if game.ended.is_some() {
        return Some("The game is over".into());
    }
    if let Some((_, words)) = &game.waiting {
        return Some(format!("Waiting for the server to answer: {words}"));
    }
    if !game.incoming.is_empty() {
        return Some("The opponent's orders are still being shown: a moment".into());
    }
    None
}

/// This side's standing answer (retreat or steps, hold checks…), given as its own order.
fn standing_answer(world: &mut World) {
    let Some(me) = world.get_resource::<OnlineSeat>().and_then(|s| s.0) else {
        return;
    };
    if not_now(world).is_some()
        || world.resource::<crate::gui::answer_ask::AnswerAsk>().held
        || *world.resource::<State<GameState>>().get() != GameState::Playing
        || crate::ai::side_to_act(world) != Some(me)
    {
        return;
    }
    let Some(issued) = crate::game::standing::standing_order(world) else {
        return;
    };
    let expect = world.resource::<OnlineGame>().applied.len();
    let words = crate::game::execute::public_words(world, &issued.order);
    super::send(
        world,
        Command::Order {
            expect,
            order: issued.order,
        },
    );
    world.resource_mut::<OnlineGame>().waiting = Some((expect, format!("{words} (your standing answer)")));
}

/// Plays out what came from the server: this player's entries at once, the opponent's one at a
/// time at the computer's pace; a reveal or an undo replays the game.
fn play_out(world: &mut World) {
    let dt = world.resource::<Time>().delta_secs();
    let pace = world.resource::<crate::gui::state::ComputerPace>().0;
    let me = world.resource::<OnlineGame>().view.you.clone();
    world.resource_mut::<OnlineGame>().waited += dt;
    let to_act = crate::ai::side_to_act(world);
    world.resource_mut::<OnlineGame>().to_act = to_act;
    loop {
        let game = world.resource::<OnlineGame>();
        if game.broken.is_some() {
            return;
        }
        let Some(next) = game.incoming.front() else { return };
        let theirs = matches!(next, ServerMessage::Entry { entry, .. } if Some(&entry.side) != me.as_ref());
        if theirs && !game.catching_up && game.waited < pace {
            world.write_message(bevy::window::RequestRedraw);
            return;
        }
        let next = world
            .resource_mut::<OnlineGame>()
            .incoming
            .pop_front()
            .expect("looked at");
        if let Err(e) = play_one(world, next) {
            warn!("online game: {e}");
            world.resource_mut::<OnlineGame>().broken = Some(e);
            return;
        }
        if theirs {
            world.resource_mut::<OnlineGame>().waited = 0.0;
        }
        let to_act = crate::ai::side_to_act(world);
        world.resource_mut::<OnlineGame>().to_act = to_act;
        world.write_message(bevy::window::RequestRedraw);
    }
}

fn play_one(world: &mut World, message: ServerMessage) -> Result<(), String> {
    match message {
        // The catch-up is over: from here the opponent's orders come at the pace.
        ServerMessage::Options { .. } => world.resource_mut::<OnlineGame>().catching_up = false,
        ServerMessage::Entry { entry, .. } => {
            if entry.index != world.resource::<OnlineGame>().applied.len() {
                return Err(format!("entry {} came out of order", entry.index));
            }
            apply(world, &entry)?;
            let mine = world.resource::<OnlineGame>().view.you.as_ref() == Some(&entry.side);
            world.resource_mut::<OnlineGame>().applied.push(entry);
            if mine {
                // What the status bar said while it waited is over.
                world.resource_mut::<crate::gui::state::HistoryNote>().0 = None;
            }
        }
        ServerMessage::Revealed {
            index, order, words, ..
        } => {
            let mut applied = world.resource::<OnlineGame>().applied.clone();
            let e = applied
                .get_mut(index)
                .ok_or(format!("a reveal of entry {index}, not held"))?;
            e.order = order;
            e.words = words;
            e.hidden = false;
            replay_entries(world, &applied)?;
            world.resource_mut::<OnlineGame>().applied = applied;
        }
        ServerMessage::Undone { index, .. } => {
            let mut applied = world.resource::<OnlineGame>().applied.clone();
            let me = world.resource::<OnlineGame>().view.you.clone();
            let theirs = applied
                .get(index)
                .filter(|e| Some(&e.side) != me.as_ref())
                .map(|e| e.words.clone());
            applied.truncate(index);
            replay_entries(world, &applied)?;
            let mut game = world.resource_mut::<OnlineGame>();
            game.applied = applied;
            game.note = theirs.map(|w| format!("Your opponent took back an order: {w}"));
        }
        _ => {}
    }
    Ok(())
}

/// Once the game has ended and every entry is played out, rolls every die again from the
/// revealed secret off the frame, and takes in the verdict.
fn check_dice(mut game: ResMut<OnlineGame>) {
    let game = &mut *game;
    game.fairness = match game.fairness.take() {
        Some(Fairness::Due(secret)) if game.incoming.is_empty() => {
            let (view, entries) = (game.view.clone(), game.applied.clone());
            Some(Fairness::Checking(std::thread::spawn(move || {
                verify_dice(&view, &entries, &secret)
            })))
        }
        Some(Fairness::Checking(handle)) if handle.is_finished() => Some(match handle.join() {
            Ok(Ok(checked)) => Fairness::Verified(Box::new(checked)),
            Ok(Err(why)) => Fairness::NotVerified(why),
            Err(_) => Fairness::NotVerified("the check stopped".into()),
        }),
        other => other,
    };
}
