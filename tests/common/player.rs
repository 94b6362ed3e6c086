//! A scripted hotseat player for headless tests: it reads the world as the desktop client does and
//! gives only the players' `Order`s (move, attack and the defender's answer, retreat, advance,
//! end the advance, end the phase). Its plan is simple and deterministic: every stack moves to the
//! reachable cell nearest an enemy, every stack next to (or sharing a cell with) an enemy attacks
//! it, retreats take the first legal path listed, attackers advance when they may.

use super::board::{give, phase};
use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use hexfront::game::combat_phase::{
    CombatResolved, GameView, PendingAdvances, PendingCombat, PendingRetreats, UnitData,
};
use hexfront::game::components::*;
use hexfront::game::movement::{Moved, may_end_in, movers_and_others, search_moves};
use hexfront::game::order::{AttackOrder, DefenseOrder, Order};
use hexfront::game::phase::{Phase, TurnState};
use hexfront::game::retreat::retreat_options;
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

type MoveQuery<'w, 's> = Query<'w, 's, hexfront::game::movement::MoverData>;

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

fn id_of(app: &App, e: Entity) -> String {
    app.world().get::<Unit>(e).map_or_else(String::new, |u| u.id.clone())
}

fn ids_of(app: &App, es: &[Entity]) -> Vec<String> {
    es.iter().map(|e| id_of(app, *e)).collect()
}

/// Gives an order; a refusal goes into the report.
fn order(app: &mut App, report: &mut PhaseReport, o: Order) {
    if let Err(reason) = give(app, o) {
        report.refusals.push(reason);
    }
}

/// Plays the active side's current phase and ends it.
pub fn play_phase(app: &mut App) -> PhaseReport {
    let mut report = PhaseReport::default();
    match phase(app) {
        Phase::Movement | Phase::Exploitation => play_moves(app, &mut report),
        Phase::Combat => play_combats(app, &mut report),
        _ => {}
    }
    order(app, &mut report, Order::EndPhase);
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
            let may_end = |c: Cell| may_end_in(&map, turn.active, &movers, &others, c) == Ok(None);
            for (cell, _) in search.reach.iter().filter(|(c, _)| **c != from && may_end(**c)) {
                let key = (distance(*cell), cell.col, cell.row, *cell);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
            best.filter(|b| b.0 < distance(from)).map(|b| b.3)
        };
        if let Some(to) = target {
            drain::<Moved>(app);
            let units = ids_of(app, &units);
            order(app, report, Order::Move { units, to });
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
        let attack = AttackOrder::plain(ids_of(app, &live), target);
        let allowed = {
            let mut state: SystemState<GameView> = SystemState::new(app.world_mut());
            let view = state.get(app.world()).unwrap();
            view.situation(&attack, None)
                .is_ok_and(|(situation, ..)| hexfront::combat::assess(&view.map.ruleset.combat, &situation).is_ok())
        };
        if !allowed {
            continue;
        }
        drain::<CombatResolved>(app);
        order(app, report, Order::Attack(attack));
        defender_answers(app, report);
        report.combats += drain::<CombatResolved>(app).len();
        finish_after_combat(app, report);
    }
    // War Against Russia: the attacks the must-attack rule owes, as the client's refusal asks.
    for _ in 0..20 {
        let Some(attack) = hexfront::game::must_attack::owed_attack(app.world_mut()) else {
            break;
        };
        drain::<CombatResolved>(app);
        order(app, report, Order::Attack(attack));
        defender_answers(app, report);
        report.combats += drain::<CombatResolved>(app).len();
        finish_after_combat(app, report);
    }
}

/// The defender's answers, as its player at the client gives them: the plain defence before the
/// dice (Rommel: no tactics; War Against Russia: no No Retreat! orders), then the suggested
/// answer to a result that leaves a choice.
fn defender_answers(app: &mut App, report: &mut PhaseReport) {
    if app.world().resource::<PendingCombat>().0.is_some() {
        order(app, report, Order::Defend(DefenseOrder::default()));
    }
    let waiting = app
        .world()
        .resource::<hexfront::game::combat_phase::PendingAnswer>()
        .0
        .clone();
    if let Some(w) = waiting {
        order(app, report, Order::Answer(w.options[w.suggested].choices.clone()));
    }
}

/// Answers every retreat and advance the last combat left waiting, as a player at the client.
pub fn finish_after_combat(app: &mut App, report: &mut PhaseReport) {
    for _ in 0..40 {
        let retreat = app.world().resource::<PendingRetreats>().0.first().cloned();
        let advance = app.world().resource::<PendingAdvances>().0.first().cloned();
        match (retreat, advance) {
            (Some(p), _) => {
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
                let Some(path) = path else {
                    panic!("a retreat waits with no legal path");
                };
                let unit = id_of(app, p.unit);
                order(app, report, Order::Retreat { unit, path });
                report.retreats_chosen += 1;
            }
            (None, Some(p)) => {
                let going: Vec<Entity> = p
                    .attackers
                    .iter()
                    .copied()
                    .filter(|e| app.world().get_entity(*e).is_ok())
                    .take(1)
                    .collect();
                if !going.is_empty() {
                    let units = ids_of(app, &going);
                    order(app, report, Order::Advance { units, to: p.into });
                    report.advances_chosen += 1;
                }
                if !app.world().resource::<PendingAdvances>().0.is_empty() {
                    order(app, report, Order::EndAdvance);
                }
            }
            (None, None) => return,
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
