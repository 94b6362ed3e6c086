//! "Host on this computer": the server started in the client's own process, on a port of this
//! computer, its games in a SQLite file in the data folder and with hash-chained dice (the host
//! could read the server's secret; the guest's chain keeps the dice out of the host's reach).
//! Says the address a friend on the same network connects to.

use crate::net::remote::runtime;
use crate::net::server::{Options, ServerHandle, start_with};
use std::net::{IpAddr, SocketAddr};
use std::sync::mpsc;

/// The port a hosted server listens on unless the player picks another.
pub const DEFAULT_PORT: u16 = 7878;

/// A server hosted in this process (starting, running, or failed to start).
#[derive(Default)]
pub struct Hosted {
    pub server: Option<ServerHandle>,
    starting: Option<std::sync::Mutex<mpsc::Receiver<Result<ServerHandle, String>>>>,
    /// This computer's address on its network, for a friend on the same network.
    pub lan: Option<IpAddr>,
    pub error: Option<String>,
}

impl Hosted {
    /// Starts a server on every interface at `port`, off the frame.
    pub fn start(&mut self, port: u16) {
        let (tx, rx) = mpsc::channel();
        let db = crate::net::store::Store::sqlite_url(&crate::storage::data_dir().join("hosted-games.db"));
        let listen = SocketAddr::from(([0, 0, 0, 0], port));
        let options = Options {
            chained_dice_by_default: true,
            ..Options::default()
        };
        runtime().spawn(async move {
            let started = start_with(listen, &db, options)
                .await
                .map_err(|e| format!("{e} (another program may use port {port}: try another)"));
            let _ = tx.send(started);
        });
        self.starting = Some(std::sync::Mutex::new(rx));
        self.error = None;
        self.lan = lan_address();
    }

    /// Takes in the server once it has started (or why it did not): whether it just did.
    pub fn poll(&mut self) -> bool {
        let Some(rx) = &self.starting else { return false };
        let got = match rx.lock() {
            Ok(rx) => rx.try_recv(),
            Err(_) => Err(mpsc::TryRecvError::Disconnected),
        };
        match got {
            Ok(Ok(server)) => {
                self.server = Some(server);
                self.starting = None;
                true
            }
            Ok(Err(e)) => {
                self.error = Some(e);
                self.starting = None;
                false
            }
            Err(mpsc::TryRecvError::Empty) => false,
            Err(mpsc::TryRecvError::Disconnected) => {
                self.starting = None;
                false
            }
        }
    }

    pub fn starting(&self) -> bool {
        self.starting.is_some()
    }

    pub fn port(&self) -> Option<u16> {
        self.server.as_ref().map(|s| s.addr.port())
    }

    /// Stops the server (its games stay in the file for the next time).
    pub fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            runtime().spawn(server.stop());
        }
    }

    /// Players other than `me` connected to the hosted server.
    pub fn others(&self, me: Option<&str>) -> usize {
        self.server.as_ref().map_or(0, |s| {
            s.connected_players().iter().filter(|p| Some(p.as_str()) != me).count()
        })
    }
}

/// This computer's address on its network: the one a route to the outside would leave from
/// (a UDP socket "connected" to a documentation address sends nothing).
pub fn lan_address() -> Option<IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}
