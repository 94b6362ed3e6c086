//! The defender's answers weighed on the board: a retreat the board does not allow costs what
//! the ruleset says (Killing Ground 8.93: a step for each cell short; elsewhere elimination or
//! staying put), so the answer window tells the real consequence and suggests accordingly.

use super::combat_phase::{PlannedCombat, run};
use super::view::GameView;
use crate::combat::SideResult;
use crate::combat::odds::{AnswerOption, OutcomeOdds, summarize};
use crate::rules::grid::Cell;
use crate::rules::retreat::WhenBlocked;
use bevy::prelude::*;

/// For each defender (the situation's order), how many cells it could retreat, up to `longest`.
fn reachable_retreats(
    In((target, attackers, defenders, longest)): In<(Cell, Vec<Entity>, Vec<Entity>, u32)>,
    view: GameView,
) -> Vec<u32> {
    retreat_room(&view, target, &attackers, &defenders, longest)
}

/// For each of `defenders` in `target`, the longest retreat it could make (up to `longest`) away
/// from `attackers`.
pub fn retreat_room(
    view: &GameView,
    target: Cell,
    attackers: &[Entity],
    defenders: &[Entity],
    longest: u32,
) -> Vec<u32> {
    defenders
        .iter()
        .map(|e| {
            // The longest retreat it could make, as the game tries the whole length first.
            (1..=longest)
                .rev()
                .find(|n| {
                    view.retreat_options(*e, target, *n, attackers)
                        .is_ok_and(|(_, o)| !o.legal.is_empty())
                })
                .unwrap_or(0)
        })
        .collect()
}

/// `options` with every retreat the board cannot give carried out as the ruleset says, their
/// summaries and labels to match (the label says what the board does to the answer).
pub(super) fn on_the_board(world: &mut World, p: &PlannedCombat, mut options: Vec<AnswerOption>) -> Vec<AnswerOption> {
    let longest = options
        .iter()
        .flat_map(|o| &o.outcomes)
        .filter_map(|o| o.result.defender.retreat.map(|r| r.cells))
        .max()
        .unwrap_or(0);
    if longest == 0 {
        return options;
    }
    let input = (p.order.target, p.attackers.clone(), p.defenders.clone(), longest);
    let Ok(reach) = run(world, reachable_retreats, input) else {
        return options;
    };
    let when_blocked = world
        .resource::<super::components::GameMap>()
        .ruleset
        .retreat
        .when_blocked;
    let left = steps_left(&p.situation);
    for option in &mut options {
        if weigh_on_board(&mut option.outcomes, &reach, &left, when_blocked) {
            option.summary = summarize(&option.outcomes);
            option.label = format!("{} — {}", option.label, blocked_words(when_blocked));
        }
    }
    options
}

/// Each defender's steps before the combat (the situation's order).
pub fn steps_left(s: &crate::combat::Situation) -> Vec<u32> {
    s.defenders.iter().map(|u| u.steps.remaining() as u32).collect()
}

/// `outcomes` with every retreat the board cannot give (`reach`: each defender's room) carried
/// out as the ruleset says; whether any was.
pub fn weigh_on_board(outcomes: &mut [OutcomeOdds], reach: &[u32], left: &[u32], when_blocked: WhenBlocked) -> bool {
    let mut short = false;
    for outcome in outcomes {
        if carry_out(&mut outcome.result.defender, reach, left, when_blocked) {
            short = true;
            outcome.result.cell_taken = !outcome.result.defender.holds();
        }
    }
    short
}

/// Applies the board to one result: each retreating defender that cannot go the whole way.
/// Returns whether any could not.
fn carry_out(side: &mut SideResult, reach: &[u32], left: &[u32], when_blocked: WhenBlocked) -> bool {
    let Some(demand) = side.retreat else { return false };
    let mut short_any = false;
    for (i, unit) in side.units.iter_mut().enumerate() {
        let can = reach.get(i).copied().unwrap_or(0);
        if !unit.retreats || unit.eliminated || can >= demand.cells {
            continue;
        }
        short_any = true;
        match when_blocked {
            WhenBlocked::StepPerCellShort => {
                let more = demand.cells - can;
                let have = left.get(i).copied().unwrap_or(1).saturating_sub(unit.steps_lost);
                unit.steps_lost += more.min(have);
                side.steps_lost += more.min(have);
                if more >= have {
                    unit.eliminated = true;
                }
                unit.retreats = can > 0 && !unit.eliminated;
            }
            WhenBlocked::Eliminated => {
                // All the steps it has left after the result go with it.
                let have = left.get(i).copied().unwrap_or(1).saturating_sub(unit.steps_lost);
                unit.steps_lost += have;
                side.steps_lost += have;
                unit.eliminated = true;
                unit.retreats = false;
            }
            WhenBlocked::StayWithErCheck => unit.retreats = false,
        }
    }
    if !side.units.iter().any(|u| u.retreats) {
        side.retreat = None;
    }
    short_any
}

fn blocked_words(when_blocked: WhenBlocked) -> &'static str {
    match when_blocked {
        WhenBlocked::StepPerCellShort => "no room to retreat: a step lost for each cell short",
        WhenBlocked::Eliminated => "no room to retreat: eliminated instead",
        WhenBlocked::StayWithErCheck => "no room to retreat: stays, with an ER check",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::{Chooser, RetreatDemand, UnitResult};

    /// A defending side of `n` units told to retreat `cells`, one step already lost by the first.
    fn retreating(n: usize, cells: u32) -> SideResult {
        let mut side = SideResult::new(n);
        for u in side.units.iter_mut() {
            u.retreats = true;
        }
        side.units[0].steps_lost = 1;
        side.steps_lost = 1;
        side.retreat = Some(RetreatDemand {
            cells,
            chooser: Chooser::Owner,
            optional: false,
            er_check_in_ezoc: false,
        });
        side
    }

    #[test]
    fn a_retreat_with_no_room_costs_a_step_per_cell_short_and_may_eliminate() {
        // Killing Ground 8.93: 2 cells demanded, none open; the first unit has 2 steps left of
        // 3 (one lost), the second 4.
        let mut side = retreating(2, 2);
        assert!(carry_out(&mut side, &[0, 0], &[3, 4], WhenBlocked::StepPerCellShort));
        let UnitResult {
            steps_lost,
            eliminated,
            retreats,
            ..
        } = side.units[0];
        assert_eq!((steps_lost, eliminated, retreats), (3, true, false));
        let UnitResult {
            steps_lost,
            eliminated,
            retreats,
            ..
        } = side.units[1];
        assert_eq!((steps_lost, eliminated, retreats), (2, false, false));
        assert_eq!(side.steps_lost, 1 + 2 + 2);
        assert_eq!(side.retreat, None, "nobody retreats any more");
        assert!(side.holds(), "the second unit stays in the cell");
    }

    #[test]
    fn a_retreat_one_cell_short_costs_one_step_and_still_retreats() {
        let mut side = retreating(1, 2);
        assert!(carry_out(&mut side, &[1], &[4], WhenBlocked::StepPerCellShort));
        assert_eq!((side.units[0].steps_lost, side.units[0].retreats), (2, true));
        assert!(side.retreat.is_some());
        assert!(!side.holds());
    }

    #[test]
    fn a_retreat_with_room_is_left_alone_and_other_rulesets_eliminate_or_stay() {
        let mut side = retreating(1, 2);
        let before = side.clone();
        assert!(!carry_out(&mut side, &[2], &[4], WhenBlocked::StepPerCellShort));
        assert_eq!(side, before);
        let mut side = retreating(1, 1);
        assert!(carry_out(&mut side, &[0], &[4], WhenBlocked::Eliminated));
        assert!(side.units[0].eliminated && !side.holds());
        assert_eq!(side.steps_lost, 4, "the step the result took and the 3 left");
        let mut side = retreating(1, 1);
        assert!(carry_out(&mut side, &[0], &[4], WhenBlocked::StayWithErCheck));
        assert!(!side.units[0].eliminated && side.holds());
    }
}
