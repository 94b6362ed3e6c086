//! The attack's panels: the attack window (attackers, the ruleset's options, Rommel's tactics in
//! turn, every modifier, the exact odds as bars, Roll), the CRT with the live column and the cell
//! read, the result explained with its dice, and a ring around the target on the board.

use super::attack::{AttackPlan, AttackPreview, LastCombat, RollRequest};
use super::attack_options::{defender_tactic, options};
use super::crt;
use super::state::Palette;
use crate::combat::{self, Odds, Role, Situation};
use crate::game::combat_phase::{CombatResolved, PendingCombat};
use crate::game::components::{GameMap, Position, Sides, Unit};
use crate::game::phase::{Phase, TurnState};
use crate::rules::grid::Cell;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_panels.run_if(in_state(Phase::Combat).and_then(super::state::off)),
    );
}

#[allow(clippy::too_many_arguments)]
fn draw_panels(
    mut contexts: EguiContexts,
    preview: Res<AttackPreview>,
    mut plan: ResMut<AttackPlan>,
    last: Res<LastCombat>,
    (map, sides, turn, palette): (Res<GameMap>, Res<Sides>, Res<TurnState>, Res<Palette>),
    names: Query<(&Unit, &Position)>,
    mut rolls: MessageWriter<RollRequest>,
    layout: Option<Res<super::layout::Layout>>,
    camera: Query<(&Camera, &GlobalTransform), With<super::state::BoardCamera>>,
    declared: Res<PendingCombat>,
    seats: Res<super::state::Seats>,
    online: Option<Res<super::online::OnlineSeat>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // Rommel's hidden tactics are answered here; War Against Russia's No Retreat! in the answer
    // window (`answer_window.rs`).
    // A declared attack waiting for its defender is the enemy's, shown to the defender.
    let enemy_attack = declared.0.is_some();
    let declared = declared.0.as_ref().filter(|_| map.ruleset.secret_tactics());
    let pinned = plan.target.is_some() || declared.is_some();
    crt_panel(ctx, &preview, &last, &map, &palette, pinned);
    if let Some(target) = preview.target {
        let active = turn.active.0;
        let attacker_side = sides.0[active].name.clone();
        let (defender_index, defender_side) = sides
            .0
            .iter()
            .enumerate()
            .find(|(i, _)| *i != active)
            .map(|(i, s)| (i, s.name.clone()))
            .unwrap_or_default();
        // Against the computer its answers are its own, and nobody needs to look away; online,
        // the other player answers on their own screen.
        let computer = seats.computer(defender_index).is_some().then_some(if online.is_some() {
            "on their own screen"
        } else {
            "computer"
        });
        let target_at = match (layout.as_ref(), camera.single()) {
            (Some(layout), Ok((cam, global))) => screen_pos(ctx, layout, cam, global, target),
            _ => None,
        };
        let window = attack_window(ctx, target, target_at, pinned);
        window.show(ctx, |ui| {
            if let Some(c) = declared {
                // Online, the defender chooses on its own screen: the attacker waits for it.
                let theirs = online.as_ref().is_some_and(|o| o.0 != Some(defender_index));
                let attackers = attacker_names(&c.order.attackers, &names);
                declared_attack(ui, &mut plan, (&attacker_side, &defender_side), &attackers, theirs);
            } else if pinned {
                let list: Vec<String> = plan
                    .attackers
                    .iter()
                    .filter_map(|id| names.iter().find(|(u, _)| u.id == *id))
                    .map(|(u, p)| format!("{} ({})", u.name, p.0))
                    .collect();
                ui.label(egui::RichText::new(format!("Attackers: {}", list.join(", "))).small())
                    .on_hover_text("Shift+click your stacks next to the target to add or remove them");
                let situation = preview.result.as_ref().and_then(|r| r.as_ref().ok()).map(|(s, _)| s);
                options(
                    ui,
                    &mut plan,
                    &map,
                    situation,
                    (&attacker_side, &defender_side),
                    (computer, preview.no_retreat_decided),
                );
                ui.separator();
            }
            match &preview.result {
                Some(Err(why)) => {
                    ui.colored_label(palette.bad, format!("Not allowed: {why}"));
                }
                Some(Ok((s, odds))) => odds_panel(ui, s, odds, &palette, !enemy_attack),
                None => {}
            }
            for line in &preview.blocked {
                ui.add(egui::Label::new(egui::RichText::new(line).small().color(palette.warn)).wrap());
            }
            ui.separator();
            let waiting_online = declared.is_some() && online.as_ref().is_some_and(|o| o.0 != Some(defender_index));
            if pinned && !waiting_online {
                let can = matches!(preview.result, Some(Ok(_)));
                roll_buttons(
                    ui,
                    &mut plan,
                    &map,
                    declared.is_some(),
                    can,
                    (&defender_side, computer),
                    &mut rolls,
                );
            } else if !enemy_attack {
                ui.label(egui::RichText::new("Click to prepare this attack").small());
            }
        });
    }
    if let Some(c) = &last.0 {
        result_window(ctx, c, &names, &palette);
    }
    if let (Some(target), Some(layout), Ok((cam, global))) = (preview.target, layout.as_ref(), camera.single()) {
        mark_target(ctx, layout, cam, global, target, &palette);
    }
    Ok(())
}

/// The CRT: the live column before the roll, the row and column read after it.
fn crt_panel(
    ctx: &egui::Context,
    preview: &AttackPreview,
    last: &LastCombat,
    map: &GameMap,
    palette: &Palette,
    pinned: bool,
) {
    if !(pinned || last.0.is_some() || preview.target.is_some()) {
        return;
    }
    let cell = preview
        .result
        .as_ref()
        .and_then(|r| r.as_ref().ok())
        .and_then(|(_, o)| o.assessment.cell.clone());
    // The last roll's row and cell stay lit only while the table shows that combat, never over
    // the preview of the next attack.
    let shown_last = last
        .0
        .as_ref()
        .filter(|c| shows_last_combat(preview.target, pinned, c.target));
    let landed = shown_last.map(|c| map.ruleset.combat.landed(c.cell.as_ref(), &c.rolls, &c.result.code));
    let live = match shown_last {
        Some(c) => c.cell.as_ref(),
        None => cell.as_ref(),
    };
    crt::crt_window(
        ctx,
        &map.ruleset.combat.table_view(),
        live,
        landed.as_deref().unwrap_or(&[]),
        palette,
    );
}

/// Whether the CRT shows the last combat fought (its column, row and cell lit) rather than the
/// attack previewed or prepared now: with nothing else to show, or when the cell looked at is the
/// one just fought over.
fn shows_last_combat(previewed: Option<Cell>, pinned: bool, last_target: Cell) -> bool {
    match previewed {
        Some(target) => target == last_target,
        None => !pinned,
    }
}

/// Roll (or, in Rommel, declare with the tactic hidden, or reveal both and roll) and Cancel.
fn roll_buttons(
    ui: &mut egui::Ui,
    plan: &mut AttackPlan,
    map: &GameMap,
    declared: bool,
    can: bool,
    (defender_side, computer): (&str, Option<&str>),
    rolls: &mut MessageWriter<RollRequest>,
) {
    ui.horizontal(|ui| {
        let (label, tip) = match (declared, map.ruleset.secret_tactics()) {
            (true, _) => (
                "Reveal both tactics and roll (Space)".to_string(),
                "Both tactics are shown, then the dice".to_string(),
            ),
            (false, true) if computer.is_some() => (
                "Declare the attack (Space)".to_string(),
                format!(
                    "{defender_side} ({}) then chooses a tactic without seeing yours",
                    computer.unwrap_or_default()
                ),
            ),
            (false, true) => (
                format!("Declare, hide the tactic, hand over to {defender_side} (Space)"),
                format!("{defender_side} then chooses a tactic without seeing yours"),
            ),
            (false, false) => ("Roll (Space)".to_string(), "Roll the dice for this attack".to_string()),
        };
        if ui
            .add_enabled(can, egui::Button::new(egui::RichText::new(label).strong()))
            .on_hover_text(tip)
            .on_disabled_hover_text("This attack is not allowed")
            .clicked()
        {
            rolls.write(RollRequest);
        }
        if declared {
            ui.label(
                egui::RichText::new("The attacker can take the declaration back: Undo (Ctrl+Z)")
                    .small()
                    .weak(),
            );
        } else if ui.button("Cancel (Esc)").clicked() {
            *plan = AttackPlan::default();
        }
    });
}

/// A ring around the target on the board.
fn mark_target(
    ctx: &egui::Context,
    layout: &super::layout::Layout,
    cam: &Camera,
    global: &GlobalTransform,
    target: Cell,
    palette: &Palette,
) {
    let Some(p) = screen_pos(ctx, layout, cam, global, target) else {
        return;
    };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("target-mark"),
    ));
    let zoom = ctx.zoom_factor();
    painter.circle_stroke(p, 30.0 / zoom, egui::Stroke::new(3.0, Palette::egui(palette.target)));
}

/// The attack window, placed. Hovering a target that lies under the panel's corner (the panel
/// would catch the click meant for it), the panel shows to the target's right instead; a pinned
/// attack keeps the corner (the view glides the combat clear of it, `focus.rs`).
fn attack_window(
    ctx: &egui::Context,
    target: Cell,
    target_at: Option<egui::Pos2>,
    pinned: bool,
) -> egui::Window<'static> {
    let id = egui::Id::new("attack-panel");
    let window = egui::Window::new(format!("Attack {target}")).id(id).resizable(false);
    match (target_at, ctx.memory(|m| m.area_rect(id))) {
        (Some(p), Some(r)) if !pinned && p.x < r.right() + 40.0 && p.y < r.bottom() + 40.0 => {
            window.fixed_pos(egui::pos2(p.x + 60.0, 40.0))
        }
        _ => window.anchor(egui::Align2::LEFT_TOP, [8.0, 40.0]),
    }
}

/// Where a cell's centre is on screen, in egui's points.
fn screen_pos(
    ctx: &egui::Context,
    layout: &super::layout::Layout,
    cam: &Camera,
    global: &GlobalTransform,
    cell: Cell,
) -> Option<egui::Pos2> {
    let p = cam.world_to_viewport(global, layout.center(cell).extend(0.0)).ok()?;
    let zoom = ctx.zoom_factor();
    Some(egui::pos2(p.x / zoom, p.y / zoom))
}

fn odds_panel(ui: &mut egui::Ui, s: &Situation, odds: &Odds, palette: &Palette, you_attack: bool) {
    let a = &odds.assessment;
    ui.strong(format!(
        "{}  (attack {} / defense {})",
        a.ratio, a.attack_total, a.defense_total
    ));
    if let Some(c) = &a.cell {
        let col = if c.base_index == c.column_index {
            c.column.clone()
        } else {
            format!("{} shifted to {}", c.base_column, c.column)
        };
        let die = if c.die_modifier != 0 {
            format!(", die {:+}", c.die_modifier)
        } else {
            String::new()
        };
        ui.label(format!("Column {col}{die}"));
    }
    ui.separator();
    ui.strong("Modifiers");
    if a.modifiers.is_empty() {
        ui.label(egui::RichText::new("none").weak());
    }
    // Long sources wrap within the column rather than widening the panel off the screen.
    egui::Grid::new("modifiers")
        .striped(true)
        .max_col_width(240.0)
        .show(ui, |ui| {
            for m in &a.modifiers {
                let (color, who) = match m.side {
                    Role::Attacker => (palette.good, "attacker"),
                    Role::Defender => (palette.warn, "defender"),
                };
                ui.colored_label(color, who);
                ui.label(m.effect.to_string());
                ui.add(egui::Label::new(egui::RichText::new(&m.source).weak()).wrap());
                ui.end_row();
            }
        });
    let shift: i32 = a
        .modifiers
        .iter()
        .map(|m| match m.effect {
            combat::Effect::ColumnShift(n) | combat::Effect::HitShift(n) => n,
            _ => 0,
        })
        .sum();
    if shift != 0 {
        ui.label(format!("Net shift {shift:+}"));
    }
    ui.separator();
    ui.strong("Outcomes (exact)");
    // Every outcome: a long list scrolls rather than being cut.
    egui::ScrollArea::vertical()
        .id_salt("outcomes-scroll")
        .max_height(230.0)
        .show(ui, |ui| outcome_rows(ui, odds, s, palette, you_attack));
    let m = &odds.summary;
    ui.separator();
    ui.label(format!(
        "Expected steps lost: attacker {:.2}, defender {:.2}",
        m.expected_attacker_steps, m.expected_defender_steps
    ));
    ui.add(
        egui::ProgressBar::new(m.p_cell_taken as f32)
            .desired_width(220.0)
            .fill(palette.good)
            .text(format!("cell taken {:.1}%", 100.0 * m.p_cell_taken)),
    );
    ui.add(
        egui::ProgressBar::new(m.p_defender_eliminated as f32)
            .desired_width(220.0)
            .fill(palette.bad)
            .text(format!("defenders eliminated {:.1}%", 100.0 * m.p_defender_eliminated)),
    );
    if !odds.branches.is_empty() {
        ui.label(
            egui::RichText::new("Each owner's choice, made the same way for every result:")
                .small()
                .weak(),
        );
    }
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
}

/// One row per outcome: its exact probability as a bar, its code and what it does.
fn outcome_rows(ui: &mut egui::Ui, odds: &Odds, s: &Situation, palette: &Palette, you_attack: bool) {
    egui::Grid::new("outcomes").striped(true).show(ui, |ui| {
        for o in &odds.outcomes {
            let p = o.probability as f32;
            ui.add(
                egui::ProgressBar::new(p)
                    .desired_width(110.0)
                    .fill(palette.highlight)
                    .text(format!("{:.1}%", 100.0 * p)),
            );
            let text = combat::report::result_text(s, &o.result);
            ui.label(egui::RichText::new(o.result.code.to_string()).strong())
                .on_hover_text(&text);
            ui.label(combat::report::brief(&o.result, you_attack))
                .on_hover_text(&text);
            ui.end_row();
            // The defender's answers to this result, each with where it leads.
            for (i, a) in o.answers.iter().enumerate() {
                ui.label("");
                ui.label(
                    egui::RichText::new(if i == 0 { "defender:" } else { "" })
                        .small()
                        .weak(),
                );
                ui.label(
                    egui::RichText::new(format!(
                        "{} → cell taken {:.0}%, losses {:.2}/{:.2}",
                        a.label,
                        100.0 * a.summary.p_cell_taken,
                        a.summary.expected_attacker_steps,
                        a.summary.expected_defender_steps
                    ))
                    .small()
                    .color(palette.warn),
                )
                .on_hover_text(combat::answers::consequence(a, s));
                ui.end_row();
            }
        }
    });
}

fn result_window(ctx: &egui::Context, c: &CombatResolved, names: &Query<(&Unit, &Position)>, palette: &Palette) {
    egui::Window::new(format!("Result at {}", c.target))
        .id(egui::Id::new("result-panel"))
        .resizable(false)
        .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -40.0])
        .show(ctx, |ui| {
            let dice: Vec<String> = c.rolls.iter().map(|r| format!("{} ({})", r.face, r.purpose)).collect();
            ui.label(
                egui::RichText::new(c.result.code.to_string())
                    .size(20.0)
                    .strong()
                    .color(palette.highlight),
            );
            ui.label(format!(
                "Dice: {}",
                if dice.is_empty() {
                    "none".into()
                } else {
                    dice.join(", ")
                }
            ));
            for line in &c.narrative {
                ui.label(egui::RichText::new(line).small());
            }
            ui.separator();
            let who = |es: &[Entity]| {
                es.iter()
                    .filter_map(|e| names.get(*e).ok().map(|(u, _)| u.name.clone()))
                    .collect::<Vec<_>>()
            };
            ui.label(&c.summary);
            let gone = c.attackers.len() + c.defenders.len() - who(&c.attackers).len() - who(&c.defenders).len();
            if gone > 0 {
                ui.colored_label(
                    palette.bad,
                    format!(
                        "{} eliminated",
                        crate::rules::units::counted(gone as u64, "unit", "units")
                    ),
                );
            }
            ui.label(
                egui::RichText::new("Esc closes this; retreats and advances follow.")
                    .small()
                    .weak(),
            );
        });
}

/// The names of the units `ids`, by id when one is gone.
fn attacker_names(ids: &[String], names: &Query<(&Unit, &Position)>) -> Vec<String> {
    ids.iter()
        .map(|id| {
            names
                .iter()
                .find(|(u, _)| &u.id == id)
                .map_or(id.clone(), |(u, _)| u.name.clone())
        })
        .collect()
}

/// Rommel's declared attack, to its defender: the attackers and the tactic to choose (online, to
/// the attacker: that the defender chooses on their own screen).
fn declared_attack(
    ui: &mut egui::Ui,
    plan: &mut AttackPlan,
    (attacker_side, defender_side): (&str, &str),
    attackers: &[String],
    theirs: bool,
) {
    ui.label(
        egui::RichText::new(format!(
            "{attacker_side} attacks with {} and a hidden tactic.",
            attackers.join(", ")
        ))
        .small(),
    );
    if theirs {
        ui.label(format!(
            "Waiting for {defender_side} to choose a tactic on their screen."
        ));
    } else {
        defender_tactic(ui, plan, defender_side);
    }
    ui.separator();
}

#[cfg(test)]
mod tests {
    use super::shows_last_combat;
    use crate::rules::grid::Cell;

    #[test]
    fn the_crt_lights_the_last_roll_only_while_it_shows_that_combat() {
        let fought = Cell::new(4, 7);
        let next = Cell::new(5, 7);
        assert!(shows_last_combat(None, false, fought), "nothing else to show");
        assert!(
            shows_last_combat(Some(fought), false, fought),
            "looking at the cell just fought over"
        );
        assert!(
            !shows_last_combat(Some(next), false, fought),
            "previewing the next attack"
        );
        assert!(!shows_last_combat(Some(next), true, fought), "the next attack prepared");
        assert!(
            !shows_last_combat(None, true, fought),
            "an attack prepared, not hovered"
        );
    }
}
