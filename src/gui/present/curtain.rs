//! The showcase's curtain: between two scenarios a title card fills the frame (the next
//! scenario's name, its setting and the game's number in the loop) while the old board goes and
//! the new one is built, then fades out over the new board, so viewers never see an empty frame.

use super::showcase::Showcase;
use crate::game::phase::GameState;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// How long the card stays once the new board shows, and the fade at its end, in seconds.
pub const HOLD_SECS: f64 = 1.6;
pub const FADE_SECS: f64 = 0.5;

/// How opaque the card is `after` seconds of the new board showing (`None`: not yet showing):
/// fully until `HOLD_SECS`, then fading to nothing over `FADE_SECS`; `None` when it is gone.
pub fn opacity(after: Option<f64>) -> Option<f32> {
    let Some(t) = after else { return Some(1.0) };
    let left = HOLD_SECS + FADE_SECS - t;
    if left <= 0.0 {
        None
    } else {
        Some((left / FADE_SECS).min(1.0) as f32)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, curtain_card.run_if(resource_exists::<Showcase>))
        .add_systems(OnEnter(GameState::NoGame), old_board_gone);
}

/// The old board has gone. Seen where the state changes, not in a later frame: a game's own
/// settling may carry the state through `NoGame` and on to the next game within one frame.
fn old_board_gone(show: Option<ResMut<Showcase>>, time: Res<Time>) {
    let Some(mut show) = show else { return };
    if let Some(curtain) = show.bypass_change_detection().curtain.as_mut()
        && !curtain.old_board_gone
    {
        debug!("showcase: the old board gone at {:.2} s", time.elapsed_secs_f64());
        curtain.old_board_gone = true;
    }
}

fn curtain_card(
    mut contexts: EguiContexts,
    mut show: ResMut<Showcase>,
    state: Res<State<GameState>>,
    time: Res<Time>,
    mut redraw: MessageWriter<RequestRedraw>,
) -> Result {
    let now = time.elapsed_secs_f64();
    // The curtain is the presentation's own state: changing it changes nothing of the show's.
    let show = show.bypass_change_detection();
    let Some(curtain) = show.curtain.as_mut() else {
        return Ok(());
    };
    // Raised while the old game still shows: its timer starts on the new board's first frame
    // after the old one has gone (`old_board_gone`), however long the new one takes to build.
    if curtain.old_board_gone && curtain.board_since.is_none() && *state.get() != GameState::NoGame {
        debug!("showcase: the new board shows at {now:.2} s ({:?})", state.get());
        curtain.board_since = Some(now);
    }
    let Some(alpha) = opacity(curtain.board_since.map(|since| now - since)) else {
        debug!("showcase: curtain lifted at {now:.2} s");
        show.curtain = None;
        return Ok(());
    };
    redraw.write(RequestRedraw);
    let curtain = curtain.clone();
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let fade = |c: egui::Color32| c.gamma_multiply(alpha);
    egui::Area::new(egui::Id::new("showcase-curtain"))
        .order(egui::Order::Foreground)
        .fixed_pos(screen.min)
        .interactable(false)
        .show(ctx, |ui| {
            ui.painter().rect_filled(screen, 0.0, fade(super::panel_fill()));
            let centre = screen.center();
            let big = (screen.height() / 14.0).max(28.0);
            let painter = ui.painter();
            let text = |at: egui::Pos2, words: &str, size: f32, colour: egui::Color32| {
                painter.text(
                    at,
                    egui::Align2::CENTER_CENTER,
                    words,
                    egui::FontId::proportional(size),
                    fade(colour),
                );
            };
            let dim = egui::Color32::from_gray(176);
            text(
                centre - egui::vec2(0.0, big * 1.6),
                &format!("Game {} of the showcase", curtain.game),
                big * 0.42,
                dim,
            );
            text(centre, &curtain.title, big, egui::Color32::from_gray(240));
            text(centre + egui::vec2(0.0, big * 1.3), &curtain.setting, big * 0.5, dim);
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::showcase::Curtain;
    use super::*;
    use bevy::state::app::StatesPlugin;
    use bevy::state::state::StateTransition;

    fn curtain() -> Curtain {
        Curtain {
            title: "Next".into(),
            setting: String::new(),
            game: 2,
            old_board_gone: false,
            board_since: None,
        }
    }

    #[test]
    fn the_old_board_is_seen_going_though_the_next_game_starts_in_the_same_frame() {
        let mut app = App::new();
        app.add_plugins(StatesPlugin)
            .init_state::<GameState>()
            .init_resource::<Time>()
            .add_systems(OnEnter(GameState::NoGame), old_board_gone);
        let to = |app: &mut App, state| {
            app.world_mut().resource_mut::<NextState<GameState>>().set(state);
            app.world_mut().run_schedule(StateTransition);
        };
        to(&mut app, GameState::Playing);
        to(&mut app, GameState::Over);
        let mut show = Showcase::new(Vec::new(), 1);
        show.curtain = Some(curtain());
        app.insert_resource(show);
        // The showcase asks for the next game; a game's settling then runs the transitions
        // itself: NoGame and on to Playing with no frame drawn between.
        to(&mut app, GameState::Playing);
        let seen = |app: &App| {
            app.world()
                .resource::<Showcase>()
                .curtain
                .as_ref()
                .map(|c| c.old_board_gone)
        };
        assert_eq!(
            seen(&app),
            Some(false),
            "the old board is still up while the game plays on"
        );
        to(&mut app, GameState::NoGame);
        to(&mut app, GameState::Playing);
        assert_eq!(seen(&app), Some(true));
        assert_eq!(*app.world().resource::<State<GameState>>().get(), GameState::Playing);
    }

    #[test]
    fn the_curtain_hides_the_change_then_fades_over_the_new_board() {
        // Opaque while the old board goes and the new one is built.
        assert_eq!(opacity(None), Some(1.0));
        assert_eq!(opacity(Some(0.0)), Some(1.0));
        assert_eq!(opacity(Some(HOLD_SECS)), Some(1.0));
        let half = opacity(Some(HOLD_SECS + FADE_SECS / 2.0)).unwrap();
        assert!((half - 0.5).abs() < 1e-3, "{half}");
        assert_eq!(opacity(Some(HOLD_SECS + FADE_SECS)), None);
        assert_eq!(opacity(Some(60.0)), None);
    }
}
