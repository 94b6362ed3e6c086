//! Undo and redo, and rebuilding a game from its log. The log is the truth, so going back is
//! replaying it from the scenario without its last entry; every replayed entry must give the
//! recorded state hash again. Undo never goes through an entry that rolled a die or revealed a
//! secret: what the dice said stays said.

use super::execute::{ReplayError, public_words, replay_entry};
use super::log::{LogEntry, OrderLog};
use super::order::Order;
use super::start::GameOrigin;
use bevy::prelude::*;

/// The game was rebuilt from its log (undo, a replay stepping back): entities changed, so anything
/// holding an `Entity` must let go (the client's selection and attack panels do).
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameRebuilt;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<GameRebuilt>();
}

/// Starts the game of `GameOrigin` again and replays `entries`, checking each against its record.
pub fn rebuild(world: &mut World, entries: &[LogEntry]) -> Result<(), ReplayError> {
    let origin = world.resource::<GameOrigin>().clone();
    super::start::respawn(world, &origin.scenario, origin.seed);
    let result = entries
        .iter()
        .enumerate()
        .try_for_each(|(i, e)| replay_entry(world, i, e));
    world.write_message(GameRebuilt);
    result
}

/// Why undo cannot go back past the entry `e`.
fn barrier_reason(world: &World, e: &LogEntry) -> String {
    let what = match &e.order {
        Order::Attack(a) => format!("the combat at {}", a.target),
        Order::Defend(_) => "the revealed tactics".to_string(),
        Order::Retreat { unit, .. } => format!("the retreat of {unit}"),
        other => public_words(world, other),
    };
    if e.dice.is_empty() {
        format!("undo stops at {what}: it revealed hidden information")
    } else {
        format!("undo stops at {what}: its dice are rolled")
    }
}

/// Whether undo can go back one order now, or why not.
pub fn can_undo(world: &World) -> Result<(), String> {
    let log = world.resource::<OrderLog>();
    let Some(last) = log.entries.last() else {
        return Err("nothing to undo".into());
    };
    if log.entries.len() <= log.undo_floor() {
        return Err(barrier_reason(world, last));
    }
    Ok(())
}

/// Takes back the last order, exactly (the replay checks every hash). Returns the order in words.
pub fn undo(world: &mut World) -> Result<String, String> {
    can_undo(world)?;
    let before = world.resource::<OrderLog>().clone();
    let mut log = before.clone();
    let last = log.entries.pop().ok_or("nothing to undo")?;
    log.undone.push(last.issued());
    if let Err(e) = rebuild(world, &log.entries) {
        // Put the game back as it was (it replayed to here once, so it replays again).
        let _ = rebuild(world, &before.entries);
        world.resource_mut::<OrderLog>().undone = before.undone;
        return Err(format!("undo failed: {e}"));
    }
    // In words as the order read when it was given (from the position before it), a secret kept.
    let words = public_words(world, &last.order);
    world.resource_mut::<OrderLog>().undone = log.undone;
    Ok(words)
}

/// Gives the last undone order again. Returns it in words.
pub fn redo(world: &mut World) -> Result<String, String> {
    let Some(next) = world.resource::<OrderLog>().undone.last().cloned() else {
        return Err("nothing to redo".into());
    };
    let words = public_words(world, &next.order);
    super::execute::execute(world, next).map_err(|r| r.to_string())?;
    Ok(words)
}
