//! What a side did in its turn, for a player who watched the computer play it: the units it
//! moved, its combats with their results, the steps each side lost and the objectives that changed
//! hands. Taken from a snapshot at the turn's start and the order log since; reads the game and
//! changes nothing.

use super::components::{GameMap, Sides};
use super::log::OrderLog;
use super::order::Order;
use super::victory::ObjectiveControl;
use bevy::prelude::*;

/// The game as a turn began.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnStart {
    pub turn: u32,
    pub side: usize,
    /// Log entries before the turn.
    pub entries: usize,
    pub steps: Vec<u32>,
    pub control: Vec<Option<super::components::Side>>,
}

/// What the side did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnReport {
    pub title: String,
    pub lines: Vec<String>,
    /// The report in one line, for the log.
    pub summary: String,
}

/// The game now, as a turn's start.
pub fn turn_start(world: &mut World) -> TurnStart {
    let turn = world.resource::<super::phase::TurnState>();
    let (turn_number, side) = (turn.turn, turn.active.0);
    let sides = world.resource::<Sides>().0.len();
    TurnStart {
        turn: turn_number,
        side,
        entries: world.resource::<OrderLog>().entries.len(),
        steps: steps_by_side(world, sides),
        control: world.resource::<ObjectiveControl>().0.clone(),
    }
}

fn steps_by_side(world: &mut World, sides: usize) -> Vec<u32> {
    let mut out = vec![0; sides];
    let mut q = world.query::<(&super::components::Side, &super::components::Steps)>();
    for (side, steps) in q.iter(world) {
        if let Some(n) = out.get_mut(side.0) {
            *n += steps.0.remaining() as u32;
        }
    }
    out
}

/// What happened since `start`, in words.
pub fn turn_report(world: &mut World, start: &TurnStart) -> TurnReport {
    let sides = world.resource::<Sides>().0.clone();
    let name = |i: usize| sides.get(i).map_or("?".to_string(), |s| s.name.clone());
    let entries = world.resource::<OrderLog>().entries.clone();
    let since = entries.get(start.entries..).unwrap_or(&[]);
    let mut moved: Vec<String> = Vec::new();
    let mut combats = Vec::new();
    for e in since {
        if let Order::Move { .. } = &e.order
            && e.side == sides[start.side].id
        {
            moved.push(e.words.trim_start_matches("move ").to_string());
        }
        combats.extend(
            e.lines
                .iter()
                .filter(|l| l.starts_with("Combat at") && !l.contains(" answers: "))
                .cloned(),
        );
    }
    let combat_count = combats.len();
    let mut lines = Vec::new();
    lines.push(match moved.len() {
        0 => "Moved nothing.".to_string(),
        n => format!(
            "Moved {}: {}.",
            crate::rules::units::counted(n as u64, "stack", "stacks"),
            moved.join("; ")
        ),
    });
    if combats.is_empty() {
        lines.push("Made no attack.".into());
    }
    lines.extend(combats);
    let now = steps_by_side(world, sides.len());
    let losses: Vec<String> = (0..sides.len())
        .map(|i| {
            let lost = start.steps.get(i).copied().unwrap_or(0).saturating_sub(now[i]);
            format!("{} {}", name(i), crate::rules::units::counted(lost, "step", "steps"))
        })
        .collect();
    lines.push(format!("Losses: {}.", losses.join(", ")));
    let control = world.resource::<ObjectiveControl>().0.clone();
    let map = world.resource::<GameMap>();
    for (i, o) in map.objectives.iter().enumerate() {
        let (before, after) = (
            start.control.get(i).copied().flatten(),
            control.get(i).copied().flatten(),
        );
        if before != after {
            let holder = after.map_or("nobody".to_string(), |s| name(s.0));
            lines.push(format!("{} ({}) is now held by {holder}.", o.name, o.cell));
        }
    }
    let title = format!("{}'s turn {}", name(start.side), start.turn);
    let changed = lines.iter().filter(|l| l.contains(" is now held by ")).count();
    let summary = format!(
        "{title}: {} moved, {}; losses {}; {}.",
        crate::rules::units::counted(moved.len() as u64, "stack", "stacks"),
        crate::rules::units::counted(combat_count as u64, "combat", "combats"),
        losses.join(", "),
        crate::rules::units::counted(changed as u64, "objective changed hands", "objectives changed hands")
    );
    TurnReport { title, lines, summary }
}
