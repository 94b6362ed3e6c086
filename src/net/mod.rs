//! Play across the internet: `hexfront serve` (the rules' authority, a database, each connection
//! given only its side's view), the protocol, and a headless client library.
//!
//! Dependency direction inside: `protocol`, `outbox` (a connection's bounded queue),
//! `user_scenarios` (uploads checked; a game's scenario built from its texts), `store` and
//! `claims` (which process carries out a game, with several on one PostgreSQL) at the bottom; `hub` and `live` (the games in play)
//! over them, `shared` bundling them; `cluster` (events passed between processes) over those;
//! over that `lobby`, `delay` (observers held
//! back), `follow` (a connection following a game) under `connection`, `notice` (webhooks) and
//! `clock` (time per turn, notices); `server` on top. `client` stands beside them, using only
//! `protocol`, `user_scenarios` (and `lobby`'s random bytes); `remote` (the desktop client's link,
//! off the frame) over `client`.

pub mod chat;
pub mod claims;
pub mod client;
mod clock;
mod cluster;
mod connection;
pub mod delay;
mod follow;
pub mod hub;
pub mod live;
pub mod lobby;
pub mod notice;
pub mod outbox;
pub mod protocol;
pub mod rate;
pub mod remote;
pub mod server;
mod shared;
pub mod store;
pub mod user_scenarios;
