//! Rommel's assessment, before the dice, decided part by part: whether the combat may be fought
//! (units, tactics, batteries), which units are vulnerable and halved, barrage, who shoots first
//! (Recce) and whether the defenders withdraw, the attack tactics that double a unit or shift, the
//! hit shifts of each side, the tank battle's leading units and armor advantage, and prepared
//! positions. Each part adds its modifiers, in that order, to the list the panels show.

use super::{Prepared, Rules, SideSetup, TerrainKind, ix, kind_of, match_batteries, total};
use crate::combat::{
    Assessment, Combatant, Effect, ExtraEffect, ModelState, Modifier, Refusal, Role, Situation, Support, Tactic,
    UnitResult, Weather,
};
use crate::rules::terrain::EdgeFeature;
use crate::rules::units::{UnitStatus, UnitTrait};

/// The modifiers found so far, and each side's hit shifts up and down.
#[derive(Default)]
struct Mods {
    list: Vec<Modifier>,
    shifts: [(u32, u32); 2],
}

impl Mods {
    fn push(&mut self, side: Role, source: &str, effect: Effect) {
        self.list.push(Modifier {
            side,
            source: source.to_string(),
            effect,
        });
    }

    /// Shifts `role`'s hits by `n` (up when positive).
    fn shift(&mut self, role: Role, n: i32, source: &str) {
        let (ups, downs) = &mut self.shifts[ix(role)];
        if n > 0 {
            *ups += n as u32;
        } else {
            *downs += n.unsigned_abs();
        }
        self.push(role, source, Effect::HitShift(n));
    }
}

/// Whether `role` plays a tactic of `t`'s kind.
fn plays(s: &Situation, role: Role, t: &Tactic) -> bool {
    s.support(role)
        .tactics
        .iter()
        .any(|x| std::mem::discriminant(x) == std::mem::discriminant(t))
}

pub fn assess(r: &Rules, s: &Situation) -> Result<Assessment, Refusal> {
    let kind = r.kind(s.terrain);
    let mut mods = Mods::default();
    let mut sides: [SideSetup; 2] = Default::default();
    for role in [Role::Attacker, Role::Defender] {
        check_side(s, role)?;
        let setup = &mut sides[ix(role)];
        setup.halve = vulnerable(s, role, kind, &mut mods);
        setup.double = vec![false; s.units(role).len()];
        (setup.barrage, setup.batteries) = barrage(r, s.units(role), s.support(role), role, &mut mods)?;
    }
    let (first, withdraw, pinning) = recce_and_withdrawal(s, &mut mods);
    attack_tactics(s, kind, &mut sides[ix(Role::Attacker)], &mut mods)?;
    hit_shifts(r, s, kind, &mut mods);
    for (i, side) in sides.iter_mut().enumerate() {
        (side.ups, side.downs) = mods.shifts[i];
    }
    let (leads, advantage) = tank_battle(s, &mut mods)?;
    let prepared_positions = prepared_positions(r, s, &mut mods)?;
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
        modifiers: mods.list,
        state: ModelState::Rommel(Box::new(p)),
    })
}

/// At most three units a side, one tactic per unit, and each tactic played by a side that may.
fn check_side(s: &Situation, role: Role) -> Result<(), Refusal> {
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
            "the {role} plays {} with {}: a side may play one tactic per unit in the combat",
            crate::rules::units::counted(support.tactics.len() as u64, "tactic", "tactics"),
            crate::rules::units::counted(units.len() as u64, "unit", "units")
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
    Ok(())
}

/// Which of `role`'s units are vulnerable (halved): armor outside open terrain, attacking across a
/// bridge or low on supply, tipped.
fn vulnerable(s: &Situation, role: Role, kind: TerrainKind, mods: &mut Mods) -> Vec<bool> {
    s.units(role)
        .iter()
        .map(|u| {
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
                mods.push(
                    role,
                    &format!("vulnerable: {}", why.join(", ")),
                    Effect::Halved { unit: u.name.clone() },
                );
            }
            !why.is_empty()
        })
        .collect()
}

/// The side's barrage: each battery called by a unit of its element, in range, free to fire.
/// Returns the value added and the number of batteries.
fn barrage(
    r: &Rules,
    units: &[Combatant],
    support: &Support,
    role: Role,
    mods: &mut Mods,
) -> Result<(u32, u32), Refusal> {
    match_batteries(units, &support.barrage)?;
    let (mut total, mut batteries) = (0, 0);
    for b in &support.barrage {
        let name = &b.unit.name;
        let refuse = |why: String| Err(Refusal(format!("{name} {why}")));
        if b.unit.statuses.has(UnitStatus::Tipped) {
            return refuse("is tipped and cannot barrage".into());
        }
        if b.distance > b.range {
            return refuse(format!(
                "is {} squares away, beyond its range of {}",
                b.distance, b.range
            ));
        }
        if matches!(r.kind(b.terrain), TerrainKind::Urban | TerrainKind::Woods) {
            return refuse("stands in urban or woods terrain and cannot barrage".into());
        }
        if b.contested {
            return refuse("stands in a contested square and cannot barrage".into());
        }
        if b.rocket && role == Role::Defender {
            return refuse("is rocket artillery: it may barrage only when its side attacks".into());
        }
        let low = b.unit.statuses.has(UnitStatus::LowSupply);
        let value = if low { 1 } else { b.barrage };
        total += value;
        batteries += 1;
        mods.push(
            role,
            if low { "barrage (low on supply: 1)" } else { "barrage" },
            Effect::Barrage {
                unit: name.clone(),
                value,
            },
        );
    }
    Ok((total, batteries))
}

/// Who shoots first (Recce by one side only), whether the defenders withdraw (unless pinned), and
/// whether the attack pins them.
fn recce_and_withdrawal(s: &Situation, mods: &mut Mods) -> (Option<Role>, bool, bool) {
    let recce = [
        plays(s, Role::Attacker, &Tactic::Recce),
        plays(s, Role::Defender, &Tactic::Recce),
    ];
    let first = match recce {
        [true, false] => Some(Role::Attacker),
        [false, true] => Some(Role::Defender),
        [true, true] => {
            for role in [Role::Attacker, Role::Defender] {
                mods.push(
                    role,
                    "Recce",
                    Effect::Wasted("both sides played Recce; they cancel".into()),
                );
            }
            None
        }
        _ => None,
    };
    if let Some(role) = first {
        mods.push(role, "Recce", Effect::ShootsFirst);
    }
    let pinning = plays(s, Role::Attacker, &Tactic::PinningAttack);
    let withdraw = plays(s, Role::Defender, &Tactic::Withdraw) && !pinning;
    if plays(s, Role::Defender, &Tactic::Withdraw) {
        mods.push(
            Role::Defender,
            "Withdraw",
            if pinning {
                Effect::Wasted("negated by the attacker's Pinning Attack".into())
            } else {
                Effect::ResultChange("no combat: the defenders retreat".into())
            },
        );
    }
    if pinning {
        mods.push(
            Role::Attacker,
            "Pinning Attack",
            Effect::ResultChange("negates Withdraw; defenders may not evade".into()),
        );
    }
    (first, withdraw, pinning)
}

/// Infiltration doubles an attacking infantry unit outside open terrain; Reserve Artillery shifts
/// up in the first tactical phase.
fn attack_tactics(s: &Situation, kind: TerrainKind, attack: &mut SideSetup, mods: &mut Mods) -> Result<(), Refusal> {
    for t in &s.attack.tactics {
        match t {
            Tactic::Infiltration(named) => {
                if kind == TerrainKind::Open {
                    mods.push(
                        Role::Attacker,
                        "Infiltration",
                        Effect::Wasted("the defender is in open terrain".into()),
                    );
                    continue;
                }
                let units = &s.attackers;
                let pick = match named {
                    Some(id) => units.iter().position(|u| &u.id == id && u.is_infantry_type()),
                    None => (0..units.len())
                        .filter(|&i| units[i].is_infantry_type() && !attack.double[i])
                        .max_by_key(|&i| units[i].value(Role::Attacker)),
                };
                let Some(i) = pick else {
                    return Err(Refusal(match named {
                        Some(id) => format!("Infiltration names `{id}`, which is not an attacking infantry unit"),
                        None => "Infiltration doubles an infantry unit, and no attacker is infantry".into(),
                    }));
                };
                attack.double[i] = true;
                let effect = if attack.halve[i] {
                    Effect::Wasted(format!("{} is also halved; doubling and halving cancel", units[i].name))
                } else {
                    Effect::Doubled {
                        unit: units[i].name.clone(),
                    }
                };
                mods.push(Role::Attacker, "Infiltration", effect);
            }
            Tactic::ReserveArtillery => {
                if s.conditions.first_phase {
                    mods.shift(Role::Attacker, 1, "Reserve Artillery");
                } else {
                    mods.push(
                        Role::Attacker,
                        "Reserve Artillery",
                        Effect::Wasted("only in the first tactical phase of a turn".into()),
                    );
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Each side's hit shifts: airpower (clear weather, not in woods), flanking, Defense in Depth,
/// infantry in urban, mountain or bocage, tank shock in the open, multiple elements, and the
/// designer's extra shifts.
fn hit_shifts(r: &Rules, s: &Situation, kind: TerrainKind, mods: &mut Mods) {
    for role in [Role::Attacker, Role::Defender] {
        for t in &s.support(role).tactics {
            let (name, n) = match t {
                Tactic::Airstrike => ("Airstrike (authored +1)", r.raw.airstrike_shifts),
                Tactic::CarpetBombing => ("Carpet Bombing (authored +2)", r.raw.carpet_bombing_shifts),
                _ => continue,
            };
            if s.weather != Weather::Clear {
                mods.push(
                    role,
                    name,
                    Effect::Wasted("airpower flies only in clear weather".into()),
                );
            } else if kind == TerrainKind::Woods {
                mods.push(role, name, Effect::Wasted("not in woods".into()));
            } else {
                mods.shift(role, n, name);
            }
        }
    }
    if s.attack.flanking {
        mods.shift(Role::Attacker, 1, "flanking the enemy");
    }
    if plays(s, Role::Defender, &Tactic::DefenseInDepth) {
        mods.shift(Role::Attacker, -1, "Defense in Depth");
    }
    if matches!(kind, TerrainKind::Urban | TerrainKind::Mountain | TerrainKind::Bocage)
        && s.defenders.iter().any(Combatant::is_infantry_type)
    {
        let source = "attacking infantry in urban, mountain or bocage";
        if s.attackers.iter().any(|u| u.has_trait(UnitTrait::InfantrySupport)) {
            mods.push(
                Role::Attacker,
                source,
                Effect::Wasted("an attacker has the infantry support trait".into()),
            );
        } else {
            mods.shift(Role::Attacker, -1, source);
        }
    }
    let has_armor = |role: Role| s.units(role).iter().any(Combatant::is_armor);
    if kind == TerrainKind::Open {
        for role in [Role::Attacker, Role::Defender] {
            if !has_armor(role) && has_armor(role.other()) {
                mods.shift(role, -1, "tank shock (no armor in open terrain)");
            }
        }
    }
    for role in [Role::Attacker, Role::Defender] {
        let mut elements: Vec<&str> = s.units(role).iter().filter_map(|u| u.element.as_deref()).collect();
        elements.sort_unstable();
        elements.dedup();
        if elements.len() > 1 {
            mods.shift(role, -1, &format!("multiple elements ({})", elements.join(", ")));
        }
        for x in &s.support(role).extra {
            if let ExtraEffect::HitShift(n) = x.effect {
                mods.shift(role, n, &x.source);
            }
        }
    }
}

/// With armor on both sides, a tank battle: each side's leading armor unit (named, or the one
/// with the most boxes left and the best armor) and which side has the armor advantage.
fn tank_battle(s: &Situation, mods: &mut Mods) -> Result<(Option<[usize; 2]>, Option<Role>), Refusal> {
    let has_armor = |role: Role| s.units(role).iter().any(Combatant::is_armor);
    if !(has_armor(Role::Attacker) && has_armor(Role::Defender)) {
        return Ok((None, None));
    }
    let mut leads = [0; 2];
    for role in [Role::Attacker, Role::Defender] {
        leads[ix(role)] = leading_armor(s, role)?;
    }
    let value = |role: Role| s.units(role)[leads[ix(role)]].armor.map_or(0, |a| a.for_role(role));
    let (va, vd) = (value(Role::Attacker), value(Role::Defender));
    let advantage = match va.cmp(&vd) {
        std::cmp::Ordering::Greater => Some(Role::Attacker),
        std::cmp::Ordering::Less => Some(Role::Defender),
        std::cmp::Ordering::Equal => None,
    };
    if let Some(role) = advantage {
        mods.push(
            role,
            &format!("armor advantage ({va} vs {vd}) in a tank battle"),
            Effect::ResultChange("one extra hit on the enemy's leading armor if any hits are scored".into()),
        );
    }
    Ok((Some(leads), advantage))
}

/// `role`'s leading armor unit: the one named (it needs as many boxes left as any other), or the
/// one with the most boxes left and then the best armor.
fn leading_armor(s: &Situation, role: Role) -> Result<usize, Refusal> {
    let units = s.units(role);
    let most = units
        .iter()
        .filter(|u| u.is_armor())
        .map(|u| u.steps.remaining())
        .max()
        .unwrap_or(0);
    let armor = |u: &Combatant| u.armor.map_or(0, |a| a.for_role(role));
    match &s.support(role).lead {
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
            Ok(i)
        }
        None => Ok((0..units.len())
            .filter(|&i| units[i].is_armor() && units[i].steps.remaining() == most)
            .max_by_key(|&i| (armor(&units[i]), std::cmp::Reverse(i)))
            .unwrap_or(0)),
    }
}

/// Prepared positions in the defender's square (at most the rules' limit); one absorbs the first
/// hit.
fn prepared_positions(r: &Rules, s: &Situation, mods: &mut Mods) -> Result<u32, Refusal> {
    if s.defense.prepared_positions > r.raw.max_prepared_positions {
        return Err(Refusal(format!(
            "{} prepared positions in one square: the limit is {}",
            s.defense.prepared_positions, r.raw.max_prepared_positions
        )));
    }
    if s.defense.prepared_positions > 0 {
        mods.push(
            Role::Defender,
            "prepared position",
            Effect::ResultChange("absorbs the first hit".into()),
        );
    }
    Ok(s.defense.prepared_positions)
}
