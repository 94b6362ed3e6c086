//! The combat part of a ruleset file: one variant per combat system, holding its tables and
//! terrain effects as data, validated into the rules the resolution code reads. The list below
//! registers every system (`combat_systems!` makes the enums and their dispatch from it).

use super::Combatant;

pub use super::context::Context;
use super::dice::Roll;
use super::view::TableView;
use super::{ResultCode, TableCell};

super::system::combat_systems! {
    KillingGround => super::killing_ground::Rules,
    Rommel => super::rommel::Rules,
    WarAgainstRussia => super::war_against_russia::Rules,
    NextWar => super::next_war::Rules,
    SmallGeneral => super::small_general::Rules,
    DataTable => super::data_table::Rules,
}

impl CombatRules {
    /// Whether the rules have a must-attack rule at all (War Against Russia's, where set).
    pub fn has_must_attack(&self) -> bool {
        self.system().has_must_attack()
    }

    /// Whether `defender` must be attacked this combat phase because `attacker`, next to it,
    /// attacked.
    pub fn must_be_attacked(&self, attacker: &Combatant, defender: &Combatant) -> bool {
        self.system().must_be_attacked(attacker, defender)
    }

    pub fn name(&self) -> &'static str {
        self.system().name()
    }

    /// Whether counters print attack, defense and movement always (Next War's `5-5-8`).
    pub fn counter_prints_defense(&self) -> bool {
        self.system().counter_prints_defense()
    }

    /// The whole combat table of this system.
    pub fn table_view(&self) -> TableView {
        self.system().table_view()
    }

    /// The cells a resolved combat landed on: `(row, column)` in `table_view()`.
    pub fn landed(&self, cell: Option<&TableCell>, rolls: &[Roll], code: &ResultCode) -> Vec<(usize, usize)> {
        self.system().landed(cell, rolls, code)
    }
}
