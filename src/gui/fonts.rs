//! The fonts text is drawn in: Hack (Latin-1 and symbols) for board labels, and egui's fonts with
//! Hack as a fallback for the panels, so every character the game shows renders (no boxes).

use bevy::prelude::*;
use bevy_egui::egui;

/// The map face for place names on the board (`art::text::MAP_FACE`), and the counter face for
/// counters' words (`art::text::COUNTER_FACE`).
#[derive(Resource, Clone)]
pub struct MapFont(pub Handle<Font>);
#[derive(Resource, Clone)]
pub struct CounterFont(pub Handle<Font>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, (use_latin_font, load_map_face))
        .add_systems(bevy_egui::EguiPrimaryContextPass, fallbacks_in_every_font);
}

/// Puts Hack into Bevy's default font slot, so every board label can show accented names.
fn use_latin_font(mut fonts: ResMut<Assets<Font>>) {
    let hack = Font::from_bytes(epaint_default_fonts::HACK_REGULAR.to_vec());
    if let Err(e) = fonts.insert(&Handle::<Font>::default(), hack) {
        warn!("could not replace the default font ({e}); accented names may lose letters");
    }
}

/// Loads the map and counter faces once.
fn load_map_face(mut commands: Commands, mut fonts: ResMut<Assets<Font>>) {
    let face = Font::from_bytes(crate::art::text::MAP_FACE.to_vec());
    commands.insert_resource(MapFont(fonts.add(face)));
    let face = Font::from_bytes(crate::art::text::COUNTER_FACE.to_vec());
    commands.insert_resource(CounterFont(fonts.add(face)));
}

/// egui's fonts, with Hack after them for proportional text, so arrows (`0617→0618` in moves and
/// retreats) and other symbols the UI font lacks render instead of showing boxes.
pub fn ui_fonts() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::default();
    if let Some(list) = fonts.families.get_mut(&egui::FontFamily::Proportional) {
        list.push("Hack".into());
    }
    fonts
}

fn fallbacks_in_every_font(mut contexts: bevy_egui::EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    contexts.ctx_mut()?.set_fonts(ui_fonts());
    *done = true;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The characters other than ASCII in the string literals of `dir`'s Rust files (comments
    /// left out): what the game's messages, labels and buttons can show.
    fn characters_in_strings(dir: &Path, out: &mut BTreeSet<char>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                characters_in_strings(&path, out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                    for (i, part) in line.split('"').enumerate() {
                        if i % 2 == 1 {
                            out.extend(part.chars().filter(|c| !c.is_ascii()));
                        }
                    }
                }
            }
        }
    }

    fn u16_at(b: &[u8], at: usize) -> usize {
        b.get(at..at + 2)
            .map_or(0, |x| usize::from(u16::from_be_bytes([x[0], x[1]])))
    }

    fn u32_at(b: &[u8], at: usize) -> usize {
        b.get(at..at + 4)
            .map_or(0, |x| u32::from_be_bytes([x[0], x[1], x[2], x[3]]) as usize)
    }

    /// Whether a TrueType/OpenType font maps `c` to a glyph, read from its `cmap` table (formats
    /// 4 and 12, which every font egui ships uses). egui's own `has_glyph` cannot say: it answers
    /// "no" for every character of the face that also holds its replacement character.
    fn font_has(font: &[u8], c: char) -> bool {
        let code = c as usize;
        let cmap = (0..u16_at(font, 4))
            .map(|i| 12 + 16 * i)
            .find(|&r| font.get(r..r + 4) == Some(b"cmap"))
            .map(|r| u32_at(font, r + 8));
        let Some(cmap) = cmap else { return false };
        (0..u16_at(font, cmap + 2)).any(|i| {
            let sub = cmap + u32_at(font, cmap + 4 + 8 * i + 4);
            match u16_at(font, sub) {
                4 if code <= 0xFFFF => {
                    let segs = u16_at(font, sub + 6) / 2;
                    let ends = sub + 14;
                    let starts = ends + 2 * segs + 2;
                    let deltas = starts + 2 * segs;
                    let ranges = deltas + 2 * segs;
                    (0..segs).any(|k| {
                        let (start, end) = (u16_at(font, starts + 2 * k), u16_at(font, ends + 2 * k));
                        if code < start || code > end {
                            return false;
                        }
                        let delta = u16_at(font, deltas + 2 * k);
                        let range = u16_at(font, ranges + 2 * k);
                        let glyph = if range == 0 {
                            code
                        } else {
                            match u16_at(font, ranges + 2 * k + range + 2 * (code - start)) {
                                0 => return false,
                                g => g,
                            }
                        };
                        (glyph + delta) & 0xFFFF != 0
                    })
                }
                12 => (0..u32_at(font, sub + 12)).any(|g| {
                    let at = sub + 16 + 12 * g;
                    let (start, end) = (u32_at(font, at), u32_at(font, at + 4));
                    (start..=end).contains(&code) && u32_at(font, at + 8) + code - start != 0
                }),
                _ => false,
            }
        })
    }

    /// The characters of `chars` no font of `family` (egui's fallback chain) has.
    fn missing(fonts: &egui::FontDefinitions, family: &egui::FontFamily, chars: &BTreeSet<char>) -> String {
        let faces: Vec<&[u8]> = fonts.families[family]
            .iter()
            .map(|name| &*fonts.font_data[name].font)
            .collect();
        chars
            .iter()
            .filter(|c| !faces.iter().any(|f| font_has(f, **c)))
            .collect()
    }

    #[test]
    fn every_character_the_panels_show_is_in_their_fonts() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut chars = BTreeSet::new();
        characters_in_strings(&root.join("src"), &mut chars);
        // Names from the shipped scenarios and rulesets show in panels too.
        for (_, text) in crate::scenario::SHIPPED {
            chars.extend(text.chars().filter(|c| !c.is_ascii() && !c.is_whitespace()));
        }
        assert!(
            chars.contains(&'→') && chars.contains(&'ü'),
            "the scan found the arrow and umlauts"
        );
        let fonts = ui_fonts();
        for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
            let absent = missing(&fonts, &family, &chars);
            assert!(absent.is_empty(), "no glyph in the {family:?} fonts for: {absent}");
        }
    }

    #[test]
    fn every_name_on_the_board_is_in_hack() {
        // Board labels (place names, unit names, counter values) are drawn in Hack alone.
        let mut chars = BTreeSet::new();
        for (_, text) in crate::scenario::SHIPPED {
            chars.extend(text.chars().filter(|c| !c.is_ascii() && !c.is_whitespace()));
        }
        chars.extend(['a', 'Z', '0']);
        let hack = epaint_default_fonts::HACK_REGULAR;
        let absent: String = chars.iter().filter(|c| !font_has(hack, **c)).collect();
        assert!(absent.is_empty(), "no glyph in Hack for: {absent}");
        // And the check itself can say no.
        assert!(!font_has(hack, '\u{4E00}') && !font_has(hack, '\u{1F600}'));
    }
}
