//! The moments of a logged game a streamer shows: every combat with its exact odds and how
//! unlikely its result was (the "biggest upset" ordering), and the board at each turn's end.
//! Found by replaying the log headless through the game's own orders.

use crate::combat::odds::{Fraction, OutcomeOdds, Summary};
use crate::combat::{CombatResult, Odds, Role, Situation};
use crate::game::combat_phase::CombatResolved;
use crate::game::components::{MovePoints, Position, Side, Sides, Steps, Unit, values_text};
use crate::game::execute::replay_entry;
use crate::game::fight::odds_before;
use crate::game::log::LogEntry;
use crate::game::order::Order;
use crate::game::phase::{GameState, TurnState};
use crate::game::save::{LoadedGame, replay_app};
use crate::rules::grid::Cell;
use bevy::ecs::message::Messages;
use bevy::prelude::*;

/// One bar of the odds chart: a result (by its table code) and its exact probability.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub exact: Fraction,
    /// The result the dice gave.
    pub happened: bool,
    /// How good the result is for the attacker (steps lost by the defender less the attacker's,
    /// doubled, plus one for taking the cell): the bar's colour says whom it favours.
    pub gain: i64,
    /// The result in a few plain words (`defender −2 steps, retreats 2 cells; attacker −1 step`).
    pub words: String,
}

impl Bar {
    /// The table codes of the results this bar stands for (one, or several that read the same).
    pub fn codes(&self) -> impl Iterator<Item = &str> {
        self.label.split(CODES_APART)
    }
}

/// Between the codes of a bar that stands for several results.
const CODES_APART: &str = " · ";

/// A combat of the log, with what the odds said before the dice and what the dice did.
#[derive(Clone, Debug, PartialEq)]
pub struct CombatMoment {
    /// The log entry that rolled it (0-based).
    pub entry: usize,
    /// The entry whose carrying out showed the result: the roll's, or the defender's answer.
    pub resolved_in: usize,
    pub turn: u32,
    /// The attacking side's name.
    pub attacker_side: String,
    pub defender_side: String,
    pub target: Cell,
    pub attackers: Vec<String>,
    pub defenders: Vec<String>,
    /// `13:5 = 2:1` and the column read, if the rules use a table.
    pub ratio: String,
    pub column: Option<String>,
    /// Every modifier in plain words, `+1 column: attacker's armour (combined arms)`.
    pub modifiers: Vec<String>,
    /// The results by code, most likely first.
    pub bars: Vec<Bar>,
    /// What the odds led the viewers to expect.
    pub expected: Summary,
    /// The result's code and both sides' losses in words, as the game logged them.
    pub result: String,
    pub result_words: String,
    /// What the defender's answer made of the dice's result (a step taken instead of a
    /// retreat), in words, when it differs from what the dice gave.
    pub answered: Option<String>,
    pub dice: Vec<u8>,
    /// What each die was rolled for (`combat`, `attrition`…), in the same order.
    pub dice_purposes: Vec<String>,
    /// The exact probability of this very result.
    pub p_result: Fraction,
    /// The chance of a result at least this far from the expected, in the direction it went: the
    /// "upset" measure (lowest first is the biggest upset).
    pub upset: Fraction,
    /// Who did better than the odds said.
    pub beat_the_odds: Role,
    /// The board just before the dice, and the attackers' cells.
    pub board: Vec<UnitAt>,
    pub attacker_cells: Vec<Cell>,
}

impl CombatMoment {
    /// A line for lists: `Turn 3, 2431: German 3:1 (+1 column) → AE, 1 in 36`.
    pub fn headline(&self) -> String {
        format!(
            "Turn {}, {}: {} attack at {}{} → {} ({:.1}%; a result this good for the {} had {})",
            self.turn,
            self.target,
            self.attacker_side,
            self.ratio,
            self.column
                .as_ref()
                .map(|c| format!(", column {c}"))
                .unwrap_or_default(),
            self.result,
            self.p_result.as_f64() * 100.0,
            match self.beat_the_odds {
                Role::Attacker => "attacker",
                Role::Defender => "defender",
            },
            chance_words(self.upset),
        )
    }
}

/// `1 in 36`, `12.5%`: a small chance as a streamer says it.
pub fn chance_words(p: Fraction) -> String {
    let f = p.as_f64();
    if f > 0.0 && f < 0.2 {
        format!("1 in {:.0}", 1.0 / f)
    } else {
        format!("{:.0}%", f * 100.0)
    }
}

/// Where a unit stood at a turn's end.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitAt {
    pub id: String,
    pub cell: Cell,
    pub side: usize,
    /// Steps left of its track, for the picture's pips.
    pub steps: u32,
    /// Its values line as the counter prints it (`7-3`, `5-6-8`).
    pub values: String,
}

/// The board when a turn ended (or the log did).
#[derive(Clone, Debug, PartialEq)]
pub struct TurnEnd {
    pub turn: u32,
    /// Log entries carried out by then.
    pub entries: usize,
    pub units: Vec<UnitAt>,
    /// Objective points by side.
    pub points: Vec<u32>,
    /// The game was over here.
    pub over: bool,
    /// Then, who won and why, in words.
    pub verdict: Option<String>,
}

/// What a log holds for a show.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moments {
    pub combats: Vec<CombatMoment>,
    pub turn_ends: Vec<TurnEnd>,
    /// The entry that did not replay as recorded, if one did not (the moments stop there).
    pub problem: Option<String>,
}

impl Moments {
    /// The combats from the biggest upset down: the lowest `upset` chance first, then the least
    /// likely result, then the earliest.
    pub fn biggest_upsets(&self) -> Vec<&CombatMoment> {
        let mut list: Vec<&CombatMoment> = self.combats.iter().collect();
        list.sort_by(|a, b| {
            less_likely(a.upset, b.upset)
                .then(less_likely(a.p_result, b.p_result))
                .then(a.entry.cmp(&b.entry))
        });
        list
    }
}

/// Orders exact probabilities (cross-multiplied; no rounding ties).
pub fn less_likely(a: Fraction, b: Fraction) -> std::cmp::Ordering {
    (a.num * b.den).cmp(&(b.num * a.den))
}

/// The game `game` replayed from its start: every combat's moment and every turn's end.
pub fn find(game: &LoadedGame) -> Result<Moments, String> {
    let mut app = replay_app(game, Some(0)).map_err(|e| e.to_string())?;
    Ok(find_in(app.world_mut(), &game.log))
}

/// Replays `log` on `world` (a game at its start) and collects its moments.
pub fn find_in(world: &mut World, log: &[LogEntry]) -> Moments {
    let mut moments = Moments::default();
    // A combat rolled whose result waits for the defender's answer: its odds and board, for
    // the entry that answers it.
    let mut waiting = None;
    for (i, entry) in log.iter().enumerate() {
        let turn = world.resource::<TurnState>().turn;
        // The entry the combat's dice were rolled in: an answer's combat is its attack's.
        let (rolled_in, before) = match (&entry.order, waiting.take()) {
            (Order::Answer(_), Some((at, w))) => (at, Some(w)),
            _ => (
                i,
                odds_before(world, &entry.order).map(|b| b.map(|(p, o)| (p, o, Vec::new()))),
            ),
        };
        let sides = side_names(world.resource::<TurnState>(), world.resource::<Sides>());
        let board = match &before {
            Some(Ok((_, _, kept))) if !kept.is_empty() => kept.clone(),
            Some(Ok(_)) => units_now(world),
            _ => Vec::new(),
        };
        // Ending a phase may start the next turn, whose arrivals and withdrawals are not the
        // last turn's end: its board is the one before.
        let ending = matches!(entry.order, Order::EndPhase).then(|| turn_end(world, turn, i + 1, false));
        world.resource_mut::<Messages<CombatResolved>>().clear();
        if let Err(e) = replay_entry(world, i, entry) {
            moments.problem = Some(e.to_string());
            break;
        }
        let fought = world.resource_mut::<Messages<CombatResolved>>().drain().last();
        let answer_waits = fought.is_none() && world.resource::<crate::game::combat_phase::PendingAnswer>().0.is_some();
        match (before, fought) {
            (Some(Ok((planned, odds, _))), _) if answer_waits => waiting = Some((i, Ok((planned, odds, board)))),
            (Some(Ok((planned, odds, _))), Some(fought)) => {
                let fresh = before_roll(rolled_in, turn, sides, planned.order.target, &planned.situation, &odds);
                let mut m = rolled(fresh, &odds, &fought);
                m.board = board;
                m.attacker_cells = planned.attacker_cells;
                m.resolved_in = i;
                moments.combats.push(m);
            }
            _ => {}
        }
        let over = world
            .get_resource::<State<GameState>>()
            .is_some_and(|s| *s.get() == GameState::Over);
        let next_turn = world.resource::<TurnState>().turn != turn;
        if next_turn
            && !over
            && let Some(end) = ending
        {
            moments.turn_ends.push(end);
        } else if next_turn || over || i + 1 == log.len() {
            moments.turn_ends.push(turn_end(world, turn, i + 1, over));
        }
        if over {
            break;
        }
    }
    moments
}

/// The board now, as a turn's end.
fn turn_end(world: &mut World, turn: u32, entries: usize, over: bool) -> TurnEnd {
    TurnEnd {
        turn,
        entries,
        units: units_now(world),
        points: crate::game::victory::points_now(world),
        over,
        verdict: world
            .get_resource::<crate::game::victory::Verdict>()
            .filter(|_| over)
            .map(|v| v.reason.clone()),
    }
}

/// Every unit on the map, by id.
fn units_now(world: &mut World) -> Vec<UnitAt> {
    let full = world
        .resource::<crate::game::components::GameMap>()
        .ruleset
        .combat
        .counter_prints_defense();
    let mut units: Vec<UnitAt> = world
        .query::<(&Unit, &Position, &Side, &Steps, &MovePoints)>()
        .iter(world)
        .map(|(u, p, s, steps, mp)| UnitAt {
            id: u.id.clone(),
            cell: p.0,
            side: s.0,
            steps: steps.0.remaining() as u32,
            values: values_text(steps, mp, full),
        })
        .collect();
    units.sort_by(|a, b| a.id.cmp(&b.id));
    units
}

/// For the attacker, how good a result is: the defender's steps lost less its own, and half a
/// step for taking the cell.
fn attacker_gain(r: &CombatResult) -> i64 {
    2 * (i64::from(r.defender.steps_lost) - i64::from(r.attacker.steps_lost)) + i64::from(r.cell_taken)
}

/// The outcome among `odds` the dice gave, for what `happened`: the same result, or the one the
/// defender answered otherwise than the odds assumed (took a retreat as steps, and so cost the
/// attacker an attritional loss): one of whose answers led there, else the one of the same table
/// code nearest it. The answer was the defender's choice, not luck: the upset is the dice's.
pub fn dice_gave<'a>(outcomes: &'a [OutcomeOdds], happened: &CombatResult) -> Option<&'a CombatResult> {
    let same = outcomes.iter().find(|o| o.result == *happened);
    let answered = || {
        outcomes.iter().find(|o| {
            o.answers
                .iter()
                .any(|a| a.outcomes.iter().any(|x| x.result == *happened))
        })
    };
    let same_code = || {
        let gain = attacker_gain(happened);
        outcomes
            .iter()
            .filter(|o| o.result.code == happened.code)
            .min_by_key(|o| (attacker_gain(&o.result) - gain).abs())
    };
    same.or_else(answered).or_else(same_code).map(|o| &o.result)
}

/// The upset measure of `happened` among `odds`' outcomes: the chance of a result at least as
/// good for the side it favoured, and that side.
pub fn upset_of(odds: &Odds, happened: &CombatResult) -> (Fraction, Role) {
    let gain = attacker_gain(happened);
    let (mut at_least, mut at_most) = (Fraction::ZERO, Fraction::ZERO);
    for o in &odds.outcomes {
        let g = attacker_gain(&o.result);
        if g >= gain {
            at_least = at_least.plus(o.exact);
        }
        if g <= gain {
            at_most = at_most.plus(o.exact);
        }
    }
    if less_likely(at_least, at_most).is_lt() {
        (at_least, Role::Attacker)
    } else {
        (at_most, Role::Defender)
    }
}

/// A side's colour as a bar's fill behind light type: darkened until its luma is at most 90
/// (so the type reads at 4.5:1 or better), its hue kept.
pub fn bar_tone([r, g, b]: [u8; 3]) -> [u8; 3] {
    let luma = 0.2126 * f32::from(r) + 0.7152 * f32::from(g) + 0.0722 * f32::from(b);
    let k = if luma > 90.0 { 90.0 / luma } else { 1.0 };
    let f = |c: u8| (f32::from(c) * k).round() as u8;
    [f(r), f(g), f(b)]
}

/// The odds as bars by result, most likely first, with the one that happened marked. Results
/// that read the same in words are one bar (Rommel's "2 hits" and "3 hits" on a one-step
/// defender both eliminate it), their codes listed in its label.
pub fn bars(odds: &Odds, happened: Option<&CombatResult>) -> Vec<Bar> {
    let mut bars: Vec<Bar> = Vec::new();
    for o in &odds.outcomes {
        let label = o.result.code.to_string();
        let words = result_words(&o.result);
        let hit = happened.is_some_and(|h| *h == o.result);
        match bars
            .iter_mut()
            .find(|b| b.codes().any(|l| l == label) || b.words == words)
        {
            Some(b) => {
                b.exact = b.exact.plus(o.exact);
                b.happened |= hit;
                if !b.codes().any(|l| l == label) {
                    b.label = format!("{}{CODES_APART}{label}", b.label);
                }
            }
            None => bars.push(Bar {
                label,
                exact: o.exact,
                happened: hit,
                gain: attacker_gain(&o.result),
                words,
            }),
        }
    }
    bars.sort_by(|a, b| less_likely(b.exact, a.exact));
    bars
}

/// `1 cell`, `3 cells`.
pub fn cells_words(n: usize) -> String {
    format!("{n} cell{}", if n == 1 { "" } else { "s" })
}

/// A result in a few plain words: each side's losses, the defender's retreat, the cell taken.
pub fn result_words(r: &CombatResult) -> String {
    let side = |name: &str, s: &crate::combat::SideResult| {
        let mut parts = Vec::new();
        if s.units.iter().any(|u| u.eliminated) && s.units.iter().all(|u| u.eliminated) {
            parts.push("eliminated".to_string());
        } else if s.steps_lost > 0 {
            parts.push(format!(
                "−{} step{}",
                s.steps_lost,
                if s.steps_lost == 1 { "" } else { "s" }
            ));
        }
        // A status every surviving unit gained (`dispersed`, `disorganized`…).
        let standing: Vec<_> = s.units.iter().filter(|u| !u.eliminated).collect();
        for status in crate::rules::units::UnitStatus::ALL {
            if !standing.is_empty() && standing.iter().all(|u| u.gained.has(status)) {
                parts.push(status.word().to_string());
            }
        }
        if let Some(r) = &s.retreat {
            // The distance tells apart results that differ only in it (`DW` and `dw`).
            let may = if r.optional { "may retreat" } else { "retreats" };
            parts.push(match r.cells {
                0 => may.to_string(),
                n => format!("{may} {}", cells_words(n as usize)),
            });
        }
        (!parts.is_empty()).then(|| format!("{name} {}", parts.join(", ")))
    };
    let mut out: Vec<String> = [side("defender", &r.defender), side("attacker", &r.attacker)]
        .into_iter()
        .flatten()
        .collect();
    if r.cell_taken && r.defender.retreat.is_none() && !r.defender_eliminated() {
        out.push("cell taken".into());
    }
    if out.is_empty() {
        "no effect".into()
    } else {
        out.join("; ")
    }
}

/// A modifier's words without the engine's terms: `<=` as `≤`, no "(authored chart)".
fn plain(line: &str) -> String {
    line.replace(" (authored chart)", "")
        .replace("authored chart", "designer's chart")
        .replace("<=", "≤")
        .replace(">=", "≥")
}

/// A prediction as a commentator says it: a share far from even softened to words (`heavily
/// favoured`), never a flat 100% from a few quick games.
pub fn prediction_words(side: &str, share: f64) -> String {
    match share {
        s if s >= 0.9 => format!("{side} heavily favoured"),
        s if s >= 0.7 => format!("{side} favoured"),
        s if s >= 0.55 => format!("{side} slightly favoured"),
        _ => "Too close to call".into(),
    }
}

/// Every modifier in plain words: `+1 column: across no river (attacker)`.
pub fn modifier_words(odds: &Odds) -> Vec<String> {
    odds.assessment
        .modifiers
        .iter()
        .map(|m| plain(&format!("{}: {} ({})", m.effect, m.source, m.side)))
        .collect()
}

/// The side to play and the first other side, by name (attacker and defender of a combat now).
pub fn side_names(turn: &TurnState, sides: &Sides) -> (String, String) {
    let active = turn.active.0;
    let name = |i: Option<usize>| {
        i.and_then(|i| sides.0.get(i))
            .map_or_else(|| "?".to_string(), |s| s.name.clone())
    };
    (name(Some(active)), name((0..sides.0.len()).find(|i| *i != active)))
}

/// A combat about to be rolled: everything but the result (`result` empty, no bar lit).
pub fn before_roll(
    entry: usize,
    turn: u32,
    (attacker_side, defender_side): (String, String),
    target: Cell,
    s: &Situation,
    odds: &Odds,
) -> CombatMoment {
    CombatMoment {
        entry,
        resolved_in: entry,
        turn,
        attacker_side,
        defender_side,
        target,
        attackers: s.attackers.iter().map(|c| c.name.clone()).collect(),
        defenders: s.defenders.iter().map(|c| c.name.clone()).collect(),
        ratio: odds.assessment.ratio.clone(),
        column: odds.assessment.cell.as_ref().map(|c| c.column.clone()),
        modifiers: modifier_words(odds),
        bars: bars(odds, None),
        expected: odds.summary,
        result: String::new(),
        result_words: String::new(),
        answered: None,
        dice: Vec::new(),
        dice_purposes: Vec::new(),
        p_result: Fraction::ZERO,
        upset: Fraction::ONE,
        beat_the_odds: Role::Attacker,
        board: Vec::new(),
        attacker_cells: Vec::new(),
    }
}

/// The combat `m` (with the `odds` it was shown with) after the dice: its result lit.
pub fn rolled(mut m: CombatMoment, odds: &Odds, fought: &CombatResolved) -> CombatMoment {
    let luck = dice_gave(&odds.outcomes, &fought.result).unwrap_or(&fought.result);
    m.p_result = odds
        .outcomes
        .iter()
        .find(|o| o.result == *luck)
        .map_or(Fraction::ZERO, |o| o.exact);
    (m.upset, m.beat_the_odds) = upset_of(odds, luck);
    m.bars = bars(odds, Some(luck));
    m.result = fought.result.code.to_string();
    m.result_words = fought.summary.clone();
    m.answered = (*luck != fought.result).then(|| result_words(&fought.result));
    m.dice = fought.rolls.iter().map(|r| r.face).collect();
    m.dice_purposes = fought.rolls.iter().map(|r| r.purpose.to_string()).collect();
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::ResultCode;
    use crate::combat::SideResult;

    fn result(code: &str, attacker_lost: u32, defender_lost: u32) -> CombatResult {
        let side = |steps_lost| SideResult {
            steps_lost,
            ..SideResult::default()
        };
        CombatResult {
            code: ResultCode::Table(code.into()),
            attacker: side(attacker_lost),
            defender: side(defender_lost),
            cell_taken: false,
        }
    }

    fn odds(r: CombatResult, sixths: u128) -> OutcomeOdds {
        OutcomeOdds {
            result: r,
            probability: sixths as f64 / 6.0,
            exact: Fraction::new(sixths, 6),
            example_dice: vec![],
            answers: vec![],
        }
    }

    #[test]
    fn a_result_the_defender_answered_otherwise_counts_as_the_dice_gave_it() {
        let outcomes = [
            odds(result("1/1", 1, 1), 3),
            odds(result("1/r1", 1, 0), 1),
            odds(result("-/1r1", 0, 1), 2),
        ];
        // The same result.
        let plain = result("-/1r1", 0, 1);
        assert_eq!(dice_gave(&outcomes, &plain), Some(&outcomes[2].result));
        // 1/r1 with the retreat taken as a step, and an attritional loss for the attacker: not
        // among the odds, but the dice gave 1/r1.
        let answered = result("1/r1", 2, 1);
        assert_eq!(dice_gave(&outcomes, &answered), Some(&outcomes[1].result));
        // A code the odds never had: nothing stands for it.
        assert_eq!(dice_gave(&outcomes, &result("DE", 0, 4)), None);
    }

    #[test]
    fn a_result_that_only_disperses_says_so_rather_than_no_effect() {
        use crate::combat::UnitResult;
        use crate::rules::units::UnitStatus;
        let mut dispersed = result("D", 0, 0);
        let mut unit = UnitResult::default();
        unit.gained.insert(UnitStatus::Dispersed);
        dispersed.defender.units.push(unit);
        assert_eq!(result_words(&dispersed), "defender dispersed");
        // One of two dispersed is not the side's result; nothing happened is said plainly.
        dispersed.defender.units.push(UnitResult::default());
        assert_eq!(result_words(&dispersed), "no effect");
        let mut lost = result("1/1", 1, 1);
        lost.defender.units.push(unit);
        assert_eq!(result_words(&lost), "defender −1 step, dispersed; attacker −1 step");
    }

    #[test]
    fn a_retreat_is_said_with_its_distance_so_results_differing_only_in_it_read_apart() {
        let retreat = |cells, optional| {
            let mut r = result("DW", 0, 0);
            r.defender.retreat = Some(crate::combat::RetreatDemand {
                cells,
                chooser: crate::combat::Chooser::Owner,
                optional,
                er_check_in_ezoc: false,
            });
            result_words(&r)
        };
        assert_eq!(retreat(2, false), "defender retreats 2 cells");
        assert_eq!(retreat(1, false), "defender retreats 1 cell");
        assert_eq!(retreat(1, true), "defender may retreat 1 cell");
        let mut both = result("1/1r2", 1, 1);
        both.defender.retreat = Some(crate::combat::RetreatDemand {
            cells: 2,
            chooser: crate::combat::Chooser::Owner,
            optional: false,
            er_check_in_ezoc: false,
        });
        assert_eq!(
            result_words(&both),
            "defender −1 step, retreats 2 cells; attacker −1 step"
        );
    }
}
