//! A scripted hotseat player for headless tests: it reads the world as the desktop client does and
//! sends only the client's commands (`MoveOrder`, `DeclareAttack`, `ChooseRetreat`,
//! `ChooseAdvance`, `EndAdvance`, `EndPhase`). Its plan is simple and deterministic: every stack
//! moves to the reachable cell nearest an enemy, every stack next to (or sharing a cell with) an
//! enemy attacks it, retreats take the first legal path listed, attackers advance when they may.

use super::board::phase;
use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use hexfront::game::combat::{
    CombatResolved, DeclareAttack, PendingAdvances, PendingRetreats, UnitData, build_situation,
};
use hexfront::game::components::*;
use hexfront::game::movement::{MoveOrder, Moved, OrderRefused, may_end_in, movers_and_others, search_moves};
use hexfront::game::phase::{CombatStep, EndPhase, Phase, TurnState};
use hexfront::game::retreat::{ChooseRetreat, retreat_options};
use hexfront::game::zoc::Zoc;
use hexfront::rules::grid::Cell;

/// What one phase of play did.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PhaseReport {
    pub moves: usize,
    pub combats: usize,
    pub retreats_chosen: usize,
    pub advances_chosen: usize,
    pub refusals: Vec<String>,
}

type MoveQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Unit,
        &'static Side,
        &'static Position,
        &'static MovePoints,
        &'static StackingPoints,
        &'static Statuses,
    ),
>;

fn active(app: &App) -> Side {
    app.world().resource::<TurnState>().active
}

/// The active side's stacks, cell by cell in label order.
fn own_stacks(app: &mut App) -> Vec<(Cell, Vec<Entity>)> {
    let me = active(app);
    let index = app.world().resource::<MapIndex>().clone();
    let mut stacks: Vec<(Cell, Vec<Entity>)> = index
        .occupied()
        .map(|(c, s)| {
            let own: Vec<Entity> = s
                .iter()
                .copied()
                .filter(|e| app.world().get::<Side>(*e) == Some(&me))
                .collect();
            (c, own)
        })
        .filter(|(_, s)| !s.is_empty())
        .collect();
    stacks.sort_by_key(|(c, _)| (c.col, c.row));
    stacks
}

fn enemy_cells(app: &mut App) -> Vec<Cell> {
    let me = active(app);
    let index = app.world().resource::<MapIndex>().clone();
    index
        .occupied()
        .filter(|(_, s)| s.iter().any(|e| app.world().get::<Side>(*e).is_some_and(|x| *x != me)))
        .map(|(c, _)| c)
        .collect()
}

fn drain<M: Message + Clone>(app: &mut App) -> Vec<M> {
    let m = app.world().resource::<Messages<M>>();
    let out = m.get_cursor().read(m).cloned().collect();
    app.world_mut().resource_mut::<Messages<M>>().clear();
    out
}

/// Plays the active side's current phase and ends it.
pub fn play_phase(app: &mut App) -> PhaseReport {
    let mut report = PhaseReport::default();
    drain::<OrderRefused>(app);
    match phase(app) {
        Phase::Movement | Phase::Exploitation => play_moves(app, &mut report),
        Phase::Combat => play_combats(app, &mut report),
        _ => {}
    }
    report
        .refusals
        .extend(drain::<OrderRefused>(app).into_iter().map(|r| r.reason));
    app.world_mut().write_message(EndPhase);
    app.update();
    app.update();
    report
}

fn play_moves(app: &mut App, report: &mut PhaseReport) {
    for (from, units) in own_stacks(app) {
        let enemies = enemy_cells(app);
        let mut state: SystemState<(Res<GameMap>, Res<Zoc>, Res<TurnState>, Res<State<Phase>>, MoveQuery)> =
            SystemState::new(app.world_mut());
        let target = {
            let (map, zoc, turn, phase, query) = state.get(app.world_mut()).unwrap();
            let Ok((movers, others)) = movers_and_others(&units, &query) else {
                continue;
            };
            let Ok(search) = search_moves(&map, &zoc.0, *phase.get(), turn.active, &movers, &others) else {
                continue;
            };
            let grid = map.board.grid;
            let distance = |c: Cell| enemies.iter().map(|e| grid.distance(c, *e)).min().unwrap_or(u32::MAX);
            let mut best: Option<(u32, i32, i32, Cell)> = None;
            let may_end = |c: Cell| may_end_in(&map, turn.active, &movers, &others, c).is_ok();
            for (cell, _) in search.reach.iter().filter(|(c, _)| **c != from && may_end(**c)) {
                let key = (distance(*cell), cell.col, cell.row, *cell);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
            best.filter(|b| b.0 < distance(from)).map(|b| b.3)
        };
        if let Some(to) = target {
            app.world_mut().write_message(MoveOrder { units, to });
            app.update();
            report.moves += drain::<Moved>(app).len();
        }
    }
}

fn play_combats(app: &mut App, report: &mut PhaseReport) {
    for (from, units) in own_stacks(app) {
        let targets: Vec<Cell> = {
            let grid = app.world().resource::<GameMap>().board.grid;
            let enemies = enemy_cells(app);
            enemies
                .into_iter()
                .filter(|c| *c == from || grid.neighbours(from).any(|n| n == *c))
                .collect()
        };
        let live: Vec<Entity> = units
            .iter()
            .copied()
            .filter(|e| app.world().get_entity(*e).is_ok())
            .collect();
        let Some(target) = targets.first().copied() else {
            continue;
        };
        if live.is_empty() {
            continue;
        }
        // The preview the client shows first: skip attacks the rules refuse.
        let order = DeclareAttack::plain(live, target);
        let allowed = {
            let mut state: SystemState<(
                Res<GameMap>,
                Res<Zoc>,
                Res<Sides>,
                Res<TurnState>,
                Res<MapIndex>,
                Res<hexfront::game::combat::CurrentWeather>,
                Query<UnitData>,
            )> = SystemState::new(app.world_mut());
            let (map, zoc, sides, turn, index, weather, units) = state.get(app.world_mut()).unwrap();
            build_situation(&order, &map, &zoc.0, &sides, turn.active, &index, weather.0, &units)
                .is_ok_and(|(situation, ..)| hexfront::combat::assess(&map.ruleset.combat, &situation).is_ok())
        };
        if !allowed {
            continue;
        }
        app.world_mut().write_message(order);
        app.update();
        report.combats += drain::<CombatResolved>(app).len();
        finish_after_combat(app, report);
    }
}

/// Answers every retreat and advance the last combat left waiting, as a player at the client.
pub fn finish_after_combat(app: &mut App, report: &mut PhaseReport) {
    for _ in 0..40 {
        app.update();
        let retreat = app.world().resource::<PendingRetreats>().0.first().cloned();
        let advance = app.world().resource::<PendingAdvances>().0.first().cloned();
        let step = app.world().get_resource::<State<CombatStep>>().map(|s| *s.get());
        match (retreat, advance, step) {
            (Some(p), _, Some(CombatStep::Retreat)) => {
                let path = {
                    let mut state: SystemState<(Res<GameMap>, Res<Zoc>, Res<Sides>, Res<MapIndex>, Query<UnitData>)> =
                        SystemState::new(app.world_mut());
                    let (map, zoc, sides, index, units) = state.get(app.world_mut()).unwrap();
                    retreat_options(
                        &map,
                        &zoc.0,
                        &sides,
                        &index,
                        &units,
                        p.unit,
                        p.from,
                        p.demand.cells,
                        &p.opponents,
                    )
                    .ok()
                    .and_then(|(_, o)| o.legal.first().map(|l| l.cells.to_vec()))
                };
                if let Some(path) = path {
                    app.world_mut().write_message(ChooseRetreat { unit: p.unit, path });
                    report.retreats_chosen += 1;
                }
            }
            (_, Some(p), Some(CombatStep::Advance)) => {
                let going: Vec<Entity> = p
                    .attackers
                    .iter()
                    .copied()
                    .filter(|e| app.world().get_entity(*e).is_ok())
                    .take(1)
                    .collect();
                if !going.is_empty() {
                    app.world_mut().write_message(hexfront::game::advance::ChooseAdvance {
                        units: going,
                        to: p.into,
                    });
                    report.advances_chosen += 1;
                }
                app.world_mut().write_message(hexfront::game::advance::EndAdvance);
            }
            (None, None, _) => return,
            _ => {}
        }
    }
    panic!("the combat's retreats and advances never finished");
}

/// Plays every phase of the active side's player turn.
pub fn play_player_turn(app: &mut App) -> Vec<(Phase, PhaseReport)> {
    let start = app.world().resource::<TurnState>().clone();
    let mut out = Vec::new();
    loop {
        let p = phase(app);
        out.push((p, play_phase(app)));
        let now = app.world().resource::<TurnState>().clone();
        if now.active != start.active || now.turn != start.turn || out.len() > 12 {
            return out;
        }
    }
}
