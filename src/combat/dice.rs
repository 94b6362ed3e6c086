//! Dice for combat: every roll a resolution makes goes through a `DiceSource`, so the same code
//! resolves a real combat (the game's seeded RNG), a forced one (`--dice 5,3`) and every branch of
//! the exact preview (which stops at each unrolled die and tries all its faces).

use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A die the rules roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Die {
    /// Faces 1..=6.
    D6,
    /// Faces 0..=9 (Next War: 0 is zero, not ten).
    D10,
    /// Faces 1..=n, rolled outside the combat tables (Small General's random retreat among `n`
    /// directions). Not a table's die, so ruleset files cannot name it.
    #[serde(skip)]
    Numbered(u8),
}

impl Die {
    pub const fn faces(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Die::D6 => 1..=6,
            Die::D10 => 0..=9,
            Die::Numbered(n) => 1..=n,
        }
    }

    pub const fn sides(self) -> u8 {
        match self {
            Die::D6 => 6,
            Die::D10 => 10,
            Die::Numbered(n) => n,
        }
    }

    /// The die's name as players write it: `d6`, `d10`, `d3`.
    pub fn name(self) -> String {
        format!("d{}", self.sides())
    }

    pub fn has_face(self, face: u8) -> bool {
        self.faces().contains(&face)
    }
}

/// One die rolled during a resolution, with why it was rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Roll {
    pub die: Die,
    pub face: u8,
    pub purpose: &'static str,
}

/// The resolution asked for a die the preview has not chosen yet: the enumerator branches here.
/// `classes[i]` groups the die's `i`-th face with the faces that lead to the same result, so the
/// enumerator follows one face per group, weighted by the group's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeedDie {
    pub die: Die,
    pub classes: [u8; 10],
}

/// Where a resolution's dice come from.
pub trait DiceSource {
    /// Rolls `die`. `class` maps each face to what the rules read from it (a column bonus, pass
    /// or fail, a hit count); faces of one class must lead to the same result.
    fn roll_classed(&mut self, die: Die, purpose: &'static str, class: &dyn Fn(u8) -> u8) -> Result<u8, NeedDie>;

    /// Rolls `die` when every face matters.
    fn roll(&mut self, die: Die, purpose: &'static str) -> Result<u8, NeedDie> {
        self.roll_classed(die, purpose, &|face| face)
    }

    /// Whether the resolution should write its narrative (off while enumerating, for speed).
    fn narrate(&self) -> bool;
}

/// Dice taken from a list first (`--dice`, tests, the enumerator's branch), then from a seeded
/// RNG when there is one; without one, an exhausted list asks for a branch (`NeedDie`).
pub struct Dice<'a> {
    forced: &'a [u8],
    next: usize,
    rng: Option<&'a mut ChaCha8Rng>,
    narrate: bool,
    /// Branch on every face, ignoring the rules' face classes (to check them).
    every_face: bool,
    bad: Option<BadForcedDie>,
    pub rolls: Vec<Roll>,
}

/// A forced face that the die cannot show.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("die {index} was forced to {face}, which a {die:?} cannot show (rolled for {purpose})")]
pub struct BadForcedDie {
    pub index: usize,
    pub face: u8,
    pub die: Die,
    pub purpose: &'static str,
}

impl<'a> Dice<'a> {
    /// Every roll from `rng` (a real combat).
    pub fn seeded(rng: &'a mut ChaCha8Rng) -> Self {
        Self::forced_then_seeded(&[], rng)
    }

    /// The listed faces first, then `rng`.
    pub fn forced_then_seeded(forced: &'a [u8], rng: &'a mut ChaCha8Rng) -> Self {
        Self {
            forced,
            next: 0,
            rng: Some(rng),
            narrate: true,
            every_face: false,
            bad: None,
            rolls: Vec::new(),
        }
    }

    /// Only the listed faces; a further roll is `NeedDie`. Narration and the roll record off
    /// (the preview's branches, where speed matters).
    pub fn branch(forced: &'a [u8]) -> Self {
        Self {
            forced,
            next: 0,
            rng: None,
            narrate: false,
            every_face: false,
            bad: None,
            rolls: Vec::new(),
        }
    }

    /// Like `branch`, but asks for a branch on every face of the next die.
    pub fn branch_every_face(forced: &'a [u8]) -> Self {
        Self {
            every_face: true,
            ..Self::branch(forced)
        }
    }

    /// The listed faces only, with narration (tests and `--dice` without a seed fallback).
    pub fn scripted(forced: &'a [u8]) -> Self {
        Self {
            narrate: true,
            ..Self::branch(forced)
        }
    }

    /// The first forced face its die could not show, if any (it was replaced by the lowest face
    /// so the resolution could finish; callers report this instead of the result).
    pub fn check(&self) -> Result<(), BadForcedDie> {
        self.bad.clone().map_or(Ok(()), Err)
    }

    /// How many of the forced faces were used.
    pub fn forced_used(&self) -> usize {
        self.next.min(self.forced.len())
    }
}

impl DiceSource for Dice<'_> {
    fn roll_classed(&mut self, die: Die, purpose: &'static str, class: &dyn Fn(u8) -> u8) -> Result<u8, NeedDie> {
        let face = if let Some(&face) = self.forced.get(self.next) {
            if die.has_face(face) {
                face
            } else {
                self.bad.get_or_insert(BadForcedDie {
                    index: self.next + 1,
                    face,
                    die,
                    purpose,
                });
                *die.faces().start()
            }
        } else if let Some(rng) = self.rng.as_deref_mut() {
            rng.random_range(die.faces())
        } else {
            let mut classes = [u8::MAX; 10];
            for (i, face) in die.faces().enumerate().take(classes.len()) {
                classes[i] = if self.every_face { face } else { class(face) };
            }
            return Err(NeedDie { die, classes });
        };
        self.next += 1;
        if self.narrate || self.rng.is_some() {
            self.rolls.push(Roll { die, face, purpose });
        }
        Ok(face)
    }

    fn narrate(&self) -> bool {
        self.narrate
    }
}
