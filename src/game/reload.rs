//! A game in progress carried over to its scenario or ruleset as changed on disk (live reload):
//! the new scenario is started with the same seed and every order of the game is given again
//! under the new rules, so units stand where the orders took them wherever their ids still exist.
//! An order the new rules refuse (a unit gone, a cell now impassable) is named, and the game is
//! left as it was.

use super::execute::{execute, order_words};
use super::log::{LogEntry, OrderLog};
use super::save::LoadedGame;
use crate::scenario::Scenario;

/// `log` given again on `scenario` from `seed`; the game as it then stands (its new log, with the
/// new rules' dice and hashes), or which order the new rules refuse and why.
pub fn carry_over(scenario: Scenario, seed: u64, log: &[LogEntry], automatic: bool) -> Result<LoadedGame, String> {
    let mut app = super::headless_app(&scenario, seed);
    app.world_mut()
        .insert_resource(super::retreat::AfterCombatMode { automatic });
    for (i, entry) in log.iter().enumerate() {
        let words = order_words(app.world_mut(), &entry.order);
        execute(app.world_mut(), entry.issued()).map_err(|r| {
            format!(
                "order {} of {} ({words}) is refused under the changed rules: {}",
                i + 1,
                log.len(),
                r.reason
            )
        })?;
    }
    let entries = app.world().resource::<OrderLog>().entries.clone();
    Ok(LoadedGame {
        summary: format!("{} orders carried over", entries.len()),
        log: entries,
        automatic_after_combat: automatic,
        ..LoadedGame::new(scenario, seed)
    })
}
