//! The victory card: in presentation mode the game's end is a card for viewers in the frame's
//! middle (who won, how large, why, the points and each side's losses) instead of the player's
//! end dialog with its buttons.

use super::super::end::losses;
use super::super::state::Settings;
use crate::game::components::{ScenarioSource, Side, Sides, Steps, Unit};
use crate::game::phase::{GameState, TurnState};
use crate::game::victory::Verdict;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        victory_card
            .run_if(
                super::on
                    .and_then(in_state(GameState::Over))
                    .and_then(resource_exists::<Verdict>),
            )
            .after(super::overlay::OverlaySystems),
    );
}

fn victory_card(
    mut contexts: EguiContexts,
    verdict: Res<Verdict>,
    (sides, source, turn): (Res<Sides>, Res<ScenarioSource>, Res<TurnState>),
    units: Query<(&Unit, &Side, &Steps)>,
    (overlay, time, settings): (Res<super::overlay::Overlay>, Res<Time>, Res<Settings>),
) -> Result {
    // The last combat's result is seen first: the card comes when it has gone.
    if overlay.busy(time.elapsed_secs_f64(), &settings) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let lost = losses(&source, &sides, &units, turn.turn);
    egui::Area::new(egui::Id::new("victory-card"))
        .fade_in(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, -40.0])
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(super::panel_fill())
                .stroke(egui::Stroke::new(2.0, egui::Color32::from_gray(90)))
                .corner_radius(10.0)
                .inner_margin(egui::Margin::same(24))
                .show(ui, |ui| {
                    ui.set_width(560.0);
                    ui.vertical_centered(|ui| contents(ui, &verdict, &sides, &source.0.name, &lost));
                });
        });
    Ok(())
}

fn contents(ui: &mut egui::Ui, verdict: &Verdict, sides: &Sides, scenario: &str, lost: &[(usize, usize, usize)]) {
    let quiet = |t: String, size: f32| egui::RichText::new(t).size(size).color(super::card::QUIET);
    ui.label(quiet(format!("{scenario} · game over on turn {}", verdict.turn), 15.0));
    ui.add_space(6.0);
    let (headline, colour) = match verdict.winner {
        Some(side) => {
            let s = &sides.0[side.0];
            let text = match verdict.level {
                Some(level) => format!("{} wins a {} victory", s.name, level.word()),
                None => format!("{} wins", s.name),
            };
            (
                text,
                super::super::side_text::side_text_color(s.color, super::panel_fill()),
            )
        }
        None => ("A draw".to_string(), egui::Color32::WHITE),
    };
    ui.label(egui::RichText::new(headline).size(34.0).strong().color(colour));
    ui.add_space(4.0);
    ui.label(egui::RichText::new(&verdict.reason).size(16.0).color(super::card::TEXT));
    ui.add_space(12.0);
    egui::Grid::new("victory-sides").spacing([28.0, 6.0]).show(ui, |ui| {
        ui.label(quiet(String::new(), 14.0));
        ui.label(quiet("objective points".into(), 14.0));
        ui.label(quiet("steps lost".into(), 14.0));
        ui.label(quiet("units left".into(), 14.0));
        ui.end_row();
        for (i, side) in sides.0.iter().enumerate() {
            let (took_part, left, steps) = lost.get(i).copied().unwrap_or_default();
            ui.label(egui::RichText::new(&side.name).size(18.0).strong().color(
                super::super::side_text::side_text_color(side.color, super::panel_fill()),
            ));
            let big = |t: String| egui::RichText::new(t).size(18.0).color(super::card::TEXT);
            ui.label(big(verdict.points.get(i).map_or("–".into(), |p| p.to_string())));
            ui.label(big(steps.to_string()));
            ui.label(big(format!("{left} of {took_part}")));
            ui.end_row();
        }
    });
}
