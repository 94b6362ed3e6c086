//! Builders shared by the combat tests: units, situations and the built-in combat rules.
#![allow(dead_code)]

pub mod board;
pub mod online;
pub mod player;
pub mod random_player;

/// A folder of a test's own under the system's temporary folder: emptied when made, removed when
/// the test ends well, kept (its path printed) when it fails, to look at.
pub struct Scratch(pub std::path::PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept for a look: {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The shipped scenarios.
pub const SHIPPED: [&str; 7] = [
    "scenarios/mortain-1944.ron",
    "scenarios/sidi-bou-zid-1943.ron",
    "scenarios/smolensk-1941.ron",
    "scenarios/chorwon-hypothetical.ron",
    "scenarios/st-vith-1944.ron",
    "scenarios/barbarossa-centre-1941.ron",
    "scenarios/sedan-1940.ron",
];

use hexfront::combat::{
    ArmorValue, Choices, CombatResult, CombatRules, Combatant, Conditions, Dice, Situation, Support, Weather, assess,
    resolve,
};
use hexfront::rules::terrain::{EdgeFeature, TerrainId};
use hexfront::rules::units::{StepTrack, StepValues, UnitClass, UnitSize, UnitStatus, UnitTrait};
use hexfront::scenario::Ruleset;

pub fn ruleset(name: &str) -> Ruleset {
    Ruleset::builtin(name).expect("a built-in ruleset").expect("it loads")
}

pub fn terrain(r: &Ruleset, id: &str) -> TerrainId {
    r.terrain_ids[id]
}

/// A one-step unit with these values.
pub fn unit(id: &str, class: UnitClass, attack: u32, defense: u32) -> Combatant {
    Combatant {
        id: id.into(),
        name: id.into(),
        class,
        size: UnitSize::Division,
        mobility: class.default_mobility(),
        traits: Vec::new(),
        steps: StepTrack::single(StepValues { attack, defense }),
        armor: None,
        er: None,
        element: None,
        parent: None,
        statuses: Default::default(),
        experience: 0,
        nation: String::new(),
        crossing: Default::default(),
        participating: true,
        loss_rank: 0,
    }
}

/// A unit with a printed track, full strength first (attack = defense per step).
pub fn track(id: &str, class: UnitClass, values: &[u32]) -> Combatant {
    let mut u = unit(id, class, 0, 0);
    u.steps = StepTrack {
        values: values.iter().map(|&v| StepValues { attack: v, defense: v }).collect(),
        lost: 0,
        kind: hexfront::rules::units::StepKind::Printed,
    };
    u
}

pub trait UnitExt {
    fn nation(self, n: &str) -> Self;
    fn er(self, er: u32) -> Self;
    fn size(self, s: UnitSize) -> Self;
    fn status(self, s: UnitStatus) -> Self;
    fn crossing(self, f: EdgeFeature) -> Self;
    fn element(self, e: &str) -> Self;
    fn armor(self, attack: u32, defense: u32) -> Self;
    fn with_trait(self, t: UnitTrait) -> Self;
    fn lost(self, n: usize) -> Self;
    fn xp(self, n: u32) -> Self;
}

impl UnitExt for Combatant {
    fn nation(mut self, n: &str) -> Self {
        self.nation = n.into();
        self
    }
    fn er(mut self, er: u32) -> Self {
        self.er = Some(er);
        self
    }
    fn size(mut self, s: UnitSize) -> Self {
        self.size = s;
        self
    }
    fn status(mut self, s: UnitStatus) -> Self {
        self.statuses.insert(s);
        self
    }
    fn crossing(mut self, f: EdgeFeature) -> Self {
        self.crossing.insert(f);
        self
    }
    fn element(mut self, e: &str) -> Self {
        self.element = Some(e.into());
        self
    }
    fn armor(mut self, attack: u32, defense: u32) -> Self {
        self.armor = Some(ArmorValue { attack, defense });
        self
    }
    fn with_trait(mut self, t: UnitTrait) -> Self {
        self.traits.push(t);
        self
    }
    fn lost(mut self, n: usize) -> Self {
        self.steps.lost = n;
        self
    }
    fn xp(mut self, n: u32) -> Self {
        self.experience = n;
        self
    }
}

pub fn situation(terrain: TerrainId, attackers: Vec<Combatant>, defenders: Vec<Combatant>) -> Situation {
    Situation {
        terrain,
        weather: Weather::Clear,
        attackers,
        defenders,
        attack: Support::default(),
        defense: Support::default(),
        conditions: Conditions::default(),
        choices: Choices::default(),
    }
}

/// Resolves with exactly these dice (panics if the combat rolls more, or is refused).
pub fn resolve_with(rules: &CombatRules, s: &Situation, dice: &[u8]) -> (CombatResult, Vec<String>, usize) {
    let a = assess(rules, s).unwrap_or_else(|e| panic!("refused: {e}"));
    let mut d = Dice::scripted(dice);
    let (r, log) = resolve(rules, s, &a, &s.choices, &mut d).expect("the listed dice suffice");
    d.check().expect("valid faces");
    (r, log, d.rolls.len())
}
