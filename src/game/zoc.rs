//! The zone-of-control map as a resource, rebuilt whenever a unit moves, is hit, changes status
//! or leaves the map, so movement, retreats, the AI and the GUI read one up-to-date answer.

use super::GameSystems;
use super::components::{GameMap, Position, Side, StackingPoints, Statuses, Steps};
use super::phase::{GameState, TurnState};
use crate::rules::zoc::{ZocMap, ZocRules, ZocUnit};
use bevy::prelude::*;

/// Zones of control of every side, by cell.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Zoc(pub ZocMap);

pub(super) fn plugin(app: &mut App) {
    // The order step refreshes it after every change (`settle::settle`); this keeps it current
    // for whatever else changes units.
    app.add_systems(
        Update,
        refresh_zoc
            .in_set(GameSystems::Zones)
            .run_if(in_state(GameState::Playing)),
    );
}

/// A unit as the ZOC rules see it.
pub fn zoc_unit(rules: &ZocRules, side: Side, points: &StackingPoints, steps: &Steps, statuses: &Statuses) -> ZocUnit {
    ZocUnit {
        side: side.0 as u8,
        stacking_points: points.0,
        attack: steps.values().attack,
        suppressed: rules.none_with.iter().any(|s| statuses.has(*s)),
    }
}

/// Builds the ZOC map of a world's units (for tools and tests; the game keeps `Zoc` current).
pub fn build_zoc(map: &GameMap, units: impl IntoIterator<Item = (Position, ZocUnit)>) -> ZocMap {
    ZocMap::build(&map.board, &map.ruleset.zoc, units.into_iter().map(|(p, u)| (p.0, u)))
}

type ZocData = (
    &'static Side,
    &'static Position,
    &'static StackingPoints,
    &'static Steps,
    &'static Statuses,
);

/// Rebuilds `Zoc` when anything it depends on changed (a whole rebuild of a 200×200 map with
/// 2,000 units stays well under a millisecond: see `benches/after_combat.rs`).
/// Next War's first turn keeps projections out of cells that started under enemy control.
pub(super) fn refresh_zoc(
    map: Res<GameMap>,
    turn: Res<TurnState>,
    mut zoc: ResMut<Zoc>,
    changed: Query<(), Or<(Changed<Position>, Changed<Steps>, Changed<Statuses>)>>,
    mut removed: RemovedComponents<Position>,
    units: Query<ZocData>,
) {
    let gone = removed.read().count() > 0;
    let exception_ends = turn.is_changed() && !map.start_bars.is_empty();
    if !zoc.is_added() && !map.is_changed() && changed.is_empty() && !gone && !exception_ends {
        return;
    }
    let rules = &map.ruleset.zoc;
    let mut fresh = ZocMap::build(
        &map.board,
        rules,
        units
            .iter()
            .map(|(side, pos, points, steps, statuses)| (pos.0, zoc_unit(rules, *side, points, steps, statuses))),
    );
    if first_turn_zoc_exception(&map, &turn) {
        fresh.bar_projections(&map.board, rules, &map.start_bars);
    }
    zoc.0 = fresh;
}

/// Whether the first-turn ZOC exception holds now: turn 1, until the first side's first
/// movement phase is over (Next War: zones of control do not reach cells that started on the
/// enemy's side).
pub fn first_turn_zoc_exception(map: &GameMap, turn: &TurnState) -> bool {
    let first_move = map
        .ruleset
        .raw
        .player_turn
        .iter()
        .position(|p| *p == crate::scenario::ruleset::PhaseKind::Movement);
    !map.start_bars.is_empty()
        && turn.turn == 1
        && turn.active == turn.first_side
        && first_move.is_some_and(|m| turn.phase_index <= m)
}
