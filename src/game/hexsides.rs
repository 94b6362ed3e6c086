//! Small General's simultaneous attack: the cells each target was attacked from in this combat
//! phase, so an attack counts the distinct hexsides used "for all attacks so far including this
//! one" (+1 for two, up to +5 for six). Recorded for every ruleset; only Small General reads the
//! count, and only from rules edition 4 on (`edition::RulesEdition::counts_hexsides`).

use super::phase::Phase;
use crate::rules::grid::{Cell, Grid};
use bevy::prelude::*;
use std::collections::HashMap;

/// Target cell → the cells it was attacked from this combat phase, in the order of the attacks.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackedHexsides(pub HashMap<Cell, Vec<Cell>>);

impl AttackedHexsides {
    /// Notes an attack on `target` from each of `from`.
    pub fn record(&mut self, target: Cell, from: &[Cell]) {
        self.0.entry(target).or_default().extend_from_slice(from);
    }

    /// The distinct hexsides of `target` attacked across so far this phase together with an
    /// attack from `from` (at least 1).
    pub fn count_with(&self, grid: &Grid, target: Cell, from: &[Cell]) -> u32 {
        let earlier = self.0.get(&target).map_or(&[][..], Vec::as_slice);
        let mut sides: Vec<Cell> = earlier
            .iter()
            .chain(from)
            .filter_map(|c| hexside(grid, target, *c))
            .collect();
        sides.sort();
        sides.dedup();
        (sides.len() as u32).max(1)
    }
}

/// The hexside of `target` an attack from `from` crosses, named by the neighbour beyond it: the
/// cell itself (attacks are made from next door); for a cell further off, the first cell of the
/// line towards it; none from inside the target (Rommel's contested squares).
pub fn hexside(grid: &Grid, target: Cell, from: Cell) -> Option<Cell> {
    if target == from {
        return None;
    }
    if grid.are_adjacent(target, from) {
        return Some(from);
    }
    grid.line(target, from).into_iter().find(|c| *c != target)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AttackedHexsides>()
        .add_systems(OnExit(Phase::Combat), forget);
}

fn forget(mut hexsides: ResMut<AttackedHexsides>) {
    hexsides.0.clear();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::{GridKind, HexTop};

    #[test]
    fn distinct_hexsides_are_counted_once_each() {
        let grid = Grid {
            kind: GridKind::Hex { top: HexTop::Flat },
            width: 10,
            height: 10,
        };
        let target = Cell::new(5, 5);
        let around: Vec<Cell> = grid.neighbours(target).collect();
        assert_eq!(around.len(), 6);
        let mut h = AttackedHexsides::default();
        assert_eq!(h.count_with(&grid, target, &[around[0]]), 1);
        h.record(target, &[around[0]]);
        // The same hexside again counts once; another one makes two.
        assert_eq!(h.count_with(&grid, target, &[around[0]]), 1);
        assert_eq!(h.count_with(&grid, target, &[around[1]]), 2);
        for c in &around[1..] {
            h.record(target, &[*c]);
        }
        assert_eq!(h.count_with(&grid, target, &[around[0]]), 6);
        // Another target's record does not count here.
        assert_eq!(h.count_with(&grid, around[0], &[target]), 1);
    }

    #[test]
    fn a_ranged_attack_crosses_the_hexside_towards_its_battery() {
        let grid = Grid {
            kind: GridKind::Hex { top: HexTop::Flat },
            width: 12,
            height: 12,
        };
        let target = Cell::new(5, 5);
        let far = Cell::new(5, 8);
        let side = hexside(&grid, target, far).expect("a hexside");
        assert!(grid.are_adjacent(target, side), "{side:?} is next to {target:?}");
        assert_eq!(grid.distance(side, far), 2);
    }
}
