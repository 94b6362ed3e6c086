//! `hexfront highlights FILE -o DIR`: replays a saved game, turn file or balance-lab log headless
//! and writes its highlight pictures (`show::highlights`), one line per file as it is written.

use clap::Args;
use hexfront::show::highlights::{Request, upsets_to_show, write_all};
use hexfront::show::moments;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct HighlightsArgs {
    /// A saved game, turn file or a log the balance lab kept (`balance --keep-logs DIR`).
    file: PathBuf,
    /// The folder to write the PNGs into (made if missing).
    #[arg(short, long, value_name = "DIR")]
    out: PathBuf,
    /// Picture width in pixels.
    #[arg(long, default_value_t = 1600)]
    size: u32,
    /// The most upset combats to draw (each had at most a 1 in 4 chance of going that way).
    #[arg(long, default_value_t = 3)]
    upsets: usize,
    /// The pictures' shape: `map` (the whole map), or `16:9` or `1:1` framed on each picture's
    /// action (a turn's moves and losses, an upset's cells).
    #[arg(long, default_value = "map", value_parser = hexfront::art::crop::Aspect::parse)]
    aspect: hexfront::art::crop::Aspect,
}

pub fn run(args: &HighlightsArgs) -> ExitCode {
    let game = match hexfront::source::read_file(&args.file)
        .map_err(|e| e.to_string())
        .and_then(|text| hexfront::game::save::parse_game_str(&args.file, &text, 1).map_err(|e| e.to_string()))
    {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let found = match moments::find(&game) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    if let Some(problem) = &found.problem {
        eprintln!(
            "warning: {}: the log stops replaying as recorded ({problem}); pictures up to there",
            args.file.display()
        );
    }
    println!(
        "{}: {} orders, {} turn ends, {} combats; the biggest upsets:",
        args.file.display(),
        game.log.len(),
        found.turn_ends.len(),
        found.combats.len()
    );
    for c in upsets_to_show(&found, args.upsets) {
        println!("  {}", c.headline());
    }
    let req = Request {
        dir: args.out.clone(),
        width: args.size.clamp(480, 7680),
        upsets: args.upsets,
        aspect: args.aspect,
    };
    match write_all(&game.scenario, &found, &req, |p| println!("wrote {}", p.display())) {
        Ok(files) if files.is_empty() => {
            eprintln!("error: {}: nothing to draw (no orders in the log)", args.file.display());
            ExitCode::FAILURE
        }
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
