//! A side's colour where the panels write with it (names in the top bar, the score, the log, the
//! end dialog, the victory card): lightened toward white on a dark panel (darkened toward black
//! on a light one) until it reads at 4.5:1 or more, so a dark side colour (dark green, navy)
//! keeps its hue and stays legible in either theme.

use bevy_egui::egui;

/// egui's dark panels, the lightest dark fill text in a side's colour sits on (the victory card
/// and presentation panels are darker still).
#[cfg(test)]
const PANEL: [u8; 3] = [27, 27, 27];

/// `color` as text on a panel filled `on`.
pub fn side_text_color(color: [u8; 3], on: egui::Color32) -> egui::Color32 {
    let bg = [on.r(), on.g(), on.b()];
    let toward = if crate::art::luminance(bg) < 0.2 {
        [255; 3]
    } else {
        [0; 3]
    };
    let mut c = color;
    for _ in 0..40 {
        if crate::art::contrast(c, bg) >= 4.5 {
            break;
        }
        c = crate::art::mixed(c, toward, 0.08);
    }
    egui::Color32::from_rgb(c[0], c[1], c[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_side_writes_legibly_on_the_panels_and_keeps_its_hue() {
        let mut checked = 0;
        for i in 0..crate::scenario::SHIPPED.len() {
            let s = crate::scenario::shipped_scenario(i).unwrap();
            for side in &s.sides {
                // On the dark panels, the presentation's darker ones, and the light theme's.
                for panel in [PANEL, [14, 16, 20], [248, 248, 248]] {
                    let on = egui::Color32::from_rgb(panel[0], panel[1], panel[2]);
                    let t = side_text_color(side.color, on);
                    let text = [t.r(), t.g(), t.b()];
                    let ratio = crate::art::contrast(text, panel);
                    assert!(ratio >= 4.5, "{}: {} at {ratio:.2} on {panel:?}", s.raw.name, side.name);
                    // Still its colour, not white or black: its strongest channel stays so.
                    let strongest = |c: [u8; 3]| (0..3).max_by_key(|&k| c[k]).unwrap();
                    assert_eq!(strongest(text), strongest(side.color), "{}", side.name);
                    checked += 1;
                }
            }
        }
        assert!(checked >= 42, "{checked}");
        // The dark green the Americans wear read at about 2:1 before.
        assert!(crate::art::contrast([0x36, 0x5a, 0x36], PANEL) < 3.0);
        // A light colour is left as it is.
        let dark = egui::Color32::from_rgb(27, 27, 27);
        assert_eq!(
            side_text_color([250, 250, 200], dark),
            egui::Color32::from_rgb(250, 250, 200)
        );
    }
}
