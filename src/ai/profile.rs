//! A computer player's personality and strength: how much it values hurting the enemy over
//! sparing itself (aggression), how much it fears the enemy's next turn (caution), how far its
//! judgement wanders (noise) and how many candidate actions it may weigh per decision (budget).

use serde::{Deserialize, Serialize};

/// What kind of opponent a computer player is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    /// 0..1: 1 weighs own losses not at all against the enemy's.
    pub aggression: f64,
    /// 0..: the weight of the enemy's threat on a cell it may end in.
    pub caution: f64,
    /// 0..: random wander added to every score (weaker levels misjudge more).
    pub noise: f64,
    /// Candidate actions weighed per decision (moves of a stack, attacks with their options).
    pub budget: u32,
    /// Whether it weighs the enemy's threat and its own support, and attacks with several stacks
    /// and the rules' options at all.
    pub looks_ahead: bool,
    /// How hard objectives still to take pull its stacks (1: as the scenario's values say).
    #[serde(default = "one")]
    pub pull: f64,
    /// Copies of the game played to the end per posture at the start of each of its player
    /// turns, to choose how boldly to play the turn (0: no look-ahead by play).
    #[serde(default)]
    pub rollouts: u32,
    /// Whether it weighs what an attack prepares for the next one on the same cell, where a cell
    /// may be attacked again in a phase (`follow_up`).
    #[serde(default)]
    pub follow_ups: bool,
}

fn one() -> f64 {
    1.0
}

/// The difficulty ladder, weakest first: each level beats the one below (see docs/combat-and-lab.md).
pub const LEVELS: [&str; 3] = ["novice", "standard", "expert"];

impl Profile {
    /// Heads for the objectives and takes the attack in front of it stack by stack, with plain
    /// attacks; misjudges often.
    pub fn novice() -> Self {
        Self {
            name: "novice".into(),
            aggression: 0.7,
            caution: 0.0,
            noise: 5.0,
            budget: 40,
            looks_ahead: false,
            rollouts: 0,
            pull: 1.0,
            follow_ups: false,
        }
    }

    /// Weighs threat and support, picks attacks and options by the exact odds.
    pub fn standard() -> Self {
        Self {
            name: "standard".into(),
            aggression: 0.5,
            caution: 0.6,
            noise: 1.2,
            budget: 400,
            looks_ahead: true,
            rollouts: 0,
            pull: 1.0,
            follow_ups: false,
        }
    }

    /// The standard player without the wander, with a larger budget, that chooses each turn's
    /// posture by playing copies of the game to the end (`rollout`) and weighs what each attack
    /// prepares for the next (`follow_up`).
    pub fn expert() -> Self {
        Self {
            name: "expert".into(),
            aggression: 0.5,
            caution: 0.6,
            noise: 0.0,
            budget: 4000,
            looks_ahead: true,
            rollouts: 6,
            pull: 1.0,
            follow_ups: true,
        }
    }

    /// A level by name, optionally tuned: `standard`, `expert:aggression=0.8,caution=0.2`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (name, tuning) = text.split_once(':').unwrap_or((text, ""));
        let mut p = match name.trim() {
            "novice" | "easy" => Self::novice(),
            "standard" | "normal" | "" => Self::standard(),
            "expert" | "hard" => Self::expert(),
            other => {
                return Err(format!(
                    "unknown computer profile `{other}`: use one of {} (optionally tuned, e.g. `standard:aggression=0.8,caution=0.2`)",
                    LEVELS.join(", ")
                ));
            }
        };
        for part in tuning.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("profile tuning `{part}` is not `name=value`"))?;
            let v: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("profile tuning `{part}`: `{value}` is not a number"))?;
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("profile tuning `{part}`: the value must be a number ≥ 0"));
            }
            match key.trim() {
                "aggression" if v <= 1.0 => p.aggression = v,
                "aggression" => return Err("profile tuning: aggression is between 0 and 1".into()),
                "caution" => p.caution = v,
                "noise" => p.noise = v,
                "budget" => p.budget = (v as u32).max(1),
                "rollouts" if v <= 100.0 => p.rollouts = v as u32,
                "rollouts" => return Err("profile tuning: rollouts is at most 100".into()),
                "pull" => p.pull = v,
                "follow_ups" => p.follow_ups = v > 0.0,
                other => {
                    return Err(format!(
                        "profile tuning: unknown `{other}` (aggression, caution, noise, budget, rollouts, pull or follow_ups)"
                    ));
                }
            }
        }
        if !tuning.is_empty() {
            p.name = text.trim().to_string();
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_parse_by_name_and_tuning_and_refuse_nonsense() {
        assert_eq!(Profile::parse("expert").unwrap(), Profile::expert());
        let tuned = Profile::parse("standard:aggression=0.9, caution=0").unwrap();
        assert_eq!((tuned.aggression, tuned.caution), (0.9, 0.0));
        assert_eq!(tuned.name, "standard:aggression=0.9, caution=0");
        assert!(
            Profile::parse("grandmaster")
                .unwrap_err()
                .contains("novice, standard, expert")
        );
        assert!(Profile::parse("standard:aggression=2").is_err());
        assert!(
            Profile::parse("standard:luck=1")
                .unwrap_err()
                .contains("unknown `luck`")
        );
    }
}
