//! "Your turn" notices: a player's webhook URL (a Discord-style JSON POST), refused when it
//! reaches a loopback or private address unless the operator allows those, and the clock's look
//! for games that wait for a player who is not connected: at most one notice an hour a game.

use super::shared::Shared;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// The least time between two notices of one game (milliseconds).
pub const NOTICE_GAP_MS: i64 = 3_600_000;

/// The longest webhook URL taken.
const MAX_URL: usize = 500;

/// A webhook URL, checked: where it goes and the address it was checked at.
#[derive(Clone, Debug)]
pub struct Hook {
    pub url: reqwest::Url,
    host: String,
    addr: SocketAddr,
}

/// Reads and checks a webhook URL: http or https, a host that resolves, and (unless
/// `allow_private`) only to public addresses.
pub async fn check_url(text: &str, allow_private: bool) -> Result<Hook, String> {
    let text = text.trim();
    if text.len() > MAX_URL {
        return Err(format!("webhook: a URL of at most {MAX_URL} characters"));
    }
    let url = reqwest::Url::parse(text).map_err(|e| format!("webhook: `{text}` is not a URL ({e})"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "webhook: the URL must be http or https, not `{}`",
            url.scheme()
        ));
    }
    let host = url.host_str().ok_or("webhook: the URL names no host")?.to_string();
    let port = url.port_or_known_default().unwrap_or(80);
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((bare, port))
        .await
        .map_err(|e| format!("webhook: cannot resolve `{host}`: {e}"))?
        .collect();
    let addr = *addrs
        .first()
        .ok_or_else(|| format!("webhook: `{host}` has no address"))?;
    // The address itself is not named: a client may not probe the server's own network.
    if !allow_private && addrs.iter().any(|a| !is_public(a.ip())) {
        return Err(format!(
            "webhook: `{host}` resolves to a loopback or private address; this server refuses those unless its operator allows them (--allow-private-webhooks)"
        ));
    }
    Ok(Hook { url, host, addr })
}

/// Whether an address is on the public internet (not loopback, private, link-local, shared,
/// documentation, multicast or unspecified).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || v4.is_multicast()
                || a == 0
                || a >= 240
                || (a == 100 && (b & 0xc0) == 64)
                || (a == 192 && b == 0 && c == 0)
                || (a == 198 && (b & 0xfe) == 18))
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            // An IPv4 address inside (mapped, compatible, NAT64, 6to4) is judged as itself.
            let inner = match s {
                [0, 0, 0, 0, 0, 0xffff | 0, ..] if !v6.is_loopback() && !v6.is_unspecified() => {
                    Some(std::net::Ipv4Addr::from(((s[6] as u32) << 16) | s[7] as u32))
                }
                [0x64, 0xff9b, 0, 0, 0, 0, ..] => Some(std::net::Ipv4Addr::from(((s[6] as u32) << 16) | s[7] as u32)),
                [0x2002, hi, lo, ..] => Some(std::net::Ipv4Addr::from(((hi as u32) << 16) | lo as u32)),
                _ => None,
            };
            if let Some(v4) = inner {
                return is_public(IpAddr::V4(v4));
            }
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                || (s[0] & 0xffc0) == 0xfec0)
        }
    }
}

/// TLS as the server's and the client's HTTP requests make it: ring, Mozilla's roots.
pub(crate) fn tls() -> Result<rustls::ClientConfig, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

/// POSTs `{"content": …, "username": "Hexfront"}` to the hook, at the address it was checked at
/// (a second lookup cannot turn it private), following no redirect.
pub async fn post(hook: &Hook, content: &str) -> Result<(), String> {
    let tls = tls().map_err(|e| format!("webhook TLS: {e}"))?;
    let client = reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .resolve(&hook.host, hook.addr)
        .redirect(reqwest::redirect::Policy::none())
        // A proxy would resolve the host itself: no proxy, whatever the environment says.
        .no_proxy()
        .timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| format!("webhook client: {e}"))?;
    let body = serde_json::json!({ "content": content, "username": "Hexfront" });
    let answer = client
        .post(hook.url.clone())
        .json(&body)
        .send()
        .await
        .map_err(|e| format!("webhook {}: {e}", hook.url))?;
    if !answer.status().is_success() {
        return Err(format!("webhook {}: answered {}", hook.url, answer.status()));
    }
    Ok(())
}

/// Sends the notices due at `now`: each game waiting for a player with a webhook who is not
/// connected (here, or to any server process since `seen_since`), once a wait and at most once an
/// hour a game.
pub async fn check(shared: &Shared, now: i64, seen_since: i64) -> Result<(), String> {
    for due in shared.store.due_notices(now, NOTICE_GAP_MS, seen_since).await? {
        if shared.is_online(&due.player)
            || !shared
                .store
                .set_noticed(&due.game, due.since, now, NOTICE_GAP_MS)
                .await?
        {
            continue;
        }
        let mut content = format!(
            "Hexfront: game {} ({}) waits for your order as `{}`.",
            due.game, due.scenario, due.side
        );
        if let Some(url) = &shared.public_url {
            content.push_str(&format!(" Server: {url}"));
        }
        let allow = shared.allow_private_webhooks;
        tokio::spawn(async move {
            let sent = match check_url(&due.webhook, allow).await {
                Ok(hook) => post(&hook, &content).await,
                Err(e) => Err(e),
            };
            if let Err(e) = sent {
                eprintln!("your-turn notice of game {}: {e}", due.game);
            }
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_loopback_addresses_are_not_public() {
        let private = [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.1.1",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fc00::1",
            "fe80::1",
            "::ffff:192.168.0.1",
            "::10.0.0.1",
            "64:ff9b::a00:1",
            "2002:c0a8:1::1",
            "fec0::1",
            "192.0.0.8",
            "198.18.0.1",
            "240.0.0.1",
        ];
        for ip in private {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["1.1.1.1", "162.159.128.233", "2606:4700::1111"] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }
}
