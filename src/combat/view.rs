//! A combat system's table as the CRT panel shows it (columns, rows, printed results), and where
//! a resolved combat landed on it: pure, so the panel, the combat lab and tests agree.

use super::dice::{Die, Roll};
use super::rules::CombatRules;
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

impl CombatRules {
    /// The whole combat table of this system.
    pub fn table_view(&self) -> TableView {
        match self {
            CombatRules::KillingGround(r) => odds_view("Killing Ground CRT", &r.crt),
            CombatRules::WarAgainstRussia(r) => odds_view("War Against Russia CRT", &r.crt),
            CombatRules::NextWar(r) => odds_view("Next War CRT", &r.crt),
            CombatRules::SmallGeneral(r) => TableView {
                title: "Small General combat table".into(),
                row_header: "3d6 + mods".into(),
                columns: vec!["result".into()],
                rows: r
                    .rows
                    .iter()
                    .enumerate()
                    .map(|(i, (text, _))| ((i + 3).to_string(), vec![text.to_string()]))
                    .collect(),
                note: "Roll 3d6 and add the modifiers; below 3 reads 3, above 18 reads 18.".into(),
            },
            CombatRules::Rommel(r) => TableView {
                title: "Rommel combat grid".into(),
                row_header: "hits".into(),
                columns: (1..=6).map(|f| format!("die {f}")).collect(),
                rows: (0..6)
                    .map(|k| ((6 - k).to_string(), (0..6).map(|d| r.grid[d][k].to_string()).collect()))
                    .collect(),
                note: "Each side rolls a die: its strength scores every hit whose box it reaches in that die's column."
                    .into(),
            },
        }
    }

    /// The cells a resolved combat landed on: `(row, column)` in `table_view()`.
    pub fn landed(&self, cell: Option<&TableCell>, rolls: &[Roll], code: &ResultCode) -> Vec<(usize, usize)> {
        let view = self.table_view();
        let modifier = cell.map_or(0, |c| c.die_modifier);
        let column = cell.map_or(0, |c| c.column_index);
        match self {
            CombatRules::Rommel(_) => {
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
            CombatRules::SmallGeneral(_) => {
                let sum: i32 = rolls
                    .iter()
                    .filter(|r| r.purpose.starts_with("combat"))
                    .map(|r| i32::from(r.face))
                    .sum();
                if sum == 0 {
                    return Vec::new();
                }
                vec![(((sum + modifier).clamp(3, 18) - 3) as usize, 0)]
            }
            _ => {
                let Some(roll) = rolls.iter().rev().find(|r| r.purpose == "combat") else {
                    return Vec::new();
                };
                let (lowest, count) = match self {
                    CombatRules::NextWar(r) => (r.crt.lowest_face, r.crt.cells.len()),
                    CombatRules::KillingGround(r) => (r.crt.lowest_face, r.crt.cells.len()),
                    CombatRules::WarAgainstRussia(r) => (r.crt.lowest_face, r.crt.cells.len()),
                    _ => (1, 6),
                };
                let row = (i32::from(roll.face) + modifier - i32::from(lowest)).clamp(0, count as i32 - 1) as usize;
                // The column the result was read in: the preview's, unless a roll moved it (an
                // accelerated effort): then the column in that row printing this result.
                let printed = code.to_string();
                let col = if view.rows[row].1.get(column).is_some_and(|t| *t == printed) {
                    column
                } else {
                    view.rows[row].1.iter().position(|t| *t == printed).unwrap_or(column)
                };
                vec![(row, col)]
            }
        }
    }
}

fn odds_view<R>(title: &str, crt: &super::table::Table<R>) -> TableView {
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
