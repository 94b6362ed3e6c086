//! The sixth combat system, a table written in data alone: the shipped classic odds CRT and a
//! second table that lives only in a test fixture (`tests/rulesets/skirmish-differential.ron`,
//! no Rust of its own). Worked examples (situation, dice, result) for both, their exact odds, the
//! defender's answers, the panel's landed cell, and the located errors of broken tables.

mod common;

use common::*;
use hexfront::combat::answers::odds_with_answers;
use hexfront::combat::{CombatRules, Effect, RetreatOrSteps, Situation, assess, odds};
use hexfront::rules::terrain::EdgeFeature;
use hexfront::rules::units::{UnitClass, UnitStatus};
use hexfront::scenario::{CombatCase, Ruleset};
use std::path::Path;

fn fixture() -> Ruleset {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/skirmish-differential.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    Ruleset::from_ron_str(&path, &text).unwrap_or_else(|e| panic!("{e}"))
}

/// The exact probability of the results printed `code`.
fn chance_of(rules: &CombatRules, s: &Situation, code: &str) -> f64 {
    let o = odds(rules, s).unwrap_or_else(|e| panic!("refused: {e}"));
    let total: f64 = o.outcomes.iter().map(|x| x.probability).sum();
    assert!((total - 1.0).abs() < 1e-12, "the outcomes sum to 1, not {total}");
    o.outcomes
        .iter()
        .filter(|x| x.result.code.to_string() == code)
        .map(|x| x.probability)
        .sum()
}

#[test]
fn classic_dr_is_two_hexes_or_a_step_and_the_defender_chooses() {
    let rs = ruleset("classic-odds");
    let clear = terrain(&rs, "clear");
    // 10 : 3 is 3:1; armor attacking into clear terrain shifts one column: 4:1.
    let mut s = situation(
        clear,
        vec![
            track("pz", UnitClass::Armor, &[6, 3]),
            track("inf", UnitClass::Infantry, &[4, 2]),
        ],
        vec![track("d", UnitClass::Infantry, &[3, 1])],
    );
    let a = assess(&rs.combat, &s).unwrap();
    let cell = a.cell.clone().unwrap();
    assert_eq!((cell.base_column.as_str(), cell.column.as_str()), ("3:1", "4:1"));
    assert!(a.ratio.starts_with("10 : 3"), "{}", a.ratio);
    assert!(
        a.modifiers
            .iter()
            .any(|m| m.effect == Effect::ColumnShift(1) && m.source.contains("armor"))
    );
    // Roll 4 on 4:1 is DR: plainly, two hexes of retreat and the cell falls ...
    let (r, log, rolled) = resolve_with(&rs.combat, &s, &[4]);
    assert_eq!((r.code.to_string().as_str(), rolled), ("DR", 1));
    assert_eq!(
        (r.defender.steps_lost, r.defender.retreat.map(|d| d.cells)),
        (0, Some(2))
    );
    assert!(
        r.cell_taken && r.attacker.advance.is_some_and(|a| a.cells == 1),
        "{log:?}"
    );
    // ... or the defender's answer: a step instead, and it holds.
    s.choices.defender_retreat = RetreatOrSteps::Steps;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4]);
    assert_eq!(
        (r.defender.steps_lost, r.defender.retreat, r.cell_taken),
        (1, None, false)
    );
    // The 4:1 column reads AR, EX, DR, DR, DE, DE.
    s.choices.defender_retreat = RetreatOrSteps::Retreat;
    for (code, sixths) in [("AR", 1.0), ("EX", 1.0), ("DR", 2.0), ("DE", 2.0)] {
        assert!((chance_of(&rs.combat, &s, code) - sixths / 6.0).abs() < 1e-12, "{code}");
    }
    // The preview asks the defender only where its answer changes something: on DR.
    let o = odds_with_answers(&rs.combat, &s).unwrap();
    let asked: Vec<String> = o
        .outcomes
        .iter()
        .filter(|x| x.answers.len() == 2)
        .map(|x| x.result.code.to_string())
        .collect();
    assert_eq!(asked, ["DR"]);
    let dr = o.outcomes.iter().find(|x| x.answers.len() == 2).unwrap();
    let labels: Vec<&str> = dr.answers.iter().map(|a| a.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "retreat 2 hexes",
            "stay and lose the result's steps instead of retreating 2 hexes"
        ]
    );
}

#[test]
fn classic_exchange_costs_the_attacker_the_defenders_printed_factors() {
    let rs = ruleset("classic-odds");
    // 8 against 3 doubled in a town = 8 : 6, the 1:1 column; roll 5 is EX.
    let s = situation(
        terrain(&rs, "town"),
        vec![
            track("a0", UnitClass::Infantry, &[4, 2]),
            track("a1", UnitClass::Infantry, &[4, 2]),
        ],
        vec![track("d", UnitClass::Infantry, &[3, 1])],
    );
    let a = assess(&rs.combat, &s).unwrap();
    assert_eq!(
        (a.defense_total, a.cell.as_ref().unwrap().column.as_str()),
        (6.0, "1:1")
    );
    assert!(a.modifiers.iter().any(|m| m.effect == Effect::DefenseTimes(2)));
    let (r, _, _) = resolve_with(&rs.combat, &s, &[5]);
    assert_eq!(r.code.to_string(), "EX");
    assert!(r.defender_eliminated() && r.cell_taken);
    // The defender lost 3 factors; a step of each attacker (2 + 2) covers them.
    assert_eq!(r.attacker.steps_lost, 2);
    assert!(r.attacker.units.iter().all(|u| u.steps_lost == 1 && !u.eliminated));
}

#[test]
fn classic_ae_ar_and_the_refused_attack() {
    let rs = ruleset("classic-odds");
    // 3 : 3 on hills is 1:1 shifted to 1:2; roll 1 is AE.
    let s = situation(
        terrain(&rs, "hills"),
        vec![track("a", UnitClass::Infantry, &[3, 1])],
        vec![track("d", UnitClass::Infantry, &[3, 1])],
    );
    let (r, _, _) = resolve_with(&rs.combat, &s, &[1]);
    assert_eq!(r.code.to_string(), "AE");
    assert!(r.attacker.units[0].eliminated && !r.cell_taken);
    // 6 : 2 across a river is 3:1 shifted to 2:1; roll 2 is AR.
    let s = situation(
        terrain(&rs, "clear"),
        vec![track("a", UnitClass::Infantry, &[6, 3]).crossing(EdgeFeature::River)],
        vec![track("d", UnitClass::Infantry, &[2, 1])],
    );
    assert_eq!(assess(&rs.combat, &s).unwrap().cell.unwrap().column, "2:1");
    let (r, _, _) = resolve_with(&rs.combat, &s, &[2]);
    assert_eq!(
        (r.code.to_string().as_str(), r.attacker.retreat.map(|d| d.cells)),
        ("AR", Some(1))
    );
    // 2 : 5 is below 1:2.
    let s = situation(
        terrain(&rs, "clear"),
        vec![track("a", UnitClass::Infantry, &[2])],
        vec![track("d", UnitClass::Infantry, &[5])],
    );
    let e = assess(&rs.combat, &s).unwrap_err().0;
    assert!(e.contains("below the first column (1:2)"), "{e}");
}

#[test]
fn a_fixture_table_takes_factors_by_the_owners_cheapest_steps() {
    let rs = fixture();
    // 7 - 4 = +3: the +2 column; armor outside woods adds 1 to 2d6: 3 + 4 + 1 = 8, Df3.
    let s = situation(
        terrain(&rs, "clear"),
        vec![
            track("pz", UnitClass::Armor, &[5, 3]),
            track("inf", UnitClass::Infantry, &[2, 1]),
        ],
        vec![
            track("d1", UnitClass::Infantry, &[2, 1]),
            track("d2", UnitClass::Infantry, &[2, 1]),
        ],
    );
    let a = assess(&rs.combat, &s).unwrap();
    let cell = a.cell.clone().unwrap();
    assert_eq!(
        (a.ratio.as_str(), cell.column.as_str(), cell.die_modifier),
        ("7 - 4 = +3", "+2", 1)
    );
    let (r, _, rolled) = resolve_with(&rs.combat, &s, &[3, 4]);
    assert_eq!((r.code.to_string().as_str(), rolled), ("Df3", 2));
    // One factor a step: d1, d2 (more steps left), then d1's last.
    assert_eq!(r.defender.steps_lost, 3);
    assert!(r.defender.units[0].eliminated && !r.defender.units[1].eliminated);
    assert!(!r.cell_taken);
    // The panel's cell: total 8 is the eighth row (the table starts at 1), the +2 column.
    let rolls = hexfront::combat::Dice::scripted(&[3, 4]);
    let mut rolls = rolls;
    let _ = hexfront::combat::fight(&rs.combat, &s, &mut rolls).unwrap();
    assert_eq!(rs.combat.landed(Some(&cell), &rolls.rolls, &r.code), vec![(7, 3)]);
    // 2d6 + 1 reads rows 3..13 of the +2 column: Df3 only on 8 (a 7 on the dice), DE on 12-13.
    assert!((chance_of(&rs.combat, &s, "Df3") - 6.0 / 36.0).abs() < 1e-12);
    assert!((chance_of(&rs.combat, &s, "DE") - 3.0 / 36.0).abs() < 1e-12);
}

#[test]
fn a_fixture_table_reads_its_lowest_column_disorganizes_and_lets_the_attacker_choose() {
    let rs = fixture();
    // 1 - 9 = -8 reads the -4 column (below_lowest: ReadsLowest); woods take 2: 6 + 6 - 2 = 10, D1.
    let s = situation(
        terrain(&rs, "woods"),
        vec![track("a", UnitClass::Infantry, &[1])],
        vec![track("d", UnitClass::Infantry, &[9, 5])],
    );
    let (r, _, _) = resolve_with(&rs.combat, &s, &[6, 6]);
    assert_eq!((r.code.to_string().as_str(), r.defender.steps_lost), ("D1", 1));
    // 6 - 2 = +4 on hills shifts to +2; 4 + 5 = 9 is Dd: disorganized and two hexes back, the
    // attackers may follow two hexes.
    let s = situation(
        terrain(&rs, "hills"),
        vec![track("a", UnitClass::Infantry, &[6, 3])],
        vec![track("d", UnitClass::Infantry, &[2, 1])],
    );
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4, 5]);
    assert_eq!(r.code.to_string(), "Dd");
    assert!(r.defender.units[0].gained.has(UnitStatus::Disorganized));
    assert_eq!(r.defender.retreat.map(|d| d.cells), Some(2));
    assert!(r.cell_taken && r.attacker.advance.is_some_and(|a| a.cells == 2));
    // A disorganized unit may not attack under this table.
    let refused = situation(
        terrain(&rs, "clear"),
        vec![track("a", UnitClass::Infantry, &[6, 3]).status(UnitStatus::Disorganized)],
        vec![track("d", UnitClass::Infantry, &[2, 1])],
    );
    assert!(assess(&rs.combat, &refused).unwrap_err().0.contains("may not attack"));
    // 2 - 4 = -2; 2 + 3 = 5 is Ar: the attacker's choice of a hex back or a step.
    let mut s = situation(
        terrain(&rs, "clear"),
        vec![track("a", UnitClass::Infantry, &[2, 1])],
        vec![track("d", UnitClass::Infantry, &[4, 2])],
    );
    let (r, _, _) = resolve_with(&rs.combat, &s, &[2, 3]);
    assert_eq!(
        (r.attacker.steps_lost, r.attacker.retreat.map(|d| d.cells)),
        (0, Some(1))
    );
    s.choices.attacker_retreat = RetreatOrSteps::Steps;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[2, 3]);
    assert_eq!((r.attacker.steps_lost, r.attacker.retreat), (1, None));
    // The attacker's choice is an option of the contract; the defender has none here.
    let system = rs.combat.system();
    assert_eq!(
        system.attacker_options(),
        vec![hexfront::combat::AttackerOption::RetreatAsSteps]
    );
    assert_eq!(system.weighed_defenses().len(), 1);
}

#[test]
fn a_combat_case_names_the_fixture_ruleset_file() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/skirmish-differential-example.ron");
    let case = CombatCase::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(case.ruleset.raw.id, "skirmish-differential");
    let o = odds(&case.ruleset.combat, &case.situation).unwrap();
    assert!(o.outcomes.len() >= 4, "{} outcomes", o.outcomes.len());
}

/// The fixture's text with one change, loaded: the error it gives.
fn broken(from: &str, to: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/skirmish-differential.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from}");
    Ruleset::from_ron_str("broken.ron", &text.replacen(from, to, 1))
        .unwrap_err()
        .to_string()
}

#[test]
fn broken_tables_name_the_file_line_and_field() {
    let cases = [
        (
            "dice: \"2d6\"",
            "dice: \"2d8\"",
            "combat.dice",
            "not dice this table can roll",
        ),
        (
            "(roll: 7, results: [\"--\",",
            "(roll: 7, results: [\"??\",",
            "combat.rows[6].results[0]",
            "`??` is not a result",
        ),
        (
            "(roll: 13, results:",
            "(roll: 15, results:",
            "combat.rows[12].roll",
            "leaves a gap",
        ),
        ("(roll: 1, results:", "(roll: 3, results:", "combat.rows", "two rows"),
        (
            "(roll: 2, results: [\"A2\", \"A1d\", \"A1\", \"A1\", \"Ar\", \"--\"])",
            "(roll: 2, results: [\"A2\"])",
            "combat.rows[1].results",
            "has 1 results but the table has 6 columns",
        ),
        (
            "Differential([-4, -2, 0, 2, 4, 6])",
            "Differential([-4, -2, 0, 0, 4, 6])",
            "combat.columns[3]",
            "must be higher",
        ),
        (
            "Terrain([\"woods\"])], die: -2",
            "Terrain([\"forest\"])], die: -2",
            "combat.modifiers[0].when[0]",
            "unknown terrain `forest`",
        ),
        (
            "\"Dd\": [Disorganized(Defender), Retreat(Defender, 2)]",
            "\"Dd\": [Retreat(Defender, 0)]",
            "combat.results.Dd",
            "does nothing",
        ),
        (
            "\"Dd\": [Disorganized(Defender), Retreat(Defender, 2)]",
            "\"Dd\": [Retreat(Defender, 4000000000)]",
            "combat.results.Dd",
            "at most 10 hexes",
        ),
        (
            "\"D1\": [Steps(Defender, 1)]",
            "\"D1\": [Steps(Defender, 0)]",
            "combat.results.D1",
            "does nothing",
        ),
        (
            "Terrain([\"woods\"])], die: -2",
            "Terrain([\"woods\"])], die: 2000000000",
            "combat.modifiers[0].die",
            "out of range",
        ),
        (
            "defense_times: 2",
            "defense_times: 0",
            "combat.modifiers[2].defense_times",
            "runs 1 to 10",
        ),
        ("advance: 2,", "advance: 99,", "combat.advance", "at most 10 hexes"),
        (
            "(roll: 13, results:",
            "(roll: 100000, results:",
            "combat.rows[12].roll",
            "out of range",
        ),
    ];
    for (from, to, field, says) in cases {
        let e = broken(from, to);
        assert!(e.starts_with("broken.ron:"), "{e}");
        assert!(e.contains(field) && e.contains(says), "{field}: {e}");
    }
    assert_eq!(cases.len(), 14);
}

#[test]
fn the_rules_reference_reads_a_tables_codes_and_modifiers_from_its_data() {
    let rs = fixture();
    let help = rs.combat.system().options_help();
    let find = |name: &str| {
        help.iter()
            .find(|o| o.name == name)
            .unwrap_or_else(|| panic!("{name} in {:?}", help.iter().map(|o| &o.name).collect::<Vec<_>>()))
    };
    let woods = find("Modifier: defender in woods");
    assert_eq!(
        (woods.who.as_ref(), woods.text.as_ref()),
        ("the rules, when the defenders' cell is woods", "-2 to the roll")
    );
    let armor = find("Modifier: armor outside woods");
    assert_eq!(
        armor.who,
        "the rules, when an attacker is Armor and not (the defenders' cell is woods)"
    );
    assert_eq!(find("Modifier: defender in a town").text, "the defense times 2");
    assert_eq!(find("Modifier: defender on hills").text, "1 column toward the defender");
    assert_eq!(find("Result Df3").text, "the defender loses at least 3 factors");
    assert_eq!(find("Result --").text, "no effect");
    // One entry per code (11) and per modifier (6), the attacker's choice and losses first.
    assert_eq!(help.len(), 11 + 6 + 2);
    let classic = ruleset("classic-odds");
    let help = classic.combat.system().options_help();
    let dr = help.iter().find(|o| o.name == "Result DR").unwrap();
    assert_eq!(dr.text, "the defender's owner chooses: lose 1 step or retreat 2 hexes");
    assert_eq!(
        help.iter().filter(|o| o.name == "Steps or retreat").count(),
        1,
        "the defender's only"
    );
}
