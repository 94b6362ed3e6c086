//! Hexfront: a hex-and-square board-wargame engine. Layers, each importing only those below it:
//! `gui` (feature `gui`) draws and takes input → `lab` (the balance lab) and `ai` (the computer
//! player) give orders as a player would → `game` runs the rules as Bevy ECS systems and
//! keeps the order log; `edit` (the designer's edits, pure, with undo) → `scenario` reads and checks scenario and ruleset files → `combat` and
//! `rules`, pure → `source`, file text and located errors. `storage` keeps a player's files;
//! `version` says which Hexfront wrote them. `show` (streamer mode's headless core: a log's
//! moments and highlight pictures) reads `game` and `scenario`. `net` (online play: the server,
//! its protocol and database, a headless client) carries out orders through `game` and seats
//! `ai` players; `gui` will use its client.

pub mod ai;
pub mod art;
pub mod combat;
pub mod edit;
pub mod game;
pub mod lab;
pub mod net;
pub mod rules;
pub mod scenario;
pub mod show;
pub mod source;
pub mod storage;
pub mod version;

#[cfg(feature = "gui")]
pub mod gui;
