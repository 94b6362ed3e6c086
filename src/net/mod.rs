//! Play across the internet: `hexfront serve` (the rules' authority, a database, each connection
//! given only its side's view), the protocol, and a headless client library.
//!
//! Dependency direction inside: `protocol` and `store` at the bottom; `hub` and `live` (the
//! games in play) over them, `shared` bundling them; over that `lobby`, `connection`, `delay`
//! (observers held back), `notice` (webhooks) and `clock` (time per turn, notices); `server` on
//! top. `client` stands beside them, using only `protocol` (and `lobby`'s random bytes).

pub mod chat;
pub mod client;
mod clock;
mod connection;
pub mod delay;
pub mod hub;
pub mod live;
pub mod lobby;
pub mod notice;
pub mod protocol;
pub mod rate;
pub mod server;
mod shared;
pub mod store;
