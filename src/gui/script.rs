//! Command-line presets for streamers, CI and benchmarks: `--attack FROM:TO` opens an attack's
//! panels (ending phases until a combat phase), `--roll` rolls it (every defender then answering
//! with the suggested answer); `--bench-frames N` plays N
//! frames of a 100×100 map with 1,000 units (`scenario::benchmark_scenario`) with the whole map in
//! view, then N zoomed in, and prints mean, p50, p90, p99 and max of each.

use super::attack::{AttackPlan, RollRequest};
use super::state::PlayerOrder;
use crate::game::components::{MapIndex, Side, Sides};
use crate::game::order::Order;
use crate::game::phase::{CombatStep, GameState, Phase, TurnState};
use crate::game::standing::{StandingAnswer, StandingAnswers};
use crate::rules::grid::{Cell, parse_label};
use bevy::prelude::*;

/// `--attack FROM:TO` (and `--roll`).
#[derive(Resource, Clone, Debug)]
pub struct ScriptedAttack {
    pub from: Cell,
    pub to: Cell,
    pub roll: bool,
    ends_sent: u32,
    pinned_at: Option<u32>,
    frame: u32,
}

impl ScriptedAttack {
    /// Parses `0906:0806`.
    pub fn parse(text: &str, roll: bool) -> Result<Self, String> {
        let (a, b) = text
            .split_once(':')
            .ok_or_else(|| format!("`{text}`: write --attack FROM:TO, e.g. 1411:1312"))?;
        Ok(Self {
            from: parse_label(a)?,
            to: parse_label(b)?,
            roll,
            ends_sent: 0,
            pinned_at: None,
            frame: 0,
        })
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        run_scripted_attack.run_if(resource_exists::<ScriptedAttack>.and_then(in_state(GameState::Playing))),
    );
}

fn run_scripted_attack(
    mut commands: Commands,
    mut script: ResMut<ScriptedAttack>,
    phase: Res<State<Phase>>,
    step: Option<Res<State<CombatStep>>>,
    turn: Res<TurnState>,
    index: Res<MapIndex>,
    sides: Query<(&Side, &crate::game::components::Unit)>,
    mut plan: ResMut<AttackPlan>,
    mut orders: MessageWriter<PlayerOrder>,
    mut rolls: MessageWriter<RollRequest>,
    (mut standing, all): (ResMut<StandingAnswers>, Res<Sides>),
) {
    script.frame += 1;
    if *phase.get() != Phase::Combat {
        // One end per two frames: the phase follows the turn state a frame later.
        if script.frame.is_multiple_of(2) && script.ends_sent < 12 {
            script.ends_sent += 1;
            orders.write(PlayerOrder(Order::EndPhase));
        }
        return;
    }
    if step.is_none_or(|s| *s.get() != CombatStep::Declare) {
        return;
    }
    match script.pinned_at {
        None => {
            let attackers: Vec<String> = index
                .stack(script.from)
                .iter()
                .filter_map(|e| sides.get(*e).ok())
                .filter(|(s, _)| **s == turn.active)
                .map(|(_, u)| u.id.clone())
                .collect();
            if attackers.is_empty() {
                warn!("--attack: no units of the side to play in {}", script.from);
                commands.remove_resource::<ScriptedAttack>();
                return;
            }
            *plan = AttackPlan {
                target: Some(script.to),
                attackers,
                ..default()
            };
            script.pinned_at = Some(script.frame);
            if !script.roll {
                commands.remove_resource::<ScriptedAttack>();
            }
        }
        Some(at) if script.frame >= at + 3 => {
            // A preset has nobody to ask: every defender gives the suggested answer.
            for side in 0..all.0.len() {
                standing.set(side, StandingAnswer::Suggested);
            }
            rolls.write(RollRequest);
            commands.remove_resource::<ScriptedAttack>();
        }
        Some(_) => {}
    }
}
