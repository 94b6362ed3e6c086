//! The end screen: who won and why, the objective points, and what each side lost.

use super::saves::GameCommand;
use super::state::Palette;
use crate::game::components::{GameMap, ScenarioSource, Side, Sides, Steps, Unit};
use crate::game::phase::{GameState, TurnState};
use crate::game::victory::{ObjectiveControl, Verdict};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    // An online game's end has its own panel (the verdict, the dice check, a copy to keep).
    app.add_systems(
        EguiPrimaryContextPass,
        // Presentation mode shows viewers a victory card instead (`present::victory`).
        end_screen.run_if(
            in_state(GameState::Over)
                .and_then(not(resource_exists::<super::online::OnlineSeat>))
                .and_then(not(super::state::on)),
        ),
    );
}

/// Per side: units that took part, units left, steps lost (eliminated units count all their
/// steps). A reinforcement that never arrived and a unit withdrawn by the scenario are neither
/// counted nor lost (on turn `turn`, the game's last).
pub fn losses(
    source: &ScenarioSource,
    sides: &Sides,
    units: &Query<(&Unit, &Side, &Steps)>,
    turn: u32,
) -> Vec<(usize, usize, usize)> {
    let mut out = vec![(0, 0, 0); sides.0.len()];
    for raw in &source.0.units {
        let Some(i) = sides.0.iter().position(|s| s.id == raw.side) else {
            continue;
        };
        let on_map = units.iter().any(|(u, ..)| u.id == raw.id);
        let not_yet = raw.arrives.is_some_and(|t| t > turn);
        let withdrawn = raw.withdraws.is_some_and(|t| t <= turn);
        if !on_map && (not_yet || withdrawn) {
            continue;
        }
        out[i].0 += 1;
        match units.iter().find(|(u, ..)| u.id == raw.id) {
            Some((_, _, steps)) => {
                out[i].1 += 1;
                out[i].2 += steps.0.lost.saturating_sub(raw.lost);
            }
            None => {
                let total = crate::scenario::tracks::starting_track(raw).map_or(1, |t| t.total());
                out[i].2 += total.saturating_sub(raw.lost);
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn end_screen(
    mut contexts: EguiContexts,
    verdict: Option<Res<Verdict>>,
    sides: Res<Sides>,
    map: Res<GameMap>,
    control: Res<ObjectiveControl>,
    source: Res<ScenarioSource>,
    turn: Res<TurnState>,
    palette: Res<Palette>,
    units: Query<(&Unit, &Side, &Steps)>,
    mut commands: MessageWriter<GameCommand>,
    mut undo: MessageWriter<super::orders::History>,
    mut hidden: Local<bool>,
    autosave: Option<Res<crate::game::autosave::Autosave>>,
) -> Result {
    // While a replay is watched its autosave is set aside: nothing was written.
    let autosaved = autosave.is_some();
    let Some(verdict) = verdict else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    if *hidden {
        egui::Area::new(egui::Id::new("show-result"))
            .anchor(egui::Align2::CENTER_TOP, [0.0, 40.0])
            .show(ctx, |ui| {
                if ui.button("Show the result").clicked() {
                    *hidden = false;
                }
            });
        return Ok(());
    }
    egui::Window::new("The game is over")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            headline(ui, &verdict, &sides);
            victory_ladder(ui, &verdict, &sides, &map);
            ui.label(
                egui::RichText::new(format!(
                    "{} — turn {} of {}",
                    source.0.name, verdict.turn, turn.last_turn
                ))
                .weak(),
            );
            ui.separator();
            let lost = losses(&source, &sides, &units, verdict.turn);
            summary(ui, &verdict, &sides, &lost);
            ui.separator();
            ui.strong("Objectives");
            for (o, holder) in map.objectives.iter().zip(&control.0) {
                let who = holder.map_or("nobody".to_string(), |s| sides.0[s.0].name.clone());
                ui.label(format!("{} ({}, {} points): {who}", o.name, o.cell, o.points));
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("New game (F2)").clicked() {
                    commands.write(GameCommand::NewGame);
                }
                if ui.button("Look at the board").clicked() {
                    *hidden = true;
                }
                if ui
                    .button("Watch the replay")
                    .on_hover_text("Play the whole game back, order by order")
                    .clicked()
                {
                    commands.write(GameCommand::Watch);
                }
                if ui
                    .button("Undo the last order (Ctrl+Z)")
                    .on_hover_text("Take back the order that ended the game, if no die was rolled since")
                    .clicked()
                {
                    undo.write(super::orders::History::Undo);
                }
                if ui.button("Quit").clicked() {
                    // Through the session: the game is written to its autosave first.
                    commands.write(GameCommand::Quit);
                }
            });
            if autosaved {
                ui.colored_label(palette.highlight, "The whole game was autosaved: watch it any time.");
            }
        });
    Ok(())
}

/// "German wins a decisive victory" in the winner's colour, and why.
fn headline(ui: &mut egui::Ui, verdict: &Verdict, sides: &Sides) {
    let headline = match verdict.winner {
        Some(side) => {
            let color = super::side_text::side_text_color(sides.0[side.0].color, ui.visuals().window_fill);
            // "German wins a decisive victory"; a plain "German wins" without levels.
            let text = match verdict.level {
                Some(level) => format!("{} wins a {} victory", sides.0[side.0].name, level.word()),
                None => format!("{} wins", sides.0[side.0].name),
            };
            egui::RichText::new(text).size(26.0).color(color)
        }
        None => egui::RichText::new("A draw").size(26.0),
    };
    ui.label(headline.strong());
    ui.label(&verdict.reason);
}

/// The scenario's victory levels, when it states them, with the one that decided marked.
fn victory_ladder(ui: &mut egui::Ui, verdict: &Verdict, sides: &Sides, map: &GameMap) {
    // The scenario's ladder, so the level reads against the others: each graded condition
    // in words, the one that decided marked.
    if map.win.iter().any(|w| w.level.is_some()) {
        ui.add_space(4.0);
        for level in crate::scenario::file::VictoryLevel::ALL.iter().rev() {
            for (i, w) in map.win.iter().enumerate().filter(|(_, w)| w.level == Some(*level)) {
                let mark = if verdict.decided_by == Some(i) { "▶" } else { "  " };
                ui.label(
                    egui::RichText::new(format!(
                        "{mark} {} — {}: {}",
                        level.title(),
                        sides.0[w.side].name,
                        crate::game::victory::condition_words(w, &map.objectives)
                    ))
                    .small(),
                );
            }
        }
        if let (Some(side), Some(level)) = (map.otherwise, map.otherwise_level) {
            // A concession has no level, so only the `otherwise` win is marked here.
            let decided =
                verdict.decided_by.is_none() && verdict.winner == Some(Side(side)) && verdict.level == Some(level);
            let mark = if decided { "▶" } else { "  " };
            ui.label(
                egui::RichText::new(format!(
                    "{mark} {} — {}: anything else",
                    level.title(),
                    sides.0[side].name
                ))
                .small(),
            );
        }
    }
}

/// Per side: objective points, units left of those that took part, steps lost.
fn summary(ui: &mut egui::Ui, verdict: &Verdict, sides: &Sides, lost: &[(usize, usize, usize)]) {
    egui::Grid::new("summary").striped(true).show(ui, |ui| {
        for h in ["Side", "Objective points", "Units left", "Steps lost"] {
            ui.strong(h);
        }
        ui.end_row();
        for (i, side) in sides.0.iter().enumerate() {
            let color = super::side_text::side_text_color(side.color, ui.visuals().window_fill);
            ui.colored_label(color, &side.name);
            ui.label(verdict.points.get(i).copied().unwrap_or(0).to_string());
            ui.label(format!("{} of {}", lost[i].1, lost[i].0));
            ui.label(lost[i].2.to_string());
            ui.end_row();
        }
    });
}
