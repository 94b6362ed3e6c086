//! Retreats after combat, in the combat phase's `Retreat` step: each pending retreat becomes the
//! unit's legal paths (`rules::retreat`), one is chosen (a `ChooseRetreat` message, or the
//! automatic choice by the ruleset's chooser) and carried out with its ER checks and step losses.

use super::GameSystems;
use super::combat::{PendingAdvances, PendingRetreats, UnitData};
use super::components::{GameLog, GameMap, GameRng, MapIndex, Position, Sides, Steps};
use super::movement::OrderRefused;
use super::phase::{CombatStep, GameState};
use super::zoc::Zoc;
use crate::combat::Chooser;
use crate::rules::grid::Cell;
use crate::rules::retreat::{
    Friends, Picker, RetreatOptions, RetreatPath, RetreatWorld, Retreater, WhenBlocked, choose_retreat, legal_retreats,
};
use crate::rules::units::UnitClass;
use crate::rules::zoc::ZocMap;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// The retreats and advances systems, in order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RetreatSystems;

/// A player's (or the AI's) choice of path for a pending retreat: the cells after the start.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct ChooseRetreat {
    pub unit: Entity,
    pub path: Vec<Cell>,
}

/// A retreat was carried out (or could not be: `path` is empty and the unit stayed or died).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Retreated {
    pub unit: Entity,
    pub from: Cell,
    pub path: Vec<Cell>,
    pub steps_lost: u32,
    pub eliminated: bool,
}

/// Marks a unit that retreated in this combat phase.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetreatedThisPhase;

/// Whether retreats and advances are chosen automatically (quick play, the AI, tests) or wait
/// for `ChooseRetreat` / `ChooseAdvance` messages when there is a real choice.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AfterCombatMode {
    pub automatic: bool,
}

impl Default for AfterCombatMode {
    fn default() -> Self {
        Self { automatic: true }
    }
}

/// Units of one combat that could not retreat and stayed (Next War's single ER check).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct StuckRetreats(pub Vec<(Entity, Cell)>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<ChooseRetreat>()
        .add_message::<Retreated>()
        .init_resource::<AfterCombatMode>()
        .init_resource::<StuckRetreats>()
        .configure_sets(Update, RetreatSystems.in_set(GameSystems::AfterCombat))
        .add_systems(
            Update,
            carry_out_retreats
                .in_set(RetreatSystems)
                .run_if(in_state(GameState::Playing).and_then(in_state(CombatStep::Retreat))),
        )
        .add_systems(OnExit(super::phase::Phase::Combat), clear_retreated);
}

/// Everything a retreat reads and changes besides the units.
#[derive(SystemParam)]
pub struct AfterCombatWorld<'w> {
    pub map: Res<'w, GameMap>,
    pub sides: Res<'w, Sides>,
    pub zoc: Res<'w, Zoc>,
    pub index: ResMut<'w, MapIndex>,
    pub rng: ResMut<'w, GameRng>,
    pub log: ResMut<'w, GameLog>,
    pub mode: Res<'w, AfterCombatMode>,
}

/// The legal retreats of `unit` from `from` (`length` cells), with its opponents in the combat
/// (their cells and where they came from matter to War Against Russia and Rommel).
pub fn retreat_options(
    map: &GameMap,
    zoc: &ZocMap,
    sides: &Sides,
    index: &MapIndex,
    units: &Query<UnitData>,
    unit: Entity,
    from: Cell,
    length: u32,
    opponents: &[Entity],
) -> Result<(Retreater, RetreatOptions), String> {
    let me = units
        .get(unit)
        .map_err(|_| "the retreating unit no longer exists".to_string())?;
    let side = *me.2;
    let retreater = Retreater {
        side: side.0 as u8,
        mobility: me.1.mobility,
        light_infantry: me.1.class == UnitClass::LightInfantry,
        stacking_points: map.ruleset.stacking.counted(me.12.0),
        home_edge: sides.0.get(side.0).and_then(|s| s.home_edge),
        came_from: me.11.map(|c| c.0),
    };
    let friends = |cell: Cell| {
        let mut f = Friends::default();
        for &e in index.stack(cell) {
            if e != unit
                && let Ok(d) = units.get(e)
                && *d.2 == side
            {
                f.units += u32::from(!d.13);
                f.stacking += map.ruleset.stacking.counted(d.12.0);
            }
        }
        f
    };
    let mut attackers = Vec::new();
    let mut came_from = Vec::new();
    for &o in opponents {
        if let Ok(d) = units.get(o) {
            attackers.push(d.3.0);
            // Only units that attacked count (Rommel: a defender never retreats where they came from).
            if d.10 {
                came_from.extend(d.11.map(|c| c.0));
            }
        }
    }
    let rules = &map.ruleset;
    let world = RetreatWorld {
        board: &map.board,
        movement: &rules.movement,
        stacking: &rules.stacking,
        zoc_rules: &rules.zoc,
        zoc,
        rules: &rules.retreat,
        friends: &friends,
        attackers: &attackers,
        attackers_came_from: &came_from,
    };
    Ok((retreater, legal_retreats(&world, &retreater, from, length)))
}

type Apply<'w, 's> = Query<'w, 's, (&'static mut Position, &'static mut Steps)>;

/// Moves `unit` from `from` to `to`, keeping the map index in step.
fn relocate(index: &mut MapIndex, apply: &mut Apply, unit: Entity, from: Cell, to: Cell) {
    if let Ok((mut pos, _)) = apply.get_mut(unit) {
        debug_assert_eq!(pos.0, from, "a retreat starts where the unit stands");
        index.remove(unit, pos.0);
        index.place(unit, to);
        pos.0 = to;
    }
}

/// Takes `n` steps from `unit`; an exhausted unit leaves the map. Returns whether it did.
pub fn lose_steps(index: &mut MapIndex, apply: &mut Apply, commands: &mut Commands, unit: Entity, n: u32) -> bool {
    let Ok((pos, mut steps)) = apply.get_mut(unit) else {
        return true;
    };
    steps.0.lose(n as usize);
    let gone = steps.0.is_eliminated();
    if gone {
        index.remove(unit, pos.0);
        commands.entity(unit).despawn();
    }
    gone
}

/// Next War's ER check for a unit (no ER: it passes), rolled through the game's dice.
fn er_check(rng: &mut GameRng, er: Option<u32>) -> (bool, String) {
    let Some(er) = er else {
        return (true, "no ER: passes".into());
    };
    let (pass, face) = rng
        .with_dice(|dice| crate::combat::next_war::er_check(er, dice))
        .unwrap_or((true, 0));
    (
        pass,
        format!(
            "ER check: rolled {face} against ER {er}: {}",
            if pass { "passed" } else { "failed" }
        ),
    )
}

fn carry_out_retreats(
    mut w: AfterCombatWorld,
    mut pending: ResMut<PendingRetreats>,
    mut stuck: ResMut<StuckRetreats>,
    advances: Res<PendingAdvances>,
    mut choices: MessageReader<ChooseRetreat>,
    mut chosen: Local<Vec<ChooseRetreat>>,
    mut retreated: MessageWriter<Retreated>,
    mut refused: MessageWriter<OrderRefused>,
    mut next_step: ResMut<NextState<CombatStep>>,
    mut commands: Commands,
    mut queries: ParamSet<(Query<UnitData>, Apply)>,
) {
    chosen.extend(choices.read().cloned());
    while let Some(p) = pending.0.first().cloned() {
        let (name, er, exists) = match queries.p0().get(p.unit) {
            Ok(d) => (d.1.name.clone(), d.7.map(|e| e.0), true),
            Err(_) => (String::new(), None, false),
        };
        if !exists {
            pending.0.remove(0);
            continue;
        }
        let options_of = |w: &AfterCombatWorld, units: &Query<UnitData>, length: u32| {
            retreat_options(
                &w.map,
                &w.zoc.0,
                &w.sides,
                &w.index,
                units,
                p.unit,
                p.from,
                length,
                &p.opponents,
            )
        };
        let planned = options_of(&w, &queries.p0(), p.demand.cells);
        let Ok((retreater, options)) = planned else {
            pending.0.remove(0);
            continue;
        };
        // A player's choice for this unit, if one came and is legal.
        let mut pick: Option<RetreatPath> = None;
        if let Some(i) = chosen.iter().position(|c| c.unit == p.unit) {
            let choice = chosen.remove(i);
            match options
                .legal
                .iter()
                .find(|l| l.cells.as_slice() == choice.path.as_slice())
            {
                Some(l) => pick = Some(l.clone()),
                None => {
                    let why = options
                        .illegal
                        .iter()
                        .find(|x| choice.path.starts_with(&x.cells))
                        .map_or("it is not one of the unit's legal retreat paths".to_string(), |x| {
                            x.reason.clone()
                        });
                    let reason = format!("{name} cannot retreat that way: {why}");
                    w.log.push(format!("Retreat refused: {reason}."));
                    refused.write(OrderRefused { reason });
                }
            }
        }
        let real_choice = options.legal.len() > 1 && p.demand.chooser != Chooser::Random;
        if pick.is_none() && real_choice && !w.mode.automatic {
            return; // wait for the chooser
        }
        pending.0.remove(0);
        let picker = match p.demand.chooser {
            Chooser::Owner => Picker::Owner,
            Chooser::Opponent => Picker::Opponent,
            Chooser::Random => Picker::Random {
                roll: if options.legal.len() > 1 {
                    w.rng.roll(options.legal.len() as u32)
                } else {
                    1
                },
            },
        };
        let mut steps_lost = 0;
        let mut eliminated = false;
        if p.check_first {
            let (pass, text) = er_check(&mut w.rng, er);
            w.log
                .push(format!("  {name} retreated here earlier and must go on: {text}."));
            if !pass {
                steps_lost += 1;
                eliminated = lose_steps(&mut w.index, &mut queries.p1(), &mut commands, p.unit, 1);
            }
        }
        let path = pick.or_else(|| choose_retreat(&options.legal, &retreater, picker).cloned());
        let mut cells: Vec<Cell> = Vec::new();
        if eliminated {
            // It did not survive its ER check.
        } else if let Some(path) = path {
            cells = path.cells.to_vec();
            relocate(&mut w.index, &mut queries.p1(), p.unit, p.from, path.end());
            commands.entity(p.unit).try_insert(RetreatedThisPhase);
            let route = cells.iter().map(ToString::to_string).collect::<Vec<_>>().join(" → ");
            w.log.push(format!("{name} retreats {} → {route}.", p.from));
            if path.through_ezoc && w.map.ruleset.retreat.ezoc_entry == crate::rules::retreat::EzocEntry::ErCheck {
                let (pass, text) = er_check(&mut w.rng, er);
                w.log
                    .push(format!("  It passed through an enemy zone of control: {text}."));
                if !pass {
                    steps_lost += 1;
                    eliminated = lose_steps(&mut w.index, &mut queries.p1(), &mut commands, p.unit, 1);
                }
            }
        } else {
            let why = options
                .illegal
                .iter()
                .map(|x| x.reason.as_str())
                .next()
                .unwrap_or("no cell leads away");
            match w.map.ruleset.retreat.when_blocked {
                WhenBlocked::Eliminated => {
                    w.log.push(format!("{name} cannot retreat ({why}) and is eliminated."));
                    let total = queries.p1().get(p.unit).map_or(0, |(_, s)| s.0.remaining() as u32);
                    steps_lost += total;
                    eliminated = lose_steps(&mut w.index, &mut queries.p1(), &mut commands, p.unit, total);
                }
                WhenBlocked::StayWithErCheck => {
                    w.log
                        .push(format!("{name} cannot retreat fully ({why}) and stays in {}.", p.from));
                    stuck.0.push((p.unit, p.from));
                }
                WhenBlocked::StepPerCellShort => {
                    let mut done = false;
                    for length in (1..p.demand.cells).rev() {
                        let shorter = options_of(&w, &queries.p0(), length);
                        if let Ok((r, o)) = shorter
                            && let Some(path) = choose_retreat(&o.legal, &r, picker).cloned()
                        {
                            let short = p.demand.cells - length;
                            let mut apply = queries.p1();
                            relocate(&mut w.index, &mut apply, p.unit, p.from, path.end());
                            commands.entity(p.unit).try_insert(RetreatedThisPhase);
                            cells = path.cells.to_vec();
                            w.log.push(format!(
                                "{name} retreats only {length} of {} hexes ({why}) and loses {short} step(s) for the rest.",
                                p.demand.cells
                            ));
                            steps_lost += short;
                            eliminated = lose_steps(&mut w.index, &mut apply, &mut commands, p.unit, short);
                            done = true;
                            break;
                        }
                    }
                    if !done {
                        let n = p.demand.cells;
                        w.log.push(format!(
                            "{name} cannot retreat ({why}) and loses {n} step(s) in place instead."
                        ));
                        steps_lost += n;
                        let mut apply = queries.p1();
                        eliminated = lose_steps(&mut w.index, &mut apply, &mut commands, p.unit, n);
                    }
                }
            }
        }
        retreated.write(Retreated {
            unit: p.unit,
            from: p.from,
            path: cells,
            steps_lost,
            eliminated,
        });
    }
    // Next War: of the units that could not retreat, the lowest ER makes one check.
    if !stuck.0.is_empty() {
        let group = std::mem::take(&mut stuck.0);
        let lowest = group
            .iter()
            .filter_map(|(e, _)| {
                queries
                    .p0()
                    .get(*e)
                    .ok()
                    .map(|d| (d.7.map_or(u32::MAX, |x| x.0), d.1.name.clone(), *e))
            })
            .min_by_key(|(er, ..)| *er);
        if let Some((er, name, e)) = lowest {
            let (pass, text) = er_check(&mut w.rng, (er != u32::MAX).then_some(er));
            w.log
                .push(format!("{name} checks for the units that failed to retreat: {text}."));
            if !pass {
                let mut apply = queries.p1();
                lose_steps(&mut w.index, &mut apply, &mut commands, e, 1);
                w.log.push(format!("  {name} loses a step for failing to retreat."));
            }
        }
    }
    next_step.set(if advances.0.is_empty() {
        CombatStep::Declare
    } else {
        CombatStep::Advance
    });
}

fn clear_retreated(mut commands: Commands, units: Query<Entity, With<RetreatedThisPhase>>) {
    for e in &units {
        commands.entity(e).try_remove::<RetreatedThisPhase>();
    }
}
