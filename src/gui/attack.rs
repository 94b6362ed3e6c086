//! Attacking from the board. In a combat phase, hovering an enemy cell with a stack selected shows
//! the exact odds; clicking it pins the attack: Shift+click more stacks to join, set the
//! ruleset's options (tactics, retreat-or-steps, no retreat, hold, accelerated effort), read the
//! modifiers, the odds and the CRT (`crt.rs`), then Roll (Space). In Rommel the attacker's tactic
//! is declared hidden and the defender answers before the roll; the defender's preview never
//! shows the attacker's secret. The result stays on screen, explained, with its row and column
//! lit on the table.

use super::camera::PointerOverUi;
use super::crt;
use super::hud::{Hovered, LastRefusal, Selection};
use super::orders::PlayerOrder;
use super::settings::Palette;
use crate::combat::{self, Odds, RetreatOrSteps, Role, Situation, Tactic};
use crate::game::combat::{CombatResolved, DeclaredCombat, GameView, PendingCombat};
use crate::game::components::{GameMap, MapIndex, Position, Side, Sides, Unit};
use crate::game::order::{AttackOrder, DefenseOrder, Order};
use crate::game::phase::{CombatStep, GameState, Phase, TurnState};
use crate::rules::grid::Cell;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The attack being prepared: target, attackers and the players' options.
#[derive(Resource, Clone, Debug, Default)]
pub struct AttackPlan {
    pub target: Option<Cell>,
    pub attackers: Vec<Entity>,
    pub attack_tactic: Option<Tactic>,
    /// Rommel: the defender's answer to a declared attack.
    pub defense_tactic: Option<Tactic>,
    pub defender_retreat: RetreatOrSteps,
    pub attacker_retreat: RetreatOrSteps,
    pub no_retreat: bool,
    pub hold: bool,
    pub german_exchange: bool,
    pub accelerated_effort: bool,
}

impl AttackPlan {
    /// The order the Roll button sends (and the preview evaluates); `id` names a unit, the
    /// strongest attacker makes an accelerated effort.
    pub fn order(&self, id: impl Fn(Entity) -> Option<String>, strongest: Option<Entity>) -> Option<AttackOrder> {
        let target = self.target?;
        let mut order = AttackOrder::plain(self.attackers.iter().filter_map(|e| id(*e)).collect(), target);
        order.tactics.extend(self.attack_tactic.clone());
        order.no_retreat = self.no_retreat;
        order.choices.defender_retreat = self.defender_retreat;
        order.choices.attacker_retreat = self.attacker_retreat;
        order.choices.ignore_retreat = self.hold;
        order.choices.german_exchange = self.german_exchange;
        order.accelerated_effort = if self.accelerated_effort {
            strongest.and_then(id)
        } else {
            None
        };
        Some(order)
    }

    /// Rommel's defender's answer.
    pub fn defense(&self) -> DefenseOrder {
        DefenseOrder {
            tactics: self.defense_tactic.iter().cloned().collect(),
            barrage: Vec::new(),
        }
    }
}

/// The preview for the pinned plan, the hovered target, or the declared attack the defender
/// answers (without the attacker's secret).
#[derive(Resource, Default)]
pub struct AttackPreview {
    /// The orders the preview was computed for.
    key: Option<(AttackOrder, Option<DefenseOrder>)>,
    pub target: Option<Cell>,
    pub result: Option<Result<(Situation, Odds), String>>,
}

/// The last combat fought, shown until the next attack is pinned.
#[derive(Resource, Default)]
pub struct LastCombat(pub Option<CombatResolved>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<RollRequest>()
        .init_resource::<AttackPreview>()
        .init_resource::<AttackPlan>()
        .init_resource::<LastCombat>()
        .add_systems(
            Update,
            (pin_on_click, roll_keys)
                .chain()
                .after(super::hud::HudSystems)
                .run_if(super::saves::no_dialog)
                .run_if(
                    in_state(Phase::Combat)
                        .and_then(in_state(GameState::Playing))
                        .and_then(not(resource_exists::<super::replay::Replay>)),
                ),
        )
        .add_systems(
            Update,
            (update_preview, remember_result)
                .chain()
                .after(roll_keys)
                .run_if(in_state(Phase::Combat).and_then(in_state(GameState::Playing))),
        )
        .add_systems(EguiPrimaryContextPass, draw_panels.run_if(in_state(Phase::Combat)))
        .add_systems(OnExit(Phase::Combat), |mut commands: Commands| {
            commands.insert_resource(AttackPreview::default());
            commands.insert_resource(AttackPlan::default());
            commands.insert_resource(LastCombat::default());
        });
}

fn enemies_in(cell: Cell, index: &MapIndex, sides: &Query<&Side>, active: Side) -> bool {
    index
        .stack(cell)
        .iter()
        .any(|e| sides.get(*e).is_ok_and(|s| *s != active))
}

/// Click an enemy with a selection: pin the attack. Shift+click your stack: it joins or leaves.
#[allow(clippy::too_many_arguments)]
fn pin_on_click(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    over_ui: Res<PointerOverUi>,
    hovered: Res<Hovered>,
    index: Res<MapIndex>,
    turn: Res<TurnState>,
    side_of: Query<&Side>,
    mut selection: ResMut<Selection>,
    mut plan: ResMut<AttackPlan>,
    mut last: ResMut<LastCombat>,
) {
    if keys.just_pressed(KeyCode::Escape) {
        *plan = AttackPlan::default();
        last.0 = None;
    }
    if over_ui.0 || !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(cell) = hovered.0 else { return };
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if shift && plan.target.is_some() {
        let own: Vec<Entity> = index
            .stack(cell)
            .iter()
            .copied()
            .filter(|e| side_of.get(*e).is_ok_and(|s| *s == turn.active))
            .collect();
        if own.iter().all(|e| plan.attackers.contains(e)) {
            plan.attackers.retain(|e| !own.contains(e));
        } else {
            for e in own {
                if !plan.attackers.contains(&e) {
                    plan.attackers.push(e);
                }
            }
        }
        return;
    }
    if enemies_in(cell, &index, &side_of, turn.active) && !selection.units.is_empty() {
        *plan = AttackPlan {
            target: Some(cell),
            attackers: selection.units.clone(),
            ..default()
        };
        last.0 = None;
        *selection = Selection::default();
    }
}

fn roll_keys(keys: Res<ButtonInput<KeyCode>>, mut out: MessageWriter<RollRequest>) {
    if keys.just_pressed(KeyCode::Space) {
        out.write(RollRequest);
    }
}

/// The Roll button or Space.
#[derive(Message, Clone, Copy, Debug)]
pub struct RollRequest;

/// What Roll does now: declare (Rommel's hidden tactic), answer (Rommel's defender) or attack.
fn roll_order(plan: &AttackPlan, pinned: Option<AttackOrder>, declared: &Option<DeclaredCombat>) -> Option<Order> {
    match declared {
        Some(_) => Some(Order::Defend(plan.defense())),
        None => pinned.map(Order::Attack),
    }
}

#[allow(clippy::too_many_arguments)]
fn update_preview(
    hovered: Res<Hovered>,
    selection: Res<Selection>,
    view: GameView,
    side_of: Query<&Side>,
    declared: Res<PendingCombat>,
    mut plan: ResMut<AttackPlan>,
    mut preview: ResMut<AttackPreview>,
    mut rolls: MessageReader<RollRequest>,
    mut orders: MessageWriter<PlayerOrder>,
    mut refusal: ResMut<LastRefusal>,
    step: Option<Res<State<CombatStep>>>,
) {
    plan.attackers.retain(|e| view.units.contains(*e));
    let id = |e: Entity| view.units.get(e).ok().map(|d| d.unit.id.clone());
    let strongest = plan
        .attackers
        .iter()
        .filter_map(|e| view.units.get(*e).ok().map(|d| (d.steps.values().attack, *e)))
        .max_by_key(|(a, _)| *a)
        .map(|(_, e)| e);
    let pinned = plan.order(id, strongest);
    let ready = step.is_some_and(|s| *s.get() == CombatStep::Declare);
    if rolls.read().count() > 0
        && ready
        && let Some(order) = roll_order(&plan, pinned.clone(), &declared.0)
    {
        refusal.0 = None;
        let declaring = matches!(order, Order::Attack(_)) && view.map.ruleset.secret_tactics();
        orders.write(PlayerOrder(order));
        if declaring {
            // The game keeps the hidden tactic; the screen forgets it before the defender looks.
            plan.attack_tactic = None;
        } else {
            *plan = AttackPlan::default();
        }
        *preview = AttackPreview::default();
        return;
    }
    // The defender answering sees the declared attack without the attacker's secret.
    let key = match &declared.0 {
        Some(c) => Some((c.as_seen_by(c.defender), Some(plan.defense()))),
        None => pinned
            .or_else(|| {
                hovered
                    .0
                    .filter(|c| !selection.units.is_empty() && enemies_in(*c, &view.index, &side_of, view.turn.active))
                    .map(|c| AttackOrder::plain(selection.units.iter().filter_map(|e| id(*e)).collect(), c))
            })
            .map(|o| (o, None)),
    };
    if key == preview.key && !view.index.is_changed() && !declared.is_changed() {
        return;
    }
    preview.key = key.clone();
    preview.target = key.as_ref().map(|(o, _)| o.target);
    preview.result = key.map(|(order, defense)| {
        let (situation, _, _) = view.situation(&order, defense.as_ref())?;
        let odds = combat::odds(&view.map.ruleset.combat, &situation).map_err(|r| r.0)?;
        Ok((situation, odds))
    });
}

fn remember_result(mut resolved: MessageReader<CombatResolved>, mut last: ResMut<LastCombat>) {
    if let Some(r) = resolved.read().last() {
        last.0 = Some(r.clone());
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_panels(
    mut contexts: EguiContexts,
    preview: Res<AttackPreview>,
    mut plan: ResMut<AttackPlan>,
    last: Res<LastCombat>,
    map: Res<GameMap>,
    sides: Res<Sides>,
    turn: Res<TurnState>,
    palette: Res<Palette>,
    names: Query<(&Unit, &Position)>,
    mut rolls: MessageWriter<RollRequest>,
    layout: Option<Res<super::layout::Layout>>,
    camera: Query<(&Camera, &GlobalTransform), With<super::camera::BoardCamera>>,
    declared: Res<PendingCombat>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let declared = declared.0.as_ref();
    let pinned = plan.target.is_some() || declared.is_some();
    let cell = preview
        .result
        .as_ref()
        .and_then(|r| r.as_ref().ok())
        .and_then(|(_, o)| o.assessment.cell.clone());
    // The CRT: the live column before the roll, the row and column read after it.
    if pinned || last.0.is_some() || preview.target.is_some() {
        let landed = last
            .0
            .as_ref()
            .map(|c| map.ruleset.combat.landed(c.cell.as_ref(), &c.rolls, &c.result.code));
        let live = if pinned || preview.target.is_some() {
            cell.as_ref()
        } else {
            last.0.as_ref().and_then(|c| c.cell.as_ref())
        };
        crt::crt_window(
            ctx,
            &map.ruleset.combat.table_view(),
            live,
            landed.as_deref().unwrap_or(&[]),
            &palette,
        );
    }
    if let Some(target) = preview.target {
        let defender_side = sides
            .0
            .iter()
            .enumerate()
            .find(|(i, _)| *i != turn.active.0)
            .map(|(_, s)| s.name.clone())
            .unwrap_or_default();
        egui::Window::new(format!("Attack {target}"))
            .id(egui::Id::new("attack-panel"))
            .resizable(false)
            .anchor(egui::Align2::LEFT_TOP, [8.0, 40.0])
            .show(ctx, |ui| {
                let attacker_side = sides.0[turn.active.0].name.clone();
                if let Some(c) = declared {
                    let list: Vec<String> = c
                        .order
                        .attackers
                        .iter()
                        .map(|id| {
                            names
                                .iter()
                                .find(|(u, _)| &u.id == id)
                                .map_or(id.clone(), |(u, _)| u.name.clone())
                        })
                        .collect();
                    ui.label(
                        egui::RichText::new(format!(
                            "{attacker_side} attacks with {} and a hidden tactic.",
                            list.join(", ")
                        ))
                        .small(),
                    );
                    defender_tactic(ui, &mut plan, &defender_side);
                    ui.separator();
                } else if pinned {
                    let list: Vec<String> = plan
                        .attackers
                        .iter()
                        .filter_map(|e| names.get(*e).ok().map(|(u, p)| format!("{} ({})", u.name, p.0)))
                        .collect();
                    ui.label(egui::RichText::new(format!("Attackers: {}", list.join(", "))).small())
                        .on_hover_text("Shift+click your stacks next to the target to add or remove them");
                    options(ui, &mut plan, &map, &attacker_side, &defender_side);
                    ui.separator();
                }
                match &preview.result {
                    Some(Err(why)) => {
                        ui.colored_label(palette.bad, format!("Not allowed: {why}"));
                    }
                    Some(Ok((s, odds))) => odds_panel(ui, s, odds, &palette),
                    None => {}
                }
                ui.separator();
                if pinned {
                    ui.horizontal(|ui| {
                        let can = matches!(preview.result, Some(Ok(_)));
                        let (label, tip) = match (declared.is_some(), map.ruleset.secret_tactics()) {
                            (true, _) => (
                                "Reveal both tactics and roll (Space)".to_string(),
                                "Both tactics are shown, then the dice".to_string(),
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
                        if declared.is_some() {
                            ui.label(
                                egui::RichText::new("The attacker can take the declaration back: Undo (Ctrl+Z)")
                                    .small()
                                    .weak(),
                            );
                        } else if ui.button("Cancel (Esc)").clicked() {
                            *plan = AttackPlan::default();
                        }
                    });
                } else {
                    ui.label(egui::RichText::new("Click to prepare this attack").small());
                }
            });
    }
    if let Some(c) = &last.0 {
        result_window(ctx, c, &names, &palette);
    }
    // Mark the target on the board.
    if let (Some(target), Some(layout), Ok((cam, global))) = (preview.target, layout, camera.single())
        && let Ok(p) = cam.world_to_viewport(global, layout.center(target).extend(0.0))
    {
        let painter = ctx.layer_painter(egui::LayerId::new(
            egui::Order::Background,
            egui::Id::new("target-mark"),
        ));
        let zoom = ctx.zoom_factor();
        painter.circle_stroke(
            egui::pos2(p.x / zoom, p.y / zoom),
            30.0 / zoom,
            egui::Stroke::new(3.0, Palette::egui(palette.target)),
        );
    }
    Ok(())
}

/// The options the ruleset gives the players for this attack.
fn options(ui: &mut egui::Ui, plan: &mut AttackPlan, map: &GameMap, attacker: &str, defender: &str) {
    use combat::CombatRules as R;
    match &map.ruleset.combat {
        R::KillingGround(_) => {
            retreat_or_steps(
                ui,
                &mut plan.defender_retreat,
                &format!("{defender} (defender), on a retreat result"),
            );
            retreat_or_steps(
                ui,
                &mut plan.attacker_retreat,
                &format!("{attacker} (attacker), on a retreat result"),
            );
            ui.checkbox(
                &mut plan.accelerated_effort,
                "Accelerated effort (the strongest attacker)",
            )
            .on_hover_text("Killing Ground 8.12: a step and an ER roll for column shifts");
        }
        R::WarAgainstRussia(_) => {
            ui.checkbox(&mut plan.no_retreat, format!("No Retreat! orders ({defender})"))
                .on_hover_text("The defenders may not retreat: retreat results become losses");
            ui.checkbox(&mut plan.german_exchange, "German exchange (when the weather allows)");
        }
        R::NextWar(_) => {
            ui.checkbox(
                &mut plan.hold,
                format!("{defender} tries to hold (ER check) in strong terrain"),
            );
        }
        R::Rommel(_) => tactics(ui, plan, attacker, defender),
        R::SmallGeneral(_) => {
            ui.label(egui::RichText::new("Small General: no options; 3d6 with the modifiers below.").weak());
        }
    }
}

fn retreat_or_steps(ui: &mut egui::Ui, value: &mut RetreatOrSteps, who: &str) {
    ui.horizontal(|ui| {
        ui.label(who);
        ui.radio_value(value, RetreatOrSteps::Retreat, "retreat");
        ui.radio_value(value, RetreatOrSteps::Steps, "take steps");
    });
}

fn pick_tactic(ui: &mut egui::Ui, list: &[Tactic], value: &mut Option<Tactic>) {
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(value, None, "none");
        for t in list {
            ui.radio_value(value, Some(t.clone()), t.name());
        }
    });
}

/// Rommel's secret, simultaneous tactics at one screen: the attacker picks while the defender
/// looks away and declares the attack with the pick hidden; the defender then answers.
fn tactics(ui: &mut egui::Ui, plan: &mut AttackPlan, attacker: &str, defender: &str) {
    ui.strong(format!("{attacker}: choose a tactic ({defender}, look away)"));
    pick_tactic(ui, &Tactic::ATTACK, &mut plan.attack_tactic);
}

/// Rommel: the defender's answer to a declared attack.
fn defender_tactic(ui: &mut egui::Ui, plan: &mut AttackPlan, defender: &str) {
    ui.strong(format!("{defender}: choose a tactic"));
    pick_tactic(ui, &Tactic::DEFENSE, &mut plan.defense_tactic);
}

fn odds_panel(ui: &mut egui::Ui, s: &Situation, odds: &Odds, palette: &Palette) {
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
    egui::Grid::new("modifiers").striped(true).show(ui, |ui| {
        for m in &a.modifiers {
            let (color, who) = match m.side {
                Role::Attacker => (palette.good, "attacker"),
                Role::Defender => (palette.warn, "defender"),
            };
            ui.colored_label(color, who);
            ui.label(m.effect.to_string());
            ui.label(egui::RichText::new(&m.source).weak());
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
    egui::Grid::new("outcomes").striped(true).show(ui, |ui| {
        for o in odds.outcomes.iter().take(10) {
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
            ui.label(combat::report::brief(&o.result)).on_hover_text(&text);
            ui.end_row();
        }
    });
    if odds.outcomes.len() > 10 {
        ui.label(egui::RichText::new(format!("… {} more outcomes", odds.outcomes.len() - 10)).weak());
    }
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
                ui.colored_label(palette.bad, format!("{gone} unit(s) eliminated"));
            }
            ui.label(
                egui::RichText::new("Esc closes this; retreats and advances follow.")
                    .small()
                    .weak(),
            );
        });
}
