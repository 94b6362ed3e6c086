//! The client's orders: every click, key and button that changes the game becomes a `PlayerOrder`,
//! given as the side entitled to give it (both players sit at this one screen), through the game's
//! one order step. Also undo and redo (Ctrl+Z, Ctrl+Y), and the confirmation before a side's turn
//! ends.

use super::online::{OnlineSeat, ToServer};
use super::state::Settings;
use super::state::{ConfirmEndTurn, HistoryNote, OrderSystems, PlayerOrder};
use crate::game::components::GameMap;
use crate::game::execute::{OrderRefused, issue};
use crate::game::order::Order;
use crate::game::phase::{GameState, TurnState, ends_player_turn};
use crate::game::undo;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Take back the last order, or give an undone one again.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    Undo,
    Redo,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<PlayerOrder>()
        .add_message::<History>()
        .init_resource::<HistoryNote>()
        .init_resource::<ConfirmEndTurn>()
        .add_systems(
            Update,
            history_keys.run_if(in_state(GameState::Playing).or_else(in_state(GameState::Over))),
        )
        .add_systems(
            PostUpdate,
            (give_player_orders, move_through_history).chain().in_set(OrderSystems),
        )
        .add_systems(Update, forget_entities)
        .add_systems(
            EguiPrimaryContextPass,
            confirm_end_turn.run_if(in_state(GameState::Playing)),
        );
}

/// Ends the phase, or asks first when that ends the side's player turn (and the player wants
/// to be asked).
pub fn end_phase(
    orders: &mut MessageWriter<PlayerOrder>,
    confirm: &mut ConfirmEndTurn,
    turn: &TurnState,
    map: &GameMap,
    settings: &Settings,
) {
    if settings.confirm_end_turn && ends_player_turn(turn, map) {
        confirm.0 = true;
    } else {
        orders.write(PlayerOrder(Order::EndPhase));
    }
}

fn give_player_orders(world: &mut World) {
    let held = world.resource_mut::<super::present::stage::Stage>().player_order.take();
    let mut orders: Vec<PlayerOrder> = held.into_iter().map(PlayerOrder).collect();
    orders.extend(world.resource_mut::<Messages<PlayerOrder>>().drain());
    for PlayerOrder(order) in orders {
        if let Some(seat) = world.get_resource::<OnlineSeat>().copied() {
            to_server(world, seat, order);
            continue;
        }
        if world.contains_resource::<super::state::Replay>() {
            world.resource_mut::<HistoryNote>().0 =
                Some("This is a replay: Branch here (or Continue the game) to give orders".into());
            continue;
        }
        if let Some(side) = super::computer::computer_to_play(world) {
            let name = world.resource::<crate::game::components::Sides>().0[side].name.clone();
            world.resource_mut::<HistoryNote>().0 = Some(format!(
                "{name} is played by the computer: wait for its orders, or press K to play them at once"
            ));
            continue;
        }
        // In presentation mode a combat waits for the camera and the dice (`present::stage`);
        // another order meanwhile is not taken.
        if world.resource::<super::present::stage::Stage>().player_order.is_some() {
            world.resource_mut::<HistoryNote>().0 = Some("Wait for the dice: the combat is being rolled".into());
            continue;
        }
        if !super::present::stage::may_roll(world, &order) {
            world.resource_mut::<super::present::stage::Stage>().player_order = Some(order);
            continue;
        }
        match issue(world, order) {
            Ok(_) => world.resource_mut::<HistoryNote>().0 = None,
            Err(refused) => {
                info!("{refused}");
                world.write_message::<OrderRefused>(refused);
            }
        }
    }
}

/// An order in an online game: the server's to carry out when it is this window's side's to
/// give; else the player is told whose it is (or the rules' refusal, as in a local game).
fn to_server(world: &mut World, seat: OnlineSeat, order: Order) {
    let Some(me) = seat.0 else {
        world.resource_mut::<HistoryNote>().0 = Some("You are watching this game: only its players give orders".into());
        return;
    };
    match crate::game::execute::issuer(world, &order) {
        Ok(Some((side, _))) if side != me => {
            let name = world.resource::<crate::game::components::Sides>().0[side].name.clone();
            world.resource_mut::<HistoryNote>().0 = Some(format!(
                "That is for {name} to give: their player is asked on their screen"
            ));
        }
        Ok(_) => {
            world.write_message(ToServer::Order(order));
        }
        Err(reason) => {
            let refused = OrderRefused {
                order: crate::game::execute::public_words(world, &order),
                reason,
            };
            world.write_message::<OrderRefused>(refused);
        }
    }
}

/// After a rebuild (undo, a replay stepping back) every unit is a new entity: the preview and the
/// last result let go of the old ones. The selection and the prepared attack name units by id
/// and stay (the units gone since are dropped when they are next read).
fn forget_entities(
    mut rebuilt: MessageReader<crate::game::undo::GameRebuilt>,
    mut preview: ResMut<super::attack::AttackPreview>,
    mut last: ResMut<super::attack::LastCombat>,
) {
    if rebuilt.read().count() > 0 {
        *preview = default();
        last.0 = None;
    }
}

fn history_keys(keys: Res<super::keymap::Keys>, mut out: MessageWriter<History>) {
    if keys.just(super::keymap::Action::Undo) {
        out.write(History::Undo);
    }
    if keys.just(super::keymap::Action::Redo) {
        out.write(History::Redo);
    }
}

fn move_through_history(world: &mut World) {
    let asked: Vec<History> = world.resource_mut::<Messages<History>>().drain().collect();
    for h in asked {
        if world.contains_resource::<OnlineSeat>() {
            match h {
                History::Undo => {
                    world.write_message(ToServer::Undo);
                }
                History::Redo => {
                    world.resource_mut::<HistoryNote>().0 =
                        Some("Online, an order taken back is given again as a new order".into())
                }
            }
            continue;
        }
        if world.contains_resource::<super::state::Replay>() {
            world.resource_mut::<HistoryNote>().0 =
                Some("Undo and redo are for playing: leave the replay (Branch here) first".into());
            continue;
        }
        // The replay behind an undo passes through every phase since the start, and leaving a
        // combat phase drops the prepared attack: it is kept when the game is back in one.
        let prepared = world.resource::<super::attack::AttackPlan>().clone();
        let note = match h {
            History::Undo => undo::undo(world).map(|w| format!("Undone: {w}")),
            History::Redo => undo::redo(world).map(|w| format!("Redone: {w}")),
        };
        // Only while the attacker is the one to act: a defender asked again (a retreat undone)
        // does not see the attack its enemy is preparing (Rommel's hidden tactic among it).
        let in_combat = world
            .get_resource::<State<crate::game::phase::Phase>>()
            .is_some_and(|p| *p.get() == crate::game::phase::Phase::Combat);
        let attacker_acts = world
            .get_resource::<crate::game::phase::TurnState>()
            .is_some_and(|t| crate::ai::side_to_act(world) == Some(t.active.0));
        if in_combat && attacker_acts {
            world.insert_resource(prepared);
        }
        world.resource_mut::<HistoryNote>().0 = Some(note.unwrap_or_else(|why| format!("Cannot: {why}")));
    }
}

fn confirm_end_turn(
    mut contexts: EguiContexts,
    mut confirm: ResMut<ConfirmEndTurn>,
    mut orders: MessageWriter<PlayerOrder>,
    keys: Res<super::keymap::Keys>,
    turn: Res<TurnState>,
    sides: Res<crate::game::components::Sides>,
) -> Result {
    if !confirm.0 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let side = sides.0.get(turn.active.0).map_or("?", |s| s.name.as_str()).to_string();
    let mut answer = None;
    egui::Window::new("End the turn?")
        .id(egui::Id::new("confirm-end-turn"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(format!(
                "This ends the {side} player turn. Undo (Ctrl+Z) can take it back until the next die is rolled."
            ));
            ui.horizontal(|ui| {
                if ui
                    .button(egui::RichText::new("End the turn (Y, Enter)").strong())
                    .clicked()
                {
                    answer = Some(true);
                }
                if ui.button("Keep playing (N, Esc)").clicked() {
                    answer = Some(false);
                }
            });
            ui.label(
                egui::RichText::new("Settings (F10) can turn this question off.")
                    .small()
                    .weak(),
            );
        });
    // Enter says yes too, though not the Enter that asked (this frame).
    if keys.just(super::keymap::Action::Yes) || (keys.just(super::keymap::Action::Confirm) && !confirm.is_changed()) {
        answer = Some(true);
    }
    if keys.just(super::keymap::Action::No) || keys.just(super::keymap::Action::Cancel) {
        answer = Some(false);
    }
    if let Some(yes) = answer {
        confirm.0 = false;
        if yes {
            orders.write(PlayerOrder(Order::EndPhase));
        }
    }
    Ok(())
}
