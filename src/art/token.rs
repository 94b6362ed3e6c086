//! A unit as a counter on the CPU: the `Token` a picture draws (which unit, where, its steps and
//! values) and one counter painted from it (face, formation band with designation and formation,
//! size mark, values), for the map's pictures and the start screen's counters.

use super::{counter, designation};
use crate::rules::grid::Cell;
use crate::scenario::Scenario;
use image::RgbImage;

/// A unit drawn on the picture: which one (its id in the scenario, for its class, size and
/// steps), where it stands, its steps left and its values line.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub id: String,
    pub cell: Cell,
    pub side: usize,
    pub remaining: usize,
    pub values: String,
}

/// The scenario's units on the map at the start.
pub fn start_tokens(s: &Scenario) -> Vec<Token> {
    s.units
        .iter()
        .filter(|u| u.arrives.is_none())
        .map(|u| token(s, u))
        .collect()
}

/// The token of the scenario's unit `id` where it starts; `None` when no unit has that id.
pub fn token_of(s: &Scenario, id: &str) -> Option<Token> {
    s.units.iter().find(|u| u.id == id).map(|u| token(s, u))
}

/// A unit as the scenario sets it up, as a token.
fn token(s: &Scenario, u: &crate::scenario::UnitSetup) -> Token {
    let full = s.ruleset.combat.counter_prints_defense();
    Token {
        id: u.id.clone(),
        cell: u.cell,
        side: u.side,
        remaining: u.steps.remaining(),
        values: crate::rules::units::values_line(u.steps.current(), u.movement, full),
    }
}

/// Paints `t`'s counter centred at `centre` (pixels), `half` pixels from its centre to its edge:
/// the face in its side's colour with its formation's band and its NATO symbol, then, when large
/// enough to read, its designation and formation on the band, its size mark and its values.
pub fn paint_counter(
    image: &mut RgbImage,
    s: &Scenario,
    t: &Token,
    centre: [f32; 2],
    half: f32,
    pen: &super::text::Pen,
) {
    let setup = s.units.iter().find(|u| u.id == t.id);
    let class = setup.map_or(crate::rules::units::UnitClass::Infantry, |u| u.class);
    let total = setup.map_or(1, |u| u.steps.total());
    let side = s.sides.get(t.side);
    let colour = side.map_or([128; 3], |x| x.color);
    let element = setup.and_then(|u| u.element.as_deref());
    let band = side.and_then(|x| designation::band_color(&x.formations, element));
    for shape in counter::face(colour, class, (total, t.remaining), band, true) {
        super::raster::paint(image, &shape.placed(centre, half, true));
    }
    if half * counter::VALUES_SIZE < 6.0 {
        return;
    }
    // Text centred on `x` (or starting there, or ending there) at height `y`.
    let write = |image: &mut RgbImage, text: &str, (x, align): (f32, f32), y: f32, size: f32| {
        let size = size * half;
        let w = pen.width(text, size);
        let left = centre[0] + x * half - w * align;
        pen.write(
            image,
            (left, centre[1] - y * half - size * 0.62),
            size,
            counter::INK,
            text,
            false,
        );
    };
    if let Some(u) = setup {
        let (y, size) = (counter::BAND_TEXT_Y, counter::BAND_TEXT_SIZE);
        let (own, formation) = designation::band_texts(&u.name, element);
        write(image, &own, (counter::BAND_TEXT_LEFT, 0.0), y, size);
        write(image, &formation, (counter::BAND_TEXT_RIGHT, 1.0), y, size);
        let mark = u.size.mark();
        write(image, mark, (0.0, 0.5), counter::SIZE_MARK_Y, counter::SIZE_MARK_SIZE);
    }
    write(image, &t.values, (0.0, 0.5), counter::VALUES_Y, counter::VALUES_SIZE);
}

/// The counter of the scenario's unit `id` alone, `px` pixels square, on `background` (the
/// start screen shows each side's counters so).
pub fn counter_image(s: &Scenario, id: &str, px: u32, background: [u8; 3]) -> Option<RgbImage> {
    let t = token_of(s, id)?;
    let px = px.max(8);
    let mut image = RgbImage::from_pixel(px, px, image::Rgb(background));
    // Room for the shadow below right.
    let half = px as f32 * 0.44;
    let centre = [px as f32 * 0.48, px as f32 * 0.48];
    paint_counter(&mut image, s, &t, centre, half, &super::text::Pen::counter_face());
    Some(image)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_alone_shows_its_side_its_band_and_its_ink() {
        let s = crate::scenario::default_scenario().unwrap();
        let mut checked = 0;
        for u in &s.units {
            let img = counter_image(&s, &u.id, 96, [30, 30, 30]).unwrap();
            let has = |c: [u8; 3]| img.pixels().any(|p| p.0 == c);
            let side = &s.sides[u.side];
            assert!(has(side.color), "{}: its side's frame", u.id);
            let band = designation::band_color(&side.formations, u.element.as_deref());
            if let Some(band) = band {
                assert!(has(band), "{}: its formation's band", u.id);
            }
            let ink = img.pixels().filter(|p| p.0 == counter::INK).count();
            assert!(ink > 40, "{}: {ink} pixels of ink", u.id);
            checked += 1;
        }
        assert!(checked >= 20, "{checked}");
        assert!(counter_image(&s, "no-such-unit", 96, [0; 3]).is_none());
    }
}
