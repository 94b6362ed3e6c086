//! Who the player is online, kept in the data folder: the server address last used, the display
//! name, and a token per server (never shown, never logged). A token can be exported to a file
//! and imported on another computer, so changing computers loses no game.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The online settings as written to `online.ron`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OnlineFile {
    pub address: String,
    pub name: String,
    /// (server address, token), one a server.
    pub tokens: Vec<(String, String)>,
}

/// A player exported for another computer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedPlayer {
    pub server: String,
    pub name: String,
    pub token: String,
}

pub fn online_path() -> PathBuf {
    crate::storage::data_dir().join("online.ron")
}

/// Where the hash chains of joined games are written.
pub fn chains_dir() -> PathBuf {
    crate::storage::data_dir().join("online-chains")
}

/// The key a server's token is kept under: its address as typed, trimmed, without scheme.
pub fn server_key(address: &str) -> String {
    let a = address.trim().trim_end_matches('/');
    let a = a.trim_start_matches("ws://").trim_start_matches("http://");
    a.strip_suffix("/ws").unwrap_or(a).to_string()
}

impl OnlineFile {
    /// Reads the file; a missing one is the defaults, a broken one says where (and is not
    /// written over until the player changes something).
    pub fn read(path: &Path) -> Result<Self, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => ron::from_str(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = ron::ser::to_string_pretty(self, Default::default()).map_err(|e| e.to_string())?;
        crate::storage::write_atomic(path, &text)
    }

    pub fn token(&self, address: &str) -> Option<String> {
        let key = server_key(address);
        self.tokens.iter().find(|(s, _)| *s == key).map(|(_, t)| t.clone())
    }

    pub fn set_token(&mut self, address: &str, token: Option<String>) {
        let key = server_key(address);
        self.tokens.retain(|(s, _)| *s != key);
        if let Some(t) = token {
            self.tokens.push((key, t));
        }
    }

    /// Writes the player of `address` to `path`, for another computer.
    pub fn export(&self, address: &str, path: &Path) -> Result<(), String> {
        let token = self
            .token(address)
            .ok_or_else(|| format!("no player on {} yet: connect once first", server_key(address)))?;
        let player = ExportedPlayer {
            server: server_key(address),
            name: self.name.clone(),
            token,
        };
        let text = ron::ser::to_string_pretty(&player, Default::default()).map_err(|e| e.to_string())?;
        crate::storage::write_atomic(path, &text)
    }

    /// Takes in a player exported on another computer: its server becomes the one used.
    pub fn import(&mut self, path: &Path) -> Result<String, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let player: ExportedPlayer = ron::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if player.token.len() != 64 || !player.token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "{}: field `token`: not a Hexfront player's token",
                path.display()
            ));
        }
        self.address = player.server.clone();
        self.name = player.name.clone();
        self.set_token(&player.server, Some(player.token));
        Ok(format!("{} on {}", player.name, player.server))
    }
}

/// Where an export goes by default: the home folder (found again easily on a USB stick's way).
pub fn default_export_path(address: &str) -> PathBuf {
    let home = std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .map(PathBuf::from)
        .unwrap_or_else(crate::storage::data_dir);
    let server: String = server_key(address)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    home.join(format!("hexfront-player-{server}.ron"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_exported_and_imported_elsewhere_keeps_its_token_and_a_bad_file_is_named() {
        let dir = std::env::temp_dir().join(format!("hexfront-account-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut here = OnlineFile {
            address: "ws://10.0.0.5:7878/ws".into(),
            name: "Anna".into(),
            tokens: Vec::new(),
        };
        assert!(
            here.export(&here.address.clone(), &dir.join("x.ron"))
                .unwrap_err()
                .contains("connect once first")
        );
        here.set_token("10.0.0.5:7878", Some("ab".repeat(32)));
        assert_eq!(
            here.token("ws://10.0.0.5:7878/ws"),
            Some("ab".repeat(32)),
            "one key however typed"
        );
        let file = dir.join("anna.ron");
        here.export("10.0.0.5:7878", &file).unwrap();
        let mut there = OnlineFile::default();
        assert_eq!(there.import(&file).unwrap(), "Anna on 10.0.0.5:7878");
        assert_eq!(
            (there.address.as_str(), there.token("10.0.0.5:7878")),
            ("10.0.0.5:7878", Some("ab".repeat(32)))
        );
        std::fs::write(&file, "ExportedPlayer(server: \"s\", name: \"n\", token: \"zz\")").unwrap();
        assert!(there.import(&file).unwrap_err().contains("field `token`"));
        there.write(&dir.join("online.ron")).unwrap();
        assert_eq!(OnlineFile::read(&dir.join("online.ron")).unwrap(), there);
        std::fs::write(dir.join("online.ron"), "(address: 5)").unwrap();
        assert!(
            OnlineFile::read(&dir.join("online.ron"))
                .unwrap_err()
                .contains("online.ron")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
