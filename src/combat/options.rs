//! The attacker's options: what a combat system offers (`AttackerOption`, from the board: which
//! unit, which batteries) and what an attack order takes of them (`OptionTaken`, the order's own
//! list: a new option is a new variant, not a new field of every order and save).

use super::{AttackerChoices, RetreatOrSteps, Tactic};
use serde::{Deserialize, Serialize};

/// An option the attacker may take with its attack, as the computer player and the attack panel
/// read it (the values come from the board: which unit, which batteries).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttackerOption {
    /// Take a retreat result as step losses instead.
    RetreatAsSteps,
    /// Killing Ground's Accelerated Effort.
    AcceleratedEffort,
    /// An exchange the attackers of these nations may choose (War Against Russia's Germans).
    Exchange { nations: Vec<String> },
    /// Tactics bought for the attack (Rommel).
    Tactics(Vec<Tactic>),
    /// Artillery in range barrages (Rommel).
    Barrage,
    /// The attacker flanks the defender, a shift up (Rommel). The rules' text does not say how
    /// the board shows it, so it is the attacker's claim in an order or a combat case: the
    /// computer never makes it and the attack window does not offer it.
    Flanking,
}

/// An option an attack order takes: one its combat system offers (`CombatSystem::takes`), each
/// kind at most once. Written in saves, turn files and online orders as, e.g.,
/// `options: [AcceleratedEffort("us-117"), RetreatAsSteps(Steps)]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OptionTaken {
    /// A retreat result taken as step losses: all of it (`Steps`) or this many hexes (`Mix(n)`)
    /// (offered as `AttackerOption::RetreatAsSteps`).
    RetreatAsSteps(RetreatOrSteps),
    /// Killing Ground 8.10.4: this unit makes an Accelerated Effort.
    AcceleratedEffort(String),
    /// War Against Russia: the attackers choose the exchange (the nations the rules name).
    Exchange,
    /// Rommel: the attacker's tactics, secret until the defender answers.
    Tactics(Vec<Tactic>),
    /// Rommel: these batteries barrage (unit ids).
    Barrage(Vec<String>),
    /// Rommel: the attacker claims to flank the defender.
    Flanking,
    /// Where the owner picks who takes losses: these attackers first, in this order (unit ids).
    LossesFirst(Vec<String>),
}

impl OptionTaken {
    /// The option's name, as refusals and the order's words give it.
    pub fn name(&self) -> &'static str {
        match self {
            OptionTaken::RetreatAsSteps(_) => "retreat as steps",
            OptionTaken::AcceleratedEffort(_) => "accelerated effort",
            OptionTaken::Exchange => "exchange",
            OptionTaken::Tactics(_) => "tactics",
            OptionTaken::Barrage(_) => "barrage",
            OptionTaken::Flanking => "flanking",
            OptionTaken::LossesFirst(_) => "losses first",
        }
    }

    /// Whether the two are the same option (with any values).
    pub fn same_kind(&self, other: &OptionTaken) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }

    /// Where the option stands in a list: the order the variants are declared.
    fn rank(&self) -> u8 {
        match self {
            OptionTaken::RetreatAsSteps(_) => 0,
            OptionTaken::AcceleratedEffort(_) => 1,
            OptionTaken::Exchange => 2,
            OptionTaken::Tactics(_) => 3,
            OptionTaken::Barrage(_) => 4,
            OptionTaken::Flanking => 5,
            OptionTaken::LossesFirst(_) => 6,
        }
    }

    /// Whether the option, so taken, changes nothing (no steps for a retreat, an empty list).
    pub fn is_nothing(&self) -> bool {
        match self {
            OptionTaken::RetreatAsSteps(r) => *r == RetreatOrSteps::Retreat,
            OptionTaken::Tactics(list) => list.is_empty(),
            OptionTaken::Barrage(ids) | OptionTaken::LossesFirst(ids) => ids.is_empty(),
            OptionTaken::AcceleratedEffort(_) | OptionTaken::Exchange | OptionTaken::Flanking => false,
        }
    }
}

impl AttackerOption {
    /// Whether `taken` is this option taken.
    pub fn allows(&self, taken: &OptionTaken) -> bool {
        matches!(
            (self, taken),
            (AttackerOption::RetreatAsSteps, OptionTaken::RetreatAsSteps(_))
                | (AttackerOption::AcceleratedEffort, OptionTaken::AcceleratedEffort(_))
                | (AttackerOption::Exchange { .. }, OptionTaken::Exchange)
                | (AttackerOption::Tactics(_), OptionTaken::Tactics(_))
                | (AttackerOption::Barrage, OptionTaken::Barrage(_))
                | (AttackerOption::Flanking, OptionTaken::Flanking)
        )
    }
}

/// The options an order takes, read as the combat's inputs.
#[derive(Clone, Copy, Debug)]
pub struct Taken<'a>(pub &'a [OptionTaken]);

impl<'a> Taken<'a> {
    pub fn tactics(self) -> &'a [Tactic] {
        self.0
            .iter()
            .find_map(|o| match o {
                OptionTaken::Tactics(t) => Some(&t[..]),
                _ => None,
            })
            .unwrap_or(&[])
    }

    pub fn barrage(self) -> &'a [String] {
        self.list(|o| match o {
            OptionTaken::Barrage(ids) => Some(ids),
            _ => None,
        })
    }

    pub fn losses_first(self) -> &'a [String] {
        self.list(|o| match o {
            OptionTaken::LossesFirst(ids) => Some(ids),
            _ => None,
        })
    }

    pub fn accelerated_effort(self) -> Option<&'a String> {
        self.0.iter().find_map(|o| match o {
            OptionTaken::AcceleratedEffort(id) => Some(id),
            _ => None,
        })
    }

    pub fn flanking(self) -> bool {
        self.0.contains(&OptionTaken::Flanking)
    }

    pub fn retreat(self) -> RetreatOrSteps {
        self.0
            .iter()
            .find_map(|o| match o {
                OptionTaken::RetreatAsSteps(r) => Some(*r),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// What the attacker decided about the result, as the combat's `Choices` take it.
    pub fn attacker_choices(self) -> AttackerChoices {
        AttackerChoices {
            retreat: self.retreat(),
            german_exchange: self.0.contains(&OptionTaken::Exchange),
            losses_first: self.losses_first().to_vec(),
        }
    }

    fn list(self, pick: fn(&'a OptionTaken) -> Option<&'a Vec<String>>) -> &'a [String] {
        self.0.iter().find_map(pick).map_or(&[], |v| &v[..])
    }
}

/// Puts `option` into `list` in place of any of its kind (leaving it out when it changes
/// nothing), the list kept in the order the variants are declared.
pub fn take(list: &mut Vec<OptionTaken>, option: OptionTaken) {
    list.retain(|o| !o.same_kind(&option));
    if !option.is_nothing() {
        list.push(option);
    }
    list.sort_by_key(OptionTaken::rank);
}

/// The options that say what the older formats' fields said (saves of formats 2 and 3 are
/// migrated through this).
pub fn options_of(
    tactics: Vec<Tactic>,
    barrage: Vec<String>,
    accelerated_effort: Option<String>,
    flanking: bool,
    choices: AttackerChoices,
) -> Vec<OptionTaken> {
    let mut out = Vec::new();
    let flags = [
        (flanking, OptionTaken::Flanking),
        (choices.german_exchange, OptionTaken::Exchange),
    ];
    let taken = [
        OptionTaken::RetreatAsSteps(choices.retreat),
        OptionTaken::Tactics(tactics),
        OptionTaken::Barrage(barrage),
        OptionTaken::LossesFirst(choices.losses_first),
    ]
    .into_iter()
    .chain(accelerated_effort.map(OptionTaken::AcceleratedEffort))
    .chain(flags.into_iter().filter_map(|(on, o)| on.then_some(o)));
    for option in taken {
        take(&mut out, option);
    }
    out
}
