//! Next War (GMT) standard combat: a d10 odds CRT (authored, not the published table) with lead
//! units, an ER column modifier, `A/D` step losses with `R`, the 11-13 column rule, ER checks to
//! ignore a retreat, and advance after combat with the mechanized second-hex advance.

use super::context::Context;
use super::losses::{cheapest, lose_step, remaining, steps_left};
use super::table::{RawTable, Table, odds_column, ratio_text, shifted};
use super::{
    AdvanceRight, Assessment, Choices, Chooser, CombatResult, Combatant, Effect, ExtraEffect, Log, ModelState,
    Modifier, Refusal, ResultCode, RetreatDemand, Role, SideResult, Situation, Weather,
    dice::{DiceSource, Die, NeedDie},
};
use crate::rules::terrain::{EdgeFeature, Mobility, TerrainId};
use crate::source::LoadError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// The `NextWar(...)` section of a ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raw {
    /// Columns numbered 1..13; `odds` gives the odds of the first ten, the last three are reached
    /// only by shifts. Results `A/D` in steps, `R` for a retreat.
    pub crt: RawTable,
    #[serde(default)]
    pub terrain_shifts: BTreeMap<String, i32>,
    #[serde(default)]
    pub edge_shifts: BTreeMap<EdgeFeature, i32>,
    /// The lead units' ER difference shifts the column by at most this much either way.
    pub er_shift_cap: i32,
    /// Terrain where a retreat is two hexes (one elsewhere, and in cities and fortifications).
    pub retreat_two: Vec<String>,
    /// Terrain where defenders may try to ignore a retreat (also cities and fortifications).
    pub hold_terrain: Vec<String>,
    /// Terrain a second-hex advance may not leave (urban): the defender's hex.
    pub no_second_hex_from: Vec<String>,
}

/// A CRT entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    pub attacker: u32,
    pub defender: u32,
    pub retreat: bool,
}

fn parse_entry(text: &str) -> Result<Entry, String> {
    let bad = || format!("`{text}` is not a Next War result: write `A/D` with an optional `R`, e.g. `1/2R`, `-/1`");
    let (a, d) = text.split_once('/').ok_or_else(bad)?;
    let num = |t: &str| -> Result<u32, String> {
        match t.trim() {
            "-" | "" => Ok(0),
            n => n.parse().map_err(|_| bad()),
        }
    };
    let d = d.trim();
    let (d, retreat) = match d.strip_suffix('R') {
        Some(rest) => (if rest.is_empty() { "-" } else { rest }, true),
        None => (d, false),
    };
    Ok(Entry {
        attacker: num(a)?,
        defender: num(d)?,
        retreat,
    })
}

/// Validated Next War combat rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub raw: Raw,
    pub crt: Table<Entry>,
    pub terrain_shifts: HashMap<TerrainId, i32>,
    pub retreat_two: Vec<TerrainId>,
    pub hold_terrain: Vec<TerrainId>,
    pub no_second_hex_from: Vec<TerrainId>,
}

pub fn validate(cx: &Context, raw: &Raw) -> Result<Rules, LoadError> {
    let crt = Table::from_raw(cx.src, "combat.crt", &raw.crt, parse_entry)?;
    if crt.die != Die::D10 {
        return Err(cx.src.error("combat.crt.die", "Next War rolls a D10 (0 = zero)"));
    }
    Ok(Rules {
        terrain_shifts: cx.terrain_map("combat.terrain_shifts", &raw.terrain_shifts)?,
        retreat_two: cx.terrain_list("combat.retreat_two", &raw.retreat_two)?,
        hold_terrain: cx.terrain_list("combat.hold_terrain", &raw.hold_terrain)?,
        no_second_hex_from: cx.terrain_list("combat.no_second_hex_from", &raw.no_second_hex_from)?,
        crt,
        raw: raw.clone(),
    })
}

/// A city (a town is not one).
fn city(s: &Situation) -> bool {
    s.conditions.city.is_some_and(|c| c != super::City::Town)
}

/// A city or fortification in the defender's hex: a one-hex retreat, and the stack may try to
/// hold.
fn strong_place(s: &Situation) -> bool {
    s.conditions.fortified || city(s)
}

impl Rules {
    /// Whether the defenders may try to ignore a retreat with an ER check.
    pub fn may_hold(&self, s: &Situation) -> bool {
        strong_place(s) || self.hold_terrain.contains(&s.terrain)
    }
}

/// Numbers worked out once per combat.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    column: usize,
    drm: i32,
    lead: [usize; 2],
    retreat_cells: u32,
    may_hold: bool,
    second_hex_allowed: bool,
}

/// The lead unit: the named one, or the highest ER (then attack).
fn lead(units: &[Combatant], named: &Option<String>, role: Role) -> Result<usize, Refusal> {
    match named {
        Some(id) => units
            .iter()
            .position(|u| &u.id == id)
            .ok_or_else(|| Refusal(format!("the {role}'s lead unit `{id}` is not in the combat"))),
        None => Ok((0..units.len())
            .max_by_key(|&i| (units[i].er.unwrap_or(0), units[i].value(role), std::cmp::Reverse(i)))
            .unwrap_or(0)),
    }
}

pub fn assess(r: &Rules, s: &Situation) -> Result<Assessment, Refusal> {
    let mut mods = Vec::new();
    let attack: u64 = s.attackers.iter().map(|u| u64::from(u.value(Role::Attacker))).sum();
    let defense: u64 = s.defenders.iter().map(|u| u64::from(u.value(Role::Defender))).sum();
    if let Some(u) = s.attackers.iter().find(|u| u.value(Role::Attacker) == 0) {
        return Err(Refusal(format!(
            "{} has an attack strength of zero and cannot attack",
            u.name
        )));
    }
    let ratio = ratio_text(attack as f64, defense as f64);
    let odds_columns = r.crt.odds.len();
    let lowest = &r.crt.labels[0];
    let base = odds_column(&r.crt.odds, attack, defense).ok_or_else(|| {
        Refusal(format!(
            "{ratio} is below the lowest column ({lowest}, {}:{}): such attacks are not allowed",
            r.crt.odds[0].attack, r.crt.odds[0].defense
        ))
    })?;
    let mut shift = 0;
    let mut push = |side: Role, source: String, n: i32, mods: &mut Vec<Modifier>| {
        if n != 0 {
            shift += n;
            mods.push(Modifier {
                side,
                source,
                effect: Effect::ColumnShift(n),
            });
        }
    };
    let lead_a = lead(&s.attackers, &s.attack.lead, Role::Attacker)?;
    let lead_d = lead(&s.defenders, &s.defense.lead, Role::Defender)?;
    let er_a = s.attackers[lead_a].er.unwrap_or(0) as i32;
    let er_d = s.defenders[lead_d].er.unwrap_or(0) as i32;
    let er_shift = (er_a - er_d).clamp(-r.raw.er_shift_cap, r.raw.er_shift_cap);
    push(
        if er_shift > 0 { Role::Attacker } else { Role::Defender },
        format!(
            "lead units' ER: {} {er_a} vs {} {er_d}",
            s.attackers[lead_a].name, s.defenders[lead_d].name
        ),
        er_shift,
        &mut mods,
    );
    if let Some(&n) = r.terrain_shifts.get(&s.terrain) {
        push(Role::Defender, "defender's terrain (authored)".into(), n, &mut mods);
    }
    if s.conditions.fortified {
        push(Role::Defender, "fortification (authored)".into(), -1, &mut mods);
    }
    for (feature, &n) in &r.raw.edge_shifts {
        if s.attackers.iter().all(|u| u.crosses(*feature)) {
            push(
                Role::Defender,
                format!("every attacker across a {feature:?} (authored)"),
                n,
                &mut mods,
            );
        }
    }
    let mut drm = 0;
    for x in s.attack.extra.iter().chain(&s.defense.extra) {
        match x.effect {
            ExtraEffect::ColumnShift(n) => push(Role::Attacker, x.source.clone(), n, &mut mods),
            ExtraEffect::DieModifier(n) => {
                drm += n;
                mods.push(Modifier {
                    side: Role::Attacker,
                    source: x.source.clone(),
                    effect: Effect::DieModifier(n),
                });
            }
            ExtraEffect::HitShift(_) => {}
        }
    }
    // Odds columns reach the tenth column at most; shifts may carry on into 11-13.
    let column = shifted(base.min(odds_columns - 1), shift, r.crt.labels.len());
    let strong_place = strong_place(s);
    let retreat_cells = if r.retreat_two.contains(&s.terrain) && !strong_place {
        2
    } else {
        1
    };
    let may_hold = r.may_hold(s);
    // Not from an urban, city or installation hex (text).
    let second_hex_allowed = s.weather != Weather::Storm
        && !city(s)
        && !s.conditions.installation
        && !r.no_second_hex_from.contains(&s.terrain);
    Ok(Assessment {
        attack_total: attack as f64,
        defense_total: defense as f64,
        ratio,
        cell: Some(r.crt.cell(base, column, drm)),
        modifiers: mods,
        state: ModelState::NextWar(Prepared {
            column,
            drm,
            lead: [lead_a, lead_d],
            retreat_cells,
            may_hold,
            second_hex_allowed,
        }),
    })
}

/// Takes `n` steps: the lead unit first, then every unit still at two steps or more before any
/// is eliminated, then the owner's choice.
fn take_losses(units: &[Combatant], res: &mut SideResult, lead: usize, n: u32, role: Role) {
    for k in 0..n {
        let pick = if k == 0 && remaining(&units[lead], &res.units[lead]) > 0 {
            Some(lead)
        } else {
            cheapest(
                units,
                &res.units,
                role,
                (0..units.len()).filter(|&i| remaining(&units[i], &res.units[i]) >= 2),
            )
            .or_else(|| cheapest(units, &res.units, role, 0..units.len()))
        };
        match pick {
            Some(i) => {
                lose_step(units, &mut res.units, i);
                res.steps_lost += 1;
            }
            None => break,
        }
    }
}

/// The authored ER check: pass on a d10 (0 = zero) below the ER, so ER 7 passes 70%.
pub fn er_check(er: u32, dice: &mut impl DiceSource) -> Result<(bool, u8), NeedDie> {
    let face = dice.roll_classed(Die::D10, "ER check", &|f| u8::from(u32::from(f) < er))?;
    Ok((u32::from(face) < er, face))
}

pub(crate) fn resolve(
    r: &Rules,
    s: &Situation,
    p: &Prepared,
    choices: &Choices,
    dice: &mut impl DiceSource,
    log: &mut Log,
) -> Result<CombatResult, NeedDie> {
    let face = dice.roll_classed(Die::D10, "combat", &|f| (i32::from(f) + p.drm).clamp(0, 9) as u8)?;
    let roll = (i32::from(face) + p.drm).clamp(0, 9) as u8;
    let (entry, text) = r.crt.get(roll, p.column);
    log.say(|| {
        format!(
            "rolled {face}{} on column {}: {text}",
            if p.drm != 0 {
                format!(" {:+} = {roll}", p.drm)
            } else {
                String::new()
            },
            r.crt.labels[p.column]
        )
    });
    let mut attacker = SideResult::new(s.attackers.len());
    let mut defender = SideResult::new(s.defenders.len());
    let avail_a = steps_left(&s.attackers, &attacker.units);
    let avail_d = steps_left(&s.defenders, &defender.units);
    let mut a_loss = entry.attacker;
    let mut d_loss = entry.defender;
    if p.column >= r.crt.odds.len() && d_loss > avail_d && a_loss > 0 {
        a_loss -= 1;
        log.say(|| "column 11-13 and the defender cannot satisfy the loss: the attacker loses one step less".into());
    }
    if a_loss >= avail_a && a_loss > 0 && d_loss > 0 {
        d_loss -= 1;
        log.say(|| "the attacker cannot satisfy the loss or is eliminated: the defender loses one step less".into());
    }
    take_losses(&s.defenders, &mut defender, p.lead[1], d_loss, Role::Defender);
    take_losses(&s.attackers, &mut attacker, p.lead[0], a_loss, Role::Attacker);
    let survivors = |res: &SideResult| res.units.iter().any(|u| !u.eliminated);
    let mut retreating = entry.retreat && survivors(&defender);
    if retreating && choices.hold && p.may_hold {
        let lowest = (0..s.defenders.len())
            .filter(|&i| !defender.units[i].eliminated)
            .min_by_key(|&i| s.defenders[i].er.unwrap_or(0));
        if let Some(i) = lowest {
            let er = s.defenders[i].er.unwrap_or(0);
            let (pass, face) = er_check(er, dice)?;
            if pass {
                retreating = false;
                log.say(|| format!("ER check to hold: {face} < {er}, the stack ignores the retreat"));
            } else {
                retreating = false;
                take_losses(&s.defenders, &mut defender, i, 1, Role::Defender);
                log.say(|| format!("ER check to hold: {face} >= {er} failed, one more step lost to stay"));
            }
        }
    }
    // The demand stands even when no defender survives it: units that retreated into the hex
    // earlier and sat the combat out follow it.
    if retreating || (entry.retreat && !survivors(&defender)) {
        for res in defender.units.iter_mut().filter(|u| !u.eliminated) {
            res.retreats = true;
        }
        defender.retreat = Some(RetreatDemand {
            cells: p.retreat_cells,
            chooser: Chooser::Owner,
            optional: false,
            er_check_in_ezoc: true,
        });
    }
    let cell_taken = !defender.holds();
    if cell_taken && survivors(&attacker) {
        let went_far = defender.units.iter().all(|u| u.eliminated) || p.retreat_cells >= 2;
        let mechanized = s
            .attackers
            .iter()
            .zip(&attacker.units)
            .any(|(u, res)| !res.eliminated && u.mobility != Mobility::Foot);
        attacker.advance = Some(AdvanceRight {
            cells: if went_far && mechanized && p.second_hex_allowed {
                2
            } else {
                1
            },
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
        "Next War"
    }
    fn counter_prints_defense(&self) -> bool {
        true
    }
    fn assess(&self, s: &Situation) -> Result<Assessment, Refusal> {
        assess(self, s)
    }
    fn table_view(&self) -> crate::combat::view::TableView {
        crate::combat::view::odds_view("Next War CRT", &self.crt)
    }
    fn options_help(&self) -> Vec<crate::combat::system::OptionHelp> {
        use crate::combat::system::help;
        vec![
            help(
                "Try to hold (ignore a retreat)",
                "the defender, after a retreat result",
                "Defenders in a city, a fortified hex or the ruleset's hold terrain may ignore a retreat: the unit with the lowest ER checks it; a pass holds, a failure holds at the cost of one more step.",
            ),
            help(
                "Who takes losses first",
                "each owner (the defender with its answer)",
                "After the lead unit's step and a step from every unit at full strength, the owner picks who loses next.",
            ),
        ]
    }
    fn answer_variations<'a>(&'a self, s: &'a Situation, _cells: u32) -> Vec<crate::combat::system::Variation<'a>> {
        if !self.may_hold(s) {
            return Vec::new();
        }
        vec![Box::new(|c: &super::DefenderChoices| {
            vec![super::DefenderChoices {
                hold: true,
                ..c.clone()
            }]
        })]
    }
    fn alternatives(&self, s: &Situation) -> Vec<(&'static str, fn(&mut Choices))> {
        if !self.may_hold(s) {
            return Vec::new();
        }
        vec![
            ("defenders try to hold", |c| c.hold = true),
            ("defenders retreat", |c| c.hold = false),
        ]
    }
    fn defender_answers_hint(&self, s: Option<&Situation>) -> Vec<&'static str> {
        if s.is_some_and(|s| self.may_hold(s)) {
            vec!["whether to try to hold (ER check) on a retreat result"]
        } else {
            Vec::new()
        }
    }
    fn losses_first_help(&self) -> Option<(&'static str, &'static str)> {
        Some((
            "automatic (the cheapest step)",
            "After the lead unit's step and a step from every unit still at full strength (the rules' own order), this unit takes the losses first; the rest go to the step that costs the least strength.",
        ))
    }
    fn weighed_defenses(&self) -> Vec<super::WeighedDefense> {
        vec![
            super::WeighedDefense::default(),
            super::WeighedDefense {
                no_retreat: false,
                answer: super::DefenderChoices {
                    hold: true,
                    ..super::DefenderChoices::default()
                },
            },
        ]
    }
}

crate::combat::system::procedure_from_functions!(Prepared);
