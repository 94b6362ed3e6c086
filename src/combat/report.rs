//! Combat results in words, for the command-line lab, the game log and the panels.

use super::odds::{Odds, Summary};
use super::{Assessment, Chooser, CombatResult, Combatant, Outcome, Role, SideResult, Situation};
use std::fmt::Write;

/// What happened to one side, e.g. `A/17 Pz -1 step, tipped, retreats; retreat 1 (owner)`.
pub fn side_text(units: &[Combatant], side: &SideResult, role: Role) -> String {
    let mut parts = Vec::new();
    for (u, r) in units.iter().zip(&side.units) {
        let mut bits = Vec::new();
        if r.eliminated {
            bits.push("eliminated".to_string());
        } else if r.steps_lost > 0 {
            bits.push(format!(
                "-{} step{}",
                r.steps_lost,
                if r.steps_lost == 1 { "" } else { "s" }
            ));
        }
        if !r.eliminated {
            bits.extend(r.gained.iter().map(|s| format!("{s:?}").to_lowercase()));
            bits.extend(
                r.cleared
                    .iter()
                    .map(|s| format!("no longer {}", format!("{s:?}").to_lowercase())),
            );
            if r.retreats {
                bits.push("retreats".into());
            }
        }
        if r.experience > 0 {
            bits.push(format!("+{} xp", r.experience));
        }
        if !bits.is_empty() {
            parts.push(format!("{} {}", u.name, bits.join(", ")));
        }
    }
    if let Some(rt) = side.retreat {
        let who = match rt.chooser {
            Chooser::Owner => "own choice",
            Chooser::Opponent => "enemy's choice",
            Chooser::Random => "random direction",
        };
        parts.push(format!(
            "{}retreat {} {} ({who})",
            if rt.optional { "voluntary " } else { "" },
            rt.cells,
            if rt.cells == 1 { "cell" } else { "cells" }
        ));
    }
    if let Some(a) = side.advance {
        parts.push(format!(
            "{} advance {} cell{}{}",
            if a.mandatory { "must" } else { "may" },
            a.cells,
            if a.cells == 1 { "" } else { "s" },
            if a.attack_again { " and attack again" } else { "" }
        ));
    }
    if side.prepared_positions_lost > 0 {
        parts.push(format!(
            "{} removed",
            crate::rules::units::counted(side.prepared_positions_lost, "prepared position", "prepared positions")
        ));
    }
    if side.batteries_tipped > 0 {
        parts.push(format!(
            "{} barraging batter{} tipped",
            side.batteries_tipped,
            if side.batteries_tipped == 1 { "y" } else { "ies" }
        ));
    }
    if parts.is_empty() {
        format!("{role}: no effect")
    } else {
        format!("{role}: {}", parts.join("; "))
    }
}

/// A few words on one side for a preview row: `-1 step, retreat 1`, `eliminated`, `no loss`.
fn side_brief(side: &SideResult) -> String {
    if !side.units.is_empty() && side.units.iter().all(|u| u.eliminated) {
        return "eliminated".into();
    }
    let mut bits = Vec::new();
    if side.steps_lost > 0 {
        bits.push(format!(
            "-{} step{}",
            side.steps_lost,
            if side.steps_lost == 1 { "" } else { "s" }
        ));
    }
    let states: std::collections::BTreeSet<String> = side
        .units
        .iter()
        .flat_map(|u| u.gained.iter())
        .filter(|s| *s != crate::rules::units::UnitStatus::Tipped)
        .map(|s| format!("{s:?}").to_lowercase())
        .collect();
    bits.extend(states);
    if let Some(r) = side.retreat {
        bits.push(format!("{}retreat {}", if r.optional { "may " } else { "" }, r.cells));
    }
    if bits.is_empty() {
        "no loss".into()
    } else {
        bits.join(", ")
    }
}

/// One line for a preview row: `you -1 step · enemy -1 step, retreat 2 · cell taken` for the
/// attacking player, `attacker … · defender …` for anyone else (the defender looking at the
/// enemy's attack).
pub fn brief(r: &CombatResult, you_attack: bool) -> String {
    let (attacker, defender) = if you_attack {
        ("you", "enemy")
    } else {
        ("attacker", "defender")
    };
    // The defenders gone and no attacker left to move in (an exchange that took them all): the
    // cell is emptied, not taken.
    let attackers_left = r.attacker.units.iter().any(|u| !u.eliminated);
    let cell = match (r.cell_taken, attackers_left) {
        (true, true) => " · cell taken",
        (true, false) => " · cell emptied (no attacker left)",
        (false, _) => "",
    };
    format!(
        "{attacker} {} · {defender} {}{cell}",
        side_brief(&r.attacker),
        side_brief(&r.defender),
    )
}

/// Both sides, one line each.
pub fn result_text(s: &Situation, r: &CombatResult) -> String {
    format!(
        "{}\n  {}\n  {}{}",
        r.code,
        side_text(&s.attackers, &r.attacker, Role::Attacker),
        side_text(&s.defenders, &r.defender, Role::Defender),
        if r.cell_taken {
            "\n  the defenders' cell is taken"
        } else {
            ""
        }
    )
}

/// Totals, table cell and modifiers.
pub fn assessment_text(a: &Assessment) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "strength: {} (attack {} / defense {})",
        a.ratio, a.attack_total, a.defense_total
    );
    if let Some(c) = &a.cell {
        if c.base_index != c.column_index {
            let _ = writeln!(out, "column: {} shifted to {}", c.base_column, c.column);
        } else {
            let _ = writeln!(out, "column: {}", c.column);
        }
        if c.die_modifier != 0 {
            let _ = writeln!(out, "die modifier: {:+}", c.die_modifier);
        }
    }
    if a.modifiers.is_empty() {
        let _ = writeln!(out, "modifiers: none");
    } else {
        let _ = writeln!(out, "modifiers:");
        for m in &a.modifiers {
            let _ = writeln!(out, "  {m}");
        }
    }
    out
}

fn summary_text(s: &Summary) -> String {
    format!(
        "expected steps lost: attacker {:.3}, defender {:.3}; P(defender eliminated) {:.1}%; P(attacker eliminated) {:.1}%; P(cell taken) {:.1}%",
        s.expected_attacker_steps,
        s.expected_defender_steps,
        100.0 * s.p_defender_eliminated,
        100.0 * s.p_attacker_eliminated,
        100.0 * s.p_cell_taken
    )
}

/// The whole preview.
pub fn odds_text(s: &Situation, o: &Odds) -> String {
    let mut out = assessment_text(&o.assessment);
    let _ = writeln!(out, "outcomes ({}):", o.outcomes.len());
    for oc in &o.outcomes {
        let dice: Vec<String> = oc.example_dice.iter().map(u8::to_string).collect();
        let _ = writeln!(
            out,
            "  {:6.2}%  {:>9}  e.g. dice {}\n    {}",
            100.0 * oc.probability,
            oc.exact.to_string(),
            if dice.is_empty() { "-".into() } else { dice.join(",") },
            result_text(s, &oc.result).replace('\n', "\n    ")
        );
    }
    let _ = writeln!(out, "{}", summary_text(&o.summary));
    if !o.branches.is_empty() {
        let _ = writeln!(out, "if the owners choose otherwise:");
        for b in &o.branches {
            let _ = writeln!(out, "  {}: {}", b.choice, summary_text(&b.summary));
        }
    }
    out
}

/// A resolved combat: assessment, dice, narrative and result.
pub fn outcome_text(s: &Situation, a: &Assessment, o: &Outcome) -> String {
    let mut out = assessment_text(a);
    let dice: Vec<String> = o.rolls.iter().map(|r| format!("{} ({})", r.face, r.purpose)).collect();
    let _ = writeln!(
        out,
        "dice: {}",
        if dice.is_empty() {
            "none".into()
        } else {
            dice.join(", ")
        }
    );
    for line in &o.log {
        let _ = writeln!(out, "  {line}");
    }
    let _ = writeln!(out, "result: {}", result_text(s, &o.result));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::SideResult;

    #[test]
    fn an_exchange_that_leaves_no_attacker_empties_the_cell_rather_than_taking_it() {
        let mut r = CombatResult {
            code: crate::combat::ResultCode::Table("EX".into()),
            attacker: SideResult::new(1),
            defender: SideResult::new(1),
            cell_taken: true,
        };
        r.defender.units[0].eliminated = true;
        assert!(brief(&r, true).ends_with("· cell taken"), "{}", brief(&r, true));
        r.attacker.units[0].eliminated = true;
        let both = brief(&r, false);
        assert!(both.ends_with("· cell emptied (no attacker left)"), "{both}");
        r.cell_taken = false;
        assert!(!brief(&r, true).contains("cell"), "{}", brief(&r, true));
    }
}
