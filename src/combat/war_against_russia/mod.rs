//! War Against Russia (Coatney): the 1:4..10:1 odds CRT with exchange, dispersal, terrain defense
//! bonuses, river shifts, surrounded and overrun conversions and No Retreat! orders.

use super::losses::eliminate;
use super::table::{odds_column, shifted};
use super::{
    AdvanceRight, Assessment, Choices, Chooser, City, CombatResult, Combatant, Effect, Log, ModelState, Modifier,
    Refusal, ResultCode, RetreatDemand, Role, SideResult, Situation,
    dice::{DiceSource, Die, NeedDie},
};
use crate::rules::terrain::EdgeFeature;
use crate::rules::units::{UnitSize, UnitStatus};

mod contract;
mod exchange;
mod tables;
use exchange::{exchange_losses, exchangeable};
use tables::entry_text;
pub use tables::{DefenderResult, Entry, Raw, Rules, TerrainBonus, validate};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Nation {
    German,
    AxisAlly,
    Russian,
    Other,
}

fn nation(r: &Rules, u: &Combatant) -> Nation {
    if u.is_one_of(&r.raw.germans) {
        Nation::German
    } else if u.is_one_of(&r.raw.axis_allies) {
        Nation::AxisAlly
    } else if u.is_one_of(&r.raw.russians) {
        Nation::Russian
    } else {
        Nation::Other
    }
}

/// Who may give No Retreat! orders to a defending stack (the tables' note on No Retreat!).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoRetreatScope {
    /// Nobody (Axis allies, or units of no nation the rules name).
    Never,
    /// The German player, for these units, before this attack's die.
    EachAttack,
    /// The Russian player, for all its units for the rest of the turn.
    WholeTurn,
}

/// An Axis attack led by Germans: at least one German, the rest German or Axis allies.
fn german_attack(r: &Rules, s: &Situation) -> bool {
    s.attackers.iter().any(|u| nation(r, u) == Nation::German)
        && s.attackers
            .iter()
            .all(|u| matches!(nation(r, u), Nation::German | Nation::AxisAlly))
}

impl Rules {
    /// Whether `defender` must be attacked because it is next to `attacker`, which attacked (the
    /// must-attack rule).
    pub fn must_be_attacked(&self, attacker: &Combatant, defender: &Combatant) -> bool {
        self.raw.must_attack
            && nation(self, attacker) == Nation::Russian
            && nation(self, defender) == Nation::German
            && !defender.statuses.has(UnitStatus::Dispersed)
    }

    /// Who may put these defenders under No Retreat! orders, and for how long: Germans unit by
    /// unit at any time (each attack), Russians all their units for a whole turn, Axis allies
    /// never (nor a stack that holds one).
    pub fn no_retreat_scope(&self, defenders: &[Combatant]) -> NoRetreatScope {
        let nations: Vec<Nation> = defenders.iter().map(|u| nation(self, u)).collect();
        if nations.is_empty() || nations.contains(&Nation::AxisAlly) {
            NoRetreatScope::Never
        } else if nations.iter().all(|n| *n == Nation::German) {
            NoRetreatScope::EachAttack
        } else if nations.iter().all(|n| *n == Nation::Russian) {
            NoRetreatScope::WholeTurn
        } else {
            NoRetreatScope::Never
        }
    }

    /// Whether the Germans may choose the optional exchange in this combat (attackers and weather).
    pub fn german_exchange_possible(&self, s: &Situation) -> bool {
        german_attack(self, s) && self.raw.exchange_weather.contains(&s.weather)
    }
}

/// Numbers worked out once per combat.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    column: usize,
    /// Modified defense, in half factors.
    defense_halves: u64,
    retreat_impossible: bool,
    no_retreat: bool,
    german_attack: bool,
    exchange_weather: bool,
}

fn halves_text(h: u64) -> String {
    if h.is_multiple_of(2) {
        format!("{}", h / 2)
    } else {
        format!("{}.5", h / 2)
    }
}

pub fn assess(r: &Rules, s: &Situation) -> Result<Assessment, Refusal> {
    let frozen = r.raw.frozen_in.contains(&s.weather);
    let mut mods = Vec::new();
    let modifier = |side: Role, source: &str, effect: Effect| Modifier {
        side,
        source: source.to_string(),
        effect,
    };
    // Attack factors, in halves.
    let mut attack_halves = 0u64;
    for u in &s.attackers {
        if u.statuses.has(UnitStatus::Dispersed) {
            return Err(Refusal(format!(
                "{} is dispersed: dispersed units may not attack",
                u.name
            )));
        }
        let lake = !frozen && u.crosses(EdgeFeature::Lake);
        let strait = u.crosses(EdgeFeature::Strait) && !s.conditions.black_sea_control;
        let mut halves = u64::from(u.value(Role::Attacker)) * 2;
        if lake || strait {
            if !u.is_infantry_type() {
                return Err(Refusal(format!(
                    "{} cannot attack across {}: only infantry may attack across it",
                    u.name,
                    if lake {
                        "an unfrozen lake"
                    } else {
                        "the Kerch Strait without control of the Black Sea"
                    }
                )));
            }
            halves = halves.div_ceil(2);
            mods.push(modifier(
                Role::Attacker,
                if lake {
                    "across a lake: infantry at half strength"
                } else {
                    "across the Kerch Strait"
                },
                Effect::Halved { unit: u.name.clone() },
            ));
        }
        attack_halves += halves;
    }
    // Defense factors with terrain bonuses, in halves.
    let bonuses = r.terrain.get(&s.terrain).map(Vec::as_slice).unwrap_or(&[]);
    let all_cross = |f: EdgeFeature| s.attackers.iter().all(|u| u.crosses(f));
    let fortification = s.conditions.fortifications_active && all_cross(EdgeFeature::FortificationLine);
    let city = s.conditions.city.or_else(|| r.city_terrain.get(&s.terrain).copied());
    let mut defender_factors = Vec::new();
    let mut has_advantage = false;
    for u in &s.defenders {
        let russian_inf = u.is_infantry_type() && nation(r, u) == Nation::Russian;
        let mut plus = 0;
        let mut add = |amount: u32, source: &str, mods: &mut Vec<Modifier>| {
            plus += amount;
            mods.push(modifier(
                Role::Defender,
                source,
                Effect::DefensePlus {
                    unit: u.name.clone(),
                    amount,
                },
            ));
        };
        for b in bonuses {
            match *b {
                TerrainBonus::InfantryPlus(n) if u.is_infantry_type() => add(n, "terrain", &mut mods),
                TerrainBonus::RussianInfantryPlus(n) if russian_inf => add(n, "terrain (Russian infantry)", &mut mods),
                TerrainBonus::UnfrozenRussianInfantryPlus(n) if russian_inf && !frozen => {
                    add(n, "unfrozen swamp (Russian infantry)", &mut mods)
                }
                _ => {}
            }
        }
        if fortification && russian_inf {
            add(1, "fortification line, not flanked", &mut mods);
        }
        match city {
            Some(City::MajorCity | City::VictoryCity(_)) if u.is_infantry_type() => add(1, "major city", &mut mods),
            Some(City::City) if u.is_infantry_type() && u.size >= UnitSize::Corps => {
                add(1, "city (infantry army or corps)", &mut mods)
            }
            _ => {}
        }
        has_advantage |= plus > 0;
        defender_factors.push(u64::from(u.value(Role::Defender) + plus) * 2);
    }
    let mut defense_halves: u64 = defender_factors.iter().sum();
    if let Some(City::VictoryCity(intrinsic)) = city {
        has_advantage = true;
        defense_halves = defense_halves * 2 + u64::from(intrinsic) * 2;
        for f in &mut defender_factors {
            *f *= 2;
        }
        mods.push(modifier(Role::Defender, "victory city", Effect::DefenseTimes(2)));
        if intrinsic > 0 {
            mods.push(modifier(
                Role::Defender,
                "victory city's intrinsic defense",
                Effect::DefensePlus {
                    unit: String::new(),
                    amount: intrinsic,
                },
            ));
        }
    }
    // Column shifts.
    let mut shift = 0;
    let river = !frozen && (all_cross(EdgeFeature::River) || all_cross(EdgeFeature::MajorRiver));
    if river {
        has_advantage = true;
        let germans = s.defenders.iter().any(|u| nation(r, u) == Nation::German);
        let n = if germans { -2 } else { -1 };
        shift += n;
        mods.push(modifier(
            Role::Defender,
            if germans {
                "across a river (stack with Germans)"
            } else {
                "across a river"
            },
            Effect::ColumnShift(n),
        ));
    }
    if s.attackers.iter().all(|u| u.crosses(EdgeFeature::Strait)) && s.conditions.black_sea_control {
        shift -= 1;
        mods.push(modifier(
            Role::Defender,
            "across the Kerch Strait with control of the Black Sea",
            Effect::ColumnShift(-1),
        ));
    }
    if s.defenders.iter().any(|u| u.statuses.has(UnitStatus::Dispersed)) {
        shift += 1;
        mods.push(modifier(Role::Attacker, "dispersed defenders", Effect::ColumnShift(1)));
    }
    shift += super::extra_column_shifts(s, &mut mods);
    let base = odds_column(&r.crt.odds, attack_halves, defense_halves);
    let ratio = format!("{} : {}", halves_text(attack_halves), halves_text(defense_halves));
    let lowest = &r.crt.labels[0];
    let Some(base) = base else {
        return Err(Refusal(format!(
            "{ratio} is below {lowest}: attacks below {lowest} are not allowed"
        )));
    };
    let unclamped = base as i64 + i64::from(shift);
    if unclamped < 0 {
        return Err(Refusal(format!(
            "{ratio} is {} shifted {shift} {}, below {lowest}: attacks below {lowest} are not allowed",
            r.crt.labels[base],
            if shift.abs() == 1 { "column" } else { "columns" }
        )));
    }
    let column = shifted(base, shift, r.crt.labels.len());
    // Overrun: armor more than twice the unsupported defending infantry, no defensive advantage.
    let armor: u64 = s
        .attackers
        .iter()
        .filter(|u| u.is_armor())
        .map(|u| u64::from(u.value(Role::Attacker)))
        .sum();
    let infantry_only = s.defenders.iter().all(|u| !u.is_armor());
    let defending_infantry: u64 = s
        .defenders
        .iter()
        .filter(|u| u.is_infantry_type())
        .map(|u| u64::from(u.value(Role::Defender)))
        .sum();
    let soviet_attack = s.attackers.iter().all(|u| nation(r, u) == Nation::Russian);
    let overrun_weather = r.raw.overrun_weather.contains(&s.weather)
        || (soviet_attack && r.raw.soviet_overrun_weather.contains(&s.weather));
    let overrun = armor > 0 && infantry_only && !has_advantage && overrun_weather && armor > 2 * defending_infantry;
    if overrun {
        mods.push(modifier(
            Role::Attacker,
            "armor overrun: retreat impossible",
            Effect::ResultChange("DR becomes DE, DE becomes BR".into()),
        ));
    }
    if s.conditions.surrounded {
        mods.push(modifier(
            Role::Attacker,
            "defenders surrounded: retreat impossible",
            Effect::ResultChange("DR becomes DE, DE becomes BR".into()),
        ));
    }
    let no_retreat = s.defense.no_retreat;
    if s.defense.no_retreat {
        if s.defenders.iter().any(|u| nation(r, u) == Nation::AxisAlly) {
            return Err(Refusal(
                "No Retreat! orders may not be given to Hungarian, Italian or Romanian units".into(),
            ));
        }
        mods.push(modifier(
            Role::Defender,
            "No Retreat! orders",
            Effect::ResultChange("DE becomes BR, DR becomes DE, DW becomes D, dw becomes -".into()),
        ));
    }
    let german_attack = german_attack(r, s);
    Ok(Assessment {
        attack_total: attack_halves as f64 / 2.0,
        defense_total: defense_halves as f64 / 2.0,
        ratio,
        cell: Some(r.crt.cell(base, column, 0)),
        modifiers: mods,
        state: ModelState::WarAgainstRussia(Prepared {
            column,
            defense_halves,
            retreat_impossible: overrun || s.conditions.surrounded,
            no_retreat,
            german_attack,
            exchange_weather: r.raw.exchange_weather.contains(&s.weather),
        }),
    })
}

pub(crate) fn resolve(
    r: &Rules,
    s: &Situation,
    p: &Prepared,
    choices: &Choices,
    dice: &mut impl DiceSource,
    log: &mut Log,
) -> Result<CombatResult, NeedDie> {
    let face = dice.roll(Die::D6, "combat")?;
    let (entry, text) = r.crt.get(face, p.column);
    let mut code = text.clone();
    let mut entry = *entry;
    log.say(|| format!("rolled {face} on the {} column: {text}", r.crt.labels[p.column]));
    use DefenderResult as D;
    // Both tables' conversions read the printed result once: surrounded or overrun, DR and DE;
    // under No Retreat! orders DW and dw as well (an overrun stack under orders still stands).
    if p.retreat_impossible || p.no_retreat {
        entry.defender = match entry.defender {
            D::Retreat => D::Eliminated,
            D::Eliminated => D::Breakthrough,
            D::Withdraw if p.no_retreat => D::Dispersed,
            D::SmallWithdraw if p.no_retreat => D::NoEffect,
            d => d,
        };
    }
    // German optional exchange.
    let mut exchange_need = p.defense_halves;
    if choices.german_exchange && p.german_attack && p.exchange_weather && !entry.attacker_eliminated {
        let key = match entry.defender {
            D::Retreat => Some("DR"),
            D::Withdraw => Some("DW"),
            D::SmallWithdraw => Some("dw"),
            D::NoEffect => Some("-"),
            _ => None,
        };
        if let Some(rate) = key.and_then(|k| r.raw.exchange_rates.get(k)) {
            let need = (p.defense_halves as f64 * rate).ceil() as u64;
            // Chosen after the roll, so only when the Germans can pay it.
            if exchange_losses(&s.attackers, &exchangeable(r, s, p), need).is_some() {
                exchange_need = need;
                entry.defender = D::Exchange;
                log.say(|| format!("the Germans choose to exchange at {rate}x the defense"));
            }
        }
    }
    if entry != *r.crt.get(face, p.column).0 {
        code = std::sync::Arc::from(format!("{text} -> {}", entry_text(entry)));
    }
    let mut attacker = SideResult::new(s.attackers.len());
    let mut defender = SideResult::new(s.defenders.len());
    let everyone = vec![true; s.attackers.len()];
    let mut attacker_elim = entry.attacker_eliminated;
    if entry.defender == D::Exchange {
        match exchange_losses(&s.attackers, &exchangeable(r, s, p), exchange_need) {
            Some(lost) => {
                for i in lost {
                    attacker.steps_lost += eliminate(&s.attackers, &mut attacker.units, i);
                }
                for i in 0..s.defenders.len() {
                    defender.steps_lost += eliminate(&s.defenders, &mut defender.units, i);
                }
                attacker.advance = Some(AdvanceRight {
                    cells: 1,
                    mandatory: false,
                    attack_again: false,
                });
                log.say(|| {
                    "exchange (X): all the defending units are eliminated and the attackers lose factors equal to their modified defense (the text's 'some or all': all, as the ruleset notes say)".into()
                });
            }
            None => {
                attacker_elim = true;
                entry.defender = D::NoEffect;
                code = std::sync::Arc::from(format!("{text} -> AE (the attackers cannot pay the exchange)"));
            }
        }
    }
    if attacker_elim {
        let need = p.defense_halves;
        let lost = exchange_losses(&s.attackers, &everyone, need).unwrap_or_else(|| (0..s.attackers.len()).collect());
        for i in lost {
            attacker.steps_lost += eliminate(&s.attackers, &mut attacker.units, i);
        }
    }
    let retreat = |cells: u32| RetreatDemand {
        cells,
        chooser: Chooser::Opponent,
        optional: false,
        er_check_in_ezoc: false,
    };
    let advance = |attack_again: bool| AdvanceRight {
        cells: 1,
        mandatory: false,
        attack_again,
    };
    match entry.defender {
        D::NoEffect | D::Exchange => {}
        D::Dispersed => {
            // "D: all defending units dispersed (may be voluntarily retreated)": the defender's
            // call, made with the attack (`Choices::defender_withdraws`).
            for u in &mut defender.units {
                u.gained.insert(UnitStatus::Dispersed);
                u.retreats = choices.defender_withdraws;
            }
            // Only a retreat the defender chose is one (else they stay, dispersed).
            defender.retreat = choices.defender_withdraws.then(|| RetreatDemand {
                optional: true,
                chooser: Chooser::Owner,
                ..retreat(1)
            });
        }
        D::SmallWithdraw | D::Withdraw | D::Retreat => {
            let cells = match entry.defender {
                D::SmallWithdraw => r.raw.retreat_small_dw,
                D::Withdraw => r.raw.retreat_dw,
                _ => r.raw.retreat_dr,
            };
            for u in &mut defender.units {
                u.retreats = true;
                if entry.defender == D::Retreat {
                    u.gained.insert(UnitStatus::Dispersed);
                }
            }
            defender.retreat = Some(retreat(cells));
            attacker.advance = Some(advance(false));
        }
        D::Eliminated | D::Breakthrough => {
            for i in 0..s.defenders.len() {
                defender.steps_lost += eliminate(&s.defenders, &mut defender.units, i);
            }
            attacker.advance = Some(advance(entry.defender == D::Breakthrough));
        }
    }
    if attacker.units.iter().all(|u| u.eliminated) {
        attacker.advance = None;
    }
    let cell_taken = !defender.holds();
    Ok(CombatResult {
        code: ResultCode::Table(code),
        attacker,
        defender,
        cell_taken,
    })
}
