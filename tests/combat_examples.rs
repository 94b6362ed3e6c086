//! The worked examples and tables of the rule texts, reproduced exactly: Rommel's grid checks and
//! complete example, Killing Ground's 8.93 reading, all 66 War Against Russia CRT cells and all
//! 16 Small General rows; plus the rules around them in each system.

mod common;

use common::*;
use hexfront::combat::rommel::shift_hits;
use hexfront::combat::{CombatRules, Effect, ResultCode, RetreatOrSteps, Role, Tactic, assess};
use hexfront::rules::terrain::EdgeFeature;
use hexfront::rules::units::{UnitClass, UnitStatus, UnitTrait};
use hexfront::scenario::CombatCase;

fn rommel() -> hexfront::combat::rommel::Rules {
    match ruleset("rommel").combat {
        CombatRules::Rommel(r) => r,
        _ => unreachable!(),
    }
}

#[test]
fn rommel_grid_is_the_published_grid() {
    // shared/rules/README.md, rows 6 hits .. 1 hit, columns die 1..6.
    let rows = [
        [40, 40, 40, 36, 30, 26],
        [40, 36, 31, 26, 22, 18],
        [33, 28, 25, 21, 17, 14],
        [26, 23, 19, 15, 11, 8],
        [16, 14, 11, 9, 5, 4],
        [12, 9, 7, 5, 3, 1],
    ];
    let r = rommel();
    for (k, row) in rows.iter().enumerate() {
        for (die, &value) in row.iter().enumerate() {
            assert_eq!(r.grid[die][k], value, "die {}, {} hits", die + 1, 6 - k);
        }
    }
    // White boxes: the most that scores nothing.
    for (die, white) in [(1, 11), (2, 8), (3, 6), (4, 4), (5, 2), (6, 0)] {
        assert_eq!(r.grid_hits(die, white), 0, "die {die}, value {white}");
        assert_eq!(r.grid_hits(die, white + 1), 1, "die {die}, value {}", white + 1);
    }
}

#[test]
fn rommel_grid_checks_from_the_text() {
    let r = rommel();
    assert_eq!(r.grid_hits(5, 14), 3, "14 rolling a 5: the 3, 5 and 11 boxes");
    assert_eq!(r.grid_hits(3, 4), 0, "4 rolling a 3: the lowest box is 7");
    assert_eq!(r.grid_hits(5, 20), 4, "20 rolling a 5: four hits");
    // Shift examples: 8 (one box on die 4) up one and down one is one hit; 22 with three up is
    // six at most; 3 in the white box shifted up once scores one.
    assert_eq!(shift_hits(r.grid_hits(4, 8), 1, 1), 1);
    assert_eq!(shift_hits(r.grid_hits(5, 22), 3, 0), 6);
    assert_eq!(shift_hits(r.grid_hits(3, 3), 1, 0), 1);
    assert_eq!(shift_hits(0, 0, 2), 0, "never below the white box");
}

#[test]
fn rommel_complete_example_of_combat() {
    let case = CombatCase::load("tests/cases/rommel-mountain-example.ron").expect("case loads");
    let rules = &case.ruleset.combat;
    let s = &case.situation;
    let a = assess(rules, s).expect("legal");
    // "Total German combat value is 10+5+2+3 = 20."
    assert_eq!(a.attack_total, 20.0);
    assert_eq!(a.defense_total, 4.0);
    let has = |side: Role, effect: Effect| a.modifiers.iter().any(|m| m.side == side && m.effect == effect);
    assert!(has(
        Role::Attacker,
        Effect::Doubled {
            unit: "A/17 Pz (1st coy)".into()
        }
    ));
    assert!(has(
        Role::Attacker,
        Effect::Halved {
            unit: "StuG III B/320D".into()
        }
    ));
    assert!(has(
        Role::Attacker,
        Effect::Barrage {
            unit: "Wespe 17 Pz".into(),
            value: 3
        }
    ));
    assert!(has(Role::Attacker, Effect::ShootsFirst));
    let shifts: Vec<(String, i32)> = a
        .modifiers
        .iter()
        .filter_map(|m| match m.effect {
            Effect::HitShift(n) => Some((m.source.clone(), n)),
            _ => None,
        })
        .collect();
    assert_eq!(
        shifts.iter().filter(|(_, n)| *n > 0).map(|(_, n)| n).sum::<i32>(),
        1,
        "{shifts:?}"
    );
    assert_eq!(
        shifts.iter().filter(|(_, n)| *n < 0).map(|(_, n)| -n).sum::<i32>(),
        3,
        "{shifts:?}"
    );
    for source in ["flanking", "Defense in Depth", "mountain", "multiple elements"] {
        assert!(shifts.iter().any(|(s, _)| s.contains(source)), "{source} in {shifts:?}");
    }
    // The Germans shoot first and roll a 5; the Soviets roll a 3.
    let (r, log, rolled) = resolve_with(rules, s, &[5, 3]);
    assert_eq!(rolled, 2);
    assert_eq!(
        r.code,
        ResultCode::Hits {
            attacker: 2,
            defender: 0
        },
        "{log:?}"
    );
    assert_eq!(
        r.defender.prepared_positions_lost, 1,
        "the prepared position absorbs one hit"
    );
    assert_eq!(r.defender.units[0].steps_lost, 1, "the Soviets take one hit");
    assert!(!r.defender.units[0].eliminated);
    assert!(
        log.iter().any(|l| l.contains("rolls 5: 4 hit(s), +1 -3 shifts = 2")),
        "{log:?}"
    );
    assert!(
        log.iter().any(|l| l.contains("defender (3) rolls 3: 0 hit(s)")),
        "value 3 after the hit: {log:?}"
    );
    // The Soviets hold: the Germans retreat and are tipped, and so is the Wespe.
    assert!(!r.cell_taken);
    assert_eq!(r.attacker.steps_lost, 0);
    for u in &r.attacker.units {
        assert!(u.retreats && u.gained.has(UnitStatus::Tipped));
    }
    assert_eq!(r.attacker.batteries_tipped, 1);
    assert!(r.attacker.retreat.is_some() && r.defender.retreat.is_none());
}

#[test]
fn rommel_tank_battle_extra_hit_lands_on_the_leading_armor() {
    let rs = ruleset("rommel");
    let open = terrain(&rs, "open");
    let attackers = vec![
        track("tiger", UnitClass::Armor, &[8, 6, 4]).armor(5, 5),
        track("pzg", UnitClass::Mechanized, &[5, 4, 3]),
    ];
    let defenders = vec![
        track("t34", UnitClass::Armor, &[6, 5, 4]).armor(3, 3),
        track("rifles", UnitClass::Infantry, &[4, 3, 2]),
    ];
    let s = situation(open, attackers, defenders);
    let a = assess(&rs.combat, &s).unwrap();
    assert!(
        a.modifiers
            .iter()
            .any(|m| m.side == Role::Attacker && m.source.contains("armor advantage (5 vs 3)"))
    );
    // 13 vs 10: the attacker's die 6 scores 3 (boxes 1, 4, 8); the defender's die 1 scores 0.
    let (r, _, _) = resolve_with(&rs.combat, &s, &[6, 1]);
    assert_eq!(r.attacker.hits_scored, 3);
    // Extra hit on the T-34 first, then the rifles (fewest hits), then the T-34 again.
    assert_eq!(r.defender.units[0].steps_lost, 2);
    assert_eq!(r.defender.units[1].steps_lost, 2);
    // The defender (10 on a 1) scores nothing, and has no advantage to add a hit.
    assert_eq!((r.defender.hits_scored, r.attacker.steps_lost), (0, 0));
}

#[test]
fn rommel_spreads_hits_fresh_units_first() {
    let rs = ruleset("rommel");
    let woods = terrain(&rs, "woods");
    let attackers = vec![track("a", UnitClass::Infantry, &[30, 20, 10])];
    let defenders = vec![
        track("worn", UnitClass::Infantry, &[4, 3, 2]).lost(1),
        track("fresh", UnitClass::Infantry, &[4, 3, 2]),
    ];
    let s = situation(woods, attackers, defenders);
    // 30 on a 4: 5 hits (5, 9, 15, 21, 26) -> fresh, worn, fresh, worn (shattered), fresh.
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4, 1]);
    assert_eq!(r.attacker.hits_scored, 5);
    assert_eq!(r.defender.units[1].steps_lost, 3);
    assert!(r.defender.units[1].eliminated);
    assert_eq!(r.defender.units[0].steps_lost, 2);
    assert!(r.defender.units[0].eliminated);
    assert!(r.cell_taken && r.attacker.retreat.is_none());
}

#[test]
fn rommel_evasion_withdraw_and_pinning_attack() {
    let rs = ruleset("rommel");
    let t = terrain(&rs, "hills");
    let attackers = vec![track("a", UnitClass::Infantry, &[12, 8])];
    let defenders = vec![
        track("recce", UnitClass::Recon, &[3, 2])
            .lost(1)
            .with_trait(UnitTrait::Mobile),
    ];
    let mut s = situation(t, attackers, defenders);
    // 12 on a 1: one hit, the last step of a mobile unit: it evades.
    let (r, _, _) = resolve_with(&rs.combat, &s, &[1, 1]);
    assert_eq!(r.defender.steps_lost, 0);
    assert!(r.defender.units[0].retreats && r.cell_taken);
    s.choices.evade = false;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[1, 1]);
    assert!(r.defender.units[0].eliminated);
    s.choices.evade = true;
    s.attack.tactics = vec![Tactic::PinningAttack];
    let (r, _, _) = resolve_with(&rs.combat, &s, &[1, 1]);
    assert!(r.defender.units[0].eliminated, "no evasion against a Pinning Attack");
    // Withdraw: no dice, the defender leaves; a Pinning Attack negates it.
    s.attack.tactics.clear();
    s.defense.tactics = vec![Tactic::Withdraw];
    let (r, _, rolled) = resolve_with(&rs.combat, &s, &[]);
    assert_eq!((rolled, r.code.clone(), r.cell_taken), (0, ResultCode::NoCombat, true));
    assert!(r.defender.units[0].gained.has(UnitStatus::Tipped));
    s.attack.tactics = vec![Tactic::PinningAttack];
    let (_, _, rolled) = resolve_with(&rs.combat, &s, &[1, 1]);
    assert_eq!(rolled, 2);
}

#[test]
fn rommel_refuses_ineligible_barrage_and_too_many_tactics() {
    let case = CombatCase::load("tests/cases/rommel-mountain-example.ron").unwrap();
    let rules = &case.ruleset.combat;
    let refusal = |f: &dyn Fn(&mut hexfront::combat::Situation)| {
        let mut s = case.situation.clone();
        f(&mut s);
        assess(rules, &s).expect_err("refused").0
    };
    assert!(refusal(&|s| s.attack.barrage[0].unit.statuses.insert(UnitStatus::Tipped)).contains("is tipped"));
    assert!(refusal(&|s| s.attack.barrage[0].distance = 3).contains("beyond its range of 2"));
    let woods = case.ruleset.terrain_ids["woods"];
    assert!(refusal(&|s| s.attack.barrage[0].terrain = woods).contains("urban or woods"));
    assert!(refusal(&|s| s.attack.barrage[0].unit.element = Some("3 Pz".into())).contains("own element or parent"));
    assert!(refusal(&|s| s.defense.tactics.push(Tactic::Recce)).contains("one tactic per unit"));
    assert!(refusal(&|s| s.defense.tactics = vec![Tactic::Infiltration(None)]).contains("only the attacker"));
    // Low supply barrages for 1.
    let mut s = case.situation.clone();
    s.attack.barrage[0].unit.statuses.insert(UnitStatus::LowSupply);
    assert_eq!(assess(rules, &s).unwrap().attack_total, 18.0);
}

/// The War Against Russia CRT as published (shared/rules/README.md), roll 6 first.
const WAR_CRT: [[&str; 11]; 6] = [
    ["D/AE", "D", "DR", "DR", "DR", "DR", "DE", "BR", "BR", "BR", "BR"],
    ["AE", "-", "D", "dw", "DW", "DR", "DR", "DE", "BR", "BR", "BR"],
    ["AE", "D/AE", "-", "D", "dw", "DW", "DR", "DR", "DE", "BR", "BR"],
    ["AE", "AE", "-", "-", "D", "dw", "DW", "DR", "DE", "DE", "BR"],
    ["AE", "AE", "AE", "X", "-", "D", "dw", "DW", "DR", "DE", "DE"],
    ["AE", "AE", "AE", "AE", "X", "X", "D", "dw", "DR", "DR", "DE"],
];

#[test]
fn war_against_russia_all_66_crt_cells() {
    let rs = ruleset("war-against-russia");
    let clear = terrain(&rs, "clear");
    // Attack and defense that land exactly on each column.
    let odds = [
        (1, 4),
        (1, 3),
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 2),
        (6, 2),
        (8, 2),
        (10, 2),
        (14, 2),
        (20, 2),
    ];
    for (c, &(att, def)) in odds.iter().enumerate() {
        for (k, row) in WAR_CRT.iter().enumerate() {
            let roll = 6 - k as u8;
            let s = situation(
                clear,
                vec![unit("de", UnitClass::Infantry, att, att).nation("german")],
                vec![unit("su", UnitClass::Infantry, def, def).nation("soviet")],
            );
            let a = assess(&rs.combat, &s).unwrap();
            assert_eq!(a.cell.as_ref().unwrap().column_index, c);
            let (r, _, _) = resolve_with(&rs.combat, &s, &[roll]);
            let expected = row[c];
            let at = format!("roll {roll} at {}:{}", att, def);
            assert_eq!(r.code, ResultCode::Table(expected.into()), "{at}");
            let att_gone = r.attacker.units[0].eliminated;
            let def = &r.defender.units[0];
            let retreat = r.defender.retreat.map(|d| (d.cells, d.optional));
            let dispersed = def.gained.has(UnitStatus::Dispersed);
            match expected {
                "AE" => assert!(att_gone && !def.eliminated && retreat.is_none(), "{at}"),
                "D/AE" => assert!(att_gone && dispersed && retreat == Some((1, true)), "{at}"),
                "D" => assert!(
                    !att_gone && dispersed && retreat == Some((1, true)) && !r.cell_taken,
                    "{at}"
                ),
                "-" => assert!(
                    !att_gone && !def.eliminated && def.gained.is_empty() && retreat.is_none(),
                    "{at}"
                ),
                "dw" => assert!(!dispersed && retreat == Some((1, false)) && r.cell_taken, "{at}"),
                "DW" => assert!(!dispersed && retreat == Some((2, false)) && r.cell_taken, "{at}"),
                "DR" => assert!(dispersed && retreat == Some((2, false)) && r.cell_taken, "{at}"),
                "DE" => assert!(def.eliminated && !r.attacker.advance.unwrap().attack_again, "{at}"),
                "BR" => assert!(def.eliminated && r.attacker.advance.unwrap().attack_again, "{at}"),
                // Exchange: the attacker (2 or 3 factors) pays the defense (2): eliminated.
                "X" => assert!(def.eliminated && att_gone, "{at}"),
                other => panic!("unexpected {other}"),
            }
        }
    }
}

#[test]
fn war_against_russia_odds_round_in_the_defenders_favour() {
    let rs = ruleset("war-against-russia");
    let clear = terrain(&rs, "clear");
    let column = |att: u32, def: u32| {
        let s = situation(
            clear,
            vec![unit("de", UnitClass::Infantry, att, att).nation("german")],
            vec![unit("su", UnitClass::Infantry, def, def).nation("soviet")],
        );
        assess(&rs.combat, &s).map(|a| a.cell.unwrap().column)
    };
    assert_eq!(column(13, 5).unwrap(), "2:1");
    assert_eq!(column(14, 5).unwrap(), "2:1");
    assert_eq!(column(15, 5).unwrap(), "3:1");
    assert_eq!(column(9, 1).unwrap(), "7:1");
    assert_eq!(column(40, 1).unwrap(), "10:1", "above 10:1 uses 10:1");
    assert_eq!(column(2, 3).unwrap(), "1:2");
    let refused = column(1, 5).unwrap_err().0;
    assert!(
        refused.contains("below 1:4: attacks below 1:4 are not allowed"),
        "{refused}"
    );
}

#[test]
fn war_against_russia_terrain_rivers_and_conversions() {
    let rs = ruleset("war-against-russia");
    let hills = terrain(&rs, "hills");
    let clear = terrain(&rs, "clear");
    let de = |a: u32| {
        unit("de", UnitClass::Infantry, a, a)
            .nation("german")
            .crossing(EdgeFeature::River)
    };
    // Hills +1 per infantry; the river shifts one column (Soviet defenders).
    let s = situation(
        hills,
        vec![de(12)],
        vec![unit("su", UnitClass::Infantry, 3, 3).nation("soviet")],
    );
    let a = assess(&rs.combat, &s).unwrap();
    assert_eq!(a.defense_total, 4.0);
    assert_eq!(
        a.cell.as_ref().map(|c| (c.base_column.as_str(), c.column.as_str())),
        Some(("3:1", "2:1"))
    );
    // Two columns for a stack with Germans; none when an attacker is on the same side.
    let s = situation(
        clear,
        vec![
            unit("su", UnitClass::Infantry, 12, 12)
                .nation("soviet")
                .crossing(EdgeFeature::River),
        ],
        vec![unit("de", UnitClass::Infantry, 3, 3).nation("german")],
    );
    assert_eq!(assess(&rs.combat, &s).unwrap().cell.unwrap().column, "2:1");
    let mut s = situation(
        clear,
        vec![de(6), unit("de2", UnitClass::Infantry, 6, 6).nation("german")],
        vec![unit("su", UnitClass::Infantry, 3, 3).nation("soviet")],
    );
    assert_eq!(assess(&rs.combat, &s).unwrap().cell.unwrap().column, "4:1");
    // Dispersed defenders: +1 column.
    s.defenders[0].statuses.insert(UnitStatus::Dispersed);
    assert_eq!(assess(&rs.combat, &s).unwrap().cell.unwrap().column, "5:1");
    // Victory city: doubled, plus intrinsic.
    let mut s = situation(
        clear,
        vec![unit("de", UnitClass::Infantry, 20, 20).nation("german")],
        vec![unit("su", UnitClass::Infantry, 3, 3).nation("soviet")],
    );
    s.conditions.city = Some(hexfront::combat::City::VictoryCity(2));
    let a = assess(&rs.combat, &s).unwrap();
    assert_eq!(a.defense_total, 10.0, "(3 + 1 major-city bonus) x 2 + 2");
    // Surrounded: DR becomes DE (2:1, roll 6 is DR).
    let mut s = situation(
        clear,
        vec![unit("de", UnitClass::Infantry, 8, 8).nation("german")],
        vec![unit("su", UnitClass::Infantry, 4, 4).nation("soviet")],
    );
    s.conditions.surrounded = true;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[6]);
    assert!(r.defender.units[0].eliminated);
    assert_eq!(r.code, ResultCode::Table("DR -> DE".into()));
    // No Retreat!: DW becomes D (2:1, roll 4 is DW).
    s.conditions.surrounded = false;
    s.defense.no_retreat = true;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4]);
    assert_eq!(r.code, ResultCode::Table("DW -> D".into()));
    assert!(r.defender.units[0].gained.has(UnitStatus::Dispersed) && !r.cell_taken);
    // Overrun: armor more than twice unsupported infantry in the open, good weather: DE -> BR.
    let s = situation(
        clear,
        vec![unit("pz", UnitClass::Armor, 12, 12).nation("german")],
        vec![unit("su", UnitClass::Infantry, 3, 3).nation("soviet")],
    );
    let (r, _, _) = resolve_with(&rs.combat, &s, &[6]);
    assert_eq!(r.code, ResultCode::Table("BR".into()), "4:1 roll 6 is already BR");
    let (r, _, _) = resolve_with(&rs.combat, &s, &[5]);
    assert_eq!(r.code, ResultCode::Table("DE -> BR".into()));
}

#[test]
fn war_against_russia_german_exchange_rates() {
    let rs = ruleset("war-against-russia");
    let clear = terrain(&rs, "clear");
    let mut s = situation(
        clear,
        vec![
            unit("de-a", UnitClass::Infantry, 2, 2).nation("german"),
            unit("de-b", UnitClass::Infantry, 6, 6).nation("german"),
            unit("ro", UnitClass::Infantry, 8, 8).nation("romanian"),
        ],
        vec![unit("su", UnitClass::Infantry, 4, 4).nation("soviet")],
    );
    s.choices.german_exchange = true;
    // 16:4 = 4:1; roll 6 is BR (no exchange), roll 4 is DR: exchange at 0.5 x 4 = 2 factors.
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4]);
    assert_eq!(r.code, ResultCode::Table("DR -> X".into()));
    assert!(r.defender.units[0].eliminated);
    assert_eq!(
        r.attacker.units.iter().map(|u| u.eliminated).collect::<Vec<_>>(),
        [true, false, false]
    );
    // Roll 1 is dw: 2.0 x 4 = 8 factors, which only the Germans may pay (2 + 6), never the Romanians.
    let (r, _, _) = resolve_with(&rs.combat, &s, &[1]);
    assert_eq!(
        r.attacker.units.iter().map(|u| u.eliminated).collect::<Vec<_>>(),
        [true, true, false]
    );
    // In mud the Germans may not exchange.
    s.weather = hexfront::combat::Weather::Mud;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4]);
    assert_eq!(r.code, ResultCode::Table("DR".into()));
}

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
    s.choices.ignore_retreat = true;
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
    s.choices.ignore_retreat = false;
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
