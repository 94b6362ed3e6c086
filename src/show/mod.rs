//! Streamer mode's headless core: the moments of a logged game (every combat with its exact odds
//! and how unlikely its result was, the board at each turn's end) and the highlight pictures
//! drawn from them. The client's presentation mode, replay theatre and showcase read the same.

pub mod highlights;
pub mod moments;
pub mod text;
