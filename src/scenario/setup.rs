//! A unit as a checked scenario sets it up: what validation builds, deployment places and the game
//! spawns (or brings on later, or takes off).

use crate::rules::grid::Cell;
use crate::rules::terrain::{Mobility, Mp};
use crate::rules::units::{StepTrack, UnitClass, UnitSize, UnitStatus, UnitTrait};

/// A unit ready to spawn.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitSetup {
    pub id: String,
    pub name: String,
    pub side: usize,
    pub class: UnitClass,
    pub size: UnitSize,
    pub cell: Cell,
    pub steps: StepTrack,
    pub armor: Option<u32>,
    pub movement: Mp,
    pub mobility: Mobility,
    pub er: Option<u32>,
    pub element: Option<String>,
    pub parent: Option<String>,
    pub status: Vec<UnitStatus>,
    pub traits: Vec<UnitTrait>,
    pub experience: Option<u32>,
    pub stacking_points: u32,
    /// The game turn it enters on (a reinforcement), at the start of its side's player turn.
    pub arrives: Option<u32>,
    /// The game turn it leaves on (a withdrawal), at the start of its side's player turn.
    pub withdraws: Option<u32>,
}
