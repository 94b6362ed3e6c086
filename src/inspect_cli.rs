//! `hexfront inspect`: what-if queries for checking a ruleset on a map — zones of control, a
//! unit's reach, every retreat with its priority or the rule refusing it, and the cells of an
//! advance after combat — as text or `--json`, answered by the game's own functions.

use hexfront::game::inspect;
use hexfront::game::save::{load_game, replay_app};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `hexfront inspect` was asked.
#[derive(clap::Subcommand, Debug)]
pub enum InspectArgs {
    /// Every cell in the zone of control of SIDE's enemies, and the cells (and units) projecting it.
    Zoc {
        /// A scenario, saved game or turn file (a game is inspected where it stands).
        file: PathBuf,
        /// The side by id, name or number (1 first).
        #[arg(long)]
        side: String,
        #[arg(long)]
        json: bool,
    },
    /// Every cell a unit (or a stack: ids separated by commas) can reach, its cost in movement
    /// points, where it must stop, and where it may not end its move.
    Reach {
        file: PathBuf,
        #[arg(long, value_delimiter = ',', required = true)]
        unit: Vec<String>,
        #[arg(long)]
        json: bool,
    },
    /// Every legal retreat of each unit with its steps' priorities (1 best), and every refused
    /// path with the rule refusing it.
    Retreats {
        file: PathBuf,
        #[arg(long, value_delimiter = ',', required = true)]
        unit: Vec<String>,
        /// The cell retreated from (default: where the unit stands).
        #[arg(long)]
        from: Option<String>,
        /// The attacking units, by id.
        #[arg(long, value_delimiter = ',')]
        attackers: Vec<String>,
        /// Cells of retreat.
        #[arg(long, default_value_t = 1)]
        hexes: u32,
        #[arg(long)]
        json: bool,
    },
    /// The cells UNIT may advance into after the defenders leave INTO, and why any is refused.
    Advance {
        file: PathBuf,
        #[arg(long)]
        unit: String,
        /// The vacated cell (the defenders' cell).
        #[arg(long)]
        into: String,
        /// Cells of advance: 1, or 2 for a second-hex advance.
        #[arg(long, default_value_t = 1)]
        hexes: u32,
        #[arg(long)]
        json: bool,
    },
}

pub fn inspect(args: &InspectArgs) -> ExitCode {
    match answer(args) {
        Ok(text) => {
            // A closed pipe (`| head`) is not an error of ours.
            let _ = writeln!(std::io::stdout().lock(), "{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The longest retreat or advance asked about: the rules' are 1 to 4 cells, and the paths of a
/// retreat grow exponentially with its length.
const MOST_CELLS: u32 = 6;

fn answer(args: &InspectArgs) -> Result<String, String> {
    if let InspectArgs::Retreats { hexes, .. } | InspectArgs::Advance { hexes, .. } = args
        && !(1..=MOST_CELLS).contains(hexes)
    {
        return Err(format!("--hexes {hexes}: give 1 to {MOST_CELLS} cells"));
    }
    match args {
        InspectArgs::Zoc { file, side, json } => {
            let report = inspect::zoc(open(file)?.world_mut(), side)?;
            show(*json, &report, || zoc_text(&report))
        }
        InspectArgs::Reach { file, unit, json } => {
            let report = inspect::reach(open(file)?.world_mut(), unit)?;
            show(*json, &report, || reach_text(&report))
        }
        InspectArgs::Retreats {
            file,
            unit,
            from,
            attackers,
            hexes,
            json,
        } => {
            let list = inspect::retreats(open(file)?.world_mut(), unit, from.as_deref(), attackers, *hexes)?;
            show(*json, &list, || retreats_text(&list))
        }
        InspectArgs::Advance {
            file,
            unit,
            into,
            hexes,
            json,
        } => {
            let cells = inspect::advance(open(file)?.world_mut(), unit, into, *hexes)?;
            show(*json, &cells, || advance_text(unit, into, &cells))
        }
    }
}

/// The game in `file` where it stands (a saved game replayed to its end).
fn open(file: &Path) -> Result<bevy::app::App, String> {
    let game = load_game(file, 1).map_err(|e| e.to_string())?;
    replay_app(&game, None).map_err(|e| format!("{}: {e}", file.display()))
}

fn show<T: Serialize>(json: bool, value: &T, text: impl FnOnce() -> String) -> Result<String, String> {
    if json {
        serde_json::to_string_pretty(value).map_err(|e| e.to_string())
    } else {
        Ok(text())
    }
}

fn zoc_text(report: &inspect::ZocReport) -> String {
    let mut out = format!(
        "{} cells in the zone of control of the enemies of {}\n",
        report.cells.len(),
        report.side
    );
    for c in &report.cells {
        let from: Vec<String> = c
            .projected_from
            .iter()
            .map(|p| {
                let at = if p.cell == c.cell {
                    "in the cell"
                } else {
                    p.cell.as_str()
                };
                format!("{at}: {}", p.units.join(", "))
            })
            .collect();
        out += &format!("  {}  from {}\n", c.cell, from.join("; "));
    }
    out.trim_end().to_string()
}

fn reach_text(r: &inspect::ReachReport) -> String {
    let mut out = format!(
        "{} from {}: {} movement points left, searched in the {} phase; {} cells reachable\n",
        r.units.join(", "),
        r.from,
        r.budget,
        r.phase,
        r.cells.len()
    );
    for c in &r.cells {
        let mut notes = Vec::new();
        if c.must_stop {
            notes.push("must stop".to_string());
        }
        if let Some(why) = &c.may_not_end {
            notes.push(format!("may not end here: {why}"));
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!("  ({})", notes.join("; "))
        };
        out += &format!("  {}  {:>4} MP  via {}{notes}\n", c.cell, c.cost, c.path.join(" "));
    }
    out.trim_end().to_string()
}

fn retreats_text(list: &[inspect::UnitRetreats]) -> String {
    let mut out = String::new();
    for u in list {
        out += &format!(
            "{} ({}) from {}, {} cell(s): {} legal, {} refused\n",
            u.name,
            u.unit,
            u.from,
            u.cells,
            u.legal.len(),
            u.refused.len()
        );
        for p in &u.legal {
            let zoc = if p.through_enemy_zoc {
                "  (through an enemy zone of control)"
            } else {
                ""
            };
            let priorities: Vec<String> = p.priorities.iter().map(u8::to_string).collect();
            out += &format!(
                "  legal    {}  priority {}{zoc}\n",
                p.path.join(" "),
                priorities.join(",")
            );
        }
        for p in &u.refused {
            out += &format!("  refused  {}  {}\n", p.path.join(" "), p.reason);
        }
    }
    out.trim_end().to_string()
}

fn advance_text(unit: &str, into: &str, cells: &[inspect::AdvanceCell]) -> String {
    let mut out = format!("{unit} advancing into {into}:\n");
    for c in cells {
        let verdict = match &c.refused {
            None => "may advance".to_string(),
            Some(why) => format!("refused: {why}"),
        };
        out += &format!("  {}  depth {}  {verdict}\n", c.cell, c.depth);
    }
    out.trim_end().to_string()
}
