//! Structure-aware scenarios (`generators.rs`) → the real loader → spawned headless and played for
//! up to 60 random legal orders, each of which must be carried out.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../generators.rs"]
mod generators;
#[path = "../play.rs"]
mod hexfront_fuzz_play;

fuzz_target!(|g: generators::Game| {
    let Some(text) = generators::game_text(&g) else { return };
    if let Ok(scenario) = hexfront::scenario::Scenario::from_ron_str("structured.ron", &text) {
        hexfront_fuzz_play::play(&scenario, g.seed, 60);
    }
});
