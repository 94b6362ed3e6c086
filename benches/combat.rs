//! Combat preview speed: the exact `odds` of a 3-vs-3 combat in each system (Small General fights
//! one attacker against a stack of three), against a 10,000-sample Monte Carlo of the same
//! combat through the same resolution. Targets: odds <= 50 µs median, >= 100x the Monte Carlo.

use criterion::{Criterion, criterion_group, criterion_main};
use hexfront::combat::{Dice, Situation, fight, odds};
use hexfront::rules::units::{StepTrack, StepValues, UnitClass};
use hexfront::scenario::CombatCase;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use std::hint::black_box;

fn case(name: &str) -> CombatCase {
    CombatCase::load(format!("{}/tests/cases/{name}.ron", env!("CARGO_MANIFEST_DIR"))).expect("the case loads")
}

/// Rommel's worked example with two more Soviet companies, for three a side.
fn rommel_three_a_side(c: &mut CombatCase) {
    let mut more = c.situation.defenders[0].clone();
    for (id, class, v) in [("gds-14-2", UnitClass::Infantry, 4), ("at-14", UnitClass::AntiTank, 3)] {
        more.id = id.into();
        more.name = id.into();
        more.class = class;
        more.steps = StepTrack {
            values: (1..=v).rev().map(|x| StepValues { attack: x, defense: x }).collect(),
            lost: 0,
            kind: hexfront::rules::units::StepKind::Printed,
        };
        c.situation.defenders.push(more.clone());
    }
}

fn monte_carlo(rules: &hexfront::combat::CombatRules, s: &Situation, samples: u32) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut taken = 0u32;
    for _ in 0..samples {
        let mut dice = Dice::seeded(&mut rng);
        if let Ok((_, o)) = fight(rules, s, &mut dice) {
            taken += u32::from(o.result.cell_taken);
        }
    }
    f64::from(taken) / f64::from(samples)
}

fn bench(c: &mut Criterion) {
    for name in [
        "killing-ground-bocage",
        "rommel-mountain-example",
        "war-against-russia-smolensk",
        "next-war-chorwon",
        "small-general-st-vith",
        "classic-odds-sedan",
        "skirmish-differential-example",
    ] {
        let mut case = case(name);
        if name.starts_with("rommel") {
            rommel_three_a_side(&mut case);
        }
        let rules = &case.ruleset.combat;
        let s = &case.situation;
        let ruleset = &case.ruleset.raw.id;
        odds(rules, s).expect("a legal combat");
        c.bench_function(&format!("odds/{ruleset}"), |b| {
            b.iter(|| odds(rules, black_box(s)).unwrap())
        });
        c.bench_function(&format!("monte_carlo_10k/{ruleset}"), |b| {
            b.iter(|| monte_carlo(rules, black_box(s), 10_000))
        });
    }
}

criterion_group! {
    name = combat;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(combat);
