//! The computer player's costs: one side's whole player turn with 100 units on a generated 60×40
//! map; one whole computer-vs-computer game of each shipped scenario; a lab batch on 2 threads
//! (games per second); the expert's look-ahead at the start of a turn.
//! Targets (issue 12): a 100-unit turn ≤ 250 ms; a shipped-scenario game < 0.1 s (release).

use bevy::prelude::*;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use hexfront::ai::{ComputerPlayer, Profile, side_to_act};
use hexfront::game::headless_app;
use hexfront::game::retreat::AfterCombatMode;
use hexfront::lab::{Batch, Seat, play_game, run};
use hexfront::scenario::Scenario;
use std::hint::black_box;

/// Plays the side to play's whole player turn with `profile`; returns the orders given.
fn one_turn(app: &mut App, profile: Profile) -> usize {
    let world = app.world_mut();
    let me = side_to_act(world).expect("a side to play");
    let mut player = ComputerPlayer::new(me, profile, 1);
    let mut given = 0;
    while side_to_act(world) == Some(me) && given < 2000 {
        if player.play(world).is_err() {
            break;
        }
        given += 1;
    }
    assert_eq!(player.refused, 0, "{:?}", player.last_refusal);
    given
}

fn fresh(scenario: &Scenario) -> App {
    let mut app = headless_app(scenario, 1);
    app.world_mut().insert_resource(AfterCombatMode { automatic: false });
    app
}

fn turn(c: &mut Criterion) {
    let scenario = hexfront::scenario::sized_benchmark_scenario(60, 40, 100).expect("the board loads");
    let mut group = c.benchmark_group("computer turn");
    group.sample_size(20);
    group.bench_function("standard, 100 units, 60x40 hexes", |b| {
        b.iter_batched(
            || fresh(&scenario),
            |mut app| black_box(one_turn(&mut app, Profile::standard())),
            BatchSize::LargeInput,
        )
    });
    let smolensk = Scenario::load("scenarios/smolensk-1941.ron").expect("loads");
    group.sample_size(10);
    group.bench_function("expert (look-ahead), Smolensk turn 1", |b| {
        b.iter_batched(
            || fresh(&smolensk),
            |mut app| black_box(one_turn(&mut app, Profile::expert())),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("whole game, standard vs standard");
    group.sample_size(20);
    for path in [
        "scenarios/mortain-1944.ron",
        "scenarios/sidi-bou-zid-1943.ron",
        "scenarios/smolensk-1941.ron",
        "scenarios/chorwon-hypothetical.ron",
        "scenarios/st-vith-1944.ron",
    ] {
        let scenario = Scenario::load(path).expect("loads");
        let seats = [Seat::Computer(Profile::standard()), Seat::Computer(Profile::standard())];
        group.bench_function(scenario.raw.name.clone(), |b| {
            b.iter(|| black_box(play_game(&scenario, 1, 0, &seats).0))
        });
    }
    group.finish();
}

fn lab(c: &mut Criterion) {
    let scenario = Scenario::load("scenarios/smolensk-1941.ron").expect("loads");
    let batch = Batch {
        games: 20,
        seed: 1,
        seats: vec![Seat::Computer(Profile::standard()), Seat::Computer(Profile::standard())],
        mirror: false,
        shard: (0, 1),
        jobs: 2,
        keep_logs: None,
    };
    let mut group = c.benchmark_group("lab");
    group.sample_size(10);
    group.bench_function("20 Smolensk games on 2 threads", |b| {
        b.iter(|| black_box(run(&scenario, &batch, &|_, _| {}).expect("runs")))
    });
    group.finish();
}

criterion_group!(benches, turn, games, lab);
criterion_main!(benches);
