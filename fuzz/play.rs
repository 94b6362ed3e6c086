//! Shared by the fuzz targets: play random legal orders in a scenario (a legal order must never
//! be refused), and fight a combat case (odds that sum to one, a resolution that does not panic).

use hexfront::ai::random::random_order;
use hexfront::combat::{Dice, odds, resolve};
use hexfront::game::execute::execute;
use hexfront::scenario::{CombatCase, Scenario};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

#[allow(dead_code)]
pub fn play(scenario: &Scenario, seed: u64, orders: usize) {
    let mut app = hexfront::game::headless_app(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..orders {
        let Some(order) = random_order(app.world_mut(), &mut rng) else {
            break;
        };
        if let Err(e) = execute(app.world_mut(), order) {
            panic!("a legal order was refused: {e}");
        }
    }
}

#[allow(dead_code)]
pub fn fight(case: &CombatCase, seed: u64) {
    let (rules, s) = (&case.ruleset.combat, &case.situation);
    let Ok(odds) = odds(rules, s) else { return };
    let total: f64 = odds.outcomes.iter().map(|o| o.probability).sum();
    assert!((total - 1.0).abs() < 1e-6, "the outcomes' probabilities sum to {total}");
    for p in [
        odds.summary.p_attacker_eliminated,
        odds.summary.p_defender_eliminated,
        odds.summary.p_cell_taken,
    ] {
        assert!((0.0..=1.0 + 1e-9).contains(&p), "a probability of {p}");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dice = Dice::seeded(&mut rng);
    let _ = resolve(rules, s, &odds.assessment, &s.choices, &mut dice);
}
