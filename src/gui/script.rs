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
            bench_frames.run_if(
                resource_exists::<FrameBench>
                    .and_then(resource_exists::<super::layout::Layout>)
                    .and_then(in_state(GameState::Playing)),
            ),
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

fn bench_frames(
    mut bench: ResMut<FrameBench>,
    time: Res<Time<Real>>,
    picture: Option<Res<super::detail::BoardPicture>>,
    layout: Res<super::layout::Layout>,
    mut camera: Query<(&mut Transform, &mut Projection), With<super::state::BoardCamera>>,
    mut exit: MessageWriter<AppExit>,
) {
    // The first frames build meshes, pipelines and the board picture: not counted.
    if !picture.is_some_and(|p| p.baked()) {
        return;
    }
    bench.times.push(f64::from(time.delta_secs()) * 1000.0);
    let n = bench.frames as usize;
    let warm = 10;
    if bench.times.len() == warm + n {
        println!("{}", frame_report("whole map in view", &bench.times[warm..]));
        // Then zoomed in, one screen pixel per world unit, on the middle of the map.
        if let Ok((mut t, mut p)) = camera.single_mut() {
            if let Projection::Orthographic(o) = p.as_mut() {
                o.scale = 1.0;
            }
            let c = layout.bounds().center();
            t.translation = c.extend(t.translation.z);
        }
    }
    if bench.times.len() >= 2 * (warm + n) {
        println!("{}", frame_report("zoomed in (1:1)", &bench.times[2 * warm + n..]));
        exit.write(AppExit::Success);
    }
}

/// Mean, median, 90th and 99th percentiles and the worst of some frame times.
pub fn frame_report(what: &str, times: &[f64]) -> String {
    let mut t = times.to_vec();
    t.sort_by(f64::total_cmp);
    let at = |q: f64| {
        t[((t.len() as f64 * q).ceil() as usize)
            .saturating_sub(1)
            .min(t.len() - 1)]
    };
    let mean = t.iter().sum::<f64>() / t.len() as f64;
    format!(
        "bench-frames, {what}: {} frames: mean {mean:.2} ms ({:.1} fps), p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        t.len(),
        1000.0 / mean,
        at(0.5),
        at(0.9),
        at(0.99),
        t[t.len() - 1]
    )
}
