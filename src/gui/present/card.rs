//! The odds overlay's card, drawn for a stream: who attacks whom at what odds; a bar per result
//! in words (the table's code small beside), coloured by the side it favours; the dice, each
//! with what it was rolled for; the result in words with an upset banner; the modifiers in
//! plain words, as many as fit above the lower third.

use super::super::state::Settings;
use crate::game::components::GameMap;
use crate::show::moments::{CombatMoment, chance_words, less_likely};
use bevy_egui::egui;

/// The combat on show.
#[derive(Clone, Debug)]
pub struct Card {
    pub moment: CombatMoment,
    /// When the dice were rolled (the game clock), `None` before the roll.
    pub rolled_at: Option<f64>,
    /// When the dice started to tumble while the director holds the combat's order (the roll
    /// itself comes when they stop, and the result with it).
    pub tumbling_since: Option<f64>,
    /// The table's cell and the rows and columns read, for the mini table.
    pub table: Option<(Option<crate::combat::TableCell>, Vec<(usize, usize)>)>,
    /// What followed the result on the board that its words do not say (a unit that could not
    /// retreat, and why).
    pub then: Vec<String>,
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

/// Where the roll of a card stands: seconds since the dice were rolled (or started to tumble),
/// and whether they tumble.
#[derive(Clone, Copy)]
pub struct Roll {
    pub since: Option<f64>,
    pub tumbling: bool,
}

/// The card's colours and room.
pub struct Look {
    /// The colour of what happened (the palette's warning orange).
    pub lit: egui::Color32,
    pub attacker: [u8; 3],
    pub defender: [u8; 3],
    /// The lowest the card may reach on screen (the lower third's top, less a margin).
    pub bottom: f32,
    /// The streamer holds the result (P).
    pub pinned: bool,
}

/// The card's text colours on its fill (14, 16, 20): white for what matters and a light grey
/// for the rest, both above 4.5:1.
pub const TEXT: egui::Color32 = egui::Color32::WHITE;
pub const QUIET: egui::Color32 = egui::Color32::from_gray(185);

/// A side's colour made a bar fill that white text reads on: darkened to at most a middling
/// lightness, keeping its hue.
pub fn bar_fill(colour: [u8; 3]) -> egui::Color32 {
    let [r, g, b] = crate::show::moments::bar_tone(colour);
    egui::Color32::from_rgb(r, g, b)
}

pub fn contents(ui: &mut egui::Ui, card: &Card, roll: Roll, look: &Look, map: &GameMap) {
    let c = &card.moment;
    ui.set_width(420.0);
    let show_result = card.rolled_at.is_some() && !roll.tumbling;
    let upset = show_result && less_likely(c.upset, crate::show::highlights::UPSET_AT_MOST).is_le();
    if upset {
        banner(ui, &format!("UPSET! The {} beat the odds", role_word(c)), look.lit);
    }
    ui.label(text(format!("{} attack on {}", c.attacker_side, c.target), 22.0).strong());
    ui.label(quiet(
        format!("{}  vs  {}", c.attackers.join(", "), c.defenders.join(", ")),
        13.0,
    ));
    let odds = match &c.column {
        Some(col) => format!("Odds {} → column {col}", c.ratio),
        None => format!("Odds {}", c.ratio),
    };
    ui.label(text(odds, 17.0).strong());
    ui.add_space(6.0);
    bars_and_dice(ui, card, roll, look, map);
    if show_result {
        result(ui, c, &card.then, look);
    }
    modifiers(ui, c, look);
    if card.rolled_at.is_none() && roll.since.is_none() {
        ui.label(quiet("Space rolls".into(), 12.0));
    }
    if look.pinned {
        ui.label(text("Held for commentary: P lets play go on".into(), 13.0).color(look.lit));
    }
}

/// The bars, as many as fit, then the expectation, the dice and the table's column. What comes
/// below the bars must fit above the lower third with the result: fewer bars, never a cut
/// result. Below them: what this card drew there last frame (an estimate on its first), and
/// the result's room from the first tumble on.
fn bars_and_dice(ui: &mut egui::Ui, card: &Card, roll: Roll, look: &Look, map: &GameMap) {
    let c = &card.moment;
    let show_result = card.rolled_at.is_some() && !roll.tumbling;
    let measured = egui::Id::new(("card-below-bars", c.entry, c.target));
    let result_room = if show_result || roll.since.is_some() {
        result_height(c) + 20.0 * card.then.len() as f32
    } else {
        0.0
    };
    let below = ui
        .ctx()
        .data(|d| d.get_temp::<f32>(measured))
        .unwrap_or(40.0 + if roll.since.is_some() { 80.0 } else { 0.0 })
        + result_room
        + 8.0;
    let room_for_bars = look.bottom - ui.cursor().top() - below - BARS_FOOT;
    let shown = ((room_for_bars / BAR_PITCH).floor() as usize).clamp(3, 8);
    bars(ui, c, show_result, look, shown);
    let bars_end = ui.cursor().top();
    let e = &c.expected;
    ui.label(quiet(
        format!(
            "Takes the cell {:.0}% · expected losses: attacker {:.1}, defender {:.1} steps",
            e.p_cell_taken * 100.0,
            e.expected_attacker_steps,
            e.expected_defender_steps
        ),
        14.0,
    ));
    if let Some(since) = roll.since {
        ui.add_space(6.0);
        dice(ui, c, roll.tumbling, since, look.lit);
    }
    // The result comes first: the table's column only where both fit above the lower third.
    if let Some((cell, landed)) = &card.table
        && room(ui, look, 40.0 + result_room)
    {
        mini_table(
            ui,
            map,
            cell.as_ref(),
            if roll.tumbling { &[] } else { landed },
            look.lit,
        );
    }
    let drawn = ui.cursor().top() - bars_end;
    ui.ctx().data_mut(|d| d.insert_temp(measured, drawn));
}

fn text(t: String, size: f32) -> egui::RichText {
    egui::RichText::new(t).size(size).color(TEXT)
}

fn quiet(t: String, size: f32) -> egui::RichText {
    egui::RichText::new(t).size(size).color(QUIET)
}

/// Whether `height` more points fit above the lower third.
fn room(ui: &egui::Ui, look: &Look, height: f32) -> bool {
    ui.cursor().top() + height <= look.bottom
}

fn role_word(c: &CombatMoment) -> &'static str {
    match c.beat_the_odds {
        crate::combat::Role::Attacker => "attacker",
        crate::combat::Role::Defender => "defender",
    }
}

/// A full-width band: the upset moment.
fn banner(ui: &mut egui::Ui, words: &str, lit: egui::Color32) {
    egui::Frame::new()
        .fill(lit)
        .corner_radius(4.0)
        .inner_margin(egui::Margin::symmetric(10, 4))
        .show(ui, |ui| {
            ui.set_width(400.0);
            ui.label(
                egui::RichText::new(words)
                    .size(22.0)
                    .strong()
                    .color(egui::Color32::BLACK),
            );
        });
    ui.add_space(4.0);
}

/// `text` on one line at most `width` wide, cut with an ellipsis past it.
fn one_line(
    painter: &egui::Painter,
    text: &str,
    style: (egui::FontId, egui::Color32),
    width: f32,
) -> std::sync::Arc<egui::Galley> {
    lines(painter, text, style, width, 1)
}

/// `text` on at most `rows` lines `width` wide (one line cut anywhere, more wrapped at words),
/// an ellipsis past the last.
fn lines(
    painter: &egui::Painter,
    text: &str,
    (font, color): (egui::FontId, egui::Color32),
    width: f32,
    rows: usize,
) -> std::sync::Arc<egui::Galley> {
    let mut job = egui::text::LayoutJob::single_section(
        text.to_string(),
        egui::TextFormat {
            font_id: font,
            color,
            ..Default::default()
        },
    );
    job.wrap = egui::text::TextWrapping {
        max_width: width,
        max_rows: rows,
        break_anywhere: rows == 1,
        overflow_character: Some('…'),
    };
    painter.layout_job(job)
}

/// `text` in white on at most `rows` lines `width` wide, at the first of `sizes` (points) it fits
/// in whole, else at the last, cut with an ellipsis.
pub(super) fn fitted(
    painter: &egui::Painter,
    text: &str,
    width: f32,
    rows: usize,
    sizes: &[f32],
) -> std::sync::Arc<egui::Galley> {
    let at = |size: f32| lines(painter, text, (egui::FontId::proportional(size), TEXT), width, rows);
    let Some((last, first)) = sizes.split_last() else {
        return at(12.0);
    };
    first
        .iter()
        .map(|s| at(*s))
        .find(|g| !g.elided)
        .unwrap_or_else(|| at(*last))
}

/// The bars a card lists, most likely first, at most `shown`: once the result shows, its own
/// bar takes the last place if it would not be among them.
fn listed_bars(bars: &[crate::show::moments::Bar], shown: usize, show_result: bool) -> Vec<usize> {
    let mut out: Vec<usize> = (0..bars.len().min(shown)).collect();
    if show_result
        && let Some(hit) = bars.iter().position(|b| b.happened)
        && hit >= out.len()
        && let Some(last) = out.last_mut()
    {
        *last = hit;
    }
    out
}

/// A bar's height and the gap under it, in points.
const BAR_PITCH: f32 = 27.0;
/// Under the bars: the rarer results' line and the colours' legend.
const BARS_FOOT: f32 = 36.0;

/// A bar's words on one line: smaller type before an ellipsis, down to 12 points.
const BAR_WORD_SIZES: [f32; 4] = [15.0, 14.0, 13.0, 12.0];

/// A bar per result: its words over a track, filled in the colour of the side it favours, the
/// table's code small at the end; the one that happened lit once it shows.
fn bars(ui: &mut egui::Ui, c: &CombatMoment, show_result: bool, look: &Look, shown: usize) {
    let most = c.bars.iter().map(|b| b.exact.as_f64()).fold(0.0, f64::max).max(1e-9);
    let listed = listed_bars(&c.bars, shown, show_result);
    for b in listed.iter().map(|i| &c.bars[*i]) {
        let hit = show_result && b.happened;
        let p = b.exact.as_f64();
        let fill = match b.gain.signum() {
            1 => bar_fill(look.attacker),
            -1 => bar_fill(look.defender),
            _ => EVEN_FILL,
        };
        let fill = if show_result && !hit {
            fill.gamma_multiply(0.45)
        } else {
            fill
        };
        ui.horizontal(|ui| {
            let (rect, response) = ui.allocate_exact_size(egui::vec2(350.0, 24.0), egui::Sense::hover());
            let painter = ui.painter();
            painter.rect_filled(rect, 3.0, egui::Color32::from_gray(34));
            let w = (p / most) as f32 * rect.width();
            painter.rect_filled(
                egui::Rect::from_min_size(rect.min, egui::vec2(w.max(3.0), rect.height())),
                3.0,
                fill,
            );
            if hit {
                painter.rect_stroke(rect, 3.0, egui::Stroke::new(2.5, look.lit), egui::StrokeKind::Inside);
            }
            // The words inside the track, the code after them only where it fits (it is in the
            // tooltip too): nothing runs into the share beside the bar.
            let room = rect.width() - 16.0;
            let words = fitted(painter, &b.words, room, 1, &BAR_WORD_SIZES);
            let code = one_line(
                painter,
                &code_shown(&b.label),
                (egui::FontId::monospace(11.0), QUIET),
                f32::INFINITY,
            );
            let words_w = words.size().x;
            let at = rect.left_center() + egui::vec2(8.0, -words.size().y / 2.0);
            painter.galley(at, words, TEXT);
            if words_w + 8.0 + code.size().x <= room {
                let at = egui::pos2(at.x + words_w + 8.0, rect.center().y + 1.0 - code.size().y / 2.0);
                painter.galley(at, code, QUIET);
            }
            response.on_hover_text(format!("{} ({}) exactly {}", b.words, code_shown(&b.label), b.exact));
            ui.label(text(format!("{:.1}%", p * 100.0), 16.0).color(if hit { look.lit } else { TEXT }));
        });
    }
    if c.bars.len() > listed.len() {
        let rest: f64 = c
            .bars
            .iter()
            .enumerate()
            .filter(|(i, _)| !listed.contains(i))
            .map(|(_, b)| b.exact.as_f64())
            .sum();
        ui.label(quiet(
            format!(
                "… and {} rarer results ({:.1}% together)",
                c.bars.len() - listed.len(),
                rest * 100.0
            ),
            12.0,
        ));
    }
    // The legend names the grey only when a bar shown is grey.
    let even = listed.iter().any(|i| c.bars[*i].gain == 0);
    ui.horizontal(|ui| {
        for (fill, words, shown) in [
            (bar_fill(look.attacker), "good for the attacker", true),
            (bar_fill(look.defender), "good for the defender", true),
            (EVEN_FILL, "neither", even),
        ] {
            if !shown {
                continue;
            }
            let (r, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter().rect_filled(r, 2.0, fill);
            ui.label(quiet(words.into(), 12.0));
        }
    });
}

/// A bar for a result good for neither side (nothing lost, or as much on each side).
const EVEN_FILL: egui::Color32 = egui::Color32::from_gray(56);

/// Faces shown while the dice tumble: they change ten times a second, from the clock (never
/// the game's dice).
fn tumbling(n: usize, t: f64) -> Vec<u8> {
    let tick = (t * 10.0) as u64;
    (0..n.max(1))
        .map(|i| (((tick + i as u64 * 7) * 2_654_435_761) % 6) as u8 + 1)
        .collect()
}

/// The dice as big faces, each with what it was rolled for under it once they settle.
fn dice(ui: &mut egui::Ui, c: &CombatMoment, tumbling_now: bool, since: f64, lit: egui::Color32) {
    let faces = if tumbling_now {
        tumbling(c.dice.len(), since)
    } else {
        c.dice.clone()
    };
    let colour = if tumbling_now { TEXT } else { lit };
    ui.horizontal(|ui| {
        for (i, f) in faces.iter().enumerate() {
            ui.vertical(|ui| {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(44.0, 44.0), egui::Sense::hover());
                ui.painter().rect_filled(rect, 7.0, egui::Color32::from_gray(245));
                ui.painter()
                    .rect_stroke(rect, 7.0, egui::Stroke::new(3.0, colour), egui::StrokeKind::Inside);
                ui.painter().text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    f.to_string(),
                    egui::FontId::proportional(28.0),
                    egui::Color32::BLACK,
                );
                let purpose = if tumbling_now {
                    ""
                } else {
                    c.dice_purposes.get(i).map_or("", |s| s.as_str())
                };
                ui.label(quiet(purpose.into(), 11.0));
            });
        }
    });
}

/// The game's own words for a result no bar stands for; the code if it has none.
fn fallback_words(c: &CombatMoment) -> String {
    if c.result_words.is_empty() {
        c.result.clone()
    } else {
        c.result_words.clone()
    }
}

/// The words the result shows in: what the defender's answer made of it, else its bar's, else
/// the game's.
pub(super) fn shown_words(c: &CombatMoment) -> String {
    if let Some(answered) = &c.answered {
        return answered.clone();
    }
    c.bars
        .iter()
        .find(|b| b.happened)
        .map_or_else(|| fallback_words(c), |b| b.words.clone())
}

/// The result's height in points: its words at 24 points (one line holds about 34 characters)
/// and how likely it was.
fn result_height(c: &CombatMoment) -> f32 {
    let lines = shown_words(c).chars().count().div_ceil(34).max(1) as f32;
    let answer = if c.answered.is_some() { 36.0 } else { 0.0 };
    4.0 + 31.0 * lines + 22.0 + answer
}

/// The result in words, large, with the table's code small; how unlikely it was.
fn result(ui: &mut egui::Ui, c: &CombatMoment, then: &[String], look: &Look) {
    ui.add_space(4.0);
    let words = shown_words(c);
    ui.horizontal_wrapped(|ui| {
        ui.label(
            egui::RichText::new(capitalised(&words))
                .size(24.0)
                .strong()
                .color(look.lit),
        );
        ui.label(quiet(code_shown(&c.result), 13.0));
    });
    if c.answered.is_some()
        && let Some(gave) = c.bars.iter().find(|b| b.happened)
    {
        ui.label(text(
            format!("The {} answered the dice's “{}”", c.defender_side, gave.words),
            14.0,
        ));
    }
    for line in then {
        ui.label(text(line.clone(), 14.0));
    }
    ui.label(text(chance_line(c), 15.0));
}

/// How likely the result was, as a commentator says it: by how rare a result this good for the
/// side it favoured was, an ordinary one said to be no surprise.
fn chance_line(c: &CombatMoment) -> String {
    if c.upset.as_f64() >= ORDINARY_AT_LEAST {
        format!(
            "No surprise: {:.0}% of rolls do this well for the {}",
            c.upset.as_f64() * 100.0,
            role_word(c)
        )
    } else {
        format!(
            "A result this good for the {} had {}",
            role_word(c),
            chance_words(c.upset)
        )
    }
}

/// A result at least this likely (the chance of one as good for the side it favoured) is an
/// ordinary one, not luck worth a word.
const ORDINARY_AT_LEAST: f64 = 0.4;

/// A table code as the card prints it: a result read on and changed (`DR -> DE`) with an arrow.
fn code_shown(code: &str) -> String {
    code.replace(" -> ", " → ")
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(chars).collect())
}

/// Every modifier that fits above the lower third; the rest counted.
fn modifiers(ui: &mut egui::Ui, c: &CombatMoment, look: &Look) {
    if c.modifiers.is_empty() {
        return;
    }
    ui.add_space(4.0);
    for (i, m) in c.modifiers.iter().enumerate() {
        if !room(ui, look, 2.0 * 20.0) && i + 1 < c.modifiers.len() {
            if room(ui, look, 18.0) {
                let more = format!("… and {} more modifiers", c.modifiers.len() - i);
                ui.label(quiet(more, 12.0));
            }
            break;
        }
        ui.label(quiet(format!("• {m}"), 13.0));
    }
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
            .color(TEXT),
        );
        for (r, (row, entries)) in view.rows.iter().enumerate() {
            let t = egui::RichText::new(format!("{row}:{}", entries.get(col).map_or("", |s| s.as_str())))
                .size(12.0)
                .monospace();
            ui.label(if landed.contains(&(r, col)) {
                t.strong().background_color(lit).color(egui::Color32::BLACK)
            } else {
                t.color(QUIET)
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG's contrast ratio of two colours (`art::contrast`).
    fn contrast(a: egui::Color32, b: egui::Color32) -> f32 {
        crate::art::contrast([a.r(), a.g(), a.b()], [b.r(), b.g(), b.b()])
    }

    #[test]
    fn a_short_card_keeps_the_results_own_bar_in_the_last_place() {
        use crate::show::moments::Bar;
        let bar = |n: u128, happened: bool| Bar {
            label: format!("r{n}"),
            exact: crate::combat::odds::Fraction::new(n, 100),
            happened,
            gain: 0,
            words: String::new(),
        };
        let bars: Vec<Bar> = (0..10).map(|i| bar(20 - i, i == 7)).collect();
        assert_eq!(listed_bars(&bars, 8, true), (0..8).collect::<Vec<_>>());
        assert_eq!(listed_bars(&bars, 4, false), [0, 1, 2, 3]);
        assert_eq!(listed_bars(&bars, 4, true), [0, 1, 2, 7]);
        assert_eq!(listed_bars(&bars[..2], 4, true), [0, 1]);
        assert!(listed_bars(&bars, 0, true).is_empty());
    }

    #[test]
    fn card_text_reads_at_four_and_a_half_to_one_on_its_fill_and_on_every_bar() {
        let fill = super::super::panel_fill();
        assert!(fill.a() == 255, "the panel is opaque");
        let mut checked = 0;
        for c in [TEXT, QUIET] {
            assert!(contrast(c, fill) >= 4.5, "{c:?} on the fill: {}", contrast(c, fill));
            checked += 1;
        }
        // White words on a bar of every shipped side's colour.
        for i in 0..crate::scenario::SHIPPED.len() {
            let s = crate::scenario::shipped_scenario(i).unwrap();
            for side in &s.sides {
                let bar = bar_fill(side.color);
                assert!(
                    contrast(TEXT, bar) >= 4.5,
                    "{} {:?}: {}",
                    side.name,
                    side.color,
                    contrast(TEXT, bar)
                );
                checked += 1;
            }
        }
        assert!(checked >= 16, "{checked}");
    }
}
