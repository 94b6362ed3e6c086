//! The ECS model of a game: unit components and the resources that describe the board, the
//! sides, the map index and the random numbers.

use crate::rules::grid::Cell;
use crate::rules::terrain::{Board, Mobility, Mp};
use crate::rules::units::{StepTrack, StepValues, UnitClass, UnitSize, UnitStatus, UnitTrait};
use crate::scenario::validate::{Objective, SideInfo, WinCondition};
use crate::scenario::{RawScenario, Ruleset};
use bevy::prelude::*;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Who a unit is: identity and the printed facts that never change in play.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Unit {
    /// The scenario's unique id, e.g. `us-30-117`.
    pub id: String,
    pub name: String,
    pub class: UnitClass,
    pub size: UnitSize,
    pub mobility: Mobility,
    pub traits: Vec<UnitTrait>,
}

/// The side a unit fights for: an index into `Sides`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Side(pub usize);

/// The cell a unit stands in. Change it only through the movement/retreat systems, which keep
/// `MapIndex` in step.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position(pub Cell);

/// The unit's step track; its current step gives its combat values.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Steps(pub StepTrack);

impl Steps {
    pub fn values(&self) -> StepValues {
        self.0.current()
    }
}

/// A counter's values line: `attack-defense-movement`, or `strength-movement` when attack =
/// defense and the ruleset's counters print so (`prints_defense` false: all but Next War's);
/// the counters, the panels and the highlight pictures all print it so.
pub fn values_text(steps: &Steps, mp: &MovePoints, prints_defense: bool) -> String {
    crate::rules::units::values_line(steps.values(), mp.allowance, prints_defense)
}

/// Armor value, for rules that compare armor.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Armor(pub u32);

/// Movement allowance and what has been spent of it this phase.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovePoints {
    pub allowance: Mp,
    pub spent: Mp,
}

impl MovePoints {
    pub fn left(&self) -> Mp {
        self.allowance.saturating_sub(self.spent)
    }
}

/// The cell a unit entered its current cell from on its last move (Rommel: defenders never
/// retreat into a square the attackers came from; attackers fall back there).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CameFrom(pub Cell);

/// Effectiveness rating (ER).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effectiveness(pub u32);

/// The element (division, battlegroup) and parent formation a unit belongs to.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Formation {
    pub element: Option<String>,
    pub parent: Option<String>,
}

/// Status markers on a unit (disorganized, dispersed, tipped, supply, combat states).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Statuses(pub BTreeSet<UnitStatus>);

impl Statuses {
    pub fn has(&self, status: UnitStatus) -> bool {
        self.0.contains(&status)
    }
}

/// Experience points (Small General).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Experience(pub u32);

/// What the unit counts toward a stacking limit.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackingPoints(pub u32);

/// The board and the ruleset the game runs on.
#[derive(Resource, Clone, Debug)]
pub struct GameMap {
    pub board: Board,
    pub ruleset: Arc<Ruleset>,
    pub places: BTreeMap<Cell, String>,
    pub objectives: Vec<Objective>,
    /// How the game is won (checked by `victory.rs`).
    pub win: Vec<WinCondition>,
    /// Who wins when no condition is met; `None`: a draw.
    pub otherwise: Option<usize>,
    /// The level of the `otherwise` win, where the scenario grades its victories.
    pub otherwise_level: Option<crate::scenario::file::VictoryLevel>,
    /// Next War's first turn: per cell, the sides whose ZOCs may not extend there because it
    /// started under enemy control (`rules::zoc::start_control_bars`); empty under other rules.
    pub start_bars: Vec<u8>,
}

impl GameMap {
    /// Who controlled `cell` at the start, where the ruleset keeps it (Next War: the side of the
    /// nearest unit); `None` for a tie or under other rules.
    pub fn start_controller(&self, cell: Cell) -> Option<Side> {
        let bars = *self.start_bars.get(self.board.grid.index(cell)?)?;
        (bars != 0).then(|| Side((!bars).trailing_zeros() as usize))
    }
}

/// The sides, by `Side` index.
#[derive(Resource, Clone, Debug)]
pub struct Sides(pub Vec<SideInfo>);

/// The side `text` names among sides given as (id, name): by id or name in any case, else by
/// number (1 = the first side). What `--ai` and `hexfront inspect` accept.
pub fn side_named(sides: &[(&str, &str)], text: &str) -> Option<usize> {
    sides
        .iter()
        .position(|(id, name)| id.eq_ignore_ascii_case(text) || name.eq_ignore_ascii_case(text))
        .or_else(|| {
            text.parse::<usize>()
                .ok()
                .filter(|n| (1..=sides.len()).contains(n))
                .map(|n| n - 1)
        })
}

/// The scenario as loaded, kept so a save writes back everything the world does not hold.
#[derive(Resource, Clone, Debug)]
pub struct ScenarioSource(pub RawScenario);

/// Which units stand in each cell.
///
/// Invariant: `stacks` has exactly one entry per map cell (indexed by `Grid::index`); every live
/// unit entity with `Position(c)` appears exactly once, in the stack of `c`, and nowhere else;
/// each stack lists its units bottom first (arrival order, the last to arrive on top).
#[derive(Resource, Clone, Debug, Default)]
pub struct MapIndex {
    width: usize,
    stacks: Vec<Vec<Entity>>,
}

impl MapIndex {
    pub fn new(grid: &crate::rules::grid::Grid) -> Self {
        Self {
            width: grid.width as usize,
            stacks: vec![Vec::new(); grid.cell_count()],
        }
    }

    fn slot(&self, cell: Cell) -> Option<usize> {
        let in_map = cell.col >= 0 && cell.row >= 0 && (cell.col as usize) < self.width;
        let i = cell.row as usize * self.width + cell.col as usize;
        (in_map && i < self.stacks.len()).then_some(i)
    }

    /// The stack in `cell`, bottom first (empty off the map).
    pub fn stack(&self, cell: Cell) -> &[Entity] {
        self.slot(cell).map_or(&[], |i| self.stacks[i].as_slice())
    }

    /// Puts `unit` on top of the stack in `cell`.
    pub fn place(&mut self, unit: Entity, cell: Cell) {
        if let Some(i) = self.slot(cell) {
            self.stacks[i].push(unit);
        }
    }

    /// Takes `unit` out of the stack in `cell`, keeping the others' order.
    pub fn remove(&mut self, unit: Entity, cell: Cell) {
        if let Some(i) = self.slot(cell) {
            self.stacks[i].retain(|e| *e != unit);
        }
    }

    /// Every non-empty stack with its cell.
    pub fn occupied(&self) -> impl Iterator<Item = (Cell, &[Entity])> {
        let w = self.width.max(1);
        self.stacks
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.is_empty())
            .map(move |(i, s)| (Cell::new((i % w) as i32, (i / w) as i32), s.as_slice()))
    }
}

/// The one source of randomness: every die roll goes through it, so a seed replays a game.
/// `forced` faces come first (tests, `--dice`), then the seeded generator; `rolled` keeps every
/// die since the order log last took them.
#[derive(Resource, Debug)]
pub struct GameRng {
    pub seed: u64,
    pub rng: ChaCha8Rng,
    pub forced: Vec<u8>,
    pub rolled: Vec<crate::combat::Roll>,
}

impl GameRng {
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            forced: Vec::new(),
            rolled: Vec::new(),
        }
    }

    /// The generator for `seed` after `position` words have been drawn (a saved game's dice).
    pub fn resumed(seed: u64, position: u64) -> Self {
        let mut rng = Self::new(seed);
        rng.rng.set_word_pos(u128::from(position));
        rng
    }

    /// Draws from here on from a generator keyed by the game's seed and `link` (a link of the
    /// other player's hash chain, revealed once the order that rolls was fixed).
    pub fn mix(&mut self, link: &str) {
        let mut material = self.seed.to_le_bytes().to_vec();
        // The link's 32 bytes (its hex was checked, lowercase, before it came here).
        match super::dice_proof::from_hex(link) {
            Ok(bytes) => material.extend_from_slice(&bytes),
            Err(_) => material.extend_from_slice(link.as_bytes()),
        }
        let key = blake3::derive_key("hexfront 2026-11-27 dice mixed with a chain link", &material);
        self.rng = ChaCha8Rng::from_seed(key);
    }

    /// How many words the seeded generator has drawn (what a save records).
    pub fn position(&self) -> u64 {
        u64::try_from(self.rng.get_word_pos()).unwrap_or(u64::MAX)
    }

    /// Where the dice stand (forced faces left, generator position, dice kept), to go back to
    /// when a resolution is refused after rolling.
    pub fn checkpoint(&self) -> (Vec<u8>, u128, usize) {
        (self.forced.clone(), self.rng.get_word_pos(), self.rolled.len())
    }

    /// Goes back to a `checkpoint`: as if nothing had been rolled since.
    pub fn restore(&mut self, (forced, position, rolled): (Vec<u8>, u128, usize)) {
        self.forced = forced;
        self.rng.set_word_pos(position);
        self.rolled.truncate(rolled);
    }

    /// Rolls a die numbered 1..=`faces` that no table reads (a random retreat direction).
    pub fn roll_numbered(&mut self, faces: u8, purpose: &'static str) -> u8 {
        use crate::combat::DiceSource;
        self.with_dice(|dice| dice.roll(crate::combat::Die::Numbered(faces.max(1)), purpose))
            .unwrap_or(1)
    }

    /// Runs `f` with the game's dice: the forced faces first, then the seeded generator; forced
    /// faces it used are consumed and every die it rolled is kept in `rolled`.
    pub fn with_dice<T>(&mut self, f: impl FnOnce(&mut crate::combat::Dice) -> T) -> T {
        let forced = std::mem::take(&mut self.forced);
        let (out, used, rolls) = {
            let mut dice = crate::combat::Dice::forced_then_seeded(&forced, &mut self.rng);
            let out = f(&mut dice);
            (out, dice.forced_used(), std::mem::take(&mut dice.rolls))
        };
        self.forced = forced[used..].to_vec();
        self.rolled.extend(rolls);
        out
    }
}

/// Unit ids to entities, for the units on the map (orders name units by id). Built when the
/// scenario is spawned; an eliminated unit's entity no longer exists.
#[derive(Resource, Clone, Debug, Default)]
pub struct UnitIds(pub std::collections::HashMap<String, Entity>);

impl UnitIds {
    /// The entity of unit `id`, or why there is none.
    pub fn entity(&self, id: &str) -> Result<Entity, String> {
        self.0
            .get(id)
            .copied()
            .ok_or_else(|| format!("there is no unit `{id}`"))
    }
}

/// Lines a player reads: what happened and why, newest last.
#[derive(Resource, Clone, Debug, Default)]
pub struct GameLog(pub Vec<String>);

impl GameLog {
    pub fn push(&mut self, line: impl Into<String>) {
        let line = line.into();
        info!("{line}");
        self.0.push(line);
    }
}

/// The reinforcements still to arrive, in file order (set aside by `spawn`, brought on by
/// `reinforce`).
#[derive(Resource, Clone, Debug, Default)]
pub struct Reinforcements(pub Vec<crate::scenario::validate::UnitSetup>);

/// The player turn (game turn, side) whose arrivals and withdrawals are done.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrivalsDone(pub u32, pub Side);

/// Marks a unit that has attacked in this combat phase.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attacked;

/// The weather of the current turn (scenarios may set it; clear by default).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CurrentWeather(pub crate::combat::Weather);

/// The rules a ruleset adds to ending a phase, registered by their plugins (War Against Russia's
/// must-attack rule: `must_attack::check_before_end`): each may refuse the end, naming the rule,
/// or note in the log what it let pass. Part of the rules, so replays run them too.
#[derive(Resource, Default)]
pub struct PhaseEndRules(pub Vec<fn(&mut World) -> Result<(), String>>);
