//! Killing Ground (New England Simulations): an odds CRT whose results read `A/D` in steps,
//! retreat hexes that may be taken as steps instead, and disorganization (8.92-8.93); who takes
//! losses (8.94-8.96); attritional loss and accelerated effort (8.10).

mod contract;

use crate::combat::context::Context;
use crate::combat::losses::{cheapest, lose_step, remaining, take_cheapest};
use crate::combat::table::{RawTable, Table, odds_column, ratio_text, shifted};
use crate::combat::{
    AdvanceRight, Assessment, Choices, Chooser, CombatResult, Combatant, Effect, Log, ModelState, Modifier, Refusal,
    ResultCode, RetreatDemand, RetreatOrSteps, Role, SideResult, Situation,
    dice::{DiceSource, Die, NeedDie},
};
use crate::rules::terrain::{EdgeFeature, TerrainId};
use crate::rules::units::{StepTrack, UnitClass, UnitSize, UnitStatus};
use crate::source::LoadError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The `KillingGround(...)` section of a ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raw {
    /// Results in 8.92 notation: `1D/1r2` is attacker 1 step and disorganized, defender 1 step
    /// and 2 hexes of retreat (each hex may be taken as a step instead).
    pub crt: RawTable,
    /// Column shifts for the defender's terrain (negative helps the defender).
    #[serde(default)]
    pub terrain_shifts: BTreeMap<String, i32>,
    /// Column shifts when every attacker attacks across this edge feature.
    #[serde(default)]
    pub edge_shifts: BTreeMap<EdgeFeature, i32>,
    /// 8.10.3: defenders here may take an attritional loss as a one-hex retreat instead.
    #[serde(default)]
    pub city_terrain: Vec<String>,
    /// 8.10.3: German defenders here may do the same (bocage / hedgerow).
    #[serde(default)]
    pub hedgerow_terrain: Vec<String>,
    /// Nation ids counted as German.
    #[serde(default)]
    pub germans: Vec<String>,
}

/// One side of a result: mandatory steps, retreat hexes, disorganization.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SideEntry {
    pub steps: u32,
    pub retreat: u32,
    pub disorganized: bool,
}

/// A CRT entry, attacker then defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    pub attacker: SideEntry,
    pub defender: SideEntry,
}

/// Reads one side: `-`, or `[steps][rN][D]`, e.g. `1`, `r2`, `1r2`, `1D`, `2r1D`.
pub fn parse_side(text: &str) -> Result<SideEntry, String> {
    let t = text.trim();
    let bad = || format!("`{t}` is not a Killing Ground result: write `-` or `[steps][rHEXES][D]`, e.g. `1r2D`");
    let mut e = SideEntry::default();
    if t == "-" {
        return Ok(e);
    }
    let mut rest = t;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        e.steps = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
    }
    if let Some(r) = rest.strip_prefix('r') {
        let digits = r.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            return Err(bad());
        }
        e.retreat = r[..digits].parse().map_err(|_| bad())?;
        rest = &r[digits..];
    }
    if let Some(r) = rest.strip_prefix('D') {
        e.disorganized = true;
        rest = r;
    }
    if !rest.is_empty() || t.is_empty() {
        return Err(bad());
    }
    Ok(e)
}

pub fn parse_entry(text: &str) -> Result<Entry, String> {
    let (a, d) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}` needs a `/` between the attacker's and the defender's result"))?;
    Ok(Entry {
        attacker: parse_side(a)?,
        defender: parse_side(d)?,
    })
}

/// Validated Killing Ground combat rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub crt: Table<Entry>,
    pub terrain_shifts: HashMap<TerrainId, i32>,
    pub edge_shifts: BTreeMap<EdgeFeature, i32>,
    pub city_terrain: Vec<TerrainId>,
    pub hedgerow_terrain: Vec<TerrainId>,
    pub germans: Vec<String>,
}

impl Rules {
    /// 8.10.3: whether these defenders may take an attritional loss as a one-hex retreat.
    pub fn attrition_may_retreat(&self, s: &Situation) -> bool {
        self.city_terrain.contains(&s.terrain)
            || (self.hedgerow_terrain.contains(&s.terrain) && s.defenders.iter().all(|u| u.is_one_of(&self.germans)))
    }

    /// 8.96: whether the defenders have combined arms at the start of the combat (armor and
    /// infantry types, none disorganized).
    pub fn combined_arms(&self, s: &Situation) -> bool {
        s.defenders.iter().any(|u| u.is_armor())
            && s.defenders.iter().any(|u| u.is_infantry_type())
            && s.defenders.iter().all(|u| !u.statuses.has(UnitStatus::Disorganized))
    }

    /// 8.96: whether naming the type of the attacker's first loss is a choice here (combined
    /// arms, and attackers of both types).
    pub fn defender_may_name_type(&self, s: &Situation) -> bool {
        self.combined_arms(s) && s.attackers.iter().any(|u| u.is_armor()) && s.attackers.iter().any(|u| !u.is_armor())
    }
}

pub fn validate(cx: &Context, raw: &Raw) -> Result<Rules, LoadError> {
    Ok(Rules {
        crt: Table::from_raw(cx.src, "combat.crt", &raw.crt, parse_entry)?,
        terrain_shifts: cx.terrain_map("combat.terrain_shifts", &raw.terrain_shifts)?,
        edge_shifts: raw.edge_shifts.clone(),
        city_terrain: cx.terrain_list("combat.city_terrain", &raw.city_terrain)?,
        hedgerow_terrain: cx.terrain_list("combat.hedgerow_terrain", &raw.hedgerow_terrain)?,
        germans: raw.germans.clone(),
    })
}

/// Numbers worked out once per combat.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    column: usize,
    accelerated: Option<usize>,
    combined_arms: bool,
}

/// 8.10.2: the effectiveness a unit brings to an attritional-loss roll.
fn attrition_er(u: &Combatant) -> u32 {
    if u.size <= UnitSize::Battalion || u.class.is_artillery() {
        if u.is_armor() || u.class.is_infantry_type() {
            2
        } else {
            1
        }
    } else {
        u.er.unwrap_or(0)
    }
}

pub fn assess(r: &Rules, s: &Situation) -> Result<Assessment, Refusal> {
    let mut mods = Vec::new();
    let mut attack = 0u64;
    for u in &s.attackers {
        if u.statuses.has(UnitStatus::Disorganized) {
            return Err(Refusal(format!(
                "{} is disorganized and may not attack (authored rule: see the ruleset notes)",
                u.name
            )));
        }
        attack += u64::from(u.value(Role::Attacker));
    }
    let mut defense = 0u64;
    for u in &s.defenders {
        let v = u.value(Role::Defender);
        if u.statuses.has(UnitStatus::Disorganized) {
            defense += u64::from(v.div_ceil(2));
            mods.push(Modifier {
                side: Role::Attacker,
                source: "disorganized defender (authored)".into(),
                effect: Effect::Halved { unit: u.name.clone() },
            });
        } else {
            defense += u64::from(v);
        }
    }
    let mut shift = 0;
    if let Some(&n) = r.terrain_shifts.get(&s.terrain)
        && n != 0
    {
        shift += n;
        mods.push(Modifier {
            side: Role::Defender,
            source: "defender's terrain (authored chart)".into(),
            effect: Effect::ColumnShift(n),
        });
    }
    for (feature, &n) in &r.edge_shifts {
        let across = s
            .attackers
            .iter()
            .all(|u| u.crosses(*feature) && !(feature.is_water() && u.crosses(EdgeFeature::Bridge)));
        if across && n != 0 {
            shift += n;
            mods.push(Modifier {
                side: Role::Defender,
                source: format!("every attacker across a {feature:?} (authored chart)"),
                effect: Effect::ColumnShift(n),
            });
        }
    }
    shift += crate::combat::extra_column_shifts(s, &mut mods);
    let ratio = ratio_text(attack as f64, defense as f64);
    let lowest = &r.crt.labels[0];
    let base = odds_column(&r.crt.odds, attack, defense).ok_or_else(|| {
        Refusal(format!(
            "{ratio} is below {lowest}: attacks below {lowest} are not allowed"
        ))
    })?;
    let column = shifted(base, shift, r.crt.labels.len());
    let accelerated = match &s.attack.accelerated_effort {
        None => None,
        Some(id) => {
            let i = s
                .attackers
                .iter()
                .position(|u| &u.id == id)
                .ok_or_else(|| Refusal(format!("Accelerated Effort names `{id}`, which is not attacking")))?;
            let u = &s.attackers[i];
            may_make_accelerated_effort(&u.name, u.class, u.er, u.size, &u.steps).map_err(Refusal)?;
            mods.push(Modifier {
                side: Role::Attacker,
                source: format!("Accelerated Effort by {} (ER {})", u.name, u.er.unwrap_or(0)),
                effect: Effect::ResultChange(
                    "one step now; then a die: <= ER +2 columns, > ER +1, >= ER+3 none".into(),
                ),
            });
            Some(i)
        }
    };
    let combined_arms = r.combined_arms(s);
    if combined_arms {
        mods.push(Modifier {
            side: Role::Defender,
            source: "combined arms (8.96)".into(),
            effect: Effect::ResultChange("the defender names the type of the attacker's first step loss".into()),
        });
    }
    Ok(Assessment {
        attack_total: attack as f64,
        defense_total: defense as f64,
        ratio,
        cell: Some(r.crt.cell(base, column, 0)),
        modifiers: mods,
        state: ModelState::KillingGround(Prepared {
            column,
            accelerated,
            combined_arms,
        }),
    })
}

/// How many retreat hexes the owner converts into steps.
fn converted(choice: RetreatOrSteps, hexes: u32) -> u32 {
    match choice {
        RetreatOrSteps::Retreat => 0,
        RetreatOrSteps::Steps => hexes,
        RetreatOrSteps::Mix(n) => n.min(hexes),
    }
}

/// 8.10.4: whether a unit may make an Accelerated Effort, or the rule that says it may not. The
/// one place this is decided: the resolver refuses by it, the attack panel offers the option by it.
pub fn may_make_accelerated_effort(
    name: &str,
    class: UnitClass,
    er: Option<u32>,
    size: UnitSize,
    steps: &StepTrack,
) -> Result<(), String> {
    if !class.is_infantry_type() || er.is_none() || steps.is_cadre() || size <= UnitSize::Battalion {
        return Err(format!(
            "{name} cannot make an Accelerated Effort: only infantry-type units with an Effectiveness Rating may, not cadres or battalions (8.10.4)"
        ));
    }
    if steps.remaining() < 2 {
        return Err(format!(
            "{name} has one step left: Accelerated Effort reduces the unit by a step first"
        ));
    }
    Ok(())
}

/// 8.95-8.96: the attacker's losses. The first step comes from the strongest participating unit
/// (highest *current* unmodified strength, so a cadre of a once-strong regiment is not taken for
/// it; then ER), or from the type the defender names under combined arms; after an armor first
/// loss the second comes from the strongest unit; the rest are the owner's choice.
fn attacker_losses(
    units: &[Combatant],
    res: &mut SideResult,
    n: u32,
    accelerated: bool,
    defender_names_armor: Option<bool>,
) -> u32 {
    let mut taken = 0;
    let strongest = |res: &SideResult, filter: &dyn Fn(&Combatant) -> bool| {
        (0..units.len())
            .filter(|&i| filter(&units[i]) && remaining(&units[i], &res.units[i]) > 0)
            .max_by_key(|&i| {
                (
                    crate::combat::losses::value_now(&units[i], &res.units[i], Role::Attacker),
                    units[i].er.unwrap_or(0),
                    std::cmp::Reverse(i),
                )
            })
    };
    if n == 0 {
        return 0;
    }
    let first = if let Some(names_armor) = defender_names_armor {
        // The type the defender names, when the attackers have a unit of it; else the other.
        let has_armor = strongest(res, &|u| u.is_armor()).is_some();
        let has_other = strongest(res, &|u| !u.is_armor()).is_some();
        let armor = if names_armor { has_armor } else { !has_other };
        cheapest(
            units,
            &res.units,
            Role::Attacker,
            (0..units.len()).filter(|&i| units[i].is_armor() == armor),
        )
    } else {
        strongest(res, &|_| true)
    };
    let Some(first) = first.or_else(|| strongest(res, &|_| true)) else {
        return 0;
    };
    lose_step(units, &mut res.units, first);
    taken += 1;
    if taken < n && units[first].is_armor() && !accelerated {
        let now = |i: usize| crate::combat::losses::value_now(&units[i], &res.units[i], Role::Attacker);
        if let Some(second) = (0..units.len())
            .filter(|&i| remaining(&units[i], &res.units[i]) > 0)
            .max_by_key(|&i| (now(i), std::cmp::Reverse(i)))
        {
            lose_step(units, &mut res.units, second);
            taken += 1;
        }
    }
    taken + take_cheapest(units, &mut res.units, Role::Attacker, n - taken)
}

pub(crate) fn resolve(
    r: &Rules,
    s: &Situation,
    p: &Prepared,
    choices: &Choices,
    dice: &mut impl DiceSource,
    log: &mut Log,
) -> Result<CombatResult, NeedDie> {
    let mut attacker = SideResult::new(s.attackers.len());
    let mut defender = SideResult::new(s.defenders.len());
    let mut column = p.column;
    if let Some(i) = p.accelerated {
        lose_step(&s.attackers, &mut attacker.units, i);
        attacker.steps_lost += 1;
        let er = s.attackers[i].er.unwrap_or(0);
        let bonus_of = |face: u8| {
            if u32::from(face) <= er {
                2
            } else if u32::from(face) >= er + 3 {
                0
            } else {
                1
            }
        };
        let face = dice.roll_classed(Die::D6, "accelerated effort", &|f| bonus_of(f) as u8)?;
        let bonus = bonus_of(face);
        column = shifted(column, bonus, r.crt.labels.len());
        log.say(|| {
            format!(
                "Accelerated Effort: {} loses a step, rolls {face} against ER {er}: {bonus:+} columns",
                s.attackers[i].name
            )
        });
    }
    let face = dice.roll(Die::D6, "combat")?;
    let (entry, text) = r.crt.get(face, column);
    log.say(|| format!("rolled {face} on the {} column: {text}", r.crt.labels[column]));
    // Defender first (so combined arms knows whether the defender disorganized).
    let d_conv = converted(choices.defender_retreat, entry.defender.retreat);
    let d_steps = entry.defender.steps + d_conv;
    defender.steps_lost += take_cheapest(&s.defenders, &mut defender.units, Role::Defender, d_steps);
    let a_conv = converted(choices.attacker_retreat, entry.attacker.retreat);
    let a_steps = entry.attacker.steps + a_conv;
    // 8.96: the type the defender names (armor unless it names infantry), if it may.
    let names_type = (p.combined_arms && !entry.defender.disorganized).then_some(!choices.defender_names_infantry);
    attacker.steps_lost += attacker_losses(
        &s.attackers,
        &mut attacker,
        a_steps,
        p.accelerated.is_some(),
        names_type,
    );
    // 8.10.1 attritional loss: a side that took its whole retreat as steps rolls against its best
    // effectiveness; the winner loses a step of its choosing (8.10.3: or retreats a hex).
    let mut defender_extra_retreat = 0;
    for (role, entry_side, conv) in [
        (Role::Attacker, entry.attacker, a_conv),
        (Role::Defender, entry.defender, d_conv),
    ] {
        if entry_side.retreat == 0 || conv < entry_side.retreat {
            continue;
        }
        let units = s.units(role);
        let best = units.iter().map(attrition_er).max().unwrap_or(0);
        let face = dice.roll_classed(Die::D6, "attritional loss", &|f| u8::from(u32::from(f) <= best))?;
        if u32::from(face) <= best {
            let (winners, winner) = match role {
                Role::Attacker => (&s.defenders, &mut defender),
                Role::Defender => (&s.attackers, &mut attacker),
            };
            if role == Role::Attacker && choices.attrition_as_retreat && r.attrition_may_retreat(s) {
                defender_extra_retreat = 1;
                log.say(|| format!("attritional loss: attacker rolls {face} <= {best}: the defender retreats one hex instead (8.10.3)"));
            } else {
                let lost = take_cheapest(winners, &mut winner.units, role.other(), 1);
                winner.steps_lost += lost;
                log.say(|| {
                    format!(
                        "attritional loss: {role} rolls {face} <= {best}: the {} loses a step",
                        role.other()
                    )
                });
            }
        } else {
            log.say(|| format!("attritional loss: {role} rolls {face} > {best}: no loss"));
        }
    }
    for (units, side, entry_side, conv, extra) in [
        (&s.attackers, &mut attacker, entry.attacker, a_conv, 0),
        (
            &s.defenders,
            &mut defender,
            entry.defender,
            d_conv,
            defender_extra_retreat,
        ),
    ] {
        let cells = entry_side.retreat - conv + extra;
        for (u, res) in units.iter().zip(side.units.iter_mut()) {
            if res.eliminated || !u.participating {
                continue;
            }
            if entry_side.disorganized && !u.statuses.has(UnitStatus::Disorganized) {
                res.gained.insert(UnitStatus::Disorganized);
            }
            if cells > 0 {
                res.retreats = true;
            }
        }
        if cells > 0 && side.units.iter().any(|u| u.retreats) {
            side.retreat = Some(RetreatDemand {
                cells,
                chooser: Chooser::Owner,
                optional: false,
                er_check_in_ezoc: false,
            });
        }
    }
    let cell_taken = !defender.holds();
    if cell_taken && attacker.holds() {
        attacker.advance = Some(AdvanceRight {
            cells: 1,
            mandatory: false,
            attack_again: false,
        });
    }
    Ok(CombatResult {
        code: ResultCode::Table(text.clone()),
        attacker,
        defender,
        cell_taken,
    })
}
