//! Command-line presets for streamers, CI and benchmarks: `--attack FROM:TO` opens an attack's
//! panels (ending phases until a combat phase), `--roll` rolls it; `--bench-frames N` plays N
//! frames of a 100×100 map with 1,000 units (`scenario::benchmark_scenario`) and prints the mean
//! and 99th-percentile frame time.

use super::attack::{AttackPlan, RollRequest};
use super::orders::PlayerOrder;
use crate::game::components::{MapIndex, Side};
use crate::game::order::Order;
use crate::game::phase::{CombatStep, GameState, Phase, TurnState};
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

/// `--bench-frames N`: frame times collected, then printed.
#[derive(Resource, Clone, Debug)]
pub struct FrameBench {
    pub frames: u32,
    pub times: Vec<f64>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            run_scripted_attack.run_if(resource_exists::<ScriptedAttack>.and_then(in_state(GameState::Playing))),
            bench_frames.run_if(resource_exists::<FrameBench>.and_then(in_state(GameState::Playing))),
        ),
    );
}

fn run_scripted_attack(
    mut commands: Commands,
    mut script: ResMut<ScriptedAttack>,
    phase: Res<State<Phase>>,
    step: Option<Res<State<CombatStep>>>,
    turn: Res<TurnState>,
    index: Res<MapIndex>,
    sides: Query<&Side>,
    mut plan: ResMut<AttackPlan>,
    mut orders: MessageWriter<PlayerOrder>,
    mut rolls: MessageWriter<RollRequest>,
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
            let attackers: Vec<Entity> = index
                .stack(script.from)
                .iter()
                .copied()
                .filter(|e| sides.get(*e).is_ok_and(|s| *s == turn.active))
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
            rolls.write(RollRequest);
            commands.remove_resource::<ScriptedAttack>();
        }
        Some(_) => {}
    }
}

fn bench_frames(mut bench: ResMut<FrameBench>, time: Res<Time<Real>>, mut exit: MessageWriter<AppExit>) {
    // The first frames build meshes and pipelines: not counted.
    bench.times.push(f64::from(time.delta_secs()) * 1000.0);
    if bench.times.len() as u32 >= bench.frames + 10 {
        let mut t: Vec<f64> = bench.times[10..].to_vec();
        t.sort_by(f64::total_cmp);
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        let p99 = t[((t.len() as f64 * 0.99).ceil() as usize)
            .saturating_sub(1)
            .min(t.len() - 1)];
        println!(
            "bench-frames: {} frames on a 100×100 map with 1,000 units: mean {mean:.2} ms ({:.1} fps), p99 {p99:.2} ms, max {:.2} ms",
            t.len(),
            1000.0 / mean,
            t[t.len() - 1]
        );
        exit.write(AppExit::Success);
    }
}
