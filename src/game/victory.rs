//! Who holds each objective and who has won: the scenario's `win` conditions, checked whenever an
//! objective changes hands (sudden death) and when the last turn ends, into the `Verdict` the end
//! screen shows.

use super::components::{GameLog, GameMap, MapIndex, Side, Sides};
use super::phase::{GameState, TurnState};
use crate::scenario::validate::{Objective, WinCondition};
use bevy::prelude::*;

/// The side holding each of `GameMap::objectives` (same order): the last side to have units alone
/// in the cell, or the scenario's starting holder.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectiveControl(pub Vec<Option<Side>>);

/// How the game ended.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// `None`: a draw.
    pub winner: Option<Side>,
    /// Why, in words.
    pub reason: String,
    /// Objective points held by each side at the end.
    pub points: Vec<u32>,
    /// The turn it was decided in.
    pub turn: u32,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(GameState::Over), decide_at_end);
}

/// Objective points each of `sides` holds.
pub fn points_by_side(objectives: &[Objective], control: &[Option<Side>], sides: usize) -> Vec<u32> {
    let mut points = vec![0u32; sides];
    for (o, holder) in objectives.iter().zip(control) {
        if let Some(side) = holder
            && side.0 < sides
        {
            points[side.0] = points[side.0].saturating_add(o.points);
        }
    }
    points
}

/// Objective points each side holds now.
pub fn points_now(world: &World) -> Vec<u32> {
    let map = world.resource::<GameMap>();
    let control = world.resource::<ObjectiveControl>();
    points_by_side(&map.objectives, &control.0, world.resource::<Sides>().0.len())
}

/// Whether `condition` holds now, and if not, the first part that fails (in words).
pub fn condition_met(
    condition: &WinCondition,
    objectives: &[Objective],
    control: &[Option<Side>],
    sides: &Sides,
) -> Result<String, String> {
    let side = Side(condition.side);
    let name = &sides.0[condition.side].name;
    let holder_of = |cell| {
        objectives
            .iter()
            .position(|o| o.cell == cell)
            .and_then(|i| control.get(i).copied().flatten())
    };
    let mut why = Vec::new();
    for cell in &condition.hold {
        let objective = objectives
            .iter()
            .find(|o| o.cell == *cell)
            .map_or("?", |o| o.name.as_str());
        if holder_of(*cell) != Some(side) {
            return Err(format!("{name} does not hold {objective} ({cell})"));
        }
        why.push(format!("holds {objective}"));
    }
    let points = points_by_side(objectives, control, sides.0.len());
    if let Some(need) = condition.points {
        if points[side.0] < need {
            return Err(format!(
                "{name} holds {} objective points of the {need} needed",
                points[side.0]
            ));
        }
        why.push(format!("holds {} objective points (needs {need})", points[side.0]));
    }
    if condition.more_points {
        let best_other = points
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != side.0)
            .map(|(_, p)| *p)
            .max()
            .unwrap_or(0);
        if points[side.0] <= best_other {
            return Err(format!(
                "{name} holds {} objective points, not more than {best_other}",
                points[side.0]
            ));
        }
        why.push(format!(
            "holds more objective points ({} to {best_other})",
            points[side.0]
        ));
    }
    Ok(format!("{name} {}", why.join(" and ")))
}

/// The verdict when the last turn ends: the first condition met wins, else `otherwise` (a draw
/// when the scenario names no one) — `Standing::leader`.
pub fn verdict_at_end(map: &GameMap, control: &[Option<Side>], sides: &Sides, turn: u32) -> Verdict {
    let st = standing(map, control, sides, turn, turn);
    let winner = st.leader();
    let met = st.conditions.iter().find_map(|(_, m, _)| m.as_ref().ok());
    let reason = if let Some(reason) = met {
        format!("{reason} at the end of the game.")
    } else {
        let failures: Vec<&str> = st
            .conditions
            .iter()
            .filter_map(|(_, m, _)| m.as_ref().err().map(String::as_str))
            .collect();
        let failed = if failures.is_empty() {
            String::new()
        } else {
            format!("{}. ", failures.join("; "))
        };
        match winner {
            Some(side) => format!(
                "{failed}{} wins: no other victory condition was met.",
                sides.0[side.0].name
            ),
            None => format!("{failed}A draw: no victory condition was met."),
        }
    };
    Verdict {
        winner,
        reason,
        points: st.points,
        turn,
    }
}

/// Where the game stands against its victory conditions, for the score panel and the top bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Objective points each side holds.
    pub points: Vec<u32>,
    /// Each win condition: its side, whether it holds now (`Ok`, in words) or the first part that
    /// fails (`Err`), and whether it ends the game at once (sudden death).
    pub conditions: Vec<(Side, Result<String, String>, bool)>,
    /// Who wins if no condition holds at the end (`None`: a draw).
    pub otherwise: Option<Side>,
    /// Game turns still to play after this one.
    pub turns_left: u32,
}

/// The standing of a game on `turn` of `last_turn`.
pub fn standing(map: &GameMap, control: &[Option<Side>], sides: &Sides, turn: u32, last_turn: u32) -> Standing {
    Standing {
        points: points_by_side(&map.objectives, control, sides.0.len()),
        conditions: map
            .win
            .iter()
            .map(|c| {
                (
                    Side(c.side),
                    condition_met(c, &map.objectives, control, sides),
                    c.sudden_death,
                )
            })
            .collect(),
        otherwise: map.otherwise.map(Side),
        turns_left: last_turn.saturating_sub(turn),
    }
}

/// A win condition in words: `hold Minsk (0815) and at least 15 objective points, at once`.
pub fn condition_words(condition: &WinCondition, objectives: &[Objective]) -> String {
    let mut parts: Vec<String> = condition
        .hold
        .iter()
        .map(|cell| {
            let name = objectives
                .iter()
                .find(|o| o.cell == *cell)
                .map_or("?", |o| o.name.as_str());
            format!("hold {name} ({cell})")
        })
        .collect();
    if let Some(n) = condition.points {
        parts.push(format!("at least {n} objective points"));
    }
    if condition.more_points {
        parts.push("more objective points than the other side".into());
    }
    let mut words = if parts.is_empty() {
        "nothing more".to_string()
    } else {
        parts.join(" and ")
    };
    words += if condition.sudden_death {
        ", at any moment (sudden death)"
    } else {
        " when the game ends"
    };
    words
}

impl Standing {
    /// Who would win if the game ended now (`None`: a draw), as the end screen would decide.
    pub fn leader(&self) -> Option<Side> {
        self.conditions
            .iter()
            .find(|(_, met, _)| met.is_ok())
            .map(|(side, _, _)| *side)
            .or(self.otherwise)
    }
}

/// Gives each objective to the side whose units alone stand in it.
pub(super) fn track_control(
    index: Res<MapIndex>,
    map: Res<GameMap>,
    sides_of: Query<&Side>,
    sides: Res<Sides>,
    mut control: ResMut<ObjectiveControl>,
    mut log: ResMut<GameLog>,
) {
    if !index.is_changed() {
        return;
    }
    for (i, objective) in map.objectives.iter().enumerate() {
        let mut present = index.stack(objective.cell).iter().filter_map(|e| sides_of.get(*e).ok());
        let Some(first) = present.next().copied() else { continue };
        if present.all(|s| *s == first)
            && control.0.get(i).copied().flatten() != Some(first)
            && let Some(slot) = control.0.get_mut(i)
        {
            *slot = Some(first);
            log.push(format!(
                "{} takes {} ({}, {} points).",
                sides.0[first.0].name, objective.name, objective.cell, objective.points
            ));
        }
    }
}

pub(super) fn check_sudden_death(
    mut commands: Commands,
    control: Res<ObjectiveControl>,
    map: Res<GameMap>,
    sides: Res<Sides>,
    turn: Res<TurnState>,
    mut log: ResMut<GameLog>,
    mut next_game: ResMut<NextState<GameState>>,
) {
    if !control.is_changed() {
        return;
    }
    for condition in map.win.iter().filter(|c| c.sudden_death) {
        if let Ok(reason) = condition_met(condition, &map.objectives, &control.0, &sides) {
            let verdict = Verdict {
                winner: Some(Side(condition.side)),
                reason: format!("{reason}: sudden death victory on turn {}.", turn.turn),
                points: points_by_side(&map.objectives, &control.0, sides.0.len()),
                turn: turn.turn,
            };
            log.push(verdict.reason.clone());
            commands.insert_resource(verdict);
            next_game.set(GameState::Over);
            return;
        }
    }
}

fn decide_at_end(
    mut commands: Commands,
    verdict: Option<Res<Verdict>>,
    control: Res<ObjectiveControl>,
    map: Res<GameMap>,
    sides: Res<Sides>,
    turn: Res<TurnState>,
    mut log: ResMut<GameLog>,
) {
    if verdict.is_some() {
        return;
    }
    let verdict = verdict_at_end(&map, &control.0, &sides, turn.turn);
    log.push(verdict.reason.clone());
    commands.insert_resource(verdict);
}
