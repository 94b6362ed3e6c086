//! Hostile and broken files, and crashes: every limit refuses with a located error; the inputs
//! fuzzing and spot checks found (an overflowing strength, a raw string full of brackets, a
//! repeated units list) are answered; saves survive a process killed at random while writing;
//! a panic writes an emergency save that loads.

mod common;

use hexfront::ai::random::random_order;
use hexfront::game::autosave::Autosave;
use hexfront::game::emergency::{EmergencySave, install_panic_hook};
use hexfront::game::execute::execute;
use hexfront::game::headless_app;
use hexfront::game::log::OrderLog;
use hexfront::game::save::{load_game, parse_game_str};
use hexfront::scenario::{CombatCase, Scenario};
use hexfront::source::limits;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const HEXFRONT: &str = env!("CARGO_BIN_EXE_hexfront");
const MORTAIN: &str = include_str!("../scenarios/mortain-1944.ron");

/// An empty folder of this test's own, removed when the test ends well.
fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("hexfront-hostile-{name}-{}", std::process::id()))
}

fn error_of<T>(result: Result<T, hexfront::source::LoadError>) -> String {
    match result {
        Ok(_) => panic!("the file must be refused"),
        Err(e) => e.to_string(),
    }
}

/// The units list of Mortain repeated `times` times, each copy's ids made unique (as in the
/// report: every cell far over the stacking limit, enemies sharing cells).
fn repeated_units(times: usize) -> String {
    let start = MORTAIN.find("units: [").unwrap() + "units: [".len();
    let end = start + MORTAIN[start..].find("\n    ],").unwrap();
    let block = &MORTAIN[start..end];
    let mut units = String::new();
    for k in 0..times {
        units.push_str(&block.replace("(id: \"", &format!("(id: \"c{k}-")));
    }
    format!("{}{units}{}", &MORTAIN[..start], &MORTAIN[end..])
}

#[test]
fn a_repeated_units_list_is_refused_at_the_first_overstacked_cell() {
    let text = repeated_units(50);
    let e = error_of(Scenario::from_ron_str("units.ron", &text));
    assert!(
        e.contains("field `units[") && e.contains("over the stacking limit") && e.contains("at most 3 units"),
        "{e}"
    );
    // Located: a line and column in the file, naming the cell.
    let located = e.split(": field").next().unwrap();
    assert!(
        located.starts_with("units.ron:") && located.matches(':').count() == 2,
        "{e}"
    );
}

#[test]
fn opposing_sides_may_not_share_a_cell_except_where_the_rules_contest_cells() {
    // Mortain: put an American unit on a German one.
    let first_de = MORTAIN.find(", side: \"german\"").unwrap();
    let de_cell_at = first_de + MORTAIN[first_de..].find("cell: \"").unwrap() + "cell: \"".len();
    let de_cell = &MORTAIN[de_cell_at..de_cell_at + 4];
    let first_us = MORTAIN.find(", side: \"us\"").unwrap();
    let us_cell_at = first_us + MORTAIN[first_us..].find("cell: \"").unwrap() + "cell: \"".len();
    let text = format!("{}{de_cell}{}", &MORTAIN[..us_cell_at], &MORTAIN[us_cell_at + 4..]);
    let e = error_of(Scenario::from_ron_str("shared.ron", &text));
    assert!(e.contains("opposing sides may not share a cell"), "{e}");
    // Rommel fights inside squares: the contested fixture is accepted.
    Scenario::load("tests/fixtures/contested.ron").unwrap();
}

#[test]
fn two_objectives_in_one_cell_are_refused() {
    let text = MORTAIN.replacen(
        "objectives: [",
        "objectives: [(cell: \"1411\", name: \"A\", points: 1), (cell: \"1411\", name: \"B\", points: 1),",
        1,
    );
    let e = error_of(Scenario::from_ron_str("objectives.ron", &text));
    assert!(
        e.contains("objectives[1].cell") && e.contains("one objective per cell"),
        "{e}"
    );
}

#[test]
fn an_overflowing_strength_is_refused_where_it_is_read() {
    let case = r#"CombatCase(ruleset: "small-general", terrain: "grass", attackers: [(id: "a", class: Infantry, size: Regiment, strength: 2147483647)], defenders: [(id: "d", class: Infantry, size: Regiment, strength: 0)])"#;
    let e = error_of(CombatCase::from_ron_str("overflow.ron", case));
    assert!(
        e.starts_with("overflow.ron:1:") && e.contains("attackers[0].strength") && e.contains("at most 999"),
        "{e}"
    );
    // At the limit the odds are certain the right way round: the attacker wins.
    let at_limit = case.replace("2147483647", &limits::MAX_VALUE.to_string());
    let c = CombatCase::from_ron_str("limit.ron", &at_limit).unwrap();
    let odds = hexfront::combat::odds(&c.ruleset.combat, &c.situation).unwrap();
    assert_eq!(odds.summary.p_attacker_eliminated, 0.0, "{:?}", odds.summary);
}

#[test]
fn brackets_in_a_raw_string_do_not_confuse_the_location_of_an_error() {
    let text = format!(
        "CombatCase(description: r#\"a \" {}\"#,\n  ruleset: \"nope\", terrain: \"grass\", attackers: [], defenders: [])",
        "(".repeat(19_000)
    );
    let e = error_of(CombatCase::from_ron_str("raw.ron", &text));
    assert!(
        e.starts_with("raw.ron:2:3: field `ruleset`: unknown ruleset `nope`"),
        "{e}"
    );
}

#[test]
fn encoding_problems_are_named_and_located() {
    let dir = scratch("encoding");
    let case = std::fs::read_to_string("tests/cases/small-general-st-vith.ron").unwrap();
    // A byte-order mark is skipped.
    let bom = dir.join("bom.ron");
    std::fs::write(&bom, format!("\u{feff}{case}")).unwrap();
    CombatCase::load(&bom).unwrap();
    // A byte that is not UTF-8: its offset, line and column.
    let bad = dir.join("bad.ron");
    let mut bytes = case.as_bytes().to_vec();
    let at = case.find("forest").unwrap();
    bytes[at] = 0xFF;
    std::fs::write(&bad, &bytes).unwrap();
    let e = error_of(CombatCase::load(&bad));
    let line = case[..at].matches('\n').count() + 1;
    assert!(
        e.contains(&format!(":{line}:")) && e.contains(&format!("byte 0xFF at byte offset {at}")),
        "{e}"
    );
    // A number out of range names its field.
    let big = case.replacen("attack: 6,", "attack: 99999999999,", 1);
    let e = error_of(CombatCase::from_ron_str("big.ron", &big));
    assert!(
        e.contains("field `attackers[0].attack`") && e.contains("out of range"),
        "{e}"
    );
    // Nesting past the limit, where the format allows any (a value of any shape).
    let nested = format!("{}1{}", "[".repeat(100), "]".repeat(100));
    let e = hexfront::source::Source::new("nested.ron", &nested)
        .parse::<ron::Value>()
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("nested.ron:1:") && e.contains("nested more than 64 deep"),
        "{e}"
    );
    // Brackets nested 100,000 deep: a located error, no stack overflow.
    let deep = format!("CombatCase(ruleset: {}{})", "[".repeat(100_000), "]".repeat(100_000));
    let e = error_of(CombatCase::from_ron_str("deep.ron", &deep));
    assert!(e.starts_with("deep.ron:1:") && e.contains("field `ruleset`"), "{e}");
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_it_is_read() {
    let dir = scratch("size");
    let path = dir.join("huge.ron");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(limits::MAX_FILE_BYTES + 1).unwrap();
    let e = error_of(Scenario::load(&path));
    assert!(
        e.contains(&format!("{} bytes; files over 32 MiB", limits::MAX_FILE_BYTES + 1)),
        "{e}"
    );
}

#[test]
fn too_many_things_are_refused_with_the_limit() {
    let long = "x".repeat(limits::MAX_NAME_CHARS + 1);
    let text = MORTAIN.replacen("name: \"Mortain", &format!("name: \"{long}"), 1);
    let e = error_of(Scenario::from_ron_str("long.ron", &text));
    assert!(e.contains("field `name`") && e.contains("at most 200"), "{e}");
    let at = MORTAIN.find("turns: ").unwrap() + "turns: ".len();
    let end = at + MORTAIN[at..].find(',').unwrap();
    let text = format!("{}100000{}", &MORTAIN[..at], &MORTAIN[end..]);
    let e = error_of(Scenario::from_ron_str("turns.ron", &text));
    assert!(e.contains("field `turns`") && e.contains("at most 999"), "{e}");
    let steps = format!("steps: [{}]", "(attack: 1, defense: 1), ".repeat(limits::MAX_STEPS + 1));
    let case = format!(
        "CombatCase(ruleset: \"next-war\", terrain: \"flat\", attackers: [(id: \"a\", class: Infantry, {steps})], defenders: [(id: \"d\", class: Infantry, strength: 1)])"
    );
    let e = error_of(CombatCase::from_ron_str("steps.ron", &case));
    assert!(e.contains("attackers[0].steps") && e.contains("at most 20"), "{e}");
    // An error quoting a huge value from the file is cut short.
    let case = format!(
        "CombatCase(ruleset: \"next-war\", terrain: \"{}\", attackers: [(id: \"a\", class: Infantry, strength: 1)], defenders: [(id: \"d\", class: Infantry, strength: 1)])",
        "w".repeat(1_000_000)
    );
    let e = error_of(CombatCase::from_ron_str("terrain.ron", &case));
    assert!(
        e.contains("field `terrain`") && e.contains("(cut: ") && e.len() < 1_200,
        "{}",
        &e[..200]
    );
}

#[test]
fn a_long_scenario_name_still_saves_and_a_failed_write_leaves_nothing_behind() {
    let dir = scratch("names");
    let name = hexfront::storage::slug(&"Operation ".repeat(30));
    assert!(name.chars().count() <= limits::MAX_SAVE_NAME_CHARS, "{name}");
    assert_eq!(
        hexfront::storage::slug("Mortain: Operation Lüttich"),
        "mortain-operation-lüttich"
    );
    assert_ne!(hexfront::storage::slug("Москва"), hexfront::storage::slug("Ленинград"));
    let path = dir.join(format!("autosave-{name}.ron"));
    hexfront::storage::write_atomic(&path, "one").unwrap();
    hexfront::storage::write_atomic(&path, "two").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
    assert_eq!(
        std::fs::read_to_string(hexfront::storage::backup_of(&path)).unwrap(),
        "one"
    );
    // A folder where the file should go: the write fails, and no temporary file is left.
    let blocked = dir.join("blocked.ron");
    std::fs::create_dir_all(blocked.join("inside")).unwrap();
    assert!(hexfront::storage::write_atomic(&blocked, "three").is_err());
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Whether `path` holds a complete, valid save whose summary matches its log.
fn complete_save(path: &Path, full: bool) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let game = if full {
        load_game(path, 1).map_err(|e| e.to_string())?
    } else {
        parse_game_str(path, &text, 1).map_err(|e| e.to_string())?
    };
    let n = game.log.len();
    if game.summary != format!("{n} orders") {
        return Err(format!("summary `{}` but {n} orders", game.summary));
    }
    Ok(n)
}

#[test]
fn saves_survive_a_process_killed_at_random_points_while_writing() {
    use std::io::BufRead;
    let dir = scratch("kill");
    let target = dir.join("game.ron");
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let (mut killed_writing, mut mid_game) = (0, 0);
    for round in 0..100 {
        let mut child = Command::new(HEXFRONT)
            .args(["rewrite-saves", "tests/fixtures/smolensk-game.ron"])
            .arg(&target)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Wait until it says it is writing (its first save is done), then kill it a random moment
        // later, in the middle of later writes.
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert_eq!(first.trim(), "writing", "round {round}");
        std::thread::sleep(Duration::from_micros(rng.random_range(0..20_000)));
        if child.try_wait().unwrap().is_none() {
            killed_writing += 1;
        }
        child.kill().unwrap();
        child.wait().unwrap();
        // Every 10th round replays the whole log as well.
        let n = complete_save(&target, round % 10 == 0).unwrap_or_else(|e| panic!("round {round}: {e}"));
        if n > 0 {
            mid_game += 1;
        }
        let bak = hexfront::storage::backup_of(&target);
        if bak.exists() {
            complete_save(&bak, false).unwrap_or_else(|e| panic!("round {round}, backup: {e}"));
        }
    }
    assert_eq!(killed_writing, 100, "every child was killed while it was still writing");
    // Kills that landed between a temporary file's creation and its rename leave it behind.
    let mid_write = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        })
        .count();
    eprintln!(
        "100 kills: {mid_write} in the middle of writing a file, {mid_game} found a save part-way through the log"
    );
    assert!(
        mid_game > 50,
        "most kills found a save part-way through the log: {mid_game}"
    );
}

#[test]
#[ignore = "the child of emergency_save_is_written_when_the_game_panics"]
fn emergency_child() {
    let scenario = Scenario::from_ron_str("mortain.ron", MORTAIN).unwrap();
    let mut app = headless_app(&scenario, 5);
    let dir = std::env::var("HEXFRONT_DATA_DIR").unwrap();
    app.insert_resource(EmergencySave)
        .insert_resource(Autosave::new(Path::new(&dir).join("autosave.ron")));
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..30 {
        let Some(order) = random_order(app.world_mut(), &mut rng) else {
            break;
        };
        execute(app.world_mut(), order).unwrap();
    }
    app.update();
    println!("orders: {}", app.world().resource::<OrderLog>().entries.len());
    install_panic_hook();
    panic!("a bug in the middle of a game");
}

#[test]
fn emergency_save_is_written_when_the_game_panics() {
    let dir = scratch("emergency");
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "emergency_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("HEXFRONT_DATA_DIR", &*dir)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(!out.status.success(), "the child panicked: {stdout}{stderr}");
    let orders: usize = stdout
        .lines()
        .find_map(|l| l.split("orders: ").nth(1))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{stdout}{stderr}"));
    let path = dir.join("saves/emergency-mortain-operation-lüttich.ron");
    assert!(
        stderr.contains("Your game was saved to") && stderr.contains(&path.display().to_string()),
        "{stderr}"
    );
    let game = load_game(&path, 1).unwrap();
    assert!(orders > 0 && game.log.len() == orders, "{} of {orders}", game.log.len());
    let notice = std::fs::read_to_string(dir.join("crash-notice.txt")).unwrap();
    assert!(notice.contains("a bug in the middle of a game"), "{notice}");
}
