//! The defender's answers once the dice are known: every answer the rules give the defending
//! player after the result (retreat or take steps, a hex instead of an attritional loss, evade or
//! not, withdraw or stay, try to hold, who takes losses first), tried on the dice already rolled
//! and grouped by where they lead. An answer is worth asking for only when two or more lead to
//! different results; each comes with its outcomes (exact, summing to 1: a hold check still
//! rolls) so a player reads its consequence before choosing.

pub use super::odds::AnswerOption;
use super::odds::{Odds, OutcomeOdds, Summary, enumerate_from, summarize};
use super::{Assessment, Choices, CombatResult, CombatRules, DefenderChoices, Refusal, RetreatOrSteps, Situation};

/// What a result costs the defender, to weigh its answers: its steps lost, the cell lost, its
/// stack destroyed, less the attacker's steps (expected, where dice are still to roll).
pub fn defender_cost(s: &Summary) -> f64 {
    s.expected_defender_steps + 1.5 * s.p_cell_taken - 0.8 * s.expected_attacker_steps + 2.0 * s.p_defender_eliminated
}

/// The answer a defender is advised to give: the one that costs it least (the first of equals).
pub fn suggested(options: &[AnswerOption]) -> usize {
    let mut best = 0;
    for (i, o) in options.iter().enumerate() {
        if defender_cost(&o.summary) < defender_cost(&options[best].summary) - 1e-9 {
            best = i;
        }
    }
    best
}

/// The exact preview (`odds::odds`) with, for each result that leaves the defender a choice, its
/// answers and where each leads: what the attack panel shows.
pub fn odds_with_answers(rules: &CombatRules, s: &Situation) -> Result<Odds, Refusal> {
    let mut odds = super::odds::odds(rules, s)?;
    let assessment = odds.assessment.clone();
    for o in &mut odds.outcomes {
        let answers = defender_answers(rules, s, &assessment, &o.example_dice);
        if answers.len() > 1 {
            o.answers = answers;
        }
    }
    Ok(odds)
}

/// The situation with the defender's answer in it: its choices, and its pick of who loses first
/// as the defenders' loss ranks.
pub fn with_answer(s: &Situation, answer: &DefenderChoices) -> Situation {
    let mut s = s.clone();
    s.choices = Choices::of(&s.choices.attacker(), answer);
    for u in &mut s.defenders {
        u.loss_rank = answer
            .losses_first
            .iter()
            .position(|id| *id == u.id)
            .map_or(0, |k| k as u32 + 1);
    }
    s
}

/// The answers the defender has after the dice `known`, one per distinct consequence, the plain
/// answer (`DefenderChoices::default()`) first. One answer means there is nothing to ask.
pub fn defender_answers(rules: &CombatRules, s: &Situation, a: &Assessment, known: &[u8]) -> Vec<AnswerOption> {
    let plain = DefenderChoices::default();
    let mut first = option(rules, s, a, known, plain.clone(), 0);
    let cells = first
        .outcomes
        .iter()
        .filter_map(|o| o.result.defender.retreat.map(|r| r.cells))
        .max()
        .unwrap_or(0);
    first.label = label(rules, &plain, s, cells);
    let mut out = vec![first];
    for choices in candidates(rules, s, cells).into_iter().skip(1) {
        let o = option(rules, s, a, known, choices, cells);
        if !out.iter().any(|x| same_outcomes(&x.outcomes, &o.outcomes)) {
            out.push(o);
        }
    }
    out
}

fn option(
    rules: &CombatRules,
    s: &Situation,
    a: &Assessment,
    known: &[u8],
    choices: DefenderChoices,
    cells: u32,
) -> AnswerOption {
    let situation = with_answer(s, &choices);
    let outcomes = enumerate_from(rules, &situation, a, &situation.choices, known);
    AnswerOption {
        label: label(rules, &choices, s, cells),
        summary: summarize(&outcomes),
        outcomes,
        choices,
    }
}

fn same_outcomes(a: &[OutcomeOdds], b: &[OutcomeOdds]) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|x| b.iter().any(|y| y.result == x.result && y.exact == x.exact))
}

/// Every answer worth trying under these rules, the plain one first: the product of the
/// choices each ruleset gives the defender (`cells`: the longest retreat the plain answer
/// demands, for Killing Ground's steps-for-hexes).
fn candidates(rules: &CombatRules, s: &Situation, cells: u32) -> Vec<DefenderChoices> {
    let mut out = vec![DefenderChoices::default()];
    let vary = |out: &mut Vec<DefenderChoices>, f: &dyn Fn(&DefenderChoices) -> Vec<DefenderChoices>| {
        let more: Vec<DefenderChoices> = out.iter().flat_map(f).collect();
        for c in more {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    };
    for variation in rules.system().answer_variations(s, cells) {
        vary(&mut out, &*variation);
    }
    // Who takes losses first, where the owner picks (not War Against Russia's whole units, not
    // Small General's).
    let owner_picks = rules.system().owner_picks_losses();
    if owner_picks && s.defenders.len() > 1 {
        let ids: Vec<String> = s.defenders.iter().map(|u| u.id.clone()).collect();
        vary(&mut out, &|c| {
            ids.iter()
                .map(|id| DefenderChoices {
                    losses_first: vec![id.clone()],
                    ..c.clone()
                })
                .collect()
        });
    }
    out
}

/// The answer in words, its units by name.
pub fn label(rules: &CombatRules, c: &DefenderChoices, s: &Situation, cells: u32) -> String {
    use crate::rules::units::counted;
    let mut parts = Vec::new();
    match c.retreat {
        RetreatOrSteps::Retreat => {}
        RetreatOrSteps::Steps if rules.system().steps_answer(cells).is_some() => {
            parts.extend(rules.system().steps_answer(cells))
        }
        RetreatOrSteps::Steps if cells > 0 => parts.push(format!(
            "take {} more instead of retreating {}",
            counted(u64::from(cells), "step", "steps"),
            counted(u64::from(cells), "hex", "hexes")
        )),
        RetreatOrSteps::Steps => parts.push("take steps instead of retreating".to_string()),
        RetreatOrSteps::Mix(n) if n < cells => parts.push(format!(
            "take {}, retreat {}",
            counted(u64::from(n), "step", "steps"),
            counted(u64::from(cells - n), "hex", "hexes")
        )),
        RetreatOrSteps::Mix(n) => parts.push(format!(
            "take {} for hexes of retreat",
            counted(u64::from(n), "step", "steps")
        )),
    }
    if c.attrition_as_retreat {
        parts.push("a hex of retreat instead of an attritional loss".into());
    }
    if !c.evade {
        parts.push("do not evade".into());
    }
    if c.withdraw {
        parts.push(rules.system().withdraw_answer().to_string());
    }
    if c.hold {
        parts.push("try to hold (ER check)".into());
    }
    if c.names_infantry {
        parts.push("the attacker's first loss from its infantry (8.96)".into());
    }
    for id in &c.losses_first {
        let name = s
            .defenders
            .iter()
            .find(|u| u.id == *id)
            .map_or(id.as_str(), |u| u.name.as_str());
        parts.push(format!("{name} takes losses first"));
    }
    if parts.is_empty() {
        return match rules.system().plain_answer() {
            Some(words) => words.into(),
            None if cells > 0 => format!("retreat {}", counted(u64::from(cells), "hex", "hexes")),
            None => "as the result says".into(),
        };
    }
    parts.join("; ")
}

/// Whether `c` is an answer the rules could give here: the units it names defend, its steps for
/// hexes are a number of hexes. The reason otherwise.
pub fn check_answer(c: &DefenderChoices, s: &Situation) -> Result<(), String> {
    for id in &c.losses_first {
        if !s.defenders.iter().any(|u| u.id == *id) {
            return Err(format!(
                "{id} is not one of the defenders, so it cannot take their losses first"
            ));
        }
    }
    if c.retreat == RetreatOrSteps::Mix(0) {
        return Err("0 steps for hexes of retreat is a plain retreat: answer `retreat`".into());
    }
    Ok(())
}

/// Where an answer leads, in words: each result (with its chance where a die is still to roll),
/// the defenders' and attackers' losses and whether the cell falls.
pub fn consequence(o: &AnswerOption, s: &Situation) -> String {
    let one = |r: &CombatResult| {
        let mut parts = Vec::new();
        let d = super::report::side_text(&s.defenders, &r.defender, super::Role::Defender);
        parts.push(if d.is_empty() {
            "the defenders lose nothing".to_string()
        } else {
            d
        });
        let a = super::report::side_text(&s.attackers, &r.attacker, super::Role::Attacker);
        if !a.is_empty() {
            parts.push(a);
        }
        parts.push(
            if r.cell_taken {
                "the cell falls"
            } else {
                "the cell holds"
            }
            .to_string(),
        );
        parts.join("; ")
    };
    match o.outcomes.as_slice() {
        [only] => one(&only.result),
        many => many
            .iter()
            .map(|x| format!("{:.0}%: {}", x.probability * 100.0, one(&x.result)))
            .collect::<Vec<_>>()
            .join(" | "),
    }
}
