//! Rulesets in RON (`assets/rulesets/*.ron`): the raw file format, its validation into the
//! `Ruleset` the game runs on, and the five built-in rulesets embedded in the binary.

use crate::combat::{CombatRules, RawCombat};
use crate::rules::advance::{AdvanceRules, RawAdvanceRules};
use crate::rules::movement::{EdgeCrossing, MovementRules};
use crate::rules::retreat::RetreatRules;
use crate::rules::terrain::{EdgeFeature, Mobility, Mp, TerrainId};
use crate::rules::units::{OverLimit, StackingMeasure, StackingRule, UnitClass, UnitSize, UnitStatus};
use crate::rules::zoc::{EzocToEzoc, ZocEffect, ZocRules};
pub use crate::source::list;
use crate::source::{LoadError, Source};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The built-in rulesets, embedded so the binary runs from any folder.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "killing-ground",
        include_str!("../../assets/rulesets/killing-ground.ron"),
    ),
    ("rommel", include_str!("../../assets/rulesets/rommel.ron")),
    (
        "war-against-russia",
        include_str!("../../assets/rulesets/war-against-russia.ron"),
    ),
    ("next-war", include_str!("../../assets/rulesets/next-war.ron")),
    ("small-general", include_str!("../../assets/rulesets/small-general.ron")),
    ("classic-odds", include_str!("../../assets/rulesets/classic-odds.ron")),
];

/// Hexes or squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GridFamily {
    Hex,
    Square,
}

/// One phase of a player turn. The turn sequence of a ruleset is a list of these, played by each
/// side in turn; the game runs them as the `Phase` sub-state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PhaseKind {
    Reinforcement,
    Movement,
    Combat,
    Exploitation,
    Supply,
}

/// Zones of control as written in a ruleset file; everything but `effect` may be left out (the
/// classic rule: every unit projects into every neighbour).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawZoc {
    pub effect: ZocEffect,
    #[serde(default)]
    pub min_stacking_points: u32,
    #[serde(default)]
    pub min_attack: u32,
    /// Terrain ids a ZOC does not extend into.
    #[serde(default)]
    pub not_into: Vec<String>,
    /// Edge features a ZOC does not extend across, bridged or not.
    #[serde(default)]
    pub not_across: Vec<EdgeFeature>,
    /// Statuses that take a unit's ZOC away.
    #[serde(default)]
    pub none_with: Vec<UnitStatus>,
    #[serde(default)]
    pub enter_cost: f32,
    #[serde(default)]
    pub leave_cost: f32,
    #[serde(default)]
    pub ezoc_to_ezoc: EzocToEzoc,
    /// Light infantry moving alone ignores EZOCs except in these terrain ids.
    #[serde(default)]
    pub light_infantry_bound_in: Option<Vec<String>>,
    /// ZOCs do not extend into cells that start the scenario under enemy control until the first
    /// movement phase of turn 1 is over (Next War).
    #[serde(default)]
    pub not_into_enemy_start_until_first_move: bool,
}

/// Whether a moving unit may enter a cell holding enemy units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EnemyCells {
    Forbidden,
    /// Rommel: moving in makes the square contested and ends the move; combat follows.
    Contest,
}

/// Pattern drawn over a terrain's colour so it reads without colour alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pattern {
    Plain,
    Trees,
    /// Bocage: small fields boxed by hedgerows.
    Hedges,
    Hills,
    Peaks,
    Marsh,
    Buildings,
    Water,
    Sand,
}

/// Movement cost per mobility; `None` (or leaving it out) = prohibited.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCosts {
    pub foot: Option<f32>,
    pub motorized: Option<f32>,
    pub mechanized: Option<f32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTerrain {
    pub id: String,
    pub name: String,
    /// `#rrggbb`
    pub color: String,
    pub pattern: Pattern,
    pub cost: RawCosts,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum RawCrossing {
    NoEffect,
    Add(f32),
    WholeAllowance,
    Prohibited,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStacking {
    pub measure: StackingMeasure,
    pub limit: u32,
    /// Terrain id → a different limit there.
    #[serde(default)]
    pub terrain: BTreeMap<String, u32>,
    /// Stacking points of a unit by size, when it names none itself (default 1).
    #[serde(default)]
    pub size_points: BTreeMap<UnitSize, u32>,
    /// `Refused` (default): no move ends over the limit; `Penalized`: moves may, at a cost.
    #[serde(default)]
    pub over_limit: OverLimit,
}

/// A ruleset file as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(rename = "Ruleset")]
pub struct RawRuleset {
    pub id: String,
    pub name: String,
    /// The game and publisher this ruleset follows.
    pub source: String,
    /// Choices made where the rule texts are silent, and authored (not published) numbers.
    #[serde(default)]
    pub notes: Vec<String>,
    pub grid: GridFamily,
    pub player_turn: Vec<PhaseKind>,
    /// Mobility by unit class where it differs from the class's default.
    #[serde(default)]
    pub mobility: BTreeMap<UnitClass, Mobility>,
    pub terrain: Vec<RawTerrain>,
    /// Effect of crossing each edge feature; features left out have no effect.
    #[serde(default)]
    pub edges: BTreeMap<EdgeFeature, RawCrossing>,
    /// Cost of a road step per mobility.
    pub road: RawCosts,
    pub zoc: RawZoc,
    pub enemy_cells: EnemyCells,
    pub stacking: RawStacking,
    /// The combat system, its tables and terrain effects.
    pub combat: RawCombat,
    /// Where units go after combat: retreats (paths, EZOCs, blocked units).
    pub retreat: RetreatRules,
    /// Advance after combat.
    #[serde(default)]
    pub advance: RawAdvanceRules,
}

/// How a terrain looks.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainLook {
    pub id: String,
    pub name: String,
    pub color: [u8; 3],
    pub pattern: Pattern,
}

/// A validated ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Ruleset {
    pub raw: RawRuleset,
    pub terrain_ids: HashMap<String, TerrainId>,
    pub looks: Vec<TerrainLook>,
    pub movement: MovementRules,
    pub stacking: StackingRule,
    pub combat: CombatRules,
    pub zoc: ZocRules,
    pub retreat: RetreatRules,
    pub advance: AdvanceRules,
}

/// Parses `#rrggbb`.
pub fn parse_color(text: &str) -> Result<[u8; 3], String> {
    let hex = text.strip_prefix('#').unwrap_or("");
    if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("`{text}` is not a colour: write `#rrggbb`, e.g. `#6b8e23`"));
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    Ok([byte(0), byte(2), byte(4)])
}

/// A designer's movement cost in exact sixths, or a located error.
fn movement_cost(src: &Source, field: impl Into<String>, x: f32) -> Result<Mp, LoadError> {
    Mp::from_f32(x).ok_or_else(|| {
        src.error(
            field,
            format!("{x} is not a movement cost: use a non-negative multiple of 1/6 (1, 0.5, 0.333…)"),
        )
    })
}

fn costs(src: &Source, field: &str, raw: &RawCosts) -> Result<[Option<Mp>; 3], LoadError> {
    let one = |name: &str, v: Option<f32>| -> Result<Option<Mp>, LoadError> {
        v.map(|x| movement_cost(src, format!("{field}.{name}"), x)).transpose()
    };
    Ok([
        one("foot", raw.foot)?,
        one("motorized", raw.motorized)?,
        one("mechanized", raw.mechanized)?,
    ])
}

impl Ruleset {
    /// Whether units enter enemy cells and fight inside them (Rommel's contested squares) rather
    /// than attacking across a cell side.
    pub fn contests_cells(&self) -> bool {
        self.raw.enemy_cells == EnemyCells::Contest
    }

    /// Whether attack tactics are chosen in secret and revealed when the defender answers
    /// (Rommel): the combat waits for the defender's `Defend` order.
    pub fn secret_tactics(&self) -> bool {
        self.combat.system().secret_tactics()
    }

    /// Parses and validates a ruleset's text.
    pub fn from_ron_str(file: impl AsRef<Path>, text: &str) -> Result<Ruleset, LoadError> {
        let src = Source::new(file.as_ref(), text);
        let raw: RawRuleset = src.parse()?;
        Self::validate(&src, raw)
    }

    /// A built-in ruleset by name (`killing-ground`, `rommel`, …).
    pub fn builtin(name: &str) -> Option<Result<Ruleset, LoadError>> {
        BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, text)| Self::from_ron_str(format!("assets/rulesets/{n}.ron"), text))
    }

    /// Validates a ruleset already parsed from `src` (a saved game's copy of a user ruleset).
    pub fn from_raw(src: &Source, raw: RawRuleset) -> Result<Ruleset, LoadError> {
        Self::validate(src, raw)
    }

    fn validate(src: &Source, raw: RawRuleset) -> Result<Ruleset, LoadError> {
        if raw.player_turn.is_empty() {
            return Err(src.error("player_turn", "a player turn needs at least one phase"));
        }
        if raw.terrain.is_empty() {
            return Err(src.error("terrain", "a ruleset needs at least one terrain type"));
        }
        let mut terrain_ids = HashMap::new();
        let mut looks = Vec::new();
        let mut move_terrain = Vec::new();
        for (i, t) in raw.terrain.iter().enumerate() {
            let field = format!("terrain[{i}]");
            if terrain_ids.insert(t.id.clone(), TerrainId(i as u16)).is_some() {
                return Err(src.error(format!("{field}.id"), format!("terrain id `{}` is defined twice", t.id)));
            }
            let color = parse_color(&t.color).map_err(|m| src.error(format!("{field}.color"), m))?;
            looks.push(TerrainLook {
                id: t.id.clone(),
                name: t.name.clone(),
                color,
                pattern: t.pattern,
            });
            move_terrain.push((t.name.clone(), costs(src, &format!("{field}.cost"), &t.cost)?));
        }
        let mut edges = [EdgeCrossing::NoEffect; 7];
        for (feature, crossing) in &raw.edges {
            edges[*feature as usize] = match *crossing {
                RawCrossing::NoEffect => EdgeCrossing::NoEffect,
                RawCrossing::Add(x) => EdgeCrossing::Add(movement_cost(src, format!("edges.{feature:?}"), x)?),
                RawCrossing::WholeAllowance => EdgeCrossing::WholeAllowance,
                RawCrossing::Prohibited => EdgeCrossing::Prohibited,
            };
        }
        let road = costs(src, "road", &raw.road)?;
        let cx = crate::combat::rules::Context {
            src,
            terrain_ids: &terrain_ids,
        };
        let terrain_limits = cx.terrain_map("stacking.terrain", &raw.stacking.terrain)?;
        let stacking = StackingRule {
            measure: raw.stacking.measure,
            limit: raw.stacking.limit,
            terrain_limits,
            over_limit: raw.stacking.over_limit,
        };
        let combat = raw.combat.validate(&cx)?;
        let flags = |field: &str, names: &[String]| cx.terrain_flags(field, names);
        let mp = |field: &str, x: f32| movement_cost(src, field, x);
        let z = &raw.zoc;
        let zoc = ZocRules {
            effect: z.effect,
            min_stacking_points: z.min_stacking_points,
            min_attack: z.min_attack,
            not_into: flags("zoc.not_into", &z.not_into)?,
            not_across: z.not_across.iter().copied().collect(),
            none_with: z.none_with.clone(),
            enter_cost: mp("zoc.enter_cost", z.enter_cost)?,
            leave_cost: mp("zoc.leave_cost", z.leave_cost)?,
            ezoc_to_ezoc: z.ezoc_to_ezoc,
            light_infantry_bound_in: z
                .light_infantry_bound_in
                .as_ref()
                .map(|names| flags("zoc.light_infantry_bound_in", names))
                .transpose()?,
            not_into_enemy_start_until_first_move: z.not_into_enemy_start_until_first_move,
        };
        let a = &raw.advance;
        let advance = AdvanceRules {
            zero_attack_followers: a.zero_attack_followers,
            automatic: a.automatic,
            fought_units_lose_movement: a.fought_units_lose_movement,
            second_cell_not_into: flags("advance.second_cell_not_into", &a.second_cell_not_into)?,
            second_cell_by_road_into: flags("advance.second_cell_by_road_into", &a.second_cell_by_road_into)?,
            clearing_in: flags("advance.clearing_in", &a.clearing_in)?,
            second_cell_not_into_features: a.second_cell_not_into_features.clone(),
            clearing_in_features: a.clearing_in_features.clone(),
            may_overstack: a.may_overstack,
        };
        Ok(Ruleset {
            combat,
            zoc,
            retreat: raw.retreat,
            advance,
            movement: MovementRules {
                terrain: move_terrain,
                edges,
                road,
            },
            stacking,
            terrain_ids,
            looks,
            raw,
        })
    }

    pub fn mobility_of(&self, class: UnitClass) -> Mobility {
        self.raw
            .mobility
            .get(&class)
            .copied()
            .unwrap_or(class.default_mobility())
    }

    pub fn size_points(&self, size: UnitSize) -> u32 {
        self.raw.stacking.size_points.get(&size).copied().unwrap_or(1)
    }

    pub fn terrain_look(&self, id: TerrainId) -> &TerrainLook {
        &self.looks[id.0 as usize]
    }
}
