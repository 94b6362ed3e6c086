//! `hexfront highlights`: the pictures a streamer or designer posts from a logged game, drawn
//! without a window: the board at each turn's end with the score, and each upset combat (the
//! results the odds gave the least chance) with its odds chart, dice, result and modifiers.

use super::moments::{CombatMoment, Moments, TurnEnd, UnitAt, bar_tone, chance_words, less_likely};
use crate::art::crop::{Aspect, frame_for};
use crate::art::picture::{Frame, Token, render_frame};
use crate::art::text::{Pen, fill, ring};
use crate::art::title::{DIM, GOLD as HAPPENED, INK, PANEL};
use crate::combat::odds::Fraction;
use crate::scenario::Scenario;
use crate::scenario::validate::SideInfo;
use image::RgbImage;
use std::path::{Path, PathBuf};

/// Colours a colour-blind viewer tells apart (Okabe and Ito): the bars, and the result that
/// happened in the titles' gold; the panels' fill and text as the titles'.
const BAR: [u8; 3] = [86, 180, 233];

/// A combat counts as an upset when a result as good for the side that got it had at most this
/// chance.
pub const UPSET_AT_MOST: Fraction = Fraction { num: 1, den: 4 };

/// What to draw.
#[derive(Clone, Debug)]
pub struct Request {
    pub dir: PathBuf,
    /// Picture width in pixels.
    pub width: u32,
    /// The most upset combats to draw.
    pub upsets: usize,
    /// The pictures' shape: the whole map, or 16:9 or 1:1 framed on each picture's action.
    pub aspect: Aspect,
}

/// The upsets worth a picture: at most `n`, biggest first, each with at most `UPSET_AT_MOST`.
pub fn upsets_to_show(moments: &Moments, n: usize) -> Vec<&CombatMoment> {
    moments
        .biggest_upsets()
        .into_iter()
        .filter(|c| less_likely(c.upset, UPSET_AT_MOST).is_le())
        .take(n)
        .collect()
}

/// Writes every picture into `req.dir` (made if missing), calling `done` with each file as it is
/// written; returns the files.
pub fn write_all(
    s: &Scenario,
    moments: &Moments,
    req: &Request,
    mut done: impl FnMut(&Path),
) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(&req.dir).map_err(|e| format!("{}: cannot make the folder: {e}", req.dir.display()))?;
    let pen = Pen::new();
    let mut files = Vec::new();
    let mut save = |img: RgbImage, name: String| -> Result<(), String> {
        let path = req.dir.join(name);
        img.save(&path)
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        done(&path);
        files.push(path);
        Ok(())
    };
    if !moments.turn_ends.is_empty() {
        save(title_picture(s, moments, req, &pen), "00-title.png".to_string())?;
    }
    let start = start_units(s);
    for (i, end) in moments.turn_ends.iter().enumerate() {
        let name = if end.over {
            format!("turn-{:02}-game-over.png", end.turn)
        } else {
            format!("turn-{:02}.png", end.turn)
        };
        let before = if i == 0 {
            &start
        } else {
            &moments.turn_ends[i - 1].units
        };
        let action = turn_action(s, before, end);
        save(turn_picture(s, end, (req.width, req.aspect), &action, &pen), name)?;
    }
    for (rank, c) in upsets_to_show(moments, req.upsets).into_iter().enumerate() {
        let name = format!("upset-{}-turn-{:02}-{}.png", rank + 1, c.turn, c.target);
        save(upset_picture(s, c, rank + 1, (req.width, req.aspect), &pen), name)?;
    }
    Ok(files)
}

/// The units on the map at the start, as the moments list them.
pub fn start_units(s: &Scenario) -> Vec<UnitAt> {
    crate::art::picture::start_tokens(s)
        .into_iter()
        .map(|t| UnitAt {
            id: t.id,
            cell: t.cell,
            side: t.side,
            steps: t.remaining as u32,
            values: t.values,
        })
        .collect()
}

/// What a turn's picture frames: the cells where something happened since `before`, and at the
/// game's end its objectives too (where it was decided).
pub fn turn_action(s: &Scenario, before: &[UnitAt], end: &TurnEnd) -> Vec<crate::rules::grid::Cell> {
    let mut cells = changed_cells(before, &end.units);
    if end.over {
        cells.extend(s.objectives.iter().map(|o| o.cell));
        cells.sort_by_key(|c| (c.row, c.col));
        cells.dedup();
    }
    cells
}

/// Where something happened between two boards: the cells a unit left or reached, and those of
/// units that lost steps or were eliminated.
pub fn changed_cells(before: &[UnitAt], after: &[UnitAt]) -> Vec<crate::rules::grid::Cell> {
    let mut cells = Vec::new();
    for b in before {
        match after.iter().find(|a| a.id == b.id) {
            Some(a) if a.cell == b.cell && a.steps == b.steps => {}
            Some(a) => cells.extend([b.cell, a.cell]),
            None => cells.push(b.cell),
        }
    }
    // Reinforcements arrived.
    cells.extend(
        after
            .iter()
            .filter(|a| before.iter().all(|b| b.id != a.id))
            .map(|a| a.cell),
    );
    cells.sort_by_key(|c| (c.row, c.col));
    cells.dedup();
    cells
}

/// The board with these units as counters (the window's art: symbol, size mark, values, stacks
/// offset) in `frame` of the map, and where cells landed.
fn board(s: &Scenario, units: &[UnitAt], width: u32, frame: Frame) -> (RgbImage, crate::art::picture::Placement) {
    let tokens: Vec<Token> = units
        .iter()
        .map(|u| Token {
            id: u.id.clone(),
            cell: u.cell,
            side: u.side,
            remaining: u.steps as usize,
            values: u.values.clone(),
        })
        .collect();
    render_frame(s, frame, width, Some(&tokens))
}

/// The card that opens the set: the board at the game's last turn end (framed on the whole
/// map), the scenario's name and setting, the sides, how far the game went and how it ended.
pub fn title_picture(s: &Scenario, moments: &Moments, req: &Request, pen: &Pen) -> RgbImage {
    use crate::art::title::{Title, card};
    let last = moments.turn_ends.last();
    let units = last.map_or_else(|| start_units(s), |e| e.units.clone());
    let map_h = req.aspect.height(req.width, crate::art::picture::aspect(s));
    let frame = frame_for(s, &[], req.aspect, (req.width, map_h));
    let (map, _) = board(s, &units, req.width, frame);
    let turns = last.map_or(0, |e| e.turn);
    let line = format!(
        "{} · {turns} of {} turns played · {} combats",
        s.raw.setting,
        s.raw.turns,
        moments.combats.len()
    );
    let verdict = last.and_then(|e| e.verdict.clone());
    card(map, pen, &Title::of(s, line), &s.raw.description, verdict.as_deref())
}

/// `German 12 · Soviet 8` with each side's colour swatch; returns the width used.
fn score_line(img: &mut RgbImage, pen: &Pen, s: &Scenario, points: &[u32], (x, y): (f32, f32), size: f32) -> f32 {
    let sides: Vec<(String, [u8; 3])> = s
        .sides
        .iter()
        .enumerate()
        .map(|(i, side)| {
            (
                format!("{} {}", side.name, points.get(i).copied().unwrap_or(0)),
                side.color,
            )
        })
        .collect();
    crate::art::title::swatches(img, pen, &sides, (x, y, size), true)
}

/// A turn picture's line height and band height (a third line for the verdict at the game's end).
fn turn_band(width: u32, end: &TurnEnd) -> (f32, u32) {
    let line = (width as f32 / 1600.0 * 84.0).max(56.0);
    let band = if end.verdict.is_some() { line * 1.4 } else { line };
    (line, band as u32)
}

/// The part of the map a turn picture `width` wide at `aspect` shows: the whole map, or at 16:9
/// or 1:1 the cells of `action` with their neighbours, at the shape left under the band.
pub fn turn_frame(
    s: &Scenario,
    end: &TurnEnd,
    (width, aspect): (u32, Aspect),
    action: &[crate::rules::grid::Cell],
) -> Frame {
    let band = turn_band(width, end).1;
    let total_h = aspect.height(width, crate::art::picture::aspect(s));
    frame_for(s, action, aspect, (width, total_h.saturating_sub(band)))
}

/// The board at a turn's end under a band with the scenario, the turn and the score; at 16:9 or
/// 1:1 the map framed on `action` (the cells where something happened that turn).
pub fn turn_picture(
    s: &Scenario,
    end: &TurnEnd,
    (width, aspect): (u32, Aspect),
    action: &[crate::rules::grid::Cell],
    pen: &Pen,
) -> RgbImage {
    let (line, band) = turn_band(width, end);
    let size = line * 0.36;
    let total_h = aspect.height(width, crate::art::picture::aspect(s));
    let (map, _) = board(s, &end.units, width, turn_frame(s, end, (width, aspect), action));
    let height = match aspect {
        Aspect::Map => map.height() + band,
        _ => total_h,
    };
    let mut img = RgbImage::from_pixel(map.width(), height, image::Rgb(PANEL));
    image::imageops::replace(&mut img, &map, 0, i64::from(band));
    let title = if end.over {
        format!("{} — game over on turn {}", s.raw.name, end.turn)
    } else {
        format!("{} — end of turn {} of {}", s.raw.name, end.turn, s.raw.turns)
    };
    pen.write(&mut img, (size * 0.7, size * 0.25), size, INK, &title, true);
    if let Some(verdict) = &end.verdict {
        // The game's end says who won, on a line of its own.
        pen.write(&mut img, (size * 0.7, size * 2.55), size * 0.8, HAPPENED, verdict, true);
    }
    pen.write(
        &mut img,
        (size * 0.7, size * 1.55),
        size * 0.7,
        DIM,
        "objective points:",
        false,
    );
    let label = pen.width("objective points:", size * 0.7) + size;
    score_line(
        &mut img,
        pen,
        s,
        &end.points,
        (size * 0.7 + label, size * 1.45),
        size * 0.8,
    );
    img
}

/// An upset picture's map and overlay widths for a picture `width` wide: the overlay a little over
/// a third (at least 420 pixels, so its type reads); at 16:9 or 1:1 the two add up to `width`
/// exactly, the overlay no more than half of a narrow picture.
pub fn upset_split(width: u32, aspect: Aspect) -> (u32, u32) {
    let panel = (width as f32 * 0.36).max(420.0) as u32;
    match aspect {
        Aspect::Map => (width.saturating_sub(panel).max(200), panel),
        _ => {
            let panel = panel.min(width / 2);
            (width - panel, panel)
        }
    }
}

/// The board before the combat with its cell ringed, beside the overlay: the odds as bars, the
/// result that happened lit, the dice, the losses and every modifier in words.
pub fn upset_picture(
    s: &Scenario,
    c: &CombatMoment,
    rank: usize,
    (width, aspect): (u32, Aspect),
    pen: &Pen,
) -> RgbImage {
    let (map_w, panel_w) = upset_split(width, aspect);
    // The board just before the dice: the attackers ringed in blue, their target in orange.
    let mut cells = c.attacker_cells.clone();
    cells.push(c.target);
    let fixed_h = aspect.ratio().map(|r| ((map_w + panel_w) as f32 / r).round() as u32);
    let frame = frame_for(s, &cells, aspect, (map_w, fixed_h.unwrap_or(1)));
    let (mut map, at) = board(s, &c.board, map_w, frame);
    let width_of_ring = (at.inner() * 0.16).max(2.0);
    for from in &c.attacker_cells {
        ring(&mut map, at.center(*from), at.inner() * 0.95, width_of_ring, BAR);
    }
    ring(
        &mut map,
        at.center(c.target),
        at.inner() * 1.05,
        width_of_ring * 1.4,
        HAPPENED,
    );
    let wanted = (panel_w as f32 * 1.9) as u32;
    let height = fixed_h.unwrap_or_else(|| map.height().max(wanted));
    let mut img = RgbImage::from_pixel(map_w + panel_w, height, image::Rgb(PANEL));
    image::imageops::replace(&mut img, &map, 0, (i64::from(height) - i64::from(map.height())) / 2);
    // A frame lower than the overlay wants: its type smaller, so every line still fits.
    let type_scale = (height as f32 / wanted as f32).min(1.0);
    let colour_of = |name: &str| SideInfo::colour_named(&s.sides, name);
    let sides = (colour_of(&c.attacker_side), colour_of(&c.defender_side));
    overlay(
        &mut img,
        pen,
        (c, sides),
        rank,
        (map_w as f32, panel_w as f32, type_scale),
    );
    img
}

/// The overlay in the panel from `x`, `w` wide, its type scaled by `type_scale`.
fn overlay(
    img: &mut RgbImage,
    pen: &Pen,
    (c, sides): (&CombatMoment, ([u8; 3], [u8; 3])),
    rank: usize,
    (x, w, type_scale): (f32, f32, f32),
) {
    let pad = w * 0.06;
    let (left, inner) = (x + pad, w - 2.0 * pad);
    let big = w / 16.0 * type_scale;
    let mut y = pad;
    pen.write(img, (left, y), big, HAPPENED, &format!("UPSET #{rank}"), true);
    y += big * 1.4;
    let small = big * 0.55;
    let line = format!("Turn {} · {} attack on {}", c.turn, c.attacker_side, c.target);
    pen.write(img, (left, y), small * 1.2, INK, &line, true);
    y += small * 1.8;
    y += pen.write_wrapped(img, (left, y), small, DIM, &c.attackers.join(", "), inner);
    pen.write(img, (left, y), small, INK, "against", false);
    y += small * 1.3;
    y += pen.write_wrapped(img, (left, y), small, DIM, &c.defenders.join(", "), inner) + small * 0.6;
    let odds = match &c.column {
        Some(col) => format!("Odds {} · column {col}", c.ratio),
        None => format!("Odds {}", c.ratio),
    };
    pen.write(img, (left, y), small * 1.1, INK, &odds, true);
    y += small * 1.8;
    y = bars(img, pen, c, sides, (left, y), inner, small) + small * 0.6;
    let e = &c.expected;
    let expected = format!(
        "Expected: attacker −{:.1} steps, defender −{:.1}; cell taken {:.0}%",
        e.expected_attacker_steps,
        e.expected_defender_steps,
        e.p_cell_taken * 100.0
    );
    y += pen.write_wrapped(img, (left, y), small, DIM, &expected, inner);
    let dice: Vec<String> = c.dice.iter().map(u8::to_string).collect();
    let rolled = format!("The dice: {} → {}", dice.join(", "), c.result);
    pen.write(img, (left, y), small * 1.2, HAPPENED, &rolled, true);
    y += small * 1.7;
    y += pen.write_wrapped(img, (left, y), small, INK, &c.result_words, inner) + small * 0.4;
    let chance = format!(
        "A result this good for the {} had {} ({:.1}%).",
        c.beat_the_odds,
        chance_words(c.upset),
        c.upset.as_f64() * 100.0
    );
    y += pen.write_wrapped(img, (left, y), small * 1.15, HAPPENED, &chance, inner) + small * 0.5;
    if c.modifiers.is_empty() {
        pen.write(img, (left, y), small, DIM, "No modifiers.", false);
    } else {
        pen.write(img, (left, y), small, INK, "Modifiers:", true);
        y += small * 1.3;
        for m in &c.modifiers {
            y += pen.write_wrapped(img, (left, y), small * 0.9, DIM, &format!("• {m}"), inner);
        }
    }
}

/// The odds chart as the card draws it: a bar per result with its words inside, filled in the
/// colour of the side it favours, the table's code small after the words, the share beside; the
/// one that happened outlined in gold; a key to the colours under it. Returns the y below.
fn bars(
    img: &mut RgbImage,
    pen: &Pen,
    c: &CombatMoment,
    sides: ([u8; 3], [u8; 3]),
    (x, mut y): (f32, f32),
    w: f32,
    size: f32,
) -> f32 {
    let most = c.bars.iter().map(|b| b.exact.as_f64()).fold(0.0, f64::max).max(1e-9);
    let (track_w, row_h) = (w - size * 4.0, size * 1.45);
    let fill_of = |gain: i64| match gain.signum() {
        1 => bar_tone(sides.0),
        -1 => bar_tone(sides.1),
        _ => [70, 70, 70],
    };
    let shown = shown_bars(c, BARS_SHOWN);
    for b in &shown {
        let p = b.exact.as_f64();
        let h = row_h * 0.88;
        fill(img, (x as i64, y as i64, track_w as i64, h as i64), TRACK, 1.0);
        let len = ((p / most) as f32 * track_w).max(3.0);
        fill(img, (x as i64, y as i64, len as i64, h as i64), fill_of(b.gain), 1.0);
        if b.happened {
            outline(img, (x, y, track_w, h), (size * 0.14).max(2.0), HAPPENED);
        }
        // The words inside the track, smaller when long (never cut); the code after them where
        // it fits.
        let room = track_w - size * 0.8;
        let ws = size * (room / pen.width(&b.words, size).max(1.0)).min(1.0);
        let at = (x + size * 0.4, y + (h - ws * 1.15) / 2.0);
        pen.write(img, at, ws, INK, &b.words, b.happened);
        let (code_size, words_w) = (size * 0.7, pen.width(&b.words, ws));
        if words_w + size * 0.5 + pen.width(&b.label, code_size) <= room {
            let code_at = (at.0 + words_w + size * 0.5, y + (h - code_size * 1.15) / 2.0);
            pen.write(img, code_at, code_size, DIM, &b.label, false);
        }
        let share = format!("{:.1}%", p * 100.0);
        let ink = if b.happened { HAPPENED } else { INK };
        pen.write(
            img,
            (x + track_w + size * 0.3, at.1),
            size * 0.9,
            ink,
            &share,
            b.happened,
        );
        y += row_h;
    }
    if c.bars.len() > BARS_SHOWN {
        let left_out = c.bars.iter().filter(|b| !shown.iter().any(|s| std::ptr::eq(*s, *b)));
        let rest: f64 = left_out.map(|b| b.exact.as_f64()).sum();
        let line = format!(
            "… and {} rarer results ({:.1}% together)",
            c.bars.len() - BARS_SHOWN,
            rest * 100.0
        );
        pen.write(img, (x, y), size * 0.8, DIM, &line, false);
        y += size * 1.3;
    }
    let mut kx = x;
    for (colour, words) in [(sides.0, "good for the attacker"), (sides.1, "good for the defender")] {
        fill(
            img,
            (
                kx as i64,
                (y + size * 0.15) as i64,
                (size * 0.75) as i64,
                (size * 0.75) as i64,
            ),
            bar_tone(colour),
            1.0,
        );
        kx += size * 1.0;
        pen.write(img, (kx, y), size * 0.8, DIM, words, false);
        kx += pen.width(words, size * 0.8) + size * 1.2;
    }
    y + size * 1.3
}

/// How many results the chart shows; the rest are summed in a line.
const BARS_SHOWN: usize = 8;
/// The bars' empty track on the panel.
const TRACK: [u8; 3] = [44, 46, 52];

/// The first `n` bars, the one that happened always among them (in the last place when it would
/// not have been).
fn shown_bars(c: &CombatMoment, n: usize) -> Vec<&super::moments::Bar> {
    let mut shown: Vec<_> = c.bars.iter().take(n).collect();
    if let Some(h) = c.bars.iter().skip(n).find(|b| b.happened) {
        shown.pop();
        shown.push(h);
    }
    shown
}

/// A rectangle's outline, `width` pixels inside it.
fn outline(img: &mut RgbImage, (x, y, w, h): (f32, f32, f32, f32), width: f32, color: [u8; 3]) {
    let (x, y, w, h, t) = (x as i64, y as i64, w as i64, h as i64, width.round().max(1.0) as i64);
    for r in [(x, y, w, t), (x, y + h - t, w, t), (x, y, t, h), (x + w - t, y, t, h)] {
        fill(img, r, color, 1.0);
    }
}
