//! Zones of control: which stacks project a ZOC and where (per ruleset), the ZOC map that answers
//! "is this cell in an enemy ZOC for side S, and who projects it", and what a ZOC costs a move.

use super::grid::{Cell, Grid};
use super::terrain::{Board, EdgeFeatures, Mp, TerrainId};
use smallvec::SmallVec;

/// What entering an enemy zone of control does to a moving unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ZocEffect {
    /// No zones of control.
    None,
    /// A unit entering a cell in an enemy ZOC ends its move.
    StopOnEntry,
}

/// Moving straight from one enemy ZOC into another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EzocToEzoc {
    /// Allowed like any step (and the move stops there).
    #[default]
    Allowed,
    /// Only by spending the whole allowance, from the start of the move (Next War).
    WholeAllowance,
}

/// A ruleset's zone-of-control rules, validated (terrain by `TerrainId`).
#[derive(Clone, Debug, PartialEq)]
pub struct ZocRules {
    pub effect: ZocEffect,
    /// A stack projects into its neighbours only with at least this many stacking points of units
    /// whose attack is at least `min_attack` (Next War: 2 and 1); 0 = every unit projects.
    pub min_stacking_points: u32,
    pub min_attack: u32,
    /// Per terrain: ZOCs do not extend into it (Next War: mountain, urban).
    pub not_into: Vec<bool>,
    /// ZOCs do not extend across these edge features, bridged or not.
    pub not_across: EdgeFeatures,
    /// Units with one of these statuses have no ZOC at all (Next War: Clearing).
    pub none_with: Vec<super::units::UnitStatus>,
    /// Extra movement points to enter an EZOC cell holding no friendly unit.
    pub enter_cost: Mp,
    /// Extra movement points to leave an EZOC cell when that leaves no friendly unit there.
    pub leave_cost: Mp,
    pub ezoc_to_ezoc: EzocToEzoc,
    /// Light infantry moving alone ignores EZOCs, except those in these terrains (Next War: flat,
    /// flat woods); `None` = no light-infantry exception.
    pub light_infantry_bound_in: Option<Vec<bool>>,
    /// ZOCs do not extend into cells that start the scenario under enemy control until the first
    /// movement phase of turn 1 is over (Next War).
    pub not_into_enemy_start_until_first_move: bool,
}

impl ZocRules {
    /// The classic rule: every unit projects into every neighbour; entering one ends a move.
    pub fn classic(terrain_count: usize) -> Self {
        Self {
            effect: ZocEffect::StopOnEntry,
            min_stacking_points: 0,
            min_attack: 0,
            not_into: vec![false; terrain_count],
            not_across: EdgeFeatures::NONE,
            none_with: Vec::new(),
            enter_cost: Mp::ZERO,
            leave_cost: Mp::ZERO,
            ezoc_to_ezoc: EzocToEzoc::Allowed,
            light_infantry_bound_in: None,
            not_into_enemy_start_until_first_move: false,
        }
    }

    fn extends_into(&self, terrain: Option<TerrainId>) -> bool {
        terrain.is_some_and(|t| !self.not_into.get(t.0 as usize).copied().unwrap_or(false))
    }

    /// Whether a ZOC projected from `from` reaches its neighbour `to`.
    pub fn projects_across(&self, board: &Board, from: Cell, to: Cell) -> bool {
        self.extends_into(board.terrain(to)) && !board.edge(from, to).intersects(self.not_across)
    }

    /// Whether a light-infantry unit moving alone may ignore an EZOC in `cell`.
    pub fn light_infantry_ignores(&self, board: &Board, cell: Cell) -> bool {
        match (&self.light_infantry_bound_in, board.terrain(cell)) {
            (Some(bound), Some(t)) => !bound.get(t.0 as usize).copied().unwrap_or(false),
            _ => false,
        }
    }
}

/// One unit as the ZOC rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZocUnit {
    /// Side index (at most 8 sides).
    pub side: u8,
    pub stacking_points: u32,
    pub attack: u32,
    /// A status that removes its ZOC (Clearing).
    pub suppressed: bool,
}

/// Per cell, bit `s` set = side `s`: who holds units there, whose ZOC covers it in its own cell,
/// whose stack projects into the neighbours, and (derived) whose ZOC covers the cell at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZocMap {
    grid: Grid,
    holds: Vec<u8>,
    own: Vec<u8>,
    projects: Vec<u8>,
    zone: Vec<u8>,
}

const fn bit(side: u8) -> u8 {
    1 << (side & 7)
}

impl ZocMap {
    /// A map with no units (and so no zones).
    pub fn empty(grid: Grid) -> Self {
        let n = grid.cell_count();
        Self {
            grid,
            holds: vec![0; n],
            own: vec![0; n],
            projects: vec![0; n],
            zone: vec![0; n],
        }
    }

    /// Builds the map from every unit on the board.
    pub fn build(board: &Board, rules: &ZocRules, units: impl IntoIterator<Item = (Cell, ZocUnit)>) -> Self {
        let mut map = Self::empty(board.grid);
        if rules.effect == ZocEffect::None {
            for (cell, u) in units {
                if let Some(i) = board.grid.index(cell) {
                    map.holds[i] |= bit(u.side);
                }
            }
            return map;
        }
        // Stacking points that count toward projection, per cell and side (dense, 8 sides).
        let mut points: rustc_hash::FxHashMap<(usize, u8), u32> = rustc_hash::FxHashMap::default();
        for (cell, u) in units {
            let Some(i) = board.grid.index(cell) else { continue };
            map.holds[i] |= bit(u.side);
            if u.suppressed {
                continue;
            }
            map.own[i] |= bit(u.side);
            if u.attack >= rules.min_attack {
                *points.entry((i, u.side)).or_default() += u.stacking_points;
            }
        }
        for ((i, side), p) in points {
            if p >= rules.min_stacking_points {
                map.projects[i] |= bit(side);
            }
        }
        for i in 0..map.zone.len() {
            map.zone[i] |= map.own[i];
            if map.projects[i] != 0 {
                let from = map.cell_at(i);
                for to in board.grid.neighbours(from) {
                    if rules.projects_across(board, from, to)
                        && let Some(j) = board.grid.index(to)
                    {
                        map.zone[j] |= map.projects[i];
                    }
                }
            }
        }
        map
    }

    /// Recomputes the cells in `changed` (e.g. the two ends of a move) from `units_at`, and the
    /// zones of those cells and their neighbours; everything else is kept.
    pub fn refresh_cells<I: IntoIterator<Item = ZocUnit>>(
        &mut self,
        board: &Board,
        rules: &ZocRules,
        changed: &[Cell],
        units_at: impl Fn(Cell) -> I,
    ) {
        let mut touched: SmallVec<[Cell; 16]> = SmallVec::new();
        for &cell in changed {
            let Some(i) = self.grid.index(cell) else { continue };
            let (mut holds, mut own, mut counted, mut points) = (0u8, 0u8, 0u8, [0u32; 8]);
            for u in units_at(cell) {
                holds |= bit(u.side);
                if !u.suppressed {
                    own |= bit(u.side);
                    if u.attack >= rules.min_attack {
                        counted |= bit(u.side);
                        points[(u.side & 7) as usize] += u.stacking_points;
                    }
                }
            }
            let active = rules.effect != ZocEffect::None;
            self.holds[i] = holds;
            self.own[i] = if active { own } else { 0 };
            self.projects[i] = 0;
            if active {
                for (s, p) in points.iter().enumerate() {
                    if counted & bit(s as u8) != 0 && *p >= rules.min_stacking_points {
                        self.projects[i] |= bit(s as u8);
                    }
                }
            }
            touched.push(cell);
            touched.extend(self.grid.neighbours(cell));
        }
        for cell in touched {
            let Some(i) = self.grid.index(cell) else { continue };
            let mut zone = self.own[i];
            for from in self.grid.neighbours(cell) {
                if let Some(j) = self.grid.index(from)
                    && self.projects[j] != 0
                    && rules.projects_across(board, from, cell)
                {
                    zone |= self.projects[j];
                }
            }
            self.zone[i] = zone;
        }
    }

    /// Recomputes every zone with projections kept out of cells whose `barred` bits name their
    /// sides (Next War's first turn: no ZOC into cells that started under enemy control); a
    /// unit's ZOC in its own cell stays.
    pub fn bar_projections(&mut self, board: &Board, rules: &ZocRules, barred: &[u8]) {
        for i in 0..self.zone.len() {
            let cell = self.cell_at(i);
            let mut zone = self.own[i];
            for from in self.grid.neighbours(cell) {
                if let Some(j) = self.grid.index(from)
                    && self.projects[j] != 0
                    && rules.projects_across(board, from, cell)
                {
                    zone |= self.projects[j] & !barred.get(i).copied().unwrap_or(0);
                }
            }
            self.zone[i] = zone;
        }
    }

    fn cell_at(&self, i: usize) -> Cell {
        let w = self.grid.width as usize;
        Cell::new((i % w) as i32, (i / w) as i32)
    }

    fn at(v: &[u8], grid: &Grid, cell: Cell) -> u8 {
        grid.index(cell).map_or(0, |i| v[i])
    }

    /// Is `cell` in the zone of control of a side other than `side`?
    pub fn in_enemy_zoc(&self, cell: Cell, side: u8) -> bool {
        Self::at(&self.zone, &self.grid, cell) & !bit(side) != 0
    }

    /// Does a side other than `side` hold units in `cell`?
    pub fn enemy_in(&self, cell: Cell, side: u8) -> bool {
        Self::at(&self.holds, &self.grid, cell) & !bit(side) != 0
    }

    /// Does `side` hold units in `cell`?
    pub fn friendly_in(&self, cell: Cell, side: u8) -> bool {
        Self::at(&self.holds, &self.grid, cell) & bit(side) != 0
    }

    /// The cells whose enemy units (enemies of `side`) put `cell` in their zone of control: the
    /// cell itself first, then neighbours in direction order.
    pub fn projectors(&self, board: &Board, rules: &ZocRules, cell: Cell, side: u8) -> SmallVec<[Cell; 8]> {
        let mut out = SmallVec::new();
        if Self::at(&self.own, &self.grid, cell) & !bit(side) != 0 {
            out.push(cell);
        }
        for from in self.grid.neighbours(cell) {
            if Self::at(&self.projects, &self.grid, from) & !bit(side) != 0 && rules.projects_across(board, from, cell)
            {
                out.push(from);
            }
        }
        out
    }

    /// Every cell in an enemy ZOC for `side` (for overlays and tests), in row order.
    pub fn enemy_zone(&self, side: u8) -> impl Iterator<Item = Cell> + '_ {
        (0..self.zone.len())
            .filter(move |&i| self.zone[i] & !bit(side) != 0)
            .map(|i| self.cell_at(i))
    }
}

/// Who controls each cell at the start (Next War's first-turn exception): the side of the nearest
/// unit, none where two sides' nearest units are equally near. Answers, per cell in index order,
/// the sides whose ZOCs may not extend there (every side but the controller).
pub fn start_control_bars(grid: &Grid, units: impl IntoIterator<Item = (Cell, u8)>) -> Vec<u8> {
    let units: Vec<(Cell, u8)> = units.into_iter().collect();
    (0..grid.cell_count())
        .map(|i| {
            let w = grid.width as usize;
            let cell = Cell::new((i % w) as i32, (i / w) as i32);
            let mut best: Option<(u32, u8)> = None;
            let mut tied = false;
            for &(at, side) in &units {
                let d = grid.distance(cell, at);
                match best {
                    Some((bd, bs)) if d == bd && bs != side => tied = true,
                    Some((bd, _)) if d >= bd => {}
                    _ => {
                        best = Some((d, side));
                        tied = false;
                    }
                }
            }
            match best {
                Some((_, side)) if !tied => !bit(side),
                _ => 0,
            }
        })
        .collect()
}
