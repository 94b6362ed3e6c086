//! The designer's edits as pure functions over the scenario as written (`RawScenario`): each
//! edit, applied, gives back the edit that undoes it, so undo and redo restore exact states.
//! `tools` makes edits from what the designer does (a brush stroke, a river drawn along cell
//! sides, a unit placed); `History` keeps them for Ctrl+Z and Ctrl+Y. Nothing here validates:
//! a scenario may be invalid while it is being edited, and the editor shows why.

pub mod resize;
pub mod tools;

use crate::rules::terrain::{CellFeature, EdgeFeature};
use crate::scenario::file::{RawEdges, RawMap, RawObjective, RawScenario, RawSide, RawUnit, RawWin};
use serde::{Deserialize, Serialize};

/// The scenario's own fields that are not the map, its sides, objectives or units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Properties {
    pub name: String,
    pub setting: String,
    pub description: String,
    pub ruleset: String,
    pub first_side: String,
    pub turns: u32,
    pub victory: String,
    pub win: Vec<RawWin>,
    pub otherwise: Option<String>,
    pub otherwise_level: Option<crate::scenario::file::VictoryLevel>,
    pub weather: crate::combat::Weather,
}

impl Properties {
    pub fn of(s: &RawScenario) -> Self {
        Self {
            name: s.name.clone(),
            setting: s.setting.clone(),
            description: s.description.clone(),
            ruleset: s.ruleset.clone(),
            first_side: s.first_side.clone(),
            turns: s.turns,
            victory: s.victory.clone(),
            win: s.win.clone(),
            otherwise: s.otherwise.clone(),
            otherwise_level: s.otherwise_level,
            weather: s.weather,
        }
    }

    fn put(self, s: &mut RawScenario) {
        s.name = self.name;
        s.setting = self.setting;
        s.description = self.description;
        s.ruleset = self.ruleset;
        s.first_side = self.first_side;
        s.turns = self.turns;
        s.victory = self.victory;
        s.win = self.win;
        s.otherwise = self.otherwise;
        s.otherwise_level = self.otherwise_level;
        s.weather = self.weather;
    }
}

/// One change to a scenario. `apply` makes it and returns its inverse.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Edit {
    /// Sets cells' terrain characters: (column, row, legend character).
    Terrain(Vec<(u32, u32, char)>),
    /// Replaces the edge features (rivers, bridges …) of the map.
    Edges(Vec<RawEdges>),
    /// Replaces the roads.
    Roads(Vec<Vec<String>>),
    /// Names a cell on the map, or clears its name.
    Place {
        cell: String,
        name: Option<String>,
    },
    /// Sets a cell's features (towns, fortifications …), none to clear.
    CellFeatures {
        cell: String,
        features: Vec<CellFeature>,
    },
    Objectives(Vec<RawObjective>),
    Sides(Vec<RawSide>),
    Properties(Box<Properties>),
    /// Inserts a unit at a position in the unit list.
    InsertUnit(usize, Box<RawUnit>),
    RemoveUnit(usize),
    /// Replaces the unit at a position.
    ReplaceUnit(usize, Box<RawUnit>),
    /// Replaces the whole unit list (a resize moves them all).
    Units(Vec<RawUnit>),
    /// Replaces the whole map (a resize, a new legend).
    Map(Box<RawMap>),
    /// Several edits as one step of the history, applied in order.
    Batch(Vec<Edit>),
}

impl Edit {
    /// Makes the edit on `s`; returns the edit that undoes it. An edit that does not fit the
    /// scenario (a cell off the map, a unit index past the end) changes nothing.
    pub fn apply(self, s: &mut RawScenario) -> Edit {
        match self {
            Edit::Terrain(cells) => {
                let mut before = Vec::with_capacity(cells.len());
                for (col, row, c) in cells {
                    if let Some(old) = set_char(&mut s.map.rows, col, row, c) {
                        before.push((col, row, old));
                    }
                }
                before.reverse();
                Edit::Terrain(before)
            }
            Edit::Edges(edges) => Edit::Edges(std::mem::replace(&mut s.map.edges, edges)),
            Edit::Roads(roads) => Edit::Roads(std::mem::replace(&mut s.map.roads, roads)),
            Edit::Place { cell, name } => {
                let old = match name {
                    Some(n) => s.map.places.insert(cell.clone(), n),
                    None => s.map.places.remove(&cell),
                };
                Edit::Place { cell, name: old }
            }
            Edit::CellFeatures { cell, features } => {
                let old = if features.is_empty() {
                    s.map.features.remove(&cell)
                } else {
                    s.map.features.insert(cell.clone(), features)
                };
                Edit::CellFeatures {
                    cell,
                    features: old.unwrap_or_default(),
                }
            }
            Edit::Objectives(o) => Edit::Objectives(std::mem::replace(&mut s.objectives, o)),
            Edit::Sides(v) => Edit::Sides(std::mem::replace(&mut s.sides, v)),
            Edit::Properties(p) => {
                let old = Properties::of(s);
                p.put(s);
                Edit::Properties(Box::new(old))
            }
            Edit::InsertUnit(at, unit) => {
                if at > s.units.len() {
                    return Edit::Batch(Vec::new());
                }
                s.units.insert(at, *unit);
                Edit::RemoveUnit(at)
            }
            Edit::RemoveUnit(at) => {
                if at >= s.units.len() {
                    return Edit::Batch(Vec::new());
                }
                Edit::InsertUnit(at, Box::new(s.units.remove(at)))
            }
            Edit::ReplaceUnit(at, unit) => match s.units.get_mut(at) {
                Some(slot) => Edit::ReplaceUnit(at, Box::new(std::mem::replace(slot, *unit))),
                None => Edit::Batch(Vec::new()),
            },
            Edit::Units(v) => Edit::Units(std::mem::replace(&mut s.units, v)),
            Edit::Map(map) => Edit::Map(Box::new(std::mem::replace(&mut s.map, *map))),
            Edit::Batch(edits) => {
                let mut undo: Vec<Edit> = edits.into_iter().map(|e| e.apply(s)).collect();
                undo.reverse();
                Edit::Batch(undo)
            }
        }
    }

    /// Whether applying it changes nothing (an empty batch).
    pub fn is_empty(&self) -> bool {
        match self {
            Edit::Batch(v) => v.iter().all(Edit::is_empty),
            Edit::Terrain(v) => v.is_empty(),
            _ => false,
        }
    }
}

/// Sets the character at (`col`, `row`) of the map rows; the old one, or `None` off the map.
fn set_char(rows: &mut [String], col: u32, row: u32, c: char) -> Option<char> {
    let line = rows.get_mut(row as usize)?;
    let mut chars: Vec<char> = line.chars().collect();
    let slot = chars.get_mut(col as usize)?;
    let old = std::mem::replace(slot, c);
    *line = chars.into_iter().collect();
    Some(old)
}

fn same_side(pair: &(String, String), between: &(String, String)) -> bool {
    (pair.0 == between.0 && pair.1 == between.1) || (pair.0 == between.1 && pair.1 == between.0)
}

/// Whether `feature` is on the side between the two cells.
pub fn edge_present(edges: &[RawEdges], feature: EdgeFeature, between: &(String, String)) -> bool {
    edges
        .iter()
        .filter(|e| e.feature == feature)
        .any(|e| e.between.iter().any(|p| same_side(p, between)))
}

/// Puts `feature` on the side between two cells, or takes it off.
pub fn set_edge(edges: &mut Vec<RawEdges>, feature: EdgeFeature, between: &(String, String), present: bool) {
    if present == edge_present(edges, feature, between) {
        return;
    }
    if present {
        match edges.iter_mut().find(|e| e.feature == feature) {
            Some(group) => group.between.push(between.clone()),
            None => edges.push(RawEdges {
                feature,
                between: vec![between.clone()],
            }),
        }
    } else {
        for group in edges.iter_mut().filter(|e| e.feature == feature) {
            group.between.retain(|p| !same_side(p, between));
        }
        edges.retain(|e| !e.between.is_empty());
    }
}

/// The edits made and undone, for Ctrl+Z and Ctrl+Y.
#[derive(Clone, Debug)]
pub struct History {
    undo: Vec<Edit>,
    redo: Vec<Edit>,
    /// What the last step was made by, when further changes of the same kind (one form field
    /// typed into, one brush stroke) join it rather than making steps of their own.
    joinable: Option<String>,
    /// The undo depth at which the scenario matches its file; `None` once no undo or redo can
    /// bring that state back.
    saved_at: Option<usize>,
}

impl Default for History {
    fn default() -> Self {
        Self {
            undo: Vec::new(),
            redo: Vec::new(),
            joinable: None,
            saved_at: Some(0),
        }
    }
}

/// How many steps back undo goes.
pub const HISTORY_DEPTH: usize = 1000;

impl History {
    /// Makes `edit` on `s` as one undoable step (a new edit clears what could be redone).
    pub fn apply(&mut self, s: &mut RawScenario, edit: Edit) {
        if edit.is_empty() {
            return;
        }
        let inverse = edit.apply(s);
        self.record(inverse);
    }

    /// Makes `edit` as part of the last step when that was made by the same `kind` of change
    /// (its undo then goes back to before the first of them), else as a new step.
    pub fn apply_joining(&mut self, s: &mut RawScenario, edit: Edit, kind: &str) {
        if edit.is_empty() {
            return;
        }
        if self.joinable.as_deref() == Some(kind) && self.redo.is_empty() && !self.undo.is_empty() {
            let inverse = edit.apply(s);
            // The step's undo is the first change's; this one's is its continuation.
            if let Some(Edit::Batch(steps)) = self.undo.last_mut() {
                steps.insert(0, inverse);
            } else if let Some(top) = self.undo.pop() {
                self.undo.push(Edit::Batch(vec![inverse, top]));
            }
            if self.saved_at == Some(self.undo.len()) {
                self.saved_at = None;
            }
            return;
        }
        let steps = self.undo.len();
        self.apply(s, edit);
        if self.undo.len() != steps || self.undo.len() == HISTORY_DEPTH {
            self.joinable = Some(kind.to_string());
        }
    }

    /// Records an edit already made, by its inverse, as one step.
    pub fn record(&mut self, inverse: Edit) {
        if inverse.is_empty() {
            return;
        }
        self.joinable = None;
        if self.saved_at.is_some_and(|n| n > self.undo.len()) {
            // The saved state was on the redo side, which a new edit drops.
            self.saved_at = None;
        }
        self.undo.push(inverse);
        if self.undo.len() > HISTORY_DEPTH {
            self.undo.remove(0);
            self.saved_at = self.saved_at.and_then(|n| n.checked_sub(1));
        }
        self.redo.clear();
    }

    /// Makes the edit `tool` gives for the scenario as it is (`|s| tools::paint(s, &cells, "woods")`).
    pub fn make(&mut self, s: &mut RawScenario, tool: impl FnOnce(&RawScenario) -> Edit) {
        let edit = tool(s);
        self.apply(s, edit);
    }

    /// Undoes the last step; false when there is none.
    pub fn undo(&mut self, s: &mut RawScenario) -> bool {
        let Some(edit) = self.undo.pop() else { return false };
        self.joinable = None;
        self.redo.push(edit.apply(s));
        true
    }

    /// Redoes the last undone step; false when there is none.
    pub fn redo(&mut self, s: &mut RawScenario) -> bool {
        let Some(edit) = self.redo.pop() else { return false };
        self.joinable = None;
        self.undo.push(edit.apply(s));
        true
    }

    pub fn can_undo(&self) -> usize {
        self.undo.len()
    }

    pub fn can_redo(&self) -> usize {
        self.redo.len()
    }

    /// The scenario was saved: it matches its file now.
    pub fn saved(&mut self) {
        self.saved_at = Some(self.undo.len());
        // What comes after a save is a step of its own, so undo can come back to the saved state.
        self.joinable = None;
    }

    /// Whether there are edits the file does not have.
    pub fn is_dirty(&self) -> bool {
        self.saved_at != Some(self.undo.len())
    }
}
