//! The exact outcome preview: every die the resolution asks for is branched over all its faces,
//! through the same `resolve` the game uses, and equal results are grouped with their exact
//! probability. Owner's choices (retreat or take steps, evade, exchange, hold) are previewed as
//! branches.

use super::{
    Assessment, Choices, CombatResult, CombatRules, DefenderChoices, Dice, NeedDie, Refusal, Situation, assess, resolve,
};
use serde::Serialize;
use std::fmt;

/// An exact probability `num/den`, kept reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Fraction {
    pub num: u128,
    pub den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Fraction {
    pub const ZERO: Fraction = Fraction { num: 0, den: 1 };
    pub const ONE: Fraction = Fraction { num: 1, den: 1 };

    pub fn new(num: u128, den: u128) -> Self {
        let g = gcd(num, den).max(1);
        Self {
            num: num / g,
            den: den / g,
        }
    }
    pub fn plus(self, other: Fraction) -> Fraction {
        let g = gcd(self.den, other.den).max(1);
        let den = self.den / g * other.den;
        Fraction::new(self.num * (other.den / g) + other.num * (self.den / g), den)
    }
    pub fn divided_by(self, n: u128) -> Fraction {
        Fraction::new(self.num, self.den * n)
    }
    pub fn as_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// One distinct result and how likely it is.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutcomeOdds {
    pub result: CombatResult,
    pub probability: f64,
    pub exact: Fraction,
    /// The first dice found that lead here (for `--dice`).
    pub example_dice: Vec<u8>,
    /// The defender's answers to this result, when it has two or more that lead to different
    /// results (filled in by `answers::odds_with_answers`; empty elsewhere).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<AnswerOption>,
}

/// One answer of the defender and where it leads.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnswerOption {
    pub choices: DefenderChoices,
    /// The answer in words (`take 2 steps instead of retreating`).
    pub label: String,
    /// Its results, most likely first; one, unless the answer rolls again (a hold check).
    pub outcomes: Vec<OutcomeOdds>,
    pub summary: Summary,
}

/// What to expect of a combat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub expected_attacker_steps: f64,
    pub expected_defender_steps: f64,
    pub p_defender_eliminated: f64,
    pub p_attacker_eliminated: f64,
    pub p_cell_taken: f64,
    /// The chance that the attackers retreat (or some of them).
    pub p_attacker_retreats: f64,
}

/// An owner's choice and where it leads.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Branch {
    pub choice: String,
    pub choices: Choices,
    pub summary: Summary,
}

/// The full preview.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Odds {
    pub assessment: Assessment,
    /// Most likely first.
    pub outcomes: Vec<OutcomeOdds>,
    pub summary: Summary,
    /// The same combat under each alternative choice.
    pub branches: Vec<Branch>,
}

/// The most dice one resolution may roll (the deepest rule sequence rolls four).
const MAX_DICE: usize = 16;

/// A group's probability as `num / den` over a denominator that every leaf's divides (leaf
/// weights are `1 / product of die sides`), reduced once at the end: no big divisions per leaf.
#[derive(Clone, Copy)]
struct Tally {
    num: u64,
    den: u64,
}

impl Tally {
    fn add_leaf(&mut self, num: u64, den: u64) {
        if self.den.is_multiple_of(den) {
            self.num += num * (self.den / den);
        } else {
            let l = self.den / gcd(u128::from(self.den), u128::from(den)) as u64 * den;
            self.num = self.num * (l / self.den) + num * (l / den);
            self.den = l;
        }
    }
}

/// Equal results, checking the cheap fields first (most results differ there).
fn same(a: &CombatResult, b: &CombatResult) -> bool {
    a.attacker.steps_lost == b.attacker.steps_lost
        && a.defender.steps_lost == b.defender.steps_lost
        && a.cell_taken == b.cell_taken
        && a.attacker.units == b.attacker.units
        && a == b
}

/// Calls `leaf` with every distinct dice sequence the resolution can roll (one face for each
/// group of faces that lead to the same result), its weight `num / den`, and the result: a
/// depth-first walk that stops at each die the resolution asks for and tries each group.
fn for_each_leaf(
    rules: &CombatRules,
    s: &Situation,
    a: &Assessment,
    choices: &Choices,
    (every_face, prefix): (bool, &[u8]),
    mut leaf: impl FnMut(&[u8], u64, u64, CombatResult),
) {
    let mut start = [0; MAX_DICE];
    let known = prefix.len().min(MAX_DICE);
    start[..known].copy_from_slice(&prefix[..known]);
    let mut stack: Vec<([u8; MAX_DICE], usize, u64, u64)> = vec![(start, known, 1, 1)];
    while let Some((faces, len, num, den)) = stack.pop() {
        let mut dice = if every_face {
            Dice::branch_every_face(&faces[..len])
        } else {
            Dice::branch(&faces[..len])
        };
        match resolve(rules, s, a, choices, &mut dice) {
            Ok((result, _)) => leaf(&faces[..len], num, den, result),
            Err(NeedDie { die, classes }) => {
                assert!(len < MAX_DICE, "a combat rolled more than {MAX_DICE} dice");
                let sides = usize::from(die.sides());
                let lowest = *die.faces().start();
                for i in (0..sides).rev() {
                    // One branch per class, from its first face.
                    if classes[..i].contains(&classes[i]) {
                        continue;
                    }
                    let count = classes[..sides].iter().filter(|&&c| c == classes[i]).count() as u64;
                    let mut next = faces;
                    next[len] = lowest + i as u8;
                    stack.push((next, len + 1, num * count, den * sides as u64));
                }
            }
        }
    }
}

/// Every result of the combat with the given choices, with exact probabilities.
pub fn enumerate(rules: &CombatRules, s: &Situation, a: &Assessment, choices: &Choices) -> Vec<OutcomeOdds> {
    grouped(rules, s, a, choices, (false, &[]))
}

/// Every result of the combat with the given choices once the dice `known` have been rolled
/// (the rest branched), with exact probabilities that sum to 1: what each answer of the
/// defender leads to after the roll.
pub fn enumerate_from(
    rules: &CombatRules,
    s: &Situation,
    a: &Assessment,
    choices: &Choices,
    known: &[u8],
) -> Vec<OutcomeOdds> {
    grouped(rules, s, a, choices, (false, known))
}

/// The same as `enumerate`, branching on every face of every die (3d6: all 216) instead of one
/// face per group the rules declare equivalent; tests check the two agree.
pub fn enumerate_every_face(rules: &CombatRules, s: &Situation, a: &Assessment, choices: &Choices) -> Vec<OutcomeOdds> {
    grouped(rules, s, a, choices, (true, &[]))
}

fn grouped(
    rules: &CombatRules,
    s: &Situation,
    a: &Assessment,
    choices: &Choices,
    how: (bool, &[u8]),
) -> Vec<OutcomeOdds> {
    let mut out: Vec<(OutcomeOdds, Tally)> = Vec::new();
    for_each_leaf(rules, s, a, choices, how, |faces, num, den, result| {
        match out.iter_mut().find(|(o, _)| same(&o.result, &result)) {
            Some((_, tally)) => tally.add_leaf(num, den),
            None => out.push((
                OutcomeOdds {
                    result,
                    probability: 0.0,
                    exact: Fraction::ZERO,
                    example_dice: faces.to_vec(),
                    answers: Vec::new(),
                },
                Tally { num, den },
            )),
        }
    });
    let mut out: Vec<OutcomeOdds> = out
        .into_iter()
        .map(|(mut o, t)| {
            o.exact = Fraction::new(u128::from(t.num), u128::from(t.den));
            o.probability = o.exact.as_f64();
            o
        })
        .collect();
    out.sort_by(|x, y| {
        y.probability
            .total_cmp(&x.probability)
            .then_with(|| x.example_dice.cmp(&y.example_dice))
    });
    out
}

impl Summary {
    fn add(&mut self, p: f64, r: &CombatResult) {
        self.expected_attacker_steps += p * f64::from(r.attacker.steps_lost);
        self.expected_defender_steps += p * f64::from(r.defender.steps_lost);
        if r.defender_eliminated() {
            self.p_defender_eliminated += p;
        }
        if r.attacker.units.iter().all(|u| u.eliminated) {
            self.p_attacker_eliminated += p;
        }
        if r.cell_taken {
            self.p_cell_taken += p;
        }
        if r.attacker.units.iter().any(|u| u.retreats && !u.eliminated) {
            self.p_attacker_retreats += p;
        }
    }

    fn nearly_equals(&self, o: &Summary) -> bool {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        close(self.expected_attacker_steps, o.expected_attacker_steps)
            && close(self.expected_defender_steps, o.expected_defender_steps)
            && close(self.p_defender_eliminated, o.p_defender_eliminated)
            && close(self.p_attacker_eliminated, o.p_attacker_eliminated)
            && close(self.p_cell_taken, o.p_cell_taken)
            && close(self.p_attacker_retreats, o.p_attacker_retreats)
    }
}

/// The summary of a combat straight from its leaves, without grouping equal results.
pub fn summarize_leaves(rules: &CombatRules, s: &Situation, a: &Assessment, choices: &Choices) -> Summary {
    let mut summary = Summary::default();
    for_each_leaf(rules, s, a, choices, (false, &[]), |_, num, den, result| {
        summary.add(num as f64 / den as f64, &result)
    });
    summary
}

/// The summary of a combat with the choices its situation carries, or why the rules refuse it.
pub fn summary_of(rules: &CombatRules, s: &Situation) -> Result<Summary, Refusal> {
    let a = assess(rules, s)?;
    Ok(summarize_leaves(rules, s, &a, &s.choices))
}

/// Expected losses and chances over a set of outcomes.
pub fn summarize(outcomes: &[OutcomeOdds]) -> Summary {
    let mut s = Summary::default();
    for o in outcomes {
        s.add(o.probability, &o.result);
    }
    s
}

/// The alternatives an owner has in this combat, as (label, choices): only those the situation
/// can use and that change the choices it carries (each costs a full enumeration).
fn alternatives(rules: &CombatRules, s: &Situation) -> Vec<(String, Choices)> {
    let base = &s.choices;
    rules
        .system()
        .alternatives(s)
        .into_iter()
        .filter_map(|(label, change)| {
            let mut c = base.clone();
            change(&mut c);
            (c != *base).then(|| (label.to_string(), c))
        })
        .collect()
}

/// The exact preview of a combat: outcomes (`answers::odds_with_answers` adds the defender's
/// answers to each), summary,
/// and a branch for each answer of the defender's given for the whole combat (before the dice,
/// or the same answer to every result).
pub fn odds(rules: &CombatRules, s: &Situation) -> Result<Odds, Refusal> {
    let assessment = assess(rules, s)?;
    let outcomes = enumerate(rules, s, &assessment, &s.choices);
    let summary = summarize(&outcomes);
    // Only choices that change something are worth showing; a branch needs only its summary,
    // so its leaves are summed without grouping.
    let mut branches: Vec<Branch> = alternatives(rules, s)
        .into_iter()
        .filter_map(|(choice, choices)| {
            let other = summarize_leaves(rules, s, &assessment, &choices);
            (!other.nearly_equals(&summary)).then_some(Branch {
                choice,
                choices,
                summary: other,
            })
        })
        .collect();
    // The defender's answers before the dice, where it has not given them yet (War Against
    // Russia's No Retreat! orders, Rommel's defensive tactics).
    for (choice, other) in rules.system().defense_alternatives(s) {
        let Ok(theirs) = summary_of(rules, &other) else {
            continue;
        };
        if !theirs.nearly_equals(&summary) {
            branches.push(Branch {
                choice,
                choices: other.choices.clone(),
                summary: theirs,
            });
        }
    }
    Ok(Odds {
        assessment,
        outcomes,
        summary,
        branches,
    })
}
