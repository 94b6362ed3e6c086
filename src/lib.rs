//! Hexfront: a hex-and-square board-wargame engine. Layers, each importing only those below it:
//! `gui` (feature `gui`) draws and takes input → `game` runs the rules as Bevy ECS systems and
//! keeps the order log → `scenario` reads and checks scenario and ruleset files → `combat` and
//! `rules`, pure → `source`, file text and located errors. `storage` keeps a player's files.

pub mod combat;
pub mod game;
pub mod rules;
pub mod scenario;
pub mod source;
pub mod storage;

#[cfg(feature = "gui")]
pub mod gui;
