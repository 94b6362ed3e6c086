//! `hexfront balance`: the balance lab on the command line: plays a batch of computer-vs-computer
//! games headless in parallel and prints the report (text or JSON), a CSV of the games, an SVG
//! chart; runs one slice of a batch (`--shard I/N`, writing its tally) and merges slices.

use hexfront::lab::tally::{Tally, csv};
use hexfront::lab::{Batch, Seat, plot, run, tally_of};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `hexfront balance` was asked.
#[derive(clap::Args, Debug)]
pub struct BalanceArgs {
    /// The scenario file, or `merge` followed by tally files written with `--tally`.
    #[arg(required = true)]
    pub scenario: PathBuf,
    /// With `merge`: the tally files to combine.
    pub files: Vec<PathBuf>,
    /// Seeds to play (games `0..N`, game `i` with seed `--seed` + i).
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// Games played at once (default: the machine's cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Who plays the first side: novice, standard, expert (tunable, e.g.
    /// `standard:aggression=0.8,caution=0.2`), random or passive.
    #[arg(long, default_value = "standard")]
    pub ai_a: String,
    /// Who plays the second side.
    #[arg(long, default_value = "standard")]
    pub ai_b: String,
    /// Play each seed twice, the second time with the seats swapped, and report the duplicate
    /// score of the first seat over the second.
    #[arg(long)]
    pub mirror: bool,
    /// Play only the I-th of N slices of the games (0-based), e.g. `3/100`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Write the tally (mergeable with `hexfront balance merge`) to this JSON file.
    #[arg(long, value_name = "FILE")]
    pub tally: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write one CSV line per game to this file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write the chart (win rates with intervals, objective points by turn) to this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Save every game's order log in this folder (watch one with `hexfront --scenario FILE --watch 0`).
    #[arg(long, value_name = "DIR")]
    pub keep_logs: Option<PathBuf>,
}

fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("--shard `{text}`: write I/N, e.g. 0/4"))?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|_| format!("--shard `{text}`: I is not a number"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("--shard `{text}`: N is not a number"))?;
    if n == 0 || i >= n {
        return Err(format!(
            "--shard `{text}`: I must be below N (0-based: 0/{n} … {}/{n})",
            n.max(1) - 1
        ));
    }
    Ok((i, n))
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    hexfront::storage::write_atomic(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Runs `hexfront balance`.
pub fn balance(args: &BalanceArgs, seed: u64) -> ExitCode {
    let result = if args.scenario.as_os_str() == "merge" {
        merge(args)
    } else {
        play(args, seed)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn outputs(args: &BalanceArgs, tally: &Tally) -> Result<(), String> {
    if let Some(path) = &args.tally {
        let text = serde_json::to_string_pretty(tally).map_err(|e| e.to_string())?;
        write_file(path, &text)?;
    }
    if let Some(path) = &args.plot {
        if path.extension().is_some_and(|e| !e.eq_ignore_ascii_case("svg")) {
            return Err(format!(
                "--plot {}: the chart is written as SVG; name the file .svg",
                path.display()
            ));
        }
        write_file(path, &plot::svg(tally))?;
    }
    if args.json {
        let report = serde_json::json!({
            "tally": tally,
            "win_rates": tally.win_rates(),
            "duplicate_score": tally.duplicate_score(),
            "mean_points_by_turn": tally.mean_points(),
        });
        println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        print!("{}", tally.report());
    }
    Ok(())
}

fn play(args: &BalanceArgs, seed: u64) -> Result<(), String> {
    let scenario = hexfront::scenario::Scenario::load(&args.scenario).map_err(|e| e.to_string())?;
    let seats = vec![Seat::parse(&args.ai_a)?, Seat::parse(&args.ai_b)?];
    if scenario.sides.len() != 2 {
        return Err(format!(
            "{}: the lab seats two sides; this scenario has {}",
            args.scenario.display(),
            scenario.sides.len()
        ));
    }
    let shard = args.shard.as_deref().map(parse_shard).transpose()?.unwrap_or((0, 1));
    if let Some(dir) = &args.keep_logs {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let batch = Batch {
        games: args.games,
        seed,
        seats: seats.clone(),
        mirror: args.mirror,
        shard,
        jobs,
        keep_logs: args.keep_logs.clone(),
    };
    let terminal = std::io::stderr().is_terminal();
    let started = std::time::Instant::now();
    let progress = |done: usize, total: usize| {
        if terminal {
            let filled = done * 30 / total.max(1);
            let rate = done as f64 / started.elapsed().as_secs_f64().max(1e-9);
            eprint!(
                "\r[{}{}] {done}/{total} games, {rate:.1} games/s ",
                "#".repeat(filled),
                " ".repeat(30 - filled)
            );
            let _ = std::io::stderr().flush();
        }
    };
    let records = run(&scenario, &batch, &progress)?;
    if terminal {
        eprintln!();
    }
    let tally = tally_of(&scenario, &batch, &records);
    let seat_names: Vec<String> = seats.iter().map(Seat::name).collect();
    if let Some(path) = &args.csv {
        let ids: Vec<String> = scenario.sides.iter().map(|s| s.id.clone()).collect();
        write_file(path, &csv(&records, &ids, &seat_names))?;
    }
    outputs(args, &tally)
}

fn merge(args: &BalanceArgs) -> Result<(), String> {
    let mut merged: Option<Tally> = None;
    if args.files.is_empty() {
        return Err("balance merge: name the tally files to merge (written with --tally)".into());
    }
    for file in &args.files {
        let text = hexfront::source::read_file(file).map_err(|e| e.to_string())?;
        let tally: Tally = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{}:{}:{}: not a tally written by `hexfront balance --tally`: {e}",
                file.display(),
                e.line(),
                e.column()
            )
        })?;
        match &mut merged {
            None => merged = Some(tally),
            Some(m) => m.merge(&tally).map_err(|e| format!("{}: {e}", file.display()))?,
        }
    }
    outputs(args, &merged.expect("at least one file"))
}
