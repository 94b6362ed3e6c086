//! The hand-over screen of a hotseat game: when play passes from one human player to another
//! (a new player turn, or the defender asked for its answer to an attack and back), the board is
//! hidden until the next player says they are seated, so what one side chose in secret stays
//! hidden from the other.

use super::state::Replay;
use super::state::Seats;
use super::state::Settings;
use crate::game::components::{Side, Sides};
use crate::game::phase::{GameState, TurnState};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The side waiting to be seated, and the last side seen to play.
#[derive(Resource, Default, Debug)]
pub struct HandOver {
    pub waiting: Option<Side>,
    last: Option<Side>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HandOver>()
        .add_systems(OnEnter(GameState::NoGame), |mut h: ResMut<HandOver>| {
            *h = HandOver::default()
        })
        .add_systems(PreUpdate, swallow_input.after(super::keymap::KeySet))
        .add_systems(Update, notice_hand_over.run_if(resource_exists::<TurnState>))
        .add_systems(
            EguiPrimaryContextPass,
            hand_over_screen.run_if(resource_exists::<TurnState>),
        );
}

/// Whether passing play from `from` to `to` hides the board: two different sides, both played by
/// people at this screen, the setting on, and a game being played (not watched).
pub fn hides_board(from: Option<Side>, to: Side, seats: &Seats, enabled: bool, playing: bool) -> bool {
    let human = |s: Side| seats.0.get(s.0).is_none_or(Option::is_none);
    enabled && playing && from.is_some_and(|f| f != to && human(f)) && human(to)
}

/// The side whose player acts now: the defender while an attack waits for its answer (before the
/// dice or to the result) and its standing answer is to be asked, the side that picks a waiting
/// retreat's path (`retreat_chooser`: the retreating units' owner), else the side to play.
fn acting_side(
    turn: &TurnState,
    declared: &crate::game::combat_phase::PendingCombat,
    waiting: &crate::game::combat_phase::PendingAnswer,
    (standing, secret_tactics, retreat_chooser): (&crate::game::standing::StandingAnswers, bool, Option<Side>),
    held: bool,
) -> Side {
    // Rommel's secret tactics are always chosen by the defender at its own seat.
    if secret_tactics && let Some(c) = &declared.0 {
        return c.defender;
    }
    let defender = declared
        .0
        .as_ref()
        .map(|c| c.defender)
        .or_else(|| waiting.0.as_ref().map(|w| w.defender));
    match defender {
        // A question already put to the defender stays its own, whatever it set since.
        Some(d) if held || standing.of(d.0) == crate::game::standing::StandingAnswer::Ask => d,
        _ => retreat_chooser.unwrap_or(turn.active),
    }
}

/// Who picks the path of the first waiting retreat, when a player picks it (the game's rule:
/// the retreating unit's owner, or its opponent; Small General's random direction: nobody).
fn retreat_chooser(
    retreats: &crate::game::combat_phase::PendingRetreats,
    sides: &Query<&Side>,
    count: usize,
) -> Option<Side> {
    let p = retreats.0.first()?;
    let owner = sides.get(p.unit).ok()?.0;
    crate::game::retreat::retreat_chooser(p.demand.chooser, owner, count).map(Side)
}

#[allow(clippy::too_many_arguments)]
fn notice_hand_over(
    turn: Res<TurnState>,
    declared: Res<crate::game::combat_phase::PendingCombat>,
    waiting: Res<crate::game::combat_phase::PendingAnswer>,
    standing: Res<crate::game::standing::StandingAnswers>,
    map: Option<Res<crate::game::components::GameMap>>,
    seats: Res<Seats>,
    settings: Res<Settings>,
    state: Res<State<GameState>>,
    replay: Option<Res<Replay>>,
    mut hand: ResMut<HandOver>,
    (retreats, sides, ask, all_sides): (
        Res<crate::game::combat_phase::PendingRetreats>,
        Query<&Side>,
        Res<super::answer_ask::AnswerAsk>,
        Res<Sides>,
    ),
) {
    // Between games the last game's side stays in `TurnState`: not a side that played here, or
    // the next game would open on a hand-over screen.
    if *state.get() == GameState::NoGame {
        hand.last = None;
        return;
    }
    let now = acting_side(
        &turn,
        &declared,
        &waiting,
        (
            &standing,
            map.is_some_and(|m| m.ruleset.secret_tactics()),
            retreat_chooser(&retreats, &sides, all_sides.0.len()),
        ),
        ask.held && ask.asking(),
    );
    if hand.last == Some(now) {
        return;
    }
    let playing = *state.get() == GameState::Playing && replay.is_none();
    if hides_board(hand.last, now, &seats, settings.hand_over, playing) {
        hand.waiting = Some(now);
    }
    hand.last = Some(now);
}

/// While the board is hidden no key or click reaches it (End phase, roll, pan…); Enter or Space
/// seats the next player.
fn swallow_input(
    mut hand: ResMut<HandOver>,
    mut actions: ResMut<super::keymap::Keys>,
    mut keys: ResMut<ButtonInput<KeyCode>>,
    mut buttons: ResMut<ButtonInput<MouseButton>>,
) {
    if hand.waiting.is_none() {
        return;
    }
    if actions.just(super::keymap::Action::Continue) {
        hand.waiting = None;
    }
    // Nothing reaches the hidden board; Quit still asks (the game is autosaved first).
    actions.keep_only(&[super::keymap::Action::Quit]);
    keys.reset_all();
    buttons.reset_all();
}

fn hand_over_screen(
    mut contexts: EguiContexts,
    mut hand: ResMut<HandOver>,
    sides: Res<Sides>,
    turn: Res<TurnState>,
) -> Result {
    let Some(side) = hand.waiting else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let info = &sides.0[side.0];
    let fill = egui::Color32::from_rgb(24, 26, 30);
    let color = super::side_text::side_text_color(info.color, fill);
    let mut seated = false;
    // Over everything, opaque: the board and its panels cannot be seen or clicked.
    egui::Area::new(egui::Id::new("hand-over"))
        .order(egui::Order::Foreground)
        .fixed_pos(egui::Pos2::ZERO)
        .show(ctx, |ui| {
            let screen = ui.ctx().content_rect();
            ui.painter().rect_filled(screen, 0.0, fill);
            ui.scope_builder(egui::UiBuilder::new().max_rect(screen), |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(screen.height() * 0.3);
                    ui.label(
                        egui::RichText::new(format!("{} to play", info.name))
                            .size(40.0)
                            .strong()
                            .color(color),
                    );
                    ui.add_space(8.0);
                    // In the other side's turn the seat passes for a defender's choice only.
                    let why = match sides.0.get(turn.active.0) {
                        Some(active) if turn.active != side => {
                            format!(", in the {} turn: a choice of yours in its combat", active.name)
                        }
                        _ => String::new(),
                    };
                    ui.label(egui::RichText::new(format!("Turn {} of {}{why}", turn.turn, turn.last_turn)).size(20.0));
                    ui.add_space(16.0);
                    ui.label(format!(
                        "Pass the seat to the {} player. The board stays hidden until they are ready.",
                        info.name
                    ));
                    ui.add_space(16.0);
                    let button = egui::Button::new(
                        egui::RichText::new(format!("I play {} — show the board (Enter, Space)", info.name)).size(20.0),
                    )
                    .fill(color.gamma_multiply(0.5));
                    if ui.add(button).clicked() {
                        seated = true;
                    }
                });
            });
        });
    if seated {
        hand.waiting = None;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Profile;
    use crate::game::combat_phase::{PendingAnswer, PendingCombat, WaitingAnswer};
    use crate::game::order::AttackOrder;
    use crate::game::standing::{StandingAnswer, StandingAnswers};

    #[test]
    fn the_defender_asked_for_its_answer_is_the_side_seated() {
        let turn = TurnState {
            turn: 1,
            last_turn: 6,
            active: Side(0),
            first_side: Side(0),
            phase_index: 1,
        };
        let waiting = PendingAnswer(Some(WaitingAnswer {
            order: AttackOrder::plain(vec!["a".into()], crate::rules::grid::Cell::new(1, 1)),
            defense: None,
            dice: vec![4],
            attacker: Side(0),
            defender: Side(1),
            result: String::new(),
            options: Vec::new(),
            suggested: 0,
        }));
        let none = PendingCombat::default();
        let mut standing = StandingAnswers::default();
        // Asked: the defender sits down for its answer (a hand-over between two people) ...
        assert_eq!(
            acting_side(&turn, &none, &waiting, (&standing, false, None), false),
            Side(1)
        );
        let people = Seats(vec![None, None]);
        assert!(hides_board(Some(Side(0)), Side(1), &people, true, true));
        // ... and the attacker after it.
        assert_eq!(
            acting_side(&turn, &none, &PendingAnswer::default(), (&standing, false, None), false),
            Side(0)
        );
        // A standing answer answers at once: nobody changes seats.
        standing.set(1, StandingAnswer::Suggested);
        assert_eq!(
            acting_side(&turn, &none, &waiting, (&standing, false, None), false),
            Side(0)
        );
        // The defender picks its own retreat's path at its seat, then the attacker sits again.
        let after = PendingAnswer::default();
        assert_eq!(
            acting_side(&turn, &none, &after, (&standing, false, Some(Side(1))), false),
            Side(1)
        );
        assert_eq!(
            acting_side(&turn, &none, &after, (&standing, false, None), false),
            Side(0)
        );
        // A question put to the defender stays its own after it changes its standing answer.
        assert_eq!(
            acting_side(&turn, &none, &waiting, (&standing, false, None), true),
            Side(1)
        );
    }

    #[test]
    fn only_a_turn_passing_between_two_people_hides_the_board() {
        let people = Seats(vec![None, None]);
        let (a, b) = (Side(0), Side(1));
        assert!(hides_board(Some(a), b, &people, true, true));
        // The first side of a game, the same side again, the setting off, a replay: no screen.
        assert!(!hides_board(None, a, &people, true, true));
        assert!(!hides_board(Some(a), a, &people, true, true));
        assert!(!hides_board(Some(a), b, &people, false, true));
        assert!(!hides_board(Some(a), b, &people, true, false));
        // Against the computer there is nobody to hide from.
        let versus = Seats(vec![None, Some(Profile::standard())]);
        assert!(!hides_board(Some(a), b, &versus, true, true));
        assert!(!hides_board(Some(b), a, &versus, true, true));
    }
}
