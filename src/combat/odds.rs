//! The exact outcome preview: every die the resolution asks for is branched over all its faces,
//! through the same `resolve` the game uses, and equal results are grouped with their exact
//! probability. Owner's choices (retreat or take steps, evade, exchange, hold) are previewed as
//! branches.

use super::{
    Assessment, Choices, CombatResult, CombatRules, Dice, NeedDie, Refusal, RetreatOrSteps, Situation, assess, resolve,
};
use rustc_hash::FxHashMap;
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
}

/// What to expect of a combat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub expected_attacker_steps: f64,
    pub expected_defender_steps: f64,
    pub p_defender_eliminated: f64,
    pub p_attacker_eliminated: f64,
    pub p_cell_taken: f64,
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

/// Every result of the combat with the given choices, with exact probabilities.
pub fn enumerate(rules: &CombatRules, s: &Situation, a: &Assessment, choices: &Choices) -> Vec<OutcomeOdds> {
    let mut groups: FxHashMap<CombatResult, usize> = FxHashMap::default();
    let mut out: Vec<OutcomeOdds> = Vec::new();
    let mut stack: Vec<(Vec<u8>, Fraction)> = vec![(Vec::new(), Fraction::ONE)];
    while let Some((prefix, p)) = stack.pop() {
        let mut dice = Dice::branch(&prefix);
        match resolve(rules, s, a, choices, &mut dice) {
            Ok((result, _)) => match groups.get(&result) {
                Some(&i) => out[i].exact = out[i].exact.plus(p),
                None => {
                    groups.insert(result.clone(), out.len());
                    out.push(OutcomeOdds {
                        result,
                        probability: 0.0,
                        exact: p,
                        example_dice: prefix,
                    });
                }
            },
            Err(NeedDie(die)) => {
                let sides = u128::from(die.sides());
                for face in die.faces().rev() {
                    let mut next = Vec::with_capacity(prefix.len() + 1);
                    next.extend_from_slice(&prefix);
                    next.push(face);
                    stack.push((next, p.divided_by(sides)));
                }
            }
        }
    }
    for o in &mut out {
        o.probability = o.exact.as_f64();
    }
    out.sort_by(|x, y| {
        y.exact
            .as_f64()
            .total_cmp(&x.exact.as_f64())
            .then_with(|| x.example_dice.cmp(&y.example_dice))
    });
    out
}

/// Expected losses and chances over a set of outcomes.
pub fn summarize(outcomes: &[OutcomeOdds]) -> Summary {
    let mut s = Summary::default();
    for o in outcomes {
        let p = o.probability;
        s.expected_attacker_steps += p * f64::from(o.result.attacker.steps_lost);
        s.expected_defender_steps += p * f64::from(o.result.defender.steps_lost);
        if o.result.defender_eliminated() {
            s.p_defender_eliminated += p;
        }
        if o.result.attacker.units.iter().all(|u| u.eliminated) {
            s.p_attacker_eliminated += p;
        }
        if o.result.cell_taken {
            s.p_cell_taken += p;
        }
    }
    s
}

/// The alternatives an owner has in this combat, as (label, choices).
fn alternatives(rules: &CombatRules, s: &Situation) -> Vec<(String, Choices)> {
    let base = &s.choices;
    let mut alts = Vec::new();
    let mut alt = |label: &str, f: &dyn Fn(&mut Choices)| {
        let mut c = base.clone();
        f(&mut c);
        if c != *base {
            alts.push((label.to_string(), c));
        }
    };
    match rules {
        CombatRules::KillingGround(_) => {
            alt("defender retreats", &|c| c.defender_retreat = RetreatOrSteps::Retreat);
            alt("defender takes steps instead of retreating", &|c| {
                c.defender_retreat = RetreatOrSteps::Steps
            });
            alt("attacker retreats", &|c| c.attacker_retreat = RetreatOrSteps::Retreat);
            alt("attacker takes steps instead of retreating", &|c| {
                c.attacker_retreat = RetreatOrSteps::Steps
            });
        }
        CombatRules::Rommel(_) => {
            alt("mobile defenders evade their last hit", &|c| c.evade = true);
            alt("mobile defenders do not evade", &|c| c.evade = false);
            alt("surviving defenders retreat", &|c| c.defender_withdraws = true);
            alt("surviving defenders hold", &|c| c.defender_withdraws = false);
        }
        CombatRules::WarAgainstRussia(_) => {
            alt("Germans exchange", &|c| c.german_exchange = true);
            alt("Germans do not exchange", &|c| c.german_exchange = false);
        }
        CombatRules::NextWar(_) => {
            alt("defenders try to ignore the retreat", &|c| c.ignore_retreat = true);
            alt("defenders retreat", &|c| c.ignore_retreat = false);
        }
        CombatRules::SmallGeneral(_) => {}
    }
    alts
}

/// The exact preview of a combat: outcomes, summary, and each choice's branch.
pub fn odds(rules: &CombatRules, s: &Situation) -> Result<Odds, Refusal> {
    let assessment = assess(rules, s)?;
    let outcomes = enumerate(rules, s, &assessment, &s.choices);
    let summary = summarize(&outcomes);
    // Only choices that change something are worth showing.
    let branches = alternatives(rules, s)
        .into_iter()
        .filter_map(|(choice, choices)| {
            let other = enumerate(rules, s, &assessment, &choices);
            let same = other.len() == outcomes.len()
                && other
                    .iter()
                    .all(|o| outcomes.iter().any(|b| b.result == o.result && b.exact == o.exact));
            (!same).then(|| Branch {
                choice,
                choices,
                summary: summarize(&other),
            })
        })
        .collect();
    Ok(Odds {
        assessment,
        outcomes,
        summary,
        branches,
    })
}
