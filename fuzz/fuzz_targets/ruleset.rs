//! Ruleset text → parse → validate.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = hexfront::scenario::Ruleset::from_ron_str("fuzz.ron", text);
});
