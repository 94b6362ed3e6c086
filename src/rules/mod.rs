//! Pure rules: grid geometry, terrain, units and movement, as plain Rust over plain data.
//! Nothing here knows about Bevy, files or rendering; every die roll is passed in.

pub mod advance;
pub mod grid;
pub mod movement;
pub mod retreat;
pub mod terrain;
pub mod units;
pub mod zoc;
