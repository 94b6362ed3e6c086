//! The score during play: objective points per side in the top bar, and a panel (V) with who holds
//! each objective, every victory condition with whether it holds now, and the turns left.

use super::state::Palette;
use crate::game::components::{GameMap, Side, Sides};
use crate::game::phase::TurnState;
use crate::game::victory::{ObjectiveControl, Standing, condition_words, standing};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Whether the score panel is open.
#[derive(Resource, Default)]
pub struct ShowScore(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShowScore>()
        .add_systems(
            Update,
            toggle.before(super::state::HudSystems).run_if(super::board_shown),
        )
        .add_systems(
            EguiPrimaryContextPass,
            score_panel.run_if(
                resource_exists::<TurnState>
                    .and_then(resource_exists::<ObjectiveControl>)
                    .and_then(super::state::off),
            ),
        );
}

fn toggle(mut keys: ResMut<super::keymap::Keys>, mut show: ResMut<ShowScore>) {
    if let Some(open) = keys.toggled(show.0, super::keymap::Action::Score) {
        show.0 = open;
    }
}

/// A side's colour as text on `ui`'s windows.
fn side_color(ui: &egui::Ui, sides: &Sides, side: Side) -> egui::Color32 {
    let color = sides.0.get(side.0).map_or([200, 200, 200], |s| s.color);
    super::side_text::side_text_color(color, ui.visuals().window_fill)
}

fn side_name(sides: &Sides, side: Option<Side>) -> String {
    side.and_then(|s| sides.0.get(s.0))
        .map_or("nobody".into(), |s| s.name.clone())
}

/// The score in the top bar (`★ German 12 · Soviet 31`), a button that opens the panel; hovered,
/// who would win if the game ended now.
pub fn score_button(ui: &mut egui::Ui, st: &Standing, sides: &Sides, show: &mut ShowScore) {
    let mut job = egui::text::LayoutJob::default();
    let plain = egui::TextFormat {
        color: ui.visuals().text_color(),
        ..default()
    };
    job.append("★ ", 0.0, plain.clone());
    for (i, points) in st.points.iter().enumerate() {
        if i > 0 {
            job.append(" · ", 0.0, plain.clone());
        }
        let format = egui::TextFormat {
            color: side_color(ui, sides, Side(i)),
            ..default()
        };
        job.append(&format!("{} {points}", sides.0[i].name), 0.0, format);
    }
    let leader = match st.leader() {
        Some(side) => format!("{} wins", side_name(sides, Some(side))),
        None => "a draw".into(),
    };
    if ui
        .button(job)
        .on_hover_text(format!(
            "Objective points held. If the game ended now: {leader}. {} left after this one. V: the score panel",
            crate::rules::units::counted(st.turns_left, "turn", "turns")
        ))
        .clicked()
    {
        show.0 = !show.0;
    }
}

fn score_panel(
    mut contexts: EguiContexts,
    mut show: ResMut<ShowScore>,
    map: Res<GameMap>,
    control: Res<ObjectiveControl>,
    sides: Res<Sides>,
    turn: Res<TurnState>,
    palette: Res<Palette>,
    log_panel: Res<super::log_panel::LogPanel>,
) -> Result {
    if !show.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let st = standing(&map, &control.0, &sides, turn.turn, turn.last_turn);
    let mut open = true;
    egui::Window::new("Victory (V)")
        .id(egui::Id::new("score-panel"))
        .open(&mut open)
        .resizable(false)
        .anchor(egui::Align2::RIGHT_TOP, [-log_panel.right_inset(), 40.0])
        .show(ctx, |ui| {
            ui.label(format!(
                "Turn {} of {}: {} left after this one.",
                turn.turn,
                turn.last_turn,
                crate::rules::units::counted(st.turns_left, "turn", "turns")
            ));
            ui.horizontal(|ui| {
                for (i, points) in st.points.iter().enumerate() {
                    ui.colored_label(
                        side_color(ui, &sides, Side(i)),
                        egui::RichText::new(format!("{} {points} points", sides.0[i].name)).strong(),
                    );
                }
            });
            ui.separator();
            ui.strong("Victory conditions");
            for ((side, met, _), condition) in st.conditions.iter().zip(&map.win) {
                let (mark, color, now) = match met {
                    Ok(why) => ("●", palette.good, format!("Met now: {why}.")),
                    Err(why) => ("○", palette.bad, format!("Not yet: {why}.")),
                };
                ui.horizontal_wrapped(|ui| {
                    ui.colored_label(color, mark);
                    ui.colored_label(side_color(ui, &sides, *side), side_name(&sides, Some(*side)));
                    ui.label(format!(
                        "wins if it holds: {}.",
                        condition_words(condition, &map.objectives)
                    ));
                });
                ui.label(egui::RichText::new(now).small().color(color));
            }
            ui.label(match st.otherwise {
                Some(side) => format!("Otherwise {} wins.", side_name(&sides, Some(side))),
                None => "Otherwise the game is a draw.".into(),
            });
            let leader = match st.leader() {
                Some(side) => format!("{} would win", side_name(&sides, Some(side))),
                None => "it would be a draw".into(),
            };
            ui.label(egui::RichText::new(format!("If the game ended now, {leader}.")).strong());
            ui.separator();
            ui.strong("Objectives");
            egui::Grid::new("objectives").striped(true).show(ui, |ui| {
                for (o, holder) in map.objectives.iter().zip(&control.0) {
                    ui.label(&o.name);
                    ui.label(egui::RichText::new(o.cell.to_string()).monospace().weak());
                    ui.label(format!("{} pt", o.points));
                    match holder {
                        Some(side) => ui.colored_label(side_color(ui, &sides, *side), side_name(&sides, Some(*side))),
                        None => ui.label(egui::RichText::new("nobody").weak()),
                    };
                    ui.end_row();
                }
            });
        });
    show.0 = open;
    Ok(())
}
