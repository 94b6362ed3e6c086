//! A combat system written in data alone: odds or differential columns, dice written `NdM`, the
//! modifiers (column shifts, die modifiers, defense multiples) with the conditions they apply
//! under (terrain, edges, unit kinds, statuses, weather), and result codes with what each does
//! (steps or factors lost, a retreat, disorganized, eliminated, exchange, the owner's choice of
//! steps or retreat). A designer writes a new table in a ruleset file; no Rust changes.

mod contract;
mod fight;

pub use fight::Prepared;

use super::context::Context;
use super::table::{Ratio, odds_column, ratio_text};
use super::{Role, Situation, Weather, dice::Die};
use crate::rules::terrain::{EdgeFeature, TerrainId};
use crate::rules::units::{UnitClass, UnitStatus};
use crate::source::LoadError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The `DataTable(...)` section of a ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raw {
    /// The table's title on the CRT panel.
    pub title: String,
    /// How a combat finds its column, lowest first.
    pub columns: Columns,
    /// The dice: `1d6`, `2d6`, `3d6`, `1d10`, `2d10`, `3d10` (a d10 reads 0-9; `d6` is `1d6`).
    pub dice: String,
    /// One row per modified total; a total beyond the first or last row reads that row.
    pub rows: Vec<RawRow>,
    /// What each result code does, in order.
    pub results: BTreeMap<String, Vec<Does>>,
    #[serde(default)]
    pub modifiers: Vec<RawModifier>,
    /// Odds or a difference below the first column: refused (the default) or read on it.
    #[serde(default)]
    pub below_lowest: BelowLowest,
    /// Hexes the attackers may advance into a cell the defenders gave up (0: none).
    #[serde(default = "one")]
    pub advance: u32,
    /// Units under these markers may not attack.
    #[serde(default)]
    pub may_not_attack: Vec<UnitStatus>,
}

fn one() -> u32 {
    1
}

/// How the columns are reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Columns {
    /// Odds `attack:defense`, rounded in the defender's favour: `["1:2", "1:1", "2:1"]`.
    Odds(Vec<String>),
    /// Attack minus defense: each column is reached from its number up, `[-3, 0, 2, 4]`.
    Differential(Vec<i32>),
}

/// What an attack below the first column does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BelowLowest {
    #[default]
    Refused,
    ReadsLowest,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRow {
    /// The modified total this row is read for.
    pub roll: i32,
    /// One result code per column.
    pub results: Vec<String>,
}

/// One thing a result code does to one side (or both, for an exchange).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Does {
    /// The side loses this many steps (its owner picks which).
    Steps(Role, u32),
    /// The side loses steps until it has lost at least this many combat factors.
    Factors(Role, u32),
    /// The side's surviving units retreat this many hexes.
    Retreat(Role, u32),
    /// The side's surviving units are disorganized.
    Disorganized(Role),
    /// Every unit of the side is eliminated.
    Eliminated(Role),
    /// The defenders are eliminated; the attackers lose at least as many attack factors as the
    /// defenders lost defense factors.
    Exchange,
    /// The side's owner chooses: lose `steps` steps, or retreat `hexes` hexes.
    Choice { side: Role, steps: u32, hexes: u32 },
}

/// A modifier of the table: what it does when all its conditions hold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawModifier {
    /// Its name on the panels (`defender in woods`).
    pub source: String,
    pub when: Vec<When>,
    /// Columns toward the attacker (negative: toward the defender).
    #[serde(default)]
    pub shift: i32,
    /// Added to the attacker's roll.
    #[serde(default)]
    pub die: i32,
    /// The whole defense multiplied (2: doubled).
    #[serde(default = "one")]
    pub defense_times: u32,
}

/// A condition a modifier applies under, its terrains named in the file (`When`) or by id once
/// validated (`Condition`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum When<T = String> {
    /// The defenders' cell is one of these terrains.
    Terrain(Vec<T>),
    /// Every attacker attacks across this edge feature (a bridge over water cancels it).
    Across(EdgeFeature),
    AttackerKind(UnitClass),
    DefenderKind(UnitClass),
    AttackerStatus(UnitStatus),
    DefenderStatus(UnitStatus),
    Weather(Weather),
    Fortified,
    City,
    Not(Box<When<T>>),
}

/// A validated condition: terrain ids instead of names.
pub type Condition = When<TerrainId>;

impl Condition {
    pub fn holds(&self, s: &Situation) -> bool {
        match self {
            Condition::Terrain(ids) => ids.contains(&s.terrain),
            Condition::Across(f) => s
                .attackers
                .iter()
                .all(|u| u.crosses(*f) && !(f.is_water() && u.crosses(EdgeFeature::Bridge))),
            Condition::AttackerKind(k) => s.attackers.iter().any(|u| u.class == *k),
            Condition::DefenderKind(k) => s.defenders.iter().any(|u| u.class == *k),
            Condition::AttackerStatus(st) => s.attackers.iter().any(|u| u.statuses.has(*st)),
            Condition::DefenderStatus(st) => s.defenders.iter().any(|u| u.statuses.has(*st)),
            Condition::Weather(w) => s.weather == *w,
            Condition::Fortified => s.conditions.fortified,
            Condition::City => s.conditions.city.is_some(),
            Condition::Not(c) => !c.holds(s),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableModifier {
    pub source: String,
    pub when: Vec<Condition>,
    pub shift: i32,
    pub die: i32,
    pub defense_times: u32,
}

/// Validated columns.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnRule {
    Odds(Vec<Ratio>),
    Differential(Vec<i32>),
}

impl ColumnRule {
    /// The column `attack` against `defense` reaches, `None` below the first.
    pub fn column(&self, attack: u64, defense: u64) -> Option<usize> {
        match self {
            ColumnRule::Odds(ratios) => odds_column(ratios, attack, defense),
            ColumnRule::Differential(from) => {
                let diff = i128::from(attack) - i128::from(defense);
                from.iter().rposition(|&f| i128::from(f) <= diff)
            }
        }
    }

    /// The totals in words: `13 : 5 = 2.60:1` or `13 - 5 = +8`.
    pub fn ratio(&self, attack: u64, defense: u64) -> String {
        match self {
            ColumnRule::Odds(_) => ratio_text(attack as f64, defense as f64),
            ColumnRule::Differential(_) => {
                format!("{attack} - {defense} = {:+}", i128::from(attack) - i128::from(defense))
            }
        }
    }
}

/// Validated data-table combat rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub raw: Raw,
    pub columns: ColumnRule,
    pub labels: Vec<String>,
    pub dice_count: u8,
    pub die: Die,
    /// The first row's total; `rows[total - lowest][column]`.
    pub lowest: i32,
    pub rows: Vec<Vec<Arc<str>>>,
    pub results: BTreeMap<Arc<str>, Vec<Does>>,
    pub modifiers: Vec<TableModifier>,
    /// Whether a code the rows use leaves the attacker's, the defender's owner a choice.
    choices: [bool; 2],
}

impl Rules {
    /// The row a modified total reads (clamped to the table).
    pub fn row(&self, total: i32) -> usize {
        (i64::from(total) - i64::from(self.lowest)).clamp(0, self.rows.len() as i64 - 1) as usize
    }

    /// Whether a result the table can give leaves `side`'s owner the choice of steps or retreat.
    pub fn has_choice(&self, side: Role) -> bool {
        self.choices[side as usize]
    }

    /// The dice in words, `2d6`.
    pub fn dice_text(&self) -> String {
        format!("{}d{}", self.dice_count, self.die.sides())
    }
}

/// Bounds on what a table may say, so no sum overflows and no retreat runs off the map.
const MAX_MODIFIER: i32 = 20;
const MAX_TIMES: u32 = 10;
const MAX_MODIFIERS: usize = 200;
const MAX_HEXES: u32 = 10;
const MAX_LOSS: u32 = 100;
const MAX_ROWS: usize = 200;
const MAX_COLUMNS: usize = 100;
const MAX_TOTAL: i32 = 1_000;

/// Why `d` is not a result a table may give.
fn check_does(d: &Does) -> Result<(), String> {
    let (loss, hexes) = match *d {
        Does::Steps(_, n) | Does::Factors(_, n) => (Some(n), None),
        Does::Retreat(_, n) => (None, Some(n)),
        Does::Choice { steps, hexes, .. } => (Some(steps), Some(hexes)),
        Does::Disorganized(_) | Does::Eliminated(_) | Does::Exchange => (None, None),
    };
    match (loss, hexes) {
        (Some(0), _) | (_, Some(0)) => Err("a loss or retreat of 0 does nothing; leave it out".into()),
        (Some(n), _) if n > MAX_LOSS => Err(format!("at most {MAX_LOSS} steps or factors")),
        (_, Some(n)) if n > MAX_HEXES => Err(format!("a retreat of at most {MAX_HEXES} hexes")),
        _ => Ok(()),
    }
}

/// Reads `2d6`: one to three six- or ten-sided dice.
pub fn parse_dice(text: &str) -> Result<(u8, Die), String> {
    let bad = || format!("`{text}` is not dice this table can roll: write 1d6, 2d6, 3d6, 1d10, 2d10 or 3d10");
    let lower = text.trim().to_ascii_lowercase();
    let (n, m) = lower.split_once('d').ok_or_else(bad)?;
    let count: u8 = if n.is_empty() { 1 } else { n.parse().map_err(|_| bad())? };
    let die = match m {
        "6" => Die::D6,
        "10" => Die::D10,
        _ => return Err(bad()),
    };
    if !(1..=3).contains(&count) {
        return Err(bad());
    }
    Ok((count, die))
}

fn condition(cx: &Context, field: &str, w: &When) -> Result<Condition, LoadError> {
    Ok(match w {
        When::Terrain(ids) => Condition::Terrain(cx.terrain_list(field, ids)?),
        When::Across(f) => Condition::Across(*f),
        When::AttackerKind(k) => Condition::AttackerKind(*k),
        When::DefenderKind(k) => Condition::DefenderKind(*k),
        When::AttackerStatus(s) => Condition::AttackerStatus(*s),
        When::DefenderStatus(s) => Condition::DefenderStatus(*s),
        When::Weather(w) => Condition::Weather(*w),
        When::Fortified => Condition::Fortified,
        When::City => Condition::City,
        When::Not(inner) => Condition::Not(Box::new(condition(cx, field, inner)?)),
    })
}

fn columns(cx: &Context, raw: &Columns) -> Result<(ColumnRule, Vec<String>), LoadError> {
    match raw {
        Columns::Odds(texts) => {
            let mut ratios: Vec<Ratio> = Vec::new();
            for (i, text) in texts.iter().enumerate() {
                let r = Ratio::parse(text).map_err(|m| cx.src.error(format!("combat.columns[{i}]"), m))?;
                if let Some(prev) = ratios.last()
                    && u64::from(r.attack) * u64::from(prev.defense) <= u64::from(prev.attack) * u64::from(r.defense)
                {
                    return Err(cx.src.error(
                        format!("combat.columns[{i}]"),
                        format!("`{text}` must be higher odds than the column before it"),
                    ));
                }
                ratios.push(r);
            }
            Ok((ColumnRule::Odds(ratios), texts.clone()))
        }
        Columns::Differential(from) => {
            if let Some(i) = (1..from.len()).find(|&i| from[i] <= from[i - 1]) {
                return Err(cx.src.error(
                    format!("combat.columns[{i}]"),
                    format!("{} must be higher than the column before it ({})", from[i], from[i - 1]),
                ));
            }
            Ok((
                ColumnRule::Differential(from.clone()),
                from.iter().map(|f| format!("{f:+}")).collect(),
            ))
        }
    }
}

/// Checks the rows: one per total, no gaps, every total the dice can roll, each as wide as the
/// columns, every code defined in `results`.
fn rows(cx: &Context, raw: &Raw, width: usize, count: u8, die: Die) -> Result<(i32, Vec<Vec<Arc<str>>>), LoadError> {
    if raw.rows.len() > MAX_ROWS || width > MAX_COLUMNS {
        return Err(cx.src.error(
            "combat.rows",
            format!("at most {MAX_ROWS} rows of {MAX_COLUMNS} columns"),
        ));
    }
    if let Some((i, r)) = raw.rows.iter().enumerate().find(|(_, r)| r.roll.abs() > MAX_TOTAL) {
        return Err(cx.src.error(
            format!("combat.rows[{i}].roll"),
            format!("{} is out of range: totals run -{MAX_TOTAL} to {MAX_TOTAL}", r.roll),
        ));
    }
    let mut sorted: Vec<(usize, &RawRow)> = raw.rows.iter().enumerate().collect();
    sorted.sort_by_key(|(_, r)| r.roll);
    let first = sorted
        .first()
        .map(|(_, r)| r.roll)
        .ok_or_else(|| cx.src.error("combat.rows", "the table has no rows"))?;
    let faces = die.faces();
    let (low, high) = (
        i32::from(count) * i32::from(*faces.start()),
        i32::from(count) * i32::from(*faces.end()),
    );
    let mut out = Vec::new();
    for (k, (i, row)) in sorted.iter().enumerate() {
        let field = format!("combat.rows[{i}]");
        if row.roll != first + k as i32 {
            let what = if row.roll == first + k as i32 - 1 {
                "has two rows"
            } else {
                "leaves a gap before it"
            };
            return Err(cx.src.error(
                format!("{field}.roll"),
                format!("total {} {what}: one row per total", row.roll),
            ));
        }
        if row.results.len() != width {
            return Err(cx.src.error(
                format!("{field}.results"),
                format!(
                    "total {} has {} results but the table has {width} columns",
                    row.roll,
                    row.results.len()
                ),
            ));
        }
        if let Some((c, code)) = row
            .results
            .iter()
            .enumerate()
            .find(|(_, c)| !raw.results.contains_key(c.as_str()))
        {
            return Err(cx.src.error(
                format!("{field}.results[{c}]"),
                format!(
                    "`{code}` is not a result this table defines: it defines {}",
                    crate::source::list(raw.results.keys())
                ),
            ));
        }
        out.push(row.results.iter().map(|t| Arc::from(t.as_str())).collect());
    }
    let last = first + out.len() as i32 - 1;
    if first > low || last < high {
        return Err(cx.src.error(
            "combat.rows",
            format!(
                "the rows run {first}..{last} but {} rolls {low}..{high}: every total needs a row",
                raw.dice
            ),
        ));
    }
    Ok((first, out))
}

pub fn validate(cx: &Context, raw: &Raw) -> Result<Rules, LoadError> {
    let (count, die) = parse_dice(&raw.dice).map_err(|m| cx.src.error("combat.dice", m))?;
    let (columns, labels) = columns(cx, &raw.columns)?;
    if labels.is_empty() {
        return Err(cx.src.error("combat.columns", "a table needs at least one column"));
    }
    let (lowest, rows) = rows(cx, raw, labels.len(), count, die)?;
    for (code, does) in &raw.results {
        for d in does {
            check_does(d).map_err(|m| cx.src.error(format!("combat.results.{code}"), format!("{d:?}: {m}")))?;
        }
    }
    if raw.advance > MAX_HEXES {
        return Err(cx.src.error(
            "combat.advance",
            format!("at most {MAX_HEXES} hexes, not {}", raw.advance),
        ));
    }
    if raw.modifiers.len() > MAX_MODIFIERS {
        return Err(cx
            .src
            .error("combat.modifiers", format!("at most {MAX_MODIFIERS} modifiers")));
    }
    let modifiers = raw
        .modifiers
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let field = |f: &str| format!("combat.modifiers[{i}].{f}");
            if !(1..=MAX_TIMES).contains(&m.defense_times) {
                return Err(cx.src.error(
                    field("defense_times"),
                    format!("a defense multiple runs 1 to {MAX_TIMES}"),
                ));
            }
            for (name, n) in [("shift", m.shift), ("die", m.die)] {
                if n.abs() > MAX_MODIFIER {
                    return Err(cx.src.error(
                        field(name),
                        format!("{n} is out of range: at most {MAX_MODIFIER} either way"),
                    ));
                }
            }
            Ok(TableModifier {
                source: m.source.clone(),
                when: m
                    .when
                    .iter()
                    .enumerate()
                    .map(|(k, w)| condition(cx, &format!("combat.modifiers[{i}].when[{k}]"), w))
                    .collect::<Result<_, _>>()?,
                shift: m.shift,
                die: m.die,
                defense_times: m.defense_times,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let used: std::collections::BTreeSet<&Arc<str>> = rows.iter().flatten().collect();
    let chooses = |side: Role| {
        used.iter()
            .filter_map(|code| raw.results.get(code.as_ref()))
            .flatten()
            .any(|d| matches!(d, Does::Choice { side: s, .. } if *s == side))
    };
    let choices = [chooses(Role::Attacker), chooses(Role::Defender)];
    Ok(Rules {
        choices,
        columns,
        labels,
        dice_count: count,
        die,
        lowest,
        rows,
        results: raw
            .results
            .iter()
            .map(|(k, v)| (Arc::from(k.as_str()), v.clone()))
            .collect(),
        modifiers,
        raw: raw.clone(),
    })
}
