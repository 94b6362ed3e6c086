//! Odds columns and table lookups shared by the odds-table combat systems.

use serde::{Deserialize, Serialize};

/// An odds column `attack:defense`, e.g. `3:2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ratio {
    pub attack: u32,
    pub defense: u32,
}

impl Ratio {
    /// Parses `3:2`.
    pub fn parse(text: &str) -> Result<Ratio, String> {
        let bad = || format!("`{text}` is not an odds column: write `attack:defense`, e.g. `3:2`");
        let (a, d) = text.split_once(':').ok_or_else(bad)?;
        let attack: u32 = a.trim().parse().map_err(|_| bad())?;
        let defense: u32 = d.trim().parse().map_err(|_| bad())?;
        if attack == 0 || defense == 0 {
            return Err(bad());
        }
        Ok(Ratio { attack, defense })
    }

    /// Whether `attack` vs `defense` reaches this column.
    pub fn reached_by(self, attack: u64, defense: u64) -> bool {
        attack * u64::from(self.defense) >= defense * u64::from(self.attack)
    }
}

/// The highest column the totals reach, rounding in the defender's favour; `None` below the
/// lowest. A defense of zero reaches the highest column.
pub fn odds_column(columns: &[Ratio], attack: u64, defense: u64) -> Option<usize> {
    if defense == 0 {
        return columns.len().checked_sub(1);
    }
    columns.iter().rposition(|c| c.reached_by(attack, defense))
}

/// `13 : 5`, reduced to a whole or halved ratio for display.
pub fn ratio_text(attack: f64, defense: f64) -> String {
    if defense <= 0.0 {
        return format!("{attack} vs 0");
    }
    let r = attack / defense;
    if r >= 1.0 {
        format!("{attack} : {defense} = {:.2}:1", r)
    } else {
        format!("{attack} : {defense} = 1:{:.2}", 1.0 / r)
    }
}

/// Applies a net column shift, clamped to the table.
pub fn shifted(index: usize, shift: i32, columns: usize) -> usize {
    (index as i64 + i64::from(shift)).clamp(0, columns as i64 - 1) as usize
}

use super::dice::Die;
use crate::source::{LoadError, Source};

/// An odds table as written in a ruleset: column labels, optional odds for them, and one row of
/// results per die face.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    pub die: Die,
    /// Column labels, lowest odds first.
    pub columns: Vec<String>,
    /// The odds each of the first columns stands for, when the labels are not odds themselves
    /// (Next War numbers its columns; the last ones are reached only by shifts).
    #[serde(default)]
    pub odds: Vec<String>,
    pub rows: Vec<RawRow>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRow {
    pub roll: u8,
    pub results: Vec<String>,
}

/// A validated table: `cells[face - lowest][column]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Table<R> {
    pub die: Die,
    pub labels: Vec<String>,
    pub odds: Vec<Ratio>,
    pub lowest_face: u8,
    pub cells: Vec<Vec<R>>,
    /// The result as printed, for the panels and `ResultCode`.
    pub texts: Vec<Vec<std::sync::Arc<str>>>,
}

impl<R> Table<R> {
    /// Where a combat lands on this table: the shifted column and the one before shifts.
    pub fn cell(&self, base: usize, column: usize, die_modifier: i32) -> super::TableCell {
        super::TableCell {
            column: self.labels[column].clone(),
            column_index: column,
            base_column: self.labels[base].clone(),
            base_index: base,
            die_modifier,
        }
    }

    pub fn get(&self, face: u8, column: usize) -> (&R, &std::sync::Arc<str>) {
        let row = (face - self.lowest_face) as usize;
        (&self.cells[row][column], &self.texts[row][column])
    }

    /// Parses and checks a table: every face once, every row as wide as the columns, each
    /// result readable by `parse`.
    pub fn from_raw(
        src: &Source,
        field: &str,
        raw: &RawTable,
        parse: impl Fn(&str) -> Result<R, String>,
    ) -> Result<Table<R>, LoadError> {
        if raw.columns.is_empty() {
            return Err(src.error(format!("{field}.columns"), "a table needs at least one column"));
        }
        let odds_texts = if raw.odds.is_empty() { &raw.columns } else { &raw.odds };
        if odds_texts.len() > raw.columns.len() {
            return Err(src.error(format!("{field}.odds"), "more odds than columns"));
        }
        let mut odds: Vec<Ratio> = Vec::new();
        for (i, text) in odds_texts.iter().enumerate() {
            let r = Ratio::parse(text).map_err(|m| {
                let list = if raw.odds.is_empty() { "columns" } else { "odds" };
                src.error(format!("{field}.{list}[{i}]"), m)
            })?;
            if let Some(prev) = odds.last()
                && u64::from(r.attack) * u64::from(prev.defense) <= u64::from(prev.attack) * u64::from(r.defense)
            {
                return Err(src.error(
                    format!("{field}.odds[{i}]"),
                    format!("`{text}` must be higher odds than the column before it"),
                ));
            }
            odds.push(r);
        }
        let faces: Vec<u8> = raw.die.faces().collect();
        let lowest_face = faces[0];
        let mut cells: Vec<Option<Vec<R>>> = faces.iter().map(|_| None).collect();
        let mut texts: Vec<Vec<std::sync::Arc<str>>> = faces.iter().map(|_| Vec::new()).collect();
        for (i, row) in raw.rows.iter().enumerate() {
            let rf = format!("{field}.rows[{i}]");
            if !raw.die.has_face(row.roll) {
                return Err(src.error(
                    format!("{rf}.roll"),
                    format!("a {:?} cannot roll {}", raw.die, row.roll),
                ));
            }
            let slot = (row.roll - lowest_face) as usize;
            if cells[slot].is_some() {
                return Err(src.error(format!("{rf}.roll"), format!("roll {} has two rows", row.roll)));
            }
            if row.results.len() != raw.columns.len() {
                return Err(src.error(
                    format!("{rf}.results"),
                    format!(
                        "roll {} has {} results but the table has {} columns",
                        row.roll,
                        row.results.len(),
                        raw.columns.len()
                    ),
                ));
            }
            let mut parsed = Vec::new();
            for (c, text) in row.results.iter().enumerate() {
                parsed.push(parse(text).map_err(|m| {
                    src.error(
                        format!("{rf}.results[{c}]"),
                        format!("roll {}, column {}: {m}", row.roll, raw.columns[c]),
                    )
                })?);
            }
            texts[slot] = row.results.iter().map(|t| std::sync::Arc::from(t.as_str())).collect();
            cells[slot] = Some(parsed);
        }
        let mut full = Vec::new();
        for (slot, row) in cells.into_iter().enumerate() {
            full.push(
                row.ok_or_else(|| src.error(format!("{field}.rows"), format!("no row for roll {}", faces[slot])))?,
            );
        }
        Ok(Table {
            die: raw.die,
            labels: raw.columns.clone(),
            odds,
            lowest_face,
            cells: full,
            texts,
        })
    }
}
