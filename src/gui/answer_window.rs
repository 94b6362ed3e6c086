//! The defender's answer at the client: when an attack waits for a person as defender (War
//! Against Russia's No Retreat! before the die, any result that leaves the defender a choice), a
//! window lists each answer with where it leads, the suggested one preselected, and the side's
//! standing answer to change (Ask me, the suggested answer, always retreat, steps at full
//! strength). Rommel's hidden tactics are answered in the attack window. The answer is the
//! defender's own order; the hotseat hand-over screen seats the defender first.

pub use super::answer_ask::AnswerAsk;
use super::state::Palette;
use super::state::PlayerOrder;
use crate::combat::answers::consequence;
use crate::game::combat_phase::{GameView, PendingAnswer, PendingCombat, build_situation};
use crate::game::components::{GameMap, Sides};
use crate::game::fight::defense_options;
use crate::game::order::{DefenseOrder, Order};
use crate::game::phase::GameState;
use crate::game::standing::{StandingAnswer, StandingAnswers};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AnswerAsk>()
        // Standing answers are a game's: the next game asks again (and `--roll`'s presets end).
        .add_systems(
            OnEnter(GameState::NoGame),
            |mut s: ResMut<StandingAnswers>, mut a: ResMut<AnswerAsk>| {
                *s = StandingAnswers::default();
                *a = AnswerAsk::default();
            },
        )
        .add_systems(
            Update,
            // After the board's keys, which leave Enter to a question on screen.
            answer_keys
                .after(super::state::HudSystems)
                .run_if(in_state(GameState::Playing).and_then(not(resource_exists::<super::state::Replay>))),
        )
        // After the frame's orders (the player's and the computer's), so a question they raise is
        // asked in the same frame.
        .add_systems(
            PostUpdate,
            prepare_question
                .after(super::state::OrderSystems)
                .after(super::computer::ComputerSystems)
                .run_if(in_state(GameState::Playing).and_then(not(resource_exists::<super::state::Replay>))),
        )
        .add_systems(
            EguiPrimaryContextPass,
            answer_window.run_if(in_state(GameState::Playing).and_then(not(resource_exists::<super::state::Replay>))),
        );
}

/// Whether a person at this screen is asked: the defender is not the computer's and its standing
/// answer is to ask.
fn person_asked(ask: &AnswerAsk, seats: &super::state::Seats, standing: &StandingAnswers) -> bool {
    seats.computer(ask.defender).is_none() && (ask.held || standing.of(ask.defender) == StandingAnswer::Ask)
}

/// Works out the question when one comes (a result waiting, or a No Retreat! decision).
fn prepare_question(world: &mut World) {
    let waiting = world.resource::<PendingAnswer>().0.clone();
    let declared = world
        .resource::<PendingCombat>()
        .0
        .clone()
        .filter(|_| !world.resource::<GameMap>().ruleset.secret_tactics());
    let key = match (&waiting, &declared) {
        (Some(w), _) => Some(format!("result {} {:?}", w.order.target, w.dice)),
        (None, Some(d)) => Some(format!("no retreat {} {:?}", d.order.target, d.order.attackers)),
        _ => None,
    };
    if key == world.resource::<AnswerAsk>().key {
        return;
    }
    let mut ask = match (waiting, declared) {
        (Some(w), _) => result_question(world, &w),
        (None, Some(d)) => no_retreat_question(world, &d),
        _ => AnswerAsk::default(),
    };
    if ask.asking() {
        // The result panel and the CRT's lit cell belong to the combat asked about now.
        world.resource_mut::<super::attack::LastCombat>().0 = None;
    }
    ask.key = key;
    ask.chosen = ask.suggested;
    if ask.asking() {
        ask.cells = combat_cells(world);
    }
    *world.resource_mut::<AnswerAsk>() = ask;
    // The question may come in the last frame of the computer's work: one more to show it.
    world.write_message(bevy::window::RequestRedraw);
}

/// The cells of the combat asked about: its target, then where its attackers stand.
fn combat_cells(world: &mut World) -> Vec<crate::rules::grid::Cell> {
    let order = match (
        world.resource::<PendingAnswer>().0.as_ref(),
        world.resource::<PendingCombat>().0.as_ref(),
    ) {
        (Some(w), _) => w.order.clone(),
        (None, Some(d)) => d.order.clone(),
        _ => return Vec::new(),
    };
    let mut cells = vec![order.target];
    let mut q = world.query::<(&crate::game::components::Unit, &crate::game::components::Position)>();
    for (unit, at) in q.iter(world) {
        if order.attackers.contains(&unit.id) && !cells.contains(&at.0) {
            cells.push(at.0);
        }
    }
    cells
}

/// The combat of `order` (with `defense`) as the rules see it now, or `None` if they refuse it.
fn situation_of(
    world: &mut World,
    order: &crate::game::order::AttackOrder,
    defense: Option<DefenseOrder>,
) -> Option<crate::combat::Situation> {
    world
        .run_system_cached_with(
            |In((order, defense)): In<(crate::game::order::AttackOrder, Option<DefenseOrder>)>, view: GameView| {
                build_situation(&order, defense.as_ref(), &view).map(|(s, _, _)| s)
            },
            (order.clone(), defense),
        )
        .ok()
        .and_then(Result::ok)
}

fn side_name(world: &World, side: usize) -> String {
    world
        .resource::<Sides>()
        .0
        .get(side)
        .map_or(String::new(), |s| s.name.clone())
}

fn result_question(world: &mut World, w: &crate::game::combat_phase::WaitingAnswer) -> AnswerAsk {
    let situation = situation_of(world, &w.order, w.defense.clone());
    let options = w
        .options
        .iter()
        .map(|o| {
            let leads = situation.as_ref().map_or_else(String::new, |s| consequence(o, s));
            (o.label.clone(), leads, Order::Answer(o.choices.clone()))
        })
        .collect();
    let dice: Vec<String> = w.dice.iter().map(ToString::to_string).collect();
    AnswerAsk {
        defender: w.defender.0,
        title: format!(
            "{}: your answer to the result at {}",
            side_name(world, w.defender.0),
            w.order.target
        ),
        intro: format!(
            "{} attacked {} and rolled {}: {}. The rules leave the next choice to the defender.",
            side_name(world, w.attacker.0),
            w.order.target,
            dice.join(", "),
            w.result
        ),
        options,
        suggested: w.suggested,
        chosen: w.suggested,
        ..AnswerAsk::default()
    }
}

fn no_retreat_question(world: &mut World, d: &crate::game::combat_phase::DeclaredCombat) -> AnswerAsk {
    let defenses = defense_options(world);
    let rules = world.resource::<GameMap>().ruleset.combat.clone();
    let mut options = Vec::new();
    for defense in defenses {
        let summary = situation_of(world, &d.order, Some(defense.clone()))
            .and_then(|s| crate::combat::odds::summary_of(&rules, &s).ok());
        let label = if defense.no_retreat {
            "No Retreat! orders: retreat results become losses"
        } else {
            "No orders: retreat as the table says"
        };
        let leads = summary.map_or_else(String::new, |s| {
            format!(
                "{:.0}% the cell falls, {:.0}% the stack is destroyed, the attackers lose {:.2} steps on average",
                s.p_cell_taken * 100.0,
                s.p_defender_eliminated * 100.0,
                s.expected_attacker_steps
            )
        });
        options.push((label.to_string(), leads, Order::Defend(defense)));
    }
    // The game's own suggestion (`standing::suggested_defense`), which the standing answer gives.
    let best = Order::Defend(crate::game::standing::suggested_defense(world));
    let suggested = options.iter().position(|(_, _, o)| *o == best).unwrap_or(0);
    AnswerAsk {
        defender: d.defender.0,
        title: format!(
            "{}: No Retreat! orders at {}?",
            side_name(world, d.defender.0),
            d.order.target
        ),
        intro: format!(
            "{} attacks {} with {}. Before the die the defender may put the defenders under No Retreat! orders (German units one attack at a time; Russians all their units for the rest of this turn).",
            side_name(world, d.attacker.0),
            d.order.target,
            unit_names(world, &d.order.attackers)
        ),
        options,
        suggested,
        chosen: suggested,
        ..AnswerAsk::default()
    }
}

/// The units (by id) by name, for the player.
fn unit_names(world: &mut World, ids: &[String]) -> String {
    let mut q = world.query::<&crate::game::components::Unit>();
    ids.iter()
        .map(|id| {
            q.iter(world)
                .find(|u| u.id == *id)
                .map_or(id.clone(), |u| u.name.clone())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Number keys pick an answer, Enter gives the picked one.
fn answer_keys(
    keys: Res<super::keymap::Keys>,
    mut ask: ResMut<AnswerAsk>,
    seats: Res<super::state::Seats>,
    standing: Res<StandingAnswers>,
    hand: Res<super::handover::HandOver>,
    mut orders: MessageWriter<PlayerOrder>,
) {
    if ask.options.is_empty() || hand.waiting.is_some() || !person_asked(&ask, &seats, &standing) {
        return;
    }
    for (i, n) in (1..=9u8).enumerate().take(ask.options.len()) {
        if keys.just(super::keymap::Action::Choose(n)) {
            ask.chosen = i;
        }
    }
    if keys.just(super::keymap::Action::Confirm) {
        give(&mut ask, &mut orders);
    }
}

fn give(ask: &mut AnswerAsk, orders: &mut MessageWriter<PlayerOrder>) {
    if let Some((_, _, order)) = ask.options.get(ask.chosen) {
        orders.write(PlayerOrder(order.clone()));
        // The window closes; the question comes back only if the game refuses the answer.
        *ask = AnswerAsk::default();
    }
}

fn answer_window(
    mut contexts: EguiContexts,
    mut ask: ResMut<AnswerAsk>,
    seats: Res<super::state::Seats>,
    mut standing: ResMut<StandingAnswers>,
    hand: Res<super::handover::HandOver>,
    palette: Res<Palette>,
    mut orders: MessageWriter<PlayerOrder>,
    mut reference: ResMut<super::rules_reference::RulesReference>,
) -> Result {
    if ask.options.is_empty() || hand.waiting.is_some() || !person_asked(&ask, &seats, &standing) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut give_now = false;
    let mut policy = standing.of(ask.defender);
    egui::Window::new(ask.title.clone())
        .id(egui::Id::new("defender-answer"))
        .collapsible(false)
        .resizable(false)
        // Over the other panels, below the CRT (which shows the table the result was read on).
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 236.0])
        .default_width(520.0)
        .show(ctx, |ui| {
            ui.add(egui::Label::new(ask.intro.clone()).wrap());
            ui.add_space(6.0);
            let mut chosen = ask.chosen;
            for (i, (label, leads, _)) in ask.options.iter().enumerate() {
                let suggested = if i == ask.suggested { "  (suggested)" } else { "" };
                let mut text = egui::RichText::new(format!("{}. {label}{suggested}", i + 1)).strong();
                if i == ask.suggested {
                    text = text.color(palette.good);
                }
                ui.radio_value(&mut chosen, i, text)
                    .on_hover_text(format!("Press {} to pick it", i + 1));
                if !leads.is_empty() {
                    ui.indent(("answer-leads", i), |ui| {
                        ui.add(egui::Label::new(format!("→ {leads}")).wrap());
                    });
                }
            }
            ask.chosen = chosen;
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui
                    .button(egui::RichText::new("Answer (Enter)").strong())
                    .on_hover_text("Give this answer as the defender's order: it is logged as yours")
                    .clicked()
                {
                    give_now = true;
                }
                ui.label("From now on:");
                egui::ComboBox::from_id_salt("standing-answer")
                    .selected_text(policy.name())
                    .show_ui(ui, |ui| {
                        for p in StandingAnswer::ALL {
                            ui.selectable_value(&mut policy, p, p.name()).on_hover_text(p.explain());
                        }
                    })
                    .response
                    .on_hover_text("How the game answers for this side without asking; change it at any moment here (or in the Computer panel when you play the computer)");
                if ui
                    .small_button("Rules (F3)")
                    .on_hover_text("What each option does and who decides it")
                    .clicked()
                {
                    reference.show(super::rules_reference::Page::Options);
                }
            });
            if ask.held {
                ui.label(
                    egui::RichText::new("The new standing answer applies from the next question: answer this one yourself.")
                        .small()
                        .weak(),
                );
            }
        });
    if policy != standing.of(ask.defender) {
        standing.set(ask.defender, policy);
        // The question on screen stays the player's: the pick they made is not overridden.
        ask.held = true;
    }
    if give_now {
        give(&mut ask, &mut orders);
    }
    Ok(())
}
