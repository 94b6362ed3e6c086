//! A data table's side of the combat-system contract: its table as printed, its result codes in
//! words, and the owners' choice of steps or retreat wherever a result code gives one.

use super::fight::{Prepared, assess, resolve};
use super::{Does, Raw, RawModifier, Rules, When, validate};
use crate::combat::dice::Roll;
use crate::combat::system::Variation;
use crate::combat::system::{OptionHelp, help};
use crate::combat::view::{TableView, landed_on_rows};
use crate::combat::{
    Assessment, AttackerOption, Choices, DefenderChoices, Refusal, ResultCode, RetreatOrSteps, Role, Situation,
    TableCell, WeighedDefense,
};
use crate::rules::units::counted;

/// What one `Does` does, in words.
pub fn does_text(d: &Does) -> String {
    match *d {
        Does::Steps(side, n) => format!("the {side} loses {}", counted(u64::from(n), "step", "steps")),
        Does::Factors(side, n) => format!(
            "the {side} loses at least {}",
            counted(u64::from(n), "factor", "factors")
        ),
        Does::Retreat(side, n) => format!("the {side} retreats {}", counted(u64::from(n), "hex", "hexes")),
        Does::Disorganized(side) => format!("the {side} is disorganized"),
        Does::Eliminated(side) => format!("the {side} is eliminated"),
        Does::Exchange => {
            "exchange: the defender is eliminated and the attacker loses at least as many attack factors".into()
        }
        Does::Choice { side, steps, hexes } => format!(
            "the {side}'s owner chooses: lose {} or retreat {}",
            counted(u64::from(steps), "step", "steps"),
            counted(u64::from(hexes), "hex", "hexes")
        ),
    }
}

/// A code's effects in words (`no effect` for none).
fn code_text(does: &[Does]) -> String {
    if does.is_empty() {
        return "no effect".into();
    }
    does.iter().map(does_text).collect::<Vec<_>>().join("; ")
}

/// A modifier's conditions in words (`the defenders' cell is woods and every attacker is across a
/// River`).
fn conditions_text(when: &[When]) -> String {
    fn one(w: &When) -> String {
        match w {
            When::Terrain(ids) => format!("the defenders' cell is {}", ids.join(" or ")),
            When::Across(f) => format!("every attacker attacks across a {f:?}"),
            When::AttackerKind(k) => format!("an attacker is {k:?}"),
            When::DefenderKind(k) => format!("a defender is {k:?}"),
            When::AttackerStatus(st) => format!("an attacker is {st:?}"),
            When::DefenderStatus(st) => format!("a defender is {st:?}"),
            When::Weather(w) => format!("the weather is {w:?}"),
            When::Fortified => "the defenders are fortified".into(),
            When::City => "the defenders are in a city".into(),
            When::Not(inner) => format!("not ({})", one(inner)),
        }
    }
    if when.is_empty() {
        return "always".into();
    }
    when.iter().map(one).collect::<Vec<_>>().join(" and ")
}

/// What a modifier does, in words.
fn modifier_text(m: &RawModifier) -> String {
    let mut parts = Vec::new();
    if m.shift != 0 {
        let toward = if m.shift > 0 { "attacker" } else { "defender" };
        parts.push(format!(
            "{} toward the {toward}",
            counted(u64::from(m.shift.unsigned_abs()), "column", "columns")
        ));
    }
    if m.die != 0 {
        parts.push(format!("{:+} to the roll", m.die));
    }
    if m.defense_times != 1 {
        parts.push(format!("the defense times {}", m.defense_times));
    }
    if parts.is_empty() {
        return "no effect".into();
    }
    parts.join("; ")
}

fn steps_instead(c: &mut Choices, side: Role) {
    match side {
        Role::Attacker => c.attacker_retreat = RetreatOrSteps::Steps,
        Role::Defender => c.defender_retreat = RetreatOrSteps::Steps,
    }
}

impl crate::combat::CombatSystem for Rules {
    fn name(&self) -> &'static str {
        "Data table"
    }
    fn assess(&self, s: &Situation) -> Result<Assessment, Refusal> {
        assess(self, s)
    }
    fn table_view(&self) -> TableView {
        TableView {
            title: self.raw.title.clone(),
            row_header: format!("{} + mods", self.dice_text()),
            columns: self.labels.clone(),
            rows: self
                .rows
                .iter()
                .enumerate()
                .map(|(i, row)| {
                    (
                        (self.lowest + i as i32).to_string(),
                        row.iter().map(ToString::to_string).collect(),
                    )
                })
                .collect(),
            note: format!(
                "Roll {} and add the modifiers; a total beyond the table reads its first or last row. {}",
                self.dice_text(),
                self.results
                    .iter()
                    .map(|(code, does)| format!("{code}: {}.", code_text(does)))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        }
    }
    fn landed(&self, cell: Option<&TableCell>, rolls: &[Roll], code: &ResultCode) -> Vec<(usize, usize)> {
        landed_on_rows(&self.table_view(), cell, rolls, code, true)
    }
    fn options_help(&self) -> Vec<OptionHelp> {
        let mut out = Vec::new();
        for (side, who) in [
            (Role::Defender, "the defender, with its answer to the result"),
            (Role::Attacker, "the attacker, with its attack"),
        ] {
            if self.has_choice(side) {
                out.push(help(
                    "Steps or retreat",
                    who,
                    "A result that leaves the choice is taken as the steps or as the retreat its code names; the owner picks which units lose the steps.",
                ));
            }
        }
        out.push(help(
            "Who takes losses first",
            "each owner (the defender with its answer)",
            "Step and factor losses fall on the units the owner names first, then on the cheapest steps.",
        ));
        for (code, does) in &self.results {
            out.push(OptionHelp {
                name: format!("Result {code}").into(),
                who: "the table".into(),
                text: code_text(does).into(),
            });
        }
        for m in &self.raw.modifiers {
            out.push(OptionHelp {
                name: format!("Modifier: {}", m.source).into(),
                who: format!("the rules, when {}", conditions_text(&m.when)).into(),
                text: modifier_text(m).into(),
            });
        }
        out
    }
    fn answer_variations<'a>(&'a self, _s: &'a Situation, _cells: u32) -> Vec<Variation<'a>> {
        if !self.has_choice(Role::Defender) {
            return Vec::new();
        }
        vec![Box::new(|c: &DefenderChoices| {
            vec![DefenderChoices {
                retreat: RetreatOrSteps::Steps,
                ..c.clone()
            }]
        })]
    }
    fn steps_answer(&self, cells: u32) -> Option<String> {
        Some(if cells > 0 {
            format!(
                "stay and lose the result's steps instead of retreating {}",
                counted(u64::from(cells), "hex", "hexes")
            )
        } else {
            "stay and lose the result's steps instead of retreating".into()
        })
    }
    fn alternatives(&self, _s: &Situation) -> Vec<(&'static str, fn(&mut Choices))> {
        let mut alts: Vec<(&'static str, fn(&mut Choices))> = Vec::new();
        if self.has_choice(Role::Defender) {
            alts.push(("defender retreats", |c| c.defender_retreat = RetreatOrSteps::Retreat));
            alts.push(("defender takes steps instead of retreating", |c| {
                steps_instead(c, Role::Defender)
            }));
        }
        if self.has_choice(Role::Attacker) {
            alts.push(("attacker retreats", |c| c.attacker_retreat = RetreatOrSteps::Retreat));
            alts.push(("attacker takes steps instead of retreating", |c| {
                steps_instead(c, Role::Attacker)
            }));
        }
        alts
    }
    fn defender_answers_hint(&self, _s: Option<&Situation>) -> Vec<&'static str> {
        if self.has_choice(Role::Defender) {
            vec!["steps or retreat, after the roll"]
        } else {
            Vec::new()
        }
    }
    fn attacker_options(&self) -> Vec<AttackerOption> {
        if self.has_choice(Role::Attacker) {
            vec![AttackerOption::RetreatAsSteps]
        } else {
            Vec::new()
        }
    }
    fn weighed_defenses(&self) -> Vec<WeighedDefense> {
        let mut out = vec![WeighedDefense::default()];
        if self.has_choice(Role::Defender) {
            out.push(WeighedDefense {
                no_retreat: false,
                answer: DefenderChoices {
                    retreat: RetreatOrSteps::Steps,
                    ..DefenderChoices::default()
                },
            });
        }
        out
    }
}

crate::combat::system::procedure_from_functions!(Prepared);
