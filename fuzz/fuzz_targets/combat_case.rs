//! Combat case text → parse → validate → exact odds and a resolution with a fixed seed.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(case) = hexfront::scenario::CombatCase::from_ron_str("fuzz.ron", text) {
        hexfront_fuzz_play::fight(&case, 7);
    }
});

#[path = "../play.rs"]
mod hexfront_fuzz_play;
