//! Every unit in every shipped scenario can leave the cell it starts in, or the cell it enters at
//! if it is a reinforcement. Two checks: on an empty board, the pure movement rules (terrain cost
//! per mobility, edge crossings, roads, the unit's allowance) with no units and no zones of
//! control; and in its real starting position (turn-1 units only), the game's own move search
//! (`game::movement::search_moves`) with every other starting unit where it stands, enemy cells
//! blocked (or contested, in Rommel), and the stacking limit where the move ends; enemy zones of
//! control are ignored (an empty `ZocMap`), as a zone stops a move but does not stop a unit from
//! leaving.
//!
//! Found by this check when it was written: Smolensk's de-xxiv at 0616, a clear hex ringed by
//! swamp, which Mechanized units may not enter (it now starts at 0918, where it crossed the Dnieper).

use hexfront::game::components::{GameMap, MovePoints, Side, Statuses};
use hexfront::game::movement::{Mover, Occupancy, may_end_in, search_moves};
use hexfront::game::phase::Phase;
use hexfront::rules::movement::{StepCost, reachable};
use hexfront::rules::terrain::Mp;
use hexfront::rules::zoc::ZocMap;
use hexfront::scenario::{SHIPPED, Scenario, UnitSetup, shipped_scenario};

fn shipped() -> Vec<(&'static str, Scenario)> {
    (0..SHIPPED.len())
        .map(|i| (SHIPPED[i].0, shipped_scenario(i).unwrap_or_else(|e| panic!("{e}"))))
        .collect()
}

/// Why each neighbour of `u`'s cell is closed to it, for the failure message.
fn closed_neighbours(s: &Scenario, u: &UnitSetup) -> String {
    let rules = &s.ruleset.movement;
    s.board
        .grid
        .neighbours(u.cell)
        .map(|n| match rules.step_cost(&s.board, u.cell, n, u.mobility) {
            Err(blocked) => format!("{n}: {blocked}"),
            Ok(StepCost::Points(p)) => format!("{n}: costs {p} of an allowance of {}", u.movement),
            Ok(StepCost::WholeAllowance) => format!("{n}: takes the whole allowance"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn every_unit_can_leave_its_start_cell_on_an_empty_board() {
    let mut stuck = Vec::new();
    for (path, s) in shipped() {
        let rules = &s.ruleset.movement;
        for u in &s.units {
            // A fresh unit (nothing spent), so a whole-allowance crossing (WaR's lakes) counts.
            let reach = reachable(
                &s.board.grid,
                u.cell,
                u.movement,
                true,
                |from, to| rules.step_cost(&s.board, from, to, u.mobility),
                |_| false,
            );
            if !reach.keys().any(|c| *c != u.cell) {
                let when = u.arrives.map_or(String::new(), |t| format!(" (enters on turn {t})"));
                stuck.push(format!(
                    "{path}: {} ({:?}, {:?}) at {}{when} can never move: {}",
                    u.id,
                    u.class,
                    u.mobility,
                    u.cell,
                    closed_neighbours(&s, u)
                ));
            }
        }
    }
    assert!(
        stuck.is_empty(),
        "units that can never leave their cell:\n{}",
        stuck.join("\n")
    );
}

#[test]
fn every_unit_can_leave_its_start_cell_in_its_real_position_ignoring_zones_of_control() {
    let mut stuck = Vec::new();
    for (path, s) in shipped() {
        // The game's own map resource, built as a game starts (robust to GameMap gaining fields).
        let app = hexfront::game::headless_app(&s, 1);
        let map: GameMap = app.world().resource::<GameMap>().clone();
        let no_zoc = ZocMap::empty(map.board.grid);
        let on_map: Vec<&UnitSetup> = s.units.iter().filter(|u| u.arrives.is_none()).collect();
        for u in &on_map {
            let mover = Mover {
                name: u.name.clone(),
                class: u.class,
                side: Side(u.side),
                cell: u.cell,
                mobility: u.mobility,
                move_points: MovePoints {
                    allowance: u.movement,
                    spent: Mp::ZERO,
                },
                stacking_points: u.stacking_points,
                statuses: Statuses(u.status.iter().copied().collect()),
            };
            let mut others = Occupancy::default();
            for o in on_map.iter().filter(|o| o.id != u.id) {
                others
                    .entry(o.cell)
                    .or_default()
                    .push((Side(o.side), o.stacking_points));
            }
            let movers = [mover];
            let search = match search_moves(&map, &no_zoc, Phase::Movement, Side(u.side), &movers, &others) {
                Ok(search) => search,
                Err(why) => {
                    stuck.push(format!("{path}: {} at {} may not move at all: {why}", u.id, u.cell));
                    continue;
                }
            };
            let can_end_elsewhere = search
                .reach
                .keys()
                .filter(|c| **c != u.cell)
                .any(|c| may_end_in(&map, Side(u.side), &movers, &others, *c).is_ok());
            if !can_end_elsewhere {
                stuck.push(format!(
                    "{path}: {} at {} can end no move anywhere else (reachable: {} cells); its neighbours: {}",
                    u.id,
                    u.cell,
                    search.reach.len(),
                    closed_neighbours(&s, u)
                ));
            }
        }
    }
    assert!(
        stuck.is_empty(),
        "units stuck in their real start position:\n{}",
        stuck.join("\n")
    );
}
