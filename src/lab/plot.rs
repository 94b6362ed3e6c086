//! The lab's chart as a standalone SVG: each side's win rate (and the draws) as bars with their
//! 95% intervals, and the mean objective points each side holds at the end of each turn.

use super::tally::{Tally, wilson};
use std::fmt::Write as _;

const W: f64 = 900.0;
const H: f64 = 420.0;
const COLOURS: [&str; 4] = ["#b03a2e", "#2e6db0", "#7d7d7d", "#4a8a3a"];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart of a tally.
pub fn svg(t: &Tally) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="{W}" height="{H}" fill="#fbf8f1"/>"##);
    let seats: Vec<String> = t.sides.iter().zip(&t.seats).map(|(a, b)| format!("{a}: {b}")).collect();
    let _ = writeln!(
        s,
        r#"<text x="20" y="30" font-size="18" font-weight="bold">{}</text>"#,
        esc(&format!("{} — {} games, seed {}", t.scenario, t.games, t.seed))
    );
    let _ = writeln!(
        s,
        r##"<text x="20" y="50" font-size="12" fill="#444">{}</text>"##,
        esc(&seats.join(" · "))
    );
    bars(&mut s, t);
    lines(&mut s, t);
    s.push_str("</svg>\n");
    s
}

/// Left panel: win rates with intervals.
fn bars(s: &mut String, t: &Tally) {
    let (x0, y0, w, h) = (60.0, 80.0, 340.0, 280.0);
    axis(s, x0, y0, w, h, "win rate", 1.0, |v| format!("{:.0}%", v * 100.0));
    let mut items: Vec<(String, u64)> = t.sides.iter().cloned().zip(t.wins.iter().copied()).collect();
    items.push(("draws".into(), t.draws));
    let n = t.games.max(1) as f64;
    let slot = w / items.len() as f64;
    for (i, (name, wins)) in items.iter().enumerate() {
        let rate = *wins as f64 / n;
        let (lo, hi) = wilson(*wins as f64, n);
        let colour = if i + 1 == items.len() {
            COLOURS[2]
        } else {
            COLOURS[i % 2]
        };
        let bx = x0 + slot * i as f64 + slot * 0.2;
        let bw = slot * 0.6;
        let y = |v: f64| y0 + h - v * h;
        let _ = writeln!(
            s,
            r#"<rect x="{bx:.1}" y="{:.1}" width="{bw:.1}" height="{:.1}" fill="{colour}" opacity="0.85"><title>{}</title></rect>"#,
            y(rate),
            rate * h,
            esc(&format!(
                "{name}: {:.1}% (95% CI {:.1}–{:.1}%)",
                rate * 100.0,
                lo * 100.0,
                hi * 100.0
            ))
        );
        let cx = bx + bw / 2.0;
        let _ = writeln!(
            s,
            r##"<path d="M{cx:.1},{:.1}V{:.1}M{:.1},{:.1}h12M{:.1},{:.1}h12" stroke="#222" stroke-width="1.5" fill="none"/>"##,
            y(lo),
            y(hi),
            cx - 6.0,
            y(lo),
            cx - 6.0,
            y(hi)
        );
        let _ = writeln!(
            s,
            r#"<text x="{cx:.1}" y="{:.1}" font-size="12" text-anchor="middle">{:.1}%</text>"#,
            y(hi) - 6.0,
            rate * 100.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{cx:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text>"#,
            y0 + h + 18.0,
            esc(name)
        );
    }
}

/// Right panel: mean objective points by turn.
fn lines(s: &mut String, t: &Tally) {
    let (x0, y0, w, h) = (500.0, 80.0, 360.0, 280.0);
    let means = t.mean_points();
    let top = means.iter().flatten().fold(1.0_f64, |m, v| m.max(*v)).ceil();
    axis(s, x0, y0, w, h, "objective points held (mean)", top, |v| {
        format!("{v:.0}")
    });
    let turns = means.len().max(1);
    let x = |i: usize| {
        x0 + if turns == 1 {
            w / 2.0
        } else {
            w * i as f64 / (turns - 1) as f64
        }
    };
    let y = |v: f64| y0 + h - v / top * h;
    for (i, _) in means.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text>"#,
            x(i),
            y0 + h + 16.0,
            i + 1
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle">end of turn</text>"#,
        x0 + w / 2.0,
        y0 + h + 32.0
    );
    for (side, name) in t.sides.iter().enumerate() {
        let colour = COLOURS[side % 2];
        let points: Vec<String> = means
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.get(side).copied().unwrap_or(0.0))))
            .collect();
        let _ = writeln!(
            s,
            r#"<path d="M{}" fill="none" stroke="{colour}" stroke-width="2.5"/>"#,
            points.join(" L")
        );
        for (i, p) in means.iter().enumerate() {
            let v = p.get(side).copied().unwrap_or(0.0);
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{}</title></circle>"#,
                x(i),
                y(v),
                esc(&format!("{name}, turn {}: {v:.2}", i + 1))
            );
        }
        // The legend above the chart, a side a slot.
        let (lx, ly) = (x0 + 180.0 * side as f64, y0 - 12.0);
        let _ = writeln!(
            s,
            r#"<path d="M{lx:.1},{:.1}h18" stroke="{colour}" stroke-width="3"/><text x="{:.1}" y="{ly:.1}" font-size="12" fill="{colour}">{}</text>"#,
            ly - 4.0,
            lx + 24.0,
            esc(name)
        );
    }
}

fn axis(s: &mut String, x0: f64, y0: f64, w: f64, h: f64, label: &str, top: f64, tick: impl Fn(f64) -> String) {
    for i in 0..=4 {
        let v = top * f64::from(i) / 4.0;
        let y = y0 + h - h * f64::from(i) / 4.0;
        let _ = writeln!(
            s,
            r##"<path d="M{x0},{y:.1}h{w}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"##,
            x0 - 6.0,
            y + 4.0,
            tick(v)
        );
    }
    let _ = writeln!(
        s,
        r##"<path d="M{x0},{y0}V{}H{}" stroke="#333" fill="none"/>"##,
        y0 + h,
        x0 + w
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" font-size="12" transform="rotate(-90 {:.1} {:.1})" text-anchor="middle">{}</text>"#,
        x0 - 40.0,
        y0 + h / 2.0,
        x0 - 40.0,
        y0 + h / 2.0,
        esc(label)
    );
}
