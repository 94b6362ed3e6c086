//! The contract every combat system keeps (`CombatSystem` for what the panels, the preview, the
//! defender's answers and the computer player ask of it; `Procedure` for its ruleset section and
//! its dice), and the macro that registers the systems: `combat_systems!`, invoked once in
//! `rules.rs`, makes the ruleset enum, the validated-rules enum and the per-combat state from one
//! line per system, with every dispatch exhaustive. A new system is its module plus its line
//! there and one `mod` line.

use super::context::Context;
use super::dice::{DiceSource, NeedDie, Roll};
use super::options::AttackerOption;
use super::options::OptionTaken;
use super::view::TableView;
use super::{
    Assessment, Choices, CombatResult, Combatant, DefenderChoices, Log, Refusal, ResultCode, Situation, TableCell,
    Tactic,
};
use crate::source::LoadError;
use std::borrow::Cow;

/// One option: its name, who decides it and when, what it does (a data-defined system writes
/// its own words, the others quote theirs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionHelp {
    pub name: Cow<'static, str>,
    pub who: Cow<'static, str>,
    pub text: Cow<'static, str>,
}

pub const fn help(name: &'static str, who: &'static str, text: &'static str) -> OptionHelp {
    OptionHelp {
        name: Cow::Borrowed(name),
        who: Cow::Borrowed(who),
        text: Cow::Borrowed(text),
    }
}

/// One way the defender's answer may vary after the dice: from an answer, the answers it leads to.
pub type Variation<'a> = Box<dyn Fn(&DefenderChoices) -> Vec<DefenderChoices> + 'a>;

/// A defence the computer weighs an attack against: No Retreat! orders given before the dice (or
/// not), and the same answer to every result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WeighedDefense {
    pub no_retreat: bool,
    pub answer: DefenderChoices,
}

/// What every combat system answers, without generics (`CombatRules::system()` hands it out).
pub trait CombatSystem {
    fn name(&self) -> &'static str;
    /// Refuses an illegal attack, lists every modifier and finds the table cell.
    fn assess(&self, s: &Situation) -> Result<Assessment, Refusal>;
    /// The whole table as the CRT panel prints it.
    fn table_view(&self) -> TableView;
    /// The cells of `table_view()` a resolved combat landed on.
    fn landed(&self, cell: Option<&TableCell>, rolls: &[Roll], code: &ResultCode) -> Vec<(usize, usize)> {
        super::view::landed_on_rows(&self.table_view(), cell, rolls, code, false)
    }
    /// The options of the system, who decides each and what it does, for the rules reference.
    fn options_help(&self) -> Vec<OptionHelp>;
    /// The defender's answers after the dice, beyond who loses first (`cells`: the longest
    /// retreat the plain answer demands).
    fn answer_variations<'a>(&'a self, _s: &'a Situation, _cells: u32) -> Vec<Variation<'a>> {
        Vec::new()
    }
    /// Whether the owner picks which unit loses a step.
    fn owner_picks_losses(&self) -> bool {
        true
    }
    /// The plain answer in words where the system names it (`stay`); `None`: the result's own.
    fn plain_answer(&self) -> Option<&'static str> {
        None
    }
    /// The answer "steps instead of the retreat" in this system's words where they are not "take
    /// as many more steps as hexes" (`cells`: the retreat the plain answer demands).
    fn steps_answer(&self, _cells: u32) -> Option<String> {
        None
    }
    /// The answer "the survivors withdraw" in this system's words.
    fn withdraw_answer(&self) -> &'static str {
        "the survivors withdraw"
    }
    /// What the defender answers itself, for the attack window (`No Retreat! orders before the
    /// roll`), in the situation when there is one.
    fn defender_answers_hint(&self, _s: Option<&Situation>) -> Vec<&'static str> {
        Vec::new()
    }
    /// Lines the attack window shows under the options (the first plain, the rest small).
    fn attack_window_notes(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// Where the attacker's owner picks who takes losses first: the automatic choice's name and
    /// what the pick does; `None` where the rules pick.
    fn losses_first_help(&self) -> Option<(&'static str, &'static str)> {
        Some((
            "automatic (the cheapest step)",
            "This unit takes the losses first; the rest go to the step that costs the least strength.",
        ))
    }
    /// The owners' choices the preview shows a branch for, as (label, change).
    fn alternatives(&self, _s: &Situation) -> Vec<(&'static str, fn(&mut Choices))> {
        Vec::new()
    }
    /// The defender's answers before the dice the preview branches on, where not given yet.
    fn defense_alternatives(&self, _s: &Situation) -> Vec<(String, Situation)> {
        Vec::new()
    }
    /// What the attacker may choose with an attack.
    fn attacker_options(&self) -> Vec<AttackerOption> {
        Vec::new()
    }
    /// Whether the attacker may choose `option` (derived from `attacker_options`).
    fn offers(&self, option: &AttackerOption) -> bool {
        self.attacker_options().contains(option)
    }
    /// Whether an attack order may take `option` (derived from `attacker_options`; who loses
    /// first where the owner picks, from `losses_first_help`).
    fn takes(&self, option: &OptionTaken) -> bool {
        match option {
            OptionTaken::LossesFirst(_) => self.losses_first_help().is_some(),
            _ => self.attacker_options().iter().any(|o| o.allows(option)),
        }
    }
    /// The defences the computer weighs an attack against, the plain one first.
    fn weighed_defenses(&self) -> Vec<WeighedDefense> {
        vec![WeighedDefense::default()]
    }
    /// Whether the defender may give No Retreat! orders (derived from `weighed_defenses`).
    fn has_no_retreat_orders(&self) -> bool {
        self.weighed_defenses().iter().any(|d| d.no_retreat)
    }
    /// Tactics the defender may play before the dice.
    fn defense_tactics(&self) -> Vec<Tactic> {
        Vec::new()
    }
    /// Whether attack tactics are secret until the defender answers.
    fn secret_tactics(&self) -> bool {
        false
    }
    /// Whether the rules have a must-attack rule, and whom it binds.
    fn has_must_attack(&self) -> bool {
        false
    }
    fn must_be_attacked(&self, _attacker: &Combatant, _defender: &Combatant) -> bool {
        false
    }
    /// Whether a cell is attacked one unit at a time and may be attacked again in the phase.
    fn one_attacker_at_a_time(&self) -> bool {
        false
    }
    /// Whether the counters print attack, defense and movement always (`5-5-8`), rather than
    /// one combat value when attack and defense are equal (`5-8`).
    fn counter_prints_defense(&self) -> bool {
        false
    }
}

/// The typed half of the contract: the ruleset section, and the resolution with the state the
/// assessment prepared.
pub trait Procedure: CombatSystem + Sized {
    type Raw;
    type Prepared;
    fn validate(cx: &Context, raw: &Self::Raw) -> Result<Self, LoadError>;
    fn resolve(
        &self,
        s: &Situation,
        p: &Self::Prepared,
        choices: &Choices,
        dice: &mut impl DiceSource,
        log: &mut Log,
    ) -> Result<CombatResult, NeedDie>;
}

/// Makes, from one line per system (`Name => its Rules type`), the ruleset's `RawCombat`, the
/// validated `CombatRules`, the per-combat `ModelState` and every dispatch between them.
macro_rules! combat_systems {
    ($($variant:ident => $rules:ty),* $(,)?) => {
        /// `combat: Rommel(...)` etc. in a ruleset file.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum RawCombat {
            $($variant(<$rules as $crate::combat::system::Procedure>::Raw),)*
        }

        /// Validated combat rules.
        #[derive(Clone, Debug, PartialEq)]
        pub enum CombatRules {
            $($variant($rules),)*
        }

        /// Numbers a system worked out once per combat and reuses in every branch.
        #[derive(Clone, Debug, PartialEq, Default)]
        pub(crate) enum ModelState {
            #[default]
            None,
            $($variant(<$rules as $crate::combat::system::Procedure>::Prepared),)*
        }

        impl RawCombat {
            pub fn validate(
                &self,
                cx: &$crate::combat::context::Context,
            ) -> Result<CombatRules, $crate::source::LoadError> {
                Ok(match self {
                    $(RawCombat::$variant(r) => CombatRules::$variant(<$rules as $crate::combat::system::Procedure>::validate(cx, r)?),)*
                })
            }
        }

        impl CombatRules {
            /// The system's contract.
            pub fn system(&self) -> &dyn $crate::combat::system::CombatSystem {
                match self {
                    $(CombatRules::$variant(r) => r,)*
                }
            }

            pub(crate) fn resolve_prepared(
                &self,
                s: &$crate::combat::Situation,
                state: &ModelState,
                choices: &$crate::combat::Choices,
                dice: &mut impl $crate::combat::dice::DiceSource,
                log: &mut $crate::combat::Log,
            ) -> Result<$crate::combat::CombatResult, $crate::combat::dice::NeedDie> {
                match (state, self) {
                    $((ModelState::$variant(p), CombatRules::$variant(r)) => $crate::combat::system::Procedure::resolve(r, s, p, choices, dice, log),)*
                    _ => unreachable!("an assessment is only resolved under the rules that made it"),
                }
            }
        }
    };
}

pub(super) use combat_systems;

/// The usual `Procedure`: a system's module with `Raw`, `Rules`, `validate(cx, raw)` and
/// `resolve(rules, s, prepared, choices, dice, log)` implements it with
/// `procedure_from_functions!(ItsPreparedType);`.
macro_rules! procedure_from_functions {
    ($prepared:ty) => {
        impl $crate::combat::system::Procedure for Rules {
            type Raw = Raw;
            type Prepared = $prepared;
            fn validate(cx: &$crate::combat::context::Context, raw: &Raw) -> Result<Self, $crate::source::LoadError> {
                validate(cx, raw)
            }
            fn resolve(
                &self,
                s: &$crate::combat::Situation,
                p: &$prepared,
                choices: &$crate::combat::Choices,
                dice: &mut impl $crate::combat::dice::DiceSource,
                log: &mut $crate::combat::Log,
            ) -> Result<$crate::combat::CombatResult, $crate::combat::dice::NeedDie> {
                resolve(self, s, p, choices, dice, log)
            }
        }
    };
}

pub(crate) use procedure_from_functions;
