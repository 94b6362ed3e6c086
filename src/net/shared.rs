//! What every request handler and connection of a server shares: the database, the workers that
//! carry out the games, the hub that fans entries out, and the signal that the server stops.

use super::hub::Hub;
use super::live::Workers;
use super::rate::{Bucket, chat_bucket, player_bucket};
use super::store::Store;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct Shared {
    /// Each player's rate limit over all their connections.
    pub players: Arc<Mutex<HashMap<String, Bucket>>>,
    /// Each player's chat limit over all their connections (and HTTP).
    pub chatters: Arc<Mutex<HashMap<String, Bucket>>>,
    /// Each address's limits: its HTTP requests, and its new players.
    pub addresses: Arc<Mutex<HashMap<std::net::IpAddr, (Bucket, Bucket)>>>,
    pub store: Store,
    pub workers: Workers,
    pub hub: Hub,
    /// Becomes true when the server stops: every connection closes.
    pub closing: tokio::sync::watch::Receiver<bool>,
    /// Players connected now, with their number of WebSocket connections.
    pub online: Arc<Mutex<HashMap<String, usize>>>,
    /// Whether webhooks may reach loopback and private addresses (the operator's switch).
    pub allow_private_webhooks: bool,
    /// The address players reach this server at, named in notices.
    pub public_url: Option<String>,
    /// Messages a connection may have waiting before it is cut off (`outbox`).
    pub outbox_limit: usize,
    /// Whether games between two players get hash-chained dice unless their creator says not.
    pub chained_dice_by_default: bool,
    /// This process's claims on games, when several processes share a PostgreSQL database.
    pub claims: Option<std::sync::Arc<super::claims::Claims>>,
}

impl Shared {
    /// Whether player `id` may send one more message at `now`.
    pub fn player_allows(&self, id: &str, now: std::time::Instant) -> bool {
        let mut players = self.players.lock().expect("rate lock");
        players.entry(id.to_string()).or_insert_with(player_bucket).allow(now)
    }

    /// Whether player `id` has a WebSocket connection open.
    pub fn is_online(&self, id: &str) -> bool {
        self.online.lock().expect("online lock").get(id).is_some_and(|n| *n > 0)
    }

    /// The players with a WebSocket connection open.
    pub fn online_players(&self) -> Vec<String> {
        self.online.lock().expect("online lock").keys().cloned().collect()
    }

    /// A WebSocket connection of player `id` opened (`true`) or closed.
    pub fn set_online(&self, id: &str, open: bool) {
        let mut online = self.online.lock().expect("online lock");
        let n = online.entry(id.to_string()).or_insert(0);
        if open {
            *n += 1;
        } else {
            *n = n.saturating_sub(1);
            if *n == 0 {
                online.remove(id);
            }
        }
    }

    /// Whether `address` may make one more HTTP request (`register`: one more player) at `now`.
    pub fn address_allows(&self, address: std::net::IpAddr, register: bool, now: std::time::Instant) -> bool {
        let mut addresses = self.addresses.lock().expect("rate lock");
        // Many addresses seen: start again rather than grow without end.
        if addresses.len() > 100_000 {
            addresses.clear();
        }
        let (requests, players) = addresses
            .entry(address)
            .or_insert_with(|| (super::rate::address_bucket(), super::rate::register_bucket()));
        if register {
            players.allow(now)
        } else {
            requests.allow(now)
        }
    }

    /// Whether player `id` may send one more chat line at `now`.
    pub fn chat_allows(&self, id: &str, now: std::time::Instant) -> bool {
        let mut chatters = self.chatters.lock().expect("rate lock");
        chatters.entry(id.to_string()).or_insert_with(chat_bucket).allow(now)
    }
}
