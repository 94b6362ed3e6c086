//! The attack plan's tests: the order the attack window gives in every ruleset, and Rommel's
//! barrage offered to each side.

use super::*;
use crate::game::execute::issue;
use bevy::ecs::system::SystemState;

fn barrage_game() -> App {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/barrage.ron");
    let scenario = crate::scenario::Scenario::load(std::path::Path::new(path)).unwrap();
    let mut app = crate::game::headless_app(&scenario, 3);
    issue(app.world_mut(), Order::EndPhase).unwrap();
    assert_eq!(*app.world().resource::<State<Phase>>().get(), Phase::Combat);
    app
}

fn ids(world: &mut World) -> impl Fn(Entity) -> Option<String> + use<> {
    let mut q = world.query::<(Entity, &crate::game::components::Unit)>();
    let all: Vec<(Entity, String)> = q.iter(world).map(|(e, u)| (e, u.id.clone())).collect();
    move |e| all.iter().find(|(x, _)| *x == e).map(|(_, id)| id.clone())
}

/// The batteries the screen offers now, as `update_preview` works them out.
fn offer(world: &mut World, plan: &mut AttackPlan) {
    let mut state = SystemState::<(GameView, Res<PendingCombat>)>::new(world);
    let (view, pending) = state.get(world).unwrap();
    offer_batteries(plan, &pending.0, &view);
}

/// Rommel from the board: the attacker is offered its own guns in range (not the enemy's),
/// the order carries the ones ticked with the tactic; once declared the defender is offered
/// its own, its answer carries them, both barrages count in the odds, and the combat is fought.
#[test]
fn rommel_barrages_are_offered_to_each_side_and_carried_by_its_order() {
    let mut app = barrage_game();
    let w = app.world_mut();
    let (wespe, how) = ("wespe".to_string(), "how".to_string());
    let target = crate::rules::grid::parse_label("0301").unwrap();
    let mut plan = AttackPlan {
        target: Some(target),
        attackers: vec!["pz".into(), "pzg".into()],
        attack_tactic: Some(Tactic::ATTACK[0].clone()),
        ..Default::default()
    };
    offer(w, &mut plan);
    assert_eq!(plan.batteries, vec![(wespe.clone(), "Wespe bty".to_string())]);
    plan.barrage.push(wespe);
    let order = plan.order().unwrap();
    assert_eq!(
        (order.attackers.as_slice(), order.target),
        (&["pz".to_string(), "pzg".to_string()][..], target)
    );
    assert_eq!(
        (order.taken().barrage(), order.taken().tactics()),
        (&["wespe".to_string()][..], &Tactic::ATTACK[..1])
    );
    issue(w, Order::Attack(order)).unwrap();
    let declared = w
        .resource::<PendingCombat>()
        .0
        .clone()
        .expect("declared, waiting for the defender");

    offer(w, &mut plan);
    assert_eq!(plan.batteries, vec![(how.clone(), "105 mm howitzer bty".to_string())]);
    assert!(
        plan.barrage.is_empty(),
        "the attacker's call is not offered to the defender"
    );
    plan.defense_barrage.push(how);
    let defense = plan.defense();
    assert_eq!(defense.barrage, ["how"]);
    let mut state = SystemState::<GameView>::new(w);
    let seen = declared.as_seen_by(declared.defender);
    let (_, odds) = odds_for(
        &state.get(w).unwrap(),
        &seen,
        Some(&defense),
        (None, Default::default()),
    )
    .unwrap();
    let modifiers = format!("{:?}", odds.assessment.modifiers);
    assert!(
        modifiers.contains("Wespe bty") && modifiers.contains("105 mm howitzer bty"),
        "{modifiers}"
    );
    issue(w, Order::Defend(defense)).unwrap();
    assert!(w.resource::<PendingCombat>().0.is_none(), "fought");
}

/// A shipped scenario played by random legal orders until the side to act has a legal
/// attack by `units` units in a combat phase: the game, the attackers and their target.
fn an_attack_in(file: &str, units: usize) -> (App, Vec<Entity>, crate::rules::grid::Cell) {
    let path = format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let scenario = crate::scenario::Scenario::load(std::path::Path::new(&path)).unwrap();
    (1..=20)
        .find_map(|seed| attack_by_random_play(&scenario, seed, units))
        .unwrap_or_else(|| panic!("{file}: no attack by {units} units in 20 random games"))
}

fn attack_by_random_play(
    scenario: &crate::scenario::Scenario,
    seed: u64,
    units: usize,
) -> Option<(App, Vec<Entity>, crate::rules::grid::Cell)> {
    use rand::SeedableRng;
    let mut app = crate::game::headless_app(scenario, seed);
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..3000 {
        let w = app.world_mut();
        let idle = w.resource::<PendingCombat>().0.is_none()
            && w.resource::<crate::game::combat_phase::PendingAnswer>().0.is_none();
        let phase = w.get_resource::<State<Phase>>().map(|s| *s.get())?;
        if idle && phase == Phase::Combat {
            let id = ids(w);
            let mut state = SystemState::<GameView>::new(w);
            let view = state.get(w).unwrap();
            let legal = crate::game::attack_options::adjacent_attacks(w)
                .into_iter()
                .find(|(attackers, target)| {
                    let plain = AttackOrder::plain(attackers.iter().filter_map(|e| id(*e)).collect(), *target);
                    attackers.len() == units && view.situation(&plain, None).is_ok()
                });
            if let Some((attackers, target)) = legal {
                return Some((app, attackers, target));
            }
        }
        let order = crate::ai::random::random_order(app.world_mut(), &mut rng)?;
        crate::game::execute::execute(app.world_mut(), order).unwrap();
    }
    None
}

/// `AttackPlan::order` in every ruleset: each option the attack window sets reaches the order
/// as the rules name it, and the game carries the order out.
#[test]
fn the_attack_plan_gives_the_order_the_window_shows_in_every_ruleset() {
    let mut checked = Vec::new();
    // Two attackers where the rules allow them (the owner then orders its losses); Small
    // General attacks with one unit at a time.
    for (file, units) in [
        ("mortain-1944.ron", 2),
        ("smolensk-1941.ron", 2),
        ("sidi-bou-zid-1943.ron", 2),
        ("chorwon-hypothetical.ron", 2),
        ("st-vith-1944.ron", 1),
        ("sedan-1940.ron", 2),
    ] {
        let (mut app, attackers, target) = an_attack_in(file, units);
        let w = app.world_mut();
        let id = ids(w);
        let mut plan = AttackPlan {
            target: Some(target),
            attackers: attackers.iter().filter_map(|e| id(*e)).collect(),
            ..Default::default()
        };
        let rules = w.resource::<crate::game::components::GameMap>().ruleset.combat.clone();
        let german =
            w.resource::<crate::game::components::Sides>().0[w.resource::<crate::game::phase::TurnState>().active.0].id
                == "german";
        {
            let mut state = SystemState::<(GameView, Res<PendingCombat>)>::new(w);
            let (view, pending) = state.get(w).unwrap();
            plan.effort_by = effort_by(&attackers, &view);
            offer_batteries(&mut plan, &pending.0, &view);
        }
        for option in rules.system().attacker_options() {
            match option {
                combat::AttackerOption::RetreatAsSteps => plan.attacker_retreat = combat::RetreatOrSteps::Steps,
                combat::AttackerOption::AcceleratedEffort => {
                    plan.accelerated_effort = matches!(plan.effort_by, Some(Ok(_)))
                }
                combat::AttackerOption::Exchange { .. } => plan.german_exchange = german,
                combat::AttackerOption::Tactics(t) => plan.attack_tactic = Some(t[1].clone()),
                combat::AttackerOption::Barrage => {
                    plan.barrage = plan.batteries.iter().map(|(b, _)| b.clone()).collect()
                }
                combat::AttackerOption::Flanking => {}
            }
        }
        if rules.system().losses_first_help().is_some() {
            plan.attacker_losses_first = attackers.last().and_then(|e| id(*e));
        }
        let order = plan.order().unwrap();
        let names: Vec<String> = attackers.iter().filter_map(|e| id(*e)).collect();
        assert_eq!((&order.attackers, order.target), (&names, target), "{file}");
        let taken = order.taken();
        assert_eq!(taken.retreat(), plan.attacker_retreat, "{file}");
        assert_eq!(taken.attacker_choices().german_exchange, plan.german_exchange, "{file}");
        assert_eq!(
            taken.tactics(),
            plan.attack_tactic.iter().cloned().collect::<Vec<_>>(),
            "{file}"
        );
        assert_eq!(taken.barrage().len(), plan.barrage.len(), "{file}");
        assert_eq!(
            taken.losses_first(),
            plan.attacker_losses_first.iter().cloned().collect::<Vec<_>>()
        );
        let effort = match &plan.effort_by {
            Some(Ok((by, _))) if plan.accelerated_effort => Some(by.clone()),
            _ => None,
        };
        assert_eq!(taken.accelerated_effort(), effort.as_ref(), "{file}");
        // Every option the order takes is one its system offers.
        order
            .check_options(rules.system())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        println!("{file}: {order:?}");
        issue(w, Order::Attack(order)).unwrap_or_else(|e| panic!("{file}: {e}"));
        checked.push(file);
    }
    assert_eq!(
        checked.len(),
        crate::scenario::ruleset::BUILTIN.len(),
        "one scenario per ruleset"
    );
}
