//! The fuzz targets' properties (`fuzz/`), run as proptests in `cargo test`: shipped files with
//! random byte edits never make a loader panic and every error points inside the file; the
//! fuzzers' structure-aware combat cases (any numbers) are refused past the limits and, within
//! them, give odds that sum to one and resolve without overflow; their scenarios load, spawn and
//! play random legal orders, every one carried out; the source map answers any text. Each test
//! counts the cases that reached each outcome and fails when an outcome it exists to check was
//! reached too seldom (a generator that stopped producing playable games fails here).

use arbitrary::{Arbitrary, Unstructured};
use hexfront::scenario::{CombatCase, Ruleset, Scenario};
use hexfront::source::LoadError;
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::cell::RefCell;
use std::collections::BTreeMap;

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

/// Runs `cases` cases of `strategy` through `body` (a fixed seed, so every run checks the same
/// cases and the counts below hold) and counts the outcomes `body` names for each case.
fn tally<S: Strategy>(
    cases: u32,
    strategy: S,
    body: impl Fn(S::Value) -> Result<Vec<&'static str>, TestCaseError>,
) -> BTreeMap<&'static str, usize> {
    let config = ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases)
    };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let counts = RefCell::new(BTreeMap::new());
    let outcome = runner.run(&strategy, |value| {
        for label in body(value)? {
            *counts.borrow_mut().entry(label).or_insert(0) += 1;
        }
        Ok(())
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
    let counts = counts.into_inner();
    println!("{cases} cases: {counts:?}");
    counts
}

/// A structure-aware generator's value from `bytes` and the file text it writes, or which of the
/// two could not be made.
fn generated<'a, T: Arbitrary<'a>>(
    bytes: &'a [u8],
    text: impl Fn(&T) -> Option<String>,
) -> Result<(T, String), &'static str> {
    let value = T::arbitrary(&mut Unstructured::new(bytes)).map_err(|_| "bytes too few for a value")?;
    let written = text(&value).ok_or("no text written")?;
    Ok((value, written))
}

fn at_least(counts: &BTreeMap<&str, usize>, label: &str, n: usize) {
    let got = counts.get(label).copied().unwrap_or(0);
    assert!(got >= n, "`{label}` in {got} cases, expected at least {n}: {counts:?}");
}

#[test]
fn edited_shipped_files_never_make_a_loader_panic() {
    let counts = tally(
        300,
        (0..SEEDS.len(), prop::collection::vec(edit(), 1..8)),
        |(seed, edits)| {
            let text = mutate(SEEDS[seed], &edits);
            let mut seen = Vec::new();
            let mut loaded = false;
            match Scenario::from_ron_str("edited.ron", &text) {
                Ok(_) => loaded = true,
                Err(e) => prop_assert!(inside(&text, &e), "{e}"),
            }
            match Ruleset::from_ron_str("edited.ron", &text) {
                Ok(_) => loaded = true,
                Err(e) => prop_assert!(inside(&text, &e), "{e}"),
            }
            match CombatCase::from_ron_str("edited.ron", &text) {
                Ok(case) => {
                    loaded = true;
                    if play::fight(&case, 3) {
                        seen.push("a case fought");
                    }
                }
                Err(e) => prop_assert!(inside(&text, &e), "{e}"),
            }
            seen.push(if loaded {
                "still loads"
            } else {
                "refused, located inside"
            });
            Ok(seen)
        },
    );
    at_least(&counts, "refused, located inside", 150);
    at_least(&counts, "still loads", 10);
    at_least(&counts, "a case fought", 3);
}

#[test]
fn structured_combat_cases_are_refused_past_the_limits_or_fought_exactly() {
    let counts = tally(300, prop::collection::vec(any::<u8>(), 64..1024), |bytes| {
        let (_, text) = match generated(&bytes, generators::case_text) {
            Ok(made) => made,
            Err(why) => return Ok(vec![why]),
        };
        Ok(vec![match CombatCase::from_ron_str("structured.ron", &text) {
            Ok(c) if play::fight(&c, 5) => "fought",
            Ok(_) => "loaded, combat refused by the rules",
            Err(e) => {
                prop_assert!(inside(&text, &e) && !e.message.is_empty(), "{e}");
                "refused, located inside"
            }
        }])
    });
    at_least(&counts, "fought", 50);
    at_least(&counts, "refused, located inside", 10);
}

#[test]
fn the_source_map_answers_any_text() {
    use hexfront::source::source_map::{Pos, field_at, locate, pos_of_offset};
    let noise = "([()\\[\\]{},:\"'#rb/*\\\\\n a-z0-9]|r#\"|/\\*|\\*/){0,300}";
    let name = "[a-z]{1,6}";
    // Before the field a little noise (a lot would nearly always open a string or a comment).
    let short = noise.replace("{0,300}", "{0,8}");
    let strategy = (
        short.as_str(),
        name,
        prop::option::of(name),
        noise,
        1usize..6,
        1usize..80,
    );
    let counts = tally(256, strategy, |(before, outer, inner, after, line, col)| {
        // A field written into the noise (nested when the path has two parts): found unless the
        // noise before it opens a string, a comment or an unclosed bracket.
        let value = inner.as_ref().map_or("1".to_string(), |n| format!("({n}: 1)"));
        let text = format!("({before}{outer}: {value}, {after})");
        let path = inner.as_ref().map_or(outer.clone(), |n| format!("{outer}.{n}"));
        let located = locate(&text, &path);
        if let Some(p) = located {
            let at = LoadError {
                file: "t".into(),
                pos: Some(p),
                field: String::new(),
                message: String::new(),
            };
            prop_assert!(inside(&text, &at), "{p:?}");
        }
        let _ = field_at(&text, Pos { line, col });
        // Where the path's last name was written (`locate` falls back to a parent otherwise).
        let outer_at = 1 + before.len();
        let field_at_offset = match &inner {
            None => outer_at,
            Some(_) => outer_at + outer.len() + ": (".len(),
        };
        let expected = pos_of_offset(&text, field_at_offset);
        Ok(vec![match located {
            Some(p) if p == expected => "the field located where written",
            Some(_) => "a parent located",
            None => "no such field",
        }])
    });
    at_least(&counts, "the field located where written", 25);
    at_least(&counts, "no such field", 25);
}

#[test]
fn structured_scenarios_load_spawn_and_play_random_legal_orders() {
    let orders = std::cell::Cell::new(0);
    let counts = tally(48, prop::collection::vec(any::<u8>(), 128..1024), |bytes| {
        let (game, text) = match generated(&bytes, generators::game_text) {
            Ok(made) => made,
            Err(why) => return Ok(vec![why]),
        };
        Ok(vec![match Scenario::from_ron_str("structured.ron", &text) {
            Ok(scenario) => {
                orders.set(orders.get() + play::play(&scenario, game.seed, 30));
                "played"
            }
            Err(e) => {
                prop_assert!(inside(&text, &e), "{e}");
                "refused, located inside"
            }
        }])
    });
    println!("{} legal orders carried out", orders.get());
    at_least(&counts, "played", 10);
    assert!(orders.get() >= 100, "only {} orders carried out", orders.get());
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(48) })]

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

#[test]
fn edited_client_messages_never_panic_the_decoder_and_read_back() {
    use hexfront::net::protocol::ClientMessage;
    let counts = tally(
        2000,
        (0..MESSAGES.len(), prop::collection::vec(edit(), 1..6)),
        |(seed, edits)| {
            let text = mutate(MESSAGES[seed], &edits);
            Ok(vec![match ClientMessage::parse(&text) {
                Ok(message) => {
                    let again = serde_json::to_string(&message).unwrap();
                    prop_assert_eq!(ClientMessage::parse(&again), Ok(message));
                    "read and read back"
                }
                Err(e) => {
                    prop_assert!(e.starts_with("not a message") || e.contains("limit"), "{e}");
                    "refused"
                }
            }])
        },
    );
    at_least(&counts, "refused", 1000);
    at_least(&counts, "read and read back", 20);
}
