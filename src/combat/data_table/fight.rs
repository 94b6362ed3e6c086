//! A data table's combat: the totals, the modifiers whose conditions hold and the column
//! (`assess`), then the dice and what the result code does to each side (`resolve`).

use super::{Does, Rules};
use crate::combat::losses::{eliminate, lose_step, next_cheapest, step_cost, take_cheapest, value_now};
use crate::combat::table::shifted;
use crate::combat::{
    AdvanceRight, Assessment, Choices, Chooser, CombatResult, Combatant, Effect, ExtraEffect, Log, ModelState,
    Modifier, Refusal, ResultCode, RetreatDemand, RetreatOrSteps, Role, SideResult, Situation, TableCell,
    dice::{DiceSource, NeedDie},
};
use crate::rules::units::UnitStatus;

/// Numbers worked out once per combat.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    column: usize,
    drm: i32,
}

fn refuse_attackers(r: &Rules, s: &Situation) -> Result<(), Refusal> {
    for u in &s.attackers {
        if let Some(st) = r.raw.may_not_attack.iter().find(|st| u.statuses.has(**st)) {
            return Err(Refusal(format!(
                "{} is {st:?} and may not attack under this table",
                u.name
            )));
        }
    }
    Ok(())
}

/// The table's modifiers whose conditions hold, and the designer's or events' extras: the
/// column shift, die modifier and defense multiple they add up to, each listed in `mods`.
fn modifiers(r: &Rules, s: &Situation, mods: &mut Vec<Modifier>) -> (i32, i32, u64) {
    let (mut shift, mut drm, mut times) = (0, 0, 1u64);
    let side = |n: i32| if n >= 0 { Role::Attacker } else { Role::Defender };
    for m in r.modifiers.iter().filter(|m| m.when.iter().all(|c| c.holds(s))) {
        if m.shift != 0 {
            shift = i32::saturating_add(shift, m.shift);
            mods.push(Modifier {
                side: side(m.shift),
                source: m.source.clone(),
                effect: Effect::ColumnShift(m.shift),
            });
        }
        if m.die != 0 {
            drm = i32::saturating_add(drm, m.die);
            mods.push(Modifier {
                side: side(m.die),
                source: m.source.clone(),
                effect: Effect::DieModifier(m.die),
            });
        }
        if m.defense_times != 1 {
            // Bounded, so no odds comparison overflows however many multiples apply.
            times = times.saturating_mul(u64::from(m.defense_times)).min(1_000);
            mods.push(Modifier {
                side: Role::Defender,
                source: m.source.clone(),
                effect: Effect::DefenseTimes(m.defense_times),
            });
        }
    }
    for x in s.attack.extra.iter().chain(&s.defense.extra) {
        let (n, effect) = match x.effect {
            ExtraEffect::ColumnShift(n) => (n, Effect::ColumnShift(n)),
            ExtraEffect::DieModifier(n) => (n, Effect::DieModifier(n)),
            ExtraEffect::HitShift(_) => continue,
        };
        match effect {
            Effect::ColumnShift(_) => shift = i32::saturating_add(shift, n),
            _ => drm = i32::saturating_add(drm, n),
        }
        mods.push(Modifier {
            side: Role::Attacker,
            source: x.source.clone(),
            effect,
        });
    }
    (shift, drm, times)
}

pub fn assess(r: &Rules, s: &Situation) -> Result<Assessment, Refusal> {
    refuse_attackers(r, s)?;
    let mut mods = Vec::new();
    let (shift, drm, times) = modifiers(r, s, &mut mods);
    let attack: u64 = s.attackers.iter().map(|u| u64::from(u.value(Role::Attacker))).sum();
    if attack == 0 {
        return Err(Refusal(
            "the attackers have no attack strength: an attack of 0 is not allowed".into(),
        ));
    }
    let defense = s
        .defenders
        .iter()
        .map(|u| u64::from(u.value(Role::Defender)))
        .sum::<u64>()
        .saturating_mul(times);
    let ratio = r.columns.ratio(attack, defense);
    let base = match (r.columns.column(attack, defense), r.raw.below_lowest) {
        (Some(c), _) => c,
        (None, super::BelowLowest::ReadsLowest) => 0,
        (None, super::BelowLowest::Refused) => {
            return Err(Refusal(format!(
                "{ratio} is below the first column ({}): such attacks are not allowed",
                r.labels[0]
            )));
        }
    };
    let column = shifted(base, shift, r.labels.len());
    Ok(Assessment {
        attack_total: attack as f64,
        defense_total: defense as f64,
        ratio,
        cell: Some(TableCell {
            column: r.labels[column].clone(),
            column_index: column,
            base_column: r.labels[base].clone(),
            base_index: base,
            die_modifier: drm,
        }),
        modifiers: mods,
        state: ModelState::DataTable(Prepared { column, drm }),
    })
}

/// Takes steps from the side until it has lost `factors` combat factors (or has none left).
/// Returns the factors lost.
fn lose_factors(units: &[Combatant], side: &mut SideResult, role: Role, factors: u32) -> u32 {
    let mut lost = 0;
    while lost < factors {
        // As `take_cheapest`: the units that took part first.
        let Some(i) = next_cheapest(units, &side.units, role) else {
            break;
        };
        lost += step_cost(&units[i], &side.units[i], role);
        lose_step(units, &mut side.units, i);
        side.steps_lost += 1;
    }
    lost
}

/// Each side's retreat in hexes as the result demands it.
struct Retreats([u32; 2]);

impl Retreats {
    fn demand(&mut self, role: Role, hexes: u32) {
        let k = role as usize;
        self.0[k] = self.0[k].max(hexes);
    }
}

/// What one `Does` does to the sides.
fn apply(s: &Situation, d: &Does, choices: &Choices, sides: &mut [SideResult; 2], retreats: &mut Retreats) {
    let units = |role: Role| s.units(role);
    match *d {
        Does::Steps(role, n) => {
            let side = &mut sides[role as usize];
            side.steps_lost += take_cheapest(units(role), &mut side.units, role, n);
        }
        Does::Factors(role, n) => {
            lose_factors(units(role), &mut sides[role as usize], role, n);
        }
        Does::Retreat(role, n) => retreats.demand(role, n),
        Does::Disorganized(role) => {
            for (u, res) in units(role).iter().zip(sides[role as usize].units.iter_mut()) {
                if !res.eliminated && !u.statuses.has(UnitStatus::Disorganized) {
                    res.gained.insert(UnitStatus::Disorganized);
                }
            }
        }
        Does::Eliminated(role) => {
            let side = &mut sides[role as usize];
            for i in 0..units(role).len() {
                side.steps_lost += eliminate(units(role), &mut side.units, i);
            }
        }
        Does::Exchange => {
            let defense = &mut sides[Role::Defender as usize];
            let mut factors = 0;
            for i in 0..s.defenders.len() {
                factors += value_now(&s.defenders[i], &defense.units[i], Role::Defender);
                defense.steps_lost += eliminate(&s.defenders, &mut defense.units, i);
            }
            lose_factors(
                &s.attackers,
                &mut sides[Role::Attacker as usize],
                Role::Attacker,
                factors,
            );
        }
        Does::Choice {
            side: role,
            steps,
            hexes,
        } => {
            let choice = match role {
                Role::Attacker => choices.attacker_retreat,
                Role::Defender => choices.defender_retreat,
            };
            // Any answer but the retreat takes the steps (a part of each, `Mix`, is Killing
            // Ground's: here it reads as the steps).
            if choice == RetreatOrSteps::Retreat {
                retreats.demand(role, hexes);
            } else {
                let side = &mut sides[role as usize];
                side.steps_lost += take_cheapest(units(role), &mut side.units, role, steps);
            }
        }
    }
}

/// Rolls the dice: every die but the last as it falls, the last grouped by the row the total
/// reads (the preview branches once per row, not per face).
fn roll(r: &Rules, p: &Prepared, dice: &mut impl DiceSource) -> Result<(Vec<u8>, usize), NeedDie> {
    let mut faces = Vec::new();
    let mut sum = 0i32;
    for _ in 1..r.dice_count {
        let f = dice.roll(r.die, "combat")?;
        sum = sum.saturating_add(i32::from(f));
        faces.push(f);
    }
    let before = sum.saturating_add(p.drm);
    let row = |f: u8| r.row(before.saturating_add(i32::from(f)));
    let last = dice.roll_classed(r.die, "combat", &|f| row(f) as u8)?;
    faces.push(last);
    Ok((faces, row(last)))
}

pub(crate) fn resolve(
    r: &Rules,
    s: &Situation,
    p: &Prepared,
    choices: &Choices,
    dice: &mut impl DiceSource,
    log: &mut Log,
) -> Result<CombatResult, NeedDie> {
    let (faces, row) = roll(r, p, dice)?;
    let code = r.rows[row][p.column].clone();
    log.say(|| {
        let rolled = faces.iter().map(u8::to_string).collect::<Vec<_>>().join("+");
        let drm = if p.drm != 0 {
            format!(" {:+}", p.drm)
        } else {
            String::new()
        };
        format!(
            "rolled {rolled}{drm}, row {} on the {} column: {code}",
            r.lowest + row as i32,
            r.labels[p.column]
        )
    });
    let mut sides = [SideResult::new(s.attackers.len()), SideResult::new(s.defenders.len())];
    let mut retreats = Retreats([0, 0]);
    for d in r.results.get(&code).map_or(&[][..], Vec::as_slice) {
        apply(s, d, choices, &mut sides, &mut retreats);
    }
    for role in [Role::Attacker, Role::Defender] {
        let cells = retreats.0[role as usize];
        let side = &mut sides[role as usize];
        for res in side.units.iter_mut().filter(|u| !u.eliminated && cells > 0) {
            res.retreats = true;
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
    let [mut attacker, defender] = sides;
    let cell_taken = !defender.holds();
    if cell_taken && attacker.holds() && r.raw.advance > 0 {
        attacker.advance = Some(AdvanceRight {
            cells: r.raw.advance,
            mandatory: false,
            attack_again: false,
        });
    }
    Ok(CombatResult {
        code: ResultCode::Table(code),
        attacker,
        defender,
        cell_taken,
    })
}
