//! The world as the rules read it: what the combat, retreat and advance rules read of a unit
//! (`UnitData`, as a `Combatant`), the game seen read-only (`GameView`), a unit's legal retreats
//! as the world stands, and Rommel's batteries in range. Shared by the game, the preview, the
//! computer player and tests; an attack turned into a `Situation` is `attack_situation`'s.

use super::components::{
    Armor, Attacked, CameFrom, CurrentWeather, Effectiveness, Experience, Formation, GameMap, MapIndex, Position, Side,
    Sides, StackingPoints, Statuses, Steps, Unit, UnitIds,
};
use super::phase::TurnState;
use super::zoc::Zoc;
use crate::combat::{ArmorValue, Combatant};
use crate::rules::grid::Cell;
use crate::rules::retreat::{Friends, RetreatOptions, RetreatWorld, Retreater, legal_retreats};
use crate::rules::terrain::{CellFeature, EdgeFeatures};
use crate::rules::units::UnitClass;
use crate::rules::zoc::ZocMap;
use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// What the combat, retreat and advance rules read of one unit.
#[derive(QueryData)]
pub struct UnitData {
    pub entity: Entity,
    pub unit: &'static Unit,
    pub side: &'static Side,
    pub position: &'static Position,
    pub steps: &'static Steps,
    pub statuses: &'static Statuses,
    pub armor: Option<&'static Armor>,
    pub er: Option<&'static Effectiveness>,
    pub formation: Option<&'static Formation>,
    pub experience: Option<&'static Experience>,
    pub attacked: Has<Attacked>,
    pub came_from: Option<&'static CameFrom>,
    pub stacking: &'static StackingPoints,
    pub retreated: Has<RetreatedThisPhase>,
}

/// One row of `UnitData`.
pub type UnitRow<'a> = UnitDataItem<'a, 'a>;

impl UnitDataItem<'_, '_> {
    /// The unit's cell.
    pub fn cell(&self) -> Cell {
        self.position.0
    }
}

/// A unit as the combat rules see it; `crossing` is the edge it attacks across.
pub fn combatant(data: &UnitRow, nation: &str, crossing: EdgeFeatures) -> Combatant {
    let unit = data.unit;
    Combatant {
        id: unit.id.clone(),
        name: unit.name.clone(),
        class: unit.class,
        size: unit.size,
        mobility: unit.mobility,
        traits: unit.traits.clone(),
        steps: data.steps.0.clone(),
        armor: data.armor.map(|a| ArmorValue {
            attack: a.0,
            defense: a.0,
        }),
        er: data.er.map(|e| e.0),
        element: data.formation.and_then(|f| f.element.clone()),
        parent: data.formation.and_then(|f| f.parent.clone()),
        statuses: data.statuses.0.iter().copied().collect(),
        experience: data.experience.map_or(0, |x| x.0),
        nation: nation.to_string(),
        crossing,
        participating: true,
        loss_rank: 0,
    }
}

/// Authored: artillery range in cells for Rommel barrages (scenarios do not give ranges yet).
pub const DEFAULT_BARRAGE_RANGE: u32 = 3;

/// Rommel: whether a unit is a battery that may be called to barrage at `target` (artillery, in
/// range, not attacking itself this phase). Which of them a combat may call (the callers'
/// elements, tipped, terrain, contested) the combat's assessment decides, naming the rule.
pub fn may_barrage(grid: &crate::rules::grid::Grid, unit: &Unit, at: Cell, attacked: bool, target: Cell) -> bool {
    unit.class.is_artillery() && !attacked && grid.distance(at, target) <= DEFAULT_BARRAGE_RANGE
}

/// What the game looks like to the rules, read-only: the board, zones of control, sides, turn,
/// map index, weather, unit ids and every unit. The preview, the resolver, the computer player
/// and tests read the game through this one parameter.
#[derive(SystemParam)]
pub struct GameView<'w, 's> {
    pub map: Res<'w, GameMap>,
    pub zoc: Res<'w, Zoc>,
    pub sides: Res<'w, Sides>,
    pub turn: Res<'w, TurnState>,
    pub index: Res<'w, MapIndex>,
    pub weather: Res<'w, CurrentWeather>,
    pub ids: Res<'w, UnitIds>,
    pub units: Query<'w, 's, UnitData>,
    /// Small General: the hexsides attacked across this phase (absent in a bare world: none).
    pub hexsides: Option<Res<'w, super::hexsides::AttackedHexsides>>,
    /// The rules edition in play (absent: the current one).
    pub edition: Option<Res<'w, super::edition::RulesEdition>>,
}

impl GameView<'_, '_> {
    /// Rommel: `side`'s batteries that may be called to barrage at `target`, not counting the
    /// units in the combat (`exclude`), sorted by unit id.
    pub fn batteries(&self, side: Side, exclude: &[Entity], target: Cell) -> Vec<Entity> {
        let grid = &self.map.board.grid;
        let mut found: Vec<(&str, Entity)> = self
            .units
            .iter()
            .filter(|u| *u.side == side && !exclude.contains(&u.entity))
            .filter(|u| may_barrage(grid, u.unit, u.position.0, u.attacked, target))
            .map(|u| (u.unit.id.as_str(), u.entity))
            .collect();
        found.sort();
        found.into_iter().map(|(_, e)| e).collect()
    }

    /// The legal retreats of `unit` from `from` (`length` cells) in this view
    /// (`retreat_options`).
    pub fn retreat_options(
        &self,
        unit: Entity,
        from: Cell,
        length: u32,
        opponents: &[Entity],
    ) -> Result<(crate::rules::retreat::Retreater, crate::rules::retreat::RetreatOptions), String> {
        retreat_options(
            &self.map,
            &self.zoc.0,
            &self.sides,
            &self.index,
            &self.units,
            unit,
            from,
            length,
            opponents,
        )
    }

    /// The units of unit ids, or the first id that names no unit on the map.
    pub fn entities(&self, ids: &[String]) -> Result<Vec<Entity>, String> {
        ids.iter().map(|id| self.unit(id)).collect()
    }

    /// The entity of a unit on the map.
    pub fn unit(&self, id: &str) -> Result<Entity, String> {
        let e = self.ids.entity(id)?;
        if self.units.contains(e) {
            Ok(e)
        } else {
            Err(format!("{id} is no longer on the map"))
        }
    }

    /// The units in `cell` of `side` (or, with `same: false`, of any other side).
    pub fn stack_of(&self, cell: Cell, side: Side, same: bool) -> Vec<Entity> {
        self.index
            .stack(cell)
            .iter()
            .copied()
            .filter(|e| self.units.get(*e).is_ok_and(|d| (*d.side == side) == same))
            .collect()
    }
}

/// Marks a unit that retreated in this combat phase.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetreatedThisPhase;

/// The legal retreats of `unit` from `from` (`length` cells), with its opponents in the combat
/// (their cells and where they came from matter to War Against Russia and Rommel).
pub fn retreat_options(
    map: &GameMap,
    zoc: &ZocMap,
    sides: &Sides,
    index: &MapIndex,
    units: &Query<UnitData>,
    unit: Entity,
    from: Cell,
    length: u32,
    opponents: &[Entity],
) -> Result<(Retreater, RetreatOptions), String> {
    let me = units
        .get(unit)
        .map_err(|_| "the retreating unit no longer exists".to_string())?;
    let side = *me.side;
    let retreater = Retreater {
        side: side.0 as u8,
        mobility: me.unit.mobility,
        light_infantry: me.unit.class == UnitClass::LightInfantry,
        stacking_points: map.ruleset.stacking.counted(me.stacking.0),
        home_edge: sides.0.get(side.0).and_then(|s| s.home_edge),
        came_from: me.came_from.map(|c| c.0),
    };
    let friends = |cell: Cell| {
        let mut f = Friends::default();
        for &e in index.stack(cell) {
            if e != unit
                && let Ok(d) = units.get(e)
                && *d.side == side
            {
                f.units += u32::from(!d.retreated);
                f.stacking += map.ruleset.stacking.counted(d.stacking.0);
            }
        }
        f
    };
    let mut attackers = Vec::new();
    let mut came_from = Vec::new();
    for &o in opponents {
        if let Ok(d) = units.get(o) {
            attackers.push(d.cell());
            // Only units that attacked count (Rommel: a defender never retreats where they came from).
            if d.attacked {
                came_from.extend(d.came_from.map(|c| c.0));
            }
        }
    }
    let enemy_installation = |cell: Cell| {
        map.board.has_feature(cell, CellFeature::is_installation)
            && map.start_controller(cell).is_some_and(|s| s != side)
    };
    let rules = &map.ruleset;
    let world = RetreatWorld {
        board: &map.board,
        movement: &rules.movement,
        stacking: &rules.stacking,
        zoc_rules: &rules.zoc,
        zoc,
        rules: &rules.retreat,
        friends: &friends,
        attackers: &attackers,
        attackers_came_from: &came_from,
        enemy_installation: &enemy_installation,
    };
    Ok((retreater, legal_retreats(&world, &retreater, from, length)))
}
