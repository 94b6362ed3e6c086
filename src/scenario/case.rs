//! Combat case files (`CombatCase(...)`): one self-contained combat for the command-line combat
//! lab and tests: a built-in ruleset, the defender's terrain, weather, both sides' units and
//! support, conditions and the owners' choices. Checked with the same located errors as scenarios.

use super::file::RawChit;
use super::file::UnitValues;
use super::ruleset::{Ruleset, list};
use super::tracks::build_track;
use crate::combat::{
    ArmorValue, Battery, Choices, Combatant, Conditions, ExtraModifier, Situation, Support, Tactic, Weather,
};
use crate::rules::terrain::{EdgeFeature, Mobility};
use crate::rules::units::{StepValues, UnitClass, UnitSize, UnitStatus, UnitTrait};
use crate::source::{LoadError, Source, read_file};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

fn yes() -> bool {
    true
}

fn battalion() -> UnitSize {
    UnitSize::Battalion
}

/// One unit in a case. Values as in scenarios: exactly one of `strength`, `attack`+`defense`,
/// `steps` or `chit`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCaseUnit {
    pub id: String,
    /// Defaults to the id.
    #[serde(default)]
    pub name: Option<String>,
    pub class: UnitClass,
    #[serde(default = "battalion")]
    pub size: UnitSize,
    #[serde(default)]
    pub strength: Option<u32>,
    #[serde(default)]
    pub attack: Option<u32>,
    #[serde(default)]
    pub defense: Option<u32>,
    #[serde(default)]
    pub steps: Vec<StepValues>,
    #[serde(default)]
    pub chit: Option<RawChit>,
    #[serde(default)]
    pub lost: usize,
    /// Armor value; `armor_defense` when the counter prints a split value.
    #[serde(default)]
    pub armor: Option<u32>,
    #[serde(default)]
    pub armor_defense: Option<u32>,
    #[serde(default)]
    pub er: Option<u32>,
    #[serde(default)]
    pub mobility: Option<Mobility>,
    #[serde(default)]
    pub element: Option<String>,
    #[serde(default)]
    pub parent: Option<String>,
    #[serde(default)]
    pub status: Vec<UnitStatus>,
    #[serde(default)]
    pub traits: Vec<UnitTrait>,
    #[serde(default)]
    pub experience: u32,
    /// Nation or side id (`german`, `soviet`, …).
    #[serde(default)]
    pub nation: String,
    /// Features of the edge this attacker attacks across.
    #[serde(default)]
    pub crossing: Vec<EdgeFeature>,
    #[serde(default = "yes")]
    pub participating: bool,
}

/// An artillery unit called to barrage (Rommel).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBattery {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    pub barrage: u32,
    pub range: u32,
    #[serde(default = "one")]
    pub distance: u32,
    /// Terrain of the battery's square; the first terrain of the ruleset when left out.
    #[serde(default)]
    pub terrain: Option<String>,
    #[serde(default)]
    pub contested: bool,
    #[serde(default)]
    pub rocket: bool,
    #[serde(default)]
    pub element: Option<String>,
    #[serde(default)]
    pub parent: Option<String>,
    #[serde(default)]
    pub status: Vec<UnitStatus>,
}

fn one() -> u32 {
    1
}

/// One side's support.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RawSupport {
    pub tactics: Vec<Tactic>,
    pub barrage: Vec<RawBattery>,
    pub accelerated_effort: Option<String>,
    pub lead: Option<String>,
    pub flanking: bool,
    pub prepared_positions: u32,
    pub no_retreat: bool,
    pub hexsides: u32,
    pub extra: Vec<ExtraModifier>,
}

/// A combat case as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "CombatCase")]
pub struct RawCase {
    /// A built-in ruleset (`killing-ground`, `rommel`, `war-against-russia`, `next-war`,
    /// `small-general`, `classic-odds`) or a user ruleset file (`my-table.ron`).
    pub ruleset: String,
    #[serde(default)]
    pub description: String,
    /// Terrain id of the defender's cell.
    pub terrain: String,
    #[serde(default)]
    pub weather: Weather,
    pub attackers: Vec<RawCaseUnit>,
    pub defenders: Vec<RawCaseUnit>,
    #[serde(default)]
    pub attack: RawSupport,
    #[serde(default)]
    pub defense: RawSupport,
    #[serde(default)]
    pub conditions: Conditions,
    #[serde(default)]
    pub choices: Choices,
}

/// A checked combat case.
#[derive(Clone, Debug, PartialEq)]
pub struct CombatCase {
    pub raw: RawCase,
    pub ruleset: Arc<Ruleset>,
    pub situation: Situation,
}

impl CombatCase {
    pub fn load(path: impl AsRef<Path>) -> Result<CombatCase, LoadError> {
        let text = read_file(path.as_ref())?;
        Self::from_ron_str(path, &text)
    }

    pub fn from_ron_str(file: impl AsRef<Path>, text: &str) -> Result<CombatCase, LoadError> {
        let src = Source::new(file.as_ref(), text);
        let raw: RawCase = src.parse()?;
        validate(&src, raw)
    }
}

fn validate(src: &Source, raw: RawCase) -> Result<CombatCase, LoadError> {
    check_limits(src, &raw)?;
    let ruleset = match Ruleset::builtin(&raw.ruleset) {
        Some(r) => Arc::new(r?),
        // A user ruleset file, found as a scenario's is (beside the case, in `rulesets/`…).
        None if super::user_ruleset::names_a_file(&raw.ruleset) => {
            Arc::new(super::user_ruleset::load(&raw.ruleset, &src.file).map_err(|m| src.error("ruleset", m))??)
        }
        None => {
            let names: Vec<String> = super::ruleset::BUILTIN.iter().map(|(n, _)| n.to_string()).collect();
            return Err(src.error(
                "ruleset",
                format!(
                    "unknown ruleset `{}`: the built-in rulesets are {}",
                    raw.ruleset,
                    list(names.iter())
                ),
            ));
        }
    };
    let terrain_of = |field: &str, id: &str| {
        ruleset.terrain_ids.get(id).copied().ok_or_else(|| {
            src.error(
                field.to_string(),
                format!(
                    "unknown terrain `{id}`: the {} ruleset defines {}",
                    ruleset.raw.name,
                    list(ruleset.terrain_ids.keys())
                ),
            )
        })
    };
    let terrain = terrain_of("terrain", &raw.terrain)?;
    let mut seen = HashSet::new();
    let mut units = |list: &[RawCaseUnit], field: &str| -> Result<Vec<Combatant>, LoadError> {
        list.iter()
            .enumerate()
            .map(|(i, u)| {
                let prefix = format!("{field}[{i}]");
                if !seen.insert(u.id.clone()) {
                    return Err(src.error(format!("{prefix}.id"), format!("unit id `{}` is used twice", u.id)));
                }
                combatant(src, &ruleset, &prefix, u)
            })
            .collect()
    };
    let attackers = units(&raw.attackers, "attackers")?;
    let defenders = units(&raw.defenders, "defenders")?;
    let mut support = |s: &RawSupport, field: &str| -> Result<Support, LoadError> {
        let mut barrage = Vec::new();
        for (i, b) in s.barrage.iter().enumerate() {
            let prefix = format!("{field}.barrage[{i}]");
            if !seen.insert(b.id.clone()) {
                return Err(src.error(format!("{prefix}.id"), format!("unit id `{}` is used twice", b.id)));
            }
            let terrain = match &b.terrain {
                Some(t) => terrain_of(&format!("{prefix}.terrain"), t)?,
                None => crate::rules::terrain::TerrainId(0),
            };
            let class = if b.rocket {
                UnitClass::Rocket
            } else {
                UnitClass::Artillery
            };
            barrage.push(Battery {
                unit: Combatant {
                    id: b.id.clone(),
                    name: b.name.clone().unwrap_or_else(|| b.id.clone()),
                    class,
                    size: UnitSize::Company,
                    mobility: ruleset.mobility_of(class),
                    traits: Vec::new(),
                    steps: crate::rules::units::StepTrack::single(StepValues { attack: 0, defense: 0 }),
                    armor: None,
                    er: None,
                    element: b.element.clone(),
                    parent: b.parent.clone(),
                    statuses: b.status.iter().copied().collect(),
                    experience: 0,
                    nation: String::new(),
                    crossing: Default::default(),
                    participating: false,
                    loss_rank: 0,
                },
                barrage: b.barrage,
                range: b.range,
                distance: b.distance,
                terrain,
                contested: b.contested,
                rocket: b.rocket,
            });
        }
        Ok(Support {
            tactics: s.tactics.clone(),
            barrage,
            accelerated_effort: s.accelerated_effort.clone(),
            lead: s.lead.clone(),
            flanking: s.flanking,
            prepared_positions: s.prepared_positions,
            no_retreat: s.no_retreat,
            hexsides: s.hexsides,
            extra: s.extra.clone(),
        })
    };
    let attack = support(&raw.attack, "attack")?;
    let defense = support(&raw.defense, "defense")?;
    if raw.attackers.is_empty() {
        return Err(src.error("attackers", "a combat needs at least one attacker"));
    }
    if raw.defenders.is_empty() {
        return Err(src.error("defenders", "a combat needs at least one defender"));
    }
    let situation = Situation {
        terrain,
        weather: raw.weather,
        attackers,
        defenders,
        attack,
        defense,
        conditions: raw.conditions.clone(),
        choices: raw.choices.clone(),
    };
    Ok(CombatCase {
        raw,
        ruleset,
        situation,
    })
}

/// The case's sizes and numbers within `source::limits` before any reaches the combat arithmetic.
fn check_limits(src: &Source, raw: &RawCase) -> Result<(), LoadError> {
    use super::limits::{chars, count, modifier, value};
    use crate::source::limits::{MAX_CASE_UNITS, MAX_ID_CHARS, MAX_NAME_CHARS, MAX_TEXT_CHARS};
    chars(src, "description", &raw.description, MAX_TEXT_CHARS)?;
    for (field, list) in [("attackers", &raw.attackers), ("defenders", &raw.defenders)] {
        count(src, field, "units", list.len(), MAX_CASE_UNITS)?;
        for (i, u) in list.iter().enumerate() {
            let f = |name: &str| format!("{field}[{i}].{name}");
            for (field, text) in [("name", &u.name), ("element", &u.element), ("parent", &u.parent)] {
                if let Some(t) = text {
                    chars(src, f(field), t, MAX_NAME_CHARS)?;
                }
            }
            chars(src, f("nation"), &u.nation, MAX_NAME_CHARS)?;
            chars(src, f("id"), &u.id, MAX_ID_CHARS)?;
            count(src, f("status"), "statuses", u.status.len(), MAX_CASE_UNITS)?;
            count(src, f("traits"), "traits", u.traits.len(), MAX_CASE_UNITS)?;
            count(src, f("crossing"), "edge features", u.crossing.len(), MAX_CASE_UNITS)?;
            value(src, f("armor"), u.armor)?;
            value(src, f("armor_defense"), u.armor_defense)?;
            value(src, f("er"), u.er)?;
            value(src, f("experience"), Some(u.experience))?;
        }
    }
    for (field, s) in [("attack", &raw.attack), ("defense", &raw.defense)] {
        count(
            src,
            format!("{field}.barrage"),
            "batteries",
            s.barrage.len(),
            MAX_CASE_UNITS,
        )?;
        for (i, b) in s.barrage.iter().enumerate() {
            let f = |name: &str| format!("{field}.barrage[{i}].{name}");
            chars(src, f("id"), &b.id, MAX_ID_CHARS)?;
            for (field, text) in [
                ("name", &b.name),
                ("element", &b.element),
                ("parent", &b.parent),
                ("terrain", &b.terrain),
            ] {
                if let Some(t) = text {
                    chars(src, f(field), t, MAX_NAME_CHARS)?;
                }
            }
            count(src, f("status"), "statuses", b.status.len(), MAX_CASE_UNITS)?;
            value(src, f("barrage"), Some(b.barrage))?;
            value(src, f("range"), Some(b.range))?;
            value(src, f("distance"), Some(b.distance))?;
        }
        count(
            src,
            format!("{field}.tactics"),
            "tactics",
            s.tactics.len(),
            MAX_CASE_UNITS,
        )?;
        for (name, text) in [("accelerated_effort", &s.accelerated_effort), ("lead", &s.lead)] {
            if let Some(t) = text {
                chars(src, format!("{field}.{name}"), t, MAX_ID_CHARS)?;
            }
        }
        value(src, format!("{field}.prepared_positions"), Some(s.prepared_positions))?;
        value(src, format!("{field}.hexsides"), Some(s.hexsides))?;
        count(
            src,
            format!("{field}.extra"),
            "modifiers",
            s.extra.len(),
            MAX_CASE_UNITS,
        )?;
        for (i, x) in s.extra.iter().enumerate() {
            let n = match x.effect {
                crate::combat::ExtraEffect::ColumnShift(n)
                | crate::combat::ExtraEffect::DieModifier(n)
                | crate::combat::ExtraEffect::HitShift(n) => n,
            };
            chars(src, format!("{field}.extra[{i}].source"), &x.source, MAX_NAME_CHARS)?;
            modifier(src, format!("{field}.extra[{i}].effect"), n, 20)?;
        }
    }
    Ok(())
}

fn combatant(src: &Source, ruleset: &Ruleset, prefix: &str, u: &RawCaseUnit) -> Result<Combatant, LoadError> {
    let steps = build_track(
        src,
        prefix,
        &UnitValues {
            id: &u.id,
            strength: u.strength,
            attack: u.attack,
            defense: u.defense,
            steps: &u.steps,
            chit: u.chit,
            lost: u.lost,
        },
    )?;
    if u.armor_defense.is_some() && u.armor.is_none() {
        return Err(src.error(
            format!("{prefix}.armor_defense"),
            "`armor_defense` is the defending half of a split armor value: give `armor` too",
        ));
    }
    Ok(Combatant {
        id: u.id.clone(),
        name: u.name.clone().unwrap_or_else(|| u.id.clone()),
        class: u.class,
        size: u.size,
        mobility: u.mobility.unwrap_or_else(|| ruleset.mobility_of(u.class)),
        traits: u.traits.clone(),
        steps,
        armor: u.armor.map(|a| ArmorValue {
            attack: a,
            defense: u.armor_defense.unwrap_or(a),
        }),
        er: u.er,
        element: u.element.clone(),
        parent: u.parent.clone(),
        statuses: u.status.iter().copied().collect(),
        experience: u.experience,
        nation: u.nation.clone(),
        crossing: u.crossing.iter().copied().collect(),
        participating: u.participating,
        loss_rank: 0,
    })
}
