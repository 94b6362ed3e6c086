//! After the computer's turn, a short report for the player at the screen: what it moved, its
//! combats with their results, the steps each side lost and the objectives that changed hands
//! (`game::turn_report`). A panel to dismiss, and a line in the log.

use super::state::Seats;
use crate::game::phase::{GameState, TurnState};
use crate::game::turn_report::{TurnReport, TurnStart, turn_report, turn_start};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The computer's turn being watched, and the report of the last one until dismissed.
#[derive(Resource, Default)]
pub struct ComputerTurnReport {
    start: Option<TurnStart>,
    seen: Option<(u32, usize)>,
    pub shown: Option<TurnReport>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ComputerTurnReport>()
        .add_systems(
            PostUpdate,
            watch_before_computer
                .after(super::state::OrderSystems)
                .before(super::computer::ComputerSystems)
                .run_if(in_state(GameState::Playing).and_then(not(resource_exists::<super::state::Replay>)))
                .run_if(not(resource_exists::<super::online::OnlineSeat>)),
        )
        .add_systems(
            PostUpdate,
            watch_after_computer
                .after(super::computer::ComputerSystems)
                .run_if(in_state(GameState::Playing).and_then(not(resource_exists::<super::state::Replay>)))
                // Online, the other side is a person: the log says what they did.
                .run_if(not(resource_exists::<super::online::OnlineSeat>)),
        )
        .add_systems(OnEnter(GameState::NoGame), |mut r: ResMut<ComputerTurnReport>| {
            *r = ComputerTurnReport::default()
        })
        .add_systems(
            Update,
            dismiss_on_key
                .before(super::state::HudSystems)
                .run_if(in_state(GameState::Playing)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            report_panel.run_if(in_state(GameState::Playing).and_then(super::state::off)),
        );
}

/// Watches for a turn the player's end of turn has just begun, before the computer gives the
/// first order of it in the same frame: the units are noted exactly as the turn found them.
fn watch_before_computer(world: &mut World) {
    watch_turns(world);
}

/// Watches for a turn the computer's own order has begun (its turn over, or another computer's
/// side to play).
fn watch_after_computer(world: &mut World) {
    watch_turns(world);
}

/// Notes the start of each computer turn and reports it when play passes to a person. Which
/// orders the report covers comes from the log itself (`game::turn_report::turn_entries`), so an
/// order given before the turn's start was noticed is not left out.
fn watch_turns(world: &mut World) {
    let turn = world.resource::<TurnState>();
    let now = (turn.turn, turn.active.0);
    let mut report = std::mem::take(&mut *world.resource_mut::<ComputerTurnReport>());
    if report.seen != Some(now) {
        let seats = world.resource::<Seats>().clone();
        let person_plays = seats.0.iter().any(Option::is_none) || seats.0.is_empty();
        if let Some(start) = report.start.take()
            && seats.computer(now.1).is_none()
        {
            let done = turn_report(world, &start);
            let summary = done.summary.clone();
            crate::game::log::note_after_last_order(world, summary);
            report.shown = Some(done);
        }
        if person_plays && seats.computer(now.1).is_some() {
            report.start = Some(turn_start(world));
        }
        report.seen = Some(now);
    }
    *world.resource_mut::<ComputerTurnReport>() = report;
}

/// Enter or Esc closes the report, taking the key: the Enter that dismisses it does not also end
/// the phase behind it.
fn dismiss_on_key(mut keys: ResMut<super::keymap::Keys>, mut report: ResMut<ComputerTurnReport>) {
    use super::keymap::Action;
    if report.shown.is_none() {
        return;
    }
    let confirm = keys.take(Action::Confirm);
    if confirm || keys.take(Action::Cancel) {
        if confirm {
            keys.take(Action::EndPhase);
        }
        report.shown = None;
    }
}

fn report_panel(mut contexts: EguiContexts, mut report: ResMut<ComputerTurnReport>) -> Result {
    let Some(shown) = &report.shown else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let mut close = false;
    egui::Window::new(shown.title.as_str())
        .id(egui::Id::new("computer-turn-report"))
        .collapsible(true)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 236.0])
        // Wide enough for its title ("The computer played turn 6 for the United States side").
        .min_width(460.0)
        .default_width(460.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().max_height(300.0).show(ui, |ui| {
                for line in &shown.lines {
                    ui.add(egui::Label::new(line.as_str()).wrap());
                }
            });
            if ui
                .button("Got it (Enter)")
                .on_hover_text("Close this report (it stays in the log)")
                .clicked()
            {
                close = true;
            }
        });
    if close {
        report.shown = None;
    }
    Ok(())
}
