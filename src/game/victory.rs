//! Who holds each objective and who has won: the scenario's `win` conditions, checked whenever an
//! objective changes hands (sudden death) and when the last turn ends, into the `Verdict` the end
//! screen shows.

use super::components::{GameLog, GameMap, MapIndex, Side, Sides};
use super::phase::{GameState, TurnState};
use crate::scenario::file::VictoryLevel;
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
    /// How large the win is, where the scenario grades its victories (`None`: a plain win, a
    /// concession, or a draw). Not in the state hash: it follows from the winning condition and
    /// the objectives, which are (saves and their recorded hashes stay as they are).
    pub level: Option<VictoryLevel>,
    /// The win condition that decided (index into `GameMap::win`); `None` for the `otherwise`
    /// winner, a draw or a concession. Not hashed either.
    pub decided_by: Option<usize>,
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
    let best_other = points
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != side.0)
        .map(|(_, p)| *p)
        .max()
        .unwrap_or(0);
    if let Some(lead) = condition.lead {
        let have = i64::from(points[side.0]) - i64::from(best_other);
        if have < i64::from(lead) {
            return Err(format!(
                "{name} leads by {have} objective points ({} to {best_other}), not the {lead} needed",
                points[side.0]
            ));
        }
        why.push(format!("leads by {have} objective points (needs {lead})"));
    }
    if condition.more_points {
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

/// The verdict when the last turn ends: the deciding condition met (`Standing::deciding`: the
/// highest level, the first among equals) wins, else `otherwise` (a draw when the scenario names
/// no one) — `Standing::leader` and `Standing::level`.
pub fn verdict_at_end(map: &GameMap, control: &[Option<Side>], sides: &Sides, turn: u32) -> Verdict {
    let st = standing(map, control, sides, turn, turn);
    let winner = st.leader();
    let level = st.level();
    let decided_by = st.deciding();
    let met = decided_by.and_then(|i| st.conditions[i].1.as_ref().ok());
    let reason = if let Some(reason) = met {
        format!("{reason} at the end of the game{}.", level_phrase(level))
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
                "{failed}{} wins{}: no other victory condition was met.",
                sides.0[side.0].name,
                level_phrase(level)
            ),
            None => format!("{failed}A draw: no victory condition was met."),
        }
    };
    Verdict {
        winner,
        reason,
        points: st.points,
        turn,
        level,
        decided_by,
    }
}

/// `: a decisive victory`, or nothing for a plain win.
pub fn level_phrase(level: Option<VictoryLevel>) -> String {
    level.map_or(String::new(), |l| format!(": a {} victory", l.word()))
}

/// Of the conditions that hold (`met`: index, level), the one that decides: the highest level,
/// the first in the file among equals. Without levels (all `None`) that is the first met, as
/// before levels existed.
pub fn deciding(met: impl IntoIterator<Item = (usize, Option<VictoryLevel>)>) -> Option<usize> {
    met.into_iter()
        .max_by_key(|(i, level)| (*level, std::cmp::Reverse(*i)))
        .map(|(i, _)| i)
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
    /// Each win condition's level (same order as `conditions`; all `None` without levels).
    pub levels: Vec<Option<VictoryLevel>>,
    /// The level of the `otherwise` win.
    pub otherwise_level: Option<VictoryLevel>,
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
        levels: map.win.iter().map(|c| c.level).collect(),
        otherwise_level: map.otherwise_level,
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
    if let Some(n) = condition.lead {
        parts.push(format!("a lead of at least {n} objective points"));
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
    /// The condition that would decide if the game ended now (index into `conditions`).
    pub fn deciding(&self) -> Option<usize> {
        deciding(
            self.conditions
                .iter()
                .zip(&self.levels)
                .enumerate()
                .filter(|(_, ((_, met, _), _))| met.is_ok())
                .map(|(i, (_, level))| (i, *level)),
        )
    }

    /// Who would win if the game ended now (`None`: a draw), as the end screen would decide.
    pub fn leader(&self) -> Option<Side> {
        self.deciding().map(|i| self.conditions[i].0).or(self.otherwise)
    }

    /// How large that win would be (`None`: a plain win or a draw).
    pub fn level(&self) -> Option<VictoryLevel> {
        match self.deciding() {
            Some(i) => self.levels[i],
            None if self.otherwise.is_some() => self.otherwise_level,
            None => None,
        }
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
    // Every sudden-death condition that holds now; the highest level decides (the first without
    // levels, as before).
    let met: Vec<(usize, String)> = map
        .win
        .iter()
        .enumerate()
        .filter(|(_, c)| c.sudden_death)
        .filter_map(|(i, c)| {
            condition_met(c, &map.objectives, &control.0, &sides)
                .ok()
                .map(|r| (i, r))
        })
        .collect();
    let Some(i) = deciding(met.iter().map(|(i, _)| (*i, map.win[*i].level))) else {
        return;
    };
    let condition = &map.win[i];
    let reason = &met.iter().find(|(j, _)| *j == i).expect("met").1;
    let level = condition.level;
    let verdict = Verdict {
        winner: Some(Side(condition.side)),
        reason: match level {
            Some(l) => format!("{reason}: a sudden death {} victory on turn {}.", l.word(), turn.turn),
            None => format!("{reason}: sudden death victory on turn {}.", turn.turn),
        },
        points: points_by_side(&map.objectives, &control.0, sides.0.len()),
        turn: turn.turn,
        level,
        decided_by: Some(i),
    };
    log.push(verdict.reason.clone());
    commands.insert_resource(verdict);
    next_game.set(GameState::Over);
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
