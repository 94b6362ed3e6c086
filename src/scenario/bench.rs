//! A generated board for benchmarks at real board-game size: 100×100 hexes of mixed Killing
//! Ground terrain and 1,000 units (the client's `--bench-frames`, the order-log benchmarks), or
//! any other size (60×40 with 100 units for the computer player's benchmark).

use super::{LoadError, Scenario};
use crate::rules::grid::{Cell, label};

/// The benchmark board: a 100×100 Killing Ground map of mixed terrain and 500 units a side,
/// spread over it in loose lines, written as a scenario so it loads like any other.
pub fn benchmark_scenario() -> Result<Scenario, LoadError> {
    sized_benchmark_scenario(100, 100, 1000)
}

/// A `w`×`h` benchmark board with `count` units, half a side: blue in lines in the west half,
/// red in the east, facing each other across the middle, with an objective there to fight for.
pub fn sized_benchmark_scenario(w: u32, h: u32, count: u32) -> Result<Scenario, LoadError> {
    let legend = "'.': \"clear\", 'b': \"bocage\", 'f': \"woods\", 'h': \"hills\", 't': \"town\"";
    let rows: Vec<String> = (0..h)
        .map(|r| {
            let row: String = (0..w)
                .map(|c| match (c * 7 + r * 13 + (c * r) % 11) % 17 {
                    0..=7 => '.',
                    8..=10 => 'b',
                    11..=13 => 'f',
                    14..=15 => 'h',
                    _ => 't',
                })
                .collect();
            format!("\"{row}\"")
        })
        .collect();
    let classes = ["Infantry", "Armor", "Mechanized", "Artillery", "Recon"];
    let mut units = Vec::new();
    let half = count / 2;
    let per_line = (w / 4).max(1);
    for i in 0..count {
        let side = if i < half { "blue" } else { "red" };
        let k = i % half.max(1);
        // Blue in the west half, red in the east, 1-3 units a cell.
        let col = (k % per_line) * 2 + if side == "blue" { 1 } else { w / 2 + 1 };
        let row = (k / per_line) * 5 + 1 + (k % 3);
        let cell = label(Cell::new(col as i32, row as i32 % h as i32));
        units.push(format!(
            "(id: \"u{i}\", name: \"Unit {i}\", side: \"{side}\", class: {}, size: Battalion, cell: \"{cell}\", steps: [(attack: 4, defense: 4), (attack: 2, defense: 2)], movement: 6),",
            classes[(i % 5) as usize]
        ));
    }
    let text = format!(
        r##"Scenario(
    name: "Frame benchmark", setting: "Generated", description: "{w}×{h} hexes, {count} units.", ruleset: "killing-ground",
    map: (grid: Hex(top: Flat), width: {w}, height: {h}, legend: {{{legend}}}, rows: [{rows}]),
    sides: [
        (id: "blue", name: "Blue", color: "#3050c0", home_edge: West),
        (id: "red", name: "Red", color: "#c03030", home_edge: East),
    ],
    first_side: "blue", turns: 10, victory: "Blue: hold the centre.",
    objectives: [(cell: "{centre}", name: "Centre", points: 5, held_by: "red")],
    win: [(side: "blue", hold: ["{centre}"])], otherwise: "red",
    units: [{units}],
)"##,
        rows = rows.join(", "),
        units = units.join("\n"),
        centre = label(Cell::new(w as i32 / 2, h as i32 / 2)),
    );
    Scenario::from_ron_str("<generated frame benchmark>", &text)
}
