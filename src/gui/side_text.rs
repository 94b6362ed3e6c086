//! A side's colour where the panels write with it (names in the top bar, the score, the log, the
//! end dialog, the victory card): lightened toward white until it reads on the dark panels at
//! 4.5:1 or more, so a dark side colour (dark green, navy) keeps its hue and stays legible.

use bevy_egui::egui;

/// The lightest panel fill text in a side's colour sits on (egui's dark panels); the victory
/// card and presentation panels are darker still.
const PANEL: [u8; 3] = [27, 27, 27];

/// `color` as text on the dark panels.
pub fn side_text_color(color: [u8; 3]) -> egui::Color32 {
    let mut c = color;
    for _ in 0..40 {
        if crate::art::contrast(c, PANEL) >= 4.5 {
            break;
        }
        c = crate::art::mixed(c, [255, 255, 255], 0.08);
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
                let t = side_text_color(side.color);
                let text = [t.r(), t.g(), t.b()];
                for panel in [PANEL, [14, 16, 20]] {
                    let ratio = crate::art::contrast(text, panel);
                    assert!(ratio >= 4.5, "{}: {} at {ratio:.2}", s.raw.name, side.name);
                }
                // Still its colour, not white: its strongest channel stays its strongest.
                let strongest = |c: [u8; 3]| (0..3).max_by_key(|&k| c[k]).unwrap();
                assert_eq!(strongest(text), strongest(side.color), "{}", side.name);
                checked += 1;
            }
        }
        assert!(checked >= 14, "{checked}");
        // The dark green the Americans wear read at about 2:1 before.
        assert!(crate::art::contrast([0x36, 0x5a, 0x36], PANEL) < 3.0);
        // A light colour is left as it is.
        assert_eq!(side_text_color([250, 250, 200]), egui::Color32::from_rgb(250, 250, 200));
    }
}
