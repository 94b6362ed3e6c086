//! The turn sequence: `GameState` (is a game on?) and its sub-state `Phase`, driven by the
//! ruleset's player turn and the `TurnState` resource, advanced by `EndPhase` orders.

use super::components::{GameLog, GameMap, MovePoints, Side, Sides, Statuses, Unit};
use crate::rules::terrain::Mobility;
use crate::rules::units::UnitStatus;
use crate::scenario::ruleset::PhaseKind;
use bevy::prelude::*;

/// Whether a game is being played.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GameState {
    #[default]
    NoGame,
    Playing,
    Over,
}

/// The phase of the active side's player turn. Mirrors `TurnState`, which is the truth (and what
/// a save stores); systems that belong to a phase run `in_state(Phase::…)`.
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(GameState = GameState::Playing)]
pub enum Phase {
    /// Before the first phase is entered.
    #[default]
    Setup,
    Reinforcement,
    Movement,
    Combat,
    /// A second movement phase for mechanized and motorized units only.
    Exploitation,
    Supply,
}

/// Where the combat phase stands: attacks are declared and resolved, then the retreats the last
/// result demands are carried out, then the attackers' advance after combat.
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(Phase = Phase::Combat)]
pub enum CombatStep {
    #[default]
    Declare,
    Retreat,
    Advance,
}

impl From<PhaseKind> for Phase {
    fn from(kind: PhaseKind) -> Self {
        match kind {
            PhaseKind::Reinforcement => Phase::Reinforcement,
            PhaseKind::Movement => Phase::Movement,
            PhaseKind::Combat => Phase::Combat,
            PhaseKind::Exploitation => Phase::Exploitation,
            PhaseKind::Supply => Phase::Supply,
        }
    }
}

impl Phase {
    /// May a unit of `mobility` move in this phase?
    pub fn allows_movement(self, mobility: Mobility) -> bool {
        match self {
            Phase::Movement => true,
            Phase::Exploitation => mobility != Mobility::Foot,
            _ => false,
        }
    }
}

/// Where the game stands: turn, active side and phase index within the player turn.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct TurnState {
    /// 1-based.
    pub turn: u32,
    pub last_turn: u32,
    pub active: Side,
    pub first_side: Side,
    /// Index into the ruleset's `player_turn`.
    pub phase_index: usize,
}

/// The phase whose start-of-phase bookkeeping (fresh movement points, markers off) is done:
/// `(turn, active side, phase index)`. A loaded game starts with its own phase here, so its
/// units keep the movement points they had spent.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseStarted(pub Option<(u32, usize, usize)>);

impl PhaseStarted {
    pub fn of(turn: &TurnState) -> Self {
        Self(Some((turn.turn, turn.active.0, turn.phase_index)))
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<GameState>()
        .add_sub_state::<Phase>()
        .add_sub_state::<CombatStep>()
        .init_resource::<PhaseStarted>();
}

/// The phase `TurnState` points at.
pub fn current_phase(turn: &TurnState, map: &GameMap) -> Phase {
    map.ruleset.raw.player_turn[turn.phase_index].into()
}

/// Whether ending the current phase also ends the side's player turn.
pub fn ends_player_turn(turn: &TurnState, map: &GameMap) -> bool {
    turn.phase_index + 1 >= map.ruleset.raw.player_turn.len()
}

/// Moves `TurnState` to the next phase, the next side's player turn, or the next game turn;
/// ends the game after the last turn. The order step (`execute::issuer`) has already refused an
/// end of phase while the last combat owes retreats, advances or the defender's answer.
pub(super) fn end_phase(
    mut turn: ResMut<TurnState>,
    map: Res<GameMap>,
    sides: Res<Sides>,
    mut log: ResMut<GameLog>,
    mut next_game: ResMut<NextState<GameState>>,
) -> Result<(), String> {
    let phases = map.ruleset.raw.player_turn.len();
    let ended = current_phase(&turn, &map);
    turn.phase_index += 1;
    if turn.phase_index == phases {
        turn.phase_index = 0;
        turn.active = Side((turn.active.0 + 1) % sides.0.len());
        if turn.active == turn.first_side {
            if turn.turn == turn.last_turn {
                log.push(format!("Turn {} ends: the game is over.", turn.turn));
                next_game.set(GameState::Over);
                return Ok(());
            }
            turn.turn += 1;
        }
    }
    log.push(format!(
        "{ended:?} phase ends. Turn {}, {}: {:?} phase.",
        turn.turn,
        sides.0[turn.active.0].name,
        current_phase(&turn, &map)
    ));
    Ok(())
}

/// Makes `Phase` follow `TurnState` and gives the active side fresh movement points on entering
/// a movement or exploitation phase.
pub(super) fn sync_phase_with_turn(
    turn: Res<TurnState>,
    map: Res<GameMap>,
    phase: Res<State<Phase>>,
    mut next_phase: ResMut<NextState<Phase>>,
    mut started: ResMut<PhaseStarted>,
    mut units: Query<(&Side, &Unit, &mut MovePoints, &mut Statuses)>,
    edition: Option<Res<super::edition::RulesEdition>>,
) {
    let wanted = current_phase(&turn, &map);
    if *phase.get() != wanted {
        next_phase.set(wanted);
    }
    if *started == PhaseStarted::of(&turn) {
        return;
    }
    // The side whose player turn just ended, if this phase starts another side's turn.
    let ended = started.0.map(|(_, side, _)| side).filter(|side| *side != turn.active.0);
    let dispersal_ends = edition.is_none_or(|e| e.dispersal_ends());
    *started = PhaseStarted::of(&turn);
    for (side, unit, mut mp, mut statuses) in &mut units {
        // War Against Russia (choice, edition 2: the tables do not say when): dispersed units
        // flip back at the end of their owner's player turn, so a unit dispersed in the enemy's
        // turn sits out its own next turn.
        if dispersal_ends && ended == Some(side.0) && statuses.has(UnitStatus::Dispersed) {
            statuses.0.remove(&UnitStatus::Dispersed);
        }
        if *side == turn.active && wanted.allows_movement(unit.mobility) {
            mp.spent = Default::default();
        }
        // Next War (choice): Clearing markers come off at the start of the owner's movement.
        if *side == turn.active && wanted == Phase::Movement && statuses.has(UnitStatus::Clearing) {
            statuses.0.remove(&UnitStatus::Clearing);
        }
    }
}
