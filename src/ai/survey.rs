//! What the computer player reads of the board for one decision: the stacks of each side with
//! their strength, the cells the scenario's victory turns on, and how a stack would fare in a
//! cell (objective pull, the enemy's threat next turn, support, attack prospects).

use super::Profile;
use crate::game::components::{GameMap, MovePoints, Position, Side, Steps, Unit};
use crate::game::victory::ObjectiveControl;
use crate::rules::grid::{Cell, Grid};
use crate::rules::terrain::Mp;
use bevy::prelude::*;
use std::collections::BTreeMap;

/// One side's units in one cell.
#[derive(Clone, Debug)]
pub(super) struct Stack {
    pub cell: Cell,
    pub units: Vec<Entity>,
    pub attack: f64,
    pub defense: f64,
    pub steps: f64,
    /// Cells it could cover in a turn (movement allowance over clear terrain, capped).
    pub reach: u32,
}

/// A cell the victory conditions name, with how much it matters.
#[derive(Clone, Debug)]
pub(super) struct Goal {
    pub cell: Cell,
    pub value: f64,
    /// The surveying side holds it now (to keep), else it is to take.
    pub held: bool,
}

/// The board as one side sees it.
pub(super) struct Survey {
    pub me: Side,
    pub grid: Grid,
    /// Rommel: attackers share the defender's cell instead of standing next to it.
    pub contest: bool,
    pub own: Vec<Stack>,
    pub enemy: Vec<Stack>,
    pub goals: Vec<Goal>,
    /// Cells over which an objective's pull fades out (the map's longer side).
    pub span: f64,
}

/// How hard an objective still to take pulls, against one to keep (0.25).
const TAKE_PULL: f64 = 3.0;

/// Farthest a stack is thought to reach in a turn (cells).
const MAX_REACH: u32 = 6;

impl Stack {
    /// `units` standing in `cell` as one stack: their summed values and steps.
    pub fn of(world: &World, cell: Cell, units: &[Entity], reach: u32) -> Self {
        let mut stack = Stack {
            cell,
            units: units.to_vec(),
            attack: 0.0,
            defense: 0.0,
            steps: 0.0,
            reach,
        };
        for steps in units.iter().filter_map(|e| world.get::<Steps>(*e)) {
            let v = steps.values();
            stack.attack += f64::from(v.attack);
            stack.defense += f64::from(v.defense);
            stack.steps += steps.0.remaining() as f64;
        }
        stack
    }
}

impl Survey {
    pub fn take(world: &mut World, me: Side) -> Self {
        let (grid, contest, goals) = {
            let map = world.resource::<GameMap>();
            let control = world.resource::<ObjectiveControl>();
            let turn = world.resource::<crate::game::phase::TurnState>();
            // Objectives still to take press harder as the last turn nears.
            let urgency = 1.0 + f64::from(turn.turn) / f64::from(turn.last_turn.max(1));
            let mut goals = goals(map, &control.0, me);
            for g in goals.iter_mut().filter(|g| !g.held) {
                g.value *= urgency;
            }
            (map.board.grid, map.ruleset.contests_cells(), goals)
        };
        let mut cells: BTreeMap<(i32, i32, bool), Stack> = BTreeMap::new();
        let mut query = world.query::<(Entity, &Unit, &Side, &Position, &Steps, &MovePoints)>();
        let mut rows: Vec<_> = query
            .iter(world)
            .map(|(e, u, side, pos, steps, mp)| {
                (
                    u.id.clone(),
                    e,
                    *side,
                    pos.0,
                    steps.values(),
                    steps.0.remaining(),
                    mp.allowance,
                )
            })
            .collect();
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, e, side, cell, values, steps, allowance) in rows {
            let mine = side == me;
            let s = cells.entry((cell.row, cell.col, mine)).or_insert_with(|| Stack {
                cell,
                units: Vec::new(),
                attack: 0.0,
                defense: 0.0,
                steps: 0.0,
                reach: MAX_REACH,
            });
            s.units.push(e);
            s.attack += f64::from(values.attack);
            s.defense += f64::from(values.defense);
            s.steps += steps as f64;
            s.reach = s.reach.min((allowance.0 / Mp::SIXTHS).max(1));
        }
        let (own, enemy) = cells
            .into_values()
            .partition(|s| s.units.first().is_some_and(|e| world.get::<Side>(*e) == Some(&me)));
        Self {
            me,
            grid,
            contest,
            own,
            enemy,
            goals,
            span: f64::from(grid.width.max(grid.height)),
        }
    }

    /// Whether a stack in `from` may attack `target` (next to it, or in it under Rommel).
    pub fn engages(&self, from: Cell, target: Cell) -> bool {
        if self.contest {
            from == target
        } else {
            self.grid.distance(from, target) == 1
        }
    }

    pub fn enemy_in(&self, cell: Cell) -> Option<&Stack> {
        self.enemy.iter().find(|s| s.cell == cell)
    }

    /// How much a cell's victory value is worth to whoever holds it (0 for most cells).
    pub fn value_of(&self, cell: Cell) -> f64 {
        self.goals.iter().filter(|g| g.cell == cell).map(|g| g.value).sum()
    }

    /// How good it is for `stack` to stand in `at`: objective pull, holding an objective,
    /// and (for players that look ahead) the enemy's threat, friendly support and, when a
    /// combat phase follows, the attacks it could make from there.
    pub fn place_score(&self, stack: &Stack, at: Cell, profile: &Profile, combat_follows: bool) -> f64 {
        let mut score = self.objective_score(stack, at, profile);
        if combat_follows {
            score += self.attack_prospects(stack, at, profile);
        }
        if profile.looks_ahead {
            score += self.danger_and_support(stack, at, profile);
        }
        score
    }

    /// The enemy's attack strength that could reach `at` next turn.
    fn threat_at(&self, at: Cell) -> f64 {
        self.enemy
            .iter()
            .filter(|e| self.grid.distance(e.cell, at) <= e.reach + 1)
            .map(|e| e.attack)
            .sum()
    }

    /// The defence the side's other stacks have in `at`.
    fn others_defending(&self, stack: &Stack, at: Cell) -> f64 {
        self.own
            .iter()
            .filter(|o| o.cell == at)
            .flat_map(|o| o.units.iter().filter(|u| !stack.units.contains(u)).map(move |_| o))
            .map(|o| o.defense / o.units.len().max(1) as f64)
            .sum()
    }

    /// Objectives: to keep (one garrison, stronger where the enemy can strike; the rest near),
    /// to take (the strongest pull, standing in it most).
    fn objective_score(&self, stack: &Stack, at: Cell, profile: &Profile) -> f64 {
        let enemy_here = self.enemy_in(at).is_some();
        let garrison = self.others_defending(stack, at);
        let mut score = 0.0;
        // Objectives to take pull by the strongest (pulls toward goals in opposite directions
        // would cancel out), the others a little.
        let (mut strongest, mut others) = (0.0_f64, 0.0);
        for g in &self.goals {
            let d = f64::from(self.grid.distance(at, g.cell));
            let near = (1.0 - d / self.span).max(0.0);
            if g.held && d == 0.0 {
                score += if garrison <= 0.0 {
                    g.value
                } else if profile.looks_ahead {
                    // Reinforce a garrison the enemy can outmatch.
                    let pressure = (self.threat_at(at) / (1.5 * garrison)).min(2.0);
                    g.value * (0.1 + 0.3 * pressure)
                } else {
                    0.1 * g.value
                };
            } else if g.held {
                score += 0.25 * g.value * near;
            } else {
                let pull = TAKE_PULL * profile.pull * g.value * near;
                others += pull;
                strongest = strongest.max(pull);
                if d == 0.0 && !enemy_here {
                    score += 2.0 * g.value;
                }
            }
        }
        score + strongest + 0.1 * (others - strongest)
    }

    /// The attacks `stack` could join from `at`, with the side's other stacks already engaging
    /// the same enemy (concentration pays).
    fn attack_prospects(&self, stack: &Stack, at: Cell, profile: &Profile) -> f64 {
        let mut score = 0.0;
        for e in self.enemy.iter().filter(|e| self.engages(at, e.cell)) {
            let joined: f64 = self
                .own
                .iter()
                .filter(|o| o.cell != stack.cell && self.engages(o.cell, e.cell))
                .map(|o| o.attack)
                .sum();
            let ratio = ((stack.attack + joined) / e.defense.max(0.5)).min(3.0);
            score += profile.aggression * ratio * (1.0 + self.value_of(e.cell) / 4.0);
        }
        score
    }

    /// The enemy's threat to `stack` in `at` (weighed by caution), and friendly stacks beside it.
    fn danger_and_support(&self, stack: &Stack, at: Cell, profile: &Profile) -> f64 {
        let ratio = self.threat_at(at) / (stack.defense + self.others_defending(stack, at)).max(0.5);
        let danger = profile.caution * (ratio - 1.5).clamp(0.0, 4.0) * stack.steps * 0.5;
        let support = self
            .own
            .iter()
            .filter(|o| o.cell != stack.cell && self.grid.distance(o.cell, at) == 1)
            .count();
        0.2 * support.min(3) as f64 - danger
    }
}

/// The cells the victory conditions name: every cell a side must hold, and every objective's
/// points where points decide. Both sides value the same cells (one to take, one to keep).
fn goals(map: &GameMap, control: &[Option<Side>], me: Side) -> Vec<Goal> {
    let mut value: BTreeMap<(i32, i32), (Cell, f64)> = BTreeMap::new();
    let mut add = |cell: Cell, v: f64| value.entry((cell.row, cell.col)).or_insert((cell, 0.0)).1 += v;
    let points_count = map.win.iter().any(|w| w.points.is_some() || w.more_points);
    for w in &map.win {
        for c in &w.hold {
            add(*c, 10.0);
        }
    }
    for o in &map.objectives {
        let weight = if points_count { 3.0 } else { 0.5 };
        add(o.cell, f64::from(o.points) * weight);
    }
    let held = |cell: Cell| {
        map.objectives
            .iter()
            .position(|o| o.cell == cell)
            .and_then(|i| control.get(i).copied().flatten())
            == Some(me)
    };
    value
        .into_values()
        .map(|(cell, value)| Goal {
            cell,
            value,
            held: held(cell),
        })
        .filter(|g| g.value > 0.0)
        .collect()
}
