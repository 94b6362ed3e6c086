//! The defender's choices are the defender's: in every ruleset that gives the defender a choice,
//! a computer's attack on a person's units waits for that person's answer (before the dice or
//! to the result), a standing answer answers without asking as the defender's own order, the
//! answer is in the log and replays, a second-format save migrates with its dice and hashes,
//! and the preview lists the defender's answers with probabilities that sum to 1.

mod common;

use bevy::prelude::*;
use hexfront::ai::{ComputerPlayer, Profile, side_to_act};
use hexfront::combat::CombatRules;
use hexfront::combat::odds::Fraction;
use hexfront::game::combat_phase::{PendingAnswer, PendingCombat};
use hexfront::game::components::Sides;
use hexfront::game::execute::execute;
use hexfront::game::headless_app;
use hexfront::game::log::OrderLog;
use hexfront::game::order::{IssuedOrder, Order};
use hexfront::game::save::{load_game, load_game_str, saved_game, to_text};
use hexfront::game::standing::{StandingAnswer, StandingAnswers, standing_order};
use hexfront::scenario::{CombatCase, Scenario};

/// What a game turned up: questions put to the person's side, by kind.
#[derive(Default, Debug)]
struct Asked {
    before_dice: usize,
    to_result: usize,
    /// Orders the attacker's computer gave while a question waited (must stay 0).
    attacker_orders_while_waiting: usize,
}

/// Plays `path` with the computer on both sides, side `person` standing for a person: its own
/// turns are played by a computer player as a person would give orders, but every question the
/// rules put to it as defender is answered by the test (the suggestion, or `answer`), after
/// checking that the game waits for it. Stops after `orders` orders or once `enough` says so.
fn play(path: &str, seed: u64, person: usize, orders: usize, enough: &dyn Fn(&Asked) -> bool) -> (Asked, App) {
    let scenario = Scenario::load(path).unwrap();
    let mut app = headless_app(&scenario, seed);
    let mut players = [
        ComputerPlayer::new(0, Profile::novice(), seed),
        ComputerPlayer::new(1, Profile::novice(), seed + 1),
    ];
    let mut asked = Asked::default();
    for _ in 0..orders {
        let world = app.world_mut();
        let Some(side) = side_to_act(world) else { break };
        let declared = world.resource::<PendingCombat>().0.clone();
        let waiting = world.resource::<PendingAnswer>().0.clone();
        let question = declared
            .as_ref()
            .map(|d| d.defender.0)
            .or(waiting.as_ref().map(|w| w.defender.0));
        if question == Some(person) && side == person {
            // The attacker's computer has nothing to give while the defender is asked.
            if players[1 - person].next_order(world).is_some() {
                asked.attacker_orders_while_waiting += 1;
            }
            let id = world.resource::<Sides>().0[person].id.clone();
            let order = if let Some(w) = &waiting {
                asked.to_result += 1;
                assert!(w.options.len() >= 2, "{path}: asked with one answer only");
                Order::Answer(w.options[w.suggested].choices.clone())
            } else {
                asked.before_dice += 1;
                Order::Defend(hexfront::game::standing::suggested_defense(world))
            };
            execute(world, IssuedOrder::new(id.clone(), order.clone())).unwrap_or_else(|r| panic!("{path}: {r}"));
            let last = world.resource::<OrderLog>().entries.last().unwrap().clone();
            assert_eq!(last.side, id, "{path}: the answer is logged as the defender's");
            assert_eq!(last.order, order);
            if enough(&asked) {
                break;
            }
            continue;
        }
        players[side]
            .play(world)
            .unwrap_or_else(|e| panic!("{path} seed {seed}: {e:?}"));
    }
    (asked, app)
}

#[test]
fn a_computer_attack_on_a_person_waits_for_the_persons_answer_in_every_ruleset() {
    // (scenario, the person's side, the kinds of question its rules put to a defender)
    let games = [
        ("scenarios/mortain-1944.ron", 1, false, true),
        ("scenarios/sidi-bou-zid-1943.ron", 1, true, true),
        ("scenarios/smolensk-1941.ron", 1, true, true),
        ("scenarios/chorwon-hypothetical.ron", 1, false, true),
    ];
    let mut questions = 0;
    for (path, person, before, after) in games {
        let mut found = Asked::default();
        for seed in 1..=6 {
            let (asked, _) = play(path, seed, person, 1500, &|a| {
                (!before || a.before_dice > 0) && (!after || a.to_result > 0)
            });
            assert_eq!(asked.attacker_orders_while_waiting, 0, "{path} seed {seed}");
            found.before_dice += asked.before_dice;
            found.to_result += asked.to_result;
            if (!before || found.before_dice > 0) && (!after || found.to_result > 0) {
                break;
            }
        }
        assert!(!before || found.before_dice > 0, "{path}: never asked before the dice");
        assert!(!after || found.to_result > 0, "{path}: never asked to answer a result");
        questions += found.before_dice + found.to_result;
    }
    assert!(questions >= 6, "{questions} questions answered");
}

#[test]
fn small_generals_defender_is_never_asked() {
    let (asked, app) = play("scenarios/st-vith-1944.ron", 3, 1, 600, &|_| false);
    assert_eq!((asked.before_dice, asked.to_result), (0, 0));
    let attacks = app
        .world()
        .resource::<OrderLog>()
        .entries
        .iter()
        .filter(|e| matches!(e.order, Order::Attack(_)))
        .count();
    assert!(attacks > 0, "the game had attacks");
}

/// Plays until a result waits for side `person`'s answer; the app at that point.
fn until_a_result_waits(path: &str, person: usize) -> App {
    for seed in 1..=12 {
        let (asked, app) = play(path, seed, person, 2000, &|a| a.to_result > 0);
        if asked.to_result == 0 {
            continue;
        }
        // Undo the last answer: replay the game up to the entry before it.
        let log = app.world().resource::<OrderLog>().entries.clone();
        let scenario = Scenario::load(path).unwrap();
        let mut again = headless_app(&scenario, seed);
        for (i, e) in log[..log.len() - 1].iter().enumerate() {
            hexfront::game::execute::replay_entry(again.world_mut(), i, e).unwrap();
        }
        assert!(again.world().resource::<PendingAnswer>().0.is_some());
        return again;
    }
    panic!("{path}: no result waited for an answer");
}

#[test]
fn standing_answers_answer_without_asking_as_the_defenders_order() {
    let mut app = until_a_result_waits("scenarios/mortain-1944.ron", 1);
    let world = app.world_mut();
    // Asked by default: no standing order.
    assert_eq!(standing_order(world), None);
    let waiting = world.resource::<PendingAnswer>().0.clone().unwrap();
    let id = world.resource::<Sides>().0[1].id.clone();
    let mut checked = 0;
    for policy in [
        StandingAnswer::Suggested,
        StandingAnswer::AlwaysRetreat,
        StandingAnswer::StepsAtFullStrength,
    ] {
        world.resource_mut::<StandingAnswers>().set(1, policy);
        let order = standing_order(world).expect("a standing answer answers");
        assert_eq!(order.side, id);
        let Order::Answer(choices) = &order.order else {
            panic!("{order:?}")
        };
        assert!(
            waiting.options.iter().any(|o| o.choices == *choices),
            "{policy:?}: one of the answers"
        );
        if policy == StandingAnswer::AlwaysRetreat {
            assert_eq!(choices.retreat, hexfront::combat::RetreatOrSteps::Retreat);
            assert!(!choices.hold);
        }
        checked += 1;
    }
    let order = standing_order(world).unwrap();
    let at = execute(world, order.clone()).unwrap();
    let entry = &world.resource::<OrderLog>().entries[at];
    assert_eq!((entry.side.as_str(), &entry.order), (id.as_str(), &order.order));
    assert!(entry.words.starts_with("answer the result"), "{}", entry.words);
    assert!(world.resource::<PendingAnswer>().0.is_none());
    assert_eq!(checked, 3);
}

#[test]
fn the_answer_is_in_the_saved_log_and_replays() {
    let mut app = until_a_result_waits("scenarios/sidi-bou-zid-1943.ron", 1);
    let world = app.world_mut();
    let w = world.resource::<PendingAnswer>().0.clone().unwrap();
    let last = w.options.len() - 1;
    let id = world.resource::<Sides>().0[1].id.clone();
    execute(
        world,
        IssuedOrder::new(id, Order::Answer(w.options[last].choices.clone())),
    )
    .unwrap();
    let saved = saved_game(world);
    assert_eq!(saved.format, hexfront::game::save::SAVE_FORMAT);
    let text = to_text(&saved).unwrap();
    assert!(text.contains("Answer("), "the answer is written");
    let loaded = load_game_str("answered.ron", &text, 0).unwrap();
    assert_eq!(loaded.log.len(), saved.log.len());
    assert_eq!(loaded.log.last().unwrap().hash, saved.log.last().unwrap().hash);
    assert!(matches!(loaded.log.last().unwrap().order, Order::Answer(_)));
}

#[test]
fn a_second_format_save_migrates_with_the_same_dice_and_hashes() {
    let path = "tests/fixtures/smolensk-game.ron";
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("format: 2"), "the fixture is a second-format save");
    let old_entries = text.matches("        (\n            side:").count();
    let game = load_game(std::path::Path::new(path), 0).unwrap_or_else(|e| panic!("{e}"));
    let answers = game
        .log
        .iter()
        .filter(|e| matches!(e.order, Order::Answer(_) | Order::Defend(_)))
        .count();
    assert!(answers > 0, "the defender's answers are entries of their own");
    assert_eq!(
        game.log.len(),
        old_entries + answers,
        "{old_entries} old entries, {answers} answers"
    );
    // The last recorded hash of the old file is the migrated game's last.
    let last_hash = text.rsplit("hash: \"").next().unwrap().split('"').next().unwrap();
    assert_eq!(game.log.last().unwrap().hash.to_string(), last_hash);
    // Written again, it is a save of today's format that loads as it is.
    let app = hexfront::game::save::replay_app(&game, None).unwrap();
    let again = to_text(&saved_game(app.world())).unwrap();
    assert!(again.contains(&format!("format: {}", hexfront::game::save::SAVE_FORMAT)));
    let reloaded = load_game_str("migrated.ron", &again, 0).unwrap();
    assert_eq!(reloaded.log.len(), game.log.len());
}

#[test]
fn the_preview_lists_the_defenders_answers_with_probabilities_summing_to_1() {
    let cases = [
        "tests/cases/killing-ground-bocage.ron",
        "tests/cases/rommel-mountain-example.ron",
        "tests/cases/war-against-russia-smolensk.ron",
        "tests/cases/next-war-chorwon.ron",
    ];
    let mut answers_checked = 0;
    for path in cases {
        let case = CombatCase::load(path).unwrap();
        let rules = &case.ruleset.combat;
        let mut s = case.situation.clone();
        s.choices = hexfront::combat::Choices::of(&s.choices.attacker(), &Default::default());
        // Before the defender's answer: no defensive tactics, no No Retreat! orders yet.
        s.defense.tactics.clear();
        s.defense.no_retreat = false;
        let o = hexfront::combat::answers::odds_with_answers(rules, &s).unwrap();
        let with_answers = o.outcomes.iter().filter(|x| !x.answers.is_empty()).count();
        let branches = o.branches.len();
        assert!(with_answers + branches > 0, "{path}: no answer of the defender's shown");
        for outcome in &o.outcomes {
            for a in &outcome.answers {
                let total = a.outcomes.iter().fold(Fraction::ZERO, |t, x| t.plus(x.exact));
                assert_eq!(total, Fraction::ONE, "{path}: {}", a.label);
                answers_checked += 1;
            }
        }
        if let CombatRules::WarAgainstRussia(_) = rules {
            assert!(
                o.branches.iter().any(|b| b.choice.contains("No Retreat!")),
                "{path}: the No Retreat! branch"
            );
        }
        if let CombatRules::Rommel(_) = rules {
            assert!(
                o.branches.iter().any(|b| b.choice.contains("Defense in depth")),
                "{path}"
            );
        }
    }
    assert!(answers_checked >= 4, "{answers_checked} answers checked");
}

#[test]
fn a_refused_answer_changes_nothing() {
    let mut app = until_a_result_waits("scenarios/mortain-1944.ron", 1);
    let world = app.world_mut();
    let before = world.resource::<OrderLog>().entries.len();
    let attacker = world.resource::<Sides>().0[0].id.clone();
    let defender = world.resource::<Sides>().0[1].id.clone();
    // The attacker may not answer for the defender.
    let refused = execute(world, IssuedOrder::new(attacker, Order::Answer(Default::default()))).unwrap_err();
    assert!(refused.reason.contains("answers the result"), "{}", refused.reason);
    // Nobody else moves while the answer waits.
    let refused = execute(world, IssuedOrder::new(defender.clone(), Order::EndPhase)).unwrap_err();
    assert!(
        refused.reason.contains("waits for the defender's answer"),
        "{}",
        refused.reason
    );
    // A unit that does not defend cannot take the losses first.
    let bad = hexfront::combat::DefenderChoices {
        losses_first: vec!["nobody".into()],
        ..Default::default()
    };
    let refused = execute(world, IssuedOrder::new(defender, Order::Answer(bad))).unwrap_err();
    assert!(
        refused.reason.contains("not one of the defenders"),
        "{}",
        refused.reason
    );
    assert_eq!(world.resource::<OrderLog>().entries.len(), before);
    assert!(world.resource::<PendingAnswer>().0.is_some());
}

#[test]
fn the_russians_no_retreat_decision_holds_for_the_rest_of_the_turn() {
    // The Soviet (a person) is asked once a turn, at the first German attack the orders change;
    // the decision is kept even when that combat leaves no defender.
    let mut kept = 0;
    for seed in 1..=4 {
        let (asked, mut app) = play("scenarios/smolensk-1941.ron", seed, 1, 1500, &|a| a.before_dice > 0);
        if asked.before_dice == 0 {
            continue;
        }
        let world = app.world_mut();
        let turn = world.resource::<hexfront::game::phase::TurnState>().turn;
        let decided = world
            .resource::<hexfront::game::combat_phase::NoRetreatTurns>()
            .decided(turn, 1);
        assert!(decided.is_some(), "seed {seed}: the decision is kept for turn {turn}");
        kept += 1;
    }
    assert!(kept >= 2, "{kept} games with the question");
}

#[test]
fn a_turn_file_may_carry_the_receivers_answer_but_never_its_rommel_tactics() {
    use hexfront::game::save::{TurnFileInfo, senders_orders_only};
    // (scenario, whether its defence before the dice is secret)
    for (path, secret) in [
        ("scenarios/sidi-bou-zid-1943.ron", true),
        ("scenarios/smolensk-1941.ron", false),
    ] {
        let (asked, app) = play(path, 2, 1, 2000, &|a| a.before_dice > 0);
        assert!(asked.before_dice > 0, "{path}: a defence before the dice was asked");
        let saved = saved_game(app.world());
        let mut game = load_game_str("turn.ron", &to_text(&saved).unwrap(), 0).unwrap();
        let sides = app.world().resource::<Sides>().0.clone();
        // The file's new entries: the attack and the receiver's defence given at the sender's screen.
        let since = game.log.len() - 2;
        assert!(matches!(game.log[since + 1].order, Order::Defend(_)));
        game.turn_file = Some(TurnFileInfo {
            from: sides[0].id.clone(),
            to: sides[1].id.clone(),
            since,
        });
        let checked = senders_orders_only(&game, since);
        assert_eq!(checked.is_err(), secret, "{path}: {checked:?}");
    }
}

/// Killing Ground 8.96: a defending stack with combined arms names the type of the attacker's
/// first step loss, as part of its answer to the result: armor by default, infantry if it says
/// so; the answers differ exactly in which attacker loses.
#[test]
fn combined_arms_lets_the_defender_name_the_attackers_first_loss() {
    let case = CombatCase::load("tests/cases/killing-ground-bocage.ron").unwrap();
    let CombatRules::KillingGround(kg) = &case.ruleset.combat else {
        panic!("a Killing Ground case")
    };
    let s = case.situation.clone();
    assert!(kg.defender_may_name_type(&s), "armor and infantry on both sides");
    let o = hexfront::combat::answers::odds_with_answers(&case.ruleset.combat, &s).unwrap();
    let armor: Vec<bool> = s.attackers.iter().map(|u| u.is_armor()).collect();
    let mut checked = 0;
    for outcome in &o.outcomes {
        let plain = outcome.answers.iter().find(|a| a.choices == Default::default());
        let infantry = outcome.answers.iter().find(|a| {
            a.choices
                == hexfront::combat::DefenderChoices {
                    names_infantry: true,
                    ..Default::default()
                }
        });
        let (Some(plain), Some(infantry)) = (plain, infantry) else {
            continue;
        };
        assert!(infantry.label.contains("8.96"), "{}", infantry.label);
        // Where the table takes one attacking step (besides the Accelerated Effort's, paid
        // before the roll), it is the tank battalion's in the plain answer and an infantry
        // regiment's when the defender names infantry.
        for (a, want_armor) in [(plain, true), (infantry, false)] {
            for leaf in &a.outcomes {
                let r = &leaf.result.attacker;
                if r.steps_lost != 2 {
                    continue;
                }
                let armor_lost = (0..r.units.len()).any(|i| armor[i] && r.units[i].steps_lost > 0);
                assert_eq!(armor_lost, want_armor, "{}: {}", a.label, leaf.result.code);
                checked += 1;
            }
        }
    }
    assert!(checked >= 2, "{checked} first losses checked");
}

/// Committed third-format saves (an attack had a field per option) load with each attack's
/// fields as its options, replay to the recorded dice and hashes, and write today's format.
#[test]
fn third_format_saves_migrate_their_attack_options_with_the_same_hashes() {
    use hexfront::combat::{OptionTaken, RetreatOrSteps};
    let mut checked = 0;
    for path in [
        "tests/fixtures/mortain-game-edition1.ron",
        "tests/fixtures/online-mortain-chained.ron",
    ] {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.contains("format: 3"), "{path} is a third-format save");
        let old_efforts = text.matches("accelerated_effort: \"").count();
        let old_steps = text.matches("choices: (retreat: Steps)").count();
        assert!(
            old_efforts > 0 && old_steps > 0,
            "{path}: {old_efforts} efforts, {old_steps} steps"
        );
        // Loading replays every entry and checks its dice and hash against the file's.
        let game = load_game(std::path::Path::new(path), 0).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(
            game.log.len(),
            text.matches("        (\n            side:").count(),
            "{path}"
        );
        let options: Vec<&OptionTaken> = game
            .log
            .iter()
            .filter_map(|e| match &e.order {
                Order::Attack(a) => Some(&a.options),
                _ => None,
            })
            .flatten()
            .collect();
        let efforts = options
            .iter()
            .filter(|o| matches!(o, OptionTaken::AcceleratedEffort(_)))
            .count();
        let steps = options
            .iter()
            .filter(|o| **o == &OptionTaken::RetreatAsSteps(RetreatOrSteps::Steps))
            .count();
        assert_eq!((efforts, steps), (old_efforts, old_steps), "{path}");
        let last_hash = text.rsplit("hash: \"").next().unwrap().split('"').next().unwrap();
        assert_eq!(game.log.last().unwrap().hash.to_string(), last_hash, "{path}");
        // Written again: today's format, the options listed, and it loads as it is.
        let app = hexfront::game::save::replay_app(&game, None).unwrap();
        let again = to_text(&saved_game(app.world())).unwrap();
        assert!(
            again.contains(&format!("format: {}", hexfront::game::save::SAVE_FORMAT)),
            "{path}"
        );
        assert!(
            again.contains("options: [") && !again.contains("accelerated_effort:"),
            "{path}"
        );
        let reloaded = load_game_str("migrated.ron", &again, 0).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(
            reloaded.log.last().unwrap().hash,
            game.log.last().unwrap().hash,
            "{path}"
        );
        checked += efforts + steps;
    }
    assert!(checked >= 10, "{checked} migrated options checked");
}
