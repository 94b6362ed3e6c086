//! The Online tab's fields and what they mean: the new game's choices, a join code as typed, a
//! time in words.

use super::host;
use crate::net::protocol::{ObserverDelay, Opponent, TurnTime};
use crate::net::remote::Command;

/// A shipped scenario as the form offers it: file stem, name, sides (id, name).
pub struct Offered {
    pub stem: String,
    pub name: String,
    pub sides: Vec<(String, String)>,
}

/// The tab's fields.
pub struct Form {
    /// The Online tab is shown in place of the local one.
    pub shown: bool,
    pub scenarios: Vec<Offered>,
    pub scenario: usize,
    pub side: usize,
    /// 0: by invite code, 1: open to anyone, 2: the server's computer.
    pub opponent: usize,
    pub level: usize,
    /// Index in `TURN_TIMES`.
    pub turn_time: usize,
    pub concede: bool,
    /// Index in `DELAYS`.
    pub delay: usize,
    pub code: String,
    pub watch_id: String,
    pub port: String,
    pub token_path: String,
    /// The export path last offered by default.
    pub token_default: String,
    /// A scenario file of the player's, to upload and make a game of.
    pub own_file: String,
    /// The file being uploaded: its scenario's name and sides, until the server's id comes.
    pub uploading: Option<Offered>,
}

pub const LEVELS: [&str; 3] = ["novice", "standard", "expert"];
pub const TURN_TIMES: [(&str, u32); 4] = [
    ("no limit", 0),
    ("10 minutes", 600),
    ("1 hour", 3600),
    ("1 day", 86_400),
];
pub const DELAYS: [(&str, ObserverDelay); 3] = [
    ("see each order at once", ObserverDelay::None),
    ("one turn behind", ObserverDelay::OneTurn),
    ("60 seconds behind", ObserverDelay::Seconds(60)),
];

impl Default for Form {
    fn default() -> Self {
        Self::new()
    }
}

impl Form {
    pub fn new() -> Self {
        let scenarios = (0..crate::scenario::SHIPPED.len())
            .filter_map(|i| {
                let s = crate::scenario::shipped_scenario(i).ok()?;
                let stem = crate::scenario::SHIPPED[i]
                    .0
                    .strip_prefix("scenarios/")?
                    .strip_suffix(".ron")?;
                Some(Offered {
                    stem: stem.to_string(),
                    name: s.raw.name.clone(),
                    sides: s.sides.iter().map(|d| (d.id.clone(), d.name.clone())).collect(),
                })
            })
            .collect();
        Self {
            shown: false,
            scenarios,
            scenario: 0,
            side: 0,
            opponent: 0,
            level: 1,
            turn_time: 0,
            concede: false,
            delay: 0,
            code: String::new(),
            watch_id: String::new(),
            port: host::DEFAULT_PORT.to_string(),
            token_path: String::new(),
            token_default: String::new(),
            own_file: String::new(),
            uploading: None,
        }
    }

    /// The file uploaded is offered under the server's id, and chosen.
    pub fn uploaded(&mut self, id: String) -> Option<String> {
        let mut offered = self.uploading.take()?;
        offered.stem = id;
        let name = offered.name.clone();
        self.scenarios.retain(|s| s.stem != offered.stem);
        self.scenarios.push(offered);
        self.scenario = self.scenarios.len() - 1;
        self.side = 0;
        Some(name)
    }

    /// A scenario's name from its file stem (an uploaded one's id as it is).
    pub fn scenario_name(&self, stem: &str) -> String {
        self.scenarios
            .iter()
            .find(|s| s.stem == stem)
            .map_or_else(|| stem.to_string(), |s| s.name.clone())
    }

    pub fn side_name(&self, stem: &str, seat: usize) -> String {
        self.scenarios
            .iter()
            .find(|s| s.stem == stem)
            .and_then(|s| s.sides.get(seat))
            .map_or_else(|| format!("side {}", seat + 1), |(_, n)| n.clone())
    }

    /// A side's name from its id (the id itself for a scenario not shipped).
    pub fn side_named(&self, stem: &str, id: &str) -> String {
        self.scenarios
            .iter()
            .find(|s| s.stem == stem)
            .and_then(|s| s.sides.iter().find(|(i, _)| i == id))
            .map_or_else(|| id.to_string(), |(_, n)| n.clone())
    }

    /// The create message's fields as chosen.
    pub fn create(&self) -> Option<Command> {
        let s = self.scenarios.get(self.scenario)?;
        let side = s.sides.get(self.side)?.0.clone();
        let opponent = match self.opponent {
            0 => Opponent::Invite,
            1 => Opponent::Open,
            _ => Opponent::Computer(LEVELS[self.level].into()),
        };
        let seconds = TURN_TIMES[self.turn_time].1;
        Some(Command::Create {
            scenario: s.stem.clone(),
            side,
            opponent,
            observer_delay: DELAYS[self.delay].1,
            turn_time: (seconds > 0).then_some(TurnTime {
                seconds,
                concede: self.concede,
            }),
        })
    }
}

/// A join code as typed (`GAME.INVITE`, or a game id alone for an open game).
pub fn parse_code(code: &str) -> Result<(String, Option<String>), String> {
    let code = code.trim();
    let (game, invite) = match code.split_once('.') {
        Some((g, i)) => (g.trim(), Some(i.trim().to_string())),
        None => (code, None),
    };
    if !game.starts_with("g-") || game.len() < 4 || !game[2..].bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "`{code}` is not a game's code: it looks like g-3e1ed6411ad8.a1b2c3d4e5 (ask your friend to copy it again)"
        ));
    }
    Ok((game.to_string(), invite.filter(|i| !i.is_empty())))
}

/// Time since `since` (milliseconds since 1970), in words.
pub fn ago(since: i64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let s = ((now - since) / 1000).max(0);
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        3600..86_400 => format!("{} h", s / 3600),
        _ => format!("{} days", s / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_as_typed_are_read_or_refused_with_an_example() {
        assert_eq!(
            parse_code(" g-3e1ed6411ad8.a1b2c3d4e5 ").unwrap(),
            ("g-3e1ed6411ad8".into(), Some("a1b2c3d4e5".into()))
        );
        assert_eq!(parse_code("g-3e1ed6411ad8").unwrap(), ("g-3e1ed6411ad8".into(), None));
        assert!(parse_code("hello").unwrap_err().contains("looks like g-"));
        let form = Form::new();
        let c = form.create().unwrap();
        assert!(matches!(
            c,
            Command::Create {
                opponent: Opponent::Invite,
                turn_time: None,
                ..
            }
        ));
        assert!(form.scenarios.len() >= 7 && form.scenario_name("st-vith-1944").contains("Vith"));
    }
}
