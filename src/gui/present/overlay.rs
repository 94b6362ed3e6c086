//! The odds as a broadcast overlay (presentation mode): before a roll, a big bar chart of the
//! outcomes with their exact probabilities, the chance to take the cell and the expected losses;
//! the roll animated (dice tumbling, the table's column lit, then its row); then the result with
//! how unlikely it was and every modifier in plain words, held for the streamer's pacing. The
//! odds come from the same planning and `combat::odds` as the attack panel, taken by a hook that
//! runs before each order just before the dice (`OddsBeforeRoll`), so the player's and the
//! computer's combats show alike;
//! the replay theatre's come from the log's moments.

use super::super::state::Replay;
use super::super::state::{Palette, Settings};
use crate::game::combat_phase::{CombatResolved, OddsBeforeRoll};
use crate::game::components::{GameMap, Sides};
use crate::game::execute::BeforeOrder;
use crate::game::log::OrderLog;
use crate::game::phase::TurnState;
use crate::rules::grid::Cell;
use crate::scenario::validate::SideInfo;
use crate::show::moments::{CombatMoment, Moments, before_roll, rolled, side_names};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The overlay's width on screen at a UI scale of 1 (with its margins).
pub use crate::show::director::OVERLAY_WIDTH as WIDTH;

/// The overlay's drawing, before the lower third.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OverlaySystems;

pub use super::card::Card;

/// What the overlay shows.
#[derive(Resource, Default)]
pub struct Overlay {
    pub card: Option<Card>,
    /// The streamer holds the result on screen (P) for commentary: the card stays and play
    /// waits until P again.
    pub pinned: bool,
}

impl Overlay {
    /// The combat in a line, for the lower third: its result once the dice have settled (`now`,
    /// the game clock).
    pub fn headline(&self, now: f64, settings: &Settings) -> Option<String> {
        let card = self.card.as_ref()?;
        let c = &card.moment;
        let head = format!("{} attack on {}", c.attacker_side, c.target);
        let settled = card
            .rolled_at
            .is_some_and(|t| now - t >= f64::from(settings.streaming.roll_secs));
        Some(if c.result.is_empty() || !settled {
            format!("{head}: {:.0}% to take the cell", c.expected.p_cell_taken * 100.0)
        } else {
            // In words, as the card says it (viewers do not read table codes); who attacked is
            // on the card, and the strip is narrow.
            format!("{}: {}", c.target, super::card::shown_words(c))
        })
    }

    /// Whether the next order waits: a roll is being shown, or one just rolled has not reached
    /// the card yet (the replay and the computer players both ask).
    pub fn holds_play(&self, stage: &super::stage::Stage, now: f64, settings: &Settings) -> bool {
        self.busy(now, settings) || stage.awaits_result(now)
    }

    /// Whether a roll is being shown (the theatre and showcase wait for it).
    pub fn busy(&self, now: f64, settings: &Settings) -> bool {
        self.pinned && self.card.is_some()
            || self
                .card
                .as_ref()
                .and_then(|c| Some((c.rolled_at?, c.on_screen(settings))))
                .is_some_and(|(t, secs)| now - t < secs)
    }
}

/// Run condition: a roll and its result are on screen (the retreat and advance choices wait for
/// it in presentation mode, so they never cover the result).
pub fn roll_on_screen(overlay: Res<Overlay>, time: Res<Time>, settings: Res<Settings>) -> bool {
    overlay.busy(time.elapsed_secs_f64(), &settings)
}

/// A log's moments for the replay theatre (found off the frame when a replay opens).
#[derive(Resource, Default)]
pub struct TheatreMoments(pub Option<Moments>);

pub(super) fn plugin(app: &mut App) {
    // The odds are taken only while presenting: the hook looks for `OddsBeforeRoll`.
    app.init_resource::<BeforeOrder>();
    app.world_mut()
        .resource_mut::<BeforeOrder>()
        .0
        .push(crate::game::fight::take_odds_before_roll);
    app.init_resource::<Overlay>()
        .init_resource::<TheatreMoments>()
        .add_systems(Update, watch_odds.run_if(resource_changed::<super::Presenting>))
        .add_systems(PreUpdate, drop_on_reset)
        .add_systems(
            PostUpdate,
            (show_held, show_results, note_blocked_retreats)
                .chain()
                .after(super::super::state::OrderSystems)
                .run_if(
                    super::on
                        .and_then(resource_exists::<TurnState>)
                        .and_then(resource_exists::<Sides>)
                        .and_then(resource_exists::<GameMap>),
                ),
        )
        .add_systems(
            Update,
            ring_target.run_if(super::on.and_then(resource_exists::<super::super::layout::Layout>)),
        )
        .add_systems(
            Update,
            lift_target.after(super::super::state::CounterSystems).run_if(
                super::super::board_shown
                    .and_then(resource_exists::<super::super::layout::Layout>)
                    .and_then(resource_exists::<crate::game::components::MapIndex>)
                    .and_then(resource_exists::<Sides>),
            ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw.in_set(OverlaySystems).run_if(
                super::on
                    .and_then(resource_exists::<GameMap>)
                    .and_then(super::super::board_shown),
            ),
        );
}

/// The stage was reset (presentation mode off, an undo, a game left): the card and the hold for
/// commentary go with it.
fn drop_on_reset(stage: Res<super::stage::Stage>, mut overlay: ResMut<Overlay>, mut seen: Local<u64>) {
    if stage.generation != *seen {
        *seen = stage.generation;
        overlay.card = None;
        overlay.pinned = false;
    }
}

/// While presenting, the game keeps the odds of each combat taken just before its roll.
fn watch_odds(mut commands: Commands, presenting: Res<super::Presenting>) {
    if presenting.0 {
        commands.init_resource::<OddsBeforeRoll>();
    } else {
        commands.remove_resource::<OddsBeforeRoll>();
    }
}

/// A combat the director holds shows its card with the dice tumbling; a tumbling card whose roll
/// is not coming (the hold dropped, the order refused) goes; one whose result waits for the
/// defender's answer stays.
fn show_held(
    mut stage: ResMut<super::stage::Stage>,
    answer: Res<crate::game::combat_phase::PendingAnswer>,
    time: Res<Time>,
    mut overlay: ResMut<Overlay>,
    mut fought: MessageReader<CombatResolved>,
) {
    let now = time.elapsed_secs_f64();
    // A result arriving now (the answer carried out, however long after the roll) lights the
    // tumbling card in `show_results`.
    let resolving = !fought.is_empty();
    fought.clear();
    if stage.director.holding.is_some()
        && let Some(held) = &stage.card
    {
        overlay.card = Some(held.clone());
    }
    let stale = overlay.card.as_ref().is_some_and(|c| {
        c.rolled_at.is_none()
            && c.tumbling_since.is_some()
            && stage.director.holding.is_none()
            && answer.0.is_none()
            && !resolving
            && !stage.rolled_recently(c.moment.target, now, 0.5)
    });
    if stale {
        overlay.card = None;
    }
    // The result will not come now (the card went stale) or comes with the defender's answer.
    if stage.result_due && (stale || answer.0.is_some()) {
        stage.result_due = false;
    }
}

/// With no combat fought this frame: the attack being looked at or prepared (before its roll),
/// or in the theatre the combat paused before; a card rolling or held is left alone.
fn card_at_rest(
    overlay: &mut Overlay,
    preview: &super::super::attack::AttackPreview,
    (replay, theatre): (Option<&Replay>, &TheatreMoments),
    (turn, sides, log): (&TurnState, &Sides, &OrderLog),
) {
    let resting = overlay
        .card
        .as_ref()
        .is_none_or(|c| c.rolled_at.is_none() && c.tumbling_since.is_none());
    if !resting {
        return;
    }
    if replay.is_none() {
        overlay.card = match &preview.result {
            Some(Ok((s, odds))) => preview.target.map(|target| Card {
                moment: before_roll(log.entries.len(), turn.turn, side_names(turn, sides), target, s, odds),
                rolled_at: None,
                tumbling_since: None,
                table: Some((odds.assessment.cell.clone(), Vec::new())),
                then: Vec::new(),
            }),
            _ => None,
        };
    }
    if let (Some(r), Some(m)) = (replay, theatre.0.as_ref()) {
        overlay.card = m.combats.iter().find(|c| c.entry == r.at).map(|c| Card {
            moment: unlit(c),
            rolled_at: None,
            tumbling_since: None,
            table: None,
            then: Vec::new(),
        });
    }
}

/// After orders run: a combat's result lights the card with the odds taken before its roll (at
/// once when the director held it: its dice have tumbled), and starts the roll otherwise; in the
/// replay theatre, the moment found for the entry just replayed.
fn show_results(
    mut fought: MessageReader<CombatResolved>,
    mut before: Option<ResMut<OddsBeforeRoll>>,
    (turn, sides, log): (Res<TurnState>, Res<Sides>, Res<OrderLog>),
    preview: Res<super::super::attack::AttackPreview>,
    mut overlay: ResMut<Overlay>,
    time: Res<Time>,
    map: Res<GameMap>,
    (replay, theatre): (Option<Res<Replay>>, Res<TheatreMoments>),
    mut last_at: Local<Option<usize>>,
    mut redraw: MessageWriter<RequestRedraw>,
    (mut stage, settings): (ResMut<super::stage::Stage>, Res<Settings>),
) {
    let now = time.elapsed_secs_f64();
    let at = replay.as_ref().map(|r| r.at);
    let stepped = matches!((*last_at, at), (Some(a), Some(b)) if b == a + 1);
    // A jump in the replay (End, a click on the timeline, an upset): the card of where it was
    // goes; the card of where it lands comes when it rests there.
    if at != *last_at && last_at.is_some() && !stepped {
        overlay.card = None;
        overlay.pinned = false;
    }
    *last_at = at;
    // Rebuilding a game (undo, a replay stepping back) fights its combats again: only the last
    // counts, and only when it is the one the overlay took odds for or the theatre just stepped.
    let Some(c) = fought.read().last() else {
        card_at_rest(
            &mut overlay,
            &preview,
            (replay.as_deref(), &theatre),
            (&turn, &sides, &log),
        );
        return;
    };
    stage.result_due = false;
    // A combat the director held rolls when its tumble is over: its result shows at once.
    let tumbled = stage.rolled_recently(c.target, now, 1.0)
        || overlay
            .card
            .as_ref()
            .is_some_and(|card| card.tumbling_since.is_some() && card.moment.target == c.target);
    let rolled_at = Some(if tumbled {
        now - f64::from(settings.streaming.roll_secs)
    } else {
        now
    });
    let table = Some((
        c.cell.clone(),
        map.ruleset.combat.landed(c.cell.as_ref(), &c.rolls, &c.result.code),
    ));
    let taken = before
        .as_mut()
        .and_then(|b| b.0.take())
        .filter(|(planned, _)| replay.is_none() && planned.order.target == c.target);
    if let Some((planned, odds)) = taken {
        let entry = log.entries.len().saturating_sub(1);
        let sides = side_names(&turn, &sides);
        let moment = before_roll(entry, turn.turn, sides, c.target, &planned.situation, &odds);
        overlay.card = Some(Card {
            moment: rolled(moment, &odds, c),
            rolled_at,
            tumbling_since: None,
            table,
            then: Vec::new(),
        });
    } else if stepped
        && let (Some(at), Some(m)) = (at, theatre.0.as_ref())
        && let Some(found) = m.combats.iter().find(|m| m.resolved_in + 1 == at)
    {
        overlay.card = Some(Card {
            moment: found.clone(),
            rolled_at,
            tumbling_since: None,
            table,
            then: Vec::new(),
        });
    }
    redraw.write(RequestRedraw);
}

/// A unit of the combat on the card that could not retreat: the card says so and why, beside
/// the result it could not carry out (a defender gone for want of a way back is no mystery).
fn note_blocked_retreats(mut retreated: MessageReader<crate::game::retreat::Retreated>, mut overlay: ResMut<Overlay>) {
    for r in retreated.read() {
        let (Some(card), Some(why)) = (overlay.card.as_mut(), r.blocked.as_ref()) else {
            continue;
        };
        if r.from != card.moment.target {
            continue;
        }
        card.then.push(blocked_words(r, why));
    }
}

/// The cell fought over, ringed on the board in the palette's target colour while its card shows.
fn ring_target(
    overlay: Res<Overlay>,
    layout: Res<super::super::layout::Layout>,
    palette: Res<Palette>,
    mut gizmos: Gizmos,
) {
    let Some(card) = &overlay.card else { return };
    let at = layout.center(card.moment.target);
    gizmos.circle_2d(at, layout.side() * 0.95, palette.target);
    gizmos.circle_2d(at, layout.side() * 0.9, palette.target);
}

/// A retreat that could not be carried out in full, in words: `why` is the unit's name and the
/// reason.
fn blocked_words(r: &crate::game::retreat::Retreated, (name, why): &(String, String)) -> String {
    let lost = match r.steps_lost {
        0 => String::new(),
        1 => ": −1 step".to_string(),
        n => format!(": −{n} steps"),
    };
    let cells = crate::show::moments::cells_words;
    match (r.eliminated, r.path.len()) {
        (true, 0) => format!("{name} could not retreat ({why}): eliminated"),
        (true, n) => format!("{name} retreated only {} ({why}): eliminated", cells(n)),
        (false, 0) if lost.is_empty() => format!("{name} could not retreat ({why}) and stays"),
        (false, 0) => format!("{name} could not retreat ({why}){lost} instead"),
        (false, n) => format!("{name} retreated only {} ({why}){lost}", cells(n)),
    }
}

/// How much higher the counters of the cell fought over are drawn while its card shows: above
/// the neighbouring stacks' offset copies, and the defenders above the attackers where the
/// rules put both in the cell (Rommel's attackers move into the defender's square); below every
/// stack's badge.
const LIFT: f32 = 0.6;
const DEFENDER_LIFT: f32 = 0.3;

/// The counters of the cell fought over drawn above their neighbours (its defenders on top)
/// while its card shows, and put back in their place after.
fn lift_target(
    (overlay, sides): (Res<Overlay>, Res<Sides>),
    (index, layout): (
        Res<crate::game::components::MapIndex>,
        Res<super::super::layout::Layout>,
    ),
    mut counters: Query<(&mut Transform, &crate::game::components::Side), With<crate::game::components::Unit>>,
    mut lifted: Local<Option<Cell>>,
) {
    let want = overlay.card.as_ref().map(|c| c.moment.target);
    if want == *lifted && !index.is_changed() {
        return;
    }
    let attacker = overlay
        .card
        .as_ref()
        .and_then(|c| sides.0.iter().position(|s| s.name == c.moment.attacker_side));
    for cell in [*lifted, want].into_iter().flatten() {
        for e in index.stack(cell) {
            let spot = super::super::counters::counter_spot(&layout, &index, *e, cell);
            let (Ok((mut t, side)), Some(spot)) = (counters.get_mut(*e), spot) else {
                continue;
            };
            let up = match (Some(cell) == want, Some(side.0) == attacker) {
                (false, _) => 0.0,
                (true, true) => LIFT,
                (true, false) => LIFT + DEFENDER_LIFT,
            };
            if t.translation.z != spot.z + up {
                t.translation.z = spot.z + up;
            }
        }
    }
    *lifted = want;
}

/// A replayed combat as it looked before its dice.
fn unlit(c: &CombatMoment) -> CombatMoment {
    let mut m = c.clone();
    m.result.clear();
    for b in &mut m.bars {
        b.happened = false;
    }
    m
}

#[allow(clippy::too_many_arguments)]
fn draw(
    mut contexts: EguiContexts,
    mut overlay: ResMut<Overlay>,
    time: Res<Time>,
    settings: Res<Settings>,
    palette: Res<Palette>,
    (map, sides): (Res<GameMap>, Res<Sides>),
    keys: Res<super::super::keymap::Keys>,
    mut redraw: MessageWriter<RequestRedraw>,
    frame: Res<super::Frame>,
) -> Result {
    let now = time.elapsed_secs_f64();
    let st = &settings.streaming;
    if keys.just(super::super::keymap::Action::HoldResult) {
        overlay.pinned = !overlay.pinned && overlay.card.is_some();
        redraw.write(RequestRedraw);
    }
    let pinned = overlay.pinned;
    let Some(card) = overlay.card.as_ref() else {
        overlay.pinned = false;
        return Ok(());
    };
    let since = card.rolled_at.map(|t| now - t);
    if !pinned && since.is_some_and(|s| s > card.on_screen(&settings)) {
        overlay.card = None;
        redraw.write(RequestRedraw);
        return Ok(());
    }
    let held = card
        .tumbling_since
        .filter(|_| card.rolled_at.is_none())
        .map(|t| now - t);
    let tumbling = held.is_some() || since.is_some_and(|s| s < f64::from(st.roll_secs));
    let since = since.or(held);
    if since.is_some() {
        // Animating or counting down the hold: keep frames coming.
        redraw.write(RequestRedraw);
    }
    let ctx = contexts.ctx_mut()?;
    let colour_of = |name: &str| SideInfo::colour_named(&sides.0, name);
    let look = super::card::Look {
        lit: palette.warn,
        attacker: colour_of(&card.moment.attacker_side),
        defender: colour_of(&card.moment.defender_side),
        // Clear of the lower third and the theatre's timeline over it.
        bottom: ctx.content_rect().height()
            - (frame.bottom / ctx.zoom_factor()).max(ctx.content_rect().height() * super::LOWER_THIRD)
            - 28.0,
        pinned,
    };
    let roll = super::card::Roll { since, tumbling };
    egui::Area::new(egui::Id::new("odds-overlay"))
        .fade_in(false)
        .anchor(egui::Align2::RIGHT_TOP, [-16.0, 16.0])
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(super::panel_fill())
                .corner_radius(8.0)
                .inner_margin(egui::Margin::same(14))
                .show(ui, |ui| super::card::contents(ui, card, roll, &look, &map));
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retreat_not_carried_out_in_full_is_said_with_why_and_what_it_cost() {
        let why = ("us1 Rgt".to_string(), "0808 holds enemy units".to_string());
        let retreat = |path: usize, steps_lost, eliminated| crate::game::retreat::Retreated {
            unit: Entity::PLACEHOLDER,
            from: Cell::new(8, 7),
            path: (0..path).map(|i| Cell::new(8, 8 + i as i32)).collect(),
            steps_lost,
            eliminated,
            blocked: Some(why.clone()),
        };
        let said = [
            (
                retreat(0, 2, true),
                "us1 Rgt could not retreat (0808 holds enemy units): eliminated",
            ),
            (
                retreat(0, 0, false),
                "us1 Rgt could not retreat (0808 holds enemy units) and stays",
            ),
            (
                retreat(0, 1, false),
                "us1 Rgt could not retreat (0808 holds enemy units): −1 step instead",
            ),
            (
                retreat(1, 1, false),
                "us1 Rgt retreated only 1 cell (0808 holds enemy units): −1 step",
            ),
            (
                retreat(2, 3, true),
                "us1 Rgt retreated only 2 cells (0808 holds enemy units): eliminated",
            ),
        ];
        for (r, words) in &said {
            assert_eq!(blocked_words(r, &why), *words);
        }
        assert_eq!(said.len(), 5);
    }
}
