//! The order log's costs: the state hash of a 1,000-unit game (computed after every order), and
//! replaying a whole 6-turn game of a shipped scenario from its log, headless, checking every
//! entry (what loading a save, undo and `hexfront replay --verify` do).
//! Targets (issue 11): hash ≤ 50 µs for 1,000 units; full replay ≤ 100 ms in release.

use criterion::{Criterion, criterion_group, criterion_main};
use hexfront::game::hash::state_hash;
use hexfront::game::headless_app;
use hexfront::game::save::{load_game, replay_app};
use std::hint::black_box;
use std::path::Path;

fn hash(c: &mut Criterion) {
    let scenario = hexfront::scenario::benchmark_scenario().expect("the benchmark board loads");
    assert_eq!(scenario.units.len(), 1000);
    let mut app = headless_app(&scenario, 1);
    c.bench_function("state hash, 1,000 units", |b| {
        b.iter(|| black_box(state_hash(app.world_mut())))
    });
}

fn replay(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/smolensk-game.ron");
    let game = load_game(&path, 1).expect("the committed game loads");
    let mut group = c.benchmark_group("replay");
    group.sample_size(20);
    group.bench_function(format!("Smolensk, whole game ({} orders)", game.log.len()), |b| {
        b.iter(|| black_box(replay_app(&game, None).expect("replays exactly")))
    });
    group.bench_function("Smolensk, start only (a new headless game, no orders)", |b| {
        b.iter(|| black_box(replay_app(&game, Some(0)).expect("starts")))
    });
    group.finish();
}

criterion_group!(benches, hash, replay);
criterion_main!(benches);
