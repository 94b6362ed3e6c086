//! Saves and stored entries of the third format, written before an attack's options were a list
//! of what its combat system offers: an attack then had a field for each option (`tactics`,
//! `barrage`, `accelerated_effort`, `flanking`, `choices`). Reading one turns each attack into
//! today's `AttackOrder`; nothing else changed, so the game replays to the same dice and hashes.
//! The server migrates its stored entries through the same conversion.

use super::hash::StateHash;
use super::log::{DieRecord, LogEntry};
use super::order::{AttackOrder, DefenseOrder, Order};
use super::save_file::SavedGame;
use crate::combat::options::options_of;
use crate::combat::{AttackerChoices, DefenderChoices, Tactic};
use crate::rules::grid::{Cell, as_label, as_labels};
use serde::Deserialize;

/// The third save format.
pub const FORMAT_3: u32 = 3;

/// A log entry as formats 3 (and the server's stored entries before its schema 8) wrote it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryV3 {
    side: String,
    order: OrderV3,
    #[serde(default)]
    dice: Vec<DieRecord>,
    rng: (u64, u64),
    hash: StateHash,
    #[serde(default)]
    link: Option<String>,
}

#[derive(Deserialize)]
enum OrderV3 {
    Move {
        units: Vec<String>,
        #[serde(with = "as_label")]
        to: Cell,
    },
    Attack(AttackV3),
    Defend(DefenseOrder),
    Answer(DefenderChoices),
    Retreat {
        unit: String,
        #[serde(with = "as_labels")]
        path: Vec<Cell>,
    },
    Advance {
        units: Vec<String>,
        #[serde(with = "as_label")]
        to: Cell,
    },
    EndAdvance,
    EndPhase,
    Concede,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttackV3 {
    attackers: Vec<String>,
    #[serde(with = "as_label")]
    target: Cell,
    #[serde(default)]
    tactics: Vec<Tactic>,
    #[serde(default)]
    barrage: Vec<String>,
    #[serde(default)]
    accelerated_effort: Option<String>,
    #[serde(default)]
    flanking: bool,
    #[serde(default)]
    choices: AttackerChoices,
}

impl From<OrderV3> for Order {
    fn from(order: OrderV3) -> Self {
        match order {
            OrderV3::Move { units, to } => Order::Move { units, to },
            OrderV3::Attack(a) => Order::Attack(AttackOrder {
                attackers: a.attackers,
                target: a.target,
                options: options_of(a.tactics, a.barrage, a.accelerated_effort, a.flanking, a.choices),
            }),
            OrderV3::Defend(d) => Order::Defend(d),
            OrderV3::Answer(c) => Order::Answer(c),
            OrderV3::Retreat { unit, path } => Order::Retreat { unit, path },
            OrderV3::Advance { units, to } => Order::Advance { units, to },
            OrderV3::EndAdvance => Order::EndAdvance,
            OrderV3::EndPhase => Order::EndPhase,
            OrderV3::Concede => Order::Concede,
        }
    }
}

impl From<EntryV3> for LogEntry {
    fn from(e: EntryV3) -> Self {
        LogEntry {
            side: e.side,
            order: e.order.into(),
            dice: e.dice,
            rng: e.rng,
            hash: e.hash,
            link: e.link,
            lines: Vec::new(),
            when: Default::default(),
            words: String::new(),
            public: String::new(),
        }
    }
}

/// A third-format save in today's format: the same game, its attacks' options listed.
pub fn migrate(saved: SavedGame<EntryV3>) -> SavedGame {
    SavedGame {
        format: super::save_file::SAVE_FORMAT,
        written_by: saved.written_by,
        turn_file: saved.turn_file,
        summary: saved.summary,
        scenario_name: saved.scenario_name,
        scenario_hash: saved.scenario_hash,
        seed: saved.seed,
        automatic_after_combat: saved.automatic_after_combat,
        seats: saved.seats,
        rules_edition: saved.rules_edition,
        scenario: saved.scenario,
        ruleset: saved.ruleset,
        online: saved.online,
        log: saved.log.into_iter().map(LogEntry::from).collect(),
    }
}

/// A stored entry's JSON (the server's `entries` table) in today's form; `None` when it is
/// already (it has no attack with the old fields).
pub fn migrate_json(text: &str) -> Result<Option<String>, String> {
    if serde_json::from_str::<LogEntry>(text).is_ok() {
        return Ok(None);
    }
    let old: EntryV3 = serde_json::from_str(text).map_err(|e| e.to_string())?;
    serde_json::to_string(&LogEntry::from(old))
        .map(Some)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::{OptionTaken, RetreatOrSteps};

    #[test]
    fn an_old_attack_becomes_its_options_in_the_order_they_are_declared() {
        let text = r#"{"side":"us","order":{"Attack":{"attackers":["a"],"target":"0102","accelerated_effort":"a","choices":{"retreat":"Steps","losses_first":["a"]}}},"rng":[1,2],"hash":"00000001.00000002.00000003.00000004"}"#;
        let new = migrate_json(text).unwrap().expect("an old entry is rewritten");
        let entry: LogEntry = serde_json::from_str(&new).unwrap();
        let Order::Attack(a) = &entry.order else {
            panic!("{new}")
        };
        assert_eq!(
            a.options,
            vec![
                OptionTaken::RetreatAsSteps(RetreatOrSteps::Steps),
                OptionTaken::AcceleratedEffort("a".into()),
                OptionTaken::LossesFirst(vec!["a".into()]),
            ]
        );
        assert_eq!((entry.rng, entry.side.as_str()), ((1, 2), "us"));
        // Today's entries are left as they are; a broken one is refused.
        assert_eq!(migrate_json(&new).unwrap(), None);
        assert!(migrate_json(r#"{"side":"us"}"#).is_err());
    }
}
