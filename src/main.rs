//! The `hexfront` binary: with no subcommand it opens the game window; subcommands run headless.

mod balance_cli;
mod combat_lab;
mod highlights_cli;
mod inspect_cli;
mod render_cli;
mod replay_cli;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "hexfront", version = hexfront::version::LONG, about = "A hex-and-square board-wargame engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Scenario or saved-game file to play at once (without it the start screen opens, on the
    /// embedded default scenario).
    #[arg(long, global = true)]
    scenario: Option<PathBuf>,
    /// Seed for every die roll, so a game replays exactly.
    #[arg(long, global = true, default_value_t = 1)]
    seed: u64,
    /// Write a screenshot of the window to this PNG file and exit (with --bench-frames: of the
    /// pan at 1:1 halfway through, the benchmark then going on).
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// With --screenshot: how many frames to render first.
    #[arg(long, default_value_t = 30)]
    frames: u32,
    /// Open the attack panels for your stack in FROM against TO (e.g. `1411:1312`), ending phases
    /// until a combat phase.
    #[arg(long, value_name = "FROM:TO")]
    attack: Option<String>,
    /// With --attack: roll it.
    #[arg(long)]
    roll: bool,
    /// With --scenario naming a saved game or turn file: open it in the replay view at order N
    /// (0: the start).
    #[arg(long, value_name = "N")]
    watch: Option<usize>,
    /// Let the computer play a side: `SIDE` or `SIDE:LEVEL` (novice, standard, expert), the side
    /// by id or number, e.g. `--ai soviet:expert`. Repeat for both sides to watch it play itself.
    #[arg(long, value_name = "SIDE[:LEVEL]")]
    ai: Vec<String>,
    /// Play N frames on a generated 100×100 map with 1,000 units (or on the --scenario given) in
    /// each of five cases — the whole map still, zoomed in (1:1) still, a continuous pan at the
    /// whole-map zoom and at 1:1, a zoom sweep — print the mean, p50, p90, p99 and max frame time
    /// of each, and exit.
    #[arg(long, value_name = "N")]
    bench_frames: Option<u32>,
    /// Presentation mode for streaming, in a window of exactly 1920×1080 (`1080`) or 1280×720
    /// (`720`): the board fills the frame, large type, a lower third, the odds overlay. F11
    /// toggles it in any window.
    #[arg(long, value_name = "1080|720", global = true)]
    present: Option<String>,
    /// Open the start screen's Online tab connected to the server at ADDRESS (host:port), as the
    /// player kept for it (or a new one named by --name).
    #[arg(long, value_name = "ADDRESS")]
    online: Option<String>,
    /// The display name a new online player registers with (with --online).
    #[arg(long, value_name = "NAME", requires = "online")]
    name: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check scenario, saved-game and ruleset files; exits non-zero on the first error.
    Validate {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Exact odds of a combat case: every outcome with its probability, expected losses and the
    /// branch each owner's choice leads to.
    Odds {
        case: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Replay a saved game or turn file headless: one line per order with its dice and state
    /// hash, each checked against the record.
    Replay {
        file: PathBuf,
        /// Exit non-zero at the first entry that does not replay as recorded.
        #[arg(long)]
        verify: bool,
        /// Replay only the first N orders.
        #[arg(long, value_name = "N")]
        to: Option<usize>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The balance lab: computer-vs-computer games of a scenario, headless and in parallel, with
    /// win rates (95% intervals), game length, losses, objectives by turn and the decisive combats.
    /// `hexfront balance merge FILES...` combines the tallies of `--shard` slices.
    Balance(balance_cli::BalanceArgs),
    /// For the crash-safety test: writes FILE's saved game to TO again and again, its log cut to
    /// another length each time (the summary says how many orders), COUNT times or until killed.
    #[command(hide = true)]
    RewriteSaves {
        file: PathBuf,
        to: PathBuf,
        #[arg(long, default_value_t = u64::MAX)]
        count: u64,
    },
    /// Start a ruleset of your own from a built-in one: writes FILE (e.g. `rulesets/my-war.ron`)
    /// with the built-in's text under the file's name as its id. A scenario then names it with
    /// `ruleset: "my-war.ron"`.
    NewRuleset {
        /// The built-in ruleset to start from: killing-ground, rommel, war-against-russia,
        /// next-war, small-general, or classic-odds (a combat table written in data alone, to
        /// write your own).
        from: String,
        file: PathBuf,
    },
    /// Draw FILE's map as a PNG (terrain, rivers, roads, towns, objectives, units at the start),
    /// without a window; at 16:9 or 1:1 framed on some cells, under a title band.
    Render(render_cli::RenderArgs),
    /// The pictures to post from a saved game, turn file or balance-lab log: the board at each
    /// turn's end with the score, and the biggest upsets (the combats whose result the odds gave
    /// the least chance) with their odds chart, dice and modifiers.
    Highlights(highlights_cli::HighlightsArgs),
    /// The computer plays itself for viewers, in presentation mode: the SCENARIOS in turn (every
    /// shipped one but the grand scenario when none is named), round and round, with who wins from
    /// each turn's position by a quick lab run.
    Showcase { scenarios: Vec<PathBuf> },
    /// Open the editor (the designer's workbench) on FILE, or on a new map.
    Edit { file: Option<PathBuf> },
    /// What-if queries for checking a ruleset on a map: `zoc`, `reach`, `retreats`, `advance`.
    #[command(subcommand)]
    Inspect(inspect_cli::InspectArgs),
    /// Run a server for play across the internet: games held in a database, the rules carried out
    /// on the server, dice from a committed secret no player can predict. Ctrl+C stops it.
    Serve {
        /// Address and port to listen on (port 0: any free port).
        #[arg(long, default_value = "127.0.0.1:7878")]
        listen: std::net::SocketAddr,
        /// The database: `sqlite://FILE?mode=rwc` or `postgres://USER:PASSWORD@HOST/DB`. Default:
        /// `server.db` (SQLite) in the data folder.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
        /// Seconds after which a game nobody touched leaves memory (it is rebuilt from the
        /// database when next asked for).
        #[arg(long, value_name = "SECONDS", default_value_t = 600)]
        idle: u64,
        /// The address players reach this server at (named in "your turn" notices), e.g.
        /// `https://games.example.org`.
        #[arg(long, value_name = "URL")]
        public_url: Option<String>,
        /// Let players' webhooks reach loopback and private addresses (refused by default, so a
        /// player cannot make the server call into its own network).
        #[arg(long)]
        allow_private_webhooks: bool,
        /// For a server you run on your own computer to play on it: games between two players
        /// get hash-chained dice (the other player's client mixes a link of its chain into each
        /// roll, so you cannot know a die before your order is fixed) unless made without.
        #[arg(long)]
        chained_dice: bool,
        /// Threads carrying out the games' orders (each game belongs to one): default, one a
        /// processor core.
        #[arg(long, value_name = "N")]
        workers: Option<usize>,
    },
    /// Resolve a combat case once with seeded dice (`--seed`), or with forced dice.
    Resolve {
        case: PathBuf,
        /// Force the dice in the order the rules roll them, e.g. `5,3`; the rest come from the seed.
        #[arg(long, value_delimiter = ',')]
        dice: Vec<u8>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    // macOS gives an app opened from the Finder for the first time a `-psn_0_NNNN` (process
    // serial number) argument; it is not ours to read.
    let cli = Cli::parse_from(std::env::args_os().filter(|a| !a.to_string_lossy().starts_with("-psn_")));
    match cli.command {
        Some(Command::Validate { files }) => validate(&files),
        Some(Command::Odds { case, json }) => combat_lab::odds(&case, json),
        Some(Command::Resolve { case, dice, json }) => combat_lab::resolve(&case, cli.seed, &dice, json),
        Some(Command::Balance(args)) => balance_cli::balance(&args, cli.seed),
        Some(Command::Replay { file, verify, to, json }) => replay_cli::replay(&file, verify, to, json),
        Some(Command::NewRuleset { from, file }) => new_ruleset(&from, &file),
        Some(Command::Inspect(args)) => inspect_cli::inspect(&args),
        Some(Command::Edit { .. } | Command::Showcase { .. }) => open_game(cli),
        Some(Command::Render(args)) => render_cli::run(&args),
        Some(Command::Highlights(args)) => highlights_cli::run(&args),
        Some(Command::RewriteSaves { file, to, count }) => rewrite_saves(&file, &to, count),
        Some(Command::Serve {
            listen,
            db,
            idle,
            public_url,
            allow_private_webhooks,
            chained_dice,
            workers,
        }) => {
            let options = hexfront::net::server::Options {
                idle: std::time::Duration::from_secs(idle),
                public_url,
                allow_private_webhooks,
                chained_dice_by_default: chained_dice,
                workers,
                ..Default::default()
            };
            serve(listen, db, options)
        }
        None => open_game(cli),
    }
}

fn serve(listen: std::net::SocketAddr, db: Option<String>, options: hexfront::net::server::Options) -> ExitCode {
    let url = db.unwrap_or_else(|| {
        let dir = hexfront::storage::data_dir();
        let _ = std::fs::create_dir_all(&dir);
        hexfront::net::store::Store::sqlite_url(&dir.join("server.db"))
    });
    match hexfront::net::server::serve_forever(listen, &url, options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn validate(files: &[PathBuf]) -> ExitCode {
    for file in files {
        match validate_file(file) {
            Ok(summary) => println!("ok  {}: {summary}", file.display()),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

fn new_ruleset(from: &str, file: &std::path::Path) -> ExitCode {
    if file.exists() {
        eprintln!("error: {} exists already: name a new file", file.display());
        return ExitCode::FAILURE;
    }
    let id = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let written = hexfront::scenario::user_ruleset::starting_text(from, &id).and_then(|text| {
        if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        hexfront::storage::write_atomic(file, &text)
    });
    match written {
        Ok(()) => {
            println!(
                "wrote {} (`{from}` as `{id}`); a scenario uses it with ruleset: \"{id}.ron\"",
                file.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `hexfront rewrite-saves FILE TO`: writes FILE's game to TO `count` times, its log cut to a
/// different length each time (the summary says how many orders), for the test that kills it
/// part-way. Prints `writing` once the first write is done, so the test knows it is under way.
fn rewrite_saves(file: &std::path::Path, to: &std::path::Path, count: u64) -> ExitCode {
    use hexfront::game::save::{SavedGame, load_game, replay_app, saved_game, to_text};
    // Read as the game reads it (an older format migrated), written in today's.
    let game = load_game(file, 1).map_err(|e| e.to_string()).and_then(|loaded| {
        replay_app(&loaded, None)
            .map(|app| saved_game(app.world()))
            .map_err(|e| format!("{}: {e}", file.display()))
    });
    let game = match game {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // A dozen cuts written out first, so the loop below spends its time in the writing itself.
    let step = (game.log.len() / 12).max(1);
    let texts: Result<Vec<String>, _> = (0..=game.log.len())
        .step_by(step)
        .map(|n| {
            to_text(&SavedGame {
                summary: format!("{n} orders"),
                log: game.log[..n].to_vec(),
                ..game.clone()
            })
        })
        .collect();
    let texts = match texts {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    for k in 0..count {
        if let Err(e) = hexfront::storage::write_atomic(to, &texts[(k as usize) % texts.len()]) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        if k == 0 {
            use std::io::Write;
            println!("writing");
            let _ = std::io::stdout().flush();
        }
    }
    ExitCode::SUCCESS
}

/// Checks one file; a saved game or turn file is also replayed and every entry checked.
fn validate_file(file: &std::path::Path) -> Result<String, hexfront::scenario::LoadError> {
    let text = hexfront::source::read_file(file)?;
    if hexfront::scenario::top_level_name(&text) == "SavedGame" {
        let game = hexfront::game::save::load_game_str(file, &text, 1)?;
        return Ok(format!(
            "saved game of `{}`: {} order(s) replayed and checked; {}",
            game.scenario.raw.name,
            game.log.len(),
            game.summary
        ));
    }
    hexfront::scenario::validate_file(file)
}

fn load_scenario(path: Option<&PathBuf>) -> Result<hexfront::scenario::Scenario, hexfront::scenario::LoadError> {
    match path {
        Some(p) => hexfront::game::save::load_game(p, 1).map(|g| g.scenario),
        None => hexfront::scenario::default_scenario(),
    }
}

#[cfg(feature = "gui")]
fn open_game(cli: Cli) -> ExitCode {
    // Without --scenario the start screen opens, with the default scenario selected. A saved game
    // or turn file is replayed and checked before the window opens.
    let game = match cli
        .scenario
        .as_ref()
        .map(|p| hexfront::game::save::load_game(p, cli.seed))
    {
        None => None,
        Some(Ok(g)) => Some(g),
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = match (cli.bench_frames, game) {
        (Some(_), None) => match hexfront::scenario::benchmark_scenario() {
            Ok(s) => Some(hexfront::gui::state::StartGame::new(s, cli.seed)),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
        (_, g) => g.map(|game| hexfront::gui::state::StartGame {
            game,
            watch: cli.watch,
            from: cli.scenario.clone(),
        }),
    };
    let attack = match cli
        .attack
        .as_deref()
        .map(|a| hexfront::gui::script::ScriptedAttack::parse(a, cli.roll))
    {
        None => None,
        Some(Ok(a)) => Some(a),
        Some(Err(e)) => {
            eprintln!("error: --attack {e}");
            return ExitCode::FAILURE;
        }
    };
    let seats = if cli.ai.is_empty() {
        // A saved game seats the computer where it played.
        start
            .as_ref()
            .map(|s| hexfront::gui::state::seats_from_names(&s.game.seats))
            .unwrap_or_default()
    } else {
        let scenario = match start.as_ref() {
            Some(s) => s.game.scenario.clone(),
            None => match hexfront::scenario::default_scenario() {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            },
        };
        let sides: Vec<(String, String)> = scenario.sides.iter().map(|s| (s.id.clone(), s.name.clone())).collect();
        match hexfront::gui::state::Seats::parse(&cli.ai, &sides) {
            Ok(s) => s.0,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    let shot = cli.screenshot.map(|path| hexfront::gui::ScreenshotRequest {
        path,
        after_frames: cli.frames,
    });
    let present = match cli.present.as_deref().map(hexfront::gui::state::FrameSize::parse) {
        None => None,
        Some(Ok(size)) => Some(size),
        Some(Err(e)) => {
            eprintln!("error: --present {e}");
            return ExitCode::FAILURE;
        }
    };
    let showcase = match &cli.command {
        Some(Command::Showcase { scenarios }) => match showcase_scenarios(scenarios) {
            Ok(list) => Some(list),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
        _ => None,
    };
    let options = hexfront::gui::RunOptions {
        attack,
        bench_frames: cli.bench_frames,
        present: present.or(showcase.as_ref().map(|_| hexfront::gui::state::FrameSize::Full)),
        showcase,
        online: cli.online.map(|address| (address, cli.name)),
        seats,
        edit: match cli.command {
            Some(Command::Edit { file }) => Some(file),
            _ => None,
        },
    };
    // Errors above print to the console; gui::run lets go of a console of its own (Windows).
    hexfront::gui::run(start, cli.seed, shot, options)
}

/// The showcase's scenarios: the files named, or every shipped one but the grand scenario (the
/// first named error stops it).
#[cfg(feature = "gui")]
fn showcase_scenarios(files: &[PathBuf]) -> Result<Vec<hexfront::scenario::Scenario>, String> {
    if files.is_empty() {
        // The grand scenario takes the computer minutes a turn: not for an attract loop.
        let grand = "scenarios/barbarossa-centre-1941.ron";
        return (0..hexfront::scenario::SHIPPED.len())
            .filter(|i| hexfront::scenario::SHIPPED[*i].0 != grand)
            .map(|i| hexfront::scenario::shipped_scenario(i).map_err(|e| e.to_string()))
            .collect();
    }
    files
        .iter()
        .map(|f| load_scenario(Some(f)).map_err(|e| e.to_string()))
        .collect()
}

#[cfg(not(feature = "gui"))]
fn open_game(cli: Cli) -> ExitCode {
    match load_scenario(cli.scenario.as_ref()) {
        Ok(s) => eprintln!(
            "`{}` loads fine, but this hexfront was built without the `gui` feature, so it cannot open a window. Use `hexfront validate FILE`, or build with default features.",
            s.raw.name
        ),
        Err(e) => eprintln!("error: {e}"),
    }
    ExitCode::FAILURE
}
