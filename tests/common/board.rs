//! Small fixture scenarios written inline (a few rows of terrain, a few units) and helpers that
//! drive them through the headless game with the players' own orders: phases, forced dice,
//! attacks, retreat options.

use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use hexfront::game::combat_phase::{CombatResolved, PendingAnswer, PendingCombat, UnitData};
use hexfront::game::components::*;
use hexfront::game::execute::{OrderRefused, issue};
use hexfront::game::headless_app;
use hexfront::game::order::{AttackOrder, DefenseOrder, Order};
use hexfront::game::phase::Phase;
use hexfront::game::retreat::retreat_options;
use hexfront::game::settle::settle;
use hexfront::game::zoc::Zoc;
use hexfront::rules::grid::{Cell, parse_label};
use hexfront::rules::retreat::RetreatOptions;
use hexfront::rules::zoc::ZocMap;
use hexfront::scenario::Scenario;

/// A unit line for `fixture`: `unit("a", "blue", "Infantry", "Brigade", "0203", "strength: 2")`.
pub fn unit(id: &str, side: &str, class: &str, size: &str, cell: &str, values: &str) -> String {
    format!(
        "(id: \"{id}\", name: \"{id}\", side: \"{side}\", class: {class}, size: {size}, cell: \"{cell}\", movement: 6, {values}),"
    )
}

/// A scenario of `ruleset` on `grid` (`Square(diagonals: false)`, `Hex(top: Flat)`): `rows` of
/// `legend` characters, `map_extra` (edges, roads), two sides (blue: home edge West, moves first;
/// red: home edge East) and `units`.
pub fn fixture(ruleset: &str, grid: &str, legend: &str, rows: &[&str], map_extra: &str, units: &[String]) -> Scenario {
    fixture_with(ruleset, grid, legend, rows, map_extra, units, "")
}

/// `fixture` with more scenario fields (`objectives: [...], win: [...], otherwise: "red",`).
pub fn fixture_with(
    ruleset: &str,
    grid: &str,
    legend: &str,
    rows: &[&str],
    map_extra: &str,
    units: &[String],
    more: &str,
) -> Scenario {
    let text = format!(
        r##"Scenario(
    name: "Test", setting: "Test fixture", description: "Inline test fixture.", ruleset: "{ruleset}",
    map: (grid: {grid}, width: {w}, height: {h}, legend: {{{legend}}}, rows: [{rows}], {map_extra}),
    sides: [
        (id: "blue", name: "Blue", color: "#3050c0", home_edge: West),
        (id: "red", name: "Red", color: "#c03030", home_edge: East),
    ],
    first_side: "blue", turns: 3, victory: "None.", {more}
    units: [{units}],
)"##,
        w = rows[0].len(),
        h = rows.len(),
        rows = rows.iter().map(|r| format!("\"{r}\"")).collect::<Vec<_>>().join(", "),
        units = units.join("\n"),
    );
    Scenario::from_ron_str("inline-fixture.ron", &text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

pub fn start(scenario: &Scenario) -> App {
    let mut app = headless_app(scenario, 1);
    app.update();
    app
}

/// `start`, then on to turn 2's first movement phase (past Next War's first-turn ZOC exception).
#[allow(dead_code)]
pub fn start_in_turn_2(scenario: &Scenario) -> App {
    let mut app = start(scenario);
    for _ in 0..12 {
        let turn = app.world().resource::<hexfront::game::phase::TurnState>().clone();
        if turn.turn == 2 && turn.active == turn.first_side && phase(&app) == Phase::Movement {
            return app;
        }
        give(&mut app, Order::EndPhase).unwrap();
    }
    panic!("turn 2 never came");
}

pub fn cell(label: &str) -> Cell {
    parse_label(label).unwrap()
}

/// Unit ids as an order writes them.
pub fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Gives `order` as the side entitled to it (as the hotseat client does). A refusal is returned
/// and also written as an `OrderRefused` message, for `refusals`.
pub fn give(app: &mut App, order: Order) -> Result<(), String> {
    match issue(app.world_mut(), order) {
        Ok(_) => Ok(()),
        Err(refused) => {
            let reason = refused.reason.clone();
            app.world_mut().write_message(refused);
            Err(reason)
        }
    }
}

pub fn id(app: &mut App, id: &str) -> Entity {
    find(app, id).unwrap_or_else(|| panic!("no unit {id}"))
}

pub fn find(app: &mut App, id: &str) -> Option<Entity> {
    let mut q = app.world_mut().query::<(Entity, &Unit)>();
    q.iter(app.world()).find(|(_, u)| u.id == id).map(|(e, _)| e)
}

/// Where unit `id` stands, as a label; `None` once eliminated.
pub fn at(app: &mut App, id: &str) -> Option<String> {
    let e = find(app, id)?;
    app.world().get::<Position>(e).map(|p| p.0.to_string())
}

pub fn steps_left(app: &mut App, id: &str) -> usize {
    let e = self::id(app, id);
    app.world().get::<Steps>(e).unwrap().0.remaining()
}

pub fn phase(app: &App) -> Phase {
    *app.world().resource::<State<Phase>>().get()
}

pub fn to_phase(app: &mut App, wanted: Phase) {
    for _ in 0..6 {
        if phase(app) == wanted {
            return;
        }
        give(app, Order::EndPhase).unwrap();
    }
    assert_eq!(phase(app), wanted);
}

pub fn zoc(app: &App) -> ZocMap {
    app.world().resource::<Zoc>().0.clone()
}

pub fn log(app: &App) -> Vec<String> {
    app.world().resource::<GameLog>().0.clone()
}

/// Attacks with these dice forced (in Rommel the defender answers with no tactics, and a result
/// with a choice gets the defender's plain answer); the game
/// carries out the retreats and advances that need no choice. Returns the refusal or the result.
pub fn attack(app: &mut App, attackers: &[&str], target: &str, dice: &[u8]) -> Result<CombatResolved, String> {
    app.world_mut().resource_mut::<GameRng>().forced = dice.to_vec();
    app.world_mut().resource_mut::<Messages<OrderRefused>>().clear();
    app.world_mut().resource_mut::<Messages<CombatResolved>>().clear();
    give(app, Order::Attack(AttackOrder::plain(ids(attackers), cell(target))))?;
    if app.world().resource::<PendingCombat>().0.is_some() {
        give(app, Order::Defend(DefenseOrder::default()))?;
    }
    // A result that leaves the defender a choice: the plain answer.
    if app.world().resource::<PendingAnswer>().0.is_some() {
        give(app, Order::Answer(Default::default()))?;
    }
    let m = app.world().resource::<Messages<CombatResolved>>();
    Ok(m.get_cursor().read(m).last().cloned().expect("the combat is reported"))
}

/// The legal and illegal retreats of unit `who` from where it stands, `length` cells, away from
/// the units `opponents`.
pub fn options(app: &mut App, who: &str, length: u32, opponents: &[&str]) -> RetreatOptions {
    let unit = id(app, who);
    let opponents: Vec<Entity> = opponents.iter().map(|o| id(app, o)).collect();
    let from = app.world().get::<Position>(unit).unwrap().0;
    let mut state: SystemState<(Res<GameMap>, Res<Zoc>, Res<Sides>, Res<MapIndex>, Query<UnitData>)> =
        SystemState::new(app.world_mut());
    let (map, zoc, sides, index, units) = state.get(app.world()).unwrap();
    retreat_options(&map, &zoc.0, &sides, &index, &units, unit, from, length, &opponents)
        .unwrap()
        .1
}

/// Legal retreat paths as label strings, e.g. `["0102>0101", …]`, sorted.
pub fn legal(options: &RetreatOptions) -> Vec<String> {
    let mut v: Vec<String> = options
        .legal
        .iter()
        .map(|p| p.cells.iter().map(ToString::to_string).collect::<Vec<_>>().join(">"))
        .collect();
    v.sort();
    v
}

/// The reason given for the illegal path (or first part) ending in `label`.
pub fn why(options: &RetreatOptions, label: &str) -> String {
    options
        .illegal
        .iter()
        .find(|x| x.cells.last().unwrap().to_string() == label)
        .map(|x| x.reason.clone())
        .unwrap_or_else(|| panic!("no illegal path to {label}: {:?}", options.illegal))
}

/// Every cell unit `who` (alone) can reach now, with its cost and whether it must stop there.
pub fn reach(app: &mut App, who: &str) -> std::collections::BTreeMap<String, (f32, bool)> {
    use hexfront::game::movement::{movers_and_others, search_moves};
    use hexfront::game::phase::TurnState;
    let unit = id(app, who);
    let mut state: SystemState<(
        Res<GameMap>,
        Res<Zoc>,
        Res<TurnState>,
        Query<hexfront::game::movement::MoverData>,
    )> = SystemState::new(app.world_mut());
    let (map, zoc, turn, units) = state.get(app.world()).unwrap();
    let (movers, others) = movers_and_others(&[unit], &units).unwrap();
    let search = search_moves(&map, &zoc.0, Phase::Movement, turn.active, &movers, &others).unwrap();
    search
        .reach
        .iter()
        .map(|(c, r)| (c.to_string(), (r.spent.as_f32(), r.must_stop)))
        .collect()
}

/// Puts a retreat demand on each unit of `who` (as one combat result would) and lets the game
/// carry out what needs no choice.
pub fn order_retreats(app: &mut App, who: &[&str], cells: u32, chooser: hexfront::combat::Chooser, opponents: &[&str]) {
    use hexfront::game::combat_phase::{PendingRetreat, PendingRetreats};
    if phase(app) != Phase::Combat {
        to_phase(app, Phase::Combat);
    }
    let opponents: Vec<Entity> = opponents.iter().map(|o| id(app, o)).collect();
    for w in who {
        let unit = id(app, w);
        let from = app.world().get::<Position>(unit).unwrap().0;
        app.world_mut()
            .resource_mut::<PendingRetreats>()
            .0
            .push(PendingRetreat {
                unit,
                from,
                demand: hexfront::combat::RetreatDemand {
                    cells,
                    chooser,
                    optional: false,
                    er_check_in_ezoc: true,
                },
                opponents: opponents.clone(),
                check_first: false,
            });
    }
    settle(app.world_mut());
}

pub fn order_retreat(app: &mut App, who: &str, cells: u32, chooser: hexfront::combat::Chooser, opponents: &[&str]) {
    order_retreats(app, &[who], cells, chooser, opponents);
}

/// Forces the next dice the game rolls.
pub fn force_dice(app: &mut App, dice: &[u8]) {
    app.world_mut().resource_mut::<GameRng>().forced = dice.to_vec();
}

/// Puts an advance right on `attackers` into `into` (as a combat result would) and lets the game
/// carry out what needs no choice.
pub fn order_advance(
    app: &mut App,
    attackers: &[&str],
    followers: &[&str],
    into: &str,
    right: hexfront::combat::AdvanceRight,
) {
    use hexfront::game::combat_phase::{PendingAdvance, PendingAdvances};
    if phase(app) != Phase::Combat {
        to_phase(app, Phase::Combat);
    }
    let attackers: Vec<Entity> = attackers.iter().map(|a| id(app, a)).collect();
    let followers: Vec<Entity> = followers.iter().map(|a| id(app, a)).collect();
    app.world_mut()
        .resource_mut::<PendingAdvances>()
        .0
        .push(PendingAdvance {
            attackers,
            followers,
            into: cell(into),
            right,
            moved: Vec::new(),
        });
    settle(app.world_mut());
}

/// The reasons of the orders refused since the last clear.
pub fn refusals(app: &mut App) -> Vec<String> {
    let m = app.world().resource::<Messages<OrderRefused>>();
    m.get_cursor().read(m).map(|r| r.reason.clone()).collect()
}
