//! The question on screen for a defender's answer (what the answer window shows, what the HUD
//! reads to know a question waits), kept apart from the window so panels can read it.

use crate::game::order::Order;
use crate::rules::grid::Cell;
use bevy::prelude::*;

/// What the defender is asked now, worked out once per question.
#[derive(Resource, Default, Debug)]
pub struct AnswerAsk {
    /// What the question is about (changes when another question comes).
    pub(super) key: Option<String>,
    pub defender: usize,
    pub title: String,
    pub intro: String,
    /// Each answer: words, where it leads, the order that gives it.
    pub options: Vec<(String, String, Order)>,
    pub suggested: usize,
    /// The answer the player has picked (the suggestion until they pick another).
    pub chosen: usize,
    /// The player changed the standing answer while this question was on screen: the new one
    /// answers the next questions, this one stays theirs to answer.
    pub held: bool,
    /// The combat's cells (the target, then the attackers'), kept clear of the window.
    pub cells: Vec<Cell>,
}

impl AnswerAsk {
    /// Whether a question is on screen.
    pub fn asking(&self) -> bool {
        !self.options.is_empty()
    }
}
