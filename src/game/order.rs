//! The one way to change a game: an `Order`, issued by a side, naming units by their scenario id
//! and cells by their board label, so that it means the same after a load, in a replay, in a turn
//! file and from the computer player. `execute.rs` checks and carries them out; `log.rs` records
//! them. Orders are plain serde data (RON in saves and turn files).

use crate::combat::{AttackerChoices, DefenderChoices, OptionTaken, RetreatOrSteps, Tactic, Taken};
use crate::rules::grid::{Cell, as_label, as_labels};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// An order with the side that issues it (a side id such as `german`), as `execute::execute`
/// carries it out (or refuses it with `OrderRefused`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IssuedOrder {
    pub side: String,
    pub order: Order,
    /// A link of the other player's hash chain, mixed into this order's dice (a game hosted by
    /// one of its players: `dice_proof`).
    pub link: Option<String>,
}

impl IssuedOrder {
    pub fn new(side: impl Into<String>, order: Order) -> Self {
        Self {
            side: side.into(),
            order,
            link: None,
        }
    }

    /// The order with `link` mixed into its dice.
    pub fn with_link(self, link: String) -> Self {
        Self {
            link: Some(link),
            ..self
        }
    }
}

/// Everything a player (or the computer, or a test) can do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Order {
    /// Move these units (one stack, or part of it) to `to` along the cheapest legal path.
    Move {
        units: Vec<String>,
        #[serde(with = "as_label")]
        to: Cell,
    },
    /// Attack the units in a cell, with every option the ruleset gives.
    Attack(AttackOrder),
    /// The defender's answer before the dice to a declared attack (Rommel: its secret tactics and
    /// barrage, both sides' tactics then revealed; War Against Russia: No Retreat! orders); the
    /// combat is then rolled.
    Defend(DefenseOrder),
    /// The defender's answer to a combat's result, where the rules give it one (retreat or take
    /// steps, evade, withdraw, try to hold, who takes losses first).
    Answer(DefenderChoices),
    /// The path (cells after the start) for the retreat the game is asking about.
    Retreat {
        unit: String,
        #[serde(with = "as_labels")]
        path: Vec<Cell>,
    },
    /// Advance these attackers (or their followers) into `to` after combat.
    Advance {
        units: Vec<String>,
        #[serde(with = "as_label")]
        to: Cell,
    },
    /// Done advancing after the current combat (Stay, when nobody advanced).
    EndAdvance,
    /// End the current phase.
    EndPhase,
    /// Give up: the other side wins.
    Concede,
}

/// An attack and the options the attacker takes, each one its combat system offers
/// (`CombatSystem::takes`). The defender's options are the defender's own orders: `Defend` before
/// the dice, `Answer` after the result. (Formats before 4 wrote each option as a field of its
/// own: `save_v3.rs`.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackOrder {
    pub attackers: Vec<String>,
    #[serde(with = "as_label")]
    pub target: Cell,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionTaken>,
}

/// What the defender brings to a declared attack before the dice.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefenseOrder {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tactics: Vec<Tactic>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub barrage: Vec<String>,
    /// War Against Russia: the defenders are put under No Retreat! orders (Russians: all their
    /// units for the rest of the turn).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_retreat: bool,
}

impl AttackOrder {
    /// An attack with no options: the units and the target.
    pub fn plain(attackers: Vec<String>, target: Cell) -> Self {
        Self {
            attackers,
            target,
            options: Vec::new(),
        }
    }

    /// The attack taking `option` too (in place of any of its kind).
    pub fn with(mut self, option: OptionTaken) -> Self {
        self.take(option);
        self
    }

    /// Takes `option` (in place of any of its kind; left out when it changes nothing).
    pub fn take(&mut self, option: OptionTaken) {
        crate::combat::options::take(&mut self.options, option);
    }

    /// The options read as the combat's inputs.
    pub fn taken(&self) -> Taken<'_> {
        Taken(&self.options)
    }

    /// The order as the other side may know it before the reveal: the secret tactics taken out.
    pub fn without_secrets(&self) -> Self {
        Self {
            options: self
                .options
                .iter()
                .filter(|o| !matches!(o, OptionTaken::Tactics(_)))
                .cloned()
                .collect(),
            ..self.clone()
        }
    }

    /// Refuses an option the combat system does not offer, and one taken twice.
    pub fn check_options(&self, system: &dyn crate::combat::CombatSystem) -> Result<(), String> {
        for (i, option) in self.options.iter().enumerate() {
            if self.options[..i].iter().any(|o| o.same_kind(option)) {
                return Err(format!("the attack takes {} twice", option.name()));
            }
            if !system.takes(option) {
                return Err(format!(
                    "{} has no {} option for the attacker",
                    system.name(),
                    option.name()
                ));
            }
        }
        Ok(())
    }
}

impl Order {
    /// Every list of unit ids in the order names each unit once; the first named twice is the
    /// error (a unit counted twice would fight or stack twice).
    pub fn check_units_once(&self) -> Result<(), String> {
        let lists: Vec<&[String]> = match self {
            Order::Move { units, .. } | Order::Advance { units, .. } => vec![units],
            Order::Attack(a) => vec![&a.attackers, a.taken().barrage(), a.taken().losses_first()],
            Order::Defend(d) => vec![&d.barrage],
            Order::Answer(c) => vec![&c.losses_first],
            _ => Vec::new(),
        };
        for list in lists {
            for (i, id) in list.iter().enumerate() {
                if list[..i].contains(id) {
                    return Err(format!("{id} is named twice in the order"));
                }
            }
        }
        Ok(())
    }

    /// Whether the order's content is secret from the other side until a later order reveals it
    /// (Rommel's attack tactics).
    pub fn has_secret(&self) -> bool {
        matches!(self, Order::Attack(a) if !a.taken().tactics().is_empty())
    }

    /// The order in words, e.g. `move de-xxiv 0617→0618`; `from` tells where a unit stands.
    pub fn words(&self, from: &dyn Fn(&str) -> Option<Cell>) -> String {
        self.words_with(&|id| (id.to_string(), from(id)))
    }

    /// The order in words, each unit named by `unit` (its label, and where it stands).
    pub fn words_with(&self, unit: &dyn Fn(&str) -> (String, Option<Cell>)) -> String {
        let names = |ids: &[String]| ids.iter().map(|id| unit(id).0).collect::<Vec<_>>().join(", ");
        let from_to = |id: &str, rest: String| match unit(id).1 {
            Some(s) => format!("{s}→{rest}"),
            None => format!("→{rest}"),
        };
        match self {
            Order::Move { units: ids, to } => {
                let route = ids.first().map_or(format!("→{to}"), |id| from_to(id, to.to_string()));
                format!("move {} {route}", names(ids))
            }
            Order::Attack(a) => {
                let mut text = format!("attack {} with {}", a.target, names(&a.attackers));
                let taken = a.taken();
                let mut options = Vec::new();
                if !taken.tactics().is_empty() {
                    options.push(format!("tactics {}", tactic_names(taken.tactics())));
                }
                if !taken.barrage().is_empty() {
                    options.push(format!("barrage by {}", names(taken.barrage())));
                }
                if let Some(u) = taken.accelerated_effort() {
                    options.push(format!("accelerated effort by {}", unit(u).0));
                }
                if taken.flanking() {
                    options.push("flanking".into());
                }
                options.extend(attacker_choice_words(&taken.attacker_choices()));
                if !options.is_empty() {
                    text += &format!(" ({})", options.join("; "));
                }
                text
            }
            Order::Defend(d) => {
                let mut parts = Vec::new();
                if !d.tactics.is_empty() {
                    parts.push(format!("tactics {}", tactic_names(&d.tactics)));
                }
                if !d.barrage.is_empty() {
                    parts.push(format!("barrage by {}", names(&d.barrage)));
                }
                if d.no_retreat {
                    parts.push("No Retreat! orders".into());
                }
                if parts.is_empty() {
                    parts.push("no orders".into());
                }
                format!("defend: {}", parts.join(", "))
            }
            Order::Answer(c) => format!("answer the result: {}", answer_words(c, &|id| unit(id).0)),
            Order::Retreat { unit: id, path } => {
                let route: Vec<String> = path.iter().map(ToString::to_string).collect();
                format!("retreat {} {}", unit(id).0, from_to(id, route.join("→")))
            }
            Order::Advance { units: ids, to } => format!("advance {} into {to}", names(ids)),
            Order::EndAdvance => "end the advance".into(),
            Order::EndPhase => "end the phase".into(),
            Order::Concede => "concede".into(),
        }
    }

    /// The order as the other side may read it before the reveal: a secret left out.
    pub fn without_secrets(&self) -> (Order, bool) {
        match self {
            Order::Attack(a) if self.has_secret() => (Order::Attack(a.without_secrets()), true),
            other => (other.clone(), false),
        }
    }

    /// `words_with` as the other side may read it before the reveal: a secret left out and said
    /// to be hidden.
    pub fn public_words_with(&self, unit: &dyn Fn(&str) -> (String, Option<Cell>)) -> String {
        match self.without_secrets() {
            (open, true) => format!("{} (tactics hidden until the defender answers)", open.words_with(unit)),
            (open, false) => open.words_with(unit),
        }
    }
}

/// Tactic names for the log, `none` for an empty list.
pub fn tactic_names(tactics: &[Tactic]) -> String {
    if tactics.is_empty() {
        return "none".into();
    }
    tactics.iter().map(Tactic::name).collect::<Vec<_>>().join(" + ")
}

fn retreat_or_steps_words(who: &str, r: RetreatOrSteps) -> Option<String> {
    match r {
        RetreatOrSteps::Retreat => None,
        RetreatOrSteps::Steps => Some(format!("{who} takes steps instead of retreating")),
        RetreatOrSteps::Mix(n) => Some(format!(
            "{who} takes {} for hexes of retreat",
            crate::rules::units::counted(n, "step", "steps")
        )),
    }
}

fn attacker_choice_words(c: &AttackerChoices) -> Vec<String> {
    let mut out = Vec::new();
    out.extend(retreat_or_steps_words("attacker", c.retreat));
    if c.german_exchange {
        out.push("German exchange".into());
    }
    if !c.losses_first.is_empty() {
        out.push(format!("{} first to lose", c.losses_first.join(", ")));
    }
    out
}

/// The defender's answer in words, units named by `name`: `retreat`, `takes steps instead of
/// retreating; 2nd Bn takes losses first`.
pub fn answer_words(c: &DefenderChoices, name: &dyn Fn(&str) -> String) -> String {
    let mut out = Vec::new();
    out.extend(retreat_or_steps_words("defender", c.retreat));
    if c.hold {
        out.push("tries to hold".into());
    }
    if c.attrition_as_retreat {
        out.push("a hex of retreat for the attritional loss".into());
    }
    if !c.evade {
        out.push("no evasion".into());
    }
    if c.withdraw {
        out.push("the defenders withdraw".into());
    }
    if c.names_infantry {
        out.push("names infantry for the attacker's first loss (8.96)".into());
    }
    for id in &c.losses_first {
        out.push(format!("{} takes losses first", name(id)));
    }
    if out.is_empty() {
        return "the plain answer: as the result says".into();
    }
    out.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_round_trip_through_ron_with_cells_as_labels() {
        let orders = vec![
            IssuedOrder::new(
                "german",
                Order::Move {
                    units: vec!["de-2pz".into()],
                    to: Cell::new(11, 11),
                },
            ),
            IssuedOrder::new(
                "us",
                Order::Attack(
                    AttackOrder::plain(vec!["a".into(), "b".into()], Cell::new(0, 1))
                        .with(OptionTaken::Tactics(vec![Tactic::Recce])),
                ),
            ),
            IssuedOrder::new(
                "us",
                Order::Retreat {
                    unit: "a".into(),
                    path: vec![Cell::new(1, 1), Cell::new(2, 1)],
                },
            ),
            IssuedOrder::new("us", Order::EndPhase),
        ];
        let text = ron::to_string(&orders).unwrap();
        assert!(text.contains("to:\"1212\""), "{text}");
        assert!(text.contains("path:[\"0202\",\"0302\"]"), "{text}");
        let back: Vec<IssuedOrder> = ron::from_str(&text).unwrap();
        assert_eq!(back, orders);
    }

    #[test]
    fn a_move_in_words_names_the_units_and_both_cells() {
        let order = Order::Move {
            units: vec!["de-xxiv".into()],
            to: Cell::new(5, 17),
        };
        let words = order.words(&|_| Some(Cell::new(5, 16)));
        assert_eq!(words, "move de-xxiv 0617→0618");
    }
}
