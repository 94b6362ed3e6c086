//! A picture's titles, drawn on the CPU: a band across the top (the title large, a line under
//! it, each side's colour and name on the right, the program's name small), and a title card
//! (the map dimmed under the scenario's name, its setting, the sides and how the game ended) that
//! opens a set of pictures to post.

use super::text::{Pen, fill};
use crate::scenario::Scenario;
use image::RgbImage;

/// The panels' colours: near-black, light text at ≥ 4.5:1 on it (a test checks), and gold.
pub const PANEL: [u8; 3] = [24, 26, 30];
pub const INK: [u8; 3] = [236, 236, 236];
pub const DIM: [u8; 3] = [170, 174, 182];
pub const GOLD: [u8; 3] = [230, 159, 0];

/// What a title says.
#[derive(Clone, Debug, PartialEq)]
pub struct Title {
    pub title: String,
    pub line: String,
    /// Each side's name and colour.
    pub sides: Vec<(String, [u8; 3])>,
}

impl Title {
    /// The scenario's name over `line`, with its sides.
    pub fn of(s: &Scenario, line: impl Into<String>) -> Title {
        Title {
            title: s.raw.name.clone(),
            line: line.into(),
            sides: s.sides.iter().map(|x| (x.name.clone(), x.color)).collect(),
        }
    }
}

/// A band's height for a picture `width` wide: readable on a phone when the picture is shared.
pub fn band_height(width: u32) -> u32 {
    ((width as f32 * 0.07).round() as u32).clamp(44, 220)
}

/// Each side as a colour swatch and its words (`bold` or not), from `x` at `y`; returns the
/// width used.
pub fn swatches(
    img: &mut RgbImage,
    pen: &Pen,
    sides: &[(String, [u8; 3])],
    (x, y, size): (f32, f32, f32),
    bold: bool,
) -> f32 {
    let mut at = x;
    for (words, color) in sides {
        let swatch = (at as i64, (y + size * 0.2) as i64, size as i64, size as i64);
        fill(img, swatch, *color, 1.0);
        at += size * 1.35;
        at += pen.write(img, (at, y), size, INK, words, bold) + size;
    }
    at - x
}

/// The band over the top `height` pixels of `img`: the title, the line under it, the sides on
/// the right when there is room, "Hexfront" small in the corner.
pub fn band(img: &mut RgbImage, pen: &Pen, height: u32, t: &Title) {
    let w = img.width() as f32;
    fill(img, (0, 0, i64::from(img.width()), i64::from(height)), PANEL, 1.0);
    let h = height as f32;
    let (big, small) = (h * 0.36, h * 0.22);
    let pad = h * 0.28;
    let title_w = pen.write(img, (pad, h * 0.1), big, INK, &t.title, true);
    let line_w = pen.write(img, (pad, h * 0.56), small, DIM, &t.line, false);
    let sides_w = {
        let mut probe = RgbImage::new(1, 1);
        swatches(&mut probe, pen, &t.sides, (0.0, 0.0, small), false)
    };
    let left_used = pad + title_w.max(line_w) + pad;
    if left_used + sides_w + pad <= w {
        swatches(img, pen, &t.sides, (w - sides_w - pad * 0.5, h * 0.56, small), false);
    }
    let mark = "Hexfront";
    let mark_w = pen.width(mark, small * 0.8);
    if left_used + mark_w + pad <= w {
        pen.write(img, (w - mark_w - pad, h * 0.14), small * 0.8, DIM, mark, false);
    }
}

/// `map` with a band of `band_h` pixels above it: a picture `map.width()` wide.
pub fn with_band(map: &RgbImage, pen: &Pen, band_h: u32, t: &Title) -> RgbImage {
    let mut img = RgbImage::from_pixel(map.width(), map.height() + band_h, image::Rgb(PANEL));
    image::imageops::replace(&mut img, map, 0, i64::from(band_h));
    band(&mut img, pen, band_h, t);
    img
}

/// Writes `text` wrapped to `max_width`, each line centred on `centre`, from `top`; returns the
/// height used.
fn centred_lines(
    img: &mut RgbImage,
    pen: &Pen,
    (centre, top): (f32, f32),
    (size, colour): (f32, [u8; 3]),
    text: &str,
    max_width: f32,
) -> f32 {
    let mut y = top;
    for line in pen.lines(text, size, max_width) {
        let w = pen.width(&line, size);
        pen.write(img, (centre - w / 2.0, y), size, colour, &line, false);
        y += size * 1.25;
    }
    y - top
}

/// The card that opens a set of pictures: `map` dimmed, and across its middle, each line
/// centred, the scenario's name, its setting (wrapped), the sides, the line, and how the game
/// ended in gold.
pub fn card(mut map: RgbImage, pen: &Pen, t: &Title, setting: &str, verdict: Option<&str>) -> RgbImage {
    let (w, h) = (map.width() as f32, map.height() as f32);
    fill(&mut map, (0, 0, w as i64, h as i64), PANEL, 0.62);
    let big = (w / 22.0).min(h / 9.0);
    let small = big * 0.42;
    let inner = w * 0.8;
    let mid = w / 2.0;
    // Drawn once on a scratch picture to measure it, so the block is centred down the card.
    let block = |img: &mut RgbImage, top: f32| -> f32 {
        let mut y = top;
        let title_w = pen.width(&t.title, big);
        if title_w <= inner {
            pen.write(img, (mid - title_w / 2.0, y), big, INK, &t.title, true);
            y += big * 1.45;
        } else {
            y += centred_lines(img, pen, (mid, y), (big * 0.8, INK), &t.title, inner) + big * 0.2;
        }
        if !setting.is_empty() {
            y += centred_lines(img, pen, (mid, y), (small, DIM), setting, inner) + small * 0.6;
        }
        let mut probe = RgbImage::new(1, 1);
        let sides_w = swatches(&mut probe, pen, &t.sides, (0.0, 0.0, small * 1.2), false);
        swatches(
            img,
            pen,
            &t.sides,
            ((w - sides_w).max(0.0) / 2.0, y, small * 1.2),
            false,
        );
        y += small * 2.2;
        if !t.line.is_empty() {
            y += centred_lines(img, pen, (mid, y), (small, DIM), &t.line, inner) + small * 0.6;
        }
        if let Some(v) = verdict {
            y += centred_lines(img, pen, (mid, y), (small * 1.3, GOLD), v, inner);
        }
        y - top
    };
    let mut scratch = RgbImage::new(map.width(), map.height());
    let height = block(&mut scratch, 0.0);
    let top = ((h - height) / 2.0).max(small);
    fill(
        &mut map,
        (0, (top - small * 1.5) as i64, w as i64, (height + small * 3.0) as i64),
        PANEL,
        0.75,
    );
    block(&mut map, top);
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_band_and_the_card_write_their_words_and_read() {
        for fg in [INK, DIM, GOLD] {
            assert!(super::super::contrast(fg, PANEL) >= 4.5, "{fg:?}");
        }
        let s = crate::scenario::default_scenario().unwrap();
        let pen = Pen::new();
        let t = Title::of(&s, "Turn 1 of 6");
        let map = RgbImage::from_pixel(960, 540, image::Rgb([200, 200, 160]));
        let banded = with_band(&map, &pen, band_height(960), &t);
        assert_eq!((banded.width(), banded.height()), (960, 540 + band_height(960)));
        // The band is dark with light writing; each side's swatch shows in its colour.
        let band_h = band_height(960);
        let light = (0..band_h)
            .flat_map(|y| (0..960).map(move |x| (x, y)))
            .filter(|&(x, y)| banded.get_pixel(x, y).0 == INK)
            .count();
        assert!(light > 200, "{light} pixels of the title's ink");
        for side in &s.sides {
            let shown = (0..band_h)
                .flat_map(|y| (0..960).map(move |x| (x, y)))
                .filter(|&(x, y)| banded.get_pixel(x, y).0 == side.color)
                .count();
            assert!(shown > 50, "{}: {shown}", side.name);
        }
        // The map under it is the map's.
        assert_eq!(banded.get_pixel(480, band_h + 10).0, [200, 200, 160]);
        let card = card(map, &pen, &t, &s.raw.description, Some("United States wins"));
        // The verdict's letters: gold or gold blended into the dark (the map under it is pale).
        let gold = card.pixels().filter(|p| p.0[0] > 120 && p.0[2] < 60).count();
        assert!(gold > 150, "{gold} gold pixels for the verdict");
        // Dimmed: the map's colour is gone from the card's corners.
        assert_ne!(card.get_pixel(2, 2).0, [200, 200, 160]);
        // Every word inside the card: nothing written in its outermost tenth, left or right.
        let edge = (0..card.height())
            .flat_map(|y| (0..96).chain(864..960).map(move |x| (x, y)))
            .filter(|&(x, y)| card.get_pixel(x, y).0 == INK || card.get_pixel(x, y).0 == GOLD)
            .count();
        assert_eq!(edge, 0, "text runs to the card's sides");
        let long = "Belorussia and western Russia, 10 July - 5 August 1941: Army Group Centre's drive on Smolensk · 6 of 6 turns played · 20 combats";
        let wrapped = pen.lines(long, 20.0, 400.0);
        assert!(
            wrapped.len() >= 3 && wrapped.iter().all(|l| pen.width(l, 20.0) <= 400.0),
            "{wrapped:?}"
        );
        assert_eq!(wrapped.join(" "), long);
    }
}
