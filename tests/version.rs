//! Which Hexfront wrote a file: `hexfront --version` names the version, commit and target, every
//! save records the same, and a save from a newer format says which Hexfront wrote it.

use hexfront::game::save::{self, SAVE_FORMAT, SavedGame};
use std::process::Command;

const GAME: &str = "tests/fixtures/smolensk-game.ron";

/// The committed game loaded, replayed and saved again by this build.
fn committed_game_saved_again() -> SavedGame {
    let loaded = save::load_game(GAME.as_ref(), 1).expect("the committed game loads");
    let app = save::replay_app(&loaded, None).expect("replays");
    save::saved_game(app.world())
}

#[test]
fn version_names_the_version_commit_and_target() {
    let out = Command::new(env!("CARGO_BIN_EXE_hexfront"))
        .arg("--version")
        .output()
        .expect("runs");
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).expect("UTF-8");
    assert_eq!(printed.trim(), format!("hexfront {}", hexfront::version::LONG));
    let inside = printed
        .trim()
        .strip_prefix(&format!("hexfront {} (", env!("CARGO_PKG_VERSION")))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("`{printed}` is not `hexfront VERSION (COMMIT, TARGET)`"));
    let (commit, target) = inside.split_once(", ").expect("commit, target");
    assert!(commit == "unknown commit" || commit.len() >= 9, "commit `{commit}`");
    assert!(target.contains(std::env::consts::ARCH), "target `{target}`");
}

#[test]
fn a_save_records_the_hexfront_that_wrote_it() {
    let saved = committed_game_saved_again();
    assert_eq!(saved.written_by, format!("Hexfront {}", hexfront::version::LONG));
    let text = save::to_text(&saved).expect("serializes");
    assert!(text.contains(&format!("written_by: \"Hexfront {}\"", hexfront::version::LONG)));
}

#[test]
fn a_save_of_another_format_names_the_hexfront_that_wrote_it() {
    let text = std::fs::read_to_string(GAME).expect("fixture");
    let mut saved: SavedGame = hexfront::source::Source::new(GAME, &text).parse().expect("parses");
    saved.format = SAVE_FORMAT + 1;
    saved.written_by = "Hexfront 9.0.0 (abcdef012 2030-01-01, x86_64-pc-windows-msvc)".into();
    let newer = save::to_text(&saved).expect("serializes");
    let Err(err) = save::load_game_str("newer.ron", &newer, 1) else {
        panic!("a save of a newer format loaded");
    };
    let err = err.to_string();
    assert!(err.contains("newer.ron:"), "{err}");
    assert!(err.contains(&format!("save format {}", SAVE_FORMAT + 1)), "{err}");
    assert!(err.contains("written by Hexfront 9.0.0 (abcdef012"), "{err}");
    assert!(err.contains(hexfront::version::LONG), "{err}");
}

/// The scenario hash is taken over the RON text `to_ron` writes: with ron's Windows default of
/// `\r\n` a game saved on Linux failed its hash on Windows (found by packaging/windows.sh under
/// Wine). Every line ends in `\n` alone, on every OS, and the committed game's hash holds.
#[test]
fn saves_are_written_the_same_on_every_os() {
    let saved = committed_game_saved_again();
    let text = save::to_text(&saved).expect("serializes");
    assert!(!text.contains('\r'), "a save holds a carriage return");
    assert!(!hexfront::scenario::to_ron(&saved.scenario).expect("ron").contains('\r'));
    let recorded = std::fs::read_to_string(GAME).expect("fixture");
    assert!(recorded.contains(&format!("scenario_hash: \"{}\"", saved.scenario_hash)));
}
