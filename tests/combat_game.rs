//! Combat in the game, headless: an `Attack` order in the combat phase is refused with the rule it
//! breaks or resolved with the game's seeded RNG exactly as `combat::fight` resolves it, and its
//! result applied to the world: steps, statuses, eliminations, then the retreats and advances.

use bevy::prelude::*;
use hexfront::combat::{self, Choices, Dice};
use hexfront::game::combat_phase::{
    Attacked, CombatResolved, PendingAdvances, PendingAnswer, PendingCombat, PendingRetreats,
};
use hexfront::game::components::*;
use hexfront::game::execute::issue;
use hexfront::game::headless_app;
use hexfront::game::order::{AttackOrder, DefenseOrder, Order};
use hexfront::game::phase::Phase;
use hexfront::game::retreat::Retreated;
use hexfront::rules::grid::parse_label;
use hexfront::scenario::Scenario;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use std::path::Path;

fn fixture() -> Scenario {
    Scenario::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/skirmish.ron")).unwrap()
}

fn unit(app: &mut App, id: &str) -> Option<Entity> {
    let mut q = app.world_mut().query::<(Entity, &Unit)>();
    q.iter(app.world()).find(|(_, u)| u.id == id).map(|(e, _)| e)
}

fn end_phase(app: &mut App) {
    issue(app.world_mut(), Order::EndPhase).unwrap();
}

fn in_combat(seed: u64) -> App {
    let mut app = headless_app(&fixture(), seed);
    end_phase(&mut app);
    end_phase(&mut app);
    assert_eq!(*app.world().resource::<State<Phase>>().get(), Phase::Combat);
    app
}

/// Attacks (in Rommel the defender answers with no tactics) and returns (refusal, resolution).
fn attack(app: &mut App, ids: &[&str], target: &str) -> (Option<String>, Option<CombatResolved>) {
    let attackers = ids.iter().map(|id| id.to_string()).collect();
    app.world_mut().resource_mut::<Messages<CombatResolved>>().clear();
    app.world_mut().resource_mut::<Messages<Retreated>>().clear();
    let order = Order::Attack(AttackOrder::plain(attackers, parse_label(target).unwrap()));
    if let Err(r) = issue(app.world_mut(), order) {
        return (Some(r.reason), None);
    }
    if app.world().resource::<PendingCombat>().0.is_some()
        && let Err(r) = issue(app.world_mut(), Order::Defend(DefenseOrder::default()))
    {
        return (Some(r.reason), None);
    }
    // A result that leaves the defender a choice: it gives the plain answer.
    if app.world().resource::<PendingAnswer>().0.is_some()
        && let Err(r) = issue(app.world_mut(), Order::Answer(Default::default()))
    {
        return (Some(r.reason), None);
    }
    let m = app.world().resource::<Messages<CombatResolved>>();
    (None, m.get_cursor().read(m).last().cloned())
}

/// The retreats carried out since the last attack.
fn retreats_made(app: &App) -> usize {
    let m = app.world().resource::<Messages<Retreated>>();
    m.get_cursor().read(m).count()
}

#[test]
fn attacks_are_refused_with_the_rule_broken() {
    let mut app = headless_app(&fixture(), 1);
    let (refused, _) = attack(&mut app, &["inf"], "0301");
    assert!(
        refused
            .unwrap()
            .contains("attacks are made in a combat phase; this is the Reinforcement phase")
    );
    let mut app = in_combat(1);
    let (refused, _) = attack(&mut app, &["far"], "0301");
    assert!(refused.unwrap().contains("Far away at 0603 is not next to 0301"));
    let (refused, _) = attack(&mut app, &["inf"], "0202");
    assert!(refused.unwrap().contains("no enemy units at 0202"));
    let (refused, _) = attack(&mut app, &["gren"], "0201");
    assert!(
        refused
            .unwrap()
            .contains("Grenadiers belongs to the side not attacking now")
    );
}

#[test]
fn a_combat_in_the_game_is_the_pure_resolution_applied() {
    let mut seen_retreat = false;
    let mut seen_elimination = false;
    for seed in 1..40 {
        let mut app = in_combat(seed);
        let inf = unit(&mut app, "inf").unwrap();
        let before_inf = app.world().get::<Steps>(inf).unwrap().0.remaining();
        let (refused, resolved) = attack(&mut app, &["inf", "tank"], "0301");
        assert_eq!(refused, None);
        let resolved = resolved.expect("the combat is reported");
        // The same situation through the pure function with the same seed gives the same result.
        let scenario = fixture();
        let rules = &scenario.ruleset.combat;
        let s = situation_of(&scenario);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (_, expected) = combat::fight(rules, &s, &mut Dice::seeded(&mut rng)).unwrap();
        assert_eq!(resolved.result, expected.result, "seed {seed}");
        let r = &resolved.result;
        // Steps applied to the world.
        if r.attacker.units[0].eliminated {
            assert!(unit(&mut app, "inf").is_none());
        } else {
            let after = app.world().get::<Steps>(inf).unwrap().0.remaining();
            assert_eq!(
                before_inf - after,
                r.attacker.units[0].steps_lost as usize,
                "seed {seed}"
            );
            assert!(app.world().get::<Attacked>(inf).is_some());
        }
        for (i, id) in ["gren", "pio"].iter().enumerate() {
            let gone = unit(&mut app, id).is_none();
            assert_eq!(gone, r.defender.units[i].eliminated, "seed {seed}: {id}");
            seen_elimination |= gone;
        }
        let index = app.world().resource::<MapIndex>();
        let listed: usize = index.occupied().map(|(_, s)| s.len()).sum();
        let mut q = app.world_mut().query::<&Unit>();
        assert_eq!(
            listed,
            q.iter(app.world()).count(),
            "the map index drops eliminated units"
        );
        // The retreats the result demands are carried out at once (automatic choices).
        let retreating = r.defender.units.iter().filter(|u| u.retreats && !u.eliminated).count()
            + r.attacker.units.iter().filter(|u| u.retreats && !u.eliminated).count();
        assert_eq!(retreats_made(&app), retreating, "seed {seed}");
        seen_retreat |= retreating > 0;
        let log = app.world().resource::<GameLog>();
        assert!(
            log.0.iter().any(|l| l.starts_with("Combat at 0301 (dice ")),
            "{:?}",
            log.0
        );
        assert!(app.world().resource::<PendingRetreats>().0.is_empty());
        assert!(app.world().resource::<PendingAdvances>().0.is_empty());
        for (i, id) in ["gren", "pio"].iter().enumerate() {
            if r.defender.units[i].retreats
                && let Some(e) = unit(&mut app, id)
            {
                assert_ne!(
                    app.world().get::<Position>(e).unwrap().0.to_string(),
                    "0301",
                    "seed {seed}: {id} retreated"
                );
            }
        }
        // A unit attacks once per combat phase.
        if unit(&mut app, "gren").is_some() || unit(&mut app, "pio").is_some() {
            let (refused, _) = attack(&mut app, &["inf"], "0301");
            if app.world().get::<Steps>(inf).is_some() && !r.attacker.units[0].retreats {
                assert!(refused.unwrap().contains("already attacked in this combat phase"));
            }
        }
    }
    assert!(
        seen_retreat && seen_elimination,
        "39 seeds show both a retreat and an elimination"
    );
}

/// The fixture's attack as a pure situation.
fn situation_of(scenario: &Scenario) -> combat::Situation {
    let mut app = in_combat(1);
    let inf = unit(&mut app, "inf").unwrap();
    let tank = unit(&mut app, "tank").unwrap();
    let world = app.world_mut();
    let mut q = world.query::<hexfront::game::combat_phase::UnitData>();
    let rows: Vec<_> = q.iter(world).collect();
    let row = |e: Entity| rows.iter().find(|r| r.entity == e).unwrap();
    let nation = |r: &hexfront::game::combat_phase::UnitRow| scenario.sides[r.side.0].id.clone();
    let attackers = [inf, tank]
        .iter()
        .map(|&e| hexfront::game::combat_phase::combatant(row(e), &nation(row(e)), Default::default()))
        .collect();
    let defenders = rows
        .iter()
        .filter(|r| r.cell() == parse_label("0301").unwrap())
        .map(|r| hexfront::game::combat_phase::combatant(r, &nation(r), Default::default()))
        .collect();
    combat::Situation {
        terrain: scenario.board.terrain(parse_label("0301").unwrap()).unwrap(),
        weather: combat::Weather::Clear,
        attackers,
        defenders,
        attack: Default::default(),
        defense: Default::default(),
        conditions: Default::default(),
        choices: Choices::default(),
    }
}

#[test]
fn rommel_combat_takes_every_unit_in_the_contested_square() {
    let scenario = Scenario::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/contested.ron")).unwrap();
    let mut app = headless_app(&scenario, 3);
    end_phase(&mut app); // Movement -> Combat
    assert_eq!(*app.world().resource::<State<Phase>>().get(), Phase::Combat);
    let (refused, _) = attack(&mut app, &["wait"], "0201");
    assert!(refused.unwrap().contains("is not in the contested square 0201"));
    let (refused, resolved) = attack(&mut app, &["pz"], "0201");
    assert_eq!(refused, None);
    let r = resolved.unwrap().result;
    assert_eq!(r.attacker.units.len(), 2, "both German companies in the square fight");
    assert!(matches!(r.code, combat::ResultCode::Hits { .. }));
    // Whoever fails to hold leaves: the defenders were shattered or retreat, or the attackers retreat.
    let retreated = retreats_made(&app);
    if r.cell_taken {
        assert!(r.defender.units[0].eliminated || retreated == 1);
    } else {
        let alive = r.attacker.units.iter().filter(|u| !u.eliminated).count();
        assert_eq!(retreated, alive, "the attackers retreat");
    }
}

#[test]
fn the_scenario_sets_the_weather_combat_reads() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/skirmish.ron")).unwrap();
    let muddy = text.replace("    turns: 3,", "    turns: 3,\n    weather: Mud,");
    let scenario = Scenario::from_ron_str("muddy.ron", &muddy).unwrap();
    let app = headless_app(&scenario, 1);
    let weather = app.world().resource::<hexfront::game::combat_phase::CurrentWeather>().0;
    assert_eq!(weather, combat::Weather::Mud);
    let app = headless_app(&fixture(), 1);
    assert_eq!(
        app.world().resource::<hexfront::game::combat_phase::CurrentWeather>().0,
        combat::Weather::Clear
    );
    let bad = text.replace("    turns: 3,", "    turns: 3,\n    weather: Drizzle,");
    let e = Scenario::from_ron_str("bad.ron", &bad).unwrap_err().to_string();
    assert!(e.contains("bad.ron:") && e.contains("Drizzle"), "{e}");
}

#[test]
fn the_stacks_that_may_still_attack_are_those_the_rules_allow() {
    use hexfront::game::attack_options::stacks_that_may_attack;
    // Not in a combat phase: nobody may attack.
    let mut app = headless_app(&fixture(), 1);
    assert!(stacks_that_may_attack(app.world_mut()).is_empty());
    // In the combat phase: the stack at 0201 next to the Germans, not "Far away" at 0603.
    let mut app = in_combat(1);
    assert_eq!(
        stacks_that_may_attack(app.world_mut()),
        vec![parse_label("0201").unwrap()]
    );
    // The infantry attacks: the tanks beside it still may.
    let (refused, _) = attack(&mut app, &["inf"], "0301");
    assert_eq!(refused, None);
    let may = stacks_that_may_attack(app.world_mut());
    if unit(&mut app, "gren").is_some() || unit(&mut app, "pio").is_some() {
        let tank_at = unit(&mut app, "tank").map(|e| app.world().get::<Position>(e).unwrap().0);
        let enemy_next = tank_at.is_some_and(|c| {
            let mut q = app.world_mut().query::<(&Side, &Position)>();
            let german = Side(1);
            q.iter(app.world())
                .any(|(s, p)| *s == german && fixture().board.grid.distance(p.0, c) == 1)
        });
        assert_eq!(may.is_empty(), !enemy_next, "{may:?}");
    }
    // Both attacked (or the enemy is gone): no ring is left.
    let _ = attack(&mut app, &["tank"], "0301");
    assert!(stacks_that_may_attack(app.world_mut()).is_empty());
}
