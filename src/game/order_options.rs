//! The orders the rules allow now, by kind, with the values each field may take (not every
//! combination): what a server tells a bot, and what the random player picks from. Any order
//! built from these values may still be refused (a move into a cell another stack's move would
//! need); the refusal names the rule.

use super::advance::advance_options;
use super::combat_phase::{GameView, PendingAdvances, PendingAnswer, PendingCombat, PendingRetreats, plan_attack};
use super::components::{Sides, Unit};
use super::execute::issuer;
use super::movement::{may_end_in, movers_and_others, search_moves};
use super::order::{AttackOrder, DefenseOrder, Order};
use super::phase::{GameState, Phase};
use super::retreat::waiting_retreat_paths;
use crate::combat::{DefenderChoices, OptionTaken};
use crate::rules::grid::{Cell, as_label, as_labels};
use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// A stack (or one unit of it) and the cells it may move to and end in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveChoice {
    pub units: Vec<String>,
    #[serde(with = "as_labels")]
    pub to: Vec<Cell>,
}

/// Units that may attack a cell together (any part of them may too).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttackChoice {
    pub units: Vec<String>,
    #[serde(with = "as_label")]
    pub target: Cell,
}

/// One kind of order the game takes now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OrderKind {
    EndPhase,
    Move {
        stacks: Vec<MoveChoice>,
    },
    /// `options`: options any of these attacks may take, at most one of each kind (Rommel's
    /// tactics, one value each; a retreat taken as steps; the exchange where the side to play may
    /// choose it). Those naming units (an Accelerated Effort, a barrage, who loses first) are the
    /// attacker's to build from its units.
    Attack {
        attacks: Vec<AttackChoice>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        options: Vec<OptionTaken>,
    },
    Defend {
        options: Vec<DefenseOrder>,
    },
    Answer {
        options: Vec<DefenderChoices>,
    },
    Retreat {
        unit: String,
        #[serde(with = "paths_as_labels")]
        paths: Vec<Vec<Cell>>,
    },
    /// Advance orders after combat (each one unit to one cell), and whether ending the advance
    /// is allowed.
    Advance {
        moves: Vec<Order>,
        may_end: bool,
    },
    Concede,
}

/// What the game waits for: the side (id) that must give the next order, and the kinds it may
/// give. No side when the game is not being played.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OrderOptions {
    pub side: Option<String>,
    pub kinds: Vec<OrderKind>,
}

mod paths_as_labels {
    use crate::rules::grid::{Cell, label, parse_label};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(paths: &[Vec<Cell>], s: S) -> Result<S::Ok, S::Error> {
        let labels: Vec<Vec<String>> = paths.iter().map(|p| p.iter().map(|c| label(*c)).collect()).collect();
        labels.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<Cell>>, D::Error> {
        let labels: Vec<Vec<String>> = Vec::deserialize(d)?;
        labels
            .iter()
            .map(|p| {
                p.iter()
                    .map(|l| parse_label(l).map_err(serde::de::Error::custom))
                    .collect()
            })
            .collect()
    }
}

fn unit_id(world: &World, e: Entity) -> String {
    world.get::<Unit>(e).map_or_else(String::new, |u| u.id.clone())
}

/// The orders the game takes now.
pub fn order_options(world: &mut World) -> OrderOptions {
    if world.get_resource::<State<GameState>>().map(|s| *s.get()) != Some(GameState::Playing) {
        return OrderOptions::default();
    }
    let kinds = if world.resource::<PendingCombat>().0.is_some() {
        vec![OrderKind::Defend {
            options: super::fight::defense_options(world),
        }]
    } else if let Some(w) = world.resource::<PendingAnswer>().0.clone() {
        vec![OrderKind::Answer {
            options: w.options.iter().map(|o| o.choices.clone()).collect(),
        }]
    } else if !world.resource::<PendingRetreats>().0.is_empty() {
        retreat_paths(world)
            .map(|(unit, paths)| vec![OrderKind::Retreat { unit, paths }])
            .unwrap_or_default()
    } else if !world.resource::<PendingAdvances>().0.is_empty() {
        let (moves, may_end) = advance_choices(world);
        vec![OrderKind::Advance { moves, may_end }]
    } else {
        phase_kinds(world)
    };
    let probe = match kinds.first() {
        Some(OrderKind::Defend { .. }) => Order::Defend(DefenseOrder::default()),
        Some(OrderKind::Answer { .. }) => Order::Answer(DefenderChoices::default()),
        Some(OrderKind::Retreat { unit, .. }) => Order::Retreat {
            unit: unit.clone(),
            path: Vec::new(),
        },
        Some(OrderKind::Advance { .. }) => Order::EndAdvance,
        _ => Order::EndPhase,
    };
    let side = issuer(world, &probe)
        .ok()
        .flatten()
        .and_then(|(s, _)| world.resource::<Sides>().0.get(s).map(|i| i.id.clone()));
    OrderOptions { side, kinds }
}

/// In a phase with nothing pending: moves or attacks as the phase allows, an owed attack before
/// the phase may end, ending the phase, conceding.
fn phase_kinds(world: &mut World) -> Vec<OrderKind> {
    let phase = *world.resource::<State<Phase>>().get();
    let mut kinds = Vec::new();
    match phase {
        Phase::Movement | Phase::Exploitation => kinds.push(OrderKind::Move {
            stacks: move_choices(world),
        }),
        Phase::Combat => kinds.push(OrderKind::Attack {
            attacks: attack_choices(world),
            options: attack_option_values(world),
        }),
        _ => {}
    }
    if let Some(owed) = super::must_attack::owed_attack(world) {
        // The must-attack rule: this attack comes before the phase may end.
        kinds.push(OrderKind::Attack {
            attacks: vec![AttackChoice {
                units: owed.attackers.clone(),
                target: owed.target,
            }],
            options: Vec::new(),
        });
    } else {
        kinds.push(OrderKind::EndPhase);
    }
    kinds.push(OrderKind::Concede);
    kinds
}

type MoveQuery = Query<'static, 'static, super::movement::MoverData>;

/// The cells `units` (one stack, or part of it) may move to and end in, nearest first by label.
pub fn reach_of(world: &mut World, units: &[Entity]) -> Option<Vec<Cell>> {
    let mut state: SystemState<(GameView, MoveQuery)> = SystemState::new(world);
    let (view, query) = state.get(world).ok()?;
    let (movers, others) = movers_and_others(units, &query).ok()?;
    let phase = *world.resource::<State<Phase>>().get();
    let active = view.turn.active;
    let search = search_moves(&view.map, &view.zoc.0, phase, active, &movers, &others).ok()?;
    let mut cells: Vec<Cell> = search
        .reach
        .keys()
        .copied()
        .filter(|c| *c != search.start && may_end_in(&view.map, active, &movers, &others, *c) == Ok(None))
        .collect();
    cells.sort();
    Some(cells)
}

/// Every stack of the side to move with the cells it may reach.
fn move_choices(world: &mut World) -> Vec<MoveChoice> {
    let stacks = super::attack_options::own_stacks(world);
    stacks
        .into_iter()
        .filter_map(|stack| {
            let to = reach_of(world, &stack).filter(|c| !c.is_empty())?;
            Some(MoveChoice {
                units: stack.iter().map(|e| unit_id(world, *e)).collect(),
                to,
            })
        })
        .collect()
}

/// Every attack by one adjacent stack or all of them that the rules allow as a plain attack.
fn attack_choices(world: &mut World) -> Vec<AttackChoice> {
    let candidates = super::attack_options::adjacent_attacks(world);
    candidates
        .into_iter()
        .filter_map(|(units, target)| {
            let ids: Vec<String> = units.iter().map(|e| unit_id(world, *e)).collect();
            let allowed = world
                .run_system_cached_with(plan_attack, (AttackOrder::plain(ids.clone(), target), None))
                .is_ok_and(|r| r.is_ok());
            allowed.then_some(AttackChoice { units: ids, target })
        })
        .collect()
}

/// The unit whose retreat the game asks for, and its legal paths.
pub fn retreat_paths(world: &mut World) -> Option<(String, Vec<Vec<Cell>>)> {
    let p = world.resource::<PendingRetreats>().0.first()?.clone();
    let paths = waiting_retreat_paths(world, &p)?
        .iter()
        .map(|l| l.cells.to_vec())
        .collect();
    Some((unit_id(world, p.unit), paths))
}

/// The advances open after the current combat (a unit to a cell each), and whether the advance
/// may end now.
pub fn advance_choices(world: &mut World) -> (Vec<Order>, bool) {
    let Some(p) = world.resource::<PendingAdvances>().0.first().cloned() else {
        return (Vec::new(), true);
    };
    let mut choices = Vec::new();
    {
        let mut state: SystemState<GameView> = SystemState::new(world);
        let Ok(view) = state.get(world) else {
            return (Vec::new(), true);
        };
        let leader_moved = p.moved.iter().any(|m| p.attackers.contains(m));
        for &e in p.attackers.iter().chain(&p.followers) {
            let live = view.units.get(e).is_ok_and(|d| d.cell() != p.into) && !p.moved.contains(&e);
            if !live || (p.followers.contains(&e) && !leader_moved) {
                continue;
            }
            for t in advance_options(&view.map, &view.index, &view.units, &p, e) {
                if t.allowed.is_ok() {
                    choices.push(Order::Advance {
                        units: vec![unit_id(world, e)],
                        to: t.cell,
                    });
                }
            }
        }
    }
    let attacker_moved = p.moved.iter().any(|m| p.attackers.contains(m));
    let may_end = !p.right.mandatory || attacker_moved || choices.is_empty();
    (choices, may_end)
}

/// A random order built from `options` (one kind, then each field's value, with the xorshift
/// generator `rng`): what the example bot and the load tool send.
pub fn random_pick(options: &OrderOptions, rng: &mut u64) -> Option<Order> {
    let mut roll = |n: usize| {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        (*rng % n.max(1) as u64) as usize
    };
    let mut orders = Vec::new();
    for k in &options.kinds {
        match k {
            OrderKind::Move { stacks } if !stacks.is_empty() => {
                let s = &stacks[roll(stacks.len())];
                if let Some(to) = s.to.get(roll(s.to.len())) {
                    orders.push(Order::Move {
                        units: s.units.clone(),
                        to: *to,
                    });
                }
            }
            OrderKind::Attack { attacks, .. } if !attacks.is_empty() => {
                let a = &attacks[roll(attacks.len())];
                orders.push(Order::Attack(AttackOrder::plain(a.units.clone(), a.target)));
            }
            OrderKind::Defend { options } if !options.is_empty() => {
                orders.push(Order::Defend(options[roll(options.len())].clone()))
            }
            OrderKind::Answer { options } if !options.is_empty() => {
                orders.push(Order::Answer(options[roll(options.len())].clone()))
            }
            OrderKind::Retreat { unit, paths } if !paths.is_empty() => orders.push(Order::Retreat {
                unit: unit.clone(),
                path: paths[roll(paths.len())].clone(),
            }),
            OrderKind::Advance { moves, may_end } => {
                orders.extend(moves.iter().cloned());
                if *may_end {
                    orders.push(Order::EndAdvance);
                }
            }
            OrderKind::EndPhase => orders.push(Order::EndPhase),
            _ => {}
        }
    }
    (!orders.is_empty()).then(|| orders[roll(orders.len())].clone())
}

/// The options an attack by the side to play may take that name no unit, a value each.
fn attack_option_values(world: &World) -> Vec<OptionTaken> {
    use crate::combat::AttackerOption as O;
    let side = world.resource::<super::phase::TurnState>().active.0;
    let side_id = world
        .resource::<Sides>()
        .0
        .get(side)
        .map(|s| s.id.clone())
        .unwrap_or_default();
    let rules = &world.resource::<super::components::GameMap>().ruleset.combat;
    let mut out = Vec::new();
    for option in rules.system().attacker_options() {
        match option {
            O::Tactics(list) => out.extend(list.into_iter().map(|t| OptionTaken::Tactics(vec![t]))),
            O::RetreatAsSteps => out.push(OptionTaken::RetreatAsSteps(crate::combat::RetreatOrSteps::Steps)),
            O::Exchange { nations } if nations.iter().any(|n| n.eq_ignore_ascii_case(&side_id)) => {
                out.push(OptionTaken::Exchange)
            }
            O::Exchange { .. } | O::AcceleratedEffort | O::Barrage | O::Flanking => {}
        }
    }
    out
}
