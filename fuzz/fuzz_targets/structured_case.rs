//! Structure-aware combat cases (`generators.rs`) → the real loader → exact odds and a resolution.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../generators.rs"]
mod generators;
#[path = "../play.rs"]
mod hexfront_fuzz_play;

fuzz_target!(|case: generators::Case| {
    let Some(text) = generators::case_text(&case) else { return };
    if let Ok(c) = hexfront::scenario::CombatCase::from_ron_str("structured.ron", &text) {
        hexfront_fuzz_play::fight(&c, 11);
    }
});
