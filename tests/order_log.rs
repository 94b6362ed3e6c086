//! The order log: random games of every shipped scenario replay from their logs to the same state
//! hash at every entry, the logs round-trip through RON, a game saved and loaded mid-way goes on
//! exactly as the unsaved one; random orders, legal and not, never panic and a refused one
//! changes nothing; undo and redo; secrets; saves of the first format; turn files.

mod common;

use bevy::prelude::*;
use common::board::{cell, give, ids};
use common::random_player::random_order;
use hexfront::game::combat_phase::{GameView, PendingCombat};
use hexfront::game::execute::{execute, issue};
use hexfront::game::hash::state_hash;
use hexfront::game::headless_app;
use hexfront::game::log::OrderLog;
use hexfront::game::order::{AttackOrder, DefenseOrder, IssuedOrder, Order};
use hexfront::game::retreat::AfterCombatMode;
use hexfront::game::save::{SavedGame, continues_game, load_game_str, saved_game, start_loaded, to_text};
use hexfront::game::undo::{redo, undo};
use hexfront::scenario::Scenario;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

const GAMES: u64 = 100;
const ORDERS: usize = 100;

/// What a batch of random games did, to show they covered the rules.
#[derive(Debug, Default)]
struct Seen {
    orders: usize,
    attacks: usize,
    dice: usize,
    retreats: usize,
    advances: usize,
    defences: usize,
    phases: usize,
}

fn game(scenario: &Scenario, seed: u64) -> App {
    let mut app = headless_app(scenario, seed);
    // Half the games answer retreats and advances by hand, as the client does.
    app.insert_resource(AfterCombatMode {
        automatic: seed.is_multiple_of(2),
    });
    app
}

/// Plays up to `n` random legal orders; every one must be accepted.
fn play(app: &mut App, rng: &mut ChaCha8Rng, n: usize, seen: &mut Seen) {
    for _ in 0..n {
        let Some(order) = random_order(app.world_mut(), rng) else {
            return;
        };
        match &order.order {
            Order::Attack(_) => seen.attacks += 1,
            Order::Retreat { .. } => seen.retreats += 1,
            Order::Advance { .. } => seen.advances += 1,
            Order::Defend(_) => seen.defences += 1,
            Order::EndPhase => seen.phases += 1,
            _ => {}
        }
        let at = execute(app.world_mut(), order.clone()).unwrap_or_else(|r| panic!("a legal order was refused: {r}"));
        seen.orders += 1;
        seen.dice += app.world().resource::<OrderLog>().entries[at].dice.len();
    }
}

fn hashes(app: &App) -> Vec<String> {
    app.world()
        .resource::<OrderLog>()
        .entries
        .iter()
        .map(|e| e.hash.to_string())
        .collect()
}

fn random_games_replay_exactly(path: &str) -> Seen {
    let scenario = Scenario::load(path).unwrap();
    let mut seen = Seen::default();
    for seed in 0..GAMES {
        let mut app = game(&scenario, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed * 7919 + 17);
        play(&mut app, &mut rng, ORDERS, &mut seen);
        let saved = saved_game(app.world());
        let text = to_text(&saved).unwrap();
        // The log round-trips through RON.
        let back: SavedGame = hexfront::scenario::Source::new("rt.ron", &text).parse().unwrap();
        assert_eq!(to_text(&back).unwrap(), text, "{path} seed {seed}: RON round trip");
        // Loading replays every entry and checks its dice, dice position and hash.
        let loaded = load_game_str("game.ron", &text, 0).unwrap_or_else(|e| panic!("{path} seed {seed}: {e}"));
        let replayed: Vec<String> = loaded.log.iter().map(|e| e.hash.to_string()).collect();
        assert_eq!(
            replayed,
            hashes(&app),
            "{path} seed {seed}: the same hash at every entry"
        );
        if seed.is_multiple_of(10) {
            saved_and_continued(&scenario, &text, &mut app, &mut rng, &mut seen);
        }
    }
    seen
}

/// A game loaded from `text` and the game it was saved from go on with the same orders to the
/// same hash after every order.
fn saved_and_continued(scenario: &Scenario, text: &str, app: &mut App, rng: &mut ChaCha8Rng, seen: &mut Seen) {
    let loaded = load_game_str("mid.ron", text, 0).unwrap();
    let mut other = headless_app(scenario, 999);
    start_loaded(other.world_mut(), &loaded, None).unwrap();
    assert_eq!(state_hash(other.world_mut()), state_hash(app.world_mut()));
    for _ in 0..ORDERS / 2 {
        let Some(order) = random_order(app.world_mut(), rng) else {
            break;
        };
        execute(app.world_mut(), order.clone()).unwrap();
        execute(other.world_mut(), order).unwrap();
        seen.orders += 1;
        assert_eq!(state_hash(other.world_mut()), state_hash(app.world_mut()));
    }
}

#[test]
fn random_games_of_mortain_replay_exactly() {
    let seen = random_games_replay_exactly("scenarios/mortain-1944.ron");
    eprintln!("mortain: {seen:?}");
    assert!(seen.attacks > 20 && seen.dice > 20 && seen.phases > 200, "{seen:?}");
}

#[test]
fn random_games_of_sidi_bou_zid_replay_exactly() {
    let seen = random_games_replay_exactly("scenarios/sidi-bou-zid-1943.ron");
    eprintln!("sidi bou zid: {seen:?}");
    assert!(seen.attacks > 10 && seen.defences > 10, "{seen:?}");
}

#[test]
fn random_games_of_smolensk_replay_exactly() {
    let seen = random_games_replay_exactly("scenarios/smolensk-1941.ron");
    eprintln!("smolensk: {seen:?}");
    assert!(seen.attacks > 20 && seen.dice > 20, "{seen:?}");
}

#[test]
fn random_games_of_chorwon_replay_exactly() {
    let seen = random_games_replay_exactly("scenarios/chorwon-hypothetical.ron");
    eprintln!("chorwon: {seen:?}");
    assert!(seen.attacks > 10 && seen.dice > 10, "{seen:?}");
}

#[test]
fn random_games_of_st_vith_replay_exactly() {
    let seen = random_games_replay_exactly("scenarios/st-vith-1944.ron");
    eprintln!("st vith: {seen:?}");
    assert!(seen.attacks > 10 && seen.dice > 10, "{seen:?}");
}

/// A random order that may well be illegal: the wrong side, unknown units and cells, the wrong
/// kind for the moment.
fn wild_order(app: &mut App, rng: &mut ChaCha8Rng) -> IssuedOrder {
    if rng.random_bool(0.4)
        && let Some(legal) = random_order(app.world_mut(), rng)
    {
        return legal;
    }
    let world = app.world_mut();
    let mut unit_ids: Vec<String> = world
        .query::<&hexfront::game::components::Unit>()
        .iter(world)
        .map(|u| u.id.clone())
        .collect();
    unit_ids.sort();
    unit_ids.push("no-such-unit".into());
    let sides = ["german", "us", "soviet", "blue", "red", "kpa", "rok", "nobody"];
    let any = |rng: &mut ChaCha8Rng, v: &[String]| v[rng.random_range(0..v.len())].clone();
    let cell =
        |rng: &mut ChaCha8Rng| hexfront::rules::grid::Cell::new(rng.random_range(-1..30), rng.random_range(-1..25));
    let units = |rng: &mut ChaCha8Rng| {
        (0..rng.random_range(0..3))
            .map(|_| any(rng, &unit_ids))
            .collect::<Vec<_>>()
    };
    let order = match rng.random_range(0..8) {
        0 => Order::Move {
            units: units(rng),
            to: cell(rng),
        },
        1 => {
            // Sometimes a unit named twice: refused, never counted twice.
            let mut attackers = units(rng);
            if let Some(first) = attackers.first().cloned()
                && rng.random_bool(0.3)
            {
                attackers.push(first);
            }
            Order::Attack(AttackOrder::plain(attackers, cell(rng)))
        }
        2 => Order::Defend(DefenseOrder::default()),
        3 => Order::Retreat {
            unit: any(rng, &unit_ids),
            path: (0..rng.random_range(0..3)).map(|_| cell(rng)).collect(),
        },
        4 => Order::Advance {
            units: units(rng),
            to: cell(rng),
        },
        5 => Order::EndAdvance,
        6 => Order::EndPhase,
        _ => Order::Concede,
    };
    let side = sides[rng.random_range(0..sides.len())];
    IssuedOrder::new(side, order)
}

#[test]
fn random_orders_legal_or_not_never_panic_and_a_refused_one_changes_nothing() {
    let mut refused = 0;
    let mut accepted = 0;
    for (i, path) in common::SHIPPED.iter().enumerate() {
        let scenario = Scenario::load(path).unwrap();
        for seed in 0..8u64 {
            let mut app = game(&scenario, seed);
            let mut rng = ChaCha8Rng::seed_from_u64(seed + 100 * i as u64);
            for _ in 0..150 {
                let order = wild_order(&mut app, &mut rng);
                if order.order == Order::Concede && rng.random_bool(0.9) {
                    continue; // a concession ends the game: rarely
                }
                let before = state_hash(app.world_mut());
                let entries = app.world().resource::<OrderLog>().entries.len();
                let lines = app.world().resource::<hexfront::game::components::GameLog>().0.len();
                let dice = app.world().resource::<hexfront::game::components::GameRng>().position();
                match execute(app.world_mut(), order) {
                    Ok(_) => accepted += 1,
                    Err(r) => {
                        refused += 1;
                        assert!(!r.reason.is_empty() && !r.order.is_empty());
                        assert_eq!(state_hash(app.world_mut()), before, "{path}: refused but changed: {r}");
                        assert_eq!(app.world().resource::<OrderLog>().entries.len(), entries);
                        let world = app.world();
                        assert_eq!(world.resource::<hexfront::game::components::GameLog>().0.len(), lines);
                        assert_eq!(world.resource::<hexfront::game::components::GameRng>().position(), dice);
                    }
                }
            }
        }
    }
    assert!(
        refused > 1000 && accepted > 500,
        "{refused} refused, {accepted} accepted"
    );
}

/// Mortain at the German combat phase (the committed first-format save).
fn mortain_combat() -> App {
    let text = std::fs::read_to_string("tests/fixtures/mortain-combat-phase.ron").unwrap();
    let game = load_game_str("tests/fixtures/mortain-combat-phase.ron", &text, 1).unwrap();
    assert!(
        game.migrated && game.log.is_empty(),
        "a first-format save starts an empty log"
    );
    let mut app = headless_app(&game.scenario, game.seed);
    start_loaded(app.world_mut(), &game, None).unwrap();
    app.insert_resource(AfterCombatMode { automatic: false });
    app
}

#[test]
fn a_move_undone_and_redone_gives_the_same_hashes_and_undo_stops_at_dice() {
    let scenario = Scenario::load("scenarios/mortain-1944.ron").unwrap();
    let mut app = headless_app(&scenario, 4);
    while *app.world().resource::<State<hexfront::game::phase::Phase>>().get() != hexfront::game::phase::Phase::Movement
    {
        give(&mut app, Order::EndPhase).unwrap();
    }
    let start = state_hash(app.world_mut());
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut moves = Vec::new();
    for _ in 0..3 {
        let order = loop {
            let o = random_order(app.world_mut(), &mut rng).unwrap();
            if matches!(o.order, Order::Move { .. }) {
                break o;
            }
        };
        execute(app.world_mut(), order).unwrap();
        moves.push(state_hash(app.world_mut()));
    }
    // Back three moves, exactly.
    for expected in [moves[1], moves[0], start] {
        let words = undo(app.world_mut()).unwrap();
        assert!(words.starts_with("move "), "{words}");
        assert_eq!(state_hash(app.world_mut()), expected);
    }
    // And forward again.
    for expected in &moves {
        redo(app.world_mut()).unwrap();
        assert_eq!(state_hash(app.world_mut()), *expected);
    }
    assert_eq!(redo(app.world_mut()).unwrap_err(), "nothing to redo");
    // Ending the phase is undoable until a die is rolled.
    give(&mut app, Order::EndPhase).unwrap();
    undo(app.world_mut()).unwrap();
    assert_eq!(state_hash(app.world_mut()), moves[2]);

    // A combat's dice stay rolled.
    let mut app = mortain_combat();
    give(
        &mut app,
        Order::Attack(AttackOrder::plain(ids(&["de-ss2-2"]), cell("1312"))),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let e = undo(app.world_mut()).unwrap_err();
    assert_eq!(e, "undo stops at the combat at 1312: its dice are rolled");
}

#[test]
fn an_order_from_a_side_not_entitled_is_refused_with_the_rule() {
    let mut app = mortain_combat();
    let attack = Order::Attack(AttackOrder::plain(ids(&["de-ss2-2"]), cell("1312")));
    let r = execute(app.world_mut(), IssuedOrder::new("us", attack.clone())).unwrap_err();
    assert_eq!(r.reason, "German is to play, not United States");
    assert!(
        r.to_string().starts_with("refused: attack 1312 with SS Panzer Rgt 2"),
        "{r}"
    );
    let r = execute(app.world_mut(), IssuedOrder::new("french", attack)).unwrap_err();
    assert!(r.reason.starts_with("there is no side `french`"), "{r}");
    let r = issue(
        app.world_mut(),
        Order::Move {
            units: ids(&["de-ss2-2"]),
            to: cell("1311"),
        },
    )
    .unwrap_err();
    assert!(r.reason.contains("units move only in a movement phase"), "{r}");
}

#[test]
fn rommels_hidden_tactic_stays_out_of_the_defenders_preview_until_the_reveal() {
    use bevy::ecs::system::SystemState;
    let scenario = Scenario::load("tests/fixtures/contested.ron").unwrap();
    let mut app = headless_app(&scenario, 3);
    give(&mut app, Order::EndPhase).unwrap(); // movement -> combat
    let mut order = AttackOrder::plain(ids(&["pz"]), cell("0201"));
    order.take(hexfront::combat::OptionTaken::Tactics(vec![
        hexfront::combat::Tactic::Recce,
    ]));
    give(&mut app, Order::Attack(order)).unwrap();
    let declared = app
        .world()
        .resource::<PendingCombat>()
        .0
        .clone()
        .expect("waiting for the defender");
    let modifiers = |app: &mut App, viewer| {
        let seen = declared.as_seen_by(viewer);
        let mut state: SystemState<GameView> = SystemState::new(app.world_mut());
        let view = state.get(app.world()).unwrap();
        let (s, ..) = view.situation(&seen, Some(&DefenseOrder::default())).unwrap();
        let odds = hexfront::combat::odds(&view.map.ruleset.combat, &s).unwrap();
        odds.assessment
            .modifiers
            .iter()
            .map(|m| format!("{} ({})", m.effect, m.source))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let attacker = modifiers(&mut app, declared.attacker);
    let defender = modifiers(&mut app, declared.defender);
    assert!(
        attacker.contains("Recce"),
        "the attacker sees its own tactic: {attacker}"
    );
    assert!(!defender.contains("Recce"), "the defender must not: {defender}");
    // The log shows it hidden until the defender answers.
    let log = app.world().resource::<OrderLog>();
    let i = log.entries.len() - 1;
    assert!(!log.revealed(i));
    assert!(log.entries[i].public_words(false).contains("tactics hidden"));
    assert!(!log.entries[i].public_words(false).contains("Recce"));
    // Undo and redo of the declaration say what they did without the secret.
    let undone = undo(app.world_mut()).unwrap();
    assert!(
        undone.contains("tactics hidden") && !undone.contains("Recce"),
        "{undone}"
    );
    let redone = redo(app.world_mut()).unwrap();
    assert!(!redone.contains("Recce"), "{redone}");
    give(&mut app, Order::Defend(DefenseOrder::default())).unwrap();
    let log = app.world().resource::<OrderLog>();
    assert!(log.revealed(i) && log.entries[i].public_words(true).contains("Recce"));
    assert!(
        log.entries[i + 1]
            .lines
            .iter()
            .any(|l| l.contains("Tactics revealed: attacker Recce"))
    );
    // The reveal is a barrier: undo cannot take the declaration back now.
    assert!(undo(app.world_mut()).is_err());
}

#[test]
fn a_first_format_save_loads_plays_and_saves_as_an_order_log() {
    let mut app = mortain_combat();
    let before = state_hash(app.world_mut());
    give(
        &mut app,
        Order::Attack(AttackOrder::plain(ids(&["de-ss2-2"]), cell("1312"))),
    )
    .unwrap();
    let text = to_text(&saved_game(app.world())).unwrap();
    assert!(text.starts_with("SavedGame("), "{}", &text[..40]);
    let loaded = load_game_str("migrated.ron", &text, 1).unwrap();
    assert_eq!(loaded.log.len(), 1);
    let mut again = headless_app(&loaded.scenario, loaded.seed);
    start_loaded(again.world_mut(), &loaded, Some(0)).unwrap();
    assert_eq!(
        state_hash(again.world_mut()),
        before,
        "the old save's position is the start"
    );
    start_loaded(again.world_mut(), &loaded, None).unwrap();
    assert_eq!(state_hash(again.world_mut()), state_hash(app.world_mut()));
}

#[test]
fn a_tampered_save_is_refused_with_the_entry_and_what_differs() {
    let scenario = Scenario::load("scenarios/smolensk-1941.ron").unwrap();
    let mut app = game(&scenario, 5);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut seen = Seen::default();
    while seen.dice == 0 {
        play(&mut app, &mut rng, 10, &mut seen);
    }
    let mut saved = saved_game(app.world());
    // Another dice position for entry 4 (as a cheater who rolled again would have).
    saved.log[3].rng.1 += 1;
    let text = to_text(&saved).unwrap();
    let e = load_game_str("cheat.ron", &text, 1).unwrap_err();
    assert_eq!(e.field, "log[3]");
    assert!(
        e.message.contains("entry 4") && e.message.contains("dice position differs"),
        "{e}"
    );
    assert!(e.to_string().starts_with("cheat.ron:"), "located: {e}");
    // A die that fell otherwise than the seed says.
    let mut saved = saved_game(app.world());
    let rolled = saved.log.iter().position(|e| !e.dice.is_empty()).unwrap();
    let die = &mut saved.log[rolled].dice[0];
    die.face = if die.face == 6 { 5 } else { die.face + 1 };
    let e = load_game_str("dice.ron", &to_text(&saved).unwrap(), 1).unwrap_err();
    assert_eq!(e.field, format!("log[{rolled}]"));
    assert!(e.message.contains("the dice differ"), "{e}");
    // An edited scenario does not match its hash.
    let mut saved = saved_game(app.world());
    saved.scenario.turns += 1;
    let e = load_game_str("edited.ron", &to_text(&saved).unwrap(), 1).unwrap_err();
    assert_eq!(e.field, "scenario_hash");
}

#[test]
fn turn_files_continue_the_same_game_and_refuse_another() {
    let scenario = Scenario::load("scenarios/st-vith-1944.ron").unwrap();
    // Both players start the same game; the first plays a while and sends a turn file.
    let mut mine = game(&scenario, 8);
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    play(&mut mine, &mut rng, 25, &mut Seen::default());
    let dir = std::env::temp_dir().join(format!("hexfront-turns-{}", std::process::id()));
    let path = dir.join("turn.ron");
    // In the middle of a side's turn there is nothing to send yet.
    let mid_turn = |app: &App| {
        let log = app.world().resource::<OrderLog>();
        log.entries.last().unwrap().when.side == app.world().resource::<hexfront::game::phase::TurnState>().active.0
    };
    while !mid_turn(&mine) {
        play(&mut mine, &mut rng, 1, &mut Seen::default());
    }
    let e = hexfront::game::save::write_turn_file(mine.world(), &path).unwrap_err();
    assert!(e.message.contains("in the middle of its turn"), "{e}");
    while mid_turn(&mine) {
        play(&mut mine, &mut rng, 1, &mut Seen::default());
    }
    let sent = hexfront::game::save::write_turn_file(mine.world(), &path).unwrap();
    let to = mine.world().resource::<hexfront::game::phase::TurnState>().active.0;
    assert_eq!(
        sent.turn_file.as_ref().unwrap().to,
        mine.world().resource::<hexfront::game::components::Sides>().0[to].id
    );
    let info = sent.turn_file.clone().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let received = load_game_str(&path, &text, 1).unwrap();
    assert_eq!(received.turn_file, Some(info.clone()));
    // The receiver's game stands where it last sent its turn: it knows the orders until then.
    let mut theirs = game(&scenario, 8);
    for e in &received.log[..info.since] {
        execute(theirs.world_mut(), e.issued()).unwrap();
    }
    assert_eq!(continues_game(theirs.world(), &received), Ok(info.since));
    // A game further on with other orders is a broken chain.
    let mut other = game(&scenario, 8);
    let mut rng2 = ChaCha8Rng::seed_from_u64(99);
    play(&mut other, &mut rng2, 10, &mut Seen::default());
    let e = continues_game(other.world(), &received).unwrap_err();
    assert!(e.contains("broken hash chain") || e.contains("further on"), "{e}");
    // Another version of the scenario is refused.
    let text2 = std::fs::read_to_string("scenarios/st-vith-1944.ron")
        .unwrap()
        .replace("turns: 8,", "turns: 9,");
    let edited = Scenario::from_ron_str("st-vith-edited.ron", &text2).unwrap();
    let v2 = game(&edited, 8);
    let e = continues_game(v2.world(), &received).unwrap_err();
    assert!(e.contains("another version"), "{e}");
    // An order the rules refuse is refused with its entry.
    let mut bad = received.clone();
    bad.log.push(hexfront::game::log::LogEntry {
        order: Order::Move {
            units: ids(&["no-such-unit"]),
            to: cell("0101"),
        },
        ..bad.log[0].clone()
    });
    let mut doc = hexfront::game::save::saved_game(mine.world());
    doc.log = bad.log;
    let e = load_game_str("bad-turn.ron", &to_text(&doc).unwrap(), 1).unwrap_err();
    assert!(
        e.message.contains("the rules refuse it") && e.message.contains("no-such-unit"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// The committed game: Smolensk played to its end (6 turns) by the scripted hotseat player.
const COMMITTED_GAME: &str = "tests/fixtures/smolensk-game.ron";

/// Plays the committed game again and writes it (run by hand after a deliberate rules change:
/// `cargo test --test order_log -- --ignored write_the_committed_game`).
#[test]
#[ignore = "writes tests/fixtures/smolensk-game.ron"]
fn write_the_committed_game() {
    let scenario = Scenario::load("scenarios/smolensk-1941.ron").unwrap();
    let mut app = headless_app(&scenario, 1941);
    app.insert_resource(AfterCombatMode { automatic: false });
    while *app.world().resource::<State<hexfront::game::phase::GameState>>().get()
        == hexfront::game::phase::GameState::Playing
    {
        let reports = common::player::play_player_turn(&mut app);
        let refused: Vec<&String> = reports.iter().flat_map(|(_, r)| &r.refusals).collect();
        assert!(refused.is_empty(), "{refused:?}");
    }
    hexfront::game::save::save_game(app.world(), std::path::Path::new(COMMITTED_GAME)).unwrap();
}

#[test]
fn the_committed_game_replays_to_its_end_exactly() {
    let game =
        hexfront::game::save::load_game(std::path::Path::new(COMMITTED_GAME), 1).unwrap_or_else(|e| panic!("{e}"));
    assert!(game.log.len() > 100, "a whole game: {} orders", game.log.len());
    assert!(game.summary.starts_with("Game over"), "{}", game.summary);
    let app = hexfront::game::save::replay_app(&game, None).unwrap();
    assert!(app.world().get_resource::<hexfront::game::victory::Verdict>().is_some());
}

/// A finished game opened again is over (issue: a finished St. Vith, F2, its autosave opened:
/// "turn 8, german to play" and units moved again), also when it is loaded into the world of a
/// game that just ended, as the client does; no order is taken.
#[test]
fn a_finished_game_opened_again_is_over_and_takes_no_order() {
    use hexfront::game::phase::GameState;
    let game =
        hexfront::game::save::load_game(std::path::Path::new(COMMITTED_GAME), 1).unwrap_or_else(|e| panic!("{e}"));
    let mut app = hexfront::game::save::replay_app(&game, None).unwrap();
    app.update();
    let state = |app: &App| *app.world().resource::<State<GameState>>().get();
    assert_eq!(state(&app), GameState::Over);
    for _ in 0..2 {
        start_loaded(app.world_mut(), &game, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(state(&app), GameState::Over, "over as soon as it is loaded");
        app.update();
        app.update();
        assert_eq!(state(&app), GameState::Over, "and it stays over");
        let refused = issue(app.world_mut(), Order::EndPhase);
        assert!(
            refused.as_ref().is_err_and(|r| r.reason.contains("over")),
            "{refused:?}"
        );
        assert!(app.world().get_resource::<hexfront::game::victory::Verdict>().is_some());
    }
}

#[test]
fn a_unit_named_twice_is_refused_and_a_forced_die_the_rules_cannot_use_changes_nothing() {
    let mut app = mortain_combat();
    let twice = Order::Attack(AttackOrder::plain(ids(&["de-ss2-2", "de-ss2-2"]), cell("1312")));
    let r = issue(app.world_mut(), twice).unwrap_err();
    assert_eq!(r.reason, "de-ss2-2 is named twice in the order");
    // A 9 on a d6: the combat is refused after the dice were asked for; they stand where they stood.
    let before = state_hash(app.world_mut());
    let position = app.world().resource::<hexfront::game::components::GameRng>().position();
    app.world_mut()
        .resource_mut::<hexfront::game::components::GameRng>()
        .forced = vec![9];
    let once = Order::Attack(AttackOrder::plain(ids(&["de-ss2-2"]), cell("1312")));
    let r = issue(app.world_mut(), once).unwrap_err();
    assert!(r.reason.contains("cannot show"), "{r}");
    let rng = app.world().resource::<hexfront::game::components::GameRng>();
    assert_eq!(
        (rng.position(), rng.forced.clone(), rng.rolled.len()),
        (position, vec![9], 0)
    );
    assert_eq!(state_hash(app.world_mut()), before);
    assert!(app.world().resource::<OrderLog>().entries.is_empty());
}

#[test]
fn a_turn_file_may_not_give_orders_in_the_receivers_name() {
    let scenario = Scenario::load("scenarios/st-vith-1944.ron").unwrap();
    let mut mine = game(&scenario, 8);
    let theirs = game(&scenario, 8);
    give(&mut mine, Order::EndPhase).unwrap();
    let mut doc = saved_game(mine.world());
    let receiver = theirs.world().resource::<hexfront::game::components::Sides>().0[1]
        .id
        .clone();
    doc.turn_file = Some(hexfront::game::save::TurnFileInfo {
        from: theirs.world().resource::<hexfront::game::components::Sides>().0[0]
            .id
            .clone(),
        to: receiver.clone(),
        since: 0,
    });
    // The sender slips in a concession by the receiver.
    let mut forged = doc.log[0].clone();
    forged.side = receiver;
    forged.order = Order::Concede;
    doc.log.push(forged);
    let e = load_game_str("forged.ron", &to_text(&doc).unwrap(), 1).unwrap_err();
    assert_eq!(e.field, "log[1]");
    assert!(e.message.contains("in the receiver's name"), "{e}");
}

/// An attack taking an option its combat system does not offer is refused, naming the option and
/// the system, and so is one taking an option twice; nothing changes and the log stays as it was.
#[test]
fn an_attack_option_the_system_does_not_offer_is_refused_by_name() {
    use hexfront::combat::{OptionTaken, RetreatOrSteps, Tactic};
    let scenario = Scenario::load("tests/fixtures/contested.ron").unwrap();
    let mut app = headless_app(&scenario, 3);
    give(&mut app, Order::EndPhase).unwrap(); // movement -> combat
    let before = (
        app.world().resource::<OrderLog>().entries.len(),
        state_hash(app.world_mut()),
    );
    let plain = AttackOrder::plain(ids(&["pz"]), cell("0201"));
    let refusals = [
        (
            OptionTaken::AcceleratedEffort("pz".into()),
            "no accelerated effort option",
        ),
        (
            OptionTaken::RetreatAsSteps(RetreatOrSteps::Steps),
            "no retreat as steps option",
        ),
        (OptionTaken::Exchange, "no exchange option"),
    ];
    for (option, why) in &refusals {
        let r = give(&mut app, Order::Attack(plain.clone().with(option.clone()))).unwrap_err();
        assert!(r.contains(why) && r.contains("Rommel"), "{option:?}: {r}");
    }
    let mut twice = plain.clone().with(OptionTaken::Tactics(vec![Tactic::Recce]));
    twice.options.push(OptionTaken::Tactics(vec![Tactic::Recce]));
    let r = give(&mut app, Order::Attack(twice)).unwrap_err();
    assert!(r.contains("takes tactics twice"), "{r}");
    let after = (
        app.world().resource::<OrderLog>().entries.len(),
        state_hash(app.world_mut()),
    );
    assert_eq!(before, after, "the refusals changed nothing");
    // The options Rommel offers are taken.
    let taken = plain
        .with(OptionTaken::Tactics(vec![Tactic::Recce]))
        .with(OptionTaken::Flanking);
    give(&mut app, Order::Attack(taken)).unwrap();
    let declared = app.world().resource::<PendingCombat>().0.clone().expect("declared");
    assert!(declared.order.taken().flanking(), "{:?}", declared.order);
}
