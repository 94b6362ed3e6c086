//! Computer opponents in the client: which sides the computer plays (chosen on the start screen
//! or with `--ai SIDE[:PROFILE]`), its orders given one by one at the pace the player sets,
//! through the same order step as the player's (so its combats open the same result panel and
//! the log, replay and undo treat them alike), and a small panel: who is to act, the pace, and
//! Skip (K) to play the computer's orders at once. Its orders are given where the player's are
//! (PostUpdate), so the frame's other systems never see a half-changed game.

use super::state::Replay;
use super::state::{ComputerPace, Seats};
use crate::ai::{ComputerPlayer, NotPlayed, Profile, side_to_act};
use crate::game::combat_phase::PendingCombat;
use crate::game::components::Sides;
use crate::game::order::Order;
use crate::game::phase::GameState;
use crate::game::{start::GameOrigin, undo::GameRebuilt};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The computer players of the game on the board (made again for a new game, new seats, and
/// when the game is rebuilt).
#[derive(Resource, Default)]
pub struct Computers {
    players: Vec<ComputerPlayer>,
    /// The game and seats they were made for.
    made_for: Option<(u64, String, Seats)>,
    /// Time since the computer's last order.
    waited: f32,
    /// Skip: play the computer's orders without waiting until a human is to play.
    pub hurry: bool,
    /// Orders of the computer the game refused (a bug; shown in the panel).
    pub refused: usize,
    /// The side that must act now (as of the last check).
    pub to_act: Option<usize>,
    /// An expert's look-ahead running in the background: its side, turn and thread.
    thinking: Option<(usize, u32, std::thread::JoinHandle<Profile>)>,
    /// A combat's order the director holds (presentation mode) while the camera frames it and
    /// the dice tumble: its side and the order, given once the director lets it roll.
    held: Option<(usize, Order, u64)>,
}

/// Where the computer's orders (and the standing answers) are given: after the player's.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComputerSystems;

/// Orders the computer may give in one frame when hurried (the window stays responsive).
const HURRIED_ORDERS_PER_FRAME: usize = 40;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Seats>()
        .init_resource::<crate::game::save::SeatRecord>()
        .init_resource::<Computers>()
        .init_resource::<ComputerPace>()
        .add_systems(
            PostUpdate,
            (seat_computers, computer_orders.run_if(super::state::no_dialog))
                .chain()
                .in_set(ComputerSystems)
                .after(super::state::OrderSystems)
                .run_if(in_state(GameState::Playing)),
        )
        .add_systems(OnEnter(GameState::NoGame), |mut c: ResMut<Computers>| {
            *c = Computers::default()
        })
        .add_systems(
            EguiPrimaryContextPass,
            computer_panel.run_if(
                in_state(GameState::Playing)
                    .and_then(super::state::off)
                    .and_then(not(resource_exists::<super::online::OnlineSeat>)),
            ),
        );
}

/// Makes the computer players for the game on the board: anew for a new game or new seats, and
/// after the game is rebuilt (undo, a replay branch), since they hold the entities they planned
/// with.
fn seat_computers(
    mut rebuilt: MessageReader<GameRebuilt>,
    origin: Option<Res<GameOrigin>>,
    seats: Res<Seats>,
    mut computers: ResMut<Computers>,
    mut record: ResMut<crate::game::save::SeatRecord>,
) {
    let Some(origin) = origin else { return };
    // A save records who plays what.
    let names = seats.names();
    if record.0 != names {
        record.0 = names;
    }
    let key = (origin.seed, origin.scenario.raw.name.clone(), seats.clone());
    if computers.made_for.as_ref() == Some(&key) && rebuilt.read().count() == 0 {
        return;
    }
    computers.made_for = Some(key);
    computers.players = seats
        .0
        .iter()
        .enumerate()
        .filter_map(|(side, p)| p.clone().map(|p| ComputerPlayer::new(side, p, origin.seed)))
        .collect();
}

/// Gives the computer's next order when it is the computer's to give and its pause is over.
fn computer_orders(world: &mut World) {
    // Online, the other seat is another person's (on their screen) or the server's computer.
    if world.contains_resource::<Replay>() || world.contains_resource::<super::online::OnlineSeat>() {
        return;
    }
    let dt = world.resource::<Time>().delta_secs();
    let pace = world.resource::<ComputerPace>().0;
    let mut computers = std::mem::take(&mut *world.resource_mut::<Computers>());
    computers.waited += dt;
    if !look_ahead_done(&mut computers) {
        // Looks again next frame whether the look-ahead is done.
        world.write_message(bevy::window::RequestRedraw);
        *world.resource_mut::<Computers>() = computers;
        return;
    }
    let Some(generation) = stage_allows(world, &mut computers) else {
        world.write_message(bevy::window::RequestRedraw);
        *world.resource_mut::<Computers>() = computers;
        return;
    };
    let mut given = 0;
    while let Some(side) = side_to_act(world) {
        if !computers.players.iter().any(|p| p.side == side) {
            // A person's side: its standing answer answers for it, as its own order, at once.
            // Not a question already put to the player (who changed the standing answer on it).
            match (given < HURRIED_ORDERS_PER_FRAME).then(|| give_standing_answer(world, side)) {
                Some(Some(true)) => {
                    given += 1;
                    continue;
                }
                // Held by the director: asked again next frame.
                Some(None) => break,
                _ => {}
            }
            computers.hurry = false;
            break;
        }
        let Some(player) = computers.players.iter_mut().find(|p| p.side == side) else {
            break;
        };
        if computers.held.is_none() && !computers.hurry && (computers.waited < pace || given > 0) {
            break;
        }
        if given >= HURRIED_ORDERS_PER_FRAME {
            break;
        }
        // The expert looks ahead on another thread: the window stays live meanwhile.
        if let Some(job) = player.posture_job(world) {
            let turn = job.turn;
            computers.thinking = Some((side, turn, std::thread::spawn(move || job.run())));
            break;
        }
        let refused_before = player.refused;
        // The order the director held, or the next one.
        let held = computers.held.take().filter(|(s, ..)| *s == side).map(|(_, o, _)| o);
        let Some(next) = held.or_else(|| player.next_order(world)) else {
            hand_over(world, &mut computers, side, "it had no order to give");
            break;
        };
        // In presentation mode a combat waits for the camera and the dice (`present::stage`).
        if !super::present::stage::may_roll(world, &next) {
            computers.held = Some((side, next, generation));
            break;
        }
        let played = player.give(world, next);
        if player.refused > refused_before {
            computers.refused += player.refused - refused_before;
            warn!(
                "the computer's order was refused: {}",
                player.last_refusal.as_deref().unwrap_or("")
            );
        }
        let order = match played {
            Ok(order) => order,
            Err(NotPlayed::NoOrder) => {
                hand_over(world, &mut computers, side, "it had no order to give");
                break;
            }
            Err(NotPlayed::Refused(why)) => {
                hand_over(world, &mut computers, side, &why);
                break;
            }
        };
        // A combat fought: its result panel stays up a while before the next order.
        let waiting = world.resource::<PendingCombat>().0.is_some()
            || world.resource::<crate::game::combat_phase::PendingAnswer>().0.is_some();
        let fought = matches!(order, Order::Defend(_) | Order::Answer(_) | Order::Attack(_)) && !waiting;
        computers.waited = if fought { -2.0 * pace.max(0.5) } else { 0.0 };
        given += 1;
        // The "played by the computer" note is answered once the computer plays.
        world.resource_mut::<super::state::HistoryNote>().0 = None;
    }
    computers.to_act = side_to_act(world);
    let computers_turn = computers.thinking.is_some()
        || computers
            .to_act
            .is_some_and(|side| computers.players.iter().any(|p| p.side == side));
    if computers_turn {
        // The computer's pauses and look-ahead run on frames: keep them coming.
        world.write_message(bevy::window::RequestRedraw);
    }
    *world.resource_mut::<Computers>() = computers;
}

/// A person's standing answer for `side`, given as its own order: `Some(true)` when given,
/// `Some(false)` when there is none (or the question is already put to the player, or the
/// answer was refused), `None` while the director holds it (it rolls a combat's dice).
fn give_standing_answer(world: &mut World, side: usize) -> Option<bool> {
    if world.resource::<super::answer_ask::AnswerAsk>().held {
        return Some(false);
    }
    let Some(order) = crate::game::standing::standing_order(world) else {
        return Some(false);
    };
    if !super::present::stage::may_roll(world, &order.order) {
        return None;
    }
    match crate::game::execute::execute(world, order) {
        Ok(_) => {
            note_standing_answer(world, side);
            Some(true)
        }
        Err(refused) => {
            warn!("a standing answer was refused: {refused}");
            Some(false)
        }
    }
}

/// In presentation mode a combat's roll and result are shown in full before the next order:
/// `None` while they are. An order held under an earlier stage (since reset: an undo,
/// presentation mode off) is dropped, to be planned again; the stage's count comes back.
fn stage_allows(world: &World, computers: &mut Computers) -> Option<u64> {
    let now = world.resource::<Time>().elapsed_secs_f64();
    let busy = world.resource::<super::present::overlay::Overlay>().holds_play(
        world.resource::<super::present::stage::Stage>(),
        now,
        world.resource::<super::state::Settings>(),
    );
    if computers.held.is_none() && busy {
        return None;
    }
    let generation = world.resource::<super::present::stage::Stage>().generation;
    if computers.held.as_ref().is_some_and(|(_, _, g)| *g != generation) {
        computers.held = None;
    }
    Some(generation)
}

/// Whether no look-ahead is running (one that has just finished hands its posture over).
fn look_ahead_done(computers: &mut Computers) -> bool {
    if !computers.thinking.as_ref().is_some_and(|(_, _, h)| h.is_finished()) {
        return computers.thinking.is_none();
    }
    let Some((side, turn, handle)) = computers.thinking.take() else {
        return true;
    };
    if let (Ok(posture), Some(player)) = (handle.join(), computers.players.iter_mut().find(|p| p.side == side)) {
        player.set_posture(turn, posture);
    }
    true
}

/// The computer cannot go on with `side` (a bug): the side passes to the player at this screen,
/// with why, rather than the game waiting for ever.
fn hand_over(world: &mut World, computers: &mut Computers, side: usize, why: &str) {
    let name = world
        .resource::<Sides>()
        .0
        .get(side)
        .map_or_else(String::new, |s| s.name.clone());
    error!("the computer cannot play {name} on: {why}");
    if let Some(seat) = world.resource_mut::<Seats>().0.get_mut(side) {
        *seat = None;
    }
    computers.players.retain(|p| p.side != side);
    computers.hurry = false;
    world.resource_mut::<super::state::HistoryNote>().0 = Some(format!(
        "The computer could not go on playing {name} ({why}): the side is yours now. Please report this."
    ));
}

/// Whether the side to give the next order is the computer's.
pub fn computer_to_play(world: &World) -> Option<usize> {
    let side = side_to_act(world)?;
    world.resource::<Seats>().computer(side).map(|_| side)
}

fn computer_panel(
    mut contexts: EguiContexts,
    seats: Res<Seats>,
    sides: Res<Sides>,
    mut pace: ResMut<ComputerPace>,
    mut computers: ResMut<Computers>,
    keys: Res<super::keymap::Keys>,
    mut standing: ResMut<crate::game::standing::StandingAnswers>,
) -> Result {
    let computer = seats.0.iter().any(Option::is_some);
    // Without a computer the panel is there only to take a standing answer back.
    if !computer
        && standing
            .0
            .iter()
            .all(|a| *a == crate::game::standing::StandingAnswer::Ask)
    {
        return Ok(());
    }
    if keys.just(super::keymap::Action::ComputerNow) {
        computers.hurry = true;
    }
    let ctx = contexts.ctx_mut()?;
    egui::Window::new(if computer { "Computer" } else { "Answers" })
        .id(egui::Id::new("computer-panel"))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -36.0])
        .resizable(false)
        .collapsible(true)
        .show(ctx, |ui| {
            for (i, side) in sides.0.iter().enumerate() {
                let who = seats
                    .computer(i)
                    .map_or("human".to_string(), |p| format!("computer, {}", p.name));
                let playing = match (&computers.thinking, computers.to_act) {
                    (Some((side, _, _)), _) if *side == i => " ◀ thinking ahead…",
                    (_, Some(side)) if side == i => " ◀ to act",
                    _ => "",
                };
                ui.label(format!("{}: {who}{playing}", side.name));
                if seats.computer(i).is_none() {
                    standing_answer_choice(ui, &mut standing, i, &side.name);
                }
            }
            if !computer {
                return;
            }
            ui.horizontal(|ui| {
                ui.label("Pace");
                ui.add(egui::Slider::new(&mut pace.0, 0.0..=2.0).suffix(" s"))
                    .on_hover_text("Seconds between the computer's orders, so you can follow its moves");
            });
            if ui
                .button("Skip (K)")
                .on_hover_text("Play the computer's orders at once, up to your next decision")
                .clicked()
            {
                computers.hurry = true;
            }
            if computers.refused > 0 {
                ui.colored_label(
                    egui::Color32::from_rgb(220, 60, 40),
                    format!(
                        "{} refused (a bug: please report it)",
                        crate::rules::units::counted(computers.refused as u64, "computer order", "computer orders")
                    ),
                );
            }
        });
    Ok(())
}

/// A person's side: how it answers as defender (ask, or a standing answer).
fn standing_answer_choice(
    ui: &mut egui::Ui,
    standing: &mut crate::game::standing::StandingAnswers,
    side: usize,
    name: &str,
) {
    use crate::game::standing::StandingAnswer;
    let mut policy = standing.of(side);
    ui.horizontal(|ui| {
        ui.label("   as defender:");
        egui::ComboBox::from_id_salt(("standing", side))
            .selected_text(policy.name())
            .show_ui(ui, |ui| {
                for p in StandingAnswer::ALL {
                    ui.selectable_value(&mut policy, p, p.name()).on_hover_text(p.explain());
                }
            })
            .response
            .on_hover_text(format!(
                "How {name} answers what the rules leave to the defender (retreat or steps, No Retreat!, hold checks…)"
            ));
    });
    if policy != standing.of(side) {
        standing.set(side, policy);
    }
}

/// Says in the log that the answer just given was the side's standing answer, not asked.
fn note_standing_answer(world: &mut World, side: usize) {
    let policy = world.resource::<crate::game::standing::StandingAnswers>().of(side);
    let name = world
        .resource::<crate::game::components::Sides>()
        .0
        .get(side)
        .map_or(String::new(), |s| s.name.clone());
    crate::game::log::note_after_last_order(
        world,
        format!(
            "(given without asking, by the standing answer of {name}: {})",
            policy.name()
        ),
    );
}
