//! Rommel (Sam Mustafa): both sides total their values (halved when vulnerable, doubled by
//! tactics, plus barrage), roll a die each on the combat grid to count hits, shift the count,
//! and spread hits over their units; tank battles, prepared positions, Recce's shooting first,
//! evasion and the retreat of whichever side fails to hold.

mod hits;

pub(crate) use hits::resolve;

use super::losses::value_now;
use super::rules::Context;
use super::{
    Assessment, Battery, Combatant, Effect, ExtraEffect, ModelState, Modifier, Refusal, Role, Situation, Tactic,
    UnitResult, Weather,
};
use crate::rules::terrain::{EdgeFeature, TerrainId};
use crate::rules::units::{UnitStatus, UnitTrait};
use crate::scenario::LoadError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// How Rommel's rules see a terrain type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TerrainKind {
    /// Tank shock; armor is not vulnerable.
    Open,
    /// No airpower; artillery here cannot barrage.
    Woods,
    /// Shift down against infantry; artillery here cannot barrage.
    Urban,
    /// Shift down against infantry.
    Mountain,
    /// Shift down against infantry.
    Bocage,
    /// No prepared positions.
    SoftGround,
    Other,
}

/// The `Rommel(...)` section of a ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raw {
    /// One column per die face 1..6, each listing its yellow boxes from 6 hits down to 1 hit.
    pub grid: Vec<Vec<u32>>,
    /// Terrain ids by kind; terrain not listed is `Other`.
    pub terrain: BTreeMap<String, TerrainKind>,
    /// Authored (the text gives no number): shifts up for Airstrike and Carpet Bombing.
    pub airstrike_shifts: i32,
    pub carpet_bombing_shifts: i32,
    /// Evasion is not possible when this many hits or more are scored.
    pub no_evasion_from_hits: u32,
    /// Most prepared positions in one square.
    pub max_prepared_positions: u32,
}

/// Validated Rommel combat rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub raw: Raw,
    /// `grid[die - 1][k]` is the box for `6 - k` hits.
    pub grid: [[u32; 6]; 6],
    pub terrain: HashMap<TerrainId, TerrainKind>,
}

pub fn validate(cx: &Context, raw: &Raw) -> Result<Rules, LoadError> {
    if raw.grid.len() != 6 {
        return Err(cx
            .src
            .error("combat.grid", "the grid needs six columns, one per die face"));
    }
    let mut grid = [[0; 6]; 6];
    for (d, column) in raw.grid.iter().enumerate() {
        if column.len() != 6 {
            return Err(cx.src.error(
                format!("combat.grid[{d}]"),
                format!("die {} needs six boxes, from 6 hits down to 1 hit", d + 1),
            ));
        }
        if column.windows(2).any(|w| w[0] < w[1]) {
            return Err(cx.src.error(
                format!("combat.grid[{d}]"),
                format!("die {}: boxes must not rise from 6 hits down to 1 hit", d + 1),
            ));
        }
        grid[d].copy_from_slice(column);
    }
    Ok(Rules {
        terrain: cx.terrain_map("combat.terrain", &raw.terrain)?,
        grid,
        raw: raw.clone(),
    })
}

impl Rules {
    /// Yellow boxes at or below `value` for die `face` (the hits before shifts).
    pub fn grid_hits(&self, face: u8, value: u32) -> u32 {
        self.grid[(face - 1) as usize].iter().filter(|&&b| b <= value).count() as u32
    }

    pub fn kind(&self, t: TerrainId) -> TerrainKind {
        self.terrain.get(&t).copied().unwrap_or(TerrainKind::Other)
    }
}

/// Shifts up then down, never above six hits nor below none.
pub fn shift_hits(hits: u32, ups: u32, downs: u32) -> u32 {
    (hits + ups).min(6).saturating_sub(downs)
}

/// One side, worked out before the dice.
#[derive(Clone, Debug, PartialEq, Default)]
struct SideSetup {
    halve: Vec<bool>,
    double: Vec<bool>,
    barrage: u32,
    batteries: u32,
    ups: u32,
    downs: u32,
}

/// Numbers worked out once per combat.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    sides: [SideSetup; 2],
    withdraw: bool,
    first: Option<Role>,
    /// Leading armor units (attacker, defender) in a tank battle.
    leads: Option<[usize; 2]>,
    advantage: Option<Role>,
    /// Evasion is possible while fewer hits than this are scored (0 under a Pinning Attack).
    evasion_below: u32,
    prepared_positions: u32,
}

const fn ix(role: Role) -> usize {
    match role {
        Role::Attacker => 0,
        Role::Defender => 1,
    }
}

fn unit_value(u: &Combatant, res: &UnitResult, role: Role, halve: bool, double: bool) -> u32 {
    let v = value_now(u, res, role);
    match (halve, double) {
        (true, false) => v.div_ceil(2),
        (false, true) => v * 2,
        _ => v,
    }
}

fn total(p: &Prepared, s: &Situation, role: Role, res: &[UnitResult]) -> u32 {
    let setup = &p.sides[ix(role)];
    let units = s.units(role);
    let own: u32 = (0..units.len())
        .filter(|&i| !res[i].eliminated && !res[i].retreats)
        .map(|i| unit_value(&units[i], &res[i], role, setup.halve[i], setup.double[i]))
        .sum();
    own + setup.barrage
}

/// Pairs each battery with a distinct unit of its element or parent (a unit calls one battery).
fn match_batteries(units: &[Combatant], batteries: &[Battery]) -> Result<(), Refusal> {
    fn may_call(u: &Combatant, b: &Battery) -> bool {
        match &b.unit.element {
            Some(e) => u.element.as_ref() == Some(e),
            None => b.unit.parent.is_some() && b.unit.parent == u.parent,
        }
    }
    fn augment(b: usize, units: &[Combatant], bs: &[Battery], owner: &mut [Option<usize>], seen: &mut [bool]) -> bool {
        for u in 0..units.len() {
            if may_call(&units[u], &bs[b]) && !seen[u] {
                seen[u] = true;
                if owner[u].is_none_or(|other| augment(other, units, bs, owner, seen)) {
                    owner[u] = Some(b);
                    return true;
                }
            }
        }
        false
    }
    let mut owner = vec![None; units.len()];
    for b in 0..batteries.len() {
        let mut seen = vec![false; units.len()];
        if !augment(b, units, batteries, &mut owner, &mut seen) {
            return Err(Refusal(format!(
                "{} cannot barrage: each unit in the combat may call one artillery unit of its own element or parent, and none is left to call it",
                batteries[b].unit.name
            )));
        }
    }
    Ok(())
}

fn kind_of(t: Tactic) -> Option<Role> {
    match t {
        Tactic::Recce | Tactic::Airstrike => None,
        Tactic::DefenseInDepth | Tactic::Withdraw => Some(Role::Defender),
        _ => Some(Role::Attacker),
    }
}

pub fn assess(r: &Rules, s: &Situation) -> Result<Assessment, Refusal> {
    let kind = r.kind(s.terrain);
    let mut mods: Vec<Modifier> = Vec::new();
    let modifier = |side: Role, source: &str, effect: Effect| Modifier {
        side,
        source: source.to_string(),
        effect,
    };
    let plays = |role: Role, t: &Tactic| {
        s.support(role)
            .tactics
            .iter()
            .any(|x| std::mem::discriminant(x) == std::mem::discriminant(t))
    };
    let mut sides: [SideSetup; 2] = Default::default();
    for role in [Role::Attacker, Role::Defender] {
        let units = s.units(role);
        if units.len() > 3 {
            return Err(Refusal(format!(
                "the {role} has {} units in the combat: a Rommel combat has at most three per side",
                units.len()
            )));
        }
        let support = s.support(role);
        if support.tactics.len() > units.len() {
            return Err(Refusal(format!(
                "the {role} plays {} tactics with {} unit(s): a side may play one tactic per unit in the combat",
                support.tactics.len(),
                units.len()
            )));
        }
        for t in &support.tactics {
            if let Some(only) = kind_of(t.clone())
                && only != role
            {
                return Err(Refusal(format!(
                    "{} is {} tactic: only the {only} may play it",
                    t.name(),
                    if only == Role::Attacker {
                        "an offensive"
                    } else {
                        "a defensive"
                    }
                )));
            }
        }
        let setup = &mut sides[ix(role)];
        setup.halve = vec![false; units.len()];
        setup.double = vec![false; units.len()];
        for (i, u) in units.iter().enumerate() {
            let mut why = Vec::new();
            if u.is_armor() && kind != TerrainKind::Open && !u.has_trait(UnitTrait::InfantrySupport) {
                why.push("armor outside open terrain");
            }
            if role == Role::Attacker && u.crosses(EdgeFeature::Bridge) {
                why.push("attacking across a bridge");
            }
            if role == Role::Attacker && u.statuses.has(UnitStatus::LowSupply) {
                why.push("attacking while low on supply");
            }
            if u.statuses.has(UnitStatus::Tipped) {
                why.push("tipped");
            }
            if !why.is_empty() {
                setup.halve[i] = true;
                mods.push(modifier(
                    role,
                    &format!("vulnerable: {}", why.join(", ")),
                    Effect::Halved { unit: u.name.clone() },
                ));
            }
        }
        // Barrage.
        match_batteries(units, &support.barrage)?;
        for b in &support.barrage {
            let name = &b.unit.name;
            if b.unit.statuses.has(UnitStatus::Tipped) {
                return Err(Refusal(format!("{name} is tipped and cannot barrage")));
            }
            if b.distance > b.range {
                return Err(Refusal(format!(
                    "{name} is {} squares away, beyond its range of {}",
                    b.distance, b.range
                )));
            }
            if matches!(r.kind(b.terrain), TerrainKind::Urban | TerrainKind::Woods) {
                return Err(Refusal(format!(
                    "{name} stands in urban or woods terrain and cannot barrage"
                )));
            }
            if b.contested {
                return Err(Refusal(format!(
                    "{name} stands in a contested square and cannot barrage"
                )));
            }
            if b.rocket && role == Role::Defender {
                return Err(Refusal(format!(
                    "{name} is rocket artillery: it may barrage only when its side attacks"
                )));
            }
            let low = b.unit.statuses.has(UnitStatus::LowSupply);
            let value = if low { 1 } else { b.barrage };
            setup.barrage += value;
            setup.batteries += 1;
            mods.push(modifier(
                role,
                if low { "barrage (low on supply: 1)" } else { "barrage" },
                Effect::Barrage {
                    unit: name.clone(),
                    value,
                },
            ));
        }
    }
    // Tactics.
    let mut shifts: [(i32, i32); 2] = [(0, 0); 2];
    let mut shift = |role: Role, n: i32, source: &str, mods: &mut Vec<Modifier>| {
        if n > 0 {
            shifts[ix(role)].0 += n;
        } else {
            shifts[ix(role)].1 -= n;
        }
        mods.push(modifier(role, source, Effect::HitShift(n)));
    };
    let recce = [
        plays(Role::Attacker, &Tactic::Recce),
        plays(Role::Defender, &Tactic::Recce),
    ];
    let first = match recce {
        [true, false] => Some(Role::Attacker),
        [false, true] => Some(Role::Defender),
        [true, true] => {
            for role in [Role::Attacker, Role::Defender] {
                mods.push(modifier(
                    role,
                    "Recce",
                    Effect::Wasted("both sides played Recce; they cancel".into()),
                ));
            }
            None
        }
        _ => None,
    };
    if let Some(role) = first {
        mods.push(modifier(role, "Recce", Effect::ShootsFirst));
    }
    let pinning = plays(Role::Attacker, &Tactic::PinningAttack);
    let withdraw = plays(Role::Defender, &Tactic::Withdraw) && !pinning;
    if plays(Role::Defender, &Tactic::Withdraw) {
        mods.push(modifier(
            Role::Defender,
            "Withdraw",
            if pinning {
                Effect::Wasted("negated by the attacker's Pinning Attack".into())
            } else {
                Effect::ResultChange("no combat: the defenders retreat".into())
            },
        ));
    }
    if pinning {
        mods.push(modifier(
            Role::Attacker,
            "Pinning Attack",
            Effect::ResultChange("negates Withdraw; defenders may not evade".into()),
        ));
    }
    for t in &s.attack.tactics {
        match t {
            Tactic::Infiltration(named) => {
                if kind == TerrainKind::Open {
                    mods.push(modifier(
                        Role::Attacker,
                        "Infiltration",
                        Effect::Wasted("the defender is in open terrain".into()),
                    ));
                    continue;
                }
                let units = &s.attackers;
                let pick = match named {
                    Some(id) => units.iter().position(|u| &u.id == id && u.is_infantry_type()),
                    None => (0..units.len())
                        .filter(|&i| units[i].is_infantry_type() && !sides[0].double[i])
                        .max_by_key(|&i| units[i].value(Role::Attacker)),
                };
                match pick {
                    Some(i) => {
                        sides[0].double[i] = true;
                        let effect = if sides[0].halve[i] {
                            Effect::Wasted(format!("{} is also halved; doubling and halving cancel", units[i].name))
                        } else {
                            Effect::Doubled {
                                unit: units[i].name.clone(),
                            }
                        };
                        mods.push(modifier(Role::Attacker, "Infiltration", effect));
                    }
                    None => {
                        return Err(Refusal(match named {
                            Some(id) => format!("Infiltration names `{id}`, which is not an attacking infantry unit"),
                            None => "Infiltration doubles an infantry unit, and no attacker is infantry".into(),
                        }));
                    }
                }
            }
            Tactic::ReserveArtillery => {
                if s.conditions.first_phase {
                    shift(Role::Attacker, 1, "Reserve Artillery", &mut mods);
                } else {
                    mods.push(modifier(
                        Role::Attacker,
                        "Reserve Artillery",
                        Effect::Wasted("only in the first tactical phase of a turn".into()),
                    ));
                }
            }
            _ => {}
        }
    }
    for role in [Role::Attacker, Role::Defender] {
        for t in &s.support(role).tactics {
            let (name, n) = match t {
                Tactic::Airstrike => ("Airstrike (authored +1)", r.raw.airstrike_shifts),
                Tactic::CarpetBombing => ("Carpet Bombing (authored +2)", r.raw.carpet_bombing_shifts),
                _ => continue,
            };
            if s.weather != Weather::Clear {
                mods.push(modifier(
                    role,
                    name,
                    Effect::Wasted("airpower flies only in clear weather".into()),
                ));
            } else if kind == TerrainKind::Woods {
                mods.push(modifier(role, name, Effect::Wasted("not in woods".into())));
            } else {
                shift(role, n, name, &mut mods);
            }
        }
    }
    if s.attack.flanking {
        shift(Role::Attacker, 1, "flanking the enemy", &mut mods);
    }
    if plays(Role::Defender, &Tactic::DefenseInDepth) {
        shift(Role::Attacker, -1, "Defense in Depth", &mut mods);
    }
    if matches!(kind, TerrainKind::Urban | TerrainKind::Mountain | TerrainKind::Bocage)
        && s.defenders.iter().any(Combatant::is_infantry_type)
    {
        if s.attackers.iter().any(|u| u.has_trait(UnitTrait::InfantrySupport)) {
            mods.push(modifier(
                Role::Attacker,
                "attacking infantry in urban, mountain or bocage",
                Effect::Wasted("an attacker has the infantry support trait".into()),
            ));
        } else {
            shift(
                Role::Attacker,
                -1,
                "attacking infantry in urban, mountain or bocage",
                &mut mods,
            );
        }
    }
    let has_armor = |role: Role| s.units(role).iter().any(Combatant::is_armor);
    if kind == TerrainKind::Open {
        for role in [Role::Attacker, Role::Defender] {
            if !has_armor(role) && has_armor(role.other()) {
                shift(role, -1, "tank shock (no armor in open terrain)", &mut mods);
            }
        }
    }
    for role in [Role::Attacker, Role::Defender] {
        let mut elements: Vec<&str> = s.units(role).iter().filter_map(|u| u.element.as_deref()).collect();
        elements.sort_unstable();
        elements.dedup();
        if elements.len() > 1 {
            shift(
                role,
                -1,
                &format!("multiple elements ({})", elements.join(", ")),
                &mut mods,
            );
        }
        for x in &s.support(role).extra {
            if let ExtraEffect::HitShift(n) = x.effect {
                shift(role, n, &x.source, &mut mods);
            }
        }
    }
    for (i, side) in sides.iter_mut().enumerate() {
        side.ups = shifts[i].0 as u32;
        side.downs = shifts[i].1 as u32;
    }
    // Tank battle.
    let (leads, advantage) = if has_armor(Role::Attacker) && has_armor(Role::Defender) {
        let mut leads = [0; 2];
        for role in [Role::Attacker, Role::Defender] {
            let units = s.units(role);
            let most = units
                .iter()
                .filter(|u| u.is_armor())
                .map(|u| u.steps.remaining())
                .max()
                .unwrap_or(0);
            let armor = |u: &Combatant| u.armor.map_or(0, |a| a.for_role(role));
            leads[ix(role)] = match &s.support(role).lead {
                Some(id) => {
                    let i = units.iter().position(|u| &u.id == id && u.is_armor()).ok_or_else(|| {
                        Refusal(format!(
                            "the {role}'s leading unit `{id}` is not one of its armor units"
                        ))
                    })?;
                    if units[i].steps.remaining() < most {
                        return Err(Refusal(format!(
                            "{} cannot lead: a leading armor unit needs as many boxes left as any other armor unit",
                            units[i].name
                        )));
                    }
                    i
                }
                None => (0..units.len())
                    .filter(|&i| units[i].is_armor() && units[i].steps.remaining() == most)
                    .max_by_key(|&i| (armor(&units[i]), std::cmp::Reverse(i)))
                    .unwrap_or(0),
            };
        }
        let value = |role: Role| s.units(role)[leads[ix(role)]].armor.map_or(0, |a| a.for_role(role));
        let (va, vd) = (value(Role::Attacker), value(Role::Defender));
        let advantage = match va.cmp(&vd) {
            std::cmp::Ordering::Greater => Some(Role::Attacker),
            std::cmp::Ordering::Less => Some(Role::Defender),
            std::cmp::Ordering::Equal => None,
        };
        if let Some(role) = advantage {
            mods.push(modifier(
                role,
                &format!("armor advantage ({va} vs {vd}) in a tank battle"),
                Effect::ResultChange("one extra hit on the enemy's leading armor if any hits are scored".into()),
            ));
        }
        (Some(leads), advantage)
    } else {
        (None, None)
    };
    let prepared_positions = s.defense.prepared_positions.min(r.raw.max_prepared_positions);
    if s.defense.prepared_positions > r.raw.max_prepared_positions {
        return Err(Refusal(format!(
            "{} prepared positions in one square: the limit is {}",
            s.defense.prepared_positions, r.raw.max_prepared_positions
        )));
    }
    if prepared_positions > 0 {
        mods.push(modifier(
            Role::Defender,
            "prepared position",
            Effect::ResultChange("absorbs the first hit".into()),
        ));
    }
    let p = Prepared {
        sides,
        withdraw,
        first,
        leads,
        advantage,
        evasion_below: if pinning { 0 } else { r.raw.no_evasion_from_hits },
        prepared_positions,
    };
    let none = |n: usize| vec![UnitResult::default(); n];
    let attack_total = total(&p, s, Role::Attacker, &none(s.attackers.len()));
    let defense_total = total(&p, s, Role::Defender, &none(s.defenders.len()));
    Ok(Assessment {
        attack_total: f64::from(attack_total),
        defense_total: f64::from(defense_total),
        ratio: format!("{attack_total} vs {defense_total}"),
        cell: None,
        modifiers: mods,
        state: ModelState::Rommel(Box::new(p)),
    })
}
