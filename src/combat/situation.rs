//! What a combat is made of: the units as the combat rules see them, each side's support, the
//! conditions, the weather and the owners' choices.

use crate::rules::terrain::{EdgeFeature, EdgeFeatures, Mobility, TerrainId};
use crate::rules::units::{StepTrack, UnitClass, UnitSize, UnitStatus, UnitTrait};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which side of a combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Role {
    Attacker,
    Defender,
}

impl Role {
    pub const fn other(self) -> Role {
        match self {
            Role::Attacker => Role::Defender,
            Role::Defender => Role::Attacker,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Attacker => "attacker",
            Role::Defender => "defender",
        })
    }
}

/// The weather of the turn. Each combat system reads the kinds it knows (War Against Russia's
/// Good weather is `Clear`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Weather {
    #[default]
    Clear,
    Overcast,
    Rain,
    Mud,
    Snow,
    Frost,
    HardFrost,
    Storm,
}

/// Armor value, split into attacking and defending numbers where a counter prints two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ArmorValue {
    pub attack: u32,
    pub defense: u32,
}

impl ArmorValue {
    pub const fn for_role(self, role: Role) -> u32 {
        match role {
            Role::Attacker => self.attack,
            Role::Defender => self.defense,
        }
    }
}

/// Status markers as a small set (copied into every branch of the preview, so no allocation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StatusSet(u16);

impl StatusSet {
    pub const fn bit(status: UnitStatus) -> u16 {
        1 << (status as u16)
    }
    pub fn has(self, status: UnitStatus) -> bool {
        self.0 & Self::bit(status) != 0
    }
    pub fn insert(&mut self, status: UnitStatus) {
        self.0 |= Self::bit(status);
    }
    pub fn remove(&mut self, status: UnitStatus) {
        self.0 &= !Self::bit(status);
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = UnitStatus> {
        ALL_STATUSES.into_iter().filter(move |s| self.has(*s))
    }
}

const ALL_STATUSES: [UnitStatus; 9] = UnitStatus::ALL;

impl FromIterator<UnitStatus> for StatusSet {
    fn from_iter<I: IntoIterator<Item = UnitStatus>>(iter: I) -> Self {
        let mut set = StatusSet::default();
        for s in iter {
            set.insert(s);
        }
        set
    }
}

impl Serialize for StatusSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// One unit in a combat, as the rules see it (built from the ECS or from a combat case file).
#[derive(Clone, Debug, PartialEq)]
pub struct Combatant {
    pub id: String,
    pub name: String,
    pub class: UnitClass,
    pub size: UnitSize,
    pub mobility: Mobility,
    pub traits: Vec<UnitTrait>,
    pub steps: StepTrack,
    pub armor: Option<ArmorValue>,
    /// Effectiveness rating.
    pub er: Option<u32>,
    pub element: Option<String>,
    pub parent: Option<String>,
    pub statuses: StatusSet,
    pub experience: u32,
    /// The nation or side id (`german`, `soviet`, …) for rules that single out nations.
    pub nation: String,
    /// Features of the edge an attacking unit attacks across (empty for defenders).
    pub crossing: EdgeFeatures,
    /// False for units in the defending stack that take no part (Killing Ground 8.94).
    pub participating: bool,
    /// The owner's order for taking losses where the rules leave the choice: 1 first, then 2 …;
    /// 0 = no preference (the automatic choice: the cheapest step).
    pub loss_rank: u32,
}

impl Combatant {
    pub fn has_trait(&self, t: UnitTrait) -> bool {
        self.traits.contains(&t)
    }
    /// Printed value for the role, at the current step.
    pub fn value(&self, role: Role) -> u32 {
        let v = self.steps.current();
        match role {
            Role::Attacker => v.attack,
            Role::Defender => v.defense,
        }
    }
    pub fn is_armor(&self) -> bool {
        self.class.is_armor()
    }
    pub fn is_infantry_type(&self) -> bool {
        self.class.is_infantry_type()
    }
    /// Whether the unit's nation is one of `nations` (ids compared without case).
    pub fn is_one_of(&self, nations: &[String]) -> bool {
        nations.iter().any(|n| n.eq_ignore_ascii_case(&self.nation))
    }

    pub fn crosses(&self, feature: EdgeFeature) -> bool {
        self.crossing.contains(feature)
    }
}

/// An artillery unit called to barrage (Rommel).
#[derive(Clone, Debug, PartialEq)]
pub struct Battery {
    pub unit: Combatant,
    pub barrage: u32,
    /// Its range in squares, and how far the combat's square is.
    pub range: u32,
    pub distance: u32,
    /// The terrain of the battery's own square.
    pub terrain: TerrainId,
    /// Whether the battery's own square is contested.
    pub contested: bool,
    pub rocket: bool,
}

/// A tactic bought with an Op (Rommel).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tactic {
    Recce,
    /// Doubles one infantry unit (the named one, or the strongest).
    Infiltration(Option<String>),
    DefenseInDepth,
    Withdraw,
    ReserveArtillery,
    Airstrike,
    CarpetBombing,
    PinningAttack,
}

impl Tactic {
    /// The tactics an attacker may buy (Rommel), in the order the panels list them.
    pub const ATTACK: [Tactic; 5] = [
        Tactic::Recce,
        Tactic::Infiltration(None),
        Tactic::ReserveArtillery,
        Tactic::Airstrike,
        Tactic::PinningAttack,
    ];
    /// The tactics a defender may buy (Rommel: its own two, and Recce and Airstrike, which
    /// either side may play).
    pub const DEFENSE: [Tactic; 4] = [
        Tactic::DefenseInDepth,
        Tactic::Withdraw,
        Tactic::Recce,
        Tactic::Airstrike,
    ];

    /// The tactic's name as players say it.
    pub fn name(&self) -> String {
        match self {
            Tactic::Recce => "Recce".into(),
            Tactic::Infiltration(Some(u)) => format!("Infiltration ({u})"),
            Tactic::Infiltration(None) => "Infiltration".into(),
            Tactic::DefenseInDepth => "Defense in depth".into(),
            Tactic::Withdraw => "Withdraw".into(),
            Tactic::ReserveArtillery => "Reserve artillery".into(),
            Tactic::Airstrike => "Airstrike".into(),
            Tactic::CarpetBombing => "Carpet bombing".into(),
            Tactic::PinningAttack => "Pinning attack".into(),
        }
    }
}

/// A modifier given by a designer or an event rather than by the rules (the case file's `extra`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExtraModifier {
    pub source: String,
    pub effect: ExtraEffect,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExtraEffect {
    ColumnShift(i32),
    DieModifier(i32),
    HitShift(i32),
}

/// What one side brings besides its units.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Support {
    pub tactics: Vec<Tactic>,
    pub barrage: Vec<Battery>,
    /// Killing Ground 8.10.4: the infantry unit reduced for Accelerated Effort.
    pub accelerated_effort: Option<String>,
    /// The lead unit (Next War) or leading armor unit (Rommel); the rules pick one when `None`.
    pub lead: Option<String>,
    /// Rommel: the attack flanks the defender.
    pub flanking: bool,
    /// Rommel: prepared position markers in the defender's square.
    pub prepared_positions: u32,
    /// War Against Russia: No Retreat! orders.
    pub no_retreat: bool,
    /// Small General: distinct hexsides attacked from so far this turn, this attack included.
    pub hexsides: u32,
    pub extra: Vec<ExtraModifier>,
}

/// A city in the defender's hex, for War Against Russia.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum City {
    Town,
    City,
    MajorCity,
    /// A victory city with its intrinsic defense factors (2 for Leningrad and Moscow, else 1).
    VictoryCity(u32),
}

/// Facts about the combat that are neither units nor support.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Conditions {
    /// The defenders cannot retreat (War Against Russia: surrounded).
    pub surrounded: bool,
    /// Rommel: the first tactical phase of the turn (Reserve Artillery).
    pub first_phase: bool,
    /// War Against Russia: the Axis controls the Black Sea (Kerch Strait attacks).
    pub black_sea_control: bool,
    /// War Against Russia: fortification lines count (from August 1941).
    pub fortifications_active: bool,
    pub city: Option<City>,
    /// Next War: a fortification in the defender's hex.
    pub fortified: bool,
    /// Next War: an installation (airbase, port) in the defender's hex.
    pub installation: bool,
}

impl Default for Conditions {
    fn default() -> Self {
        Self {
            surrounded: false,
            first_phase: true,
            black_sea_control: false,
            fortifications_active: true,
            city: None,
            fortified: false,
            installation: false,
        }
    }
}

/// Retreat or take steps instead (Killing Ground 8.93).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RetreatOrSteps {
    #[default]
    Retreat,
    /// Convert every hex of the retreat into a step.
    Steps,
    /// Convert this many hexes into steps and retreat the rest.
    Mix(u32),
}

/// What the owners decide once the dice are known. The preview shows each alternative.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Choices {
    pub attacker_retreat: RetreatOrSteps,
    pub defender_retreat: RetreatOrSteps,
    /// Rommel: a mobile defender evades its last hit when it can.
    pub evade: bool,
    /// Rommel: surviving defenders retreat after combat. War Against Russia: on a `D`, the
    /// dispersed defenders make the text's voluntary retreat (a hex; their owner's call).
    pub defender_withdraws: bool,
    /// War Against Russia: German attackers exchange when the weather allows.
    pub german_exchange: bool,
    /// Next War: defenders in strong terrain try to hold, ignoring a retreat (an ER check).
    /// (Written `ignore_retreat` in files before it had one name.)
    #[serde(alias = "ignore_retreat")]
    pub hold: bool,
    /// Killing Ground 8.10.3: defenders in a city (Germans in bocage) take an attritional loss
    /// as a one-hex retreat.
    pub attrition_as_retreat: bool,
    /// Where the rules let the owner choose who takes losses: these attacking units first, in
    /// this order (unit ids); the rest by the automatic choice.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attacker_losses_first: Vec<String>,
    /// The same for the defending units, the defender's call.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub defender_losses_first: Vec<String>,
    /// Killing Ground 8.96: under combined arms the defender names infantry (not armor) as the
    /// type of the attacker's first step loss.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub defender_names_infantry: bool,
}

impl Default for Choices {
    fn default() -> Self {
        Self {
            attacker_retreat: RetreatOrSteps::Retreat,
            defender_retreat: RetreatOrSteps::Retreat,
            evade: true,
            defender_withdraws: false,
            german_exchange: false,
            hold: false,
            attrition_as_retreat: false,
            attacker_losses_first: Vec::new(),
            defender_losses_first: Vec::new(),
            defender_names_infantry: false,
        }
    }
}

impl Choices {
    /// The resolution's choices from the attacker's (given with the attack) and the defender's
    /// (its answer once the dice are known).
    pub fn of(attacker: &AttackerChoices, defender: &DefenderChoices) -> Choices {
        Choices {
            attacker_retreat: attacker.retreat,
            defender_retreat: defender.retreat,
            evade: defender.evade,
            defender_withdraws: defender.withdraw,
            german_exchange: attacker.german_exchange,
            hold: defender.hold,
            attrition_as_retreat: defender.attrition_as_retreat,
            attacker_losses_first: attacker.losses_first.clone(),
            defender_losses_first: defender.losses_first.clone(),
            defender_names_infantry: defender.names_infantry,
        }
    }

    /// The attacker's part.
    pub fn attacker(&self) -> AttackerChoices {
        AttackerChoices {
            retreat: self.attacker_retreat,
            german_exchange: self.german_exchange,
            losses_first: self.attacker_losses_first.clone(),
        }
    }

    /// The defender's part.
    pub fn defender(&self) -> DefenderChoices {
        DefenderChoices {
            retreat: self.defender_retreat,
            evade: self.evade,
            withdraw: self.defender_withdraws,
            hold: self.hold,
            attrition_as_retreat: self.attrition_as_retreat,
            losses_first: self.defender_losses_first.clone(),
            names_infantry: self.defender_names_infantry,
        }
    }
}

fn is_retreat(r: &RetreatOrSteps) -> bool {
    *r == RetreatOrSteps::Retreat
}

fn is_true(b: &bool) -> bool {
    *b
}

fn yes() -> bool {
    true
}

/// What the rules let the attacker decide, given with the attack: Killing Ground's
/// retreat-or-steps for its own units, War Against Russia's German exchange, and who of its
/// units takes losses first where the owner picks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AttackerChoices {
    #[serde(skip_serializing_if = "is_retreat")]
    pub retreat: RetreatOrSteps,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub german_exchange: bool,
    /// Unit ids, first to lose first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub losses_first: Vec<String>,
}

/// What the rules let the defender decide once the result is known: its answer (Killing Ground
/// 8.93's retreat-or-steps and 8.10.3's hex instead of an attritional loss, Rommel's evasion and
/// withdrawal, War Against Russia's voluntary retreat on a D, Next War's attempt to ignore a
/// retreat, and who takes losses first where the owner picks). The default is the plain answer:
/// retreat, evade when it can, stay where the rules allow it, no hold check.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DefenderChoices {
    #[serde(skip_serializing_if = "is_retreat")]
    pub retreat: RetreatOrSteps,
    /// Rommel: a mobile defender evades its last hit when it can.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub evade: bool,
    /// Rommel: the surviving defenders retreat after combat. War Against Russia: on a `D` the
    /// dispersed defenders retreat a hex.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub withdraw: bool,
    /// Next War: try to hold, ignoring the retreat (an ER check).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hold: bool,
    /// Killing Ground 8.10.3: a hex of retreat instead of an attritional loss.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub attrition_as_retreat: bool,
    /// Unit ids, first to lose first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub losses_first: Vec<String>,
    /// Killing Ground 8.96: under combined arms, name infantry (not armor) as the type of the
    /// attacker's first step loss.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub names_infantry: bool,
}

impl Default for DefenderChoices {
    fn default() -> Self {
        Choices::default().defender()
    }
}

/// Everything a combat needs to be assessed and resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Situation {
    /// Terrain of the defender's cell.
    pub terrain: TerrainId,
    pub weather: Weather,
    pub attackers: Vec<Combatant>,
    pub defenders: Vec<Combatant>,
    pub attack: Support,
    pub defense: Support,
    pub conditions: Conditions,
    pub choices: Choices,
}

impl Situation {
    pub fn units(&self, role: Role) -> &[Combatant] {
        match role {
            Role::Attacker => &self.attackers,
            Role::Defender => &self.defenders,
        }
    }
    pub fn support(&self, role: Role) -> &Support {
        match role {
            Role::Attacker => &self.attack,
            Role::Defender => &self.defense,
        }
    }
}
