//! The scenario file format as written (`Raw*` types, serde). `validate.rs` turns it into the
//! checked `Scenario` the game spawns; saving writes these types back.

use crate::rules::grid::GridKind;
use crate::rules::terrain::{CellFeature, EdgeFeature, Mobility};
use crate::rules::units::{StepValues, UnitClass, UnitSize, UnitStatus, UnitTrait};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use crate::rules::grid::MapEdge;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEdges {
    pub feature: EdgeFeature,
    /// Pairs of adjacent cells by label: `[("0304", "0305"), …]`.
    pub between: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMap {
    pub grid: GridKind,
    pub width: u32,
    pub height: u32,
    /// One character per terrain id, used by `rows`.
    pub legend: BTreeMap<char, String>,
    /// One string per row, top first, one legend character per column.
    pub rows: Vec<String>,
    /// Edge features (rivers, bridges, fortification lines …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<RawEdges>,
    /// Roads as paths of adjacent cells; each step puts `Road` on the edge it crosses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roads: Vec<Vec<String>>,
    /// Place names printed on the map, by cell label.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub places: BTreeMap<String, String>,
    /// Towns, cities, fortifications and installations, by cell label: `{"0506": [City, Airbase]}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub features: BTreeMap<String, Vec<CellFeature>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    pub id: String,
    pub name: String,
    /// Counter colour, `#rrggbb`.
    pub color: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home_edge: Option<MapEdge>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawObjective {
    pub cell: String,
    pub name: String,
    pub points: u32,
    /// The side holding it at the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held_by: Option<String>,
}

/// Killing Ground 8.91: the strength chit on a parent unit and the parent's cadre strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawChit {
    pub full: u32,
    pub reduced: u32,
    pub cadre: u32,
}

/// One unit. Its values come from exactly one of: `strength` (attack = defense), `attack` with
/// `defense`, `steps` (a step track, full strength first) or `chit` (Killing Ground).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUnit {
    pub id: String,
    pub name: String,
    pub side: String,
    pub class: UnitClass,
    pub size: UnitSize,
    pub cell: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<StepValues>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chit: Option<RawChit>,
    /// Steps already lost.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lost: usize,
    /// Armor value (Rommel's armor advantage; armor-vs-armor in other systems).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armor: Option<u32>,
    /// Movement allowance in movement points.
    pub movement: f32,
    /// Overrides the ruleset's mobility for this unit's class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobility: Option<Mobility>,
    /// Effectiveness rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub er: Option<u32>,
    /// The element (division, battlegroup) and parent formation it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub status: Vec<UnitStatus>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<UnitTrait>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experience: Option<u32>,
    /// Stacking points; the ruleset's value for the unit's size when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stacking_points: Option<u32>,
    /// A reinforcement: it enters at `cell` at the start of its side's player turn on this game
    /// turn (2 or later), or in the nearest cell free of enemies when an enemy holds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrives: Option<u32>,
    /// A withdrawal: it leaves the map at the start of its side's player turn on this game turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdraws: Option<u32>,
}

fn is_clear(w: &crate::combat::Weather) -> bool {
    *w == crate::combat::Weather::Clear
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Where a game stands, in a saved game; absent from a fresh scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawProgress {
    pub turn: u32,
    pub side: String,
    /// Index into the ruleset's `player_turn`.
    pub phase: usize,
    pub seed: u64,
    /// How far the seeded dice have rolled (ChaCha word position), so a loaded game rolls the
    /// same dice it would have rolled unsaved.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub dice_position: u64,
    /// Movement points already spent this phase, by unit id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub spent: BTreeMap<String, f32>,
    /// Units that have attacked in this combat phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attacked: Vec<String>,
    /// The cell each unit entered its cell from (Rommel), by unit id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub came_from: BTreeMap<String, String>,
    /// The game log so far, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

/// How large a win is, as board wargames grade it; ordered least first, so the larger compares
/// greater.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum VictoryLevel {
    Marginal,
    Substantive,
    Decisive,
}

impl VictoryLevel {
    pub const ALL: [VictoryLevel; 3] = [
        VictoryLevel::Marginal,
        VictoryLevel::Substantive,
        VictoryLevel::Decisive,
    ];

    /// In a sentence: `a decisive victory`.
    pub const fn word(self) -> &'static str {
        match self {
            VictoryLevel::Marginal => "marginal",
            VictoryLevel::Substantive => "substantive",
            VictoryLevel::Decisive => "decisive",
        }
    }

    /// As a heading: `Decisive victory`.
    pub const fn title(self) -> &'static str {
        match self {
            VictoryLevel::Marginal => "Marginal victory",
            VictoryLevel::Substantive => "Substantive victory",
            VictoryLevel::Decisive => "Decisive victory",
        }
    }
}

/// One way to win, checked by the engine. Every condition given must hold: the cells in `hold`
/// held by `side`, at least `points` objective points, (with `more_points`) more objective points
/// than any other side, and (with `lead`) at least that many more. Checked at the end of the last
/// turn, or as soon as it holds with `sudden_death`. Of the conditions met, the one with the highest
/// `level` decides, the first in the file among equals (without levels: the first met); `otherwise`
/// names who wins when none is, at `otherwise_level`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWin {
    pub side: String,
    /// Objective cells, by label, the side must hold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hold: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub more_points: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sudden_death: bool,
    /// At least this many objective points more than every other side (a victory-point margin,
    /// as level tables are often written: "German decisive: a lead of 8 or more").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<u32>,
    /// The level of victory this condition gives; left out, a plain win. A scenario gives every
    /// condition a level or none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<VictoryLevel>,
}

/// A scenario (or a saved game) as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename = "Scenario")]
pub struct RawScenario {
    pub name: String,
    /// Where and when: the historical setting (or that it is fictional).
    pub setting: String,
    pub description: String,
    /// A built-in ruleset: `killing-ground`, `rommel`, `war-against-russia`, `next-war`,
    /// `small-general`.
    pub ruleset: String,
    pub map: RawMap,
    pub sides: Vec<RawSide>,
    pub first_side: String,
    pub turns: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<RawObjective>,
    /// How the game is won, in words.
    pub victory: String,
    /// How the game is won, as the engine checks it (see `RawWin`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub win: Vec<RawWin>,
    /// The side that wins when no `win` condition is met; a draw when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub otherwise: Option<String>,
    /// The level of the `otherwise` win (often `Marginal`: "anything else is a marginal American
    /// victory"); left out, a plain win. Needs `otherwise`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub otherwise_level: Option<VictoryLevel>,
    pub units: Vec<RawUnit>,
    /// The weather (combat systems read it: frozen rivers, airpower, exchange, overrun).
    #[serde(default, skip_serializing_if = "is_clear")]
    pub weather: crate::combat::Weather,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<RawProgress>,
}

/// The combat-value fields of a unit in a scenario or combat case.
pub(crate) struct UnitValues<'a> {
    pub id: &'a str,
    pub strength: Option<u32>,
    pub attack: Option<u32>,
    pub defense: Option<u32>,
    pub steps: &'a [StepValues],
    pub chit: Option<RawChit>,
    pub lost: usize,
}
