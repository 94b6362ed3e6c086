//! Advance after combat, one test per rule: Next War's mandatory advance, zero-attack followers
//! and second-hex advance; War Against Russia's breakthrough; Small General's automatic move-in;
//! Killing Ground's optional advance (our choice, its 8.11 being missing); Rommel's square.

mod common;

use bevy::prelude::*;
use common::board::*;
use hexfront::combat::AdvanceRight;
use hexfront::game::combat_phase::{Attacked, PendingAdvances};
use hexfront::game::components::MovePoints;
use hexfront::game::order::Order;
use hexfront::game::retreat::AfterCombatMode;
use hexfront::rules::advance::advance_targets;
use hexfront::rules::terrain::Mobility;

const HEXES: &str = "Hex(top: Flat)";

fn right(cells: u32, mandatory: bool, attack_again: bool) -> AdvanceRight {
    AdvanceRight {
        cells,
        mandatory,
        attack_again,
    }
}

fn manual(app: &mut App) {
    app.insert_resource(AfterCombatMode { automatic: false });
}

#[test]
fn next_war_at_least_one_attacker_must_advance_and_zero_attack_units_may_only_follow_one() {
    let units = [
        unit("att", "blue", "Infantry", "Brigade", "0201", "strength: 3, er: 3"),
        unit(
            "hq",
            "blue",
            "Headquarters",
            "Brigade",
            "0201",
            "attack: 0, defense: 1, er: 3",
        ),
        unit("r", "red", "Infantry", "Brigade", "0501", "strength: 1, er: 3"),
    ];
    let mut app = start(&fixture("next-war", HEXES, "'.': \"flat\"", &["....."], "", &units));
    manual(&mut app);
    order_advance(&mut app, &["att"], &["hq"], "0301", right(1, true, false));
    let advance = |who: &str| Order::Advance {
        units: ids(&[who]),
        to: cell("0301"),
    };
    let _ = give(&mut app, Order::EndAdvance);
    assert_eq!(
        refusals(&mut app),
        ["at least one attacking unit must advance into 0301"]
    );
    let _ = give(&mut app, advance("hq"));
    assert!(
        refusals(&mut app)
            .last()
            .unwrap()
            .contains("has no attack strength and may only follow an advancing attacker")
    );
    give(&mut app, advance("att")).unwrap();
    give(&mut app, advance("hq")).unwrap();
    assert_eq!(at(&mut app, "att").unwrap(), "0301");
    assert_eq!(at(&mut app, "hq").unwrap(), "0301");
    assert!(app.world().resource::<PendingAdvances>().0.is_empty());
}

#[test]
fn next_war_second_hex_advance_is_for_vehicles_into_vacant_hexes_not_urban_and_by_road_into_highland_or_across_rivers()
{
    // Around 0302: 0202 urban, 0402 highland, a river toward 0303, 0401 held, 0201 and 0301 open.
    let s = fixture(
        "next-war",
        HEXES,
        "'.': \"flat\", 'u': \"urban\", 'h': \"highland\"",
        &["....", ".u.h", "...."],
        "edges: [(feature: River, between: [(\"0302\", \"0303\")])]",
        &[unit("x", "red", "Infantry", "Brigade", "0401", "strength: 1, er: 3")],
    );
    let occupied = |c: hexfront::rules::grid::Cell| c == cell("0401");
    let targets = |mobility| {
        advance_targets(
            &s.board,
            &s.ruleset.movement,
            &s.ruleset.advance,
            mobility,
            cell("0302"),
            2,
            &occupied,
        )
    };
    let verdict = |mobility, label: &str| {
        targets(mobility)
            .into_iter()
            .find(|t| t.cell == cell(label))
            .unwrap()
            .allowed
    };
    assert_eq!(verdict(Mobility::Mechanized, "0302"), Ok(()));
    assert_eq!(verdict(Mobility::Mechanized, "0201"), Ok(()));
    assert_eq!(verdict(Mobility::Mechanized, "0301"), Ok(()));
    assert_eq!(verdict(Mobility::Mechanized, "0401"), Err("0401 is not vacant".into()));
    assert_eq!(
        verdict(Mobility::Mechanized, "0202"),
        Err("a second-cell advance may not enter Urban".into())
    );
    assert_eq!(
        verdict(Mobility::Mechanized, "0402"),
        Err("a second-cell advance into Highland needs a road or bridge from 0302".into())
    );
    assert_eq!(
        verdict(Mobility::Mechanized, "0303"),
        Err("a second-cell advance across a river needs a road or bridge from 0302".into())
    );
    assert_eq!(
        verdict(Mobility::Foot, "0201"),
        Err("only mechanized and motorized units make a second-cell advance".into())
    );
    // With a road into the highland hex it is allowed.
    let s2 = fixture(
        "next-war",
        HEXES,
        "'.': \"flat\", 'u': \"urban\", 'h': \"highland\"",
        &["....", ".u.h", "...."],
        "roads: [[\"0302\", \"0402\"]]",
        &[],
    );
    let t = advance_targets(
        &s2.board,
        &s2.ruleset.movement,
        &s2.ruleset.advance,
        Mobility::Motorized,
        cell("0302"),
        2,
        &|_| false,
    );
    assert_eq!(t.iter().find(|t| t.cell == cell("0402")).unwrap().allowed, Ok(()));
}

#[test]
fn next_war_advancing_into_urban_places_a_clearing_marker() {
    let units = [unit("att", "blue", "Infantry", "Brigade", "0201", "strength: 3, er: 3")];
    let mut app = start(&fixture(
        "next-war",
        HEXES,
        "'.': \"flat\", 'u': \"urban\"",
        &["..u.."],
        "",
        &units,
    ));
    order_advance(&mut app, &["att"], &[], "0301", right(1, true, false));
    app.update();
    let att = id(&mut app, "att");
    assert_eq!(at(&mut app, "att").unwrap(), "0301");
    let statuses = app.world().get::<hexfront::game::components::Statuses>(att).unwrap();
    assert!(statuses.has(hexfront::rules::units::UnitStatus::Clearing));
}

#[test]
fn war_against_russia_breakthrough_lets_the_attackers_advance_and_attack_again() {
    let units = [
        unit("a", "blue", "Armor", "Corps", "0201", "strength: 10"),
        unit("d", "red", "Infantry", "Corps", "0301", "strength: 1"),
        unit("e", "red", "Infantry", "Corps", "0401", "strength: 1"),
    ];
    let mut app = start(&fixture(
        "war-against-russia",
        HEXES,
        "'.': \"clear\"",
        &["......", "......"],
        "",
        &units,
    ));
    to_phase(&mut app, hexfront::game::phase::Phase::Combat);
    // 10:1, a 4: BR.
    let r = attack(&mut app, &["a"], "0301", &[4]).unwrap();
    assert!(r.summary.starts_with("BR"), "{}", r.summary);
    let a = id(&mut app, "a");
    assert_eq!(at(&mut app, "a").unwrap(), "0301");
    assert!(
        app.world().get::<Attacked>(a).is_none(),
        "the breakthrough frees it to attack again"
    );
    let again = attack(&mut app, &["a"], "0401", &[4]);
    assert!(again.is_ok(), "{again:?}");
}

#[test]
fn small_general_attacker_moves_in_automatically_and_units_that_fought_lose_their_movement() {
    let units = [
        unit("a1", "blue", "Infantry", "Regiment", "0201", "strength: 5"),
        unit("a2", "blue", "Infantry", "Regiment", "0302", "strength: 5"),
        unit("d", "red", "Infantry", "Regiment", "0301", "strength: 1"),
    ];
    let mut app = start(&fixture(
        "small-general",
        HEXES,
        "'.': \"grass\"",
        &["....", "...."],
        "",
        &units,
    ));
    manual(&mut app); // Small General moves in without asking, even so.
    to_phase(&mut app, hexfront::game::phase::Phase::Combat);
    let r = attack(&mut app, &["a1"], "0301", &[6, 6, 6]).unwrap();
    assert!(r.summary.contains("Destroyed"), "{}", r.summary);
    assert_eq!(find(&mut app, "d"), None);
    assert_eq!(at(&mut app, "a1").unwrap(), "0301");
    assert_eq!(at(&mut app, "a2").unwrap(), "0302");
    let mp = |app: &mut App, who: &str| {
        let e = id(app, who);
        *app.world().get::<MovePoints>(e).unwrap()
    };
    let fought = mp(&mut app, "a1");
    assert_eq!(fought.spent, fought.allowance, "a1 fought");
    assert_eq!(mp(&mut app, "a2").spent.0, 0, "a2 did not");
}

#[test]
fn killing_ground_advance_is_optional_and_automatic_play_advances_the_strongest_as_stacking_allows() {
    let units = [
        unit("s", "blue", "Infantry", "Battalion", "0201", "strength: 2"),
        unit("b", "blue", "Armor", "Battalion", "0201", "strength: 5"),
        unit("c", "blue", "Infantry", "Battalion", "0201", "strength: 3"),
        unit("x", "blue", "Infantry", "Battalion", "0301", "strength: 1"),
        unit("y", "blue", "Infantry", "Battalion", "0301", "strength: 1"),
    ];
    let s = fixture("killing-ground", HEXES, "'.': \"clear\"", &["....."], "", &units);
    // Declining is allowed.
    let mut app = start(&s);
    manual(&mut app);
    order_advance(&mut app, &["s", "b", "c"], &[], "0301", right(1, false, false));
    give(&mut app, Order::EndAdvance).unwrap();
    assert_eq!(at(&mut app, "b").unwrap(), "0201");
    assert!(app.world().resource::<PendingAdvances>().0.is_empty());
    // Automatic: 0301 already holds 2 of its 3 units, so only the strongest goes.
    let mut app = start(&s);
    order_advance(&mut app, &["s", "b", "c"], &[], "0301", right(1, false, false));
    app.update();
    assert_eq!(at(&mut app, "b").unwrap(), "0301");
    assert_eq!(at(&mut app, "c").unwrap(), "0201");
    assert_eq!(at(&mut app, "s").unwrap(), "0201");
}

/// The breakthrough fixture, red's brigade at 0403 attacked by blue's division and mechanized
/// brigade from 0303 (13 : 6, column 5, +2 for the lead units' ER: column 7); a 2 is "1/1R".
fn breakthrough(manual_choices: bool) -> (App, hexfront::game::combat_phase::CombatResolved) {
    let s = hexfront::scenario::Scenario::load("tests/fixtures/breakthrough.ron").unwrap();
    let mut app = start(&s);
    if manual_choices {
        manual(&mut app);
    }
    to_phase(&mut app, hexfront::game::phase::Phase::Combat);
    let r = attack(&mut app, &["bd", "bm"], "0403", &[2]).unwrap();
    (app, r)
}

#[test]
fn combat_then_retreat_then_advance_through_the_systems() {
    let (mut app, r) = breakthrough(false);
    assert!(r.summary.starts_with("1/1R"), "{}", r.summary);
    // Red retreated two hexes toward its East edge, free of Blue's zone of control.
    assert_eq!(at(&mut app, "rb").unwrap(), "0604");
    assert_eq!(steps_left(&mut app, "rb"), 2);
    // Blue advanced, the strongest first, both (Next War allows over-stacking).
    assert_eq!(at(&mut app, "bd").unwrap(), "0403");
    assert_eq!(at(&mut app, "bm").unwrap(), "0403");
    assert_eq!(steps_left(&mut app, "bd"), 1);
    let step = *app.world().resource::<State<hexfront::game::phase::CombatStep>>().get();
    assert_eq!(
        step,
        hexfront::game::phase::CombatStep::Declare,
        "ready for the next attack"
    );
}

#[test]
fn next_war_mechanized_attacker_chooses_a_second_hex_advance_after_a_two_hex_retreat() {
    let (mut app, _) = breakthrough(true);
    // With choices by hand, Red's retreat waits for its owner; an illegal path is refused.
    assert_eq!(at(&mut app, "rb").unwrap(), "0403");
    let retreat = |path: [&str; 2]| Order::Retreat {
        unit: "rb".into(),
        path: path.iter().map(|c| cell(c)).collect(),
    };
    let _ = give(&mut app, retreat(["0402", "0302"]));
    assert!(
        refusals(&mut app).last().unwrap()
            == "31st Brigade cannot retreat that way: the retreat would end alone in the enemy zone of control of 0303",
        "{:?}",
        refusals(&mut app)
    );
    give(&mut app, retreat(["0504", "0604"])).unwrap();
    assert_eq!(at(&mut app, "rb").unwrap(), "0604");
    let advance = |who: &str, to: &str| Order::Advance {
        units: ids(&[who]),
        to: cell(to),
    };
    // The division (on foot) may not go beyond.
    let _ = give(&mut app, advance("bd", "0503"));
    assert_eq!(
        refusals(&mut app).last().unwrap(),
        "1st Division cannot advance into 0503: only mechanized and motorized units make a second-cell advance"
    );
    give(&mut app, advance("bd", "0403")).unwrap();
    give(&mut app, advance("bm", "0503")).unwrap();
    assert!(
        app.world().resource::<PendingAdvances>().0.is_empty(),
        "both advanced: done"
    );
    assert_eq!(at(&mut app, "bd").unwrap(), "0403");
    assert_eq!(at(&mut app, "bm").unwrap(), "0503");
}
