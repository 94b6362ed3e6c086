//! Small General (VR Designs): one unit attacks a hex, the defender fights with its best unit, the
//! attacker rolls 3d6 plus modifiers on a 3..18 table of combat states, losses and retreats, and
//! both gain experience for what they cause. Artillery never causes nor suffers losses.

use super::context::Context;
use super::{
    AdvanceRight, Assessment, Choices, Chooser, CombatResult, Combatant, Effect, ExtraEffect, Log, ModelState,
    Modifier, Refusal, ResultCode, RetreatDemand, Role, SideResult, Situation, TableCell, UnitResult,
    dice::{DiceSource, Die, NeedDie},
};
use crate::rules::terrain::{Mobility, TerrainId};
use crate::rules::units::UnitStatus;
use crate::source::LoadError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// What a table row does to one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hit {
    Destroyed,
    Loss,
    Panicked,
    Shocked,
    Disrupted,
    Retreat,
}

/// One effect of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RowEffect {
    Attacker(Hit),
    Defender(Hit),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRow {
    pub roll: u8,
    /// As printed, e.g. `DEF Retreat + Loss`.
    pub text: String,
    pub effects: Vec<RowEffect>,
}

/// Experience points for causing each result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperiencePoints {
    pub disrupted: u32,
    pub shocked: u32,
    pub panicked: u32,
    pub loss: u32,
    pub kill: u32,
}

/// The `SmallGeneral(...)` section of a ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raw {
    /// Rows for modified rolls 3..=18.
    pub table: Vec<RawRow>,
    /// Modifier when a foot unit attacks into this terrain.
    pub foot_attack_terrain: BTreeMap<String, i32>,
    /// Points needed for experience levels 1, 2, 3, 4.
    pub experience_levels: Vec<u32>,
    /// Attack and defense modifiers by level 0..=4 (defense ones are added to the attack roll).
    pub attack_by_level: Vec<i32>,
    pub defense_by_level: Vec<i32>,
    pub experience_for: ExperiencePoints,
    /// Authored: the attacker's attack value minus the defender's defense value is added to the
    /// roll (the text rates units but does not say how values enter the roll).
    pub strength_difference: bool,
}

/// Validated Small General combat rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub raw: Raw,
    /// Rows by modified roll, index 0 = roll 3.
    pub rows: Vec<(Arc<str>, Vec<RowEffect>)>,
    pub foot_attack_terrain: HashMap<TerrainId, i32>,
}

pub fn validate(cx: &Context, raw: &Raw) -> Result<Rules, LoadError> {
    let mut rows: Vec<Option<(Arc<str>, Vec<RowEffect>)>> = vec![None; 16];
    for (i, row) in raw.table.iter().enumerate() {
        if !(3..=18).contains(&row.roll) {
            return Err(cx.src.error(
                format!("combat.table[{i}].roll"),
                format!("3d6 rows run from 3 to 18, not {}", row.roll),
            ));
        }
        let slot = &mut rows[(row.roll - 3) as usize];
        if slot.is_some() {
            return Err(cx.src.error(
                format!("combat.table[{i}].roll"),
                format!("roll {} has two rows", row.roll),
            ));
        }
        *slot = Some((Arc::from(row.text.as_str()), row.effects.clone()));
    }
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.ok_or_else(|| cx.src.error("combat.table", format!("no row for roll {}", i + 3))))
        .collect::<Result<Vec<_>, _>>()?;
    for (field, v, n) in [
        ("experience_levels", raw.experience_levels.len(), 4),
        ("attack_by_level", raw.attack_by_level.len(), 5),
        ("defense_by_level", raw.defense_by_level.len(), 5),
    ] {
        if v != n {
            return Err(cx
                .src
                .error(format!("combat.{field}"), format!("needs {n} values, one per level")));
        }
    }
    Ok(Rules {
        foot_attack_terrain: cx.terrain_map("combat.foot_attack_terrain", &raw.foot_attack_terrain)?,
        rows,
        raw: raw.clone(),
    })
}

/// The experience level (0..=4) for a number of points.
pub fn level(r: &Rules, points: u32) -> usize {
    r.raw.experience_levels.iter().filter(|&&p| points >= p).count()
}

/// Numbers worked out once per combat.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    modifier: i32,
    defender: usize,
}

/// Modifiers that depend on the defending unit, summed.
fn defender_modifiers(r: &Rules, s: &Situation, d: &Combatant, out: &mut Vec<Modifier>) -> i32 {
    let a = &s.attackers[0];
    let mut total: i32 = 0;
    let mut add = |source: String, n: i32| {
        if n != 0 {
            total = total.saturating_add(n);
            out.push(Modifier {
                side: if n > 0 { Role::Attacker } else { Role::Defender },
                source,
                effect: Effect::DieModifier(n),
            });
        }
    };
    if r.raw.strength_difference {
        // Values are bounded where they are read; the arithmetic must not wrap even so.
        let diff = (i64::from(a.value(Role::Attacker)) - i64::from(d.value(Role::Defender)))
            .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        add(
            format!(
                "attack {} vs defense {} of {} (authored)",
                a.value(Role::Attacker),
                d.value(Role::Defender),
                d.name
            ),
            diff,
        );
    }
    if d.statuses.has(UnitStatus::OutOfSupply) {
        add("defender out of supply".into(), 6);
    } else if d.statuses.has(UnitStatus::LowSupply) {
        add("defender has a supply problem".into(), 2);
    }
    let lvl = level(r, d.experience);
    add(
        format!("defender's experience level {lvl}"),
        r.raw.defense_by_level[lvl],
    );
    if d.statuses.has(UnitStatus::Panicked) {
        add("defender panicked".into(), 4);
    } else if d.statuses.has(UnitStatus::Shocked) {
        add("defender shocked".into(), 2);
    } else if d.statuses.has(UnitStatus::Disrupted) {
        add("defender disrupted".into(), 1);
    }
    if a.class.is_artillery() && d.mobility == Mobility::Mechanized {
        add("artillery against a mechanized unit".into(), -2);
    }
    total
}

pub fn assess(r: &Rules, s: &Situation) -> Result<Assessment, Refusal> {
    if s.attackers.len() != 1 {
        return Err(Refusal(format!(
            "Small General attacks with one unit at a time ({} given); attack again from another hexside for the simultaneous-attack bonus",
            s.attackers.len()
        )));
    }
    let a = &s.attackers[0];
    let mut mods = Vec::new();
    let mut total: i32 = 0;
    let mut add = |source: String, n: i32, mods: &mut Vec<Modifier>| {
        if n != 0 {
            total = total.saturating_add(n);
            mods.push(Modifier {
                side: if n > 0 { Role::Attacker } else { Role::Defender },
                source,
                effect: Effect::DieModifier(n),
            });
        }
    };
    if a.mobility == Mobility::Foot
        && let Some(&n) = r.foot_attack_terrain.get(&s.terrain)
    {
        add("foot unit attacking into this terrain".into(), n, &mut mods);
    }
    if a.statuses.has(UnitStatus::LowSupply) || a.statuses.has(UnitStatus::OutOfSupply) {
        add("attacker has a supply problem".into(), -4, &mut mods);
    }
    let lvl = level(r, a.experience);
    add(
        format!("attacker's experience level {lvl}"),
        r.raw.attack_by_level[lvl],
        &mut mods,
    );
    if a.statuses.has(UnitStatus::Panicked) {
        add("attacker panicked (authored, as for a defender)".into(), -4, &mut mods);
    } else if a.statuses.has(UnitStatus::Shocked) {
        add("attacker shocked (authored, as for a defender)".into(), -2, &mut mods);
    } else if a.statuses.has(UnitStatus::Disrupted) {
        add("attacker disrupted".into(), -1, &mut mods);
    }
    let sides = s.attack.hexsides.clamp(1, 6) as i32;
    add(
        format!("simultaneous attack from {sides} hexsides"),
        sides - 1,
        &mut mods,
    );
    for x in &s.attack.extra {
        if let ExtraEffect::DieModifier(n) = x.effect {
            add(x.source.clone(), n, &mut mods);
        }
    }
    // The defender fights with the unit that gives the attacker the lowest modifier.
    let mut best: Option<(i32, usize, Vec<Modifier>)> = None;
    for (i, d) in s.defenders.iter().enumerate() {
        let mut dm = Vec::new();
        let m = defender_modifiers(r, s, d, &mut dm);
        if best.as_ref().is_none_or(|(bm, _, _)| m < *bm) {
            best = Some((m, i, dm));
        }
    }
    let (dm, defender, dmods) = best.expect("assess checked there are defenders");
    mods.extend(dmods);
    let modifier = total.saturating_add(dm);
    Ok(Assessment {
        attack_total: f64::from(a.value(Role::Attacker)),
        defense_total: f64::from(s.defenders[defender].value(Role::Defender)),
        ratio: format!("{} against {}", a.name, s.defenders[defender].name),
        cell: Some(TableCell {
            column: format!("3d6 {modifier:+}"),
            column_index: 0,
            base_column: "3d6".into(),
            base_index: 0,
            die_modifier: modifier,
        }),
        modifiers: mods,
        state: ModelState::SmallGeneral(Prepared { modifier, defender }),
    })
}

const STATES: [UnitStatus; 3] = [UnitStatus::Disrupted, UnitStatus::Shocked, UnitStatus::Panicked];

/// Puts a unit in a combat state unless it is already in a worse one.
fn set_state(u: &Combatant, res: &mut UnitResult, state: UnitStatus) -> bool {
    let rank = |s: UnitStatus| STATES.iter().position(|x| *x == s);
    let current = STATES
        .iter()
        .rev()
        .find(|s| (u.statuses.has(**s) && !res.cleared.has(**s)) || res.gained.has(**s))
        .copied();
    if current.is_some_and(|c| rank(c) >= rank(state)) {
        return false;
    }
    if let Some(c) = current {
        if res.gained.has(c) {
            res.gained.remove(c);
        } else {
            res.cleared.insert(c);
        }
    }
    res.gained.insert(state);
    true
}

/// Applies one hit; returns the experience it earns the side that caused it.
fn apply(
    r: &Rules,
    u: &Combatant,
    res: &mut UnitResult,
    side: &mut SideResult,
    hit: Hit,
    artillery_fight: bool,
) -> u32 {
    let xp = r.raw.experience_for;
    let remaining = (u.steps.remaining() as u32).saturating_sub(res.steps_lost);
    if res.eliminated {
        return 0;
    }
    match hit {
        Hit::Destroyed | Hit::Loss if artillery_fight => {
            if hit == Hit::Destroyed && set_state(u, res, UnitStatus::Panicked) {
                xp.panicked
            } else {
                0
            }
        }
        Hit::Destroyed => {
            res.steps_lost += remaining;
            side.steps_lost += remaining;
            res.eliminated = true;
            xp.kill
        }
        Hit::Loss => {
            res.steps_lost += 1;
            side.steps_lost += 1;
            if remaining <= 1 {
                res.eliminated = true;
                xp.kill
            } else {
                xp.loss
            }
        }
        Hit::Panicked | Hit::Shocked | Hit::Disrupted => {
            let (state, points) = match hit {
                Hit::Panicked => (UnitStatus::Panicked, xp.panicked),
                Hit::Shocked => (UnitStatus::Shocked, xp.shocked),
                _ => (UnitStatus::Disrupted, xp.disrupted),
            };
            if set_state(u, res, state) { points } else { 0 }
        }
        Hit::Retreat => {
            res.retreats = true;
            side.retreat = Some(RetreatDemand {
                cells: 1,
                chooser: Chooser::Random,
                optional: false,
                er_check_in_ezoc: false,
            });
            0
        }
    }
}

pub(crate) fn resolve(
    r: &Rules,
    s: &Situation,
    p: &Prepared,
    _choices: &Choices,
    dice: &mut impl DiceSource,
    log: &mut Log,
) -> Result<CombatResult, NeedDie> {
    let mut sum = 0i32;
    for _ in 0..3 {
        sum += i32::from(dice.roll(Die::D6, "combat (3d6)")?);
    }
    let roll = sum.saturating_add(p.modifier).clamp(3, 18);
    let (text, effects) = &r.rows[(roll - 3) as usize];
    log.say(|| format!("rolled {sum} {:+} = {roll}: {text}", p.modifier));
    let mut attacker = SideResult::new(1);
    let mut defender = SideResult::new(s.defenders.len());
    let a = &s.attackers[0];
    let d = p.defender;
    let artillery_attack = a.class.is_artillery();
    for effect in effects {
        match *effect {
            RowEffect::Defender(hit) => {
                let mut unit = defender.units[d];
                let gained = apply(r, &s.defenders[d], &mut unit, &mut defender, hit, artillery_attack);
                defender.units[d] = unit;
                attacker.units[0].experience += gained;
            }
            RowEffect::Attacker(hit) => {
                let mut unit = attacker.units[0];
                let gained = apply(r, a, &mut unit, &mut attacker, hit, artillery_attack);
                attacker.units[0] = unit;
                defender.units[d].experience += gained;
            }
        }
    }
    if defender.units[d].eliminated || attacker.units[0].eliminated {
        // Dead units gain nothing.
        for side in [&mut attacker, &mut defender] {
            for u in side.units.iter_mut().filter(|u| u.eliminated) {
                u.experience = 0;
            }
        }
    }
    let cell_taken = !defender.holds();
    if cell_taken && !attacker.units[0].eliminated && !attacker.units[0].retreats {
        attacker.advance = Some(AdvanceRight {
            cells: 1,
            mandatory: true,
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

impl crate::combat::CombatSystem for Rules {
    fn name(&self) -> &'static str {
        "Small General"
    }
    fn assess(&self, s: &Situation) -> Result<Assessment, Refusal> {
        assess(self, s)
    }
    fn table_view(&self) -> crate::combat::view::TableView {
        crate::combat::view::TableView {
            title: "Small General combat table".into(),
            row_header: "3d6 + mods".into(),
            columns: vec!["result".into()],
            rows: self
                .rows
                .iter()
                .enumerate()
                .map(|(i, (text, _))| ((i + 3).to_string(), vec![text.to_string()]))
                .collect(),
            note: "Roll 3d6 and add the modifiers; below 3 reads 3, above 18 reads 18.".into(),
        }
    }
    fn landed(
        &self,
        cell: Option<&TableCell>,
        rolls: &[crate::combat::Roll],
        code: &ResultCode,
    ) -> Vec<(usize, usize)> {
        crate::combat::view::landed_on_rows(&self.table_view(), cell, rolls, code, true)
    }
    fn options_help(&self) -> Vec<crate::combat::system::OptionHelp> {
        use crate::combat::system::help;
        vec![help(
            "No options",
            "nobody",
            "3d6 with the modifiers; a retreat goes one hex in a random direction among the friendly hexes.",
        )]
    }
    fn attack_window_notes(&self) -> Vec<&'static str> {
        vec![
            "Small General: no options; 3d6 with the modifiers below.",
            "A retreat goes one hex in a random direction among the friendly hexes: no enemy unit there, and outside enemy zones of control unless a friendly unit stands there. An empty hex counts as friendly: the rules do not define a friendly hex and the game keeps no hex control.",
        ]
    }
    fn losses_first_help(&self) -> Option<(&'static str, &'static str)> {
        None
    }
    fn owner_picks_losses(&self) -> bool {
        false
    }
    fn one_attacker_at_a_time(&self) -> bool {
        true
    }
}

crate::combat::system::procedure_from_functions!(Prepared);
