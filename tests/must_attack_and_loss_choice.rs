//! War Against Russia's must-attack rule, and the owner's choice of who takes losses, driven
//! through the headless game with the players' own orders.

mod common;

use bevy::ecs::system::SystemState;
use common::UnitExt;
use common::board::*;
use hexfront::game::order::{AttackOrder, Order};
use hexfront::game::phase::Phase;
use hexfront::game::view::GameView;
use hexfront::rules::units::UnitClass;
use hexfront::scenario::Scenario;

/// Soviets (moving first) and Germans on open ground; `units` as `unit(...)` lines.
fn eastern_front(units: &[String]) -> Scenario {
    let text = format!(
        r##"Scenario(
    name: "Must attack", setting: "Test fixture", description: "Inline test fixture.", ruleset: "war-against-russia",
    map: (grid: Hex(top: Flat), width: 6, height: 4, legend: {{'.': "clear"}}, rows: ["......", "......", "......", "......"]),
    sides: [
        (id: "soviet", name: "Soviet", color: "#a5533c", home_edge: East),
        (id: "german", name: "German", color: "#6a7a88", home_edge: West),
    ],
    first_side: "soviet", turns: 3, victory: "None.",
    units: [{}],
)"##,
        units.join("\n")
    );
    Scenario::from_ron_str("must-attack.ron", &text).unwrap_or_else(|e| panic!("{e}"))
}

fn corps(id: &str, side: &str, cell: &str, status: &str) -> String {
    unit(id, side, "Infantry", "Corps", cell, &format!("strength: 4{status}"))
}

/// s1 at 0201 has attacked g1 at 0301 (4 vs 4 = 1:1; a 3 there is no effect); g2 at 0202 (with
/// `g2`'s strength and status) stands next to s1 too; `more` units join them.
fn after_the_first_attack(g2: &str, more: &[String]) -> bevy::prelude::App {
    let mut units = vec![
        corps("s1", "soviet", "0201", ""),
        corps("g1", "german", "0301", ""),
        unit("g2", "german", "Infantry", "Corps", "0202", g2),
    ];
    units.extend(more.iter().cloned());
    let mut app = start(&eastern_front(&units));
    to_phase(&mut app, Phase::Combat);
    attack(&mut app, &["s1"], "0301", &[3]).unwrap();
    app
}

/// s2 at 0203, next to g2 at 0202 (and not to g1).
fn s2() -> Vec<String> {
    vec![corps("s2", "soviet", "0203", "")]
}

#[test]
fn germans_next_to_a_soviet_attacker_must_be_attacked_while_someone_can() {
    let mut app = after_the_first_attack("strength: 4", &s2());
    let refused = give(&mut app, Order::EndPhase).unwrap_err();
    assert!(
        refused.starts_with(
            "must-attack rule: g2 at 0202 must be attacked this phase, being next to a unit that attacked (1 of your units can still attack there)"
        ),
        "{refused}"
    );
    assert_eq!(phase(&app), Phase::Combat);
    attack(&mut app, &["s2"], "0202", &[3]).unwrap();
    give(&mut app, Order::EndPhase).expect("every owed attack is made");
}

#[test]
fn the_obligation_lapses_when_nobody_is_left_to_attack_and_the_log_says_so() {
    let mut app = after_the_first_attack("strength: 4", &[]);
    give(&mut app, Order::EndPhase).expect("no Soviet unit is left to attack g2");
    let said = log(&app).join("\n");
    assert!(
        said.contains(
            "Must-attack rule: German units at 0202 were not attacked, but no unit was left able to attack them."
        ),
        "{said}"
    );
}

#[test]
fn dispersed_germans_and_german_attacks_oblige_nobody() {
    let mut app = after_the_first_attack("strength: 4, status: [Dispersed]", &s2());
    give(&mut app, Order::EndPhase).expect("a dispersed German need not be attacked");
    // The Germans' own combat phase: attacking obliges them to nothing.
    to_phase(&mut app, Phase::Combat);
    assert_eq!(app.world().resource::<hexfront::game::phase::TurnState>().active.0, 1);
    attack(&mut app, &["g1"], "0201", &[3]).unwrap();
    give(&mut app, Order::EndPhase).expect("Germans are never obliged");
}

#[test]
fn the_computer_makes_the_owed_attack_before_ending_the_phase() {
    use hexfront::ai::{ComputerPlayer, Profile};
    // g2 is strong (16): at 1:4 the computer would never choose to attack it, but it must. s3 at
    // 0102, next to g2 too, is dispersed and may not attack: the owed attack is s2's alone.
    let mut more = s2();
    more.push(corps("s3", "soviet", "0102", ", status: [Dispersed]"));
    let mut app = after_the_first_attack("strength: 16", &more);
    let mut player = ComputerPlayer::new(0, Profile::standard(), 1);
    let order = player.next_order(app.world_mut()).expect("the Soviet computer acts");
    let Order::Attack(attack) = order else {
        panic!("expected the owed attack, got {order:?}")
    };
    assert_eq!(attack.target, cell("0202"));
    assert_eq!(attack.attackers, ids(&["s2"]));
    give(&mut app, Order::Attack(attack)).expect("the owed attack is legal");
    // The German defender decides on No Retreat! before the die, and answers the result: the
    // computer, attacking, waits for both.
    if app
        .world()
        .resource::<hexfront::game::combat_phase::PendingCombat>()
        .0
        .is_some()
    {
        assert_eq!(player.next_order(app.world_mut()), None);
        give(&mut app, Order::Defend(Default::default())).unwrap();
    }
    if app
        .world()
        .resource::<hexfront::game::combat_phase::PendingAnswer>()
        .0
        .is_some()
    {
        assert_eq!(player.next_order(app.world_mut()), None);
        give(&mut app, Order::Answer(Default::default())).unwrap();
    }
    // Nothing is owed any more: the computer ends the phase.
    assert_eq!(player.next_order(app.world_mut()), Some(Order::EndPhase));
}

#[test]
fn the_owner_names_who_takes_losses_first_where_the_rules_leave_the_choice() {
    let rs = common::ruleset("next-war");
    let flat = rs.terrain_ids["flat"];
    let two = |id: &str, v: u32, er: u32| {
        let mut u = common::track(id, UnitClass::Infantry, &[v, v / 2]).er(er);
        u.size = hexfront::rules::units::UnitSize::Brigade;
        u
    };
    // As in next_war_lead_unit_first_then_full_strength_units: -/4R takes the lead's step, b's
    // and d's (still at two steps), then the owner's pick among the one-step units.
    let defenders = || {
        vec![
            two("lead", 4, 4),
            two("b", 2, 3),
            two("c", 2, 3).lost(1),
            two("d", 2, 3),
        ]
    };
    let mut s = common::situation(flat, vec![two("a", 36, 4)], defenders());
    s.defense.lead = Some("lead".into());
    let lost = |s: &hexfront::combat::Situation| {
        let (r, _, _) = common::resolve_with(&rs.combat, s, &[9]);
        r.defender.units.iter().map(|u| u.steps_lost).collect::<Vec<_>>()
    };
    assert_eq!(lost(&s), [1, 2, 0, 1], "automatic: the cheapest, b first");
    s.defenders[2].loss_rank = 1;
    assert_eq!(lost(&s), [1, 1, 1, 1], "the owner names c: c dies instead of b");
    // The rules' own picks come first: naming c never spares the lead.
    s.defenders[2].loss_rank = 0;
    s.defenders[3].loss_rank = 1;
    assert_eq!(lost(&s), [1, 1, 0, 2]);
}

#[test]
fn the_attack_carries_the_attackers_loss_choice_and_the_answer_the_defenders() {
    let s = fixture(
        "next-war",
        "Hex(top: Flat)",
        "'.': \"flat\"",
        &["......"],
        "",
        &[
            unit("a1", "blue", "Infantry", "Brigade", "0201", "strength: 3, er: 3"),
            unit("a2", "blue", "Infantry", "Brigade", "0201", "strength: 3, er: 3"),
            unit("d1", "red", "Infantry", "Brigade", "0301", "strength: 1, er: 3"),
            unit("d2", "red", "Infantry", "Brigade", "0301", "strength: 1, er: 3"),
        ],
    );
    let mut app = start(&s);
    to_phase(&mut app, Phase::Combat);
    let mut order = AttackOrder::plain(ids(&["a1", "a2"]), cell("0301"));
    order.take(hexfront::combat::OptionTaken::LossesFirst(ids(&["a2"])));
    let mut state: SystemState<GameView> = SystemState::new(app.world_mut());
    let view = state.get(app.world()).unwrap();
    let (situation, _, _) = view.situation(&order, None).unwrap();
    let ranks = |v: &[hexfront::combat::Combatant]| v.iter().map(|u| u.loss_rank).collect::<Vec<_>>();
    assert_eq!(ranks(&situation.attackers), [0, 1]);
    // The attack does not name the defender's: its answer to the result does.
    assert_eq!(ranks(&situation.defenders), [0, 0]);
    let answer = hexfront::combat::DefenderChoices {
        losses_first: ids(&["d2", "d1"]),
        ..Default::default()
    };
    let answered = hexfront::combat::answers::with_answer(&situation, &answer);
    assert_eq!(ranks(&answered.defenders), [2, 1]);
    assert_eq!(answered.choices.defender_losses_first, ids(&["d2", "d1"]));
}
