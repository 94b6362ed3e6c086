//! Writes a scenario back as RON laid out for diffs, the way the shipped files are written by
//! hand: one field per line, map rows as strings, one unit (side, objective, road) per line,
//! edge pairs six to a line, the file's leading comments kept and its unit order untouched.

use super::file::RawScenario;
use crate::source::ron_options;
use serde::Serialize;
use std::fmt::Write;

/// One value on one line: `(id: "us-120", name: "120th Infantry Rgt", …)`.
pub fn inline<T: Serialize>(value: &T) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new()
        .compact_arrays(true)
        .compact_structs(true)
        .compact_maps(true)
        .struct_names(false)
        .new_line("\n");
    Ok(tidy(&ron_options().to_string_pretty(value, config)?))
}

/// As a person writes RON: whole numbers without `.0` (`movement: 8`), apostrophes in strings
/// unescaped (`"Patton's"`). Strings and character literals are otherwise left as they are.
fn tidy(ron: &str) -> String {
    let mut out = String::with_capacity(ron.len());
    let mut chars = ron.chars().peekable();
    let mut in_string = false;
    let mut number = false;
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => match chars.next() {
                    Some('\'') => out.push('\''),
                    Some(next) => {
                        out.push(c);
                        out.push(next);
                    }
                    None => out.push(c),
                },
                '"' => {
                    in_string = false;
                    out.push(c);
                }
                _ => out.push(c),
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            // A character literal (`'b'`, `'\''`): copied whole.
            '\'' => {
                out.push(c);
                while let Some(d) = chars.next() {
                    out.push(d);
                    if d == '\\' {
                        out.extend(chars.next());
                    } else if d == '\'' {
                        break;
                    }
                }
                continue;
            }
            '.' if number && chars.peek() == Some(&'0') => {
                let mut ahead = chars.clone();
                ahead.next();
                if matches!(ahead.peek(), Some(',' | ')' | ']' | '}' | ' ' | '\n') | None) {
                    chars.next();
                    continue;
                }
            }
            _ => {}
        }
        number = c.is_ascii_digit() || (number && c == '.');
        out.push(c);
    }
    out
}

/// The comments (and blank lines) a file opens with, to keep when it is written again.
pub fn leading_comments(text: &str) -> String {
    let mut out = String::new();
    for line in text.strip_prefix('\u{feff}').unwrap_or(text).lines() {
        let t = line.trim_start();
        if t.starts_with("//") || t.is_empty() {
            out += line;
            out.push('\n');
        } else {
            break;
        }
    }
    out
}

/// `raw` as a scenario file, after `header` (comment lines, as `leading_comments` gives them).
pub fn scenario_text(raw: &RawScenario, header: &str) -> Result<String, ron::Error> {
    // Every field by name: a field added to the format is a compile error here until written.
    let RawScenario {
        name,
        setting,
        description,
        ruleset,
        map,
        sides,
        first_side,
        turns,
        objectives,
        victory,
        win,
        otherwise,
        otherwise_level,
        units,
        weather,
        progress,
    } = raw;
    let mut w = Writer {
        out: header.to_string(),
    };
    w.out += "Scenario(\n";
    w.field(1, "name", name)?;
    w.field(1, "setting", setting)?;
    w.field(1, "description", description)?;
    w.field(1, "ruleset", ruleset)?;
    map_text(&mut w, map)?;
    w.list(1, "sides", sides)?;
    w.field(1, "first_side", first_side)?;
    w.field(1, "turns", turns)?;
    if !objectives.is_empty() {
        w.list(1, "objectives", objectives)?;
    }
    w.field(1, "victory", victory)?;
    if !win.is_empty() {
        w.field(1, "win", win)?;
    }
    if let Some(o) = otherwise {
        w.field(1, "otherwise", o)?;
    }
    if let Some(l) = otherwise_level {
        w.field(1, "otherwise_level", l)?;
    }
    w.list(1, "units", units)?;
    if *weather != crate::combat::Weather::Clear {
        w.field(1, "weather", weather)?;
    }
    if let Some(p) = progress {
        w.field(1, "progress", p)?;
    }
    w.out += ")\n";
    Ok(w.out)
}

fn map_text(w: &mut Writer, map: &super::file::RawMap) -> Result<(), ron::Error> {
    let super::file::RawMap {
        grid,
        width,
        height,
        legend,
        rows,
        edges,
        roads,
        places,
        features,
    } = map;
    w.out += "    map: (\n";
    w.field(2, "grid", grid)?;
    w.field(2, "width", width)?;
    w.field(2, "height", height)?;
    w.field(2, "legend", legend)?;
    w.list(2, "rows", rows)?;
    if !edges.is_empty() {
        w.out += "        edges: [\n";
        for e in edges {
            writeln!(w.out, "            (feature: {}, between: [", inline(&e.feature)?).ok();
            for chunk in e.between.chunks(6) {
                let pairs: Result<Vec<String>, _> = chunk.iter().map(inline).collect();
                writeln!(w.out, "                {},", pairs?.join(", ")).ok();
            }
            w.out += "            ]),\n";
        }
        w.out += "        ],\n";
    }
    if !roads.is_empty() {
        w.list(2, "roads", roads)?;
    }
    if !places.is_empty() {
        w.field(2, "places", places)?;
    }
    if !features.is_empty() {
        w.field(2, "features", features)?;
    }
    w.out += "    ),\n";
    Ok(())
}

struct Writer {
    out: String,
}

impl Writer {
    fn field<T: Serialize>(&mut self, depth: usize, name: &str, value: &T) -> Result<(), ron::Error> {
        writeln!(self.out, "{}{name}: {},", "    ".repeat(depth), inline(value)?).ok();
        Ok(())
    }

    /// A list with one element per line.
    fn list<T: Serialize>(&mut self, depth: usize, name: &str, items: &[T]) -> Result<(), ron::Error> {
        let pad = "    ".repeat(depth);
        writeln!(self.out, "{pad}{name}: [").ok();
        for item in items {
            writeln!(self.out, "{pad}    {},", inline(item)?).ok();
        }
        writeln!(self.out, "{pad}],").ok();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{SHIPPED, Scenario};

    #[test]
    fn every_shipped_scenario_writes_back_to_itself() {
        for (path, text) in SHIPPED {
            let before = Scenario::from_ron_str(path, text).unwrap();
            let written = scenario_text(&before.raw, &leading_comments(text)).unwrap();
            let after = Scenario::from_ron_str(path, &written).unwrap_or_else(|e| panic!("{e}\n{written}"));
            assert_eq!(after.raw, before.raw, "{path}");
            assert!(written.starts_with(&leading_comments(text)));
            // Written again, it is the same text: the layout is stable.
            assert_eq!(scenario_text(&after.raw, &leading_comments(text)).unwrap(), written);
            // One unit per line, in the file's order.
            let ids: Vec<&str> = before.raw.units.iter().map(|u| u.id.as_str()).collect();
            let lines: Vec<&str> = written
                .lines()
                .filter(|l| l.trim_start().starts_with("(id: "))
                .collect();
            let units_at: Vec<usize> = ids
                .iter()
                .map(|id| {
                    lines
                        .iter()
                        .position(|l| l.contains(&format!("(id: \"{id}\"")))
                        .unwrap()
                })
                .collect();
            assert!(units_at.windows(2).all(|w| w[0] < w[1]), "{path}: unit order");
        }
    }

    #[test]
    fn numbers_and_apostrophes_are_written_as_a_person_writes_them() {
        assert_eq!(tidy(r#"(a: 8.0, b: 1.5, c: 10.0)"#), "(a: 8, b: 1.5, c: 10)");
        assert_eq!(tidy(r#"[2.0]"#), "[2]");
        assert_eq!(tidy(r#""Patton\'s 8.0, fine""#), r#""Patton's 8.0, fine""#);
        assert_eq!(tidy(r#""a\\'b""#), r#""a\\'b""#);
        assert_eq!(tidy(r#"{'\'': "x", '.': "y"}"#), r#"{'\'': "x", '.': "y"}"#);
        assert_eq!(tidy("1.05"), "1.05");
    }

    #[test]
    fn the_hand_written_layout_is_kept() {
        let (path, text) = SHIPPED[0];
        let raw = Scenario::from_ron_str(path, text).unwrap().raw;
        let written = scenario_text(&raw, &leading_comments(text)).unwrap();
        for line in [
            "    name: \"Mortain: Operation Lüttich\",",
            "            \"bbbbbbb...bbbfbfbbbbffff\",",
            "                (\"0103\", \"0104\"), (\"0104\", \"0203\"), (\"0113\", \"0114\"), (\"0114\", \"0213\"), (\"0203\", \"0204\"), (\"0203\", \"0304\"),",
            "        (id: \"german\", name: \"German\", color: \"#5d6f80\", home_edge: East),",
            "        (cell: \"1012\", name: \"Mortain\", points: 3, held_by: \"us\"),",
            "    description: \"Four panzer divisions strike west at night through the bocage to cut off Patton's breakout at Avranches. The US 30th Infantry Division, just arrived, holds Mortain and Hill 317. Germans: reach the Avranches road. Americans: hold Mortain and Hill 317 until the Allied air forces and reinforcements arrive.\",",
            "        (id: \"us-120\", name: \"120th Infantry Rgt\", side: \"us\", class: Infantry, size: Regiment, cell: \"1012\", chit: (full: 6, reduced: 3, cadre: 1), movement: 4, er: 4, element: \"30th Infantry Division\"),",
        ] {
            assert!(written.lines().any(|l| l == line), "missing {line:?} in\n{written}");
        }
    }
}
