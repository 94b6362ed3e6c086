//! Rommel's and War Against Russia's worked examples and tables, reproduced exactly: the grid
//! box by box, its three checks and the complete example of combat; all 66 CRT cells; plus the
//! rules around them.

mod common;

use common::*;
use hexfront::combat::rommel::shift_hits;
use hexfront::combat::{CombatRules, Effect, ResultCode, Role, Tactic, assess};
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
        log.iter().any(|l| l.contains("rolls 5: 4 hits, +1 -3 shifts = 2")),
        "{log:?}"
    );
    assert!(
        log.iter().any(|l| l.contains("defender (3) rolls 3: 0 hits")),
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
                "D/AE" => assert!(att_gone && dispersed && retreat.is_none(), "{at}"),
                "D" => {
                    // Dispersed; the voluntary retreat only when the defender chose it.
                    assert!(
                        !att_gone && dispersed && retreat.is_none() && !r.cell_taken && !def.retreats,
                        "{at}"
                    );
                    let mut chose = s.clone();
                    chose.choices.defender_withdraws = true;
                    let (r2, _, _) = resolve_with(&rs.combat, &chose, &[roll]);
                    let d2 = &r2.defender.units[0];
                    assert!(
                        d2.retreats
                            && d2.gained.has(UnitStatus::Dispersed)
                            && r2.defender.retreat.map(|d| (d.cells, d.optional)) == Some((1, true)),
                        "{at}: retreats when chosen"
                    );
                    assert_eq!(r2.defender.retreat.map(|d| (d.cells, d.optional)), Some((1, true)));
                }
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
    // The owner may name who pays: de-b (6) instead of the automatic smallest cover (de-a, 2).
    s.attackers[1].loss_rank = 1;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4]);
    assert_eq!(
        r.attacker.units.iter().map(|u| u.eliminated).collect::<Vec<_>>(),
        [false, true, false]
    );
    // Named units that do not cover the loss are completed by the automatic choice; a named
    // Romanian is never made to pay.
    s.attackers[1].loss_rank = 0;
    s.attackers[2].loss_rank = 1;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4]);
    assert_eq!(
        r.attacker.units.iter().map(|u| u.eliminated).collect::<Vec<_>>(),
        [true, false, false]
    );
    s.attackers[2].loss_rank = 0;
    // In mud the Germans may not exchange.
    s.weather = hexfront::combat::Weather::Mud;
    let (r, _, _) = resolve_with(&rs.combat, &s, &[4]);
    assert_eq!(r.code, ResultCode::Table("DR".into()));
}
