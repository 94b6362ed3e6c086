//! Combat as pure functions: a `Situation` (who fights where, with what support) is assessed into
//! modifiers and a table cell, then resolved with dice into an `Outcome`. The game's systems, the
//! exact preview (`odds`) and the command-line combat lab all call these same functions.

pub mod dice;
pub mod killing_ground;
mod losses;
pub mod next_war;
pub mod odds;
pub mod report;
pub mod rommel;
pub mod rules;
pub mod small_general;
mod table;
pub mod war_against_russia;

pub use dice::{Dice, DiceSource, Die, NeedDie, Roll};
pub use odds::{Odds, odds};
pub use rules::{CombatRules, RawCombat};

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

const ALL_STATUSES: [UnitStatus; 9] = [
    UnitStatus::Disorganized,
    UnitStatus::Dispersed,
    UnitStatus::Tipped,
    UnitStatus::LowSupply,
    UnitStatus::OutOfSupply,
    UnitStatus::Disrupted,
    UnitStatus::Shocked,
    UnitStatus::Panicked,
    UnitStatus::Clearing,
];

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
    /// Rommel: surviving defenders retreat after combat.
    pub defender_withdraws: bool,
    /// War Against Russia: German attackers exchange when the weather allows.
    pub german_exchange: bool,
    /// Next War: defenders in strong terrain try to ignore a retreat (ER check).
    pub ignore_retreat: bool,
    /// Killing Ground 8.10.3: defenders in a city (Germans in bocage) take an attritional loss
    /// as a one-hex retreat.
    pub attrition_as_retreat: bool,
}

impl Default for Choices {
    fn default() -> Self {
        Self {
            attacker_retreat: RetreatOrSteps::Retreat,
            defender_retreat: RetreatOrSteps::Retreat,
            evade: true,
            defender_withdraws: false,
            german_exchange: false,
            ignore_retreat: false,
            attrition_as_retreat: false,
        }
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

/// What a modifier does.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Effect {
    /// Columns on an odds table (+ toward the attacker).
    ColumnShift(i32),
    /// Added to the die roll.
    DieModifier(i32),
    /// Boxes on Rommel's grid for the side named by the modifier.
    HitShift(i32),
    Doubled {
        unit: String,
    },
    Halved {
        unit: String,
    },
    /// Defense factors added to a unit (or the stack when `unit` is empty).
    DefensePlus {
        unit: String,
        amount: u32,
    },
    /// The whole defense multiplied.
    DefenseTimes(u32),
    /// Barrage value added.
    Barrage {
        unit: String,
        value: u32,
    },
    ShootsFirst,
    /// Applies, but changes the results rather than a number (e.g. overrun, no retreat).
    ResultChange(String),
    /// Was played or claimed but does nothing here, and why.
    Wasted(String),
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effect::ColumnShift(n) => write!(f, "{n:+} column{}", if n.abs() == 1 { "" } else { "s" }),
            Effect::DieModifier(n) => write!(f, "{n:+} to the roll"),
            Effect::HitShift(n) => write!(f, "{n:+} shift{}", if n.abs() == 1 { "" } else { "s" }),
            Effect::Doubled { unit } => write!(f, "{unit} doubled"),
            Effect::Halved { unit } => write!(f, "{unit} halved"),
            Effect::DefensePlus { unit, amount } if unit.is_empty() => write!(f, "+{amount} defense"),
            Effect::DefensePlus { unit, amount } => write!(f, "+{amount} defense for {unit}"),
            Effect::DefenseTimes(n) => write!(f, "defense x{n}"),
            Effect::Barrage { unit, value } => write!(f, "barrage +{value} from {unit}"),
            Effect::ShootsFirst => f.write_str("shoots first"),
            Effect::ResultChange(what) => f.write_str(what),
            Effect::Wasted(why) => write!(f, "no effect: {why}"),
        }
    }
}

/// One modifier with its source, for the panels and the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Modifier {
    /// The side it helps or hurts: a column shift or die modifier is for the attacker's roll, a
    /// Rommel hit shift is for this side's own grid.
    pub side: Role,
    pub source: String,
    pub effect: Effect,
}

impl fmt::Display for Modifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.side, self.effect, self.source)
    }
}

/// An attack the rules do not allow, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refusal(pub String);

/// Where on the table a combat lands, before the dice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableCell {
    /// The column's label (`3:1`, `+4`, die `5`), after shifts.
    pub column: String,
    pub column_index: usize,
    /// The column before shifts, for the panel's arrow.
    pub base_column: String,
    pub base_index: usize,
    /// A die modifier added to the roll (0 if none).
    pub die_modifier: i32,
}

/// A combat assessed: totals, modifiers and the table column, ready for the dice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assessment {
    pub attack_total: f64,
    pub defense_total: f64,
    /// The odds ratio or differential in words (`20 vs 3`, `13:5 = 2:1`).
    pub ratio: String,
    pub cell: Option<TableCell>,
    pub modifiers: Vec<Modifier>,
    #[serde(skip)]
    state: ModelState,
}

/// Model-specific numbers worked out once per combat and reused by every branch.
#[derive(Clone, Debug, PartialEq, Default)]
enum ModelState {
    #[default]
    None,
    KillingGround(killing_ground::Prepared),
    Rommel(Box<rommel::Prepared>),
    WarAgainstRussia(war_against_russia::Prepared),
    NextWar(next_war::Prepared),
    SmallGeneral(small_general::Prepared),
}

/// Who picks where a retreat goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Chooser {
    Owner,
    Opponent,
    /// Small General: a random direction.
    Random,
}

/// A retreat the result demands; carried out by the retreat-pathing systems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RetreatDemand {
    /// Cells to retreat, counted from the combat's cell.
    pub cells: u32,
    pub chooser: Chooser,
    /// Whether the retreat is voluntary (War Against Russia's `D`).
    pub optional: bool,
    /// Next War: entering an enemy zone of control calls for an ER check.
    pub er_check_in_ezoc: bool,
}

/// What the attackers may (or must) do with a vacated cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct AdvanceRight {
    /// Cells beyond the attackers' own: 1 into the defender's cell, 2 for a second-hex advance.
    pub cells: u32,
    /// At least one unit must advance (Next War, Small General).
    pub mandatory: bool,
    /// War Against Russia's breakthrough: the advancing units may attack again.
    pub attack_again: bool,
}

/// What happened to one unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct UnitResult {
    pub steps_lost: u32,
    pub eliminated: bool,
    /// Statuses gained (removed ones are in `cleared`).
    pub gained: StatusSet,
    pub cleared: StatusSet,
    pub experience: u32,
    /// This unit must leave the cell (the side's `retreat` says how).
    pub retreats: bool,
}

/// Per-unit results, inline for up to four units.
pub type UnitResults = smallvec::SmallVec<[UnitResult; 4]>;

/// What happened to one side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct SideResult {
    pub steps_lost: u32,
    /// One per unit, in the situation's order.
    pub units: UnitResults,
    pub retreat: Option<RetreatDemand>,
    pub advance: Option<AdvanceRight>,
    /// Rommel: prepared positions removed.
    pub prepared_positions_lost: u32,
    /// Rommel: barraging artillery tipped.
    pub batteries_tipped: u32,
    /// Hits scored by this side (Rommel), before any were absorbed.
    pub hits_scored: u32,
}

impl SideResult {
    fn new(n: usize) -> Self {
        Self {
            units: smallvec::smallvec![UnitResult::default(); n],
            ..Self::default()
        }
    }
    pub fn eliminated(&self) -> usize {
        self.units.iter().filter(|u| u.eliminated).count()
    }
}

/// The table result, as printed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ResultCode {
    /// A table entry, e.g. `1D/1r2`, `DR`, `DEF Retreat + Loss`.
    Table(std::sync::Arc<str>),
    /// Rommel: hits by each side.
    Hits { attacker: u32, defender: u32 },
    /// No combat took place (Rommel's Withdraw).
    NoCombat,
}

impl fmt::Display for ResultCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultCode::Table(s) => f.write_str(s),
            ResultCode::Hits { attacker, defender } => write!(f, "{attacker} hit(s) / {defender} hit(s)"),
            ResultCode::NoCombat => f.write_str("no combat (withdrawn)"),
        }
    }
}

/// The result of one combat, without the dice that led to it (so equal results group).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CombatResult {
    pub code: ResultCode,
    pub attacker: SideResult,
    pub defender: SideResult,
    /// The defenders no longer hold the cell.
    pub cell_taken: bool,
}

impl CombatResult {
    pub fn side(&self, role: Role) -> &SideResult {
        match role {
            Role::Attacker => &self.attacker,
            Role::Defender => &self.defender,
        }
    }
    pub fn defender_eliminated(&self) -> bool {
        self.defender.units.iter().all(|u| u.eliminated)
    }
}

/// A resolved combat: the result, the dice and the narrative.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub result: CombatResult,
    pub rolls: Vec<Roll>,
    pub log: Vec<String>,
}

/// The narrative of a resolution; empty while enumerating.
pub(crate) struct Log {
    on: bool,
    lines: Vec<String>,
}

impl Log {
    fn new(on: bool) -> Self {
        Self { on, lines: Vec::new() }
    }
    fn say(&mut self, line: impl FnOnce() -> String) {
        if self.on {
            self.lines.push(line());
        }
    }
}

/// Column shifts a designer or event gave either side (`extra`), added to `mods`; their sum.
fn extra_column_shifts(s: &Situation, mods: &mut Vec<Modifier>) -> i32 {
    let mut shift = 0;
    for x in s.attack.extra.iter().chain(&s.defense.extra) {
        if let ExtraEffect::ColumnShift(n) = x.effect {
            shift += n;
            mods.push(Modifier {
                side: Role::Attacker,
                source: x.source.clone(),
                effect: Effect::ColumnShift(n),
            });
        }
    }
    shift
}

/// Assesses a combat: refuses illegal attacks, lists every modifier and finds the table cell.
pub fn assess(rules: &CombatRules, s: &Situation) -> Result<Assessment, Refusal> {
    if s.attackers.is_empty() {
        return Err(Refusal("an attack needs at least one attacking unit".into()));
    }
    if s.defenders.is_empty() {
        return Err(Refusal(
            "there is nothing to attack: the defending cell holds no units".into(),
        ));
    }
    if let Some(u) = s.attackers.iter().chain(&s.defenders).find(|u| u.steps.is_eliminated()) {
        return Err(Refusal(format!("{} has no steps left and cannot fight", u.name)));
    }
    match rules {
        CombatRules::KillingGround(r) => killing_ground::assess(r, s),
        CombatRules::Rommel(r) => rommel::assess(r, s),
        CombatRules::WarAgainstRussia(r) => war_against_russia::assess(r, s),
        CombatRules::NextWar(r) => next_war::assess(r, s),
        CombatRules::SmallGeneral(r) => small_general::assess(r, s),
    }
}

/// Resolves an assessed combat with `dice`; the one function behind the game, the preview and the
/// combat lab. `NeedDie` only comes from a dice source without an RNG (the preview's branches).
pub fn resolve(
    rules: &CombatRules,
    s: &Situation,
    a: &Assessment,
    choices: &Choices,
    dice: &mut impl DiceSource,
) -> Result<(CombatResult, Vec<String>), NeedDie> {
    let mut log = Log::new(dice.narrate());
    let result = match (&a.state, rules) {
        (ModelState::KillingGround(p), CombatRules::KillingGround(r)) => {
            killing_ground::resolve(r, s, p, choices, dice, &mut log)?
        }
        (ModelState::Rommel(p), CombatRules::Rommel(r)) => rommel::resolve(r, s, p, choices, dice, &mut log)?,
        (ModelState::WarAgainstRussia(p), CombatRules::WarAgainstRussia(r)) => {
            war_against_russia::resolve(r, s, p, choices, dice, &mut log)?
        }
        (ModelState::NextWar(p), CombatRules::NextWar(r)) => next_war::resolve(r, s, p, choices, dice, &mut log)?,
        (ModelState::SmallGeneral(p), CombatRules::SmallGeneral(r)) => {
            small_general::resolve(r, s, p, choices, dice, &mut log)?
        }
        _ => unreachable!("an assessment is only resolved under the rules that made it"),
    };
    Ok((result, log.lines))
}

/// Assesses and resolves in one call with a full dice source (game and `hexfront resolve`).
pub fn fight(rules: &CombatRules, s: &Situation, dice: &mut Dice<'_>) -> Result<(Assessment, Outcome), Refusal> {
    let a = assess(rules, s)?;
    let (result, log) = resolve(rules, s, &a, &s.choices, dice).map_err(|need| {
        Refusal(format!(
            "the resolution needs another {:?} and none was given",
            need.die
        ))
    })?;
    dice.check().map_err(|e| Refusal(e.to_string()))?;
    Ok((
        a,
        Outcome {
            result,
            rolls: dice.rolls.clone(),
            log,
        },
    ))
}
