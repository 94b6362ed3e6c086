//! War Against Russia's tables as a ruleset states them: the CRT's results, the terrain bonuses,
//! retreat lengths, exchange rates and weather lists, checked into `Rules`.

use super::super::context::Context;
use super::super::table::{RawTable, Table};
use super::super::{City, Weather};
use crate::rules::terrain::TerrainId;
use crate::source::LoadError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// A terrain's defensive effect (cumulative).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TerrainBonus {
    /// Defense factors added to each infantry-type unit.
    InfantryPlus(u32),
    /// Added to each Russian infantry-type unit.
    RussianInfantryPlus(u32),
    /// Added to each Russian infantry-type unit while the ground is not frozen (swamp).
    UnfrozenRussianInfantryPlus(u32),
}

/// The `WarAgainstRussia(...)` section of a ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raw {
    pub crt: RawTable,
    /// Side or nation ids counted as German, as Axis allies and as Russian.
    pub germans: Vec<String>,
    pub axis_allies: Vec<String>,
    pub russians: Vec<String>,
    #[serde(default)]
    pub terrain: BTreeMap<String, Vec<TerrainBonus>>,
    /// Terrain that is a city of some kind (a case or scenario may also name the city itself).
    #[serde(default)]
    pub city_terrain: BTreeMap<String, City>,
    /// Hexes retreated on `DR`, `DW` and `dw`.
    pub retreat_dr: u32,
    pub retreat_dw: u32,
    pub retreat_small_dw: u32,
    /// German optional exchange rates, by result (`DR`, `DW`, `dw`, `-`).
    pub exchange_rates: BTreeMap<String, f64>,
    /// Weather in which Germans may choose to exchange.
    pub exchange_weather: Vec<Weather>,
    /// Weather in which armor may overrun, and the extra weather for Soviet attackers.
    pub overrun_weather: Vec<Weather>,
    pub soviet_overrun_weather: Vec<Weather>,
    /// Weather in which rivers, lakes and swamps are frozen.
    pub frozen_in: Vec<Weather>,
    /// Every undispersed German unit (and the units stacked with it) next to a Russian unit that
    /// attacked must be attacked in the same combat phase (not Axis allies, not Russians).
    #[serde(default)]
    pub must_attack: bool,
}

/// A defender result before conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefenderResult {
    NoEffect,
    Dispersed,
    SmallWithdraw,
    Withdraw,
    Retreat,
    Eliminated,
    Breakthrough,
    Exchange,
}

/// One CRT entry: a defender result and whether the attackers are eliminated too (`AE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    pub defender: DefenderResult,
    pub attacker_eliminated: bool,
}

fn parse_entry(text: &str) -> Result<Entry, String> {
    let mut e = Entry {
        defender: DefenderResult::NoEffect,
        attacker_eliminated: false,
    };
    for part in text.split('/') {
        match part.trim() {
            "AE" => e.attacker_eliminated = true,
            "-" => e.defender = DefenderResult::NoEffect,
            "D" => e.defender = DefenderResult::Dispersed,
            "dw" => e.defender = DefenderResult::SmallWithdraw,
            "DW" => e.defender = DefenderResult::Withdraw,
            "DR" => e.defender = DefenderResult::Retreat,
            "DE" => e.defender = DefenderResult::Eliminated,
            "BR" => e.defender = DefenderResult::Breakthrough,
            "X" => e.defender = DefenderResult::Exchange,
            other => {
                return Err(format!(
                    "`{other}` is not a War Against Russia result: use AE, D, dw, DW, DR, DE, BR, X, - or two joined by `/`"
                ));
            }
        }
    }
    Ok(e)
}

/// Validated War Against Russia combat rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub raw: Raw,
    pub crt: Table<Entry>,
    pub terrain: HashMap<TerrainId, Vec<TerrainBonus>>,
    pub city_terrain: HashMap<TerrainId, City>,
}

pub fn validate(cx: &Context, raw: &Raw) -> Result<Rules, LoadError> {
    let crt = Table::from_raw(cx.src, "combat.crt", &raw.crt, parse_entry)?;
    for key in raw.exchange_rates.keys() {
        if !["DR", "DW", "dw", "-"].contains(&key.as_str()) {
            return Err(cx.src.error(
                format!("combat.exchange_rates.{key}"),
                "exchange rates are given for DR, DW, dw and - only",
            ));
        }
    }
    Ok(Rules {
        terrain: cx.terrain_map("combat.terrain", &raw.terrain)?,
        city_terrain: cx.terrain_map("combat.city_terrain", &raw.city_terrain)?,
        crt,
        raw: raw.clone(),
    })
}

pub(super) fn entry_text(e: Entry) -> &'static str {
    use DefenderResult as D;
    match (e.defender, e.attacker_eliminated) {
        (D::NoEffect, true) => "AE",
        (D::Dispersed, true) => "D/AE",
        (D::NoEffect, false) => "-",
        (D::Dispersed, false) => "D",
        (D::SmallWithdraw, _) => "dw",
        (D::Withdraw, _) => "DW",
        (D::Retreat, _) => "DR",
        (D::Eliminated, _) => "DE",
        (D::Breakthrough, _) => "BR",
        (D::Exchange, _) => "X",
    }
}
