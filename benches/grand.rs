//! The grand scenario (`scenarios/barbarossa-centre-1941.ron`, real board-game size) headless:
//! loading and starting it, and what one move costs the client — the order carried out with its
//! zone-of-control refresh and state hash, then the moved stack's reach highlight searched again.
//! Target (issue 15): a move with its refresh and highlight ≤ 5 ms.

use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hexfront::game::components::{GameMap, Position, Side, Unit};
use hexfront::game::execute::issue;
use hexfront::game::headless_app;
use hexfront::game::movement::{MoverData, movers_and_others, search_moves};
use hexfront::game::order::Order;
use hexfront::game::phase::{Phase, TurnState, current_phase};
use hexfront::game::zoc::Zoc;
use hexfront::rules::grid::Cell;
use hexfront::scenario::Scenario;
use std::hint::black_box;
use std::path::Path;

fn grand() -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/barbarossa-centre-1941.ron");
    Scenario::load(&path).expect("the grand scenario loads")
}

/// A headless game of the grand scenario at the first side's movement phase.
fn at_movement(scenario: &Scenario) -> App {
    let mut app = headless_app(scenario, 1);
    for _ in 0..8 {
        let phase = {
            let world = app.world();
            current_phase(world.resource::<TurnState>(), world.resource::<GameMap>())
        };
        if phase == Phase::Movement {
            return app;
        }
        issue(app.world_mut(), Order::EndPhase).expect("the phase ends");
        app.update();
    }
    panic!("no movement phase in the first player turn");
}

/// The reach of the units in `cell`, as the client searches it for the selection.
fn reach(world: &mut World, cell: Cell) -> usize {
    let mut state: SystemState<(
        Res<GameMap>,
        Res<Zoc>,
        Res<TurnState>,
        Query<MoverData>,
        Query<(Entity, &Position, &Side)>,
    )> = SystemState::new(world);
    let (map, zoc, turn, movers, positions) = state.get(world).expect("the game resources");
    let stack: Vec<Entity> = positions
        .iter()
        .filter(|(_, p, s)| p.0 == cell && **s == turn.active)
        .map(|(e, _, _)| e)
        .collect();
    let phase = current_phase(&turn, &map);
    movers_and_others(&stack, &movers)
        .and_then(|(m, o)| search_moves(&map, &zoc.0, phase, turn.active, &m, &o))
        .map_or(0, |s| s.reach.len())
}

/// A unit of the side to move with somewhere to go, and the farthest cell of its reach.
fn a_move(world: &mut World) -> (String, Cell, Cell) {
    let active = world.resource::<TurnState>().active;
    let units: Vec<(Entity, String, Cell)> = world
        .query::<(Entity, &Unit, &Position, &Side)>()
        .iter(world)
        .filter(|(_, _, _, s)| **s == active)
        .map(|(e, u, p, _)| (e, u.id.clone(), p.0))
        .collect();
    for (e, id, from) in units {
        let mut state: SystemState<(Res<GameMap>, Res<Zoc>, Res<TurnState>, Query<MoverData>)> =
            SystemState::new(world);
        let (map, zoc, turn, movers) = state.get(world).expect("the game resources");
        let phase = current_phase(&turn, &map);
        let Ok(search) =
            movers_and_others(&[e], &movers).and_then(|(m, o)| search_moves(&map, &zoc.0, phase, turn.active, &m, &o))
        else {
            continue;
        };
        if let Some(to) = search
            .reach
            .keys()
            .copied()
            .filter(|c| *c != from)
            .max_by_key(|c| (map.board.grid.distance(from, *c), c.col, c.row))
        {
            return (id, from, to);
        }
    }
    panic!("no unit of the side to move can move");
}

fn bench(c: &mut Criterion) {
    let scenario = grand();
    let (cells, units) = (
        scenario.board.grid.width * scenario.board.grid.height,
        scenario.raw.units.len(),
    );
    let mut group = c.benchmark_group("grand");
    group.sample_size(30);
    group.bench_function(format!("start a headless game ({cells} cells, {units} units)"), |b| {
        b.iter(|| black_box(headless_app(&scenario, 1)))
    });
    let mut probe = at_movement(&scenario);
    let (id, from, to) = a_move(probe.world_mut());
    let reached = reach(probe.world_mut(), from);
    group.bench_function(
        format!("a move ({from}→{to}), its zone-of-control refresh and the reach highlight ({reached} cells)"),
        |b| {
            b.iter_batched(
                || at_movement(&scenario),
                |mut app| {
                    let order = Order::Move {
                        units: vec![id.clone()],
                        to,
                    };
                    issue(app.world_mut(), order).expect("the move is legal");
                    black_box(reach(app.world_mut(), to));
                    app
                },
                BatchSize::PerIteration,
            )
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
