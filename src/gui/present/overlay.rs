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
use crate::show::moments::{CombatMoment, Moments, before_roll, chance_words, less_likely, rolled, side_names};
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The overlay's width on screen at a UI scale of 1 (with its margins).
pub const WIDTH: f32 = 470.0;

/// The overlay's drawing, before the lower third.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OverlaySystems;

/// The combat on show.
#[derive(Clone, Debug)]
pub struct Card {
    pub moment: CombatMoment,
    /// When the dice were rolled (the game clock), `None` before the roll.
    pub rolled_at: Option<f64>,
    /// The table's cell and the rows and columns read, for the mini table.
    pub table: Option<(Option<crate::combat::TableCell>, Vec<(usize, usize)>)>,
}

/// What the overlay shows.
#[derive(Resource, Default)]
pub struct Overlay {
    pub card: Option<Card>,
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
            format!("{head} → {}", c.result)
        })
    }

    /// Whether a roll is being shown (the theatre and showcase wait for it).
    pub fn busy(&self, now: f64, settings: &Settings) -> bool {
        self.card
            .as_ref()
            .and_then(|c| Some((c.rolled_at?, c.on_screen(settings))))
            .is_some_and(|(t, secs)| now - t < secs)
    }
}

impl Card {
    /// Seconds from the roll until the card goes: the tumble, then the result's hold (twice as
    /// long for an upset: viewers want a second look).
    pub fn on_screen(&self, settings: &Settings) -> f64 {
        let st = &settings.streaming;
        let upset = !self.moment.result.is_empty()
            && less_likely(self.moment.upset, crate::show::highlights::UPSET_AT_MOST).is_le();
        f64::from(st.roll_secs) + f64::from(st.hold_secs) * if upset { 2.0 } else { 1.0 }
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
        .add_systems(
            PostUpdate,
            show_results.after(super::super::state::OrderSystems).run_if(
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
            EguiPrimaryContextPass,
            draw.in_set(OverlaySystems).run_if(
                super::on
                    .and_then(resource_exists::<GameMap>)
                    .and_then(super::super::board_shown),
            ),
        );
}

/// While presenting, the game keeps the odds of each combat taken just before its roll.
fn watch_odds(mut commands: Commands, presenting: Res<super::Presenting>) {
    if presenting.0 {
        commands.init_resource::<OddsBeforeRoll>();
    } else {
        commands.remove_resource::<OddsBeforeRoll>();
    }
}

/// After orders run: a combat's result lights the card with the odds taken before its roll
/// (and starts the roll); in the replay theatre, the moment found for the entry just replayed.
fn show_results(
    mut fought: MessageReader<CombatResolved>,
    mut before: Option<ResMut<OddsBeforeRoll>>,
    (turn, sides, log): (Res<TurnState>, Res<Sides>, Res<OrderLog>),
    preview: Res<super::super::attack::AttackPreview>,
    mut overlay: ResMut<Overlay>,
    time: Res<Time>,
    map: Res<GameMap>,
    replay: Option<Res<Replay>>,
    theatre: Res<TheatreMoments>,
    mut last_at: Local<Option<usize>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let now = time.elapsed_secs_f64();
    let table = |c: &CombatResolved| {
        (
            c.cell.clone(),
            map.ruleset.combat.landed(c.cell.as_ref(), &c.rolls, &c.result.code),
        )
    };
    let at = replay.as_ref().map(|r| r.at);
    let stepped = matches!((*last_at, at), (Some(a), Some(b)) if b == a + 1);
    *last_at = at;
    // Rebuilding a game (undo, a replay stepping back) fights its combats again: only the last
    // counts, and only when it is the one the overlay took odds for or the theatre just stepped.
    let Some(c) = fought.read().last() else {
        let resting = overlay.card.as_ref().is_none_or(|c| c.rolled_at.is_none());
        if replay.is_none() && resting {
            // The attack being looked at or prepared: its odds, before the roll.
            overlay.card = match &preview.result {
                Some(Ok((s, odds))) => preview.target.map(|target| Card {
                    moment: before_roll(log.entries.len(), turn.turn, side_names(&turn, &sides), target, s, odds),
                    rolled_at: None,
                    table: Some((odds.assessment.cell.clone(), Vec::new())),
                }),
                _ => None,
            };
        }
        if let (Some(r), Some(m)) = (replay.as_ref(), theatre.0.as_ref())
            && overlay.card.as_ref().is_none_or(|c| c.rolled_at.is_none())
        {
            // Paused before a combat: its odds, before the roll.
            overlay.card = m.combats.iter().find(|c| c.entry == r.at).map(|c| Card {
                moment: unlit(c),
                rolled_at: None,
                table: None,
            });
        }
        return;
    };
    let taken = before
        .as_mut()
        .and_then(|b| b.0.take())
        .filter(|(planned, _)| replay.is_none() && planned.order.target == c.target);
    if let Some((planned, odds)) = taken {
        let entry = log.entries.len().saturating_sub(1);
        let moment = before_roll(
            entry,
            turn.turn,
            side_names(&turn, &sides),
            c.target,
            &planned.situation,
            &odds,
        );
        overlay.card = Some(Card {
            moment: rolled(moment, &odds, c),
            rolled_at: Some(now),
            table: Some(table(c)),
        });
    } else if stepped
        && let (Some(at), Some(m)) = (at, theatre.0.as_ref())
        && let Some(found) = m.combats.iter().find(|m| m.entry + 1 == at)
    {
        overlay.card = Some(Card {
            moment: found.clone(),
            rolled_at: Some(now),
            table: Some(table(c)),
        });
    }
    redraw.write(RequestRedraw);
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

/// A replayed combat as it looked before its dice.
fn unlit(c: &CombatMoment) -> CombatMoment {
    let mut m = c.clone();
    m.result.clear();
    for b in &mut m.bars {
        b.happened = false;
    }
    m
}

/// Faces shown while the dice tumble: they change ten times a second, from the clock (never
/// the game's dice).
fn tumbling(n: usize, t: f64) -> Vec<u8> {
    let tick = (t * 10.0) as u64;
    (0..n.max(1))
        .map(|i| (((tick + i as u64 * 7) * 2_654_435_761) % 6) as u8 + 1)
        .collect()
}

fn draw(
    mut contexts: EguiContexts,
    mut overlay: ResMut<Overlay>,
    time: Res<Time>,
    settings: Res<Settings>,
    palette: Res<Palette>,
    map: Res<GameMap>,
    mut redraw: MessageWriter<RequestRedraw>,
) -> Result {
    let now = time.elapsed_secs_f64();
    let st = &settings.streaming;
    let Some(card) = overlay.card.as_ref() else {
        return Ok(());
    };
    let since = card.rolled_at.map(|t| now - t);
    if since.is_some_and(|s| s > card.on_screen(&settings)) {
        overlay.card = None;
        redraw.write(RequestRedraw);
        return Ok(());
    }
    let tumbling_now = since.is_some_and(|s| s < f64::from(st.roll_secs));
    if since.is_some() {
        // Animating or counting down the hold: keep frames coming.
        redraw.write(RequestRedraw);
    }
    let ctx = contexts.ctx_mut()?;
    let roll = Roll {
        since,
        tumbling: tumbling_now,
    };
    // Clear of the lower third (and the theatre's timeline over it).
    let room = ctx.content_rect().height() * (1.0 - super::LOWER_THIRD) - 40.0;
    let fill = super::panel_fill(&settings);
    egui::Area::new(egui::Id::new("odds-overlay"))
        .anchor(egui::Align2::RIGHT_TOP, [-16.0, 16.0])
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(fill)
                .corner_radius(8.0)
                .inner_margin(egui::Margin::same(14))
                .show(ui, |ui| {
                    ui.set_max_height(room);
                    card_contents(ui, card, roll, &palette, &map)
                });
        });
    Ok(())
}

/// Where the roll of a card stands: seconds since the dice were rolled, and whether they tumble.
#[derive(Clone, Copy)]
struct Roll {
    since: Option<f64>,
    tumbling: bool,
}

/// The card: who attacks whom at what odds, the bars, the expectations, the dice and table, the
/// result, the modifiers.
fn card_contents(ui: &mut egui::Ui, card: &Card, roll: Roll, palette: &Palette, map: &GameMap) {
    let c = &card.moment;
    let lit = palette.warn;
    ui.set_width(420.0);
    let white = |text: String, size: f32| egui::RichText::new(text).size(size).color(egui::Color32::WHITE);
    ui.label(white(format!("{} attack on {}", c.attacker_side, c.target), 22.0).strong());
    ui.label(egui::RichText::new(format!("{}  vs  {}", c.attackers.join(", "), c.defenders.join(", "))).size(13.0));
    let odds = match &c.column {
        Some(col) => format!("Odds {} → column {col}", c.ratio),
        None => format!("Odds {}", c.ratio),
    };
    ui.label(white(odds, 17.0).strong());
    ui.add_space(6.0);
    let show_result = card.rolled_at.is_some() && !roll.tumbling;
    bars(ui, c, show_result, (palette.good, lit));
    ui.add_space(4.0);
    let e = &c.expected;
    ui.label(
        egui::RichText::new(format!(
            "Takes the cell {:.0}% · expected losses: attacker {:.1}, defender {:.1} steps",
            e.p_cell_taken * 100.0,
            e.expected_attacker_steps,
            e.expected_defender_steps
        ))
        .size(14.0),
    );
    if let Some(since) = roll.since {
        ui.add_space(6.0);
        let faces = if roll.tumbling {
            tumbling(c.dice.len(), since)
        } else {
            c.dice.clone()
        };
        dice_row(ui, &faces, if roll.tumbling { egui::Color32::WHITE } else { lit });
    }
    if let Some((cell, landed)) = &card.table {
        mini_table(ui, map, cell.as_ref(), if roll.tumbling { &[] } else { landed }, lit);
    }
    if show_result {
        ui.add_space(4.0);
        ui.label(egui::RichText::new(&c.result).size(30.0).strong().color(lit));
        ui.label(white(c.result_words.clone(), 14.0));
        let upset = format!(
            "A result this good for the {} had {}",
            c.beat_the_odds,
            chance_words(c.upset)
        );
        ui.label(egui::RichText::new(upset).size(15.0).color(lit));
    }
    if !c.modifiers.is_empty() {
        ui.add_space(4.0);
        // As many as fit; the rest counted.
        for (i, m) in c.modifiers.iter().enumerate() {
            if ui.available_height() < 40.0 && i + 1 < c.modifiers.len() {
                let more = format!("… and {} more modifiers", c.modifiers.len() - i);
                ui.label(egui::RichText::new(more).size(12.0).weak());
                break;
            }
            ui.label(egui::RichText::new(format!("• {m}")).size(13.0));
        }
    }
    if card.rolled_at.is_none() {
        ui.label(egui::RichText::new("Space rolls").size(12.0).weak());
    }
}

/// A bar per result, the one that happened lit once it shows.
fn bars(ui: &mut egui::Ui, c: &CombatMoment, show_result: bool, (bar, lit): (egui::Color32, egui::Color32)) {
    let most = c.bars.iter().map(|b| b.exact.as_f64()).fold(0.0, f64::max).max(1e-9);
    for b in c.bars.iter().take(10) {
        let hit = show_result && b.happened;
        let p = b.exact.as_f64();
        ui.horizontal(|ui| {
            let color = if hit {
                lit
            } else if show_result {
                bar.gamma_multiply(0.5)
            } else {
                bar
            };
            let label = egui::RichText::new(format!("{:>9}", b.label)).size(17.0).monospace();
            ui.label(if hit {
                label.strong().color(lit)
            } else {
                label.color(egui::Color32::WHITE)
            })
            .on_hover_text(format!("{} exactly", b.exact));
            let (rect, _) = ui.allocate_exact_size(egui::vec2(220.0, 18.0), egui::Sense::hover());
            let w = (p / most) as f32 * rect.width();
            ui.painter().rect_filled(
                egui::Rect::from_min_size(rect.min, egui::vec2(w.max(2.0), rect.height())),
                3.0,
                color,
            );
            ui.label(
                egui::RichText::new(format!("{:.1}%", p * 100.0))
                    .size(16.0)
                    .color(if hit { lit } else { egui::Color32::WHITE }),
            );
        });
    }
    if c.bars.len() > 10 {
        ui.label(
            egui::RichText::new(format!("… and {} rarer results", c.bars.len() - 10))
                .size(12.0)
                .weak(),
        );
    }
}

/// The dice as big faces.
fn dice_row(ui: &mut egui::Ui, faces: &[u8], color: egui::Color32) {
    ui.horizontal(|ui| {
        for f in faces {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(44.0, 44.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 7.0, egui::Color32::from_gray(245));
            ui.painter()
                .rect_stroke(rect, 7.0, egui::Stroke::new(3.0, color), egui::StrokeKind::Inside);
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                f.to_string(),
                egui::FontId::proportional(28.0),
                egui::Color32::BLACK,
            );
        }
    });
}

/// The table's live column, each row with its result; the row read lit after the roll.
fn mini_table(
    ui: &mut egui::Ui,
    map: &GameMap,
    cell: Option<&crate::combat::TableCell>,
    landed: &[(usize, usize)],
    lit: egui::Color32,
) {
    let Some(cell) = cell else { return };
    let view = map.ruleset.combat.table_view();
    let col = cell.column_index;
    ui.horizontal_wrapped(|ui| {
        ui.label(
            egui::RichText::new(format!(
                "{} {}",
                view.row_header,
                view.columns.get(col).map_or("", |s| s)
            ))
            .size(13.0)
            .background_color(lit.gamma_multiply(0.6))
            .color(egui::Color32::WHITE),
        );
        for (r, (row, entries)) in view.rows.iter().enumerate() {
            let text = format!("{row}:{}", entries.get(col).map_or("", |s| s.as_str()));
            let t = egui::RichText::new(text).size(13.0).monospace();
            ui.label(if landed.contains(&(r, col)) {
                t.strong().background_color(lit).color(egui::Color32::BLACK)
            } else {
                t
            });
        }
    });
}
