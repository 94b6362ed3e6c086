//! Killing Ground's 8.93 reading and loss rules, Next War's loss, column and retreat rules, and
//! all 16 rows of Small General's table, reproduced exactly.

mod common;

use common::*;
use hexfront::combat::{CombatRules, RetreatOrSteps, assess};
use hexfront::rules::units::{UnitClass, UnitStatus};
use hexfront::scenario::CombatCase;

fn kg() -> hexfront::scenario::Ruleset {
    ruleset("killing-ground")
}

#[test]
fn killing_ground_8_93_reading_of_1d_1r2() {
    use hexfront::combat::killing_ground::parse_entry;
    let e = parse_entry("1D/1r2").unwrap();
    assert_eq!(
        (e.attacker.steps, e.attacker.retreat, e.attacker.disorganized),
        (1, 0, true)
    );
    assert_eq!(
        (e.defender.steps, e.defender.retreat, e.defender.disorganized),
        (1, 2, false)
    );
    // The authored CRT holds 1D/1r2 at 3:2, roll 6.
    let rs = kg();
    let clear = terrain(&rs, "clear");
    let chit = |id: &str| {
        let mut u = unit(id, UnitClass::Infantry, 0, 0).er(3);
        u.steps = hexfront::rules::units::StepTrack::strength_chit(3, 2, 1);
        u
    };
    let mut s = situation(
        clear,
        vec![chit("a1"), chit("a2"), chit("a3")],
        vec![chit("d1"), chit("d2")],
    );
    let (r, _, rolled) = resolve_with(&rs.combat, &s, &[6]);
    assert_eq!((r.code.to_string().as_str(), rolled), ("1D/1r2", 1));
    // Attacker: one step and every participating unit disorganized.
    assert_eq!(r.attacker.steps_lost, 1);
    assert!(r.attacker.units.iter().all(|u| u.gained.has(UnitStatus::Disorganized)));
    // Defender: one step and two hexes ...
    assert_eq!(r.defender.steps_lost, 1);
    assert_eq!(r.defender.retreat.map(|d| d.cells), Some(2));
    // ... or one more step and one hex ...
    s.choices.defender_retreat = RetreatOrSteps::Mix(1);
    let (r, _, _) = resolve_with(&rs.combat, &s, &[6]);
    assert_eq!(
        (r.defender.steps_lost, r.defender.retreat.map(|d| d.cells)),
        (2, Some(1))
    );
    // ... or two more steps and remain in the hex; then the attritional-loss die: 2 <= ER 3 and
    // the winner (the attacker) loses one more step.
    s.choices.defender_retreat = RetreatOrSteps::Steps;
    let (r, log, rolled) = resolve_with(&rs.combat, &s, &[6, 2]);
    assert_eq!((r.defender.steps_lost, r.defender.retreat, rolled), (3, None, 2));
    assert!(!r.cell_taken);
    assert_eq!(r.attacker.steps_lost, 2, "{log:?}");
    let (r, _, _) = resolve_with(&rs.combat, &s, &[6, 4]);
    assert_eq!(r.attacker.steps_lost, 1, "4 > ER 3: no attritional loss");
}

#[test]
fn killing_ground_attritional_loss_as_a_retreat_in_a_town() {
    let rs = kg();
    let town = terrain(&rs, "town");
    // 4 vs 12 = 1:3, town -2 stays at 1:3; roll 4 is 1r1/-: the attacker takes its retreat as a
    // step (2 steps), then rolls 3 <= ER 4: the defender owes an attritional step ...
    let mut s = situation(
        town,
        vec![track("a", UnitClass::Infantry, &[4, 3, 2]).er(4)],
        vec![unit("d", UnitClass::Infantry, 12, 12).nation("german")],
    );
    s.choices.attacker_retreat = RetreatOrSteps::Steps;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4, 3]);
    assert_eq!((r.attacker.steps_lost, r.defender.steps_lost), (2, 1));
    assert!(r.defender.units[0].eliminated && r.cell_taken);
    // ... which a defender in a town may take as a one-hex retreat instead (8.10.3).
    s.choices.attrition_as_retreat = true;
    let (r, log, _) = resolve_with(&rs.combat, &s, &[4, 3]);
    assert_eq!(r.defender.steps_lost, 0, "{log:?}");
    assert_eq!(r.defender.retreat.map(|d| d.cells), Some(1));
    assert!(r.cell_taken);
    // Not in the open.
    s.terrain = terrain(&rs, "clear");
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4, 3]);
    assert_eq!(r.defender.steps_lost, 1);
}

#[test]
fn killing_ground_strength_chits_flip_to_cadre_then_go() {
    use hexfront::rules::units::StepTrack;
    let three = StepTrack::strength_chit(4, 2, 1);
    let two = StepTrack::strength_chit(2, 0, 1);
    assert_eq!((three.total(), two.total()), (3, 2));
    let rs = kg();
    let clear = terrain(&rs, "clear");
    let mut d = unit("d", UnitClass::Infantry, 0, 0);
    d.steps = three;
    // 12 vs 4 = 3:1; roll 6 is -/1r2D: take the retreat as steps -> 3 steps: gone.
    let mut s = situation(clear, vec![unit("a", UnitClass::Infantry, 12, 12)], vec![d.clone()]);
    s.choices.defender_retreat = RetreatOrSteps::Mix(1);
    let (r, _, _) = resolve_with(&rs.combat, &s, &[6]);
    assert_eq!(r.defender.units[0].steps_lost, 2);
    assert!(
        !r.defender.units[0].eliminated,
        "two steps: the chit is gone, the cadre remains"
    );
    s.choices.defender_retreat = RetreatOrSteps::Steps;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[6, 6]);
    assert!(r.defender.units[0].eliminated);
    assert_eq!(r.defender.steps_lost, 3);
}

#[test]
fn killing_ground_who_takes_the_attackers_losses() {
    let rs = kg();
    let clear = terrain(&rs, "clear");
    let inf = |id: &str, s: &[u32], er: u32| {
        track(id, UnitClass::Infantry, s)
            .er(er)
            .size(hexfront::rules::units::UnitSize::Regiment)
    };
    // 1:3 roll 1 is 2r2D/-: two steps and a retreat the attacker takes as steps -> 4 steps.
    let attackers = vec![
        inf("weak", &[2, 1], 2),
        inf("strong", &[4, 3, 1], 3),
        track("tanks", UnitClass::Armor, &[3, 1]).er(2),
    ];
    let defenders = vec![unit("d", UnitClass::Infantry, 27, 27)];
    let mut s = situation(clear, attackers, defenders);
    let (r, _, _) = resolve_with(&rs.combat, &s, &[1]);
    assert_eq!(
        r.attacker.units[1].steps_lost, 1,
        "first step from the strongest unit (8.95)"
    );
    assert_eq!(r.attacker.steps_lost, 2);
    // Combined arms: the defender names armor, so the tanks lose the first step, then (armor
    // first) the unit now strongest (the 4-strength regiment).
    s.defenders = vec![
        unit("pz", UnitClass::Armor, 14, 14),
        unit("gren", UnitClass::Mechanized, 13, 13),
    ];
    let (r, _, _) = resolve_with(&rs.combat, &s, &[1]);
    assert_eq!(r.attacker.units[2].steps_lost, 1, "armor named by the defender");
    assert_eq!(
        r.attacker.units[1].steps_lost, 1,
        "after an armor loss, the strongest unit"
    );
}

/// 8.95 reads the *current* unmodified strength: a cadre (strength 1, 8.91A) of a once-strong
/// regiment is not the strongest unit; the fresh regiment takes the first step. Where current
/// strengths tie, the higher effectiveness rating takes it.
#[test]
fn killing_ground_first_attacker_step_from_the_strongest_unit_now() {
    let rs = kg();
    let clear = terrain(&rs, "clear");
    let reg = |id: &str, s: &[u32], lost: usize, er: u32| {
        let mut u = track(id, UnitClass::Infantry, s)
            .er(er)
            .size(hexfront::rules::units::UnitSize::Regiment);
        u.steps.lost = lost;
        u
    };
    let defenders = vec![unit("d", UnitClass::Infantry, 12, 12)];
    // Cadre 1 + fresh 3 = 4 against 12 = 1:3; roll 5 is 1/-: one attacker step.
    let attackers = vec![
        reg("cadre of a 6-strength regiment", &[6, 4, 1], 2, 3),
        reg("fresh", &[3, 2], 0, 2),
    ];
    let mut s = situation(clear, attackers, defenders);
    let (r, _, _) = resolve_with(&rs.combat, &s, &[5]);
    assert_eq!(r.attacker.steps_lost, 1);
    assert_eq!(
        r.attacker.units[1].steps_lost, 1,
        "the fresh regiment (strength 3 now) loses the step, not the cadre (6 when full)"
    );
    assert!(!r.attacker.units[0].eliminated, "the cadre survives");
    // Equal strength now (2 and 2): the higher ER loses the step.
    s.attackers = vec![reg("green", &[2, 1], 0, 1), reg("veteran", &[4, 2, 1], 1, 3)];
    let (r, _, _) = resolve_with(&rs.combat, &s, &[5]);
    assert_eq!(r.attacker.steps_lost, 1);
    assert_eq!(r.attacker.units[1].steps_lost, 1, "ER 3 before ER 1 at equal strength");
}

/// 8.10.4 decided in one place: the panel offers Accelerated Effort by this rule (disabled with
/// its text as the tooltip), and the resolver refuses by the same words.
#[test]
fn killing_ground_who_may_make_an_accelerated_effort() {
    use hexfront::combat::killing_ground::may_make_accelerated_effort;
    use hexfront::rules::units::{StepTrack, UnitSize};
    let full = StepTrack::strength_chit(4, 2, 1);
    let may = |class, er, size, steps: &StepTrack| may_make_accelerated_effort("u", class, er, size, steps);
    assert!(may(UnitClass::Infantry, Some(3), UnitSize::Regiment, &full).is_ok());
    assert!(may(UnitClass::Mechanized, Some(3), UnitSize::Regiment, &full).is_ok());
    let armor = may(UnitClass::Armor, Some(4), UnitSize::Regiment, &full).unwrap_err();
    assert!(
        armor.contains("only infantry-type units") && armor.contains("8.10.4"),
        "{armor}"
    );
    assert!(
        may(UnitClass::Infantry, None, UnitSize::Regiment, &full).is_err(),
        "no ER"
    );
    assert!(
        may(UnitClass::Infantry, Some(3), UnitSize::Battalion, &full).is_err(),
        "a battalion"
    );
    let mut cadre = full.clone();
    cadre.lost = cadre.values.len() - 1;
    assert!(
        may(UnitClass::Infantry, Some(3), UnitSize::Regiment, &cadre).is_err(),
        "a cadre"
    );
    let mut last = track("printed", UnitClass::Infantry, &[4, 2]).steps;
    last.lost = 1;
    assert_eq!(last.remaining(), 1);
    let one = may(UnitClass::Infantry, Some(3), UnitSize::Regiment, &last).unwrap_err();
    assert!(one.contains("one step left"), "{one}");
    // The resolver refuses an armor-only effort with the same words.
    let rs = kg();
    let clear = terrain(&rs, "clear");
    let mut s = situation(
        clear,
        vec![track("tanks", UnitClass::Armor, &[6, 3, 1]).er(4)],
        vec![unit("d", UnitClass::Infantry, 3, 3)],
    );
    s.attack.accelerated_effort = Some("tanks".into());
    let refused = assess(&rs.combat, &s).err().map(|r| r.0).unwrap_or_default();
    assert!(refused.contains("only infantry-type units"), "{refused}");
}

#[test]
fn killing_ground_accelerated_effort() {
    let rs = kg();
    let clear = terrain(&rs, "clear");
    let reg = |id: &str| {
        let mut u = unit(id, UnitClass::Infantry, 0, 0)
            .er(4)
            .size(hexfront::rules::units::UnitSize::Regiment);
        u.steps = hexfront::rules::units::StepTrack::strength_chit(4, 2, 1);
        u
    };
    let mut s = situation(clear, vec![reg("a")], vec![unit("d", UnitClass::Infantry, 4, 4)]);
    s.attack.accelerated_effort = Some("a".into());
    // 1:1; die 3 <= ER 4: +2 columns to 2:1, where roll 6 is -/1r2.
    let (r, log, rolled) = resolve_with(&rs.combat, &s, &[3, 6]);
    assert_eq!(rolled, 2);
    assert_eq!(r.code.to_string(), "-/1r2", "{log:?}");
    assert_eq!(r.attacker.steps_lost, 1, "the step paid for the effort");
    // Die 5 > ER: +1 column, 3:2 roll 6 = 1D/1r2.
    let (r, _, _) = resolve_with(&rs.combat, &s, &[5, 6]);
    assert_eq!(r.code.to_string(), "1D/1r2");
    // Battalions and cadres may not.
    s.attackers[0].size = hexfront::rules::units::UnitSize::Battalion;
    assert!(assess(&rs.combat, &s).unwrap_err().0.contains("8.10.4"));
}

fn nw() -> hexfront::scenario::Ruleset {
    ruleset("next-war")
}

#[test]
fn next_war_lead_unit_first_then_full_strength_units() {
    let rs = nw();
    let flat = terrain(&rs, "flat");
    let two = |id: &str, v: u32, er: u32| {
        let mut u = track(id, UnitClass::Infantry, &[v, v / 2]).er(er);
        u.size = hexfront::rules::units::UnitSize::Brigade;
        u
    };
    // 36 vs 9 = 4:1 (column 7), ER equal; roll 9 on column 7 is -/4R.
    let attackers = vec![two("a", 36, 4)];
    let defenders = vec![
        two("lead", 4, 4),
        two("b", 2, 3),
        two("c", 2, 3).lost(1),
        two("d", 2, 3),
    ];
    let mut s = situation(flat, attackers, defenders);
    s.defense.lead = Some("lead".into());
    let (r, _, _) = resolve_with(&rs.combat, &s, &[9]);
    assert_eq!(r.code.to_string(), "-/4R");
    let lost: Vec<u32> = r.defender.units.iter().map(|u| u.steps_lost).collect();
    // The lead first, then b and d (still at two steps) before any unit is eliminated, then the
    // owner's cheapest of the one-step units (b, c and d are each worth 1; b comes first).
    assert_eq!(lost, [1, 2, 0, 1]);
    assert!(r.defender.units[1].eliminated && !r.defender.units[2].eliminated);
    assert!(r.defender.units.iter().filter(|u| !u.eliminated).all(|u| u.retreats));
    assert_eq!(r.defender.retreat.unwrap().cells, 2, "flat: two hexes");
    let adv = r.attacker.advance.unwrap();
    assert!(adv.mandatory && adv.cells == 1, "foot attackers advance one hex");
}

#[test]
fn next_war_columns_11_to_13_and_cannot_satisfy() {
    let rs = nw();
    let flat = terrain(&rs, "flat");
    let mut s = situation(
        flat,
        vec![
            unit("a", UnitClass::Mechanized, 40, 40).er(6),
            unit("b", UnitClass::Mechanized, 40, 40).er(6),
        ],
        vec![unit("d", UnitClass::Infantry, 4, 4).er(4)],
    );
    // 20:1 -> column 10; +2 ER shift -> column 12. Roll 0 on column 12 is 1/2R: the defender has
    // one step, so the attacker loses one step less.
    let a = assess(&rs.combat, &s).unwrap();
    assert_eq!(a.cell.unwrap().column, "12");
    let (r, _, _) = resolve_with(&rs.combat, &s, &[0]);
    assert_eq!(r.code.to_string(), "1/2R");
    assert_eq!((r.attacker.steps_lost, r.defender.steps_lost), (0, 1));
    assert!(r.cell_taken);
    let adv = r.attacker.advance.unwrap();
    assert_eq!(
        adv.cells, 2,
        "defender eliminated and mechanized attackers: second-hex advance"
    );
    s.weather = hexfront::combat::Weather::Storm;
    assert_eq!(
        resolve_with(&rs.combat, &s, &[0]).0.attacker.advance.unwrap().cells,
        1,
        "not in Storm"
    );
    // An attacker that cannot satisfy its loss: the defender loses one step less.
    let mut s = situation(
        flat,
        vec![unit("a", UnitClass::Infantry, 1, 1).er(3)],
        vec![track("d", UnitClass::Infantry, &[3, 1]).er(3)],
    );
    s.defense.lead = Some("d".into());
    // 1:3 is column 1, where roll 5 is 2/1: the attacker has one step, the defender loses none.
    let (r, _, _) = resolve_with(&rs.combat, &s, &[5]);
    assert_eq!(r.code.to_string(), "2/1");
    assert_eq!((r.attacker.steps_lost, r.defender.steps_lost), (1, 0));
}

/// Where Next War's defenders may try to hold: the attack panel offers the option by this same
/// function (and shows it disabled with the terrain list elsewhere), so it is never ticked in
/// vain.
#[test]
fn next_war_hold_is_offered_only_where_the_rules_allow_it() {
    let rs = nw();
    let hexfront::combat::CombatRules::NextWar(rules) = &rs.combat else {
        panic!("next-war rules");
    };
    let at = |name: &str| {
        situation(
            terrain(&rs, name),
            vec![track("a", UnitClass::Infantry, &[6, 3]).er(4)],
            vec![track("d", UnitClass::Infantry, &[4, 2]).er(4)],
        )
    };
    for hold in ["urban", "highland", "mountain"] {
        assert!(rules.may_hold(&at(hold)), "{hold}");
    }
    assert!(!rules.may_hold(&at("flat")), "flat ground");
    let mut fortified = at("flat");
    fortified.conditions.fortified = true;
    assert!(rules.may_hold(&fortified), "a fortified hex");
}

#[test]
fn next_war_er_check_to_ignore_a_retreat() {
    let rs = nw();
    let urban = terrain(&rs, "urban");
    let mut s = situation(
        urban,
        vec![track("a", UnitClass::Infantry, &[40, 20]).er(5)],
        vec![
            track("d", UnitClass::Infantry, &[4, 2]).er(6),
            track("e", UnitClass::Infantry, &[4, 2]).er(4),
        ],
    );
    s.choices.hold = true;
    // Files written before the option had one name say `ignore_retreat`: read as `hold`.
    let old: hexfront::combat::Choices = ron::from_str("(ignore_retreat: true)").unwrap();
    assert_eq!(old, s.choices.clone());
    // 40:8 = 5:1 (column 8), urban -2, lead ER 5 vs 6 -1: column 5, where roll 6 is 1/2R.
    let a = assess(&rs.combat, &s).unwrap();
    assert_eq!(a.cell.unwrap().column, "5");
    // The lowest-ER survivor (ER 4) checks: 3 < 4 passes and the stack stays.
    let (r0, _, _) = resolve_with(&rs.combat, &s, &[6, 3]);
    assert_eq!(
        (
            r0.code.to_string().as_str(),
            r0.defender.retreat,
            r0.defender.steps_lost
        ),
        ("1/2R", None, 2)
    );
    let (r1, _, _) = resolve_with(&rs.combat, &s, &[6, 7]);
    assert!(r1.defender.retreat.is_none());
    assert_eq!(r1.defender.steps_lost, 3, "a failed check costs a step to stay");
    s.choices.hold = false;
    let (r2, _, rolled) = resolve_with(&rs.combat, &s, &[6]);
    assert_eq!(
        (rolled, r2.defender.retreat.map(|d| d.cells)),
        (1, Some(1)),
        "urban: one hex"
    );
}

/// Small General's table as the manual prints it.
const SG_TABLE: [(u8, &str); 16] = [
    (3, "ATT Destroyed"),
    (4, "ATT Loss + Panick"),
    (5, "ATT Loss"),
    (6, "ATT Panick"),
    (7, "ATT Loss"),
    (8, "ATT Shocked"),
    (9, "ATT Disrupted"),
    (10, "no result"),
    (11, "no result"),
    (12, "DEF Disrupted"),
    (13, "DEF Shocked"),
    (14, "DEF Loss"),
    (15, "DEF Retreat + Panick"),
    (16, "DEF Retreat + Loss"),
    (17, "DEF Retreat + Panick + Loss"),
    (18, "DEF Destroyed"),
];

/// Three dice summing to `n`.
fn three_dice(n: u8) -> [u8; 3] {
    let a = (n - 2).min(6);
    let b = (n - a - 1).min(6);
    [a, b, n - a - b]
}

#[test]
fn small_general_all_16_rows() {
    let rs = ruleset("small-general");
    let grass = terrain(&rs, "grass");
    let s = situation(
        grass,
        vec![track("att", UnitClass::Infantry, &[5, 4, 3])],
        vec![track("def", UnitClass::Infantry, &[5, 4, 3])],
    );
    assert_eq!(assess(&rs.combat, &s).unwrap().cell.unwrap().die_modifier, 0);
    for (roll, text) in SG_TABLE {
        let (r, _, rolled) = resolve_with(&rs.combat, &s, &three_dice(roll));
        assert_eq!(rolled, 3);
        assert_eq!(r.code.to_string(), text, "roll {roll}");
        let (a, d) = (&r.attacker.units[0], &r.defender.units[0]);
        let expect = |u: &hexfront::combat::UnitResult, word: &str, status: UnitStatus| {
            text.contains(word) && u.gained.has(status) || !text.contains(word) && !u.gained.has(status)
        };
        let (hurt, other) = if text.starts_with("ATT") { (a, d) } else { (d, a) };
        if text == "no result" {
            assert_eq!(
                (a.steps_lost, d.steps_lost, a.gained.is_empty(), d.gained.is_empty()),
                (0, 0, true, true)
            );
            continue;
        }
        assert!(expect(hurt, "Panick", UnitStatus::Panicked), "roll {roll}");
        assert!(expect(hurt, "Shocked", UnitStatus::Shocked), "roll {roll}");
        assert!(expect(hurt, "Disrupted", UnitStatus::Disrupted), "roll {roll}");
        let steps = if text.contains("Destroyed") {
            3
        } else if text.contains("Loss") {
            1
        } else {
            0
        };
        assert_eq!(hurt.steps_lost, steps, "roll {roll}");
        assert_eq!(hurt.retreats, text.contains("Retreat"), "roll {roll}");
        // Experience for the side that caused it: disruption 1, shocked 2, panic 3, loss 4, kill 5.
        let xp = match roll {
            3 | 18 => 5,
            4 => 7,
            5 | 7 | 14 | 16 => 4,
            6 | 15 => 3,
            8 | 13 => 2,
            9 | 12 => 1,
            17 => 7,
            _ => 0,
        };
        assert_eq!(other.experience, xp, "roll {roll}");
        assert_eq!(other.steps_lost, 0);
    }
}

#[test]
fn small_general_modifiers_best_defender_and_artillery() {
    let rs = ruleset("small-general");
    let case = CombatCase::load("tests/cases/small-general-st-vith.ron").unwrap();
    let a = assess(&case.ruleset.combat, &case.situation).unwrap();
    // Forest -1 (foot), attacker level 1 +1 (6 xp), attacker disrupted -1, two hexsides +1; the
    // 424th (defense 6 against attack 6, level 2 with 13 xp: -1) is the best defender.
    assert_eq!(a.cell.unwrap().die_modifier, -1);
    assert_eq!(a.ratio, "VG-Rgt 293 against 424th Infantry");
    let town = terrain(&rs, "town");
    let mut s = situation(
        town,
        vec![unit("guns", UnitClass::Artillery, 5, 0)],
        vec![unit("pz", UnitClass::Armor, 5, 5).status(UnitStatus::OutOfSupply)],
    );
    s.defenders[0].mobility = hexfront::rules::terrain::Mobility::Mechanized;
    // Artillery (motorized, so no town penalty) against mechanized -2, out of supply +6.
    assert_eq!(assess(&rs.combat, &s).unwrap().cell.unwrap().die_modifier, 4);
    // Artillery never causes a loss: 14 (DEF Loss) does nothing, 18 (destroyed) only panics ...
    let (r, _, _) = resolve_with(&rs.combat, &s, &three_dice(10));
    assert_eq!(r.code.to_string(), "DEF Loss");
    assert_eq!(r.defender.steps_lost, 0);
    let (r, _, _) = resolve_with(&rs.combat, &s, &three_dice(14));
    assert_eq!(r.code.to_string(), "DEF Destroyed");
    assert_eq!(
        (
            r.defender.steps_lost,
            r.defender.units[0].gained.has(UnitStatus::Panicked)
        ),
        (0, true)
    );
    // ... and never suffers one.
    s.defenders[0].statuses = Default::default();
    s.defenders[0].steps.values[0].defense = 25;
    let (r, _, _) = resolve_with(&rs.combat, &s, &three_dice(10));
    assert_eq!(r.code.to_string(), "ATT Destroyed");
    assert_eq!(r.attacker.steps_lost, 0);
    assert!(r.attacker.units[0].gained.has(UnitStatus::Panicked));
    // Experience levels at 5, 12, 20 and 30 points.
    let CombatRules::SmallGeneral(sg) = &rs.combat else {
        unreachable!()
    };
    let levels: Vec<usize> = [0, 4, 5, 11, 12, 19, 20, 29, 30, 99]
        .iter()
        .map(|&p| hexfront::combat::small_general::level(sg, p))
        .collect();
    assert_eq!(levels, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    // One attacker at a time.
    let mut two = s.clone();
    two.attackers.push(unit("more", UnitClass::Infantry, 3, 3));
    assert!(assess(&rs.combat, &two).unwrap_err().0.contains("one unit at a time"));
}
