//! Terrain of cells and edges: the `Board` (what is where on a map), edge features such as
//! rivers and roads, mobility classes, and movement points in exact sixths.

use super::grid::{Cell, Edge, Grid};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Movement points in sixths of a point, so ½ (roads) and ⅓ (highways) stay exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Mp(pub u32);

impl Mp {
    pub const SIXTHS: u32 = 6;
    pub const ZERO: Mp = Mp(0);
    pub const MAX: Mp = Mp(u32::MAX / 4);

    pub const fn whole(points: u32) -> Self {
        Mp(points * Self::SIXTHS)
    }

    /// Converts a designer's decimal (`0.5`, `1`, `0.333`) to sixths; `None` when it is negative
    /// or not a whole number of sixths.
    pub fn from_f32(value: f32) -> Option<Self> {
        let sixths = value * Self::SIXTHS as f32;
        let rounded = sixths.round();
        (value >= 0.0 && (sixths - rounded).abs() < 0.02).then_some(Mp(rounded as u32))
    }

    pub fn as_f32(self) -> f32 {
        self.0 as f32 / Self::SIXTHS as f32
    }

    pub fn saturating_sub(self, other: Mp) -> Mp {
        Mp(self.0.saturating_sub(other.0))
    }
}

impl std::ops::Add for Mp {
    type Output = Mp;
    fn add(self, rhs: Mp) -> Mp {
        Mp(self.0.saturating_add(rhs.0))
    }
}

impl fmt::Display for Mp {
    /// Whole points plainly, fractions as the nearest common fraction: `2`, `1½`, `⅓`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / Self::SIXTHS;
        let frac = match self.0 % Self::SIXTHS {
            0 => "",
            1 => "⅙",
            2 => "⅓",
            3 => "½",
            4 => "⅔",
            _ => "⅚",
        };
        match (whole, frac) {
            (0, "") => f.write_str("0"),
            (0, fr) => f.write_str(fr),
            (w, fr) => write!(f, "{w}{fr}"),
        }
    }
}

/// How a unit moves, which decides what terrain costs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Mobility {
    /// Leg infantry, horses, towed guns.
    Foot,
    /// Wheeled: trucks, motorized infantry and artillery.
    Motorized,
    /// Tracked: armor and mechanized infantry.
    Mechanized,
}

impl Mobility {
    pub const ALL: [Mobility; 3] = [Mobility::Foot, Mobility::Motorized, Mobility::Mechanized];
}

/// Something on the side between two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EdgeFeature {
    River,
    MajorRiver,
    Bridge,
    Road,
    Lake,
    Strait,
    FortificationLine,
}

impl EdgeFeature {
    pub const ALL: [EdgeFeature; 7] = [
        EdgeFeature::River,
        EdgeFeature::MajorRiver,
        EdgeFeature::Bridge,
        EdgeFeature::Road,
        EdgeFeature::Lake,
        EdgeFeature::Strait,
        EdgeFeature::FortificationLine,
    ];

    const fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// Water that a bridge spans.
    pub const fn is_water(self) -> bool {
        matches!(
            self,
            EdgeFeature::River | EdgeFeature::MajorRiver | EdgeFeature::Lake | EdgeFeature::Strait
        )
    }
}

/// The set of features on one edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EdgeFeatures(u8);

impl EdgeFeatures {
    pub const NONE: EdgeFeatures = EdgeFeatures(0);

    pub fn contains(self, feature: EdgeFeature) -> bool {
        self.0 & feature.bit() != 0
    }

    pub fn insert(&mut self, feature: EdgeFeature) {
        self.0 |= feature.bit();
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the two sets share a feature.
    pub fn intersects(self, other: EdgeFeatures) -> bool {
        self.0 & other.0 != 0
    }

    pub fn iter(self) -> impl Iterator<Item = EdgeFeature> {
        EdgeFeature::ALL.into_iter().filter(move |f| self.contains(*f))
    }

    /// Water on this edge that no bridge spans.
    pub fn has_unbridged_water(self) -> bool {
        !self.contains(EdgeFeature::Bridge) && self.iter().any(EdgeFeature::is_water)
    }
}

impl FromIterator<EdgeFeature> for EdgeFeatures {
    fn from_iter<I: IntoIterator<Item = EdgeFeature>>(iter: I) -> Self {
        let mut set = EdgeFeatures::NONE;
        for f in iter {
            set.insert(f);
        }
        set
    }
}

/// Index of a terrain type in its ruleset's terrain list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TerrainId(pub u16);

/// Something in a cell besides its terrain: a town or city, a fortification, an installation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CellFeature {
    Town,
    City,
    MajorCity,
    /// A victory city with its intrinsic defense factors (War Against Russia: 2 for Leningrad and
    /// Moscow, 1 for the others).
    VictoryCity(u32),
    Fortification,
    /// An installation (Next War): an airbase or airfield.
    Airbase,
    /// An installation (Next War): a port.
    Port,
}

/// Kinds of cell features, as rules name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FeatureClass {
    Town,
    /// A city, major city or victory city.
    City,
    Fortification,
    /// An airbase or port.
    Installation,
}

impl CellFeature {
    pub const fn class(self) -> FeatureClass {
        match self {
            Self::Town => FeatureClass::Town,
            Self::City | Self::MajorCity | Self::VictoryCity(_) => FeatureClass::City,
            Self::Fortification => FeatureClass::Fortification,
            Self::Airbase | Self::Port => FeatureClass::Installation,
        }
    }

    /// Next War's installations: airbases and ports.
    pub const fn is_installation(self) -> bool {
        matches!(self, Self::Airbase | Self::Port)
    }

    /// Its name in a sentence.
    pub fn word(self) -> String {
        match self {
            Self::Town => "town".into(),
            Self::City => "city".into(),
            Self::MajorCity => "major city".into(),
            Self::VictoryCity(n) => format!("victory city (+{n})"),
            Self::Fortification => "fortification".into(),
            Self::Airbase => "airbase".into(),
            Self::Port => "port".into(),
        }
    }
}

/// What is where on a map: the terrain of every cell and the features of every edge.
///
/// Invariant: `terrain.len() == grid.cell_count()`, indexed by `Grid::index`; `edges` holds only
/// edges between two adjacent on-map cells and never an empty feature set.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub grid: Grid,
    terrain: Vec<TerrainId>,
    edges: FxHashMap<Edge, EdgeFeatures>,
    features: FxHashMap<Cell, Vec<CellFeature>>,
}

impl Board {
    pub fn new(grid: Grid, fill: TerrainId) -> Self {
        Self {
            grid,
            terrain: vec![fill; grid.cell_count()],
            edges: FxHashMap::default(),
            features: FxHashMap::default(),
        }
    }

    /// The features in a cell (towns, cities, fortifications, installations), in file order.
    pub fn features(&self, cell: Cell) -> &[CellFeature] {
        self.features.get(&cell).map_or(&[], Vec::as_slice)
    }

    /// Whether a cell holds a feature matching `test`.
    pub fn has_feature(&self, cell: Cell, test: impl Fn(CellFeature) -> bool) -> bool {
        self.features(cell).iter().any(|f| test(*f))
    }

    /// Adds a feature to an on-map cell (once).
    pub fn add_feature(&mut self, cell: Cell, feature: CellFeature) -> Result<(), String> {
        if !self.grid.contains(cell) {
            return Err(format!("{cell} is not on the map"));
        }
        let here = self.features.entry(cell).or_default();
        if here.contains(&feature) {
            return Err(format!("{cell} already has a {}", feature.word()));
        }
        here.push(feature);
        Ok(())
    }

    /// Every cell with features, in cell order.
    pub fn all_features(&self) -> Vec<(Cell, &[CellFeature])> {
        let mut all: Vec<_> = self.features.iter().map(|(c, f)| (*c, f.as_slice())).collect();
        all.sort_by_key(|(c, _)| *c);
        all
    }

    /// The terrain of an on-map cell; `None` off the map.
    pub fn terrain(&self, cell: Cell) -> Option<TerrainId> {
        self.grid.index(cell).map(|i| self.terrain[i])
    }

    /// Sets an on-map cell's terrain. Returns false (and changes nothing) off the map.
    pub fn set_terrain(&mut self, cell: Cell, terrain: TerrainId) -> bool {
        match self.grid.index(cell) {
            Some(i) => {
                self.terrain[i] = terrain;
                true
            }
            None => false,
        }
    }

    /// Features of the edge between two cells (empty when there are none or they aren't adjacent).
    pub fn edge(&self, a: Cell, b: Cell) -> EdgeFeatures {
        self.edges.get(&Edge::new(a, b)).copied().unwrap_or_default()
    }

    /// Adds a feature to the edge between two adjacent on-map cells.
    pub fn add_edge_feature(&mut self, a: Cell, b: Cell, feature: EdgeFeature) -> Result<(), String> {
        if !self.grid.contains(a) || !self.grid.contains(b) {
            return Err(format!("edge {a}/{b} is not between two cells of the map"));
        }
        if !self.grid.are_adjacent(a, b) {
            return Err(format!("cells {a} and {b} are not adjacent, so they share no edge"));
        }
        self.edges.entry(Edge::new(a, b)).or_default().insert(feature);
        Ok(())
    }

    /// Every edge that carries features, in a stable order.
    pub fn edges(&self) -> Vec<(Edge, EdgeFeatures)> {
        let mut all: Vec<_> = self.edges.iter().map(|(e, f)| (*e, *f)).collect();
        all.sort_by_key(|(e, _)| *e);
        all
    }
}
