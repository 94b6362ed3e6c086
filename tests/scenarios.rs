//! Every shipped scenario and ruleset validates; files round-trip; bad input gets an error that
//! names the file, line, column and field.

use hexfront::scenario::{LoadError, Ruleset, Scenario, default_scenario, to_ron, validate_file};
use std::path::{Path, PathBuf};

fn shipped_scenarios() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_shipped_scenario_validates_and_is_a_real_fight() {
    let files = shipped_scenarios();
    assert!(files.len() >= 5, "one scenario per ruleset: {files:?}");
    let mut rulesets = std::collections::BTreeSet::new();
    for f in files {
        let s = Scenario::load(&f).unwrap_or_else(|e| panic!("{e}"));
        rulesets.insert(s.raw.ruleset.clone());
        assert!(
            s.board.grid.width >= 20 && s.board.grid.height >= 15,
            "{}: map too small",
            f.display()
        );
        for side in 0..s.sides.len() {
            assert!(
                s.units.iter().filter(|u| u.side == side).count() >= 5,
                "{}: side {side} too thin",
                f.display()
            );
        }
        let terrains: std::collections::BTreeSet<_> = s.board.grid.cells().filter_map(|c| s.board.terrain(c)).collect();
        assert!(terrains.len() >= 4, "{}: varied terrain", f.display());
        let edges = s.board.edges();
        assert!(
            edges
                .iter()
                .any(|(_, f)| f.contains(hexfront::rules::terrain::EdgeFeature::Road)),
            "roads"
        );
        assert!(
            edges
                .iter()
                .any(|(_, f)| f.has_unbridged_water() || f.contains(hexfront::rules::terrain::EdgeFeature::Bridge)),
            "rivers"
        );
        assert!(!s.raw.setting.is_empty());
    }
    assert_eq!(
        rulesets.len(),
        hexfront::scenario::ruleset::BUILTIN.len(),
        "every ruleset has a starter scenario: {rulesets:?}"
    );
}

#[test]
fn rommel_is_played_on_squares() {
    let s = Scenario::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/sidi-bou-zid-1943.ron")).unwrap();
    assert!(matches!(
        s.board.grid.kind,
        hexfront::rules::grid::GridKind::Square { .. }
    ));
}

#[test]
fn the_embedded_default_scenario_loads() {
    let s = default_scenario().unwrap();
    assert_eq!(s.raw.ruleset, "killing-ground");
    assert!(s.units.len() > 10);
}

#[test]
fn validate_command_accepts_rulesets_and_scenarios() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for &(name, _) in hexfront::scenario::ruleset::BUILTIN {
        let msg = validate_file(&root.join(format!("assets/rulesets/{name}.ron"))).unwrap();
        assert!(msg.starts_with("ruleset"), "{msg}");
    }
    for f in shipped_scenarios() {
        assert!(validate_file(&f).unwrap().starts_with("scenario"));
    }
}

#[test]
fn scenarios_round_trip_through_ron() {
    for f in shipped_scenarios()
        .into_iter()
        .chain([Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corridor.ron")])
    {
        let first = Scenario::load(&f).unwrap();
        let text = to_ron(&first.raw).unwrap();
        let second = Scenario::from_ron_str(&f, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(first, second, "{}", f.display());
    }
}

#[test]
fn rulesets_label_their_choices() {
    for &(name, _) in hexfront::scenario::ruleset::BUILTIN {
        let r = Ruleset::builtin(name).unwrap().unwrap();
        assert_eq!(r.raw.id, name);
        assert!(!r.raw.notes.is_empty(), "{name} says what it authored");
    }
}

// ---- bad input ----

const GOOD: &str = include_str!("fixtures/corridor.ron");

fn broken(from: &str, to: &str) -> LoadError {
    assert!(GOOD.contains(from), "fixture lacks {from}");
    let text = GOOD.replacen(from, to, 1);
    Scenario::from_ron_str("broken.ron", &text).expect_err("must be refused")
}

/// 1-based line and column of the first `needle` after `after` in the text that `from`→`to` made.
fn pos_of(from: &str, to: &str, after: &str, needle: &str) -> (usize, usize) {
    let text = GOOD.replacen(from, to, 1);
    let start = text.find(after).unwrap();
    let at = start + text[start..].find(needle).unwrap();
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

fn assert_at(e: &LoadError, line: usize, col: usize, field: &str, words: &str) {
    let p = e.pos.expect("a position");
    assert_eq!((p.line, p.col), (line, col), "{e}");
    assert_eq!(e.field, field, "{e}");
    assert!(e.message.contains(words), "{e}");
    let shown = e.to_string();
    assert!(shown.starts_with(&format!("broken.ron:{line}:{col}")), "{shown}");
}

#[test]
fn syntax_error_names_line_and_column() {
    let e = broken(r#"rows: ["..ff.m......"],"#, r#"rows: ["..ff.m......",,],"#);
    let (line, _) = pos_of(
        r#"rows: ["..ff.m......"],"#,
        r#"rows: ["..ff.m......",,],"#,
        "rows",
        ",,",
    );
    assert_eq!(e.pos.unwrap().line, line, "{e}");
}

#[test]
fn unknown_field_is_named() {
    let from = r#"(id: "truck","#;
    let to = r#"(id: "truck", colour: "red","#;
    let e = broken(from, to);
    assert_eq!(e.field, "colour", "{e}");
    assert!(e.message.contains("colour"), "{e}");
    assert_eq!(e.pos.unwrap().line, pos_of(from, to, "truck", "colour").0);
}

#[test]
fn unit_off_the_map_is_located_at_its_cell() {
    let (from, to) = (
        r#"cell: "0801", strength: 1, movement: 2"#,
        r#"cell: "1301", strength: 1, movement: 2"#,
    );
    let e = broken(from, to);
    let (l, c) = pos_of(from, to, "\"truck\"", "cell");
    assert_at(&e, l, c, "units[5].cell", "off the 12×1 map");
}

#[test]
fn unknown_terrain_lists_the_known_ones() {
    let (from, to) = (r#"'m': "marsh""#, r#"'m': "bog""#);
    let e = broken(from, to);
    let (l, c) = pos_of(from, to, "legend", "'m'");
    assert_at(&e, l, c, "map.legend.m", "unknown terrain `bog`");
    assert!(e.message.contains("`marsh`"), "{e}");
}

#[test]
fn duplicate_unit_id_is_refused() {
    let (from, to) = (r#"(id: "b","#, r#"(id: "a","#);
    let e = broken(from, to);
    let (l, c) = pos_of(from, to, r#"cell: "0201", strength: 1, movement: 4),"#, "id");
    assert_at(&e, l, c, "units[3].id", "unit id `a` is used by an earlier unit");
}

#[test]
fn missing_ruleset_is_refused_with_the_list() {
    let (from, to) = (r#"ruleset: "killing-ground""#, r#"ruleset: "squad-leader""#);
    let e = broken(from, to);
    let (l, c) = pos_of(from, to, "Scenario(", "ruleset");
    assert_at(&e, l, c, "ruleset", "there is no ruleset `squad-leader`");
    assert!(e.message.contains("`rommel`"));
}

#[test]
fn row_of_the_wrong_width_is_refused() {
    let (from, to) = (r#"rows: ["..ff.m......"]"#, r#"rows: ["..ff.m....."]"#);
    let e = broken(from, to);
    let (l, c) = pos_of(from, to, "rows", "\"..ff");
    assert_at(&e, l, c, "map.rows[0]", "row 1 has 11 cells but the map is 12 wide");
}

#[test]
fn unit_in_prohibited_terrain_is_refused() {
    let (from, to) = (
        r#"class: Armor, size: Battalion, cell: "0101""#,
        r#"class: Armor, size: Battalion, cell: "0601""#,
    );
    let e = broken(from, to);
    assert_eq!(e.field, "units[1].cell");
    assert!(e.message.contains("Marsh") && e.message.contains("prohibited"), "{e}");
}

#[test]
fn road_between_cells_that_do_not_touch_is_refused() {
    let (from, to) = (r#"["0801", "0901", "1001", "1101"]"#, r#"["0801", "1001", "1101"]"#);
    let e = broken(from, to);
    assert_eq!(e.field, "map.roads[0][1]");
    assert!(e.message.contains("not adjacent"), "{e}");
}

#[test]
fn ruleset_errors_are_located_too() {
    let text = hexfront::scenario::ruleset::BUILTIN[0]
        .1
        .replacen("color: \"#cfd9a0\"", "color: \"green\"", 1);
    let e = Ruleset::from_ron_str("kg.ron", &text).unwrap_err();
    assert_eq!(e.field, "terrain[0].color");
    assert!(e.pos.is_some() && e.message.contains("#rrggbb"), "{e}");
}

#[test]
fn a_missing_file_is_an_error_not_a_panic() {
    let e = Scenario::load("no/such/file.ron").unwrap_err();
    assert!(
        e.to_string().starts_with("no/such/file.ron: cannot read the file"),
        "{e}"
    );
}

#[test]
fn validate_tells_rulesets_from_scenarios_by_their_top_level_struct() {
    let dir = std::env::temp_dir().join(format!("hexfront-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A scenario whose description mentions a ruleset field is still a scenario.
    let scenario = dir.join("s.ron");
    std::fs::write(
        &scenario,
        GOOD.replacen("Every step has one path", "combat_model talk", 1),
    )
    .unwrap();
    assert!(validate_file(&scenario).unwrap().starts_with("scenario"));
    let broken_ruleset = dir.join("r.ron");
    std::fs::write(&broken_ruleset, "// a comment\nRuleset(id: \"x\")").unwrap();
    let e = validate_file(&broken_ruleset).unwrap_err();
    assert!(e.message.contains("name") || e.message.contains("missing"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}
