//! `hexfront render FILE -o PNG`: a scenario's or a save's map as a picture, headless, with the
//! window's art; optionally framed at 16:9 or 1:1 on the cells that matter, under a title band.

use clap::Args;
use hexfront::art::crop::{Aspect, frame_for};
use hexfront::art::picture::{aspect, render_frame, start_tokens};
use hexfront::art::title::{Title, band_height, with_band};
use hexfront::rules::grid::{Cell, parse_label};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct RenderArgs {
    file: PathBuf,
    #[arg(short, long, value_name = "PNG")]
    out: PathBuf,
    /// Width in pixels (the height follows the map, or the aspect).
    #[arg(long, default_value_t = 1600)]
    size: u32,
    /// The picture's shape: `map` (the whole map), `16:9` or `1:1` (framed on `--around`, or on
    /// the units at the start).
    #[arg(long, default_value = "map", value_parser = Aspect::parse)]
    aspect: Aspect,
    /// With `--aspect`: the cells to frame, as labels separated by commas (`1312,1411`).
    #[arg(long, value_name = "CELLS", value_delimiter = ',')]
    around: Vec<String>,
    /// A band across the top with the scenario's name, its setting and the sides.
    #[arg(long)]
    title: bool,
}

/// The cells `labels` name, each checked against the map.
fn cells(labels: &[String], s: &hexfront::scenario::Scenario) -> Result<Vec<Cell>, String> {
    labels
        .iter()
        .map(|l| {
            let cell = parse_label(l).map_err(|e| format!("--around: {e}"))?;
            if s.board.grid.contains(cell) {
                Ok(cell)
            } else {
                let (w, h) = (s.board.grid.width, s.board.grid.height);
                Err(format!("--around: cell {l} is off the map ({w} columns, {h} rows)"))
            }
        })
        .collect()
}

pub fn run(args: &RenderArgs) -> ExitCode {
    match render(args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn render(args: &RenderArgs) -> Result<String, String> {
    let size = args.size;
    if !(16..=16384).contains(&size) {
        return Err(format!("--size {size}: give a width from 16 to 16384 pixels"));
    }
    // The scenario as it starts (a saved game's too), without replaying a log.
    let file = &args.file;
    let game = hexfront::source::read_file(file)
        .and_then(|text| hexfront::game::save::parse_game_str(file, &text, 1))
        .map_err(|e| e.to_string())?;
    let s = &game.scenario;
    if !args.around.is_empty() && args.aspect == Aspect::Map {
        return Err("--around frames a part of the map: give --aspect 16:9 or 1:1 with it".into());
    }
    let started = std::time::Instant::now();
    let band_h = if args.title { band_height(size) } else { 0 };
    // The cells named, or the units at the start; the whole map takes none.
    let mut framed = cells(&args.around, s)?;
    if framed.is_empty() && args.aspect != Aspect::Map {
        framed = start_tokens(s).into_iter().map(|t| t.cell).collect();
    }
    let map_h = args.aspect.height(size, aspect(s)).saturating_sub(band_h).max(16);
    let frame = frame_for(s, &framed, args.aspect, (size, map_h));
    let (map, _) = render_frame(s, frame, size, None);
    let picture = if args.title {
        let line = format!("{} · {} turns · {}", s.raw.setting, s.raw.turns, s.ruleset.raw.name);
        with_band(&map, &hexfront::art::text::Pen::new(), band_h, &Title::of(s, line))
    } else {
        map
    };
    picture
        .save_with_format(&args.out, image::ImageFormat::Png)
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    Ok(format!(
        "wrote {} ({}×{}) in {} ms",
        args.out.display(),
        picture.width(),
        picture.height(),
        started.elapsed().as_millis()
    ))
}
