//! Combat as pure functions: a `Situation` (who fights where, with what support) is assessed into
//! modifiers and a table cell, then resolved with dice into an `Outcome`. The game's systems, the
//! exact preview (`odds`) and the command-line combat lab all call these same functions.

pub mod answers;
pub mod context;
pub mod data_table;
pub mod dice;
pub mod killing_ground;
mod losses;
pub mod next_war;
pub mod odds;
pub mod options;
pub mod reference;
pub mod report;
mod result;
pub mod rommel;
pub mod rules;
pub mod situation;
pub mod small_general;
pub mod system;
mod table;
pub mod view;
pub mod war_against_russia;

pub use dice::{Dice, DiceSource, Die, NeedDie, Roll};
pub use odds::{Odds, odds};
pub use options::{AttackerOption, OptionTaken, Taken};
pub use result::*;
use rules::ModelState;
pub use rules::{CombatRules, RawCombat};
pub use situation::*;
pub use system::{CombatSystem, Procedure, WeighedDefense};

use serde::Serialize;
use std::fmt;

/// What a modifier does.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Effect {
    /// Columns on an odds table (+ toward the attacker).
    ColumnShift(i32),
    /// Added to the die roll.
    DieModifier(i32),
    /// Boxes on Rommel's grid for the side named by the modifier.
    HitShift(i32),
    Doubled {
        unit: String,
    },
    Halved {
        unit: String,
    },
    /// Defense factors added to a unit (or the stack when `unit` is empty).
    DefensePlus {
        unit: String,
        amount: u32,
    },
    /// The whole defense multiplied.
    DefenseTimes(u32),
    /// Barrage value added.
    Barrage {
        unit: String,
        value: u32,
    },
    ShootsFirst,
    /// Applies, but changes the results rather than a number (e.g. overrun, no retreat).
    ResultChange(String),
    /// Was played or claimed but does nothing here, and why.
    Wasted(String),
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::ColumnShift(n) => write!(f, "{n:+} column{}", if n.abs() == 1 { "" } else { "s" }),
            Effect::DieModifier(n) => write!(f, "{n:+} to the roll"),
            Effect::HitShift(n) => write!(f, "{n:+} shift{}", if n.abs() == 1 { "" } else { "s" }),
            Effect::Doubled { unit } => write!(f, "{unit} doubled"),
            Effect::Halved { unit } => write!(f, "{unit} halved"),
            Effect::DefensePlus { unit, amount } if unit.is_empty() => write!(f, "+{amount} defense"),
            Effect::DefensePlus { unit, amount } => write!(f, "+{amount} defense for {unit}"),
            Effect::DefenseTimes(n) => write!(f, "defense x{n}"),
            Effect::Barrage { unit, value } => write!(f, "barrage +{value} from {unit}"),
            Effect::ShootsFirst => f.write_str("shoots first"),
            Effect::ResultChange(what) => f.write_str(what),
            Effect::Wasted(why) => write!(f, "no effect: {why}"),
        }
    }
}

/// One modifier with its source, for the panels and the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Modifier {
    /// The side it helps or hurts: a column shift or die modifier is for the attacker's roll, a
    /// Rommel hit shift is for this side's own grid.
    pub side: Role,
    pub source: String,
    pub effect: Effect,
}

impl fmt::Display for Modifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.side, self.effect, self.source)
    }
}

/// An attack the rules do not allow, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refusal(pub String);

/// Where on the table a combat lands, before the dice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableCell {
    /// The column's label (`3:1`, `+4`, die `5`), after shifts.
    pub column: String,
    pub column_index: usize,
    /// The column before shifts, for the panel's arrow.
    pub base_column: String,
    pub base_index: usize,
    /// A die modifier added to the roll (0 if none).
    pub die_modifier: i32,
}

/// A combat assessed: totals, modifiers and the table column, ready for the dice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assessment {
    pub attack_total: f64,
    pub defense_total: f64,
    /// The odds ratio or differential in words (`20 vs 3`, `13:5 = 2:1`).
    pub ratio: String,
    pub cell: Option<TableCell>,
    pub modifiers: Vec<Modifier>,
    #[serde(skip)]
    state: ModelState,
}

/// The narrative of a resolution; empty while enumerating.
pub struct Log {
    on: bool,
    lines: Vec<String>,
}

impl Log {
    fn new(on: bool) -> Self {
        Self { on, lines: Vec::new() }
    }
    fn say(&mut self, line: impl FnOnce() -> String) {
        if self.on {
            self.lines.push(line());
        }
    }
}

/// Column shifts a designer or event gave either side (`extra`), added to `mods`; their sum.
fn extra_column_shifts(s: &Situation, mods: &mut Vec<Modifier>) -> i32 {
    let mut shift = 0;
    for x in s.attack.extra.iter().chain(&s.defense.extra) {
        if let ExtraEffect::ColumnShift(n) = x.effect {
            shift += n;
            mods.push(Modifier {
                side: Role::Attacker,
                source: x.source.clone(),
                effect: Effect::ColumnShift(n),
            });
        }
    }
    shift
}

/// Assesses a combat: refuses illegal attacks, lists every modifier and finds the table cell.
pub fn assess(rules: &CombatRules, s: &Situation) -> Result<Assessment, Refusal> {
    if s.attackers.is_empty() {
        return Err(Refusal("an attack needs at least one attacking unit".into()));
    }
    if s.defenders.is_empty() {
        return Err(Refusal(
            "there is nothing to attack: the defending cell holds no units".into(),
        ));
    }
    if let Some(u) = s.attackers.iter().chain(&s.defenders).find(|u| u.steps.is_eliminated()) {
        return Err(Refusal(format!("{} has no steps left and cannot fight", u.name)));
    }
    rules.system().assess(s)
}

/// Resolves an assessed combat with `dice`; the one function behind the game, the preview and the
/// combat lab. `NeedDie` only comes from a dice source without an RNG (the preview's branches).
pub fn resolve(
    rules: &CombatRules,
    s: &Situation,
    a: &Assessment,
    choices: &Choices,
    dice: &mut impl DiceSource,
) -> Result<(CombatResult, Vec<String>), NeedDie> {
    let mut log = Log::new(dice.narrate());
    let result = rules.resolve_prepared(s, &a.state, choices, dice, &mut log)?;
    Ok((result, log.lines))
}

/// Assesses and resolves in one call with a full dice source (game and `hexfront resolve`).
pub fn fight(rules: &CombatRules, s: &Situation, dice: &mut Dice<'_>) -> Result<(Assessment, Outcome), Refusal> {
    let a = assess(rules, s)?;
    let (result, log) = resolve(rules, s, &a, &s.choices, dice).map_err(|need| {
        Refusal(format!(
            "the resolution needs another {:?} and none was given",
            need.die
        ))
    })?;
    dice.check().map_err(|e| Refusal(e.to_string()))?;
    Ok((
        a,
        Outcome {
            result,
            rolls: dice.rolls.clone(),
            log,
        },
    ))
}
