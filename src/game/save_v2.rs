//! Saves of the second format, written before the defender's choices were orders of their own:
//! an attack then carried the defender's options (No Retreat!, retreat or steps, evade,
//! withdraw, hold, who loses first). Reading one replays it under today's rules, giving each
//! attack's defender options back to the defender as its own `Defend` and `Answer` orders where
//! the game now asks for them, and checks that after each original entry the dice, their position
//! and the state hash are the ones recorded: the game is the same game, in today's log.

use super::execute::execute;
use super::hash::StateHash;
use super::log::{DieRecord, LogEntry, OrderLog};
use super::order::{AttackOrder, DefenseOrder, IssuedOrder, Order};
use super::retreat::AfterCombatMode;
use super::save_file::{LoadedGame, TurnFileInfo};
use crate::combat::options::options_of;
use crate::combat::{Choices, DefenderChoices, RetreatOrSteps, Tactic};
use crate::rules::grid::{Cell, as_label, as_labels};
use crate::scenario::file::RawScenario;
use crate::scenario::ruleset::RawRuleset;
use bevy::prelude::*;
use serde::Deserialize;

/// The second save format.
pub const FORMAT_2: u32 = 2;

/// A second-format save as written (every field, so an unknown one is still an error; the
/// format, writer and name are read but not carried over: the migrated game is written anew).
#[derive(Deserialize)]
#[serde(rename = "SavedGame", deny_unknown_fields)]
#[allow(dead_code)]
pub struct SavedGameV2 {
    pub format: u32,
    pub written_by: String,
    #[serde(default)]
    pub turn_file: Option<TurnFileInfo>,
    pub summary: String,
    pub scenario_name: String,
    pub scenario_hash: String,
    pub seed: u64,
    #[serde(default)]
    pub automatic_after_combat: bool,
    pub scenario: RawScenario,
    #[serde(default)]
    pub ruleset: Option<RawRuleset>,
    pub log: Vec<EntryV2>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryV2 {
    side: String,
    order: OrderV2,
    #[serde(default)]
    dice: Vec<DieRecord>,
    rng: (u64, u64),
    hash: StateHash,
}

#[derive(Deserialize)]
enum OrderV2 {
    Move {
        units: Vec<String>,
        #[serde(with = "as_label")]
        to: Cell,
    },
    Attack(AttackV2),
    Defend(DefendV2),
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
struct AttackV2 {
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
    no_retreat: bool,
    #[serde(default)]
    choices: Choices,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DefendV2 {
    #[serde(default)]
    tactics: Vec<Tactic>,
    #[serde(default)]
    barrage: Vec<String>,
    #[serde(default)]
    losses_first: Vec<String>,
}

/// What an old entry becomes: its order, and the defender's answers the old order carried.
struct Converted {
    order: Order,
    before_dice: Option<DefenseOrder>,
    to_result: Option<DefenderChoices>,
}

fn convert(order: OrderV2) -> Converted {
    let plain = |order| Converted {
        order,
        before_dice: None,
        to_result: None,
    };
    match order {
        OrderV2::Move { units, to } => plain(Order::Move { units, to }),
        OrderV2::Retreat { unit, path } => plain(Order::Retreat { unit, path }),
        OrderV2::Advance { units, to } => plain(Order::Advance { units, to }),
        OrderV2::EndAdvance => plain(Order::EndAdvance),
        OrderV2::EndPhase => plain(Order::EndPhase),
        OrderV2::Concede => plain(Order::Concede),
        OrderV2::Attack(a) => {
            let mut answer = a.choices.defender();
            if answer.retreat == RetreatOrSteps::Mix(0) {
                answer.retreat = RetreatOrSteps::Retreat;
            }
            Converted {
                order: Order::Attack(AttackOrder {
                    attackers: a.attackers,
                    target: a.target,
                    options: options_of(
                        a.tactics,
                        a.barrage,
                        a.accelerated_effort,
                        a.flanking,
                        a.choices.attacker(),
                    ),
                }),
                before_dice: Some(DefenseOrder {
                    no_retreat: a.no_retreat,
                    ..DefenseOrder::default()
                }),
                to_result: Some(answer),
            }
        }
        OrderV2::Defend(d) => Converted {
            order: Order::Defend(DefenseOrder {
                tactics: d.tactics,
                barrage: d.barrage,
                no_retreat: false,
            }),
            before_dice: None,
            // Rommel's defender picked who loses first with its tactics; it stands over the pick
            // made with the attack.
            to_result: (!d.losses_first.is_empty()).then(|| DefenderChoices {
                losses_first: d.losses_first,
                ..DefenderChoices::default()
            }),
        },
    }
}

/// Why a second-format entry does not carry over: its number (1-based) and what differs.
pub type NotMigrated = (usize, String);

/// `game`'s log (a second-format save's, parsed) rewritten as today's: the same game replayed,
/// each defender's answer its own entry, with where each old entry starts in it. The error names
/// the old entry that does not replay.
pub fn migrate_log(game: &LoadedGame, old: Vec<EntryV2>) -> Result<(Vec<LogEntry>, Vec<usize>), NotMigrated> {
    let mut app = super::headless_app(&game.scenario, game.seed);
    let world = app.world_mut();
    world.insert_resource(AfterCombatMode {
        automatic: game.automatic_after_combat,
    });
    super::start::respawn(world, &game.scenario, game.seed);
    super::start::set_edition(world, game.edition);
    // Rommel: the answer the attack carried waits for the defender's `Defend` entry.
    let mut carried: Option<DefenderChoices> = None;
    let mut starts = Vec::new();
    for (i, entry) in old.into_iter().enumerate() {
        let fail = |why: String| (i + 1, why);
        let first = world.resource::<OrderLog>().entries.len();
        starts.push(first);
        let c = convert(entry.order);
        let answer = match (&c.order, c.to_result) {
            (Order::Defend(_), Some(mine)) => Some(DefenderChoices {
                losses_first: mine.losses_first,
                ..carried.take().unwrap_or_default()
            }),
            (Order::Defend(_), None) => carried.take(),
            (_, answer) => answer,
        };
        if let (Order::Attack(a), Some(d)) = (&c.order, &c.before_dice) {
            turn_wide_no_retreat(world, a, d.no_retreat).map_err(fail)?;
        }
        execute(world, IssuedOrder::new(entry.side, c.order)).map_err(|r| fail(r.to_string()))?;
        answer_as_recorded(world, c.before_dice, answer, &mut carried).map_err(fail)?;
        let log = &world.resource::<OrderLog>().entries[first..];
        let dice: Vec<DieRecord> = log.iter().flat_map(|e| e.dice.clone()).collect();
        if dice != entry.dice {
            return Err(fail(format!(
                "the dice differ once the defender's answers are orders of their own: recorded {:?}, rolled {:?}",
                entry.dice.iter().map(|d| d.face).collect::<Vec<_>>(),
                dice.iter().map(|d| d.face).collect::<Vec<_>>()
            )));
        }
        let (Some(head), Some(last)) = (log.first(), log.last()) else {
            return Err(fail("the order left no entry".into()));
        };
        if (head.rng.0, last.rng.1) != entry.rng {
            return Err(fail(format!(
                "the dice position differs: recorded {:?}, replayed {:?}",
                entry.rng,
                (head.rng.0, last.rng.1)
            )));
        }
        // A declared attack (Rommel) no longer carries the defender's options: its combat part
        // may differ until the defender's answer.
        let declared = world.resource::<super::combat_phase::PendingCombat>().0.is_some();
        let now = hash_as_format_2(world);
        let differences: Vec<&str> = entry
            .hash
            .differences(&now)
            .into_iter()
            .filter(|d| !(declared && d.contains("declared combat")))
            .collect();
        if !differences.is_empty() {
            return Err(fail(format!("the state differs: {}", differences.join("; "))));
        }
    }
    Ok((world.resource::<OrderLog>().entries.clone(), starts))
}

/// The state hash as the second format computed it: it had no Russian No Retreat! decision for
/// a turn (a decision of today's, taken from the orders it did carry).
fn hash_as_format_2(world: &mut World) -> StateHash {
    let kept = world.remove_resource::<super::combat_phase::NoRetreatTurns>();
    let hash = super::hash::state_hash(world);
    if let Some(kept) = kept {
        world.insert_resource(kept);
    }
    hash
}

/// War Against Russia: the second format let each attack give the Russians No Retreat! orders or
/// not; the rules give them for a whole turn. An attack whose orders differ from the turn's
/// decision cannot carry over (the error says so rather than a hash mismatch).
fn turn_wide_no_retreat(world: &mut World, attack: &AttackOrder, no_retreat: bool) -> Result<(), String> {
    let turn = world.resource::<super::phase::TurnState>().clone();
    let defender = super::fight::defender_at(world, attack.target);
    let decided = defender.and_then(|d| {
        world
            .resource::<super::combat_phase::NoRetreatTurns>()
            .decided(turn.turn, d.0)
    });
    match decided {
        Some(given) if given != no_retreat => Err(format!(
            "the attack on {} {} the Russians No Retreat! orders, but an earlier attack of turn {} {}: the second \
             format let each attack choose, the rules give the orders to all Russian units for a whole turn, \
             so this game cannot carry over",
            attack.target,
            if no_retreat { "gives" } else { "does not give" },
            turn.turn,
            if given { "gave them" } else { "did not" }
        )),
        _ => Ok(()),
    }
}

/// Gives the defender's answers the old order carried where the game now waits for them: No
/// Retreat! before the dice (War Against Russia), the answer to the result. A Rommel attack
/// waiting for its `Defend` keeps its answer in `carried`.
fn answer_as_recorded(
    world: &mut World,
    before_dice: Option<DefenseOrder>,
    answer: Option<DefenderChoices>,
    carried: &mut Option<DefenderChoices>,
) -> Result<(), String> {
    let defender_id = |world: &World, side: usize| world.resource::<super::components::Sides>().0[side].id.clone();
    if let Some(declared) = world.resource::<super::combat_phase::PendingCombat>().0.clone() {
        if world.resource::<super::components::GameMap>().ruleset.secret_tactics() {
            *carried = answer;
            return Ok(());
        }
        let id = defender_id(world, declared.defender.0);
        let defense = before_dice.unwrap_or_default();
        execute(world, IssuedOrder::new(id, Order::Defend(defense))).map_err(|r| r.to_string())?;
    }
    if let Some(waiting) = world.resource::<super::combat_phase::PendingAnswer>().0.clone() {
        let id = defender_id(world, waiting.defender.0);
        let answer = answer.unwrap_or_default();
        execute(world, IssuedOrder::new(id, Order::Answer(answer))).map_err(|r| r.to_string())?;
    }
    Ok(())
}
