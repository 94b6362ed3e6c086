//! The fuzz targets' properties (`fuzz/`), run as proptests in `cargo test`: shipped files with
//! random byte edits never make a loader panic and every error points inside the file; the
//! fuzzers' structure-aware combat cases (any numbers) are refused past the limits and, within
//! them, give odds that sum to one and resolve without overflow; their scenarios load, spawn and
//! play random legal orders, every one carried out; the source map answers any text.

use arbitrary::{Arbitrary, Unstructured};
use hexfront::scenario::{CombatCase, Ruleset, Scenario};
use hexfront::source::LoadError;
use proptest::prelude::*;

#[path = "../fuzz/generators.rs"]
mod generators;
#[path = "../fuzz/play.rs"]
mod play;

/// The shipped files the fuzzers' corpora start from.
const SEEDS: [&str; 9] = [
    include_str!("../scenarios/mortain-1944.ron"),
    include_str!("../scenarios/sidi-bou-zid-1943.ron"),
    include_str!("../scenarios/smolensk-1941.ron"),
    include_str!("../assets/rulesets/next-war.ron"),
    include_str!("../assets/rulesets/rommel.ron"),
    include_str!("../tests/cases/killing-ground-bocage.ron"),
    include_str!("../tests/cases/rommel-mountain-example.ron"),
    include_str!("../tests/cases/small-general-st-vith.ron"),
    include_str!("../tests/cases/war-against-russia-smolensk.ron"),
];

/// `text` with byte edits: (where, byte, 0 replace / 1 insert / 2 delete).
fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, byte, kind) in edits {
        if bytes.is_empty() {
            break;
        }
        let at = at % bytes.len();
        match kind % 3 {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                bytes.remove(at);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// An error's line and column lie inside `text` (or just past its end).
fn inside(text: &str, e: &LoadError) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    e.pos.is_none_or(|p| {
        let lines: Vec<&str> = text.split('\n').collect();
        p.line >= 1
            && p.col >= 1
            && lines
                .get(p.line - 1)
                .map_or(p.line == lines.len() + 1 && p.col == 1, |l| {
                    p.col <= l.chars().count() + 1
                })
    })
}

/// Punctuation that matters to RON, so edits often hit the structure.
fn edit() -> impl Strategy<Value = (usize, u8, u8)> {
    let byte = prop_oneof![any::<u8>(), prop::sample::select(b"()[]{},:\"'#r-0123456789 ".to_vec()),];
    (any::<usize>(), byte, any::<u8>())
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(300) })]

    #[test]
    fn edited_shipped_files_never_make_a_loader_panic(
        seed in 0..SEEDS.len(),
        edits in prop::collection::vec(edit(), 1..8),
    ) {
        let text = mutate(SEEDS[seed], &edits);
        if let Err(e) = Scenario::from_ron_str("edited.ron", &text) {
            prop_assert!(inside(&text, &e), "{e}");
        }
        if let Err(e) = Ruleset::from_ron_str("edited.ron", &text) {
            prop_assert!(inside(&text, &e), "{e}");
        }
        match CombatCase::from_ron_str("edited.ron", &text) {
            Ok(case) => play::fight(&case, 3),
            Err(e) => prop_assert!(inside(&text, &e), "{e}"),
        }
    }

    #[test]
    fn structured_combat_cases_are_refused_past_the_limits_or_fought_exactly(
        bytes in prop::collection::vec(any::<u8>(), 64..1024),
    ) {
        let Ok(case) = generators::Case::arbitrary(&mut Unstructured::new(&bytes)) else { return Ok(()) };
        let Some(text) = generators::case_text(&case) else { return Ok(()) };
        match CombatCase::from_ron_str("structured.ron", &text) {
            Ok(c) => play::fight(&c, 5),
            Err(e) => prop_assert!(inside(&text, &e) && !e.message.is_empty(), "{e}"),
        }
    }

    #[test]
    fn the_source_map_answers_any_text(
        text in "([()\\[\\]{},:\"'#rb/*\\\\\n a-z0-9]|r#\"|/\\*|\\*/){0,300}",
        path in "[a-z]{1,6}(\\[[0-9]\\])?(\\.[a-z]{1,6})?",
        line in 1usize..6,
        col in 1usize..80,
    ) {
        use hexfront::source::source_map::{Pos, field_at, locate};
        if let Some(p) = locate(&text, &path) {
            let at = LoadError { file: "t".into(), pos: Some(p), field: String::new(), message: String::new() };
            prop_assert!(inside(&text, &at), "{p:?}");
        }
        let _ = field_at(&text, Pos { line, col });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(48) })]

    #[test]
    fn structured_scenarios_load_spawn_and_play_random_legal_orders(
        bytes in prop::collection::vec(any::<u8>(), 128..1024),
    ) {
        let Ok(game) = generators::Game::arbitrary(&mut Unstructured::new(&bytes)) else { return Ok(()) };
        let Some(text) = generators::game_text(&game) else { return Ok(()) };
        match Scenario::from_ron_str("structured.ron", &text) {
            Ok(scenario) => play::play(&scenario, game.seed, 30),
            Err(e) => prop_assert!(inside(&text, &e), "{e}"),
        }
    }

    #[test]
    fn a_strength_past_the_limit_is_refused_naming_the_field(v in (hexfront::source::limits::MAX_VALUE + 1)..=u32::MAX) {
        let case = format!(
            r#"CombatCase(ruleset: "war-against-russia", terrain: "clear", attackers: [(id: "a", class: Infantry, strength: {v})], defenders: [(id: "d", class: Infantry, strength: 1)])"#
        );
        let Err(e) = CombatCase::from_ron_str("big.ron", &case) else { panic!("{v} was accepted") };
        prop_assert!(e.field == "attackers[0].strength" && e.message.contains("at most"), "{e}");
    }
}

/// The net_message fuzz target's seeds: one client message of each kind.
const MESSAGES: [&str; 8] = [
    include_str!("../fuzz/seeds/net_message/hello.json"),
    include_str!("../fuzz/seeds/net_message/register.json"),
    include_str!("../fuzz/seeds/net_message/create.json"),
    include_str!("../fuzz/seeds/net_message/join.json"),
    include_str!("../fuzz/seeds/net_message/watch.json"),
    include_str!("../fuzz/seeds/net_message/move.json"),
    include_str!("../fuzz/seeds/net_message/attack.json"),
    include_str!("../fuzz/seeds/net_message/options.json"),
];

#[test]
fn every_message_seed_is_a_message() {
    use hexfront::net::protocol::ClientMessage;
    let read = MESSAGES.iter().filter(|m| ClientMessage::parse(m).is_ok()).count();
    assert_eq!(read, MESSAGES.len());
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(2000) })]

    #[test]
    fn edited_client_messages_never_panic_the_decoder_and_read_back(
        seed in 0..MESSAGES.len(),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        use hexfront::net::protocol::ClientMessage;
        let text = mutate(MESSAGES[seed], &edits);
        match ClientMessage::parse(&text) {
            Ok(message) => {
                let again = serde_json::to_string(&message).unwrap();
                prop_assert_eq!(ClientMessage::parse(&again), Ok(message));
            }
            Err(e) => prop_assert!(e.starts_with("not a message") || e.contains("limit"), "{e}"),
        }
    }
}
