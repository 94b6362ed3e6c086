//! Scenario text → parse → validate → spawn headless, then a few random legal orders.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(scenario) = hexfront::scenario::Scenario::from_ron_str("fuzz.ron", text) {
        hexfront_fuzz_play::play(&scenario, data.len() as u64, 20);
    }
});

#[path = "../play.rs"]
mod hexfront_fuzz_play;
