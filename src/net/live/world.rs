//! What the server reads off a game's world and log: whether and how it ended, which secrets an
//! entry reveals, the game's seed; and the narration it drops (it keeps and sends none).

use super::super::hub::Committed;
use super::super::store::{GameRow, SeatRow};
use crate::game::dice_proof;
use crate::game::log::{LogEntry, OrderLog};
use crate::game::order::Order;
use crate::game::phase::GameState;
use crate::game::victory::Verdict;
use bevy::prelude::*;

/// The refusal for an order or undo from someone who holds no seat (before anything about the
/// game's state, which an observer held back may not learn).
pub(super) fn no_seat(id: &str) -> String {
    format!("you do not hold that seat: you hold no seat in game `{id}`, and only its players give orders")
}

/// Drops the game's narration (the log's lines, each entry's: the server sends and saves none)
/// and the messages its orders wrote for views (a server's app never runs a frame, which would
/// clear them).
pub fn forget_narration(world: &mut World) {
    let _ = world.run_system_cached(bevy::ecs::message::message_update_system);
    world.resource_mut::<crate::game::components::GameLog>().0 = Vec::new();
    for e in &mut world.resource_mut::<OrderLog>().entries {
        if !e.lines.is_empty() {
            e.lines = Vec::new();
        }
    }
}

/// The seed of a game whose seats all have their contributions.
pub fn game_seed(row: &GameRow, seats: &[SeatRow]) -> Result<u64, String> {
    let secret = dice_proof::from_hex(&row.secret).map_err(|e| format!("game `{}` secret: {e}", row.id))?;
    let contributions = seats
        .iter()
        .map(|s| {
            dice_proof::from_hex(s.contribution.as_deref().unwrap_or_default())
                .map_err(|e| format!("game `{}` seat {}: {e}", row.id, s.side))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(dice_proof::seed(&secret, &contributions))
}

pub(super) fn is_over(world: &World) -> bool {
    world.get_resource::<State<GameState>>().map(|s| *s.get()) == Some(GameState::Over)
}

/// Whether the game is over: the winner's id (`None` a draw) and why.
pub(super) fn ended(world: &World, side_ids: &[String]) -> Option<(Option<String>, String)> {
    if !is_over(world) {
        return None;
    }
    let verdict = world.get_resource::<Verdict>();
    Some((
        verdict.and_then(|v| v.winner).and_then(|s| side_ids.get(s.0).cloned()),
        verdict.map_or_else(String::new, |v| v.reason.clone()),
    ))
}

/// The earlier entries whose secret entry `index` reveals (a defender's answer reveals the
/// attack it answers).
pub fn newly_revealed(entries: &[LogEntry], index: usize) -> Vec<usize> {
    if !matches!(entries[index].order, Order::Defend(_)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for j in (0..index).rev() {
        if matches!(entries[j].order, Order::Defend(_)) {
            break;
        }
        if entries[j].order.has_secret() {
            out.push(j);
        }
    }
    out.reverse();
    out
}

/// Entry `index` of a game as its followers are told of it: with the entries whose secret it
/// reveals, and the end (with the server's `secret`) when the game ended with it.
pub(super) fn committed(world: &World, side_ids: &[String], secret: &str, index: usize, at: i64) -> Committed {
    let log = &world.resource::<OrderLog>().entries;
    Committed {
        index,
        entry: log[index].clone(),
        reveals: newly_revealed(log, index)
            .into_iter()
            .map(|j| (j, log[j].clone()))
            .collect(),
        ended: ended(world, side_ids).map(|(w, r)| (w, r, secret.to_string())),
        at,
        turn: world.resource::<crate::game::phase::TurnState>().turn,
    }
}
