//! The lab's tally of a batch: integer counts and sums only, so slices of a batch played on
//! different machines merge exactly (`merge`), and the report printed from a merged tally is
//! byte for byte the report of the whole batch. Win rates carry 95% Wilson intervals.

use super::GameRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One side's combats against one cell over the batch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CellTally {
    pub name: String,
    pub combats: u64,
    pub taken: u64,
    pub attacker_steps: u64,
    pub defender_steps: u64,
    /// Games in which the side took the cell at least once, and of those the games it won.
    pub games_taken: u64,
    pub games_taken_won: u64,
}

/// A batch (or a slice of one) in counts and sums.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub scenario: String,
    pub sides: Vec<String>,
    /// Who played side `i` (in a mirrored batch: in the first game of each seed).
    pub seats: Vec<String>,
    pub seed: u64,
    /// Seeds in the whole batch.
    pub planned: u64,
    pub mirror: bool,
    /// Slices `(i, n)` this tally holds; empty once it holds the whole batch.
    pub slices: Vec<(u64, u64)>,
    pub games: u64,
    pub wins: Vec<u64>,
    pub draws: u64,
    pub unfinished: u64,
    /// Wins of each seat whichever side it played.
    pub seat_wins: Vec<u64>,
    /// Mirrored: seeds on which seat 0 did better as side 0 than seat 1 did (win, draw, loss;
    /// then the objective-point margin, the tempo and the step-loss margin), and seeds on which
    /// both did the same.
    pub pairs: u64,
    pub pairs_first_better: u64,
    pub pairs_equal: u64,
    pub turns: u64,
    pub orders: u64,
    pub steps_lost: Vec<u64>,
    pub refused: u64,
    pub computer_refused: u64,
    /// Objective points held by each side at the end of turn `t`, summed over the games that
    /// reached it, and how many did.
    pub points_by_turn: Vec<Vec<u64>>,
    pub games_by_turn: Vec<u64>,
    /// By `side:cell`.
    pub cells: BTreeMap<String, CellTally>,
}

/// The 95% Wilson score interval of `wins` out of `n`, as fractions.
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z: f64 = 1.959_963_984_540_054;
    let p = wins / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// How well side 0 did in a game, to compare two games of one seed: the result first, then the
/// objective-point margin, then the tempo (a win sooner, a loss later), then the step-loss margin.
fn side0_key(r: &GameRecord) -> (u8, i64, i64, i64) {
    let result = match r.winner {
        Some(0) => 2,
        None => 1,
        Some(_) => 0,
    };
    let points = r.points_by_turn.last().map_or(0, |p| {
        i64::from(p[0]) - p.iter().skip(1).map(|x| i64::from(*x)).sum::<i64>()
    });
    let tempo = match result {
        2 => -i64::from(r.turns),
        0 => i64::from(r.turns),
        _ => 0,
    };
    let steps = r.steps_lost.iter().skip(1).map(|x| i64::from(*x)).sum::<i64>() - i64::from(r.steps_lost[0]);
    (result, points, tempo, steps)
}

impl Tally {
    pub fn new(
        scenario: &str,
        sides: &[String],
        seats: &[String],
        seed: u64,
        planned: u64,
        mirror: bool,
        shard: (u64, u64),
    ) -> Self {
        let n = sides.len();
        Self {
            scenario: scenario.into(),
            sides: sides.to_vec(),
            seats: seats.to_vec(),
            seed,
            planned,
            mirror,
            slices: if shard.1 > 1 { vec![shard] } else { Vec::new() },
            wins: vec![0; n],
            seat_wins: vec![0; n],
            steps_lost: vec![0; n],
            ..Self::default()
        }
    }

    /// Adds the records of a run (in the order `lab::run` returns them).
    pub fn add(&mut self, records: &[GameRecord], place: &dyn Fn(&str) -> String) {
        for r in records {
            self.add_game(r, place);
        }
        if self.mirror {
            for pair in records.chunks(2) {
                if let [a, b] = pair {
                    self.pairs += 1;
                    match side0_key(a).cmp(&side0_key(b)) {
                        std::cmp::Ordering::Greater => self.pairs_first_better += 1,
                        std::cmp::Ordering::Equal => self.pairs_equal += 1,
                        std::cmp::Ordering::Less => {}
                    }
                }
            }
        }
    }

    fn add_game(&mut self, r: &GameRecord, place: &dyn Fn(&str) -> String) {
        let n = self.sides.len();
        self.games += 1;
        match r.winner {
            Some(w) if w < n => {
                self.wins[w] += 1;
                let seat = if r.mirrored { n - 1 - w } else { w };
                self.seat_wins[seat] += 1;
            }
            _ => self.draws += 1,
        }
        self.unfinished += u64::from(!r.finished);
        self.turns += u64::from(r.turns);
        self.orders += u64::from(r.orders);
        for (s, lost) in r.steps_lost.iter().enumerate().take(n) {
            self.steps_lost[s] += u64::from(*lost);
        }
        self.refused += u64::from(r.refused);
        self.computer_refused += u64::from(r.computer_refused);
        for (t, points) in r.points_by_turn.iter().enumerate() {
            if self.points_by_turn.len() <= t {
                self.points_by_turn.push(vec![0; n]);
                self.games_by_turn.push(0);
            }
            self.games_by_turn[t] += 1;
            for (s, p) in points.iter().enumerate().take(n) {
                self.points_by_turn[t][s] += u64::from(*p);
            }
        }
        let mut taken_here: Vec<String> = Vec::new();
        for c in &r.combats {
            let key = format!("{}:{}", c.side, c.target);
            let cell = self.cells.entry(key.clone()).or_default();
            if cell.name.is_empty() {
                cell.name = place(&c.target);
            }
            cell.combats += 1;
            cell.taken += u64::from(c.taken);
            cell.attacker_steps += u64::from(c.attacker_steps);
            cell.defender_steps += u64::from(c.defender_steps);
            if c.taken && !taken_here.contains(&key) {
                taken_here.push(key);
            }
        }
        for key in taken_here {
            let side: usize = key.split(':').next().and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
            let cell = self.cells.entry(key).or_default();
            cell.games_taken += 1;
            cell.games_taken_won += u64::from(r.winner == Some(side));
        }
    }

    /// Adds another slice of the same batch; refuses a slice of another batch or one already in.
    pub fn merge(&mut self, other: &Tally) -> Result<(), String> {
        let same = self.scenario == other.scenario
            && self.sides == other.sides
            && self.seats == other.seats
            && self.seed == other.seed
            && self.planned == other.planned
            && self.mirror == other.mirror;
        if !same {
            let what = |t: &Tally| {
                format!(
                    "`{}` {} seed {} ({} seeds{})",
                    t.scenario,
                    t.seats.join(" vs "),
                    t.seed,
                    t.planned,
                    if t.mirror { ", mirrored" } else { "" }
                )
            };
            return Err(format!("not slices of one batch: {} and {}", what(self), what(other)));
        }
        if other.slices.is_empty() || self.slices.is_empty() {
            return Err("one of the tallies already holds the whole batch".into());
        }
        if let Some(s) = other.slices.iter().find(|s| self.slices.contains(s)) {
            return Err(format!("slice {}/{} is in both tallies", s.0, s.1));
        }
        // Slices of different counts overlap (0/2 holds 0/4's games): only one N merges.
        if let Some(s) = other
            .slices
            .iter()
            .chain(&self.slices)
            .find(|s| s.1 != self.slices[0].1)
        {
            return Err(format!(
                "slice {}/{} does not fit slices of {}: merge slices of one --shard count",
                s.0, s.1, self.slices[0].1
            ));
        }
        self.slices.extend(other.slices.iter().copied());
        self.slices.sort();
        let add = |a: &mut Vec<u64>, b: &[u64]| {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        };
        self.games += other.games;
        add(&mut self.wins, &other.wins);
        self.draws += other.draws;
        self.unfinished += other.unfinished;
        add(&mut self.seat_wins, &other.seat_wins);
        self.pairs += other.pairs;
        self.pairs_first_better += other.pairs_first_better;
        self.pairs_equal += other.pairs_equal;
        self.turns += other.turns;
        self.orders += other.orders;
        add(&mut self.steps_lost, &other.steps_lost);
        self.refused += other.refused;
        self.computer_refused += other.computer_refused;
        add(&mut self.games_by_turn, &other.games_by_turn);
        for (t, p) in other.points_by_turn.iter().enumerate() {
            if self.points_by_turn.len() <= t {
                self.points_by_turn.push(vec![0; p.len()]);
            }
            add(&mut self.points_by_turn[t], p);
        }
        for (k, c) in &other.cells {
            let mine = self.cells.entry(k.clone()).or_default();
            if mine.name.is_empty() {
                mine.name = c.name.clone();
            }
            mine.combats += c.combats;
            mine.taken += c.taken;
            mine.attacker_steps += c.attacker_steps;
            mine.defender_steps += c.defender_steps;
            mine.games_taken += c.games_taken;
            mine.games_taken_won += c.games_taken_won;
        }
        // Every slice of `n` in: the whole batch.
        if let Some(&(_, n)) = self.slices.first()
            && self.slices.iter().all(|s| s.1 == n)
            && (0..n).all(|i| self.slices.contains(&(i, n)))
        {
            self.slices.clear();
        }
        Ok(())
    }

    /// Each side's win rate with its interval, as fractions.
    pub fn win_rates(&self) -> Vec<(f64, f64, f64)> {
        let n = self.games as f64;
        self.wins
            .iter()
            .map(|w| {
                let (lo, hi) = wilson(*w as f64, n);
                (*w as f64 / n.max(1.0), lo, hi)
            })
            .collect()
    }

    /// Mirrored: seat 0's duplicate score (better seeds, equal ones counting half) with its
    /// interval.
    pub fn duplicate_score(&self) -> Option<(f64, f64, f64)> {
        (self.pairs > 0).then(|| {
            let score = self.pairs_first_better as f64 + 0.5 * self.pairs_equal as f64;
            let n = self.pairs as f64;
            let (lo, hi) = wilson(score, n);
            (score / n, lo, hi)
        })
    }

    /// The mean objective points of each side at the end of each turn.
    pub fn mean_points(&self) -> Vec<Vec<f64>> {
        self.points_by_turn
            .iter()
            .zip(&self.games_by_turn)
            .map(|(p, g)| p.iter().map(|x| *x as f64 / (*g).max(1) as f64).collect())
            .collect()
    }

    /// The combats whose success moves a side's win rate most: (side, cell, tally, change in
    /// win rate), at most `n`, among cells taken in enough games to say.
    pub fn decisive(&self, n: usize) -> Vec<(usize, String, &CellTally, f64)> {
        let games = self.games.max(1) as f64;
        let floor = (self.games / 20).max(3);
        let mut out: Vec<(usize, String, &CellTally, f64)> = self
            .cells
            .iter()
            .filter(|(_, c)| c.games_taken >= floor)
            .filter_map(|(k, c)| {
                let (side, cell) = k.split_once(':')?;
                let side: usize = side.parse().ok()?;
                let base = *self.wins.get(side)? as f64 / games;
                let when = c.games_taken_won as f64 / c.games_taken as f64;
                Some((side, cell.to_string(), c, when - base))
            })
            .collect();
        out.sort_by(|a, b| b.3.abs().total_cmp(&a.3.abs()).then(a.1.cmp(&b.1)).then(a.0.cmp(&b.0)));
        out.truncate(n);
        out
    }

    /// The report a designer reads: who played, the results, length and losses, objectives by
    /// turn, the decisive combats.
    pub fn report(&self) -> String {
        let mut out = String::new();
        self.write_results(&mut out);
        self.write_objectives(&mut out);
        self.write_decisive(&mut out);
        out
    }

    fn write_results(&self, out: &mut String) {
        let seats: Vec<String> = self
            .sides
            .iter()
            .zip(&self.seats)
            .map(|(side, seat)| format!("{side}: {seat}"))
            .collect();
        let _ = writeln!(
            out,
            "Balance of `{}`: {}, seed {}, {}{}",
            self.scenario,
            crate::rules::units::counted(self.games, "game", "games"),
            self.seed,
            seats.join(", "),
            if self.mirror {
                " (and each seed again with the seats swapped)"
            } else {
                ""
            }
        );
        if !self.slices.is_empty() {
            let s: Vec<String> = self.slices.iter().map(|(i, n)| format!("{i}/{n}")).collect();
            let _ = writeln!(out, "  partial: slice(s) {} of {} seeds", s.join(", "), self.planned);
        }
        // Names padded to the longest, so the columns line up.
        let width = self
            .sides
            .iter()
            .chain(&self.seats)
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(0)
            .max(12);
        for ((side, w), (rate, lo, hi)) in self.sides.iter().zip(&self.wins).zip(self.win_rates()) {
            let _ = writeln!(
                out,
                "  {side:<width$} wins {w:>6}  {}  95% CI [{}, {}]",
                pct(rate),
                pct(lo),
                pct(hi)
            );
        }
        let g = self.games.max(1) as f64;
        let (lo, hi) = wilson(self.draws as f64, g);
        let _ = writeln!(
            out,
            "  {:<width$} {:>11}  {}  95% CI [{}, {}]",
            "draws",
            self.draws,
            pct(self.draws as f64 / g),
            pct(lo),
            pct(hi)
        );
        if self.mirror {
            self.write_duplicate(out, width);
        }
        let lost: Vec<String> = self
            .sides
            .iter()
            .zip(&self.steps_lost)
            .map(|(s, l)| format!("{s} {:.2}", *l as f64 / g))
            .collect();
        let _ = writeln!(
            out,
            "  mean length {:.2} turns, {:.1} orders; mean steps lost: {}",
            self.turns as f64 / g,
            self.orders as f64 / g,
            lost.join(", ")
        );
        let _ = writeln!(
            out,
            "  unfinished games: {}; refused orders: {} (of computer players: {})",
            self.unfinished, self.refused, self.computer_refused
        );
    }

    /// Mirrored: each seat's wins whichever side it played, and the duplicate score.
    fn write_duplicate(&self, out: &mut String, width: usize) {
        let g = self.games.max(1) as f64;
        for (seat, w) in self.seats.iter().zip(&self.seat_wins) {
            let _ = writeln!(
                out,
                "  {seat:<width$} wins {w:>6}  {} whichever side it played",
                pct(*w as f64 / g)
            );
        }
        if let Some((score, lo, hi)) = self.duplicate_score() {
            let _ = writeln!(
                out,
                "  duplicate score of {} over {}: {} of {} seed(s) better, {} equal -> {}  95% CI [{}, {}]",
                self.seats[0],
                self.seats.get(1).map_or("?", String::as_str),
                self.pairs_first_better,
                self.pairs,
                self.pairs_equal,
                pct(score),
                pct(lo),
                pct(hi)
            );
        }
    }

    fn write_objectives(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "Objective points held at the end of each turn (mean over the games that reached it):"
        );
        let header: Vec<String> = self.sides.iter().map(|s| format!("{s:>10}")).collect();
        let _ = writeln!(out, "  turn  games {}", header.join(" "));
        for (t, (points, games)) in self.mean_points().iter().zip(&self.games_by_turn).enumerate() {
            let cols: Vec<String> = points.iter().map(|p| format!("{p:>10.2}")).collect();
            let _ = writeln!(out, "  {:>4} {:>6} {}", t + 1, games, cols.join(" "));
        }
    }

    fn write_decisive(&self, out: &mut String) {
        let decisive = self.decisive(5);
        if decisive.is_empty() {
            return;
        }
        let _ = writeln!(
            out,
            "Most decisive combats (the side's win rate in games where it took the cell, against its overall rate):"
        );
        for (side, cell, c, change) in decisive {
            let name = if c.name.is_empty() {
                String::new()
            } else {
                format!(" ({})", c.name)
            };
            let _ = writeln!(
                out,
                "  {} takes {cell}{name}: in {}, wins {} ({:+.1} points); {} there, {:.2} / {:.2} steps lost per combat (attacker / defender)",
                self.sides.get(side).map_or("?", String::as_str),
                crate::rules::units::counted(c.games_taken, "game", "games"),
                pct(c.games_taken_won as f64 / c.games_taken as f64).trim(),
                100.0 * change,
                crate::rules::units::counted(c.combats, "combat", "combats"),
                c.attacker_steps as f64 / c.combats.max(1) as f64,
                c.defender_steps as f64 / c.combats.max(1) as f64
            );
        }
    }
}

/// A share as a padded percentage.
fn pct(x: f64) -> String {
    format!("{:5.1}%", 100.0 * x)
}

/// One CSV line per game, with a header; `sides` are the side ids (plain words, safe in CSV).
pub fn csv(records: &[GameRecord], sides: &[String], seats: &[String]) -> String {
    let mut out = String::from("game,seed,mirrored");
    for s in sides {
        let _ = write!(out, ",seat_{s}");
    }
    out.push_str(",winner,finished,turns,orders");
    for s in sides {
        let _ = write!(out, ",steps_lost_{s},points_{s}");
    }
    out.push_str(",refused\n");
    for r in records {
        let _ = write!(out, "{},{},{}", r.index, r.seed, r.mirrored);
        for i in 0..sides.len() {
            let seat = if r.mirrored { sides.len() - 1 - i } else { i };
            let _ = write!(out, ",{}", seats.get(seat).map_or("", String::as_str));
        }
        let winner = r.winner.and_then(|w| sides.get(w)).map_or("draw", String::as_str);
        let _ = write!(out, ",{winner},{},{},{}", r.finished, r.turns, r.orders);
        let last = r.points_by_turn.last();
        for i in 0..sides.len() {
            let p = last.and_then(|p| p.get(i)).copied().unwrap_or(0);
            let _ = write!(out, ",{},{p}", r.steps_lost.get(i).copied().unwrap_or(0));
        }
        let _ = writeln!(out, ",{}", r.refused);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_the_textbook() {
        // Wilson (1927) / Newcombe (1998) worked example: 81 of 263 -> [0.2553, 0.3662].
        let (lo, hi) = wilson(81.0, 263.0);
        assert!((lo - 0.2553).abs() < 1e-4 && (hi - 0.3662).abs() < 1e-4, "{lo} {hi}");
        let (lo, hi) = wilson(0.0, 10.0);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-4, "{hi}");
    }
}
