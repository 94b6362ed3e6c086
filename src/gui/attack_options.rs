//! The options a ruleset gives the attacker for an attack, in the attack window: its own retreat
//! or steps, the exchange, Accelerated Effort, Rommel's tactics, and who takes losses first; what
//! the defender will answer itself is named.

use super::attack::AttackPlan;
use crate::combat::{self, AttackerOption, RetreatOrSteps, Situation, Tactic};
use crate::game::components::GameMap;
use bevy_egui::egui;

/// Killing Ground's Accelerated Effort: offered with the unit that would make it, or shown
/// disabled with the rule that forbids it (8.10.4) as its tooltip.
fn accelerated_effort(ui: &mut egui::Ui, plan: &mut AttackPlan) {
    const WHAT: &str = "Killing Ground 8.10.4: the unit loses a step now, then rolls a die: at most its \
                        ER, 2 columns right; above it, 1; 3 or more above it, none";
    match plan.effort_by.clone() {
        Some(Ok((_, name))) => {
            ui.checkbox(&mut plan.accelerated_effort, format!("Accelerated effort by {name}"))
                .on_hover_text(WHAT);
        }
        Some(Err(why)) => {
            let mut off = false;
            ui.add_enabled(false, egui::Checkbox::new(&mut off, "Accelerated effort"))
                .on_disabled_hover_text(format!("Not possible in this attack: {why}"));
        }
        None => {}
    }
}

/// The options the ruleset gives the attacker for this attack, and what the defender will be
/// asked (its own answers, given at its own turn to choose: before the dice or to the result).
pub(super) fn options(
    ui: &mut egui::Ui,
    plan: &mut AttackPlan,
    map: &GameMap,
    situation: Option<&Situation>,
    (attacker, defender): (&str, &str),
    (computer, no_retreat_decided): (Option<&str>, Option<bool>),
) {
    let defender_asked = |ui: &mut egui::Ui, what: &str| {
        let who = match computer {
            Some(word) => format!("{defender} ({word})"),
            None => defender.to_string(),
        };
        ui.label(egui::RichText::new(format!("{who} answers {what} itself")).weak())
            .on_hover_text("The defender's choices are the defender's: the preview's branches show each answer");
    };
    let system = map.ruleset.combat.system();
    for option in system.attacker_options() {
        match option {
            AttackerOption::RetreatAsSteps => retreat_or_steps(
                ui,
                &mut plan.attacker_retreat,
                &format!("{attacker} (attacker), on a retreat result"),
            ),
            AttackerOption::AcceleratedEffort => accelerated_effort(ui, plan),
            AttackerOption::Exchange { .. } => {
                ui.checkbox(&mut plan.german_exchange, "German exchange (when the weather allows)");
            }
            AttackerOption::Tactics(_) => tactics(ui, plan, attacker, (defender, computer)),
            // The batteries are offered with the tactics; a flank is a claim the board cannot
            // check, so the window does not offer it.
            AttackerOption::Barrage | AttackerOption::Flanking => {}
        }
    }
    for hint in system.defender_answers_hint(situation) {
        match no_retreat_decided {
            Some(true) if hint.starts_with("No Retreat!") => {
                ui.label(
                    egui::RichText::new(format!(
                        "{defender} gave No Retreat! orders for this whole turn: this attack is fought under them"
                    ))
                    .weak(),
                );
            }
            Some(false) if hint.starts_with("No Retreat!") => {
                ui.label(egui::RichText::new(format!("{defender} gave no No Retreat! orders this turn")).weak());
            }
            _ => defender_asked(ui, hint),
        }
    }
    for (k, note) in system.attack_window_notes().into_iter().enumerate() {
        let text = egui::RichText::new(note).weak();
        ui.label(if k == 0 { text } else { text.small() });
    }
    // Who takes losses where the owner chooses: step losses (Killing Ground, Next War, Rommel)
    // and the attacker's exchange (War Against Russia, whose X takes every defender).
    if let Some(s) = situation
        && let Some(help) = system.losses_first_help()
    {
        losses_first(ui, &mut plan.attacker_losses_first, &s.attackers, attacker, help);
    }
}

/// The owner's choice of who takes losses first, where the rules leave it to the owner (after
/// the losses the rules assign: Killing Ground 8.95's first step, Next War's lead unit and
/// two-step units). The automatic choice stays the suggestion: the cheapest step.
pub(super) fn losses_first(
    ui: &mut egui::Ui,
    value: &mut Option<String>,
    units: &[combat::Combatant],
    owner: &str,
    (automatic, help): (&str, &str),
) {
    if units.len() < 2 {
        return;
    }
    if value.as_ref().is_some_and(|id| !units.iter().any(|u| &u.id == id)) {
        *value = None;
    }
    let label = |u: &combat::Combatant| {
        let (a, d) = u
            .steps
            .values
            .get(u.steps.lost)
            .map_or((0, 0), |v| (v.attack, v.defense));
        format!(
            "{} ({}-{}, {} left)",
            u.name,
            a,
            d,
            crate::rules::units::counted(u.steps.remaining() as u64, "step", "steps")
        )
    };
    let shown = value
        .as_ref()
        .and_then(|id| units.iter().find(|u| &u.id == id))
        .map_or_else(|| automatic.to_string(), |u| u.name.clone());
    ui.horizontal(|ui| {
        ui.label(format!("{owner}: losses first from")).on_hover_text(help);
        egui::ComboBox::from_id_salt(("losses-first", owner))
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(value, None, automatic);
                for u in units {
                    ui.selectable_value(value, Some(u.id.clone()), label(u));
                }
            })
            .response
            .on_hover_text(help);
    });
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
fn tactics(ui: &mut egui::Ui, plan: &mut AttackPlan, attacker: &str, (defender, computer): (&str, Option<&str>)) {
    if computer.is_some() {
        ui.strong(format!(
            "{attacker}: choose a tactic (hidden from {defender} until it answers)"
        ));
    } else {
        ui.strong(format!("{attacker}: choose a tactic ({defender}, look away)"));
    }
    pick_tactic(ui, &Tactic::ATTACK, &mut plan.attack_tactic);
    barrage(ui, &plan.batteries, &mut plan.barrage);
}

/// Rommel: the artillery the side may call to barrage, a box each.
fn barrage(ui: &mut egui::Ui, offered: &[(String, String)], called: &mut Vec<String>) {
    const RULE: &str = "Rommel: each unit in the combat may call one artillery unit of its own element (or of its \
                        parent) to add its barrage value. The battery must be untipped, within 3 squares, not in \
                        urban or woods terrain and not in a contested square; the odds below say why a call is refused.";
    if offered.is_empty() {
        ui.label(egui::RichText::new("No artillery within 3 squares to call for a barrage").weak())
            .on_hover_text(RULE);
        return;
    }
    ui.label("Call artillery to barrage:").on_hover_text(RULE);
    ui.horizontal_wrapped(|ui| {
        for (battery, name) in offered {
            let mut on = called.contains(battery);
            if ui.checkbox(&mut on, name.as_str()).on_hover_text(RULE).changed() {
                if on {
                    called.push(battery.clone());
                } else {
                    called.retain(|b| b != battery);
                }
            }
        }
    });
}

/// Rommel: the defender's answer to a declared attack.
pub(super) fn defender_tactic(ui: &mut egui::Ui, plan: &mut AttackPlan, defender: &str) {
    ui.strong(format!("{defender}: choose a tactic"));
    pick_tactic(ui, &Tactic::DEFENSE, &mut plan.defense_tactic);
    barrage(ui, &plan.batteries, &mut plan.defense_barrage);
}
