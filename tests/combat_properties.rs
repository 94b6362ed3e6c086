//! Properties of every combat system over random situations and the example cases: the preview's
//! probabilities sum to exactly 1, forced dice reproduce the preview's branch, no unit loses more
//! steps than it has, losses match the table's demand, and seeded play agrees with the preview.
//! Also the combat lab on the command line and the errors of bad case files.

mod common;

use common::*;
use hexfront::combat::odds::{Fraction, OutcomeOdds, enumerate, enumerate_every_face};
use hexfront::combat::{
    Choices, City, CombatResult, CombatRules, Combatant, Dice, ExtraEffect, ExtraModifier, RetreatOrSteps, Situation,
    Tactic, Weather, assess, fight, odds, resolve,
};
use hexfront::rules::terrain::{EdgeFeature, TerrainId};
use hexfront::rules::units::{StepTrack, StepValues, UnitClass, UnitSize, UnitStatus, UnitTrait};
use hexfront::scenario::{CombatCase, Ruleset};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::process::Command;

const CASES: [&str; 7] = [
    "tests/cases/killing-ground-bocage.ron",
    "tests/cases/rommel-mountain-example.ron",
    "tests/cases/war-against-russia-smolensk.ron",
    "tests/cases/next-war-chorwon.ron",
    "tests/cases/small-general-st-vith.ron",
    "tests/cases/classic-odds-sedan.ron",
    "tests/cases/skirmish-differential-example.ron",
];

/// Checks one situation; returns false when the rules refuse it.
fn check(rules: &CombatRules, s: &Situation) -> bool {
    let Ok(a) = assess(rules, s) else { return false };
    let outcomes = enumerate(rules, s, &a, &s.choices);
    let exact = outcomes.iter().fold(Fraction::ZERO, |acc, o| acc.plus(o.exact));
    assert_eq!(exact, Fraction::ONE, "{s:?}");
    let sum: f64 = outcomes.iter().map(|o| o.probability).sum();
    assert!((sum - 1.0).abs() < 1e-12, "{sum}");
    // The faces the rules group (a column bonus, pass/fail, a hit count) give the same results
    // as branching on every face.
    let every = enumerate_every_face(rules, s, &a, &s.choices);
    assert_eq!(every.len(), outcomes.len(), "{s:?}");
    for o in &every {
        let g = outcomes
            .iter()
            .find(|x| x.result == o.result)
            .expect("the same results");
        assert_eq!(g.exact, o.exact, "{:?}", o.result.code);
    }
    for o in &outcomes {
        let mut dice = Dice::scripted(&o.example_dice);
        let (replayed, _) = resolve(rules, s, &a, &s.choices, &mut dice).expect("the branch's dice suffice");
        assert_eq!(replayed, o.result, "dice {:?} replay their branch", o.example_dice);
        assert_eq!(dice.rolls.len(), o.example_dice.len());
        for (units, side) in [(&s.attackers, &o.result.attacker), (&s.defenders, &o.result.defender)] {
            steps_are_sane(units, side);
        }
        table_demand_is_met(rules, s, &a, o);
    }
    true
}

fn steps_are_sane(units: &[Combatant], side: &hexfront::combat::SideResult) {
    assert_eq!(units.len(), side.units.len());
    let mut total = 0;
    for (u, r) in units.iter().zip(&side.units) {
        let have = u.steps.remaining() as u32;
        assert!(r.steps_lost <= have, "{} lost {} of {have}", u.id, r.steps_lost);
        assert_eq!(
            r.eliminated,
            r.steps_lost == have,
            "{}: eliminated exactly when no step is left",
            u.id
        );
        total += r.steps_lost;
    }
    assert_eq!(total, side.steps_lost);
}

/// Steps lost equal the table's demand, or what the side has (Next War's reductions and Killing
/// Ground's attritional loss allowed for).
fn table_demand_is_met(rules: &CombatRules, s: &Situation, a: &hexfront::combat::Assessment, o: &OutcomeOdds) {
    let avail = |units: &[Combatant]| units.iter().map(|u| u.steps.remaining() as u32).sum::<u32>();
    let cell = a.cell.as_ref();
    match rules {
        CombatRules::NextWar(r) => {
            let c = cell.unwrap();
            let roll = (i32::from(o.example_dice[0]) + c.die_modifier).clamp(0, 9) as u8;
            let (entry, _) = r.crt.get(roll, c.column_index);
            let (da, dd) = (avail(&s.attackers), avail(&s.defenders));
            let a_lost = o.result.attacker.steps_lost;
            let d_lost = o.result.defender.steps_lost;
            assert!(
                a_lost == entry.attacker.min(da) || a_lost + 1 == entry.attacker.min(da),
                "{entry:?}"
            );
            assert!(
                d_lost == entry.defender.min(dd) || d_lost + 1 == entry.defender.min(dd),
                "{entry:?}"
            );
        }
        CombatRules::KillingGround(r) => {
            let c = cell.unwrap();
            let ae = s.attack.accelerated_effort.is_some();
            if ae {
                return; // the effort's die moves the column; covered by the examples
            }
            let (entry, _) = r.crt.get(o.example_dice[0], c.column_index);
            let conv = |choice: RetreatOrSteps, n: u32| match choice {
                RetreatOrSteps::Retreat => 0,
                RetreatOrSteps::Steps => n,
                RetreatOrSteps::Mix(k) => k.min(n),
            };
            let dd = entry.defender.steps + conv(s.choices.defender_retreat, entry.defender.retreat);
            let da = entry.attacker.steps + conv(s.choices.attacker_retreat, entry.attacker.retreat);
            let d_lost = o.result.defender.steps_lost;
            let a_lost = o.result.attacker.steps_lost;
            let dd = dd.min(avail(&s.defenders));
            let da = da.min(avail(&s.attackers));
            assert!(
                d_lost == dd || (d_lost == dd + 1 && d_lost <= avail(&s.defenders)),
                "{entry:?} {d_lost}"
            );
            assert!(
                a_lost == da || (a_lost == da + 1 && a_lost <= avail(&s.attackers)),
                "{entry:?} {a_lost}"
            );
        }
        CombatRules::DataTable(r) => {
            // The dice the enumerator found read the row their total names; each side loses at
            // least the steps the code demands (or all it has).
            let c = cell.unwrap();
            let total = o.example_dice.iter().map(|&f| i32::from(f)).sum::<i32>() + c.die_modifier;
            let code = &r.rows[r.row(total)][c.column_index];
            assert_eq!(o.result.code.to_string(), code.to_string(), "dice {:?}", o.example_dice);
            for d in &r.results[code] {
                if let hexfront::combat::data_table::Does::Steps(role, n) = *d {
                    let (units, side) = match role {
                        hexfront::combat::Role::Attacker => (&s.attackers, &o.result.attacker),
                        hexfront::combat::Role::Defender => (&s.defenders, &o.result.defender),
                    };
                    assert!(side.steps_lost >= n.min(avail(units)), "{code}: {d:?}");
                }
            }
        }
        _ => {}
    }
}

fn pick<T: Copy>(rng: &mut ChaCha8Rng, items: &[T]) -> T {
    items[rng.random_range(0..items.len())]
}

fn random_track(rng: &mut ChaCha8Rng, max_steps: usize, max_value: u32) -> StepTrack {
    let n = rng.random_range(1..=max_steps);
    let mut v = rng.random_range(1..=max_value);
    let mut values = Vec::new();
    for _ in 0..n {
        let d = rng.random_range(0..=v);
        values.push(StepValues {
            attack: v,
            defense: d.max(1),
        });
        v = (v / 2).max(1);
    }
    let lost = rng.random_range(0..n);
    StepTrack {
        values,
        lost,
        kind: hexfront::rules::units::StepKind::Printed,
    }
}

const CLASSES: [UnitClass; 6] = [
    UnitClass::Infantry,
    UnitClass::Armor,
    UnitClass::Mechanized,
    UnitClass::Engineer,
    UnitClass::Recon,
    UnitClass::Artillery,
];

fn random_unit(rng: &mut ChaCha8Rng, id: String, max_steps: usize, max_value: u32) -> Combatant {
    let class = pick(rng, &CLASSES);
    let mut u = unit(&id, class, 1, 1);
    u.steps = random_track(rng, max_steps, max_value);
    u.size = pick(
        rng,
        &[
            UnitSize::Company,
            UnitSize::Battalion,
            UnitSize::Regiment,
            UnitSize::Division,
            UnitSize::Corps,
        ],
    );
    if rng.random_bool(0.8) {
        u.er = Some(rng.random_range(0..=7));
    }
    if class == UnitClass::Armor || rng.random_bool(0.1) {
        u.armor = Some(hexfront::combat::ArmorValue {
            attack: rng.random_range(1..=5),
            defense: rng.random_range(1..=5),
        });
    }
    for status in [
        UnitStatus::Tipped,
        UnitStatus::LowSupply,
        UnitStatus::Disrupted,
        UnitStatus::Shocked,
    ] {
        if rng.random_bool(0.1) {
            u.statuses.insert(status);
        }
    }
    if rng.random_bool(0.2) {
        u.traits
            .push(pick(rng, &[UnitTrait::Mobile, UnitTrait::InfantrySupport]));
    }
    if rng.random_bool(0.3) {
        u.crossing.insert(pick(
            rng,
            &[EdgeFeature::River, EdgeFeature::Bridge, EdgeFeature::FortificationLine],
        ));
    }
    u.element = Some(pick(rng, &["1st", "2nd"]).into());
    u.nation = pick(rng, &["german", "soviet", "romanian"]).into();
    u.experience = rng.random_range(0..35);
    u
}

fn random_situation(rng: &mut ChaCha8Rng, rs: &Ruleset, max_per_side: usize) -> Situation {
    let terrain = TerrainId(rng.random_range(0..rs.looks.len()) as u16);
    let n_att = rng.random_range(1..=max_per_side);
    let n_def = rng.random_range(1..=max_per_side);
    let (steps, value) = match rs.combat {
        CombatRules::WarAgainstRussia(_) => (1, 15),
        CombatRules::NextWar(_) => (2, 12),
        _ => (3, 10),
    };
    let attackers = (0..n_att)
        .map(|i| random_unit(rng, format!("a{i}"), steps, value))
        .collect();
    let defenders = (0..n_def)
        .map(|i| random_unit(rng, format!("d{i}"), steps, value))
        .collect();
    let mut s = situation(terrain, attackers, defenders);
    s.weather = pick(
        rng,
        &[
            Weather::Clear,
            Weather::Mud,
            Weather::Snow,
            Weather::HardFrost,
            Weather::Storm,
        ],
    );
    s.choices = Choices {
        attacker_retreat: pick(
            rng,
            &[RetreatOrSteps::Retreat, RetreatOrSteps::Steps, RetreatOrSteps::Mix(1)],
        ),
        defender_retreat: pick(
            rng,
            &[RetreatOrSteps::Retreat, RetreatOrSteps::Steps, RetreatOrSteps::Mix(1)],
        ),
        evade: rng.random_bool(0.5),
        defender_withdraws: rng.random_bool(0.2),
        german_exchange: rng.random_bool(0.5),
        hold: false,
        attrition_as_retreat: rng.random_bool(0.5),
        ..Choices::default()
    };
    // The owners' loss preferences, where the rules leave the choice: any order must keep the
    // properties.
    for u in s.attackers.iter_mut().chain(s.defenders.iter_mut()) {
        if rng.random_bool(0.3) {
            u.loss_rank = rng.random_range(1..=3);
        }
    }
    match rs.combat {
        CombatRules::Rommel(_) => {
            let tactics = [
                Tactic::Recce,
                Tactic::Infiltration(None),
                Tactic::ReserveArtillery,
                Tactic::Airstrike,
                Tactic::PinningAttack,
            ];
            for _ in 0..rng.random_range(0..=n_att) {
                s.attack
                    .tactics
                    .push(tactics[rng.random_range(0..tactics.len())].clone());
            }
            for _ in 0..rng.random_range(0..=n_def) {
                let defensive = [
                    Tactic::Recce,
                    Tactic::DefenseInDepth,
                    Tactic::Withdraw,
                    Tactic::Airstrike,
                ];
                s.defense
                    .tactics
                    .push(defensive[rng.random_range(0..defensive.len())].clone());
            }
            s.attack.flanking = rng.random_bool(0.3);
            s.defense.prepared_positions = rng.random_range(0..=3);
        }
        CombatRules::KillingGround(_) => {
            if rng.random_bool(0.3) {
                s.attack.accelerated_effort = Some("a0".into());
            }
        }
        CombatRules::WarAgainstRussia(_) => {
            s.conditions.surrounded = rng.random_bool(0.2);
            s.defense.no_retreat = rng.random_bool(0.2);
            s.conditions.city = pick(rng, &[None, None, Some(City::City), Some(City::VictoryCity(2))]);
        }
        CombatRules::NextWar(_) => {
            s.choices.hold = false;
            s.attack.extra.push(ExtraModifier {
                source: "support".into(),
                effect: ExtraEffect::DieModifier(rng.random_range(-3..=3)),
            });
        }
        CombatRules::SmallGeneral(_) => {
            s.attackers.truncate(1);
            s.attack.hexsides = rng.random_range(1..=6);
        }
        CombatRules::DataTable(_) => {
            s.attack.extra.push(ExtraModifier {
                source: "support".into(),
                effect: ExtraEffect::DieModifier(rng.random_range(-2..=2)),
            });
        }
    }
    s
}

#[test]
fn random_situations_in_every_system() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for name in [
        "killing-ground",
        "rommel",
        "war-against-russia",
        "next-war",
        "small-general",
        "classic-odds",
    ] {
        let rs = ruleset(name);
        let mut checked = 0;
        for _ in 0..300 {
            let s = random_situation(&mut rng, &rs, 3);
            if check(&rs.combat, &s) {
                checked += 1;
            }
        }
        assert!(
            checked >= 100,
            "{name}: only {checked} of 300 random combats were legal"
        );
    }
}

#[test]
fn example_cases_hold_the_properties() {
    for path in CASES {
        let case = CombatCase::load(path).unwrap_or_else(|e| panic!("{e}"));
        assert!(check(&case.ruleset.combat, &case.situation), "{path} is legal");
        let o = odds(&case.ruleset.combat, &case.situation).unwrap();
        let summary_sum = o.outcomes.iter().map(|x| x.probability).sum::<f64>();
        assert!((summary_sum - 1.0).abs() < 1e-12);
        assert!(o.summary.expected_attacker_steps >= 0.0 && o.summary.p_cell_taken <= 1.0 + 1e-12);
    }
}

#[test]
fn seeded_play_agrees_with_the_exact_preview() {
    for path in CASES {
        let case = CombatCase::load(path).unwrap();
        let rules = &case.ruleset.combat;
        let o = odds(rules, &case.situation).unwrap();
        let n = 20_000;
        let mut counts = vec![0u32; o.outcomes.len()];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..n {
            let mut dice = Dice::seeded(&mut rng);
            let (_, outcome) = fight(rules, &case.situation, &mut dice).unwrap();
            let i = o
                .outcomes
                .iter()
                .position(|x| x.result == outcome.result)
                .unwrap_or_else(|| panic!("{path}: a played result the preview does not list"));
            counts[i] += 1;
        }
        for (x, &c) in o.outcomes.iter().zip(&counts) {
            let p = x.probability;
            let sigma = (p * (1.0 - p) / f64::from(n)).sqrt();
            let seen = f64::from(c) / f64::from(n);
            assert!(
                (seen - p).abs() <= 5.0 * sigma + 1e-9,
                "{path}: {} seen {seen}, exact {p}",
                x.result.code
            );
        }
    }
}

#[test]
fn forced_dice_that_a_die_cannot_show_are_refused() {
    let case = CombatCase::load(CASES[1]).unwrap();
    let mut d = Dice::scripted(&[7, 3]);
    let err = fight(&case.ruleset.combat, &case.situation, &mut d).unwrap_err();
    assert!(err.0.contains("die 1 was forced to 7, which a D6 cannot show"), "{err}");
}

fn hexfront(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hexfront"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn combat_lab_odds_json_sums_to_one_for_every_case() {
    for path in CASES {
        let (ok, out, err) = hexfront(&["odds", path, "--json"]);
        assert!(ok, "{path}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let outcomes = v["outcomes"].as_array().expect("outcomes");
        let sum: f64 = outcomes.iter().map(|o| o["probability"].as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-12, "{path}: {sum}");
        assert!(v["summary"]["p_cell_taken"].is_number());
        assert!(v["assessment"]["modifiers"].is_array());
    }
    let (ok, out, _) = hexfront(&["odds", CASES[2]]);
    assert!(
        ok && out.contains("column: 2:1 shifted to 3:2") && out.contains("across a river"),
        "{out}"
    );
}

#[test]
fn combat_lab_resolve_replays_the_rommel_example() {
    let (ok, out, err) = hexfront(&["resolve", CASES[1], "--dice", "5,3", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let faces: Vec<u64> = v["rolls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["face"].as_u64().unwrap())
        .collect();
    assert_eq!(faces, [5, 3]);
    assert_eq!(v["result"]["attacker"]["hits_scored"], 2);
    assert_eq!(v["result"]["defender"]["prepared_positions_lost"], 1);
    assert_eq!(v["result"]["cell_taken"], false);
    // The same seed gives the same combat.
    let a = hexfront(&["resolve", CASES[0], "--seed", "42"]);
    let b = hexfront(&["resolve", CASES[0], "--seed", "42"]);
    assert!(a.0 && a.1 == b.1, "{}", a.2);
    let (ok, _, err) = hexfront(&["resolve", CASES[1], "--dice", "9"]);
    assert!(!ok && err.contains("cannot show"), "{err}");
}

fn case_error(text: &str) -> String {
    CombatCase::from_ron_str("bad.ron", text)
        .expect_err("refused")
        .to_string()
}

const GOOD: &str = r#"CombatCase(
    ruleset: "war-against-russia",
    terrain: "clear",
    attackers: [(id: "a", class: Infantry, strength: 6, nation: "german")],
    defenders: [(id: "d", class: Infantry, strength: 2, nation: "soviet")],
)"#;

#[test]
fn bad_case_files_name_file_line_and_field() {
    assert!(CombatCase::from_ron_str("good.ron", GOOD).is_ok());
    let e = case_error(&GOOD.replace("war-against-russia", "warr"));
    assert!(
        e.starts_with("bad.ron:2:") && e.contains("unknown ruleset `warr`"),
        "{e}"
    );
    let e = case_error(&GOOD.replace("\"clear\"", "\"moon\""));
    assert!(
        e.starts_with("bad.ron:3:") && e.contains("field `terrain`") && e.contains("unknown terrain `moon`"),
        "{e}"
    );
    let e = case_error(&GOOD.replace("strength: 2", "strength: 2, colour: 3"));
    assert!(e.starts_with("bad.ron:5:") && e.contains("colour"), "{e}");
    let e = case_error(&GOOD.replace("id: \"d\"", "id: \"a\""));
    assert!(e.contains("field `defenders[0].id`") && e.contains("used twice"), "{e}");
    let e = case_error(&GOOD.replace("strength: 6,", ""));
    assert!(e.contains("attackers[0].id") && e.contains("exactly one of"), "{e}");
    let (ok, _, err) = hexfront(&["odds", "tests/cases/nonexistent.ron"]);
    assert!(
        !ok && err.contains("nonexistent.ron") && err.contains("cannot read"),
        "{err}"
    );
    // An illegal attack is refused with the rule, not a panic.
    let refused = CombatCase::from_ron_str(
        "low.ron",
        &GOOD
            .replace("strength: 6", "strength: 1")
            .replace("strength: 2", "strength: 5"),
    )
    .unwrap();
    let err = odds(&refused.ruleset.combat, &refused.situation).unwrap_err().0;
    assert_eq!(err, "1 : 5 is below 1:4: attacks below 1:4 are not allowed");
}

#[test]
fn results_group_by_equal_effects() {
    // War Against Russia at 10:1: rolls 3-6 are all BR; one grouped outcome of 4/6.
    let rs = ruleset("war-against-russia");
    let s = situation(
        terrain(&rs, "clear"),
        vec![unit("a", UnitClass::Infantry, 20, 20).nation("german")],
        vec![unit("d", UnitClass::Infantry, 2, 2).nation("soviet")],
    );
    let o = odds(&rs.combat, &s).unwrap();
    let br = o.outcomes.iter().find(|x| x.result.code.to_string() == "BR").unwrap();
    assert_eq!(br.exact, Fraction::new(2, 3));
    let results: Vec<&CombatResult> = o.outcomes.iter().map(|x| &x.result).collect();
    assert_eq!(results.len(), 2, "BR and DE");
}

/// The game rolls a combat with the plain answer, then carries it out with the defender's answer
/// on the same dice (and any the answer rolls next): for every answer the rules give, that is the
/// very combat one resolution with the answer chosen beforehand gives on the same seed, and the
/// answer's listed outcomes (summing to 1) hold its result.
#[test]
fn an_answer_after_the_dice_is_the_combat_chosen_before_them() {
    use hexfront::combat::DefenderChoices;
    use hexfront::combat::answers::{defender_answers, with_answer};
    use hexfront::combat::odds::Fraction;
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let mut checked = 0;
    let mut asked = 0;
    for name in [
        "killing-ground",
        "rommel",
        "war-against-russia",
        "next-war",
        "small-general",
    ] {
        let rs = ruleset(name);
        let rules = &rs.combat;
        for _ in 0..120 {
            let mut s = random_situation(&mut rng, &rs, 3);
            s.choices = Choices::of(&s.choices.attacker(), &DefenderChoices::default());
            for u in &mut s.defenders {
                u.loss_rank = 0;
            }
            let Ok(a) = assess(rules, &s) else { continue };
            for seed in 0..3u64 {
                let mut first = ChaCha8Rng::seed_from_u64(seed);
                let (_, plain) = fight(rules, &s, &mut Dice::seeded(&mut first)).unwrap();
                let faces: Vec<u8> = plain.rolls.iter().map(|r| r.face).collect();
                let answers = defender_answers(rules, &s, &a, &faces);
                assert_eq!(
                    answers[0].choices,
                    DefenderChoices::default(),
                    "{name}: the plain answer first"
                );
                if answers.len() > 1 {
                    asked += 1;
                }
                for answer in &answers {
                    let chosen = with_answer(&s, &answer.choices);
                    let mut once = ChaCha8Rng::seed_from_u64(seed);
                    let (_, before) = fight(rules, &chosen, &mut Dice::seeded(&mut once)).unwrap();
                    let mut twice = ChaCha8Rng::seed_from_u64(seed);
                    fight(rules, &s, &mut Dice::seeded(&mut twice)).unwrap();
                    let (_, after) = fight(rules, &chosen, &mut Dice::forced_then_seeded(&faces, &mut twice)).unwrap();
                    assert_eq!(before.result, after.result, "{name}: {}", answer.label);
                    let faces_of = |o: &hexfront::combat::Outcome| o.rolls.iter().map(|r| r.face).collect::<Vec<u8>>();
                    assert_eq!(faces_of(&before), faces_of(&after), "{name}: {}", answer.label);
                    assert!(
                        answer.outcomes.iter().any(|o| o.result == after.result),
                        "{name}: {}",
                        answer.label
                    );
                    let total = answer.outcomes.iter().fold(Fraction::ZERO, |t, o| t.plus(o.exact));
                    assert_eq!(total, Fraction::ONE, "{name}: {}", answer.label);
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked > 1000 && asked > 100,
        "{checked} answers checked, {asked} results with a choice"
    );
}

/// War Against Russia: under No Retreat! orders no defender retreats, whatever else holds (an
/// armor overrun converts DR and DE; the orders still turn DW into D and dw into no effect).
#[test]
fn no_defender_under_no_retreat_orders_ever_retreats() {
    let rs = ruleset("war-against-russia");
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut checked = 0;
    for _ in 0..300 {
        let mut s = random_situation(&mut rng, &rs, 3);
        s.defense.no_retreat = true;
        s.choices = Choices::of(&s.choices.attacker(), &Default::default());
        if s.defenders
            .iter()
            .any(|u| u.is_one_of(&["hungarian".into(), "italian".into(), "romanian".into()]))
        {
            continue;
        }
        let Ok(a) = assess(&rs.combat, &s) else { continue };
        for o in enumerate(&rs.combat, &s, &a, &s.choices) {
            assert!(
                !o.result.defender.units.iter().any(|u| u.retreats),
                "a defender under orders retreats: {:?}",
                o.result.code
            );
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked} outcomes checked");
}
