//! Hexfront: a hex-and-square board-wargame engine. `rules` is pure, `scenario` reads and checks
//! files, `game` runs the rules as Bevy ECS systems, `gui` (feature `gui`) draws and takes input; `storage` keeps
//! a player's files.

pub mod combat;
pub mod game;
pub mod rules;
pub mod scenario;
pub mod storage;

#[cfg(feature = "gui")]
pub mod gui;
