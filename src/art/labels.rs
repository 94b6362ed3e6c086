//! Where a label goes: of a few spots around its cell, the one that covers the least of what is
//! already there (counters, names placed before it). Pure geometry on rectangles, shared by the
//! pictures (pixels, y down) and the window (world units, y up).

/// A rectangle: its lesser x and y, then its greater x and y.
pub type Rect = [f32; 4];

/// The area two rectangles share.
pub fn overlap(a: &Rect, b: &Rect) -> f32 {
    let w = (a[2].min(b[2]) - a[0].max(b[0])).max(0.0);
    let h = (a[3].min(b[3]) - a[1].max(b[1])).max(0.0);
    w * h
}

/// How much of `taken` a rectangle covers.
pub fn covered(r: &Rect, taken: &[Rect]) -> f32 {
    taken.iter().map(|t| overlap(r, t)).sum()
}

/// The candidate (by index) covering the least of `taken`; the first of those within half a unit
/// of the least, so the preferred spot wins a tie. 0 when there are no candidates.
pub fn least_covered(candidates: &[Rect], taken: &[Rect]) -> usize {
    let mut best = 0;
    let mut least = f32::MAX;
    for (i, c) in candidates.iter().enumerate() {
        let k = covered(c, taken);
        if k < least - 0.5 {
            (best, least) = (i, k);
        }
    }
    best
}

/// The rectangle `w` by `h` centred on `(x, y)`.
pub fn centred((x, y): (f32, f32), (w, h): (f32, f32)) -> Rect {
    [x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_covered_spot_wins_and_the_first_breaks_a_tie() {
        let counter = [0.0, 0.0, 10.0, 10.0];
        assert_eq!(overlap(&counter, &[5.0, 5.0, 20.0, 20.0]), 25.0);
        assert_eq!(overlap(&counter, &[11.0, 0.0, 20.0, 10.0]), 0.0);
        let spots = [[2.0, 2.0, 8.0, 4.0], [2.0, 12.0, 8.0, 14.0], [12.0, 2.0, 18.0, 4.0]];
        // On the counter, then two free spots: the first free one.
        assert_eq!(least_covered(&spots, &[counter]), 1);
        // Nothing taken: the first.
        assert_eq!(least_covered(&spots, &[]), 0);
        assert_eq!(least_covered(&[], &[counter]), 0);
        assert_eq!(centred((5.0, 5.0), (4.0, 2.0)), [3.0, 4.0, 7.0, 6.0]);
        assert_eq!(covered(&[0.0, 0.0, 10.0, 10.0], &[counter, counter]), 200.0);
    }
}
