//! Fighting a combat: an attack declared to wait for the defender's answer before the dice
//! (Rommel's hidden tactics, War Against Russia's No Retreat! orders), rolled, and carried out
//! at once or left waiting for the defender's answer to its result (`Answer`), which carries it
//! out on the same dice. Planning, effects and narration are `combat.rs`'s.

use super::combat_phase::{
    CombatResolved, DeclaredCombat, NoRetreatTurns, PendingAnswer, PendingCombat, PlannedCombat, WaitingAnswer,
    apply_combat_effects, combat_effects, narrate, plan_attack, run,
};
use super::components::{GameLog, GameMap, GameRng, MapIndex, Side};
use super::order::{AttackOrder, DefenseOrder, tactic_names};
use crate::combat::answers::{AnswerOption, check_answer, defender_answers, with_answer};
use crate::combat::{self, Assessment, CombatRules, DefenderChoices, Outcome};
use crate::scenario::Ruleset;
use bevy::prelude::*;

/// The attacking side (the side to play) and the defending side of a planned combat.
fn sides_of(world: &World, p: &PlannedCombat) -> (Side, Side) {
    let attacker = world.resource::<super::phase::TurnState>().active;
    let defender = p
        .defenders
        .first()
        .and_then(|e| world.get::<Side>(*e).copied())
        .unwrap_or(attacker);
    (attacker, defender)
}

/// The side whose units stand in `target`, other than the side to play.
pub(super) fn defender_at(world: &World, target: crate::rules::grid::Cell) -> Option<Side> {
    let active = world.resource::<super::phase::TurnState>().active;
    world
        .resource::<MapIndex>()
        .stack(target)
        .iter()
        .filter_map(|e| world.get::<Side>(*e))
        .find(|s| **s != active)
        .copied()
}

/// Rommel: checks an attack with secret tactics and leaves it waiting for the defender.
pub(super) fn declare(world: &mut World, order: AttackOrder) -> Result<(), String> {
    let planned = run(world, plan_attack, (order, None))??;
    let (attacker, defender) = sides_of(world, &planned);
    let names = planned
        .situation
        .attackers
        .iter()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let why = if world.resource::<GameMap>().ruleset.secret_tactics() {
        "the attacker's tactics stay hidden until the defender answers"
    } else {
        "the defender decides on No Retreat! orders before the die"
    };
    world.resource_mut::<GameLog>().push(format!(
        "Attack declared on {} by {names}; {why}.",
        planned.order.target
    ));
    world.resource_mut::<PendingCombat>().0 = Some(DeclaredCombat {
        order: planned.order,
        attacker,
        defender,
    });
    Ok(())
}

/// Checks and rolls an attack (with the defender's answer before the dice, where it gave one);
/// carries out its result, or leaves it waiting for the defender's answer when the result gives
/// the defender two or more that lead to different results.
pub(super) fn fight(world: &mut World, order: AttackOrder, defense: Option<DefenseOrder>) -> Result<(), String> {
    let planned = run(world, plan_attack, (order, defense))??;
    let ruleset = world.resource::<GameMap>().ruleset.clone();
    let checkpoint = world.resource::<GameRng>().checkpoint();
    let fought = world
        .resource_mut::<GameRng>()
        .with_dice(|dice| combat::fight(&ruleset.combat, &planned.situation, dice));
    let (assessment, outcome) = match fought {
        Ok(x) => x,
        Err(refusal) => {
            // A forced die the rules cannot use: refused, and the dice stand where they stood.
            world.resource_mut::<GameRng>().restore(checkpoint);
            return Err(refusal.0);
        }
    };
    world.resource_mut::<PendingCombat>().0 = None;
    // Rommel: the defender has answered, so both sides' tactics are shown.
    if ruleset.secret_tactics()
        && let Some(d) = &planned.defense
    {
        world.resource_mut::<GameLog>().push(format!(
            "  Tactics revealed: attacker {}, defender {}.",
            tactic_names(planned.order.taken().tactics()),
            tactic_names(&d.tactics)
        ));
    }
    let dice: Vec<u8> = outcome.rolls.iter().map(|r| r.face).collect();
    let edition = world
        .get_resource::<super::edition::RulesEdition>()
        .copied()
        .unwrap_or_default();
    let options = edition.answers_of(defender_answers(
        &ruleset.combat,
        &planned.situation,
        &assessment,
        &dice,
    ));
    if options.len() > 1 {
        wait_for_answer(world, &planned, &outcome, dice, options);
        return Ok(());
    }
    carry_out_result(world, planned, &ruleset, (assessment, outcome))
}

/// Leaves a rolled combat waiting for the defender's answer, and says so.
fn wait_for_answer(world: &mut World, p: &PlannedCombat, outcome: &Outcome, dice: Vec<u8>, options: Vec<AnswerOption>) {
    let options = super::answer_board::on_the_board(world, p, options);
    let (attacker, defender) = sides_of(world, p);
    let suggested = combat::answers::suggested(&options);
    let result = super::combat_phase::result_words(&p.situation, &outcome.result);
    let faces: Vec<String> = dice.iter().map(ToString::to_string).collect();
    let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
    let name = world
        .resource::<super::components::Sides>()
        .0
        .get(defender.0)
        .map_or(String::new(), |s| s.name.clone());
    world.resource_mut::<GameLog>().push(format!(
        "Combat at {} (dice {}): {result}. {name} answers: {}.",
        p.order.target,
        faces.join(","),
        labels.join(" or ")
    ));
    world.resource_mut::<PendingAnswer>().0 = Some(WaitingAnswer {
        order: p.order.clone(),
        defense: p.defense.clone(),
        dice,
        attacker,
        defender,
        result,
        options,
        suggested,
    });
}

/// Carries out the waiting combat with the defender's answer: the same dice, then any the answer
/// rolls (a hold check).
pub(super) fn answer(world: &mut World, choices: DefenderChoices) -> Result<(), String> {
    let waiting = world
        .resource::<PendingAnswer>()
        .0
        .clone()
        .ok_or("no combat result is waiting for the defender's answer")?;
    let mut planned = run(world, plan_attack, (waiting.order.clone(), waiting.defense.clone()))??;
    check_answer(&choices, &planned.situation)?;
    planned.situation = with_answer(&planned.situation, &choices);
    let ruleset = world.resource::<GameMap>().ruleset.clone();
    let checkpoint = world.resource::<GameRng>().checkpoint();
    let fought = {
        let mut rng = world.resource_mut::<GameRng>();
        let kept = rng.rolled.len();
        rng.forced = [waiting.dice.clone(), std::mem::take(&mut rng.forced)].concat();
        let fought = rng.with_dice(|dice| combat::fight(&ruleset.combat, &planned.situation, dice));
        // The dice rolled with the attack are not rolled again: only new ones are this order's.
        let known = waiting.dice.len().min(rng.rolled.len() - kept);
        rng.rolled.drain(kept..kept + known);
        fought
    };
    let same_dice = |o: &Outcome| {
        o.rolls
            .get(..waiting.dice.len())
            .is_some_and(|r| r.iter().map(|d| d.face).eq(waiting.dice.iter().copied()))
    };
    let fought = match fought {
        Ok((a, outcome)) if same_dice(&outcome) => (a, outcome),
        Ok(_) => {
            world.resource_mut::<GameRng>().restore(checkpoint);
            return Err("internal error: the answer did not use the combat's dice".into());
        }
        Err(refusal) => {
            world.resource_mut::<GameRng>().restore(checkpoint);
            return Err(refusal.0);
        }
    };
    world.resource_mut::<PendingAnswer>().0 = None;
    carry_out_result(world, planned, &ruleset, fought)
}

/// Logs a combat's result and carries out its effects.
fn carry_out_result(
    world: &mut World,
    planned: PlannedCombat,
    ruleset: &Ruleset,
    (assessment, outcome): (Assessment, Outcome),
) -> Result<(), String> {
    let effects = combat_effects(&planned, &outcome.result, ruleset);
    let summary = narrate(world, &planned, &assessment, &outcome);
    run(world, apply_combat_effects, effects)?;
    world.write_message(CombatResolved {
        target: planned.order.target,
        attackers: planned.attackers,
        defenders: planned.defenders,
        result: outcome.result,
        summary,
        cell: assessment.cell,
        rolls: outcome.rolls,
        narrative: outcome.log,
    });
    Ok(())
}

/// Whether an attack waits for the defender's answer before its dice: Rommel's (secret tactics)
/// always; War Against Russia's when the defender may give No Retreat! orders and has not
/// (Germans each attack, Russians once a turn).
pub fn waits_for_defense(world: &mut World, order: &AttackOrder) -> bool {
    let ruleset = world.resource::<GameMap>().ruleset.clone();
    if ruleset.secret_tactics() {
        return true;
    }
    no_retreat_question(world, order, &ruleset.combat).is_some()
}

/// War Against Russia: the defending side when the attack on `order.target` waits for its No
/// Retreat! decision.
fn no_retreat_question(world: &mut World, order: &AttackOrder, rules: &CombatRules) -> Option<usize> {
    let CombatRules::WarAgainstRussia(r) = rules else {
        return None;
    };
    let planned = run(world, plan_attack, (order.clone(), None)).ok()?.ok()?;
    let side = world.get::<Side>(*planned.defenders.first()?)?.0;
    let turn = world.resource::<super::phase::TurnState>().turn;
    // Surrounded or overrun defenders cannot retreat anyway: the orders would change nothing
    // here, so nobody is asked (a Russian decision for the turn waits for an attack it changes).
    if !no_retreat_matters(rules, &planned.situation) {
        return None;
    }
    match r.no_retreat_scope(&planned.situation.defenders) {
        combat::war_against_russia::NoRetreatScope::EachAttack => Some(side),
        combat::war_against_russia::NoRetreatScope::WholeTurn => world
            .resource::<NoRetreatTurns>()
            .decided(turn, side)
            .is_none()
            .then_some(side),
        combat::war_against_russia::NoRetreatScope::Never => None,
    }
}

/// Whether No Retreat! orders would change this combat's odds.
fn no_retreat_matters(rules: &CombatRules, s: &combat::Situation) -> bool {
    let mut ordered = s.clone();
    ordered.defense.no_retreat = true;
    match (
        combat::odds::summary_of(rules, s),
        combat::odds::summary_of(rules, &ordered),
    ) {
        (Ok(plain), Ok(stand)) => plain != stand,
        _ => false,
    }
}

/// The defence an attack is fought with when it does not wait for one: War Against Russia's
/// Russians under the No Retreat! orders they gave for the turn.
pub fn standing_defense(world: &World, order: &AttackOrder) -> Option<DefenseOrder> {
    let system = world.resource::<GameMap>().ruleset.combat.system();
    if !system.has_no_retreat_orders() {
        return None;
    }
    let turn = world.resource::<super::phase::TurnState>().turn;
    let side = defender_at(world, order.target)?.0;
    world
        .resource::<NoRetreatTurns>()
        .decided(turn, side)
        .filter(|on| *on)
        .map(|_| DefenseOrder {
            no_retreat: true,
            ..DefenseOrder::default()
        })
}

/// The defences the defender of the declared attack may give before the dice (without a
/// barrage): Rommel's none or one of its tactics; War Against Russia's with or without No
/// Retreat! orders. Empty when no attack waits.
pub fn defense_options(world: &mut World) -> Vec<DefenseOrder> {
    let Some(declared) = world.resource::<PendingCombat>().0.clone() else {
        return Vec::new();
    };
    let rules = world.resource::<GameMap>().ruleset.combat.clone();
    let mut out = vec![DefenseOrder::default()];
    out.extend(rules.system().defense_tactics().into_iter().map(|t| DefenseOrder {
        tactics: vec![t],
        ..DefenseOrder::default()
    }));
    if rules.system().has_no_retreat_orders() && no_retreat_question(world, &declared.order, &rules).is_some() {
        out.push(DefenseOrder {
            no_retreat: true,
            ..DefenseOrder::default()
        });
    }
    out
}

/// War Against Russia: whether the defender's answer to `declared` is the Russians' decision for
/// all their units for the rest of the turn (asked before the fight: it may leave no defender).
pub(super) fn decides_the_turn(world: &mut World, declared: &DeclaredCombat) -> bool {
    let CombatRules::WarAgainstRussia(r) = world.resource::<GameMap>().ruleset.combat.clone() else {
        return false;
    };
    let Ok(Ok(planned)) = run(world, plan_attack, (declared.order.clone(), None)) else {
        return false;
    };
    r.no_retreat_scope(&planned.situation.defenders) == combat::war_against_russia::NoRetreatScope::WholeTurn
}

/// Keeps the Russians' No Retreat! decision for the rest of the turn.
pub(super) fn remember_no_retreat(world: &mut World, declared: &DeclaredCombat, defense: &DefenseOrder) {
    let turn = world.resource::<super::phase::TurnState>().turn;
    world
        .resource_mut::<NoRetreatTurns>()
        .0
        .push((turn, declared.defender.0, defense.no_retreat));
}

/// A `BeforeOrder` hook: where `OddsBeforeRoll` is kept, the odds of the combat the order is
/// about to fight go there.
pub fn take_odds_before_roll(world: &mut World, order: &super::order::Order) {
    use super::combat_phase::OddsBeforeRoll;
    if !world.contains_resource::<OddsBeforeRoll>() {
        return;
    }
    if let Some(odds) = odds_before(world, order).and_then(Result::ok) {
        world.resource_mut::<OddsBeforeRoll>().0 = Some(odds);
    }
}

/// The combat an order would fight now, planned and with its exact odds, without rolling: an
/// attack (outside Rommel, where an attack only declares) or Rommel's defender's answer. `None`
/// for every other order. The replay theatre and `hexfront highlights` show a logged combat's
/// odds with it, through the same planning and `combat::odds` the attack panel uses.
pub fn odds_before(
    world: &mut World,
    order: &super::order::Order,
) -> Option<Result<(PlannedCombat, combat::Odds), String>> {
    use super::order::Order;
    let (attack, defense) = match order {
        Order::Attack(a) if !waits_for_defense(world, a) => (a.clone(), standing_defense(world, a)),
        Order::Defend(d) => (
            world.resource::<PendingCombat>().0.as_ref()?.order.clone(),
            Some(d.clone()),
        ),
        _ => return None,
    };
    let planned = match run(world, plan_attack, (attack, defense)) {
        Ok(Ok(p)) => p,
        Ok(Err(e)) | Err(e) => return Some(Err(e)),
    };
    let rules = &world.resource::<GameMap>().ruleset.combat;
    Some(
        combat::odds(rules, &planned.situation)
            .map(|o| (planned, o))
            .map_err(|r| r.0),
    )
}
