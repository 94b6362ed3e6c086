//! Combat in the game: an attack order in the combat phase is checked and turned into a
//! `Situation` (`attack_situation.rs`) and planned; `fight.rs` rolls it through `combat::fight` with the
//! game's seeded dice (after the defender's answer before the dice, where the rules give one), and
//! its result is turned into `CombatEffects` by one pure function (`combat_effects`, which the
//! computer player can call on a copy to look ahead) that a thin step applies. A result that
//! leaves the defender a choice waits in `PendingAnswer`; the retreats and advances a result
//! demands wait in `PendingRetreats` / `PendingAdvances` for the combat phase's retreat and
//! advance steps (`retreat.rs`, `advance.rs`). Rommel's secret tactics and War Against Russia's
//! No Retreat! decision wait in `PendingCombat` for the defender's answer.

use super::components::{
    Effectiveness, Experience, GameLog, MapIndex, MovePoints, Position, Side, Statuses, Steps, Unit,
};
use super::order::{AttackOrder, DefenseOrder};
use super::phase::{CombatStep, Phase};
use crate::combat::answers::AnswerOption;
use crate::combat::{
    self, AdvanceRight, Assessment, CombatResult, Outcome, RetreatDemand, Role, Situation, UnitResult, report,
};
use crate::rules::grid::Cell;
use crate::rules::units::UnitStatus;
use crate::scenario::Ruleset;
use bevy::prelude::*;

pub use super::attack_situation::build_situation;
pub use super::components::{Attacked, CurrentWeather};
pub use super::view::{DEFAULT_BARRAGE_RANGE, GameView, UnitData, UnitRow, combatant};

/// Killing Ground 8.10.4: of the attackers, the strongest now that may make an Accelerated Effort
/// (the last of equals), or why the first that may not cannot. The one choice the attack panel
/// offers and the computer player tries; the rule itself is `may_make_accelerated_effort`.
pub fn accelerated_effort_by<'a>(
    attackers: impl IntoIterator<Item = (Entity, &'a Unit, &'a Steps, Option<&'a Effectiveness>)>,
) -> Result<Entity, String> {
    let mut why_not = None;
    let mut best: Option<(u32, Entity)> = None;
    for (entity, unit, steps, er) in attackers {
        let may = combat::killing_ground::may_make_accelerated_effort(
            &unit.name,
            unit.class,
            er.map(|r| r.0),
            unit.size,
            &steps.0,
        );
        match may {
            Ok(()) => {
                let attack = steps.values().attack;
                if best.is_none_or(|(a, _)| attack >= a) {
                    best = Some((attack, entity));
                }
            }
            Err(why) => {
                why_not.get_or_insert(why);
            }
        }
    }
    best.map(|(_, e)| e)
        .ok_or_else(|| why_not.unwrap_or_else(|| "no attackers yet".into()))
}

/// A combat was fought.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct CombatResolved {
    pub target: Cell,
    pub attackers: Vec<Entity>,
    pub defenders: Vec<Entity>,
    pub result: CombatResult,
    /// The result in words, as logged.
    pub summary: String,
    /// Where on the table the combat was read, before the dice.
    pub cell: Option<combat::TableCell>,
    /// Every die rolled, in order.
    pub rolls: Vec<combat::Roll>,
    /// What the rules said while resolving it, line by line.
    pub narrative: Vec<String>,
}

/// A unit the last combat obliges to retreat from `from`.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingRetreat {
    pub unit: Entity,
    pub from: Cell,
    pub demand: RetreatDemand,
    /// The other side's units in the combat (retreats keep away from them).
    pub opponents: Vec<Entity>,
    /// Next War: a unit that retreated into the cell earlier makes an ER check before going on.
    pub check_first: bool,
}

/// Retreats waiting to be carried out (by the retreat-pathing step).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PendingRetreats(pub Vec<PendingRetreat>);

/// An advance after combat the attackers may (or must) make into the defender's cell `into`.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingAdvance {
    /// Surviving attackers that did not retreat.
    pub attackers: Vec<Entity>,
    /// Next War: zero-attack units stacked with an attacker, which may follow it.
    pub followers: Vec<Entity>,
    pub into: Cell,
    pub right: AdvanceRight,
    /// Units that have advanced already (more may follow until the attacker ends the advance).
    pub moved: Vec<Entity>,
}

/// Advances waiting for the attacker's choice (carried out after the retreats).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PendingAdvances(pub Vec<PendingAdvance>);

/// Rommel: an attack declared with its secret tactics, waiting for the defender's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclaredCombat {
    pub order: AttackOrder,
    pub attacker: Side,
    pub defender: Side,
}

impl DeclaredCombat {
    /// The attack as `viewer` may know it before the reveal: the attacker sees its own tactics,
    /// everyone else sees them left out.
    pub fn as_seen_by(&self, viewer: Side) -> AttackOrder {
        if viewer == self.attacker {
            self.order.clone()
        } else {
            self.order.without_secrets()
        }
    }
}

/// The declared combat waiting for the defender, if any.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PendingCombat(pub Option<DeclaredCombat>);

/// A combat rolled whose result leaves the defender a choice (two or more answers that lead to
/// different results): the dice stand, and the combat is carried out with the defender's
/// `Answer`.
#[derive(Clone, Debug, PartialEq)]
pub struct WaitingAnswer {
    pub order: AttackOrder,
    pub defense: Option<DefenseOrder>,
    /// The faces rolled, in order.
    pub dice: Vec<u8>,
    pub attacker: Side,
    pub defender: Side,
    /// The result as the table gives it (the plain answer), in words.
    pub result: String,
    /// Each answer with where it leads, the plain one first.
    pub options: Vec<AnswerOption>,
    /// The answer suggested to the defender (an index into `options`).
    pub suggested: usize,
}

/// The combat result waiting for the defender's answer, if any.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PendingAnswer(pub Option<WaitingAnswer>);

/// War Against Russia: the Russians' No Retreat! decision for a whole turn, per (turn, side):
/// given once, at the first attack on them in that turn that it would change.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct NoRetreatTurns(pub Vec<(u32, usize, bool)>);

impl NoRetreatTurns {
    /// The decision of `side` for turn `turn`, if it has made one.
    pub fn decided(&self, turn: u32, side: usize) -> Option<bool> {
        self.0
            .iter()
            .find(|(t, s, _)| *t == turn && *s == side)
            .map(|(_, _, on)| *on)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<CombatResolved>()
        .init_resource::<PendingRetreats>()
        .init_resource::<PendingAdvances>()
        .init_resource::<PendingCombat>()
        .init_resource::<PendingAnswer>()
        .init_resource::<NoRetreatTurns>()
        .init_resource::<CurrentWeather>()
        .add_systems(OnExit(Phase::Combat), clear_attacked);
}

/// The combat step the pending work puts the combat phase in.
pub fn combat_step(retreats: &PendingRetreats, advances: &PendingAdvances) -> CombatStep {
    if !retreats.0.is_empty() {
        CombatStep::Retreat
    } else if !advances.0.is_empty() {
        CombatStep::Advance
    } else {
        CombatStep::Declare
    }
}

/// An attack checked against the world, ready for the dice.
#[derive(Clone, Debug)]
pub struct PlannedCombat {
    pub order: AttackOrder,
    pub defense: Option<DefenseOrder>,
    pub situation: Situation,
    pub attackers: Vec<Entity>,
    pub defenders: Vec<Entity>,
    /// Where each attacker and defender stands (the situation's order).
    pub attacker_cells: Vec<Cell>,
    pub defender_cells: Vec<Cell>,
    /// Next War: units in the target that sat this combat out, and whether each retreated there
    /// earlier in the phase (then it makes an ER check before following a retreat); the others
    /// were left out of an over-stacked cell's defense.
    pub bystanders: Vec<(Entity, bool)>,
    /// Next War: zero-attack units stacked with an attacker, which may follow its advance.
    pub followers: Vec<Entity>,
    pub barrage: Vec<Entity>,
    pub defense_barrage: Vec<Entity>,
}

/// Checks an attack by the side to play in the combat phase and plans it (no dice).
pub fn plan_attack(
    In((order, defense)): In<(AttackOrder, Option<DefenseOrder>)>,
    view: GameView,
    phase: Res<State<Phase>>,
    retreats: Res<PendingRetreats>,
    advances: Res<PendingAdvances>,
) -> Result<PlannedCombat, String> {
    if *phase.get() != Phase::Combat {
        return Err(format!(
            "attacks are made in a combat phase; this is the {:?} phase",
            phase.get()
        ));
    }
    if !retreats.0.is_empty() || !advances.0.is_empty() {
        return Err("the last combat's retreats and advances come first".to_string());
    }
    let (situation, attackers, defenders) = view.situation(&order, defense.as_ref())?;
    combat::assess(&view.map.ruleset.combat, &situation).map_err(|r| r.0)?;
    let active = view.turn.active;
    let cell_of = |e: &Entity| view.units.get(*e).map_or(order.target, |d| d.cell());
    // Next War: units that retreated here earlier, or were left out of an over-stacked defense.
    let bystanders = view
        .stack_of(order.target, active, false)
        .into_iter()
        .filter(|e| !defenders.contains(e))
        .map(|e| (e, view.units.get(e).is_ok_and(|d| d.retreated)))
        .collect();
    // Next War: zero-attack units stacked with an attacker may follow its advance.
    let followers = if view.map.ruleset.advance.zero_attack_followers {
        attackers
            .iter()
            .map(cell_of)
            .flat_map(|c| view.stack_of(c, active, true))
            .filter(|e| !attackers.contains(e) && view.units.get(*e).is_ok_and(|d| d.steps.values().attack == 0))
            .collect()
    } else {
        Vec::new()
    };
    Ok(PlannedCombat {
        attacker_cells: attackers.iter().map(cell_of).collect(),
        defender_cells: defenders.iter().map(cell_of).collect(),
        barrage: view.entities(order.taken().barrage())?,
        defense_barrage: view.entities(defense.as_ref().map_or(&[][..], |d| &d.barrage))?,
        order,
        defense,
        situation,
        attackers,
        defenders,
        bystanders,
        followers,
    })
}

/// What a combat's result does to the game, as plain data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CombatEffects {
    /// Each unit of the combat with what happened to it.
    pub changes: Vec<(Entity, UnitResult)>,
    pub retreats: Vec<PendingRetreat>,
    pub advance: Option<PendingAdvance>,
    /// Rommel: batteries tipped after barraging.
    pub tipped: Vec<Entity>,
    /// Units that spend their whole movement for having fought (Small General).
    pub exhausted: Vec<Entity>,
    /// Units marked as having attacked.
    pub attacked: Vec<Entity>,
    /// Units marked as having been attacked.
    pub defended: Vec<Entity>,
    /// The surviving attackers with the cell each attacked from (the must-attack rule).
    pub attacked_from: Vec<(Entity, Cell)>,
    /// The target and every attacker's cell (Small General's simultaneous attack).
    pub attacked_across: Option<(Cell, Vec<Cell>)>,
}

/// What the result `r` of the planned combat `p` does: losses and statuses per unit, the
/// retreats and advance it demands, tipped batteries, spent movement. Pure.
pub fn combat_effects(p: &PlannedCombat, r: &CombatResult, rules: &Ruleset) -> CombatEffects {
    let mut fx = CombatEffects::default();
    let sides = [
        (&p.attackers, &p.attacker_cells, &p.defenders, &r.attacker),
        (&p.defenders, &p.defender_cells, &p.attackers, &r.defender),
    ];
    for (units, cells, opponents, side) in sides {
        for ((e, cell), u) in units.iter().zip(cells).zip(&side.units) {
            fx.changes.push((*e, *u));
            if !u.eliminated
                && u.retreats
                && let Some(demand) = side.retreat
            {
                fx.retreats.push(PendingRetreat {
                    unit: *e,
                    // The unit's own cell: attackers retreat from theirs, not the target.
                    from: *cell,
                    demand,
                    opponents: opponents.clone(),
                    check_first: false,
                });
            }
        }
    }
    fx.attacked = p.attackers.clone();
    fx.defended = p.defenders.clone();
    fx.attacked_from = p
        .attackers
        .iter()
        .zip(&p.attacker_cells)
        .zip(&r.attacker.units)
        .filter(|(_, u)| !u.eliminated)
        .map(|((e, c), _)| (*e, *c))
        .collect();
    fx.attacked_across = Some((p.order.target, p.attacker_cells.clone()));
    for (batteries, side) in [(&p.barrage, &r.attacker), (&p.defense_barrage, &r.defender)] {
        if side.batteries_tipped > 0 {
            fx.tipped.extend(batteries.iter().copied());
        }
    }
    if r.cell_taken {
        let demand = r.defender.retreat.unwrap_or(RetreatDemand {
            cells: 1,
            chooser: combat::Chooser::Owner,
            optional: false,
            er_check_in_ezoc: true,
        });
        for &(e, retreated) in &p.bystanders {
            fx.retreats.push(PendingRetreat {
                unit: e,
                from: p.order.target,
                demand,
                opponents: p.attackers.clone(),
                check_first: retreated,
            });
        }
    }
    if rules.advance.fought_units_lose_movement {
        fx.exhausted = p.attackers.clone();
    }
    if let Some(right) = r.attacker.advance {
        let survivors: Vec<Entity> = p
            .attackers
            .iter()
            .zip(&r.attacker.units)
            .filter(|(_, u)| !u.eliminated && !u.retreats)
            .map(|(e, _)| *e)
            .collect();
        if !survivors.is_empty() {
            fx.advance = Some(PendingAdvance {
                attackers: survivors,
                followers: p.followers.clone(),
                into: p.order.target,
                right,
                moved: Vec::new(),
            });
        }
    }
    fx
}

/// Carries out a combat's effects on the world.
pub(super) fn apply_combat_effects(
    In(fx): In<CombatEffects>,
    mut index: ResMut<MapIndex>,
    mut retreats: ResMut<PendingRetreats>,
    mut advances: ResMut<PendingAdvances>,
    mut hexsides: ResMut<super::hexsides::AttackedHexsides>,
    mut commands: Commands,
    mut units: Query<(
        &mut Steps,
        &mut Statuses,
        Option<&mut Experience>,
        &Position,
        &mut MovePoints,
    )>,
) {
    for (e, u) in &fx.changes {
        let Ok((mut steps, mut statuses, xp, pos, _)) = units.get_mut(*e) else {
            continue;
        };
        steps.0.lose(u.steps_lost as usize);
        for st in u.gained.iter() {
            statuses.0.insert(st);
        }
        for st in u.cleared.iter() {
            statuses.0.remove(&st);
        }
        if u.experience > 0 {
            match xp {
                Some(mut x) => x.0 += u.experience,
                None => {
                    commands.entity(*e).try_insert(Experience(u.experience));
                }
            }
        }
        if u.eliminated {
            index.remove(*e, pos.0);
            commands.entity(*e).despawn();
        }
    }
    for &e in &fx.attacked {
        commands.entity(e).try_insert(Attacked);
    }
    mark_combat(&mut commands, &fx.attacked_from, &fx.defended);
    if let Some((target, from)) = &fx.attacked_across {
        hexsides.record(*target, from);
    }
    for &e in &fx.tipped {
        if let Ok((_, mut statuses, ..)) = units.get_mut(e) {
            statuses.0.insert(UnitStatus::Tipped);
        }
    }
    for &e in &fx.exhausted {
        if let Ok((.., mut mp)) = units.get_mut(e) {
            mp.spent = mp.allowance;
        }
    }
    retreats.0.extend(fx.retreats);
    advances.0.extend(fx.advance);
}

/// Where a watcher (presentation mode's odds overlay) keeps it, the odds of every combat taken
/// just before its dice are rolled, whoever gave the order (`fight::take_odds_before_roll`, a
/// `BeforeOrder` hook).
#[derive(Resource, Default)]
pub struct OddsBeforeRoll(pub Option<(PlannedCombat, combat::Odds)>);

/// A combat's result in words, as logged: `code | attacker: … | defender: …`.
pub fn result_words(s: &Situation, r: &CombatResult) -> String {
    format!(
        "{} | {} | {}",
        r.code,
        report::side_text(&s.attackers, &r.attacker, Role::Attacker),
        report::side_text(&s.defenders, &r.defender, Role::Defender)
    )
}

/// Logs the odds, modifiers, narrative and result (the result last: the status bar shows the
/// newest line); returns the result in words.
pub(super) fn narrate(world: &mut World, p: &PlannedCombat, a: &Assessment, outcome: &Outcome) -> String {
    let r = &outcome.result;
    let s = &p.situation;
    let summary = result_words(s, r);
    let mut log = world.resource_mut::<GameLog>();
    let modifiers: Vec<String> = a
        .modifiers
        .iter()
        .map(|m| format!("{} ({})", m.effect, m.source))
        .collect();
    log.push(format!(
        "  {}{}; {}",
        a.ratio,
        a.cell
            .as_ref()
            .map(|c| format!(", column {}", c.column))
            .unwrap_or_default(),
        if modifiers.is_empty() {
            "no modifiers".to_string()
        } else {
            modifiers.join("; ")
        }
    ));
    for line in &outcome.log {
        log.push(format!("  {line}"));
    }
    let dice: Vec<String> = outcome.rolls.iter().map(|d| d.face.to_string()).collect();
    log.push(format!(
        "Combat at {} (dice {}): {summary}",
        p.order.target,
        dice.join(",")
    ));
    summary
}

/// Runs a step of the game as a one-off system on `world` (its commands applied after it).
pub(super) fn run<I, O, M, S>(world: &mut World, system: S, input: I::Inner<'_>) -> Result<O, String>
where
    I: bevy::ecs::system::SystemInput + 'static,
    O: 'static,
    S: IntoSystem<I, O, M> + 'static,
{
    world
        .run_system_cached_with(system, input)
        .map_err(|e| format!("internal error: a game step could not run ({e})"))
}

fn clear_attacked(mut commands: Commands, attacked: Query<Entity, With<Attacked>>) {
    for e in &attacked {
        commands.entity(e).try_remove::<Attacked>();
    }
}

/// Marks a unit that was attacked in this combat phase.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defended;

/// The cells a unit attacked from in this combat phase (more than one after a breakthrough).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackedFrom(pub Vec<Cell>);

/// Marks a resolved combat: the surviving attackers with the cell each attacked from, and the
/// defenders.
fn mark_combat(commands: &mut Commands, attackers: &[(Entity, Cell)], defenders: &[Entity]) {
    for &(e, cell) in attackers {
        commands
            .entity(e)
            .entry::<AttackedFrom>()
            .and_modify(move |mut a| a.0.push(cell))
            .or_try_insert(AttackedFrom(vec![cell]));
    }
    for &e in defenders {
        commands.entity(e).try_insert(Defended);
    }
}
