//! Holds scenarios and combat cases to `source::limits`: lengths of names and texts, counts of
//! sides, units and steps, and the size of every number that reaches the combat arithmetic, each
//! refusal located at its field and naming the limit.

use super::file::{RawScenario, RawUnit};
use crate::source::limits::*;
use crate::source::{LoadError, Source};

/// At most `max` characters in `text` (a name, an id or a description) at `field`.
pub(crate) fn chars(src: &Source, field: impl Into<String>, text: &str, max: usize) -> Result<(), LoadError> {
    // Count no further than the limit: a 10 MB string answers as fast as a short one.
    if text.chars().nth(max).is_some() {
        return Err(src.error(
            field,
            format!("is {} characters long; at most {max} are allowed", text.chars().count()),
        ));
    }
    Ok(())
}

/// A number at `field` no larger than `max`.
pub(crate) fn at_most(src: &Source, field: impl Into<String>, value: u32, max: u32) -> Result<(), LoadError> {
    if value > max {
        return Err(src.error(field, format!("{value} is too large: at most {max}")));
    }
    Ok(())
}

/// An optional number at `field` no larger than `MAX_VALUE`.
pub(crate) fn value(src: &Source, field: impl Into<String>, value: Option<u32>) -> Result<(), LoadError> {
    value.map_or(Ok(()), |v| at_most(src, field, v, MAX_VALUE))
}

/// At most `max` items in a list at `field`.
pub(crate) fn count(
    src: &Source,
    field: impl Into<String>,
    what: &str,
    len: usize,
    max: usize,
) -> Result<(), LoadError> {
    if len > max {
        return Err(src.error(field, format!("{len} {what}; at most {max} are allowed")));
    }
    Ok(())
}

/// A signed modifier at `field` within ±`max`.
pub(crate) fn modifier(src: &Source, field: impl Into<String>, value: i32, max: i32) -> Result<(), LoadError> {
    if value.unsigned_abs() > max.unsigned_abs() {
        return Err(src.error(
            field,
            format!("{value} is out of range: modifiers are -{max} to +{max}"),
        ));
    }
    Ok(())
}

/// The combat values of one unit, wherever they are given: `strength`, `attack`, `defense`,
/// `steps` (at most `MAX_STEPS`), a strength chit, and `lost`.
pub(crate) fn unit_values(src: &Source, prefix: &str, u: &super::file::UnitValues) -> Result<(), LoadError> {
    let f = |name: &str| format!("{prefix}.{name}");
    chars(src, f("id"), u.id, MAX_ID_CHARS)?;
    value(src, f("strength"), u.strength)?;
    value(src, f("attack"), u.attack)?;
    value(src, f("defense"), u.defense)?;
    count(src, f("steps"), "steps", u.steps.len(), MAX_STEPS)?;
    for (k, s) in u.steps.iter().enumerate() {
        value(src, format!("{prefix}.steps[{k}].attack"), Some(s.attack))?;
        value(src, format!("{prefix}.steps[{k}].defense"), Some(s.defense))?;
    }
    if let Some(c) = u.chit {
        value(src, f("chit.full"), Some(c.full))?;
        value(src, f("chit.reduced"), Some(c.reduced))?;
        value(src, f("chit.cadre"), Some(c.cadre))?;
    }
    if u.lost > MAX_STEPS {
        return Err(src.error(f("lost"), format!("{} is too large: at most {MAX_STEPS}", u.lost)));
    }
    Ok(())
}

/// A scenario unit's other numbers and names.
pub(crate) fn unit(src: &Source, i: usize, u: &RawUnit) -> Result<(), LoadError> {
    let f = |name: &str| format!("units[{i}].{name}");
    chars(src, f("name"), &u.name, MAX_NAME_CHARS)?;
    for (field, text) in [("element", &u.element), ("parent", &u.parent)] {
        if let Some(t) = text {
            chars(src, f(field), t, MAX_NAME_CHARS)?;
        }
    }
    value(src, f("armor"), u.armor)?;
    value(src, f("er"), u.er)?;
    value(src, f("experience"), u.experience)?;
    value(src, f("stacking_points"), u.stacking_points)?;
    if u.movement > MAX_MOVEMENT {
        return Err(src.error(
            f("movement"),
            format!("{} is too large: at most {MAX_MOVEMENT}", u.movement),
        ));
    }
    Ok(())
}

/// The scenario's own texts and counts (units are checked one by one as they are read).
pub(crate) fn scenario(src: &Source, raw: &RawScenario) -> Result<(), LoadError> {
    chars(src, "name", &raw.name, MAX_NAME_CHARS)?;
    chars(src, "setting", &raw.setting, MAX_TEXT_CHARS)?;
    chars(src, "description", &raw.description, MAX_TEXT_CHARS)?;
    chars(src, "victory", &raw.victory, MAX_TEXT_CHARS)?;
    count(src, "sides", "sides", raw.sides.len(), MAX_SIDES)?;
    for (i, s) in raw.sides.iter().enumerate() {
        chars(src, format!("sides[{i}].id"), &s.id, MAX_ID_CHARS)?;
        chars(src, format!("sides[{i}].name"), &s.name, MAX_NAME_CHARS)?;
    }
    at_most(src, "turns", raw.turns, MAX_TURNS)?;
    for (label, name) in &raw.map.places {
        chars(src, format!("map.places.{label}"), name, MAX_NAME_CHARS)?;
    }
    count(src, "objectives", "objectives", raw.objectives.len(), MAX_OBJECTIVES)?;
    count(src, "win", "win conditions", raw.win.len(), MAX_WIN_CONDITIONS)?;
    for (i, o) in raw.objectives.iter().enumerate() {
        chars(src, format!("objectives[{i}].name"), &o.name, MAX_NAME_CHARS)?;
        at_most(src, format!("objectives[{i}].points"), o.points, MAX_POINTS)?;
    }
    for (i, w) in raw.win.iter().enumerate() {
        count(src, format!("win[{i}].hold"), "cells", w.hold.len(), MAX_OBJECTIVES)?;
        if let Some(p) = w.points {
            at_most(src, format!("win[{i}].points"), p, MAX_POINTS)?;
        }
    }
    if let Some(p) = &raw.progress {
        for (i, line) in p.log.iter().enumerate() {
            chars(src, format!("progress.log[{i}]"), line, MAX_TEXT_CHARS)?;
        }
    }
    Ok(())
}
