//! Shared by the fuzz targets: play random legal orders in a scenario (a legal order must never
//! be refused), and fight a combat case (odds that sum to one, a resolution that rolls its dice and
//! takes no side more steps than it has). Each says how much it did, so the proptests that call
//! them count what they checked.

use hexfront::ai::random::random_order;
use hexfront::combat::{Dice, odds, resolve};
use hexfront::game::execute::execute;
use hexfront::scenario::{CombatCase, Scenario};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

/// Plays up to `orders` random legal orders; returns how many were carried out.
#[allow(dead_code)]
pub fn play(scenario: &Scenario, seed: u64, orders: usize) -> usize {
    let mut app = hexfront::game::headless_app(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut carried_out = 0;
    for _ in 0..orders {
        let Some(order) = random_order(app.world_mut(), &mut rng) else {
            break;
        };
        if let Err(e) = execute(app.world_mut(), order) {
            panic!("a legal order was refused: {e}");
        }
        carried_out += 1;
    }
    carried_out
}

/// Fights the case; `false` when the rules refuse the combat itself (no odds to give).
#[allow(dead_code)]
pub fn fight(case: &CombatCase, seed: u64) -> bool {
    let (rules, s) = (&case.ruleset.combat, &case.situation);
    let Ok(odds) = odds(rules, s) else { return false };
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
    let (result, _) = resolve(rules, s, &odds.assessment, &s.choices, &mut dice)
        .unwrap_or_else(|e| panic!("seeded dice ran out: {e:?}"));
    for (units, side) in [(&s.attackers, &result.attacker), (&s.defenders, &result.defender)] {
        assert_eq!(units.len(), side.units.len(), "a result for every unit");
        let mut total = 0;
        for (unit, r) in units.iter().zip(&side.units) {
            let has = unit.steps.remaining() as u32;
            assert!(
                r.steps_lost <= has,
                "{} lost {} of its {has} steps",
                unit.id,
                r.steps_lost
            );
            total += r.steps_lost;
        }
        assert_eq!(total, side.steps_lost, "the side's losses are its units' losses");
    }
    true
}
