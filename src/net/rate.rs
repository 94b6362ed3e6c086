//! Rate limits: a token bucket per connection and per player, so one client cannot flood the
//! server or another player's chat.

use std::time::Instant;

/// Allows `rate` messages a second on average, `burst` at once.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    burst: f64,
    rate: f64,
    last: Instant,
}

impl Bucket {
    pub fn new(rate: f64, burst: f64) -> Self {
        Self {
            tokens: burst,
            burst,
            rate,
            last: Instant::now(),
        }
    }

    /// Whether one more message may pass at `now` (and takes its token if so).
    pub fn allow(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Messages a connection may send: 100 a second, 200 at once (a bot playing as fast as the
/// server answers stays under it; a flood does not).
pub fn connection_bucket() -> Bucket {
    Bucket::new(100.0, 200.0)
}

/// Messages a player may send over all their connections: 150 a second, 300 at once.
pub fn player_bucket() -> Bucket {
    Bucket::new(150.0, 300.0)
}

/// Requests over HTTP (a WebSocket's opening included) from one address: 20 a second, 60 at
/// once.
pub fn address_bucket() -> Bucket {
    Bucket::new(20.0, 60.0)
}

/// New players from one address: one every ten seconds, twenty at once.
pub fn register_bucket() -> Bucket {
    Bucket::new(0.1, 20.0)
}

/// The address a request comes from, for the per-address limits: the peer's; for a peer on this
/// machine, the address a proxy there forwards (the last of `X-Forwarded-For`: the one the proxy
/// saw, where earlier ones are the client's own word), or none (a local bot, the tests: no
/// per-address limit).
pub fn client_address(peer: std::net::SocketAddr, headers: &axum::http::HeaderMap) -> Option<std::net::IpAddr> {
    if !peer.ip().is_loopback() {
        return Some(peer.ip());
    }
    let forwarded = headers.get("x-forwarded-for")?.to_str().ok()?;
    forwarded.rsplit(',').next()?.trim().parse().ok()
}

/// Chat lines a connection may send: one a second, five at once.
pub fn chat_bucket() -> Bucket {
    Bucket::new(1.0, 5.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_lets_its_burst_through_then_its_rate() {
        let start = Instant::now();
        let mut b = Bucket::new(2.0, 3.0);
        let passed = (0..10).filter(|_| b.allow(start)).count();
        assert_eq!(passed, 3);
        // Half a second refills one token at 2 a second.
        assert!(b.allow(start + Duration::from_millis(500)));
        assert!(!b.allow(start + Duration::from_millis(500)));
        // Long idle refills no more than the burst.
        let later = start + Duration::from_secs(60);
        assert_eq!((0..10).filter(|_| b.allow(later)).count(), 3);
    }
}
