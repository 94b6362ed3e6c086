//! Streamer mode's headless core: the moments of a logged game (every combat with its exact odds
//! and how unlikely its result was, the board at each turn's end), the highlight pictures drawn
//! from them, and the director's framing and pacing. The client's presentation mode, replay
//! theatre and showcase read the same.

pub mod director;
pub mod highlights;
pub mod moments;
