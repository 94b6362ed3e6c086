//! Saved game / turn file text → load (parse, validate, replay every entry and check it).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = hexfront::game::save::load_game_str("fuzz.ron", text, 1);
});
