//! The editor's tools as edits: terrain brush and fill, edge features along cell sides, roads,
//! place names and cell features, objectives, and units placed, moved, copied and deleted.
//! Each returns the `Edit` to make (empty when nothing would change); `History` applies it.

use super::Edit;
use crate::rules::grid::{Cell, Grid, GridKind, label, parse_label};
use crate::rules::terrain::{CellFeature, EdgeFeature};
use crate::rules::units::{UnitClass, UnitSize};
use crate::scenario::file::{RawMap, RawObjective, RawScenario, RawSide, RawUnit};
use std::collections::{BTreeMap, HashSet};

/// The scenario's grid.
pub fn grid_of(s: &RawScenario) -> Grid {
    Grid::new(s.map.grid, s.map.width, s.map.height)
}

/// The legend character standing for terrain `id`, if the legend has it.
pub fn legend_char(s: &RawScenario, id: &str) -> Option<char> {
    s.map.legend.iter().find(|(_, t)| *t == id).map(|(c, _)| *c)
}

/// The terrain character of a cell.
pub fn char_at(s: &RawScenario, cell: Cell) -> Option<char> {
    let row = s.map.rows.get(usize::try_from(cell.row).ok()?)?;
    row.chars().nth(usize::try_from(cell.col).ok()?)
}

/// The cells a brush of `size` (1: the cell, 2: and its neighbours, 3: two rings) covers.
pub fn brush(grid: &Grid, center: Cell, size: u32) -> Vec<Cell> {
    grid.range(center, size.saturating_sub(1))
}

/// Paints `cells` with terrain `id`, adding it to the legend when it is not there yet.
pub fn paint(s: &RawScenario, cells: &[Cell], id: &str) -> Edit {
    let (c, legend) = match legend_char(s, id) {
        Some(c) => (c, None),
        None => {
            let c = free_legend_char(&s.map, id);
            let mut map = s.map.clone();
            map.legend.insert(c, id.to_string());
            (c, Some(Edit::Map(Box::new(map))))
        }
    };
    let grid = grid_of(s);
    let mut seen = HashSet::new();
    let changed: Vec<(u32, u32, char)> = cells
        .iter()
        .filter(|cell| grid.contains(**cell) && seen.insert(**cell) && char_at(s, **cell) != Some(c))
        .map(|cell| (cell.col as u32, cell.row as u32, c))
        .collect();
    if changed.is_empty() {
        return Edit::Batch(Vec::new());
    }
    let mut edits: Vec<Edit> = legend.into_iter().chain([Edit::Terrain(changed.clone())]).collect();
    // A terrain painted over everywhere leaves the legend (it may not even be in the ruleset).
    let mut after = s.clone();
    for e in edits.clone() {
        e.apply(&mut after);
    }
    let newly: Vec<char> = unused_legend(&after)
        .into_iter()
        .filter(|c| s.map.rows.iter().any(|r| r.contains(*c)))
        .collect();
    if !newly.is_empty() {
        let mut map = after.map.clone();
        for c in newly {
            map.legend.remove(&c);
        }
        edits.push(Edit::Map(Box::new(map)));
    }
    Edit::Batch(edits)
}

/// A legend character for a new terrain, never one in use: its id's first letter if free, else
/// another letter, digit or sign.
pub fn free_legend_char(map: &RawMap, id: &str) -> char {
    let candidates = id
        .chars()
        .flat_map(|c| [c.to_ascii_lowercase(), c.to_ascii_uppercase()])
        .filter(char::is_ascii_alphanumeric)
        .chain(('a'..='z').chain('A'..='Z').chain('0'..='9'))
        .chain(
            (b'!'..=b'~')
                .map(char::from)
                .filter(|c| !matches!(c, '"' | '\\' | '\'')),
        )
        .chain(('\u{100}'..).filter(|c| c.is_alphabetic()));
    candidates
        .into_iter()
        .find(|c| !map.legend.contains_key(c))
        .expect("a free character")
}

/// Fills the area of like terrain around `start` (cells connected to it with its character).
pub fn fill(s: &RawScenario, start: Cell, id: &str) -> Edit {
    let grid = grid_of(s);
    let Some(old) = char_at(s, start) else {
        return Edit::Batch(Vec::new());
    };
    let mut area = vec![start];
    let mut seen: HashSet<Cell> = area.iter().copied().collect();
    let mut i = 0;
    while i < area.len() {
        for n in grid.neighbours(area[i]).collect::<Vec<_>>() {
            if char_at(s, n) == Some(old) && seen.insert(n) {
                area.push(n);
            }
        }
        i += 1;
    }
    paint(s, &area, id)
}

/// Puts `feature` on (or takes it off) the sides between each pair of adjacent cells.
pub fn set_edges(s: &RawScenario, pairs: &[(Cell, Cell)], feature: EdgeFeature, present: bool) -> Edit {
    let grid = grid_of(s);
    let mut edges = s.map.edges.clone();
    for (a, b) in pairs {
        if grid.contains(*a) && grid.contains(*b) && grid.are_adjacent(*a, *b) {
            super::set_edge(&mut edges, feature, &(label(*a), label(*b)), present);
        }
    }
    if edges == s.map.edges {
        Edit::Batch(Vec::new())
    } else {
        Edit::Edges(edges)
    }
}

/// Adds a road along `path` (adjacent cells); a path with a gap is cut there.
pub fn add_road(s: &RawScenario, path: &[Cell]) -> Edit {
    let grid = grid_of(s);
    let mut roads = s.map.roads.clone();
    let mut current: Vec<String> = Vec::new();
    let mut last: Option<Cell> = None;
    for &cell in path.iter().filter(|c| grid.contains(**c)) {
        if last == Some(cell) {
            continue;
        }
        if last.is_some_and(|l| !grid.are_adjacent(l, cell)) && current.len() >= 2 {
            roads.push(std::mem::take(&mut current));
        } else if last.is_some_and(|l| !grid.are_adjacent(l, cell)) {
            current.clear();
        }
        current.push(label(cell));
        last = Some(cell);
    }
    if current.len() >= 2 {
        roads.push(current);
    }
    roads_edit(s, roads)
}

/// The edit giving the map `roads` (none when they are its roads already).
fn roads_edit(s: &RawScenario, roads: Vec<Vec<String>>) -> Edit {
    if roads == s.map.roads {
        Edit::Batch(Vec::new())
    } else {
        Edit::Roads(roads)
    }
}

/// Takes the road off the side between `a` and `b`, splitting the roads that cross it.
pub fn remove_road_step(s: &RawScenario, a: Cell, b: Cell) -> Edit {
    let (a, b) = (label(a), label(b));
    let mut roads = Vec::new();
    for road in &s.map.roads {
        let mut piece: Vec<String> = Vec::new();
        for cell in road {
            let crosses = piece
                .last()
                .is_some_and(|l| (*l == a && *cell == b) || (*l == b && *cell == a));
            if crosses {
                if piece.len() >= 2 {
                    roads.push(std::mem::take(&mut piece));
                }
                piece.clear();
            }
            piece.push(cell.clone());
        }
        if piece.len() >= 2 {
            roads.push(piece);
        }
    }
    roads_edit(s, roads)
}

/// Names `cell` as typed (a name of nothing but spaces clears it).
pub fn name_place(s: &RawScenario, cell: Cell, name: &str) -> Edit {
    let name = (!name.trim().is_empty()).then(|| name.to_string());
    if s.map.places.get(&label(cell)) == name.as_ref() {
        return Edit::Batch(Vec::new());
    }
    Edit::Place {
        cell: label(cell),
        name,
    }
}

/// Turns a cell feature on or off in `cell`.
pub fn toggle_feature(s: &RawScenario, cell: Cell, feature: CellFeature) -> Edit {
    let mut features = s.map.features.get(&label(cell)).cloned().unwrap_or_default();
    match features.iter().position(|f| *f == feature) {
        Some(i) => {
            features.remove(i);
        }
        None => features.push(feature),
    }
    Edit::CellFeatures {
        cell: label(cell),
        features,
    }
}

/// Puts an objective on `cell` (or, with `None`, takes it off).
pub fn set_objective(s: &RawScenario, cell: Cell, objective: Option<RawObjective>) -> Edit {
    let mut list: Vec<RawObjective> = s.objectives.clone();
    let at = label(cell);
    match (list.iter().position(|o| o.cell == at), objective) {
        (Some(i), Some(o)) => list[i] = RawObjective { cell: at, ..o },
        (Some(i), None) => {
            list.remove(i);
        }
        (None, Some(o)) => list.push(RawObjective { cell: at, ..o }),
        (None, None) => return Edit::Batch(Vec::new()),
    }
    Edit::Objectives(list)
}

/// Renames side `old` to `new` everywhere it is named: its units, objectives, the first side,
/// who wins otherwise, and the victory conditions.
pub fn rename_side(s: &RawScenario, old: &str, new: &str) -> Edit {
    if old == new {
        return Edit::Batch(Vec::new());
    }
    let mut sides = s.sides.clone();
    for side in sides.iter_mut().filter(|x| x.id == old) {
        side.id = new.to_string();
    }
    let rename = |id: &str| if id == old { new.to_string() } else { id.to_string() };
    let units = s
        .units
        .iter()
        .map(|u| RawUnit {
            side: rename(&u.side),
            ..u.clone()
        })
        .collect();
    let objectives = s
        .objectives
        .iter()
        .map(|o| RawObjective {
            held_by: o.held_by.as_deref().map(rename),
            ..o.clone()
        })
        .collect();
    let mut p = super::Properties::of(s);
    p.first_side = rename(&p.first_side);
    p.otherwise = p.otherwise.as_deref().map(rename);
    for w in &mut p.win {
        w.side = rename(&w.side);
    }
    Edit::Batch(vec![
        Edit::Sides(sides),
        Edit::Units(units),
        Edit::Objectives(objectives),
        Edit::Properties(Box::new(p)),
    ])
}

/// Legend characters no cell uses any more.
pub fn unused_legend(s: &RawScenario) -> Vec<char> {
    s.map
        .legend
        .keys()
        .filter(|c| !s.map.rows.iter().any(|r| r.contains(**c)))
        .copied()
        .collect()
}

/// Makes every cell of terrain `from` terrain `to` (a ruleset changed under the map), merging
/// legend entries.
pub fn replace_terrain(s: &RawScenario, from: &str, to: &str) -> Edit {
    let Some(old) = legend_char(s, from) else {
        return Edit::Batch(Vec::new());
    };
    let mut map = s.map.clone();
    match legend_char(s, to) {
        Some(c) => {
            map.legend.remove(&old);
            map.rows = map.rows.iter().map(|r| r.replace(old, &c.to_string())).collect();
        }
        None => {
            map.legend.insert(old, to.to_string());
        }
    }
    Edit::Map(Box::new(map))
}

/// An id not yet used: `base`, else `base-2`, `base-3` …
pub fn fresh_id(s: &RawScenario, base: &str) -> String {
    let used: HashSet<&str> = s.units.iter().map(|u| u.id.as_str()).collect();
    if !used.contains(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| !used.contains(id.as_str()))
        .unwrap_or_default()
}

/// A new unit of `side` for the palette: the class and size given, strength 2, movement 4.
pub fn new_unit(s: &RawScenario, side: &str, class: UnitClass, size: UnitSize, cell: Cell) -> RawUnit {
    let base = format!("{side}-{}", format!("{class:?}").to_lowercase());
    let id = fresh_id(s, &base);
    // The n-th of its kind: `blue-infantry-3` is "Infantry Division 3".
    let n = id.strip_prefix(&base).and_then(|r| r.strip_prefix('-')).unwrap_or("1");
    RawUnit {
        name: format!("{class:?} {size:?} {n}"),
        id,
        side: side.to_string(),
        class,
        size,
        cell: label(cell),
        strength: Some(2),
        attack: None,
        defense: None,
        steps: Vec::new(),
        chit: None,
        lost: 0,
        armor: None,
        movement: 4.0,
        mobility: None,
        er: None,
        element: None,
        parent: None,
        status: Vec::new(),
        traits: Vec::new(),
        experience: None,
        stacking_points: None,
        arrives: None,
        withdraws: None,
    }
}

/// Adds `unit` at the end of the unit list (its id made unique).
pub fn place_unit(s: &RawScenario, mut unit: RawUnit) -> Edit {
    unit.id = fresh_id(s, &unit.id);
    Edit::InsertUnit(s.units.len(), Box::new(unit))
}

fn indices(s: &RawScenario, ids: &[String]) -> Vec<usize> {
    let mut v: Vec<usize> = s
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| ids.contains(&u.id))
        .map(|(i, _)| i)
        .collect();
    v.sort_unstable();
    v
}

/// Moves the units `ids` to `cell`.
pub fn move_units(s: &RawScenario, ids: &[String], cell: Cell) -> Edit {
    let to = label(cell);
    Edit::Batch(
        indices(s, ids)
            .into_iter()
            .filter(|i| s.units[*i].cell != to)
            .map(|i| {
                Edit::ReplaceUnit(
                    i,
                    Box::new(RawUnit {
                        cell: to.clone(),
                        ..s.units[i].clone()
                    }),
                )
            })
            .collect(),
    )
}

/// Copies the units `ids` into `cell`, each under a new id, after the last unit.
pub fn copy_units(s: &RawScenario, ids: &[String], cell: Cell) -> Edit {
    let mut scratch = s.clone();
    let mut edits = Vec::new();
    for i in indices(s, ids) {
        let copy = RawUnit {
            cell: label(cell),
            ..s.units[i].clone()
        };
        let edit = place_unit(&scratch, copy);
        edits.push(edit.clone());
        edit.apply(&mut scratch);
    }
    Edit::Batch(edits)
}

/// Deletes the units `ids`.
pub fn delete_units(s: &RawScenario, ids: &[String]) -> Edit {
    Edit::Batch(indices(s, ids).into_iter().rev().map(Edit::RemoveUnit).collect())
}

/// Replaces one unit's fields (the inspector's form), found by its id before the change.
pub fn update_unit(s: &RawScenario, id: &str, unit: RawUnit) -> Edit {
    match s.units.iter().position(|u| u.id == id) {
        Some(i) if s.units[i] != unit => Edit::ReplaceUnit(i, Box::new(unit)),
        _ => Edit::Batch(Vec::new()),
    }
}

/// The units standing in `cell`, by id, in list order.
pub fn units_in(s: &RawScenario, cell: Cell) -> Vec<String> {
    let at = label(cell);
    s.units.iter().filter(|u| u.cell == at).map(|u| u.id.clone()).collect()
}

/// A new scenario: a `width` × `height` map of `grid` filled with terrain `fill` of `ruleset`,
/// two sides (west and east), six turns, no units.
pub fn new_scenario(grid: GridKind, width: u32, height: u32, ruleset: &str, fill: &str) -> RawScenario {
    let c = fill.chars().next().filter(char::is_ascii_alphanumeric).unwrap_or('.');
    RawScenario {
        name: "New scenario".into(),
        setting: "Where and when it is set".into(),
        description: "What happens, and what each side must do.".into(),
        ruleset: ruleset.to_string(),
        map: RawMap {
            grid,
            width,
            height,
            legend: BTreeMap::from([(c, fill.to_string())]),
            rows: vec![c.to_string().repeat(width as usize); height as usize],
            edges: Vec::new(),
            roads: Vec::new(),
            places: BTreeMap::new(),
            features: BTreeMap::new(),
        },
        sides: vec![
            RawSide {
                id: "blue".into(),
                name: "Blue".into(),
                color: "#3f5f9f".into(),
                home_edge: Some(crate::rules::grid::MapEdge::West),
            },
            RawSide {
                id: "red".into(),
                name: "Red".into(),
                color: "#9f3f3f".into(),
                home_edge: Some(crate::rules::grid::MapEdge::East),
            },
        ],
        first_side: "blue".into(),
        turns: 6,
        objectives: Vec::new(),
        victory: "Describe how each side wins.".into(),
        win: Vec::new(),
        otherwise: None,
        otherwise_level: None,
        units: Vec::new(),
        weather: crate::combat::Weather::Clear,
        progress: None,
    }
}

/// A cell by its label on this scenario's map.
pub fn cell_of(s: &RawScenario, text: &str) -> Option<Cell> {
    parse_label(text).ok().filter(|c| grid_of(s).contains(*c))
}
