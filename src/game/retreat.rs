//! Retreats after combat, in the combat phase's `Retreat` step: each pending retreat becomes the
//! unit's legal paths (`rules::retreat`), one is chosen (a `Retreat` order, or the automatic
//! choice by the ruleset's chooser) and carried out with its ER checks and step losses.

use super::combat_phase::{PendingRetreat, PendingRetreats, UnitData};
use super::components::{GameLog, GameMap, GameRng, MapIndex, Position, Sides, Steps};
use super::zoc::Zoc;
use crate::combat::Chooser;
use crate::rules::grid::Cell;
use crate::rules::retreat::{Picker, RetreatOptions, RetreatPath, Retreater, WhenBlocked, choose_retreat};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// A retreat was carried out (or could not be: `path` is empty and the unit stayed or died).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Retreated {
    pub unit: Entity,
    pub from: Cell,
    pub path: Vec<Cell>,
    pub steps_lost: u32,
    pub eliminated: bool,
    /// When no retreat was open: the unit's name and why (the first cell's reason).
    pub blocked: Option<(String, String)>,
}

pub use super::view::{RetreatedThisPhase, retreat_options};

/// Whether retreats and advances with a real choice are made automatically (quick play, tests)
/// or wait for `Retreat` / `Advance` / `EndAdvance` orders.
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
    app.add_message::<Retreated>()
        .init_resource::<AfterCombatMode>()
        .init_resource::<StuckRetreats>()
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

/// The legal retreat paths of a waiting retreat, read from the world (what a player, or the
/// computer, chooses among); `None` when its unit is gone.
pub fn waiting_retreat_paths(world: &mut World, p: &PendingRetreat) -> Option<Vec<RetreatPath>> {
    let mut state: bevy::ecs::system::SystemState<super::combat_phase::GameView> =
        bevy::ecs::system::SystemState::new(world);
    let view = state.get(world).ok()?;
    let (_, options) = view
        .retreat_options(p.unit, p.from, p.demand.cells, &p.opponents)
        .ok()?;
    Some(options.legal)
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

type UnitsAndApply<'w, 's> = ParamSet<'w, 's, (Query<'static, 'static, UnitData>, Apply<'static, 'static>)>;

/// The legal retreats of the pending retreat `p`, `length` cells long.
fn options_for(
    w: &AfterCombatWorld,
    units: &Query<UnitData>,
    p: &PendingRetreat,
    length: u32,
) -> Result<(Retreater, RetreatOptions), String> {
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
}

/// The side that picks the path of a retreat of a unit of `owner`: `None` when a die picks it.
pub fn retreat_chooser(chooser: Chooser, owner: usize, sides: usize) -> Option<usize> {
    match chooser {
        Chooser::Owner => Some(owner),
        Chooser::Opponent => (0..sides).find(|s| *s != owner),
        Chooser::Random => None,
    }
}

/// Checks a player's path for the first pending retreat.
fn check_choice(
    w: &AfterCombatWorld,
    pending: &PendingRetreats,
    units: &Query<UnitData>,
    unit: Entity,
    path: &[Cell],
) -> Result<RetreatPath, String> {
    let name = |e: Entity| {
        units
            .get(e)
            .map_or_else(|_| "a unit".to_string(), |d| d.unit.name.clone())
    };
    let Some(p) = pending.0.first() else {
        return Err("no retreat is waiting for a choice".into());
    };
    if p.unit != unit {
        return Err(format!("{} retreats first, not {}", name(p.unit), name(unit)));
    }
    if p.demand.chooser == Chooser::Random {
        return Err(format!("a die picks {}'s retreat", name(unit)));
    }
    let (_, options) = options_for(w, units, p, p.demand.cells)?;
    match options.legal.iter().find(|l| l.cells.as_slice() == path) {
        Some(l) => Ok(l.clone()),
        None => {
            let why = options
                .illegal
                .iter()
                .find(|x| path.starts_with(&x.cells))
                .map_or("it is not one of the unit's legal retreat paths".to_string(), |x| {
                    x.reason.clone()
                });
            Err(format!("{} cannot retreat that way: {why}", name(unit)))
        }
    }
}

/// Carries out the pending retreats in order, as far as it can go without a player's choice;
/// `choice` is a player's path for the first one. A choice that is not legal changes nothing.
pub(super) fn carry_out_retreats(
    In(choice): In<Option<(Entity, Vec<Cell>)>>,
    mut w: AfterCombatWorld,
    mut pending: ResMut<PendingRetreats>,
    mut stuck: ResMut<StuckRetreats>,
    mut retreated: MessageWriter<Retreated>,
    mut commands: Commands,
    mut queries: UnitsAndApply,
) -> Result<(), String> {
    let mut pick = match choice {
        Some((unit, path)) => Some(check_choice(&w, &pending, &queries.p0(), unit, &path)?),
        None => None,
    };
    while let Some(p) = pending.0.first().cloned() {
        let Ok((retreater, options)) = options_for(&w, &queries.p0(), &p, p.demand.cells) else {
            // The unit is gone.
            pending.0.remove(0);
            continue;
        };
        let real_choice = options.legal.len() > 1 && p.demand.chooser != Chooser::Random;
        if pick.is_none() && real_choice && !w.mode.automatic {
            return Ok(()); // wait for the chooser
        }
        pending.0.remove(0);
        let chosen = pick.take();
        let done = retreat_unit(
            &mut w,
            &mut commands,
            &mut queries,
            &mut stuck,
            &p,
            retreater,
            options,
            chosen,
        );
        retreated.write(done);
    }
    check_stuck_units(&mut w, &mut commands, &mut queries, &mut stuck);
    Ok(())
}

/// Carries out one retreat: the ER check of a unit going on, the path (chosen, or by the
/// ruleset's chooser), an ER check for passing an enemy zone of control, or what happens to a
/// unit that cannot retreat.
#[allow(clippy::too_many_arguments)]
fn retreat_unit(
    w: &mut AfterCombatWorld,
    commands: &mut Commands,
    queries: &mut UnitsAndApply,
    stuck: &mut StuckRetreats,
    p: &PendingRetreat,
    retreater: Retreater,
    options: RetreatOptions,
    chosen: Option<RetreatPath>,
) -> Retreated {
    let (name, er) = queries
        .p0()
        .get(p.unit)
        .map_or((String::new(), None), |d| (d.unit.name.clone(), d.er.map(|e| e.0)));
    let picker = match p.demand.chooser {
        Chooser::Owner => Picker::Owner,
        Chooser::Opponent => Picker::Opponent,
        Chooser::Random => Picker::Random {
            roll: if options.legal.len() > 1 {
                u32::from(
                    w.rng
                        .roll_numbered(options.legal.len().min(255) as u8, "random retreat direction"),
                )
            } else {
                1
            },
        },
    };
    let mut done = Retreated {
        unit: p.unit,
        from: p.from,
        path: Vec::new(),
        steps_lost: 0,
        eliminated: false,
        blocked: None,
    };
    if p.check_first {
        let (pass, text) = er_check(&mut w.rng, er);
        w.log
            .push(format!("  {name} retreated here earlier and must go on: {text}."));
        if !pass {
            done.steps_lost += 1;
            done.eliminated = lose_steps(&mut w.index, &mut queries.p1(), commands, p.unit, 1);
        }
    }
    if done.eliminated {
        return done; // It did not survive its ER check.
    }
    // Said in the log when nobody had a choice, rather than applied silently.
    let only = chosen.is_none() && options.legal.len() == 1;
    let directions = options.legal.len();
    let path = chosen.or_else(|| choose_retreat(&options.legal, &retreater, picker).cloned());
    if path.is_none() && p.demand.optional && !p.check_first {
        // A retreat the owner chose to make, with nowhere to go: the unit simply stays.
        w.log
            .push(format!("{name} has no route for its voluntary retreat and stays."));
        return done;
    }
    let Some(path) = path else {
        let why = options
            .illegal
            .iter()
            .map(|x| x.reason.as_str())
            .next()
            .unwrap_or("no cell leads away")
            .to_string();
        done.blocked = Some((name.clone(), why.clone()));
        retreat_blocked(w, commands, queries, stuck, p, picker, &name, &why, &mut done);
        return done;
    };
    done.path = path.cells.to_vec();
    relocate(&mut w.index, &mut queries.p1(), p.unit, p.from, path.end());
    commands.entity(p.unit).try_insert(RetreatedThisPhase);
    let route = done
        .path
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" → ");
    let how = match picker {
        Picker::Random { roll } if directions > 1 => format!(
            " (a die roll of {roll} among {directions} friendly directions: cells with no enemy unit, outside enemy zones of control unless a friend is there)"
        ),
        _ if only => " (its only legal retreat)".to_string(),
        _ => String::new(),
    };
    w.log.push(format!("{name} retreats {} → {route}{how}.", p.from));
    if path.through_ezoc && w.map.ruleset.retreat.ezoc_entry == crate::rules::retreat::EzocEntry::ErCheck {
        let (pass, text) = er_check(&mut w.rng, er);
        w.log
            .push(format!("  It passed through an enemy zone of control: {text}."));
        if !pass {
            done.steps_lost += 1;
            done.eliminated = lose_steps(&mut w.index, &mut queries.p1(), commands, p.unit, 1);
        }
    }
    done
}

/// A unit with no legal retreat: eliminated, stays (Next War, checked with the others that
/// stayed), or retreats as far as it can and loses a step per cell short (Killing Ground).
#[allow(clippy::too_many_arguments)]
fn retreat_blocked(
    w: &mut AfterCombatWorld,
    commands: &mut Commands,
    queries: &mut UnitsAndApply,
    stuck: &mut StuckRetreats,
    p: &PendingRetreat,
    picker: Picker,
    name: &str,
    why: &str,
    done: &mut Retreated,
) {
    match w.map.ruleset.retreat.when_blocked {
        WhenBlocked::Eliminated => {
            w.log.push(format!("{name} cannot retreat ({why}) and is eliminated."));
            let total = queries.p1().get(p.unit).map_or(0, |(_, s)| s.0.remaining() as u32);
            done.steps_lost += total;
            done.eliminated = lose_steps(&mut w.index, &mut queries.p1(), commands, p.unit, total);
        }
        WhenBlocked::StayWithErCheck => {
            w.log
                .push(format!("{name} cannot retreat fully ({why}) and stays in {}.", p.from));
            stuck.0.push((p.unit, p.from));
        }
        WhenBlocked::StepPerCellShort => {
            for length in (1..p.demand.cells).rev() {
                let shorter = options_for(w, &queries.p0(), p, length);
                if let Ok((r, o)) = shorter
                    && let Some(path) = choose_retreat(&o.legal, &r, picker).cloned()
                {
                    let short = p.demand.cells - length;
                    let mut apply = queries.p1();
                    relocate(&mut w.index, &mut apply, p.unit, p.from, path.end());
                    commands.entity(p.unit).try_insert(RetreatedThisPhase);
                    done.path = path.cells.to_vec();
                    w.log.push(format!(
                        "{name} retreats only {length} of {} hexes ({why}) and loses {} for the rest.",
                        p.demand.cells,
                        crate::rules::units::counted(short, "step", "steps")
                    ));
                    done.steps_lost += short;
                    done.eliminated = lose_steps(&mut w.index, &mut apply, commands, p.unit, short);
                    return;
                }
            }
            let n = p.demand.cells;
            w.log.push(format!(
                "{name} cannot retreat ({why}) and loses {} in place instead.",
                crate::rules::units::counted(n, "step", "steps")
            ));
            done.steps_lost += n;
            done.eliminated = lose_steps(&mut w.index, &mut queries.p1(), commands, p.unit, n);
        }
    }
}

/// Next War: of the units that could not retreat, the lowest ER makes one check.
fn check_stuck_units(
    w: &mut AfterCombatWorld,
    commands: &mut Commands,
    queries: &mut UnitsAndApply,
    stuck: &mut StuckRetreats,
) {
    if stuck.0.is_empty() {
        return;
    }
    let group = std::mem::take(&mut stuck.0);
    let lowest = group
        .iter()
        .filter_map(|(e, _)| {
            queries
                .p0()
                .get(*e)
                .ok()
                .map(|d| (d.er.map_or(u32::MAX, |x| x.0), d.unit.name.clone(), *e))
        })
        .min_by_key(|(er, ..)| *er);
    if let Some((er, name, e)) = lowest {
        let (pass, text) = er_check(&mut w.rng, (er != u32::MAX).then_some(er));
        w.log
            .push(format!("{name} checks for the units that failed to retreat: {text}."));
        if !pass {
            let mut apply = queries.p1();
            lose_steps(&mut w.index, &mut apply, commands, e, 1);
            w.log.push(format!("  {name} loses a step for failing to retreat."));
        }
    }
}

fn clear_retreated(mut commands: Commands, units: Query<Entity, With<RetreatedThisPhase>>) {
    for e in &units {
        commands.entity(e).try_remove::<RetreatedThisPhase>();
    }
}

/// The defenders in `target` that could not retreat even one cell if the combat's result asked
/// them to, each with why and what the ruleset does instead — for the attack preview, before the
/// roll (Killing Ground 8.93: a step for each cell short).
pub fn blocked_defenders(view: &super::view::GameView, target: Cell, attackers: &[Entity]) -> Vec<String> {
    let instead = match view.map.ruleset.retreat.when_blocked {
        WhenBlocked::StepPerCellShort => "a retreat result costs it a step for each cell it cannot go",
        WhenBlocked::StayWithErCheck => "a retreat result leaves it in place, with an ER check for a step",
        WhenBlocked::Eliminated => "a retreat result eliminates it",
    };
    let attacking: Vec<super::components::Side> = attackers
        .iter()
        .filter_map(|e| view.units.get(*e).ok().map(|d| *d.side))
        .collect();
    view.index
        .stack(target)
        .iter()
        .filter(|e| view.units.get(**e).is_ok_and(|d| !attacking.contains(d.side)))
        .filter_map(|e| {
            let (_, options) = view.retreat_options(*e, target, 1, attackers).ok()?;
            if !options.legal.is_empty() {
                return None;
            }
            let name = view.units.get(*e).ok()?.unit.name.clone();
            let why = options
                .illegal
                .first()
                .map_or("no cell leads away".to_string(), |x| x.reason.clone());
            Some(format!("{name} cannot retreat from {target} ({why}): {instead}."))
        })
        .collect()
}
