//! Combat in the game: a `DeclareAttack` order in the combat phase is checked and turned into a
//! `Situation` (`situation.rs`), resolved through `combat::fight` with the game's seeded RNG, and
//! applied (steps, statuses, experience, eliminations). The retreats and advances a result
//! demands wait in `PendingRetreats` / `PendingAdvances` for the combat phase's retreat and
//! advance steps (`retreat.rs`, `advance.rs`).

use super::GameSystems;
use super::components::{
    Experience, GameLog, GameMap, GameRng, MapIndex, MovePoints, Position, Sides, Statuses, Steps,
};
use super::movement::OrderRefused;
use super::phase::{CombatStep, GameState, Phase, TurnState};
use super::zoc::Zoc;
use crate::combat::{self, AdvanceRight, Choices, CombatResult, RetreatDemand, Role, Tactic, Weather, report};
use crate::rules::grid::Cell;
use crate::rules::units::UnitStatus;
use bevy::prelude::*;

/// Attack the units in `target` with `attackers` (and the support named here).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct DeclareAttack {
    pub attackers: Vec<Entity>,
    pub target: Cell,
    /// Rommel: artillery called to barrage.
    pub barrage: Vec<Entity>,
    pub attack_tactics: Vec<Tactic>,
    pub defense_tactics: Vec<Tactic>,
    /// Rommel: artillery the defender calls to barrage.
    pub defense_barrage: Vec<Entity>,
    /// War Against Russia: the defenders are under No Retreat! orders.
    pub no_retreat: bool,
    /// Killing Ground: the unit making an Accelerated Effort.
    pub accelerated_effort: Option<Entity>,
    pub flanking: bool,
    pub choices: Choices,
}

impl DeclareAttack {
    /// An attack with no support, tactics or choices: the units and the target.
    pub fn plain(attackers: Vec<Entity>, target: Cell) -> Self {
        Self {
            attackers,
            target,
            barrage: Vec::new(),
            attack_tactics: Vec::new(),
            defense_tactics: Vec::new(),
            defense_barrage: Vec::new(),
            no_retreat: false,
            accelerated_effort: None,
            flanking: false,
            choices: Choices::default(),
        }
    }
}

pub use super::situation::{DEFAULT_BARRAGE_RANGE, UnitData, UnitRow, build_situation, combatant};

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

/// Marks a unit that has attacked in this combat phase.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attacked;

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

/// Retreats waiting to be carried out (by the retreat-pathing systems).
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
}

/// Advances waiting for the attacker's choice (carried out after the retreats).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PendingAdvances(pub Vec<PendingAdvance>);

/// The weather of the current turn (scenarios may set it; clear by default).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CurrentWeather(pub Weather);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<DeclareAttack>()
        .add_message::<CombatResolved>()
        .init_resource::<PendingRetreats>()
        .init_resource::<PendingAdvances>()
        .init_resource::<CurrentWeather>()
        .add_systems(
            Update,
            resolve_declared_attacks
                .in_set(GameSystems::Orders)
                .after(super::movement::execute_move_orders)
                .run_if(in_state(GameState::Playing)),
        )
        .add_systems(OnExit(Phase::Combat), clear_attacked);
}

fn resolve_declared_attacks(
    mut orders: MessageReader<DeclareAttack>,
    map: Res<GameMap>,
    sides: Res<Sides>,
    turn: Res<TurnState>,
    phase: Res<State<Phase>>,
    weather: Res<CurrentWeather>,
    mut index: ResMut<MapIndex>,
    mut rng: ResMut<GameRng>,
    mut log: ResMut<GameLog>,
    (zoc, mut retreats, mut advances, mut next_step): (
        Res<Zoc>,
        ResMut<PendingRetreats>,
        ResMut<PendingAdvances>,
        ResMut<NextState<CombatStep>>,
    ),
    mut resolved: MessageWriter<CombatResolved>,
    mut refused: MessageWriter<OrderRefused>,
    mut commands: Commands,
    mut queries: ParamSet<(
        Query<UnitData>,
        Query<(
            &mut Steps,
            &mut Statuses,
            Option<&mut Experience>,
            &Position,
            &mut MovePoints,
        )>,
    )>,
) {
    for order in orders.read() {
        let built = if *phase.get() != Phase::Combat {
            Err(format!(
                "attacks are made in a combat phase; this is the {:?} phase",
                phase.get()
            ))
        } else if !retreats.0.is_empty() || !advances.0.is_empty() {
            Err("the last combat's retreats and advances come first".to_string())
        } else {
            build_situation(
                order,
                &map,
                &zoc.0,
                &sides,
                turn.active,
                &index,
                weather.0,
                &queries.p0(),
            )
        };
        let fought = built.and_then(|(s, att, def)| {
            rng.with_dice(|dice| combat::fight(&map.ruleset.combat, &s, dice))
                .map(|(assessment, outcome)| (s, att, def, assessment, outcome))
                .map_err(|r| r.0)
        });
        let (s, att, def, assessment, outcome) = match fought {
            Ok(x) => x,
            Err(reason) => {
                log.push(format!("Attack refused: {reason}."));
                refused.write(OrderRefused { reason });
                continue;
            }
        };
        let r = &outcome.result;
        // Next War: units that retreated here earlier and sat the combat out.
        let bystanders: Vec<Entity> = index
            .stack(order.target)
            .iter()
            .copied()
            .filter(|e| !def.contains(e) && queries.p0().get(*e).is_ok_and(|d| *d.2 != turn.active))
            .collect();
        // Next War: zero-attack units stacked with an attacker may follow its advance.
        let followers: Vec<Entity> = if map.ruleset.advance.zero_attack_followers {
            let cells: Vec<Cell> = att
                .iter()
                .filter_map(|e| queries.p0().get(*e).ok().map(|d| d.3.0))
                .collect();
            cells
                .iter()
                .flat_map(|c| index.stack(*c).iter().copied())
                .filter(|e| {
                    !att.contains(e)
                        && queries
                            .p0()
                            .get(*e)
                            .is_ok_and(|d| *d.2 == turn.active && d.4.values().attack == 0)
                })
                .collect()
        } else {
            Vec::new()
        };
        let dice: Vec<String> = outcome.rolls.iter().map(|d| d.face.to_string()).collect();
        let summary = format!(
            "{} | {} | {}",
            r.code,
            report::side_text(&s.attackers, &r.attacker, Role::Attacker),
            report::side_text(&s.defenders, &r.defender, Role::Defender)
        );
        // Odds and modifiers, the narrative, then the result last: the status bar shows the newest line.
        let modifiers: Vec<String> = assessment
            .modifiers
            .iter()
            .map(|m| format!("{} ({})", m.effect, m.source))
            .collect();
        log.push(format!(
            "  {}{}; {}",
            assessment.ratio,
            assessment
                .cell
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
        log.push(format!(
            "Combat at {} (dice {}): {summary}",
            order.target,
            dice.join(",")
        ));
        let mut apply = queries.p1();
        for (entities, opponents, side) in [(&att, &def, &r.attacker), (&def, &att, &r.defender)] {
            for (e, u) in entities.iter().zip(&side.units) {
                let Ok((mut steps, mut statuses, xp, pos, _)) = apply.get_mut(*e) else {
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
                } else if u.retreats
                    && let Some(demand) = side.retreat
                {
                    retreats.0.push(PendingRetreat {
                        unit: *e,
                        // The unit's own cell: attackers retreat from theirs, not the target.
                        from: pos.0,
                        demand,
                        opponents: opponents.clone(),
                        check_first: false,
                    });
                }
            }
        }
        // Eliminated units leave the map.
        for (entities, side) in [(&att, &r.attacker), (&def, &r.defender)] {
            for (e, u) in entities.iter().zip(&side.units) {
                if u.eliminated {
                    commands.entity(*e).despawn();
                }
            }
        }
        for &e in &att {
            commands.entity(e).try_insert(Attacked);
        }
        // Rommel: every battery that barraged is tipped.
        for (batteries, side) in [(&order.barrage, &r.attacker), (&order.defense_barrage, &r.defender)] {
            if side.batteries_tipped > 0 {
                for &e in batteries {
                    if let Ok((_, mut statuses, ..)) = apply.get_mut(e) {
                        statuses.0.insert(UnitStatus::Tipped);
                    }
                }
            }
        }
        if r.cell_taken && !bystanders.is_empty() {
            let demand = r.defender.retreat.unwrap_or(RetreatDemand {
                cells: 1,
                chooser: combat::Chooser::Owner,
                optional: false,
                er_check_in_ezoc: true,
            });
            for &e in &bystanders {
                retreats.0.push(PendingRetreat {
                    unit: e,
                    from: order.target,
                    demand,
                    opponents: att.clone(),
                    check_first: true,
                });
            }
        }
        if map.ruleset.advance.fought_units_lose_movement {
            for e in &att {
                if let Ok((.., mut mp)) = apply.get_mut(*e) {
                    mp.spent = mp.allowance;
                }
            }
        }
        if let Some(right) = r.attacker.advance {
            let survivors: Vec<Entity> = att
                .iter()
                .zip(&r.attacker.units)
                .filter(|(_, u)| !u.eliminated && !u.retreats)
                .map(|(e, _)| *e)
                .collect();
            if !survivors.is_empty() {
                advances.0.push(PendingAdvance {
                    attackers: survivors,
                    followers: followers.clone(),
                    into: order.target,
                    right,
                });
            }
        }
        if !retreats.0.is_empty() {
            next_step.set(CombatStep::Retreat);
        } else if !advances.0.is_empty() {
            next_step.set(CombatStep::Advance);
        }
        resolved.write(CombatResolved {
            target: order.target,
            attackers: att.clone(),
            defenders: def.clone(),
            result: outcome.result.clone(),
            summary,
            cell: assessment.cell.clone(),
            rolls: outcome.rolls.clone(),
            narrative: outcome.log.clone(),
        });
    }
}

fn clear_attacked(mut commands: Commands, attacked: Query<Entity, With<Attacked>>) {
    for e in &attacked {
        commands.entity(e).try_remove::<Attacked>();
    }
}
