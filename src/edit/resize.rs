//! Resizing a map: rows and columns added or removed on any side, everything on the map (terrain,
//! edges, roads, places, features, objectives, units, victory cells) kept where it stands.
//! Hex maps keep their pattern, so columns (flat-topped) or rows (pointy-topped) go on or off
//! the near side two at a time.

use super::Edit;
use super::tools::legend_char;
use crate::rules::grid::{Cell, GridKind, HexTop, label, parse_label};
use crate::scenario::file::{RawMap, RawScenario};

/// How many rows and columns to add (positive) or remove (negative) on each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Margins {
    pub left: i32,
    pub right: i32,
    pub top: i32,
    pub bottom: i32,
}

/// The edit that resizes `s` by `m`, new cells filled with terrain `fill`; or why it cannot.
pub fn resize(s: &RawScenario, m: Margins, fill: &str) -> Result<Edit, String> {
    let width = s.map.width as i32 + m.left + m.right;
    let height = s.map.height as i32 + m.top + m.bottom;
    if width < 1 || height < 1 {
        return Err(format!("a map needs at least one cell: that leaves {width}×{height}"));
    }
    match s.map.grid {
        GridKind::Hex { top: HexTop::Flat } if m.left % 2 != 0 => {
            return Err(
                "flat-topped hexes: add or remove columns on the left two at a time (one would shear the hex pattern)"
                    .into(),
            );
        }
        GridKind::Hex { top: HexTop::Pointy } if m.top % 2 != 0 => {
            return Err(
                "pointy-topped hexes: add or remove rows at the top two at a time (one would shear the hex pattern)"
                    .into(),
            );
        }
        _ => {}
    }
    let mut map = s.map.clone();
    let c = match legend_char(s, fill) {
        Some(c) => c,
        None => {
            let c = super::tools::free_legend_char(&map, fill);
            map.legend.insert(c, fill.to_string());
            c
        }
    };
    let (w, h) = (width as u32, height as u32);
    let shift = |text: &str| -> Option<String> {
        let cell = parse_label(text).ok()?;
        let moved = Cell::new(cell.col + m.left, cell.row + m.top);
        (moved.col >= 0 && moved.row >= 0 && (moved.col as u32) < w && (moved.row as u32) < h).then(|| label(moved))
    };
    map.rows = moved_rows(&s.map.rows, m, width, height, c);
    map.width = w;
    map.height = h;
    move_map_items(&mut map, &shift);
    let objectives = s
        .objectives
        .iter()
        .filter_map(|o| {
            Some(crate::scenario::file::RawObjective {
                cell: shift(&o.cell)?,
                ..o.clone()
            })
        })
        .collect();
    let units = s
        .units
        .iter()
        .filter_map(|u| {
            Some(crate::scenario::file::RawUnit {
                cell: shift(&u.cell)?,
                ..u.clone()
            })
        })
        .collect();
    let mut properties = super::Properties::of(s);
    for win in &mut properties.win {
        win.hold = win.hold.iter().filter_map(|c| shift(c)).collect();
    }
    Ok(Edit::Batch(vec![
        Edit::Map(Box::new(map)),
        Edit::Objectives(objectives),
        Edit::Units(units),
        Edit::Properties(Box::new(properties)),
    ]))
}

/// The map's rows with `m` added or cut on each side, new cells of terrain character `fill`.
fn moved_rows(rows: &[String], m: Margins, width: i32, height: i32, fill: char) -> Vec<String> {
    (0..height)
        .map(|row| {
            let old: Vec<char> = usize::try_from(row - m.top)
                .ok()
                .and_then(|r| rows.get(r))
                .map(|r| r.chars().collect())
                .unwrap_or_default();
            (0..width)
                .map(|col| {
                    usize::try_from(col - m.left)
                        .ok()
                        .and_then(|c| old.get(c).copied())
                        .unwrap_or(fill)
                })
                .collect()
        })
        .collect()
}

/// Moves the map's edges, roads, places and features by `shift` (a cell label to its new label,
/// `None` off the map): what falls off goes, a road is cut where it leaves the map.
fn move_map_items(map: &mut RawMap, shift: &dyn Fn(&str) -> Option<String>) {
    for group in &mut map.edges {
        group.between = group
            .between
            .iter()
            .filter_map(|(a, b)| Some((shift(a)?, shift(b)?)))
            .collect();
    }
    map.edges.retain(|e| !e.between.is_empty());
    map.roads = map
        .roads
        .iter()
        .flat_map(|road| {
            let mut pieces = vec![Vec::new()];
            for cell in road {
                match shift(cell) {
                    Some(c) => pieces.last_mut().expect("a piece").push(c),
                    None => pieces.push(Vec::new()),
                }
            }
            pieces.into_iter().filter(|p| p.len() >= 2)
        })
        .collect();
    map.places = map
        .places
        .iter()
        .filter_map(|(k, v)| Some((shift(k)?, v.clone())))
        .collect();
    map.features = map
        .features
        .iter()
        .filter_map(|(k, v)| Some((shift(k)?, v.clone())))
        .collect();
}
