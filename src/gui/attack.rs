//! Attacking from the board (the panels are in `attack_panels.rs`). In a combat phase, hovering an enemy cell with a stack selected shows
//! the exact odds; clicking it pins the attack: Shift+click more stacks to join, set the
//! attacker's options (tactics, its own retreat-or-steps, exchange, accelerated effort), read the
//! modifiers, the odds and the CRT (`crt.rs`), then Roll (Space). In Rommel the attacker's tactic
//! is declared hidden and the defender answers before the roll; the defender's preview never
//! shows the attacker's secret. The result stays on screen, explained, with its row and column
//! lit on the table.

use super::state::PlayerOrder;

use super::state::{Hovered, LastRefusal, Selection};
use crate::combat::{self, Odds, OptionTaken, RetreatOrSteps, Situation, Tactic};
use crate::game::combat_phase::{CombatResolved, DeclaredCombat, GameView, PendingCombat, accelerated_effort_by};
use crate::game::components::{MapIndex, Side};
use crate::game::order::{AttackOrder, DefenseOrder, Order};
use crate::game::phase::{CombatStep, GameState, Phase};
use crate::rules::grid::Cell;
use bevy::prelude::*;

/// The attack being prepared: target, attackers and the players' options, units by their ids (so
/// the plan outlives an undo, which rebuilds the units' entities).
#[derive(Resource, Clone, Debug, Default)]
pub struct AttackPlan {
    pub target: Option<Cell>,
    pub attackers: Vec<String>,
    pub attack_tactic: Option<Tactic>,
    /// Rommel: the defender's answer to a declared attack.
    pub defense_tactic: Option<Tactic>,
    pub attacker_retreat: RetreatOrSteps,
    pub german_exchange: bool,
    pub accelerated_effort: bool,
    /// Where the rules let the owner choose: the attacking unit (id) to take losses first;
    /// `None` = the automatic choice (the cheapest step). The defender picks its own with its
    /// answer to the result.
    pub attacker_losses_first: Option<String>,
    /// Killing Ground: the attacker who would make the Accelerated Effort (the strongest that
    /// may) and its name, or why none may (8.10.4); `None` under the other rulesets.
    pub effort_by: Option<Result<(String, String), String>>,
    /// Rommel: the batteries the side choosing now (the attacker planning, the defender
    /// answering) may call to barrage, with their names; and those called by each side.
    pub batteries: Vec<(String, String)>,
    pub barrage: Vec<String>,
    pub defense_barrage: Vec<String>,
}

impl AttackPlan {
    /// The order the Roll button sends (and the preview evaluates); `effort_by` makes an
    /// accelerated effort when it is ticked.
    pub fn order(&self) -> Option<AttackOrder> {
        let target = self.target?;
        let mut order = AttackOrder::plain(self.attackers.clone(), target);
        order.take(OptionTaken::Tactics(self.attack_tactic.iter().cloned().collect()));
        order.take(OptionTaken::RetreatAsSteps(self.attacker_retreat));
        if self.german_exchange {
            order.take(OptionTaken::Exchange);
        }
        order.take(OptionTaken::LossesFirst(
            self.attacker_losses_first.iter().cloned().collect(),
        ));
        if let Some(Ok((by, _))) = &self.effort_by
            && self.accelerated_effort
        {
            order.take(OptionTaken::AcceleratedEffort(by.clone()));
        }
        order.take(OptionTaken::Barrage(self.barrage.clone()));
        Some(order)
    }

    /// Rommel's defender's answer: its tactic and the batteries it calls.
    pub fn defense(&self) -> DefenseOrder {
        DefenseOrder {
            tactics: self.defense_tactic.iter().cloned().collect(),
            barrage: self.defense_barrage.clone(),
            ..DefenseOrder::default()
        }
    }
}

/// The preview for the pinned plan, the hovered target, or the declared attack the defender
/// answers (without the attacker's secret).
#[derive(Resource, Default)]
pub struct AttackPreview {
    /// The orders the preview was computed for.
    key: Option<(AttackOrder, Option<DefenseOrder>)>,
    pub target: Option<Cell>,
    pub result: Option<Result<(Situation, Odds), String>>,
    /// Defenders that could not retreat if asked to, and what happens instead.
    pub blocked: Vec<String>,
    /// War Against Russia: the defender's No Retreat! decision for the whole turn, once made.
    pub no_retreat_decided: Option<bool>,
}

/// The last combat fought, shown until the next attack is pinned.
#[derive(Resource, Default)]
pub struct LastCombat(pub Option<CombatResolved>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<RollRequest>()
        .init_resource::<AttackPreview>()
        .init_resource::<AttackPlan>()
        .init_resource::<LastCombat>()
        .add_systems(
            Update,
            (pin_on_click, roll_keys)
                .chain()
                .after(super::state::HudSystems)
                .after(super::state::ClickSystems)
                .run_if(super::state::no_dialog)
                .run_if(
                    in_state(Phase::Combat)
                        .and_then(in_state(GameState::Playing))
                        .and_then(not(resource_exists::<super::state::Replay>)),
                ),
        )
        .add_systems(
            Update,
            (update_preview, remember_result)
                .chain()
                .after(roll_keys)
                .run_if(in_state(Phase::Combat).and_then(in_state(GameState::Playing))),
        )
        .add_systems(OnExit(Phase::Combat), |mut commands: Commands| {
            commands.insert_resource(AttackPreview::default());
            commands.insert_resource(AttackPlan::default());
            commands.insert_resource(LastCombat::default());
        });
}

/// Whether `cell` holds a unit of a side other than `active` (a click there with a selection is
/// an attack in a combat phase).
pub(super) fn enemies_in(cell: Cell, index: &MapIndex, sides: &Query<&Side>, active: Side) -> bool {
    index
        .stack(cell)
        .iter()
        .any(|e| sides.get(*e).is_ok_and(|s| *s != active))
}

/// Click an enemy with a selection: pin the attack. Shift+click your stack: it joins or leaves.
/// (`clicks.rs` worked out which.) Esc drops the prepared attack.
fn pin_on_click(
    this: Res<super::state::ThisClick>,
    keys: Res<super::keymap::Keys>,
    mut selection: ResMut<Selection>,
    mut plan: ResMut<AttackPlan>,
    mut last: ResMut<LastCombat>,
) {
    use super::state::BoardClick;
    if keys.just(super::keymap::Action::Cancel) {
        *plan = AttackPlan::default();
        last.0 = None;
    }
    match &this.0 {
        Some(BoardClick::JoinOrLeaveAttack(own)) => {
            if own.iter().all(|e| plan.attackers.contains(e)) {
                plan.attackers.retain(|e| !own.contains(e));
            } else {
                for e in own {
                    if !plan.attackers.contains(e) {
                        plan.attackers.push(e.clone());
                    }
                }
            }
        }
        Some(BoardClick::PinAttack(cell)) => {
            *plan = AttackPlan {
                target: Some(*cell),
                attackers: selection.units.clone(),
                ..default()
            };
            last.0 = None;
            *selection = Selection::default();
        }
        _ => {}
    }
}

fn roll_keys(keys: Res<super::keymap::Keys>, mut out: MessageWriter<RollRequest>) {
    if keys.just(super::keymap::Action::Roll) {
        out.write(RollRequest);
    }
}

/// The Roll button or Space.
#[derive(Message, Clone, Copy, Debug)]
pub struct RollRequest;

/// What Roll does now: declare (Rommel's hidden tactic), answer (Rommel's defender) or attack;
/// nothing while War Against Russia's defender decides on No Retreat! (the answer window asks).
fn roll_order(
    defense: DefenseOrder,
    pinned: Option<AttackOrder>,
    declared: &Option<DeclaredCombat>,
    secret_tactics: bool,
) -> Option<Order> {
    match declared {
        Some(_) if secret_tactics => Some(Order::Defend(defense)),
        Some(_) => None,
        None => pinned.map(Order::Attack),
    }
}

#[allow(clippy::too_many_arguments)]
fn update_preview(
    hovered: Res<Hovered>,
    selection: Res<Selection>,
    view: GameView,
    side_of: Query<&Side>,
    declared: Res<PendingCombat>,
    mut plan: ResMut<AttackPlan>,
    mut preview: ResMut<AttackPreview>,
    mut rolls: MessageReader<RollRequest>,
    mut orders: MessageWriter<PlayerOrder>,
    mut refusal: ResMut<LastRefusal>,
    step: Option<Res<State<CombatStep>>>,
    (no_retreat, edition): (
        Res<crate::game::combat_phase::NoRetreatTurns>,
        Option<Res<crate::game::edition::RulesEdition>>,
    ),
) {
    plan.attackers.retain(|id| view.unit(id).is_ok());
    let effort_by = effort_by(&view.entities(&plan.attackers).unwrap_or_default(), &view);
    if plan.effort_by != effort_by {
        plan.effort_by = effort_by;
        // An effort nobody may make is not left ticked.
        if !matches!(plan.effort_by, Some(Ok(_))) {
            plan.accelerated_effort = false;
        }
    }
    offer_batteries(&mut plan, &declared.0, &view);
    let pinned = plan.order();
    let defense = plan.defense();
    let ready = step.is_some_and(|s| *s.get() == CombatStep::Declare);
    if rolls.read().count() > 0
        && ready
        && let Some(order) = roll_order(
            defense.clone(),
            pinned.clone(),
            &declared.0,
            view.map.ruleset.secret_tactics(),
        )
    {
        // An attack or a Rommel answer the preview already refuses (a battery the rules refuse,
        // say) is not sent: the plan stays for the player to mend (tick other units, change an
        // option), and the status bar says why.
        let refused = match (&order, preview.result.as_ref(), preview.key.as_ref()) {
            (Order::Attack(attack), Some(Err(why)), Some((o, _))) if o == attack => Some((attack.target, why)),
            (Order::Defend(answer), Some(Err(why)), Some((o, Some(d)))) if d == answer => Some((o.target, why)),
            _ => None,
        };
        if let Some((target, why)) = refused {
            refusal.0 = Some(format!("attack {target}: {why}"));
            return;
        }
        refusal.0 = None;
        let declaring = matches!(order, Order::Attack(_)) && view.map.ruleset.secret_tactics();
        orders.write(PlayerOrder(order));
        if declaring {
            // The game keeps the hidden tactic; the screen forgets it before the defender looks.
            plan.attack_tactic = None;
        } else {
            *plan = AttackPlan::default();
        }
        *preview = AttackPreview::default();
        return;
    }
    // The defender answering sees the declared attack without the attacker's secret.
    let key = match &declared.0 {
        Some(c) => Some((c.as_seen_by(c.defender), Some(defense))),
        None => pinned
            .or_else(|| {
                hovered
                    .0
                    .filter(|c| !selection.units.is_empty() && enemies_in(*c, &view.index, &side_of, view.turn.active))
                    .map(|c| AttackOrder::plain(selection.units.clone(), c))
            })
            .map(|o| {
                let standing = (turn_decision(&o, &view, &no_retreat) == Some(true)).then(|| DefenseOrder {
                    no_retreat: true,
                    ..Default::default()
                });
                (o, standing)
            }),
    };
    if key == preview.key && !view.index.is_changed() && !declared.is_changed() && !no_retreat.is_changed() {
        return;
    }
    preview.key = key.clone();
    preview.target = key.as_ref().map(|(o, _)| o.target);
    preview.blocked = key.as_ref().map_or_else(Vec::new, |(order, _)| {
        let attackers: Vec<Entity> = view.entities(&order.attackers).unwrap_or_default();
        let mut warnings = crate::game::attack_situation::sitting_out(order, &view);
        warnings.extend(crate::game::retreat::blocked_defenders(&view, order.target, &attackers));
        warnings
    });
    let decided = key
        .as_ref()
        .and_then(|(order, _)| turn_decision(order, &view, &no_retreat));
    preview.no_retreat_decided = decided;
    let edition = edition.map(|e| *e).unwrap_or_default();
    preview.result = key.map(|(order, defense)| odds_for(&view, &order, defense.as_ref(), (decided, edition)));
}

/// Rommel: the batteries the side choosing now may call (the defender's once an attack is
/// declared, else the attacker's), and the calls kept to those still on offer.
fn offer_batteries(plan: &mut AttackPlan, declared: &Option<DeclaredCombat>, view: &GameView) {
    let barrage = view
        .map
        .ruleset
        .combat
        .system()
        .offers(&combat::AttackerOption::Barrage);
    let offer = match (barrage, declared, plan.target) {
        (true, Some(c), _) => {
            let defenders: Vec<Entity> = view.index.stack(c.order.target).to_vec();
            view.batteries(c.defender, &defenders, c.order.target)
        }
        (true, None, Some(target)) => view.batteries(
            view.turn.active,
            &view.entities(&plan.attackers).unwrap_or_default(),
            target,
        ),
        _ => Vec::new(),
    };
    let named: Vec<(String, String)> = offer
        .into_iter()
        .filter_map(|e| view.units.get(e).ok().map(|u| (u.unit.id.clone(), u.unit.name.clone())))
        .collect();
    if plan.batteries != named {
        plan.batteries = named;
        let offered: Vec<String> = plan.batteries.iter().map(|(id, _)| id.clone()).collect();
        plan.barrage.retain(|e| offered.contains(e));
        plan.defense_barrage.retain(|e| offered.contains(e));
    }
}

/// The exact odds of `order` (against `defense`) as the preview shows them: carried out on the
/// board, without the No Retreat! branch once the defender `decided` for the turn, with the
/// answers the game's `edition` of the rules gives.
fn odds_for(
    view: &GameView,
    order: &AttackOrder,
    defense: Option<&DefenseOrder>,
    (decided, edition): (Option<bool>, crate::game::edition::RulesEdition),
) -> Result<(combat::Situation, combat::odds::Odds), String> {
    let (situation, attackers, defenders) = view.situation(order, defense)?;
    let mut odds = combat::answers::odds_with_answers(&view.map.ruleset.combat, &situation).map_err(|r| r.0)?;
    on_the_board(&mut odds, view, (order, &situation), (&attackers, &defenders));
    if decided.is_some() {
        odds.branches.retain(|b| !b.choice.contains("No Retreat!"));
    }
    for o in &mut odds.outcomes {
        o.answers = edition.answers_of(std::mem::take(&mut o.answers));
        if o.answers.len() < 2 {
            o.answers.clear();
        }
    }
    Ok((situation, odds))
}

/// The preview's results as the board will carry them out: a retreat with no room for it costs
/// what the ruleset says (a step per cell short, elimination, staying), in every outcome and
/// every answer, as the game does after the roll.
fn on_the_board(
    odds: &mut combat::odds::Odds,
    view: &GameView,
    (order, situation): (&AttackOrder, &combat::Situation),
    (attackers, defenders): (&[Entity], &[Entity]),
) {
    use crate::game::answer_board::{retreat_room, steps_left, weigh_on_board};
    let longest = odds
        .outcomes
        .iter()
        .flat_map(|o| std::iter::once(o).chain(o.answers.iter().flat_map(|a| a.outcomes.iter())))
        .filter_map(|o| o.result.defender.retreat.map(|r| r.cells))
        .max()
        .unwrap_or(0);
    if longest == 0 {
        return;
    }
    let reach = retreat_room(view, order.target, attackers, defenders, longest);
    let left = steps_left(situation);
    let when_blocked = view.map.ruleset.retreat.when_blocked;
    if weigh_on_board(&mut odds.outcomes, &reach, &left, when_blocked) {
        odds.summary = combat::odds::summarize(&odds.outcomes);
    }
    for o in &mut odds.outcomes {
        for a in &mut o.answers {
            if weigh_on_board(&mut a.outcomes, &reach, &left, when_blocked) {
                a.summary = combat::odds::summarize(&a.outcomes);
            }
        }
    }
}

/// War Against Russia: whether the defender of `order` gave No Retreat! orders for this whole
/// turn (the Russians' decision, which every later attack on it that turn is fought under), once
/// it has decided.
fn turn_decision(
    order: &AttackOrder,
    view: &GameView,
    decided: &crate::game::combat_phase::NoRetreatTurns,
) -> Option<bool> {
    if !view.map.ruleset.combat.system().has_no_retreat_orders() {
        return None;
    }
    let side = view
        .index
        .stack(order.target)
        .iter()
        .find_map(|e| view.units.get(*e).ok().map(|d| d.side.0))?;
    decided.decided(view.turn.turn, side)
}

/// Killing Ground's Accelerated Effort (8.10.4): the attacker who would make it, with its name, or
/// why none may (`game::combat_phase::accelerated_effort_by`); `None` under other rulesets.
fn effort_by(attackers: &[Entity], view: &GameView) -> Option<Result<(String, String), String>> {
    if !view
        .map
        .ruleset
        .combat
        .system()
        .offers(&combat::AttackerOption::AcceleratedEffort)
    {
        return None;
    }
    let by = accelerated_effort_by(
        attackers
            .iter()
            .filter_map(|e| view.units.get(*e).ok())
            .map(|d| (d.entity, d.unit, d.steps, d.er)),
    );
    let named = |e: Entity| {
        view.units.get(e).map_or_else(
            |_| (String::new(), String::new()),
            |d| (d.unit.id.clone(), d.unit.name.clone()),
        )
    };
    Some(by.map(named))
}

/// Keeps the last result for its panel, and lets go of the attack that led to it (a Rommel
/// attack stays planned until the defender answers, at this screen or by the computer).
fn remember_result(
    mut resolved: MessageReader<CombatResolved>,
    mut rebuilt: MessageReader<crate::game::undo::GameRebuilt>,
    mut last: ResMut<LastCombat>,
    mut plan: ResMut<AttackPlan>,
    (waiting, declared): (Res<crate::game::combat_phase::PendingAnswer>, Res<PendingCombat>),
) {
    let last_resolved = resolved.read().last();
    // An undo replays the log: the combats it fights again are old news, and the attack being
    // prepared stays prepared.
    if rebuilt.read().count() > 0 {
        return;
    }
    // A combat the computer fought before the one whose defender is asked now is not shown over
    // the question (the answer window cleared the panels for it).
    if waiting.0.is_some() || declared.0.is_some() {
        return;
    }
    if let Some(r) = last_resolved {
        last.0 = Some(r.clone());
        *plan = AttackPlan::default();
    }
}

#[cfg(test)]
#[path = "attack_tests.rs"]
mod tests;
