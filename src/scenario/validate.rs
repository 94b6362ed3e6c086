//! Checks a parsed scenario against its ruleset and builds the `Scenario` the game spawns.
//! Every refusal names the field and where it is in the file.

use super::deployment::Deployment;
use super::file::{MapEdge, RawScenario, VictoryLevel};
use super::map::{cell_on_map, validate_map};
use super::ruleset::{Ruleset, list, parse_color};
pub use super::setup::UnitSetup;
use super::tracks::step_track;
use crate::rules::grid::Cell;
use crate::rules::terrain::{Board, Mp};
use crate::source::limits::MAX_UNITS;
use crate::source::{LoadError, Source};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

/// A side of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct SideInfo {
    pub id: String,
    pub name: String,
    pub color: [u8; 3],
    pub home_edge: Option<MapEdge>,
    /// The side's formations (its units' elements) in the order the scenario first names them:
    /// each counter's formation band takes its colour from its place here.
    pub formations: Vec<String>,
}

impl SideInfo {
    /// The colour of the side called `name` among `sides`; a neutral grey when none is (a
    /// moment recorded under a name the scenario no longer has).
    pub fn colour_named(sides: &[SideInfo], name: &str) -> [u8; 3] {
        sides
            .iter()
            .find(|side| side.name == name)
            .map_or([150, 150, 150], |side| side.color)
    }
}

/// An objective cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    pub cell: Cell,
    pub name: String,
    pub points: u32,
    pub held_by: Option<usize>,
}

/// A way to win, checked (see `RawWin`): sides by index, cells on the map and objectives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinCondition {
    pub side: usize,
    pub hold: Vec<Cell>,
    pub points: Option<u32>,
    pub more_points: bool,
    pub sudden_death: bool,
    /// At least this many objective points more than every other side.
    pub lead: Option<u32>,
    /// The level it gives (`None`: a plain win; then no condition of the scenario has one).
    pub level: Option<VictoryLevel>,
}

/// A validated scenario: everything refers to real cells, sides and terrain.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub raw: RawScenario,
    pub ruleset: Arc<Ruleset>,
    pub board: Board,
    pub places: BTreeMap<Cell, String>,
    pub sides: Vec<SideInfo>,
    pub first_side: usize,
    pub objectives: Vec<Objective>,
    pub win: Vec<WinCondition>,
    /// Who wins when no condition is met (`None`: a draw).
    pub otherwise: Option<usize>,
    /// The level of that win (`None`: a plain win, or a draw).
    pub otherwise_level: Option<VictoryLevel>,
    pub units: Vec<UnitSetup>,
}

impl Scenario {
    /// Parses and validates a scenario's text; `file` names it in errors.
    pub fn from_ron_str(file: impl AsRef<Path>, text: &str) -> Result<Scenario, LoadError> {
        Self::from_ron_str_with(file, text, RulesetFrom::Files)
    }

    /// `from_ron_str` on a server: the ruleset is a built-in one or `given` (an uploaded
    /// scenario's, a stored game's); no file is read, and a ruleset file named but not given is
    /// refused.
    pub fn from_ron_str_no_files(
        file: impl AsRef<Path>,
        text: &str,
        given: Option<Arc<Ruleset>>,
    ) -> Result<Scenario, LoadError> {
        let from = given.map_or(RulesetFrom::BuiltIn, RulesetFrom::Given);
        Self::from_ron_str_with(file, text, from)
    }

    fn from_ron_str_with(file: impl AsRef<Path>, text: &str, ruleset: RulesetFrom) -> Result<Scenario, LoadError> {
        let src = Source::new(file.as_ref(), text);
        let top = super::top_level_name(text);
        let opening = super::opening(text);
        let looks_right = match top {
            "Scenario" => true,
            "" => opening.starts_with('('),
            _ => false,
        };
        if !looks_right {
            let message = if opening.is_empty() {
                "the file is empty: a scenario begins `Scenario(` and a saved game `SavedGame(`".to_string()
            } else {
                format!(
                    "this is not a Hexfront scenario or saved game: it begins `{}`, where a scenario begins `Scenario(` and a saved game `SavedGame(`",
                    opening
                        .lines()
                        .next()
                        .unwrap_or("")
                        .chars()
                        .take(40)
                        .collect::<String>()
                        .trim_end()
                )
            };
            return Err(LoadError {
                file: file.as_ref().to_path_buf(),
                pos: Some(crate::source::source_map::Pos { line: 1, col: 1 }),
                field: String::new(),
                message,
            });
        }
        let raw: RawScenario = src.parse()?;
        validate_with(&src, raw, ruleset)
    }

    /// Validates a scenario already parsed from `src` (a saved game's `scenario`, with
    /// `src.nested("scenario")`).
    pub fn from_raw(src: &Source, raw: RawScenario) -> Result<Scenario, LoadError> {
        validate(src, raw)
    }

    /// `from_raw` with its ruleset given (a saved game carries its user ruleset with it).
    pub fn from_raw_with_ruleset(src: &Source, raw: RawScenario, ruleset: Arc<Ruleset>) -> Result<Scenario, LoadError> {
        validate_with(src, raw, RulesetFrom::Given(ruleset))
    }

    /// Whether its ruleset is a user's ruleset file rather than a built-in one.
    pub fn has_user_ruleset(&self) -> bool {
        super::user_ruleset::names_a_file(&self.raw.ruleset)
    }

    /// Reads, parses and validates a scenario file.
    pub fn load(path: impl AsRef<Path>) -> Result<Scenario, LoadError> {
        let path = path.as_ref();
        Self::from_ron_str(path, &crate::source::read_file(path)?)
    }

    pub fn side_index(&self, id: &str) -> Option<usize> {
        self.sides.iter().position(|s| s.id == id)
    }
}

/// The scenario's ruleset: `given` (a saved game's own copy of a user ruleset), a built-in one,
/// or a user ruleset file found from the scenario's file (`user_ruleset`).
fn ruleset_of(src: &Source, raw: &RawScenario, from: RulesetFrom) -> Result<Arc<Ruleset>, LoadError> {
    if let RulesetFrom::Given(r) = from {
        return Ok(r);
    }
    if let Some(r) = Ruleset::builtin(&raw.ruleset) {
        return r.map(Arc::new);
    }
    if super::user_ruleset::names_a_file(&raw.ruleset) && matches!(from, RulesetFrom::BuiltIn) {
        return Err(src.error(
            "ruleset",
            format!("the ruleset file `{}` was not given with the scenario", raw.ruleset),
        ));
    }
    if super::user_ruleset::names_a_file(&raw.ruleset) {
        return match super::user_ruleset::load(&raw.ruleset, &src.file) {
            Ok(loaded) => loaded.map(Arc::new),
            Err(why) => Err(src.error("ruleset", why)),
        };
    }
    let names: Vec<String> = super::ruleset::BUILTIN.iter().map(|(n, _)| n.to_string()).collect();
    Err(src.error(
        "ruleset",
        format!(
            "there is no ruleset `{}`: the rulesets are {}, or a ruleset file of yours (`my-rules.ron`)",
            raw.ruleset,
            list(names.iter())
        ),
    ))
}

/// Where a scenario's ruleset may come from.
enum RulesetFrom {
    /// Built-in, or a user ruleset file found from the scenario's file.
    Files,
    /// Built-in only (a server reads no file a scenario names).
    BuiltIn,
    /// This one (a saved game's or an upload's copy of a user ruleset).
    Given(Arc<Ruleset>),
}

fn validate(src: &Source, raw: RawScenario) -> Result<Scenario, LoadError> {
    validate_with(src, raw, RulesetFrom::Files)
}

fn validate_with(src: &Source, raw: RawScenario, given: RulesetFrom) -> Result<Scenario, LoadError> {
    super::limits::scenario(src, &raw)?;
    let ruleset = ruleset_of(src, &raw, given)?;
    let board = validate_map(src, &raw, &ruleset)?;
    let grid = board.grid;
    let cell_at = |field: String, label: &str| cell_on_map(src, &grid, field, label);

    let mut places = BTreeMap::new();
    for (label, name) in &raw.map.places {
        places.insert(cell_at(format!("map.places.{label}"), label)?, name.clone());
    }

    let mut sides = validate_sides(src, &raw)?;
    let side_ids: Vec<String> = sides.iter().map(|s| s.id.clone()).collect();
    let side_of = |field: String, id: &str| -> Result<usize, LoadError> {
        side_ids.iter().position(|s| s == id).ok_or_else(|| {
            src.error(
                field,
                format!("unknown side `{id}`: the sides are {}", list(side_ids.iter())),
            )
        })
    };
    let first_side = side_of("first_side".into(), &raw.first_side)?;
    if raw.turns == 0 {
        return Err(src.error("turns", "a scenario needs at least one turn"));
    }

    let (objectives, win) = objectives_and_win(src, &raw, &cell_at, &side_of)?;
    let otherwise = raw
        .otherwise
        .as_deref()
        .map(|s| side_of("otherwise".into(), s))
        .transpose()?;
    if raw.otherwise_level.is_some() && otherwise.is_none() {
        return Err(src.error(
            "otherwise_level",
            "`otherwise_level` grades the `otherwise` win, but `otherwise` is left out (a draw has no level)",
        ));
    }
    if raw.otherwise_level.is_some() && win.iter().any(|w| w.level.is_none()) {
        return Err(src.error(
            "otherwise_level",
            "`otherwise_level` is given, so every `win` condition needs a `level` too (Marginal, Substantive or Decisive)",
        ));
    }

    let mut units: Vec<UnitSetup> = Vec::new();
    let mut seen = HashSet::new();
    let mut deployment = Deployment::new(&ruleset, &board, &side_ids, raw.progress.is_some());
    for (i, u) in raw.units.iter().enumerate() {
        let f = |name: &str| format!("units[{i}].{name}");
        if i == MAX_UNITS {
            return Err(src.error(
                format!("units[{i}]"),
                format!(
                    "the scenario has {} units; at most {MAX_UNITS} are allowed",
                    raw.units.len()
                ),
            ));
        }
        super::limits::unit(src, i, u)?;
        if !seen.insert(u.id.as_str()) {
            return Err(src.error(f("id"), format!("unit id `{}` is used by an earlier unit", u.id)));
        }
        units.push(unit_setup(src, i, u, &ruleset, &board, &cell_at, &side_of)?);
        arrival_turns(src, i, u, raw.turns)?;
        // A reinforcement is not on the map at the start: its cell is checked when it enters.
        if u.arrives.is_none() {
            deployment.place(src, i, units.last().expect("just pushed"), &u.cell)?;
        }
    }
    if let Some(p) = &raw.progress {
        validate_progress(src, p, &raw, &ruleset, &seen, &side_of, &cell_at)?;
    }
    for u in &units {
        let (Some(side), Some(element)) = (sides.get_mut(u.side), &u.element) else {
            continue;
        };
        if !side.formations.contains(element) {
            side.formations.push(element.clone());
        }
    }
    Ok(Scenario {
        ruleset,
        board,
        places,
        sides,
        first_side,
        objectives,
        win,
        otherwise,
        otherwise_level: raw.otherwise_level,
        units,
        raw,
    })
}

/// The sides: at least two, each id once, colours that parse.
fn validate_sides(src: &Source, raw: &RawScenario) -> Result<Vec<SideInfo>, LoadError> {
    if raw.sides.len() < 2 {
        return Err(src.error("sides", "a scenario needs at least two sides"));
    }
    let mut sides: Vec<SideInfo> = Vec::new();
    for (i, s) in raw.sides.iter().enumerate() {
        if sides.iter().any(|o: &SideInfo| o.id == s.id) {
            return Err(src.error(format!("sides[{i}].id"), format!("side id `{}` is used twice", s.id)));
        }
        sides.push(SideInfo {
            id: s.id.clone(),
            name: s.name.clone(),
            color: parse_color(&s.color).map_err(|m| src.error(format!("sides[{i}].color"), m))?,
            home_edge: s.home_edge,
            formations: Vec::new(),
        });
    }
    Ok(sides)
}

/// Where a first-format save stands: its side, phase and turn, and the units it names.
fn validate_progress(
    src: &Source,
    p: &super::file::RawProgress,
    raw: &RawScenario,
    ruleset: &Ruleset,
    seen: &HashSet<&str>,
    side_of: &dyn Fn(String, &str) -> Result<usize, LoadError>,
    cell_at: &dyn Fn(String, &str) -> Result<Cell, LoadError>,
) -> Result<(), LoadError> {
    side_of("progress.side".into(), &p.side)?;
    if p.phase >= ruleset.raw.player_turn.len() {
        return Err(src.error(
            "progress.phase",
            format!(
                "phase {} does not exist: the player turn has {} phases",
                p.phase,
                ruleset.raw.player_turn.len()
            ),
        ));
    }
    if p.turn == 0 || p.turn > raw.turns {
        return Err(src.error("progress.turn", format!("turn {} is outside 1..={}", p.turn, raw.turns)));
    }
    let known = |field: String, id: &str| {
        if seen.contains(id) {
            Ok(())
        } else {
            Err(src.error(field, format!("no unit has the id `{id}`")))
        }
    };
    for (id, mp) in &p.spent {
        known(format!("progress.spent.{id}"), id)?;
        if Mp::from_f32(*mp).is_none() {
            return Err(src.error(
                format!("progress.spent.{id}"),
                format!("{mp} is not a movement point count: use a non-negative multiple of 1/6"),
            ));
        }
    }
    for (i, id) in p.attacked.iter().enumerate() {
        known(format!("progress.attacked[{i}]"), id)?;
    }
    for (id, label) in &p.came_from {
        known(format!("progress.came_from.{id}"), id)?;
        cell_at(format!("progress.came_from.{id}"), label)?;
    }
    Ok(())
}

/// One unit as the game spawns it: on the map, on terrain it may stand in, with values and a
/// movement allowance that make sense, of a known side.
fn unit_setup(
    src: &Source,
    i: usize,
    u: &super::file::RawUnit,
    ruleset: &Ruleset,
    board: &crate::rules::terrain::Board,
    cell_at: &dyn Fn(String, &str) -> Result<Cell, LoadError>,
    side_of: &dyn Fn(String, &str) -> Result<usize, LoadError>,
) -> Result<UnitSetup, LoadError> {
    let f = |name: &str| format!("units[{i}].{name}");
    let cell = cell_at(f("cell"), &u.cell)?;
    let terrain = board.terrain(cell).expect("cell checked on map");
    let mobility = u.mobility.unwrap_or(ruleset.mobility_of(u.class));
    if ruleset.movement.terrain[terrain.0 as usize].1[mobility as usize].is_none() {
        return Err(src.error(
            f("cell"),
            format!(
                "{} starts in {} at {}, which is prohibited terrain for {mobility:?} units",
                u.id,
                ruleset.movement.terrain_name(terrain),
                u.cell
            ),
        ));
    }
    let steps = step_track(src, i, u)?;
    let movement = Mp::from_f32(u.movement).ok_or_else(|| {
        src.error(
            f("movement"),
            format!(
                "{} is not a movement allowance: use a non-negative multiple of 1/6",
                u.movement
            ),
        )
    })?;
    Ok(UnitSetup {
        id: u.id.clone(),
        name: u.name.clone(),
        side: side_of(f("side"), &u.side)?,
        class: u.class,
        size: u.size,
        cell,
        steps,
        armor: u.armor,
        movement,
        mobility,
        er: u.er,
        element: u.element.clone(),
        parent: u.parent.clone(),
        status: u.status.clone(),
        traits: u.traits.clone(),
        experience: u.experience,
        stacking_points: u.stacking_points.unwrap_or(ruleset.size_points(u.size)),
        arrives: u.arrives,
        withdraws: u.withdraws,
    })
}

/// The objectives (one per cell) and the win conditions (sides, and cells that are objectives).
fn objectives_and_win(
    src: &Source,
    raw: &RawScenario,
    cell_at: &impl Fn(String, &str) -> Result<Cell, LoadError>,
    side_of: &impl Fn(String, &str) -> Result<usize, LoadError>,
) -> Result<(Vec<Objective>, Vec<WinCondition>), LoadError> {
    let mut objectives: Vec<Objective> = Vec::new();
    let mut by_cell: HashMap<Cell, usize> = HashMap::new();
    for (i, o) in raw.objectives.iter().enumerate() {
        let cell = cell_at(format!("objectives[{i}].cell"), &o.cell)?;
        if let Some(&other) = by_cell.get(&cell) {
            return Err(src.error(
                format!("objectives[{i}].cell"),
                format!(
                    "{} is already the objective `{}`: one objective per cell",
                    o.cell, objectives[other].name
                ),
            ));
        }
        by_cell.insert(cell, objectives.len());
        objectives.push(Objective {
            cell,
            name: o.name.clone(),
            points: o.points,
            held_by: o
                .held_by
                .as_deref()
                .map(|s| side_of(format!("objectives[{i}].held_by"), s))
                .transpose()?,
        });
    }

    let mut win = Vec::new();
    for (i, w) in raw.win.iter().enumerate() {
        let mut hold = Vec::new();
        for (j, label) in w.hold.iter().enumerate() {
            let field = format!("win[{i}].hold[{j}]");
            let cell = cell_at(field.clone(), label)?;
            if !by_cell.contains_key(&cell) {
                return Err(src.error(field, format!("{label} is not one of the scenario's objectives")));
            }
            hold.push(cell);
        }
        if hold.is_empty() && w.points.is_none() && !w.more_points && w.lead.is_none() {
            return Err(src.error(
                format!("win[{i}]"),
                "a win condition needs `hold`, `points`, `more_points` or `lead`",
            ));
        }
        if w.lead == Some(0) {
            return Err(src.error(
                format!("win[{i}].lead"),
                "a lead of 0 points is no lead: write `more_points: true` for more points than the other side, or a lead of 1 or more",
            ));
        }
        win.push(WinCondition {
            side: side_of(format!("win[{i}].side"), &w.side)?,
            hold,
            points: w.points,
            more_points: w.more_points,
            sudden_death: w.sudden_death,
            lead: w.lead,
            level: w.level,
        });
    }
    // Levels are all or nothing: "the highest level met decides" means nothing when some
    // conditions have none.
    if let Some(graded) = raw.win.iter().position(|w| w.level.is_some())
        && let Some(plain) = raw.win.iter().position(|w| w.level.is_none())
    {
        return Err(src.error(
            format!("win[{plain}].level"),
            format!(
                "win[{graded}] gives a `level`, so every condition needs one: {}",
                VictoryLevel::ALL.map(|l| format!("{l:?}")).join(", ")
            ),
        ));
    }
    Ok((objectives, win))
}

/// A reinforcement enters on turn 2 or later (turn 1's units are simply on the map), a withdrawal
/// leaves after it entered, both within the game's turns.
fn arrival_turns(src: &Source, i: usize, u: &super::file::RawUnit, turns: u32) -> Result<(), LoadError> {
    if let Some(t) = u.arrives
        && !(2..=turns).contains(&t)
    {
        return Err(src.error(
            format!("units[{i}].arrives"),
            format!(
                "{} arrives on turn {t}, but reinforcements enter on turns 2 to {turns} (a unit on the map from the start leaves `arrives` out)",
                u.id
            ),
        ));
    }
    if let Some(t) = u.withdraws {
        let earliest = u.arrives.map_or(2, |a| a + 1);
        if !(earliest..=turns).contains(&t) {
            return Err(src.error(
                format!("units[{i}].withdraws"),
                format!(
                    "{} withdraws on turn {t}, but it can only withdraw on turns {earliest} to {turns}",
                    u.id
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::SideInfo;

    fn side(name: &str, color: [u8; 3]) -> SideInfo {
        SideInfo {
            id: name.to_lowercase(),
            name: name.into(),
            color,
            home_edge: None,
            formations: vec![],
        }
    }

    #[test]
    fn a_side_colour_is_found_by_its_name_and_a_lost_name_is_grey() {
        let sides = [side("German", [90, 90, 90]), side("Soviet", [170, 40, 30])];
        assert_eq!(SideInfo::colour_named(&sides, "Soviet"), [170, 40, 30]);
        assert_eq!(SideInfo::colour_named(&sides, "German"), [90, 90, 90]);
        assert_eq!(SideInfo::colour_named(&sides, "soviet"), [150, 150, 150]);
        assert_eq!(SideInfo::colour_named(&[], "German"), [150, 150, 150]);
    }
}
