//! Text and simple shapes drawn into a picture without a window (the highlights' captions, bars
//! and panels), in the client's own fonts: Ubuntu Light, with Hack for what it lacks; place names
//! in the map face, DejaVu Serif Condensed, and a counter's words in the counter face, DejaVu
//! Sans Condensed Bold (both from Debian's `fonts-dejavu-extra`, their licence beside them in
//! `assets/fonts/`).

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use image::{Rgb, RgbImage};

/// The fonts, parsed once per picture set.
pub struct Pen {
    main: FontRef<'static>,
    fallback: FontRef<'static>,
}

impl Default for Pen {
    fn default() -> Self {
        Self::new()
    }
}

/// The map face: place names on the board and in the pictures, a proportional serif narrow
/// enough for long names (St-Hilaire-du-Harcouët), with every Latin letter the scenarios use.
pub const MAP_FACE: &[u8] = include_bytes!("../../assets/fonts/DejaVuSerifCondensed.ttf");

/// The counter face: a counter's designation, size mark and values, narrow and bold so they read
/// at 8 pixels (a plain zero, not Hack's slashed one that reads as an 8).
pub const COUNTER_FACE: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed-Bold.ttf");

impl Pen {
    pub fn new() -> Self {
        Self::with(epaint_default_fonts::UBUNTU_LIGHT)
    }

    /// A pen writing in the map face (place names), Hack for what it lacks.
    pub fn map_face() -> Self {
        Self::with(MAP_FACE)
    }

    /// A pen writing in the counter face (a counter's words), Hack for what it lacks.
    pub fn counter_face() -> Self {
        Self::with(COUNTER_FACE)
    }

    fn with(main: &'static [u8]) -> Self {
        // Fonts built into the program: they parse, or the build itself is broken.
        let parse = |bytes: &'static [u8]| FontRef::try_from_slice(bytes).expect("the built-in fonts parse");
        Self {
            main: parse(main),
            fallback: parse(epaint_default_fonts::HACK_REGULAR),
        }
    }

    /// The font that has `c`.
    fn font_for(&self, c: char) -> &FontRef<'static> {
        if self.main.glyph_id(c).0 != 0 {
            &self.main
        } else {
            &self.fallback
        }
    }

    /// How wide `text` is at `size` pixels.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        text.chars()
            .map(|c| {
                self.font_for(c)
                    .as_scaled(PxScale::from(size))
                    .h_advance(self.font_for(c).glyph_id(c))
            })
            .sum()
    }

    /// Draws `text` with its top-left at (`x`, `y`), `size` pixels tall; returns the width drawn.
    /// `bold` draws it twice, a pixel apart (the fonts have no bold face).
    pub fn write(
        &self,
        img: &mut RgbImage,
        (x, y): (f32, f32),
        size: f32,
        color: [u8; 3],
        text: &str,
        bold: bool,
    ) -> f32 {
        let scale = PxScale::from(size);
        let mut caret = x;
        for c in text.chars() {
            let font = self.font_for(c);
            let scaled = font.as_scaled(scale);
            let id = font.glyph_id(c);
            for dx in if bold { &[0.0, 0.7][..] } else { &[0.0][..] } {
                let glyph = id.with_scale_and_position(scale, point(caret + dx, y + scaled.ascent()));
                if let Some(outline) = font.outline_glyph(glyph) {
                    let b = outline.px_bounds();
                    outline.draw(|gx, gy, cover| {
                        let (px, py) = (b.min.x as i64 + i64::from(gx), b.min.y as i64 + i64::from(gy));
                        blend(img, px, py, color, cover);
                    });
                }
            }
            caret += scaled.h_advance(id);
        }
        caret - x
    }

    /// `text` broken at spaces into lines at most `max_width` wide at `size` (a word wider than
    /// that on a line of its own).
    pub fn lines(&self, text: &str, size: f32, max_width: f32) -> Vec<String> {
        let mut out = Vec::new();
        let mut line = String::new();
        for word in text.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if self.width(&candidate, size) > max_width && !line.is_empty() {
                out.push(std::mem::replace(&mut line, word.to_string()));
            } else {
                line = candidate;
            }
        }
        if !line.is_empty() {
            out.push(line);
        }
        out
    }

    /// Writes `text` wrapped to `max_width`; returns the height used.
    pub fn write_wrapped(
        &self,
        img: &mut RgbImage,
        (x, y): (f32, f32),
        size: f32,
        color: [u8; 3],
        text: &str,
        max_width: f32,
    ) -> f32 {
        let mut top = y;
        for line in self.lines(text, size, max_width) {
            self.write(img, (x, top), size, color, &line, false);
            top += size * 1.25;
        }
        top - y
    }
}

/// Mixes `color` into the pixel at (`x`, `y`) by `alpha` (0..1); outside the picture: nothing.
pub fn blend(img: &mut RgbImage, x: i64, y: i64, color: [u8; 3], alpha: f32) {
    if x < 0 || y < 0 || x >= i64::from(img.width()) || y >= i64::from(img.height()) {
        return;
    }
    let a = alpha.clamp(0.0, 1.0);
    let p = img.get_pixel_mut(x as u32, y as u32);
    for (channel, to) in p.0.iter_mut().zip(color) {
        *channel = (f32::from(*channel) * (1.0 - a) + f32::from(to) * a).round() as u8;
    }
}

/// Fills a rectangle, mixed in by `alpha`.
pub fn fill(img: &mut RgbImage, (x, y, w, h): (i64, i64, i64, i64), color: [u8; 3], alpha: f32) {
    for py in y.max(0)..(y + h).min(i64::from(img.height())) {
        for px in x.max(0)..(x + w).min(i64::from(img.width())) {
            if alpha >= 1.0 {
                img.put_pixel(px as u32, py as u32, Rgb(color));
            } else {
                blend(img, px, py, color, alpha);
            }
        }
    }
}

/// A ring of `width` pixels around (`cx`, `cy`).
pub fn ring(img: &mut RgbImage, (cx, cy): (f32, f32), radius: f32, width: f32, color: [u8; 3]) {
    let r = (radius + width).ceil() as i64;
    for dy in -r..=r {
        for dx in -r..=r {
            let d = ((dx * dx + dy * dy) as f32).sqrt();
            let cover = (width / 2.0 - (d - radius).abs() + 0.5).clamp(0.0, 1.0);
            if cover > 0.0 {
                blend(img, cx as i64 + dx, cy as i64 + dy, color, cover);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_face_has_every_letter_of_every_shipped_place_name() {
        let face = FontRef::try_from_slice(MAP_FACE).unwrap();
        let mut letters = 0;
        for i in 0..crate::scenario::SHIPPED.len() {
            let s = crate::scenario::shipped_scenario(i).unwrap();
            for name in s.places.values() {
                for c in name.chars().filter(|c| !c.is_whitespace()) {
                    assert_ne!(face.glyph_id(c).0, 0, "{name}: {c}");
                    letters += 1;
                }
            }
        }
        assert!(letters > 500, "{letters}");
        // Proportional: an i is narrower than an m (Hack, the board's old face, is not).
        let pen = Pen::map_face();
        assert!(pen.width("iiii", 20.0) < pen.width("mmmm", 20.0) * 0.6);
        // The counter face has every letter a shipped counter prints.
        let face = FontRef::try_from_slice(COUNTER_FACE).unwrap();
        for i in 0..crate::scenario::SHIPPED.len() {
            let s = crate::scenario::shipped_scenario(i).unwrap();
            for u in &s.units {
                let (own, formation) = crate::art::designation::band_texts(&u.name, u.element.as_deref());
                let words = format!("{own}{formation}{}0123456789-c", u.size.mark());
                for c in words.chars().filter(|c| !c.is_whitespace()) {
                    assert_ne!(face.glyph_id(c).0, 0, "{}: {c}", u.name);
                }
            }
        }
    }
}
