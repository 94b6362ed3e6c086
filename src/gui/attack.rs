//! Attacking from the board: in a combat phase, hovering an enemy cell with a stack selected
//! shows the exact preview (totals, column, every modifier with its source, each outcome's
//! probability, expected losses and the owners' alternatives); clicking it declares the attack.

use super::camera::PointerOverUi;
use super::hud::{Hovered, LastRefusal, Selection};
use crate::combat::{self, Odds, Role, Situation};
use crate::game::combat::{CurrentWeather, DeclareAttack, UnitData, build_situation};
use crate::game::components::{GameMap, MapIndex, Side, Sides};
use crate::game::phase::{GameState, Phase, TurnState};
use crate::game::zoc::Zoc;
use crate::rules::grid::Cell;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The preview for the hovered target, recomputed when the target or the selection changes.
#[derive(Resource, Default)]
pub struct AttackPreview {
    key: Option<(Cell, Vec<Entity>)>,
    pub target: Option<Cell>,
    pub result: Option<Result<(Situation, Odds), String>>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AttackPreview>()
        .add_systems(
            Update,
            // A click attacks only what the preview already showed: the click that selects a
            // stack inside a contested square must not also attack with it.
            (declare_on_click, update_preview)
                .chain()
                .after(super::hud::HudSystems)
                .run_if(in_state(Phase::Combat).and_then(in_state(GameState::Playing))),
        )
        .add_systems(EguiPrimaryContextPass, draw_preview.run_if(in_state(Phase::Combat)))
        .add_systems(OnExit(Phase::Combat), |mut p: ResMut<AttackPreview>| {
            *p = AttackPreview::default()
        });
}

fn enemies_in(cell: Cell, index: &MapIndex, sides: &Query<&Side>, active: Side) -> bool {
    index
        .stack(cell)
        .iter()
        .any(|e| sides.get(*e).is_ok_and(|s| *s != active))
}

fn update_preview(
    hovered: Res<Hovered>,
    selection: Res<Selection>,
    map: Res<GameMap>,
    all_sides: Res<Sides>,
    turn: Res<TurnState>,
    index: Res<MapIndex>,
    weather: Res<CurrentWeather>,
    zoc: Res<Zoc>,
    side_of: Query<&Side>,
    units: Query<UnitData>,
    mut preview: ResMut<AttackPreview>,
) {
    let target = hovered
        .0
        .filter(|c| !selection.units.is_empty() && enemies_in(*c, &index, &side_of, turn.active));
    let key = target.map(|c| (c, selection.units.clone()));
    if key == preview.key && !index.is_changed() {
        return;
    }
    preview.key = key;
    preview.target = target;
    preview.result = target.map(|cell| {
        let order = DeclareAttack::plain(selection.units.clone(), cell);
        let (situation, _, _) =
            build_situation(&order, &map, &zoc.0, &all_sides, turn.active, &index, weather.0, &units)?;
        let odds = combat::odds(&map.ruleset.combat, &situation).map_err(|r| r.0)?;
        Ok((situation, odds))
    });
}

fn declare_on_click(
    buttons: Res<ButtonInput<MouseButton>>,
    over_ui: Res<PointerOverUi>,
    preview: Res<AttackPreview>,
    mut selection: ResMut<Selection>,
    mut refusal: ResMut<LastRefusal>,
    mut attacks: MessageWriter<DeclareAttack>,
) {
    if over_ui.0 || !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let (Some(target), Some((_, attackers))) = (preview.target, preview.key.as_ref()) else {
        return;
    };
    refusal.0 = None;
    attacks.write(DeclareAttack::plain(attackers.clone(), target));
    *selection = Selection::default();
}

fn draw_preview(mut contexts: EguiContexts, preview: Res<AttackPreview>) -> Result {
    let (Some(target), Some(result)) = (preview.target, preview.result.as_ref()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    egui::Window::new(format!("Attack {target}"))
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, [8.0, 40.0])
        .show(ctx, |ui| match result {
            Err(why) => {
                ui.colored_label(egui::Color32::from_rgb(220, 60, 40), format!("Not allowed: {why}"));
            }
            Ok((s, odds)) => odds_panel(ui, s, odds),
        });
    Ok(())
}

fn odds_panel(ui: &mut egui::Ui, s: &Situation, odds: &Odds) {
    let a = &odds.assessment;
    ui.strong(format!(
        "{}  (attack {} / defense {})",
        a.ratio, a.attack_total, a.defense_total
    ));
    if let Some(c) = &a.cell {
        let col = if c.base_index == c.column_index {
            c.column.clone()
        } else {
            format!("{} → {}", c.base_column, c.column)
        };
        ui.label(format!(
            "Column {col}{}",
            if c.die_modifier != 0 {
                format!(", die {:+}", c.die_modifier)
            } else {
                String::new()
            }
        ));
    }
    if !a.modifiers.is_empty() {
        ui.separator();
        for m in &a.modifiers {
            let color = match m.side {
                Role::Attacker => egui::Color32::from_rgb(90, 160, 90),
                Role::Defender => egui::Color32::from_rgb(200, 110, 70),
            };
            ui.colored_label(color, format!("{}: {}", m.effect, m.source))
                .on_hover_text(format!("for the {}", m.side));
        }
    }
    ui.separator();
    egui::Grid::new("outcomes").striped(true).show(ui, |ui| {
        for o in odds.outcomes.iter().take(10) {
            let p = o.probability as f32;
            ui.add(
                egui::ProgressBar::new(p)
                    .desired_width(90.0)
                    .text(format!("{:.1}%", 100.0 * p)),
            );
            ui.label(egui::RichText::new(o.result.code.to_string()).strong())
                .on_hover_text(combat::report::result_text(s, &o.result));
            ui.label(combat::report::brief(&o.result))
                .on_hover_text(combat::report::result_text(s, &o.result));
            ui.end_row();
        }
    });
    if odds.outcomes.len() > 10 {
        ui.label(egui::RichText::new(format!("… {} more outcomes", odds.outcomes.len() - 10)).weak());
    }
    let m = &odds.summary;
    ui.separator();
    ui.label(format!(
        "Expected steps lost: you {:.2}, enemy {:.2}",
        m.expected_attacker_steps, m.expected_defender_steps
    ));
    ui.label(format!(
        "Enemy eliminated {:.1}% · cell taken {:.1}%",
        100.0 * m.p_defender_eliminated,
        100.0 * m.p_cell_taken
    ));
    for b in &odds.branches {
        ui.label(
            egui::RichText::new(format!(
                "If {}: cell taken {:.1}%, losses {:.2}/{:.2}",
                b.choice,
                100.0 * b.summary.p_cell_taken,
                b.summary.expected_attacker_steps,
                b.summary.expected_defender_steps
            ))
            .small()
            .weak(),
        );
    }
    ui.label(egui::RichText::new("Click to attack").small());
}
