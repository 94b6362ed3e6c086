//! A combat system's table as the CRT panel shows it (columns, rows, printed results), and where
//! a resolved combat landed on it: pure, so the panel, the combat lab and tests agree.

use super::dice::{Die, Roll};
use super::{ResultCode, TableCell};

/// A printed table: column labels across, row labels down, the result text in each cell.
#[derive(Clone, Debug, PartialEq)]
pub struct TableView {
    pub title: String,
    /// What the rows are (`die`, `3d6 + mods`, `hits`).
    pub row_header: String,
    pub columns: Vec<String>,
    pub rows: Vec<(String, Vec<String>)>,
    /// How to read it.
    pub note: String,
}

/// Where a combat read a table whose rows are die totals (the first row's label is its total):
/// the row of the last `combat` roll (or, with `sum`, of every `combat…` roll added) plus the
/// modifier, and the column the preview chose, unless a roll moved it (an accelerated effort):
/// then the column in that row printing this result.
pub fn landed_on_rows(
    view: &TableView,
    cell: Option<&TableCell>,
    rolls: &[Roll],
    code: &ResultCode,
    sum: bool,
) -> Vec<(usize, usize)> {
    let modifier = cell.map_or(0, |c| c.die_modifier);
    let column = cell.map_or(0, |c| c.column_index);
    let total: i32 = if sum {
        let mut combat = rolls.iter().filter(|r| r.purpose.starts_with("combat")).peekable();
        if combat.peek().is_none() {
            return Vec::new();
        }
        combat.map(|r| i32::from(r.face)).sum()
    } else {
        match rolls.iter().rev().find(|r| r.purpose == "combat") {
            Some(r) => i32::from(r.face),
            None => return Vec::new(),
        }
    };
    let (Some(first), count) = (view.rows.first(), view.rows.len()) else {
        return Vec::new();
    };
    let lowest: i32 = first.0.parse().unwrap_or(1);
    let row = (i64::from(total) + i64::from(modifier) - i64::from(lowest)).clamp(0, count as i64 - 1) as usize;
    let printed = code.to_string();
    let col = if view.rows[row].1.get(column).is_some_and(|t| *t == printed) {
        column
    } else {
        view.rows[row].1.iter().position(|t| *t == printed).unwrap_or(column)
    };
    vec![(row, col)]
}

/// Rommel's grid: each side's die column and the hits it scored.
pub fn landed_on_grid(rolls: &[Roll], code: &ResultCode) -> Vec<(usize, usize)> {
    let hits = match code {
        ResultCode::Hits { attacker, defender } => [*attacker, *defender],
        _ => return Vec::new(),
    };
    rolls
        .iter()
        .filter(|r| r.die == Die::D6)
        .zip(hits)
        .filter(|(_, h)| (1..=6).contains(h))
        .map(|(r, h)| ((6 - h) as usize, (r.face - 1) as usize))
        .collect()
}

pub fn odds_view<R>(title: &str, crt: &super::table::Table<R>) -> TableView {
    TableView {
        title: title.into(),
        row_header: "die".into(),
        columns: crt.labels.clone(),
        rows: crt
            .texts
            .iter()
            .enumerate()
            .map(|(i, row)| {
                (
                    (i as u8 + crt.lowest_face).to_string(),
                    row.iter().map(ToString::to_string).collect(),
                )
            })
            .collect(),
        note: format!(
            "Attacker's result / defender's result. Column by the odds{}, shifted by the modifiers.",
            if crt.odds.len() < crt.labels.len() {
                " (the last columns by shifts only)"
            } else {
                ""
            }
        ),
    }
}
