//! The editor at size: a brush stroke on a 200×200 map (the paint edit made and the terrain
//! meshes of the chunks it touched remade), the live validation of the largest shipped scenario
//! after an edit (written out and checked as `hexfront validate` checks it), and a game of it
//! carried over to its file changed on disk (live reload's game side).
//! Targets (issue 13): a stroke re-meshes in ≤ 16 ms; a reload, file change to board, ≤ 1 s.

use criterion::{Criterion, criterion_group, criterion_main};
use hexfront::edit::tools::{brush, grid_of, new_scenario, paint};
use hexfront::gui::editor::paint::TerrainMeshes;
use hexfront::rules::grid::{Cell, GridKind, HexTop};
use hexfront::scenario::write::scenario_text;
use hexfront::scenario::{Ruleset, Scenario};
use std::hint::black_box;
use std::path::Path;

fn stroke(c: &mut Criterion) {
    let mut raw = new_scenario(GridKind::Hex { top: HexTop::Flat }, 200, 200, "killing-ground", "clear");
    // Both terrains in the legend, as after a first stroke.
    raw.map.legend.insert('f', "woods".into());
    let ruleset = Ruleset::builtin("killing-ground").unwrap().unwrap();
    let mut meshes = TerrainMeshes::default();
    meshes.sync(&raw, Some(&ruleset));
    let grid = grid_of(&raw);
    let mut k = 0i32;
    c.bench_function("editor: a brush stroke (size 3) on a 200x200 map, re-meshed", |b| {
        b.iter(|| {
            k += 1;
            let at = Cell::new(7 + (k * 13) % 186, 7 + (k * 29) % 186);
            let terrain = if k % 2 == 0 { "woods" } else { "clear" };
            let edit = paint(&raw, &brush(&grid, at, 3), terrain);
            edit.apply(&mut raw);
            black_box(meshes.sync(&raw, Some(&ruleset)))
        })
    });
}

fn grand() -> (String, Scenario) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/barbarossa-centre-1941.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let s = Scenario::from_ron_str(&path, &text).unwrap();
    (text, s)
}

fn validation(c: &mut Criterion) {
    let (_, s) = grand();
    c.bench_function(
        "editor: live validation of the grand scenario (written, parsed, checked)",
        |b| {
            b.iter(|| {
                let text = scenario_text(&s.raw, "").unwrap();
                black_box(Scenario::from_ron_str("grand.ron", &text).unwrap())
            })
        },
    );
}

fn reload(c: &mut Criterion) {
    let (text, _) = grand();
    c.bench_function(
        "live reload: the grand scenario read, checked and its game carried over",
        |b| {
            b.iter(|| {
                let s = Scenario::from_ron_str("grand.ron", &text).unwrap();
                black_box(hexfront::game::reload::carry_over(s, 1, &[], false).unwrap())
            })
        },
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = stroke, validation, reload
}
criterion_main!(benches);
