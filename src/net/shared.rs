//! What every request handler and connection of a server shares: the database, the workers that
//! carry out the games, the hub that fans entries out, and the signal that the server stops.

use super::hub::Hub;
use super::live::Workers;
use super::store::Store;

#[derive(Clone)]
pub struct Shared {
    pub store: Store,
    pub workers: Workers,
    pub hub: Hub,
    /// Becomes true when the server stops: every connection closes.
    pub closing: tokio::sync::watch::Receiver<bool>,
}
