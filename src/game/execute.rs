//! The one place orders are checked and carried out. `execute` refuses an order from a side not
//! entitled to act or one the rules forbid (naming the order and the rule, changing nothing), or
//! carries it out, settles what follows by itself (retreats and advances with no choice to make,
//! the phase bookkeeping, objectives, sudden death) and records it in the `OrderLog` with its dice
//! and the state hash. `replay` runs a recorded log again and checks every entry.

use super::advance::{AdvanceChoice, carry_out_advances};
use super::combat_phase::{self, PendingAdvances, PendingCombat, PendingRetreats, run};
use super::components::{GameLog, GameMap, GameRng, Position, Sides, Unit, UnitIds};
use super::hash::state_hash;
use super::log::{DieRecord, LogEntry, OrderLog, When};
use super::order::{IssuedOrder, Order};
use super::phase::{GameState, TurnState, end_phase};
use super::retreat::{carry_out_retreats, retreat_chooser};
use super::victory::Verdict;
use crate::rules::grid::Cell;
use bevy::prelude::*;
use std::fmt;

/// An order was refused, and why; nothing changed.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct OrderRefused {
    /// The order in words, units by name (`move XXIV Corps 0617→0618`).
    pub order: String,
    /// The rule it breaks.
    pub reason: String,
}

impl fmt::Display for OrderRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "refused: {}: {}", self.order, self.reason)
    }
}

impl std::error::Error for OrderRefused {}

pub(super) fn plugin(app: &mut App) {
    // A refusal is also a message, for the client's status bar.
    app.add_message::<OrderRefused>()
        .init_resource::<OrderLog>()
        .init_resource::<BeforeOrder>();
}

/// What views registered to be called with each new order just before it is carried out (once
/// it was found entitled), while the world is as it was: presentation mode takes a combat's odds
/// this way (`fight::take_odds_before_roll`). They change nothing of the game; replayed orders
/// call none.
#[derive(Resource, Default)]
pub struct BeforeOrder(pub Vec<fn(&mut World, &Order)>);

/// Where a unit stands, by id (for orders in words).
fn position_of(world: &World, id: &str) -> Option<Cell> {
    let e = world.get_resource::<UnitIds>()?.0.get(id).copied()?;
    world.get::<Position>(e).map(|p| p.0)
}

/// The order in words, units by id, with their cells as they stand now (refusals, `replay`).
pub fn order_words(world: &World, order: &Order) -> String {
    order.words(&|id| position_of(world, id))
}

/// A unit as the players read it in an order: its name (its id once it is gone) and its cell.
fn unit_label(world: &World, id: &str) -> (String, Option<Cell>) {
    let e = world.get_resource::<UnitIds>().and_then(|ids| ids.0.get(id).copied());
    let name = e
        .and_then(|e| world.get::<Unit>(e))
        .map_or(id.to_string(), |u| u.name.clone());
    (name, position_of(world, id))
}

/// The order in words for the players: units by name, and a secret (Rommel's attack tactics)
/// left out, as the other side may read it before the reveal.
pub fn public_words(world: &World, order: &Order) -> String {
    order.public_words_with(&|id| unit_label(world, id))
}

/// Checks `issued` and carries it out, then settles what follows and records it; returns the
/// index of its log entry. A refused order changes nothing.
pub fn execute(world: &mut World, issued: IssuedOrder) -> Result<usize, OrderRefused> {
    // The refusal names units as the players know them (by name), secrets left out.
    let refuse = |world: &World, reason: String| OrderRefused {
        order: public_words(world, &issued.order),
        reason,
    };
    let side = match entitled(world, &issued).and_then(|side| issued.order.check_units_once().map(|()| side)) {
        Ok(side) => side,
        Err(reason) => return Err(refuse(world, reason)),
    };
    let when = {
        let t = world.resource::<TurnState>();
        When {
            turn: t.turn,
            side: t.active.0,
            phase: t.phase_index,
        }
    };
    let rng_before = {
        let mut rng = world.resource_mut::<GameRng>();
        if let Some(link) = &issued.link {
            rng.mix(link);
        }
        rng.rolled.clear();
        rng.position()
    };
    let first_line = world.resource::<GameLog>().0.len();
    let public = public_words(world, &issued.order);
    let named = issued.order.words_with(&|id| unit_label(world, id));
    if let Some(hooks) = world.get_resource::<BeforeOrder>().map(|h| h.0.clone()) {
        for hook in hooks {
            hook(world, &issued.order);
        }
        debug_assert_eq!(
            world.resource::<GameRng>().position(),
            rng_before,
            "a BeforeOrder hook rolled a die"
        );
    }
    if let Err(reason) = carry_out(world, side, issued.order.clone()) {
        return Err(OrderRefused {
            order: public.clone(),
            reason,
        });
    }
    super::settle::settle(world);
    let hash = state_hash(world);
    let (dice, rng_after) = {
        let mut rng = world.resource_mut::<GameRng>();
        let dice = rng.rolled.drain(..).map(|r| DieRecord::from(&r)).collect();
        (dice, rng.position())
    };
    let lines = world.resource::<GameLog>().0.get(first_line..).unwrap_or(&[]).to_vec();
    let mut log = world.resource_mut::<OrderLog>();
    if log.undone.last() == Some(&issued) {
        log.undone.pop(); // a redo
    } else {
        log.undone.clear();
    }
    log.entries.push(LogEntry {
        side: issued.side,
        order: issued.order,
        dice,
        rng: (rng_before, rng_after),
        hash,
        link: issued.link,
        lines,
        when,
        words: named,
        public,
    });
    Ok(log.entries.len() - 1)
}

/// Which side (by index) issues the order, once it is clear that side may issue it now.
fn entitled(world: &World, issued: &IssuedOrder) -> Result<usize, String> {
    let sides = world.resource::<Sides>();
    let side = sides.0.iter().position(|s| s.id == issued.side).ok_or_else(|| {
        let known: Vec<&str> = sides.0.iter().map(|s| s.id.as_str()).collect();
        format!(
            "there is no side `{}` (the sides are {})",
            issued.side,
            known.join(", ")
        )
    })?;
    match issuer(world, &issued.order)? {
        None => Ok(side),
        Some((who, _)) if who == side => Ok(side),
        Some((who, what)) => {
            let name = |i: usize| sides.0.get(i).map_or("?", |s| s.name.as_str()).to_string();
            Err(format!("{} {what}, not {}", name(who), name(side)))
        }
    }
}

/// The side (by index) that may give `order` now, with what it does in words (`None`: any side,
/// as for conceding), or why nobody may.
pub fn issuer(world: &World, order: &Order) -> Result<Option<(usize, String)>, String> {
    if world.get_resource::<State<GameState>>().map(|s| *s.get()) != Some(GameState::Playing) {
        return Err("the game is over".into());
    }
    let sides = world.resource::<Sides>().0.len();
    let active = world.resource::<TurnState>().active.0;
    let declared = &world.resource::<PendingCombat>().0;
    let answer = &world.resource::<combat_phase::PendingAnswer>().0;
    let retreats = &world.resource::<PendingRetreats>().0;
    let advances = &world.resource::<PendingAdvances>().0;
    match order {
        Order::Concede => Ok(None),
        Order::Defend(_) => match declared {
            Some(c) => Ok(Some((
                c.defender.0,
                format!("answers the attack on {}", c.order.target),
            ))),
            None => Err("no attack is waiting for the defender's answer".into()),
        },
        _ if declared.is_some() => Err(format!(
            "the attack on {} waits for the defender's answer first",
            declared.as_ref().map_or(String::new(), |c| c.order.target.to_string())
        )),
        Order::Answer(_) => match answer {
            Some(w) => Ok(Some((
                w.defender.0,
                format!("answers the result of the combat at {}", w.order.target),
            ))),
            None => Err("no combat result is waiting for the defender's answer".into()),
        },
        _ if answer.is_some() => Err(format!(
            "the combat at {} waits for the defender's answer to its result first",
            answer.as_ref().map_or(String::new(), |w| w.order.target.to_string())
        )),
        Order::Retreat { .. } => {
            let Some(p) = retreats.first() else {
                return Err("no retreat is waiting for a choice".into());
            };
            let owner = world.get::<super::components::Side>(p.unit).map_or(active, |s| s.0);
            match retreat_chooser(p.demand.chooser, owner, sides) {
                Some(chooser) => Ok(Some((chooser, "chooses this retreat".into()))),
                None => Err("a die picks this retreat".into()),
            }
        }
        _ if !retreats.is_empty() => Err("the last combat's retreats come first".into()),
        Order::Advance { .. } | Order::EndAdvance if advances.is_empty() => {
            Err("no advance after combat is waiting".into())
        }
        Order::Advance { .. } | Order::EndAdvance => Ok(Some((active, "advances after its attack".into()))),
        _ if !advances.is_empty() => Err("the last combat's advance comes first (advance or end the advance)".into()),
        _ => Ok(Some((active, "is to play".into()))),
    }
}

/// Gives `order` as the side entitled to give it now (the side to play for a concession): what a
/// hotseat client, where both players sit at one screen, and tests do.
pub fn issue(world: &mut World, order: Order) -> Result<usize, OrderRefused> {
    let side = match issuer(world, &order) {
        Ok(Some((who, _))) => who,
        Ok(None) => world.resource::<TurnState>().active.0,
        Err(reason) => {
            return Err(OrderRefused {
                order: public_words(world, &order),
                reason,
            });
        }
    };
    let id = world.resource::<Sides>().0[side].id.clone();
    execute(world, IssuedOrder::new(id, order))
}

/// The entities of unit ids on the map.
fn entities(world: &World, ids: &[String]) -> Result<Vec<Entity>, String> {
    let map = world.resource::<UnitIds>();
    ids.iter()
        .map(|id| {
            let e = map.entity(id)?;
            if world.get::<Unit>(e).is_some() {
                Ok(e)
            } else {
                Err(format!("{id} is no longer on the map"))
            }
        })
        .collect()
}

/// Carries out an order of an entitled side; an `Err` means the rules refuse it and nothing
/// changed.
fn carry_out(world: &mut World, side: usize, order: Order) -> Result<(), String> {
    match order {
        Order::Move { units, to } => {
            let units = entities(world, &units)?;
            run(world, super::movement::move_units, (units, to))?
        }
        Order::Attack(attack) => {
            if super::fight::waits_for_defense(world, &attack) {
                super::fight::declare(world, attack)
            } else {
                let defense = super::fight::standing_defense(world, &attack);
                super::fight::fight(world, attack, defense)
            }
        }
        Order::Defend(defense) => {
            let declared = world.resource::<PendingCombat>().0.clone();
            let declared = declared.ok_or("no attack is waiting for the defender's answer")?;
            check_defense(world, &defense)?;
            let for_the_turn = super::fight::decides_the_turn(world, &declared);
            super::fight::fight(world, declared.order.clone(), Some(defense.clone()))?;
            if for_the_turn {
                super::fight::remember_no_retreat(world, &declared, &defense);
            }
            Ok(())
        }
        Order::Answer(choices) => super::fight::answer(world, choices),
        Order::Retreat { unit, path } => {
            let unit = entities(world, &[unit])?[0];
            run(world, carry_out_retreats, Some((unit, path)))?
        }
        Order::Advance { units, to } => {
            let units = entities(world, &units)?;
            run(world, carry_out_advances, AdvanceChoice::Advance(units, to))?
        }
        Order::EndAdvance => run(world, carry_out_advances, AdvanceChoice::End)?,
        Order::EndPhase => {
            let rules = world
                .get_resource::<super::components::PhaseEndRules>()
                .map(|r| r.0.clone())
                .unwrap_or_default();
            for rule in rules {
                rule(world)?;
            }
            run(world, end_phase, ())?
        }
        Order::Concede => {
            concede(world, side);
            Ok(())
        }
    }
}

/// A defence the ruleset can take: tactics and barrage in Rommel, No Retreat! orders in War
/// Against Russia.
fn check_defense(world: &World, defense: &super::order::DefenseOrder) -> Result<(), String> {
    use crate::combat::CombatRules as R;
    let rules = &world.resource::<GameMap>().ruleset.combat;
    if !matches!(rules, R::Rommel(_)) && (!defense.tactics.is_empty() || !defense.barrage.is_empty()) {
        return Err("only Rommel's rules have defensive tactics and barrages".into());
    }
    if !matches!(rules, R::WarAgainstRussia(_)) && defense.no_retreat {
        return Err("No Retreat! orders are War Against Russia's rule".into());
    }
    Ok(())
}

/// The side gives up: the other side (of two) wins; with more sides, nobody does.
fn concede(world: &mut World, side: usize) {
    let sides = world.resource::<Sides>().0.clone();
    let turn = world.resource::<TurnState>().turn;
    let winner = (sides.len() == 2).then(|| super::components::Side(1 - side));
    let reason = match winner {
        Some(w) => format!(
            "{} concedes on turn {turn}: {} wins.",
            sides[side].name, sides[w.0].name
        ),
        None => format!("{} concedes on turn {turn}.", sides[side].name),
    };
    world.resource_mut::<GameLog>().push(reason.clone());
    let control = world.resource::<super::victory::ObjectiveControl>().0.clone();
    let map = world.resource::<GameMap>();
    let points = super::victory::points_by_side(&map.objectives, &control, sides.len());
    world.insert_resource(Verdict {
        winner,
        reason,
        points,
        turn,
        level: None,
        decided_by: None,
    });
    world.resource_mut::<NextState<GameState>>().set(GameState::Over);
}

/// A recorded entry that did not replay as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 1-based entry number.
    pub entry: usize,
    /// The order in words.
    pub order: String,
    /// What went wrong: the refusal, or what differs.
    pub problem: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entry {} ({}): {}", self.entry, self.order, self.problem)
    }
}

impl std::error::Error for ReplayError {}

/// Carries out the recorded entry number `index` (0-based) again and checks it against the
/// record: refused, other dice, another dice position or another state hash is an error.
pub fn replay_entry(world: &mut World, index: usize, recorded: &LogEntry) -> Result<(), ReplayError> {
    let order = order_words(world, &recorded.order);
    let fail = |problem: String| ReplayError {
        entry: index + 1,
        order: order.clone(),
        problem,
    };
    // A replayed order (a rebuild, a load, the theatre) is not a new one for the views to see.
    let watching = world.remove_resource::<BeforeOrder>();
    let carried_out = execute(world, recorded.issued());
    if let Some(w) = watching {
        world.insert_resource(w);
    }
    let at = carried_out.map_err(|r| fail(format!("the rules refuse it: {}", r.reason)))?;
    let got = &world.resource::<OrderLog>().entries[at];
    let mut problems = Vec::new();
    if got.dice != recorded.dice {
        problems.push(format!(
            "the dice differ: recorded {}, rolled {}",
            recorded.dice_words(),
            got.dice_words()
        ));
    }
    if got.rng != recorded.rng {
        problems.push(format!(
            "the dice position differs: recorded {}→{}, replayed {}→{}",
            recorded.rng.0, recorded.rng.1, got.rng.0, got.rng.1
        ));
    }
    if got.hash != recorded.hash {
        problems.push(format!(
            "the state hash differs (recorded {}, replayed {}): {}",
            recorded.hash,
            got.hash,
            recorded.hash.differences(&got.hash).join("; ")
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(fail(problems.join("; ")))
    }
}
