//! What a side did in its turn, for a player who watched the computer play it: the units it
//! moved, its combats with what they did to the units, the steps each side lost and the
//! objectives that changed hands. Taken from a snapshot of the units at the turn's start and the
//! order log's entries of that player turn; reads the game and changes nothing.

use super::components::{GameMap, ScenarioSource, Side, Sides, Steps, Unit};
use super::log::{LogEntry, OrderLog};
use super::order::Order;
use super::phase::TurnState;
use super::victory::ObjectiveControl;
use bevy::prelude::*;
use std::collections::HashMap;

/// A unit on the map and the steps it has left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitSteps {
    pub id: String,
    pub name: String,
    /// Index of its side.
    pub side: usize,
    pub steps: u32,
}

/// The game as a turn began.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnStart {
    pub turn: u32,
    pub side: usize,
    /// Every unit on the map then, with its steps.
    pub units: Vec<UnitSteps>,
    pub control: Vec<Option<Side>>,
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
    let turn = world.resource::<TurnState>();
    let (turn_number, side) = (turn.turn, turn.active.0);
    TurnStart {
        turn: turn_number,
        side,
        units: units_on_map(world),
        control: world.resource::<ObjectiveControl>().0.clone(),
    }
}

/// Every unit on the map, by id, with the steps it has left.
pub fn units_on_map(world: &mut World) -> Vec<UnitSteps> {
    let mut q = world.query::<(&Unit, &Side, &Steps)>();
    q.iter(world)
        .map(|(unit, side, steps)| UnitSteps {
            id: unit.id.clone(),
            name: unit.name.clone(),
            side: side.0,
            steps: steps.0.remaining() as u32,
        })
        .collect()
}

/// The entries of the player turn `turn` of side `side`, from its first order to its last. Each
/// entry knows when it was given, so none is missed however late the turn's start was noticed
/// (the computer may give its first order in the frame the turn begins).
pub fn turn_entries(entries: &[LogEntry], turn: u32, side: usize) -> &[LogEntry] {
    let of_turn = |e: &LogEntry| e.when.turn == turn && e.when.side == side;
    let first = entries.iter().position(&of_turn);
    let last = entries.iter().rposition(of_turn);
    match (first, last) {
        (Some(first), Some(last)) => &entries[first..=last],
        _ => &[],
    }
}

/// The steps each side lost from `before` to `after`, unit by unit: what each unit of `before`
/// lost, and all it had when it is gone, unless it withdrew (its id in `withdrawn`). Units that
/// arrived since count for nothing, so reinforcements never hide losses; nor do steps regained.
pub fn losses_by_side(before: &[UnitSteps], after: &[UnitSteps], withdrawn: &[String], sides: usize) -> Vec<u32> {
    let now: HashMap<&str, u32> = after.iter().map(|u| (u.id.as_str(), u.steps)).collect();
    let mut out = vec![0; sides];
    for u in before {
        let lost = match now.get(u.id.as_str()) {
            Some(left) => u.steps.saturating_sub(*left),
            None if withdrawn.contains(&u.id) => 0,
            None => u.steps,
        };
        if let Some(n) = out.get_mut(u.side) {
            *n += lost;
        }
    }
    out
}

/// The units of `before` gone from `after` other than by withdrawal (ids in `withdrawn`).
pub fn eliminated<'a>(before: &'a [UnitSteps], after: &[UnitSteps], withdrawn: &[String]) -> Vec<&'a UnitSteps> {
    before
        .iter()
        .filter(|u| !withdrawn.contains(&u.id) && !after.iter().any(|a| a.id == u.id))
        .collect()
}

/// The units of `start` that withdrew, or were due to, from the start of that player turn to the
/// one now: a withdrawal comes at the start of its side's player turn on its game turn (the next
/// side's may have begun when the report is made).
fn withdrawn_since(world: &World, start: &TurnStart) -> Vec<String> {
    let Some(source) = world.get_resource::<ScenarioSource>() else {
        return Vec::new();
    };
    let turn = world.resource::<TurnState>();
    let sides = world.resource::<Sides>().0.len().max(1);
    // Player turns in the order they are played: the game turn, then the side's place in it.
    let key = |t: u32, side: usize| (t, (side + sides - turn.first_side.0 % sides) % sides);
    let (from, to) = (key(start.turn, start.side), key(turn.turn, turn.active.0));
    source
        .0
        .units
        .iter()
        .filter_map(|u| {
            let t = u.withdraws?;
            let side = start.units.iter().find(|s| s.id == u.id)?.side;
            (from..=to).contains(&key(t, side)).then(|| u.id.clone())
        })
        .collect()
}

/// A line a combat's result is logged with (not the one asking for the defender's answer: the
/// result comes again, carried out, with the answer).
fn is_result(line: &str) -> bool {
    line.starts_with("Combat at") && !line.contains(" answers: ")
}

/// The turn's combats, each its result line and, where the units fared otherwise than the table's
/// words say, what the game then did to them: a retreat blocked or cut short and what it cost, a
/// unit eliminated on the way. `gone` names the units eliminated during the turn.
pub fn combat_lines(entries: &[LogEntry], gone: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (n, entry) in entries.iter().enumerate() {
        for (i, line) in entry.lines.iter().enumerate() {
            if !is_result(line) {
                continue;
            }
            let rest = &entry.lines[i + 1..];
            // What followed the result: the rest of its order, then the retreats chosen for it.
            let after = rest.iter().take_while(|l| !l.starts_with("Combat at")).chain(
                entries[n + 1..]
                    .iter()
                    .take_while(|e| matches!(e.order, Order::Retreat { .. }))
                    .flat_map(|e| &e.lines),
            );
            // A unit a later result names was still there for that combat.
            let later: Vec<&String> = rest
                .iter()
                .chain(entries[n + 1..].iter().flat_map(|e| &e.lines))
                .filter(|l| is_result(l))
                .collect();
            let notes: Vec<String> = after.filter_map(|l| fate(l.trim(), gone, &later)).collect();
            out.push(if notes.is_empty() {
                line.clone()
            } else {
                format!("{}. Then: {}.", line.trim_end_matches('.'), notes.join("; "))
            });
        }
    }
    out
}

/// What a retreat line after a combat tells of its unit, when the table's words do not: the
/// retreat blocked or cut short, and whether the unit was eliminated (gone at the end of the turn,
/// in `gone`, and named by no later result). `None` for a plain retreat it survived.
fn fate(line: &str, gone: &[String], later: &[&String]) -> Option<String> {
    let line = line.trim_end_matches('.');
    let cut_short = [
        " cannot retreat",
        " retreats only ",
        " loses a step for failing to retreat",
    ];
    let (name, blocked) = cut_short
        .iter()
        .find_map(|k| line.split_once(k).map(|(name, _)| (name, true)))
        .or_else(|| line.split_once(" retreats ").map(|(name, _)| (name, false)))
        .filter(|(name, _)| !name.is_empty())?;
    let lost = gone.iter().any(|g| g == name) && !later.iter().any(|l| l.contains(name));
    match (blocked, lost) {
        (true, true) if !line.ends_with(" is eliminated") => Some(format!("{line}: eliminated")),
        (true, _) => Some(line.to_string()),
        (false, true) => Some(format!("{name} is eliminated in its retreat")),
        (false, false) => None,
    }
}

/// What happened since `start`, in words.
pub fn turn_report(world: &mut World, start: &TurnStart) -> TurnReport {
    let sides = world.resource::<Sides>().0.clone();
    let name = |i: usize| sides.get(i).map_or("?".to_string(), |s| s.name.clone());
    let side_id = sides.get(start.side).map(|s| s.id.clone());
    let entries = turn_entries(&world.resource::<OrderLog>().entries, start.turn, start.side).to_vec();
    let moved: Vec<String> = entries
        .iter()
        .filter(|e| matches!(e.order, Order::Move { .. }) && side_id.as_ref() == Some(&e.side))
        .map(|e| e.words.trim_start_matches("move ").to_string())
        .collect();
    let now = units_on_map(world);
    let withdrawn = withdrawn_since(world, start);
    let gone = eliminated(&start.units, &now, &withdrawn);
    let gone_names: Vec<String> = gone.iter().map(|u| u.name.clone()).collect();
    let combats = combat_lines(&entries, &gone_names);
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
    let losses: Vec<String> = losses_by_side(&start.units, &now, &withdrawn, sides.len())
        .into_iter()
        .enumerate()
        .map(|(i, lost)| format!("{} {}", name(i), crate::rules::units::counted(lost, "step", "steps")))
        .collect();
    lines.push(format!("Losses: {}.", losses.join(", ")));
    if !gone.is_empty() {
        let units: Vec<String> = gone.iter().map(|u| format!("{} ({})", u.name, name(u.side))).collect();
        lines.push(format!("Eliminated: {}.", units.join(", ")));
    }
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
    // Not "{side}'s turn": a side named "United States" has no good possessive.
    let title = format!(
        "The computer played turn {} for the {} side",
        start.turn,
        name(start.side)
    );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::log::When;
    use crate::rules::grid::Cell;

    fn entry(turn: u32, side: usize, order: Order, lines: &[&str]) -> LogEntry {
        LogEntry {
            side: format!("side{side}"),
            order,
            dice: Vec::new(),
            rng: (0, 0),
            hash: Default::default(),
            link: None,
            lines: lines.iter().map(|l| l.to_string()).collect(),
            when: When { turn, side, phase: 0 },
            words: String::new(),
            public: String::new(),
        }
    }

    fn mv(unit: &str) -> Order {
        Order::Move {
            units: vec![unit.to_string()],
            to: Cell::new(1, 1),
        }
    }

    fn unit(id: &str, side: usize, steps: u32) -> UnitSteps {
        UnitSteps {
            id: id.into(),
            name: format!("{id} Rgt"),
            side,
            steps,
        }
    }

    #[test]
    fn the_turn_starts_at_its_first_order_however_late_it_is_noticed() {
        let entries = vec![
            entry(1, 0, mv("a"), &[]),
            entry(1, 0, Order::EndPhase, &[]),
            // The computer's first move, given in the frame the turn began.
            entry(1, 1, mv("b"), &[]),
            entry(1, 1, mv("c"), &[]),
            entry(1, 1, Order::EndPhase, &[]),
            entry(2, 0, mv("a"), &[]),
        ];
        let turn = turn_entries(&entries, 1, 1);
        assert_eq!(turn.len(), 3);
        assert_eq!(turn[0].order, mv("b"));
        assert!(turn_entries(&entries, 3, 0).is_empty());
    }

    #[test]
    fn a_reinforcement_does_not_hide_an_elimination() {
        let before = vec![unit("us1", 1, 2), unit("de1", 0, 3), unit("us-out", 1, 2)];
        // us1 eliminated, de1 lost a step, us2 arrived, us-out withdrew.
        let after = vec![unit("de1", 0, 2), unit("us2", 1, 3)];
        let withdrawn = vec!["us-out".to_string()];
        assert_eq!(losses_by_side(&before, &after, &withdrawn, 2), vec![1, 2]);
        let gone: Vec<&str> = eliminated(&before, &after, &withdrawn)
            .iter()
            .map(|u| u.id.as_str())
            .collect();
        assert_eq!(gone, vec!["us1"]);
    }

    #[test]
    fn steps_regained_are_no_loss_and_no_gain() {
        let before = vec![unit("a", 0, 1), unit("b", 0, 3)];
        let after = vec![unit("a", 0, 2), unit("b", 0, 1)];
        assert_eq!(losses_by_side(&before, &after, &[], 1), vec![2]);
    }

    #[test]
    fn a_blocked_retreat_says_what_it_cost() {
        let result = "Combat at 0808 (dice 5): DR | attacker: no effect | defender: us1 Rgt retreats; retreat 2 cells (enemy's choice)";
        let entries = vec![
            entry(1, 0, mv("a"), &["a moves."]),
            entry(1, 0, Order::EndPhase, &[]),
            entry(
                1,
                0,
                Order::EndAdvance,
                &[
                    "  3:1, column 3:1; no modifiers",
                    result,
                    "us1 Rgt cannot retreat (0808 holds enemy units) and loses 2 steps in place instead.",
                ],
            ),
        ];
        let lines = combat_lines(&entries, &["us1 Rgt".to_string()]);
        assert_eq!(
            lines,
            vec![format!(
                "{result}. Then: us1 Rgt cannot retreat (0808 holds enemy units) and loses 2 steps in place instead: eliminated."
            )]
        );
        // Survived: the game's words, nothing added.
        let lines = combat_lines(&entries, &[]);
        assert!(lines[0].ends_with("loses 2 steps in place instead."));
    }

    #[test]
    fn a_plain_retreat_adds_nothing_and_a_later_combat_takes_the_blame() {
        let first = "Combat at 0808 (dice 4): DR | attacker: no effect | defender: us1 Rgt retreats; retreat 1 cell (own choice)";
        let second = "Combat at 0809 (dice 6): DE | attacker: no effect | defender: us1 Rgt eliminated";
        let entries = vec![
            entry(1, 0, Order::EndPhase, &[first]),
            entry(
                1,
                0,
                Order::Retreat {
                    unit: "us1".into(),
                    path: vec![Cell::new(7, 8)],
                },
                &["us1 Rgt retreats 0808 → 0809."],
            ),
            entry(1, 0, Order::EndPhase, &[second]),
        ];
        let lines = combat_lines(&entries, &["us1 Rgt".to_string()]);
        assert_eq!(lines, vec![first.to_string(), second.to_string()]);
    }
}
