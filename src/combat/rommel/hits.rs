//! Rommel's fight: each side shoots on the grid (the Recce side first), hits land on the leading
//! armor, a prepared position and then the units, fewest-hit and fresh first; whoever fails to
//! hold retreats and is tipped.

use super::{Prepared, Rules, ix, shift_hits, total};
use crate::combat::losses::remaining;
use crate::combat::{
    Choices, Chooser, CombatResult, Combatant, Log, ResultCode, RetreatDemand, Role, SideResult, Situation, UnitResult,
    dice::{DiceSource, Die, NeedDie},
};
use crate::rules::units::{UnitStatus, UnitTrait};

/// One side shoots: its total, its die, the grid's hits and the shifted hits. No roll when the
/// side has no unit left in the combat.
fn shoot(
    r: &Rules,
    p: &Prepared,
    s: &Situation,
    role: Role,
    res: &[UnitResult],
    dice: &mut impl DiceSource,
    log: &mut Log,
) -> Result<u32, NeedDie> {
    if res.iter().all(|u| u.eliminated || u.retreats) {
        log.say(|| format!("the {role} has no units left to shoot"));
        return Ok(0);
    }
    let value = total(p, s, role, res);
    let purpose = if role == Role::Attacker {
        "attacker's grid"
    } else {
        "defender's grid"
    };
    let face = dice.roll_classed(Die::D6, purpose, &|f| r.grid_hits(f, value) as u8)?;
    let base = r.grid_hits(face, value);
    let setup = &p.sides[ix(role)];
    let hits = shift_hits(base, setup.ups, setup.downs);
    log.say(|| {
        format!(
            "the {role} ({value}) rolls {face}: {}, +{} -{} shifts = {hits}",
            crate::rules::units::counted(base, "hit", "hits"),
            setup.ups,
            setup.downs
        )
    });
    Ok(hits)
}

/// Applies `hits` scored by `shooter` on the other side: the armor-advantage hit on the leading
/// armor, a prepared position absorbing the first hit, evasion, then hits spread evenly.
fn take_hits(
    p: &Prepared,
    s: &Situation,
    shooter: Role,
    hits: u32,
    target: &mut SideResult,
    prepared_left: &mut u32,
    choices: &Choices,
    log: &mut Log,
) {
    let role = shooter.other();
    let units = s.units(role);
    let res = &mut target.units;
    // At most three units a side (checked when the combat is assessed).
    let mut taken = [0u32; 3];
    let alive = |res: &[UnitResult], i: usize| !res[i].eliminated && !res[i].retreats;
    let hit = |res: &mut [UnitResult], i: usize, taken: &mut [u32], steps: &mut u32| {
        res[i].steps_lost += 1;
        *steps += 1;
        taken[i] += 1;
        if remaining(&units[i], &res[i]) == 0 {
            res[i].eliminated = true;
        }
    };
    let mut steps = 0;
    if hits > 0
        && p.advantage == Some(shooter)
        && let Some(leads) = p.leads
    {
        let lead = leads[ix(role)];
        if alive(res, lead) {
            hit(res, lead, &mut taken, &mut steps);
            log.say(|| format!("armor advantage: an extra hit on {}", units[lead].name));
        }
    }
    let mut grid_hits = hits;
    if role == Role::Defender && *prepared_left > 0 && grid_hits > 0 {
        *prepared_left -= 1;
        target.prepared_positions_lost += 1;
        grid_hits -= 1;
        log.say(|| "a prepared position absorbs the first hit and is removed".into());
    }
    let may_evade = role == Role::Defender && choices.evade && hits < p.evasion_below;
    let n = units.len();
    let fresh = |res: &[UnitResult], i: usize| units[i].steps.lost + res[i].steps_lost as usize == 0;
    for _ in 0..grid_hits {
        // Fewest hits this combat first; among those, fresh before worn; then the owner's pick.
        let Some(fewest) = (0..n).filter(|&i| alive(res, i)).map(|i| taken[i]).min() else {
            break;
        };
        let level = |res: &[UnitResult], i: usize| alive(res, i) && taken[i] == fewest;
        let any_fresh = (0..n).any(|i| level(res, i) && fresh(res, i));
        let pool = (0..n).filter(|&i| level(res, i) && (!any_fresh || fresh(res, i)));
        let Some(i) = crate::combat::losses::cheapest(units, res, role, pool) else {
            break;
        };
        if may_evade && units[i].has_trait(UnitTrait::Mobile) && remaining(&units[i], &res[i]) == 1 {
            res[i].retreats = true;
            log.say(|| format!("{} evades its last hit and retreats", units[i].name));
            continue;
        }
        hit(res, i, &mut taken, &mut steps);
    }
    for (i, &n) in taken.iter().enumerate().take(units.len()) {
        if n > 0 {
            let shattered = if res[i].eliminated { " and is shattered" } else { "" };
            log.say(|| {
                format!(
                    "{} takes {}{shattered}",
                    units[i].name,
                    crate::rules::units::counted(n, "hit", "hits")
                )
            });
        }
    }
    target.steps_lost += steps;
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
    let retreat = Some(RetreatDemand {
        cells: 1,
        chooser: Chooser::Owner,
        optional: false,
        er_check_in_ezoc: false,
    });
    let tip = |units: &[Combatant], side: &mut SideResult| {
        for (u, res) in units.iter().zip(side.units.iter_mut()) {
            if res.retreats && !res.eliminated && !u.statuses.has(UnitStatus::Tipped) {
                res.gained.insert(UnitStatus::Tipped);
            }
        }
    };
    if p.withdraw {
        for u in &mut defender.units {
            u.retreats = true;
        }
        defender.retreat = retreat;
        tip(&s.defenders, &mut defender);
        log.say(|| "Withdraw: the defenders retreat and there is no combat".into());
        return Ok(CombatResult {
            code: ResultCode::NoCombat,
            attacker,
            defender,
            cell_taken: true,
        });
    }
    let mut prepared_left = p.prepared_positions;
    match p.first {
        Some(first) => {
            let (shooter_side, target_side) = match first {
                Role::Attacker => (&mut attacker, &mut defender),
                Role::Defender => (&mut defender, &mut attacker),
            };
            let h1 = shoot(r, p, s, first, &shooter_side.units, dice, log)?;
            shooter_side.hits_scored = h1;
            take_hits(p, s, first, h1, target_side, &mut prepared_left, choices, log);
            let h2 = shoot(r, p, s, first.other(), &target_side.units, dice, log)?;
            target_side.hits_scored = h2;
            take_hits(p, s, first.other(), h2, shooter_side, &mut prepared_left, choices, log);
        }
        None => {
            let ha = shoot(r, p, s, Role::Attacker, &attacker.units, dice, log)?;
            let hd = shoot(r, p, s, Role::Defender, &defender.units, dice, log)?;
            attacker.hits_scored = ha;
            defender.hits_scored = hd;
            // The defender applies his hits first.
            take_hits(
                p,
                s,
                Role::Attacker,
                ha,
                &mut defender,
                &mut prepared_left,
                choices,
                log,
            );
            take_hits(
                p,
                s,
                Role::Defender,
                hd,
                &mut attacker,
                &mut prepared_left,
                choices,
                log,
            );
        }
    }
    if defender.holds() && choices.defender_withdraws {
        for u in defender.units.iter_mut().filter(|u| !u.eliminated) {
            u.retreats = true;
        }
        log.say(|| "the surviving defenders retreat".into());
    }
    let cell_taken = !defender.holds();
    if cell_taken {
        defender.prepared_positions_lost = p.prepared_positions;
        if !attacker.holds() {
            log.say(|| "both sides are gone from the square".into());
        }
    } else {
        for u in attacker.units.iter_mut().filter(|u| !u.eliminated) {
            u.retreats = true;
        }
        log.say(|| "the defenders hold: the attackers retreat".into());
    }
    for (units, side) in [(&s.attackers, &mut attacker), (&s.defenders, &mut defender)] {
        if side.units.iter().any(|u| u.retreats) {
            side.retreat = retreat;
        }
        tip(units, side);
    }
    attacker.batteries_tipped = p.sides[0].batteries;
    defender.batteries_tipped = p.sides[1].batteries;
    Ok(CombatResult {
        code: ResultCode::Hits {
            attacker: attacker.hits_scored,
            defender: defender.hits_scored,
        },
        attacker,
        defender,
        cell_taken,
    })
}
