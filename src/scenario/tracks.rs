//! A unit's step track from its scenario or case fields (one of `strength`, `attack`+`defense`,
//! `steps` or `chit`), with the steps it starts without.

use super::file::{RawUnit, UnitValues};
use crate::rules::units::{StepTrack, StepValues};
use crate::source::{LoadError, Source};
use std::path::Path;

pub(super) fn step_track(src: &Source, i: usize, u: &RawUnit) -> Result<StepTrack, LoadError> {
    build_track(
        src,
        &format!("units[{i}]"),
        &UnitValues {
            id: &u.id,
            strength: u.strength,
            attack: u.attack,
            defense: u.defense,
            steps: &u.steps,
            chit: u.chit,
            lost: u.lost,
        },
    )
}

/// The step track a scenario unit starts with (before its `lost` steps), for summaries of units
/// no longer on the map; `None` if its values do not make a track (a file that failed
/// validation).
pub fn starting_track(u: &RawUnit) -> Option<StepTrack> {
    let src = Source::new(Path::new("<scenario>"), "");
    step_track(&src, 0, &RawUnit { lost: 0, ..u.clone() }).ok()
}

/// A step track from exactly one of `strength`, `attack`+`defense`, `steps` or `chit`, with
/// `lost` steps gone; errors name `prefix.field`.
pub(crate) fn build_track(src: &Source, prefix: &str, u: &UnitValues) -> Result<StepTrack, LoadError> {
    super::limits::unit_values(src, prefix, u)?;
    let f = |name: &str| format!("{prefix}.{name}");
    let given = [
        u.strength.is_some(),
        u.attack.is_some() || u.defense.is_some(),
        !u.steps.is_empty(),
        u.chit.is_some(),
    ];
    let count = given.iter().filter(|g| **g).count();
    if count != 1 {
        return Err(src.error(
            f("id"),
            format!(
                "unit `{}` needs its combat values from exactly one of `strength`, `attack`+`defense`, `steps` or `chit` ({count} given)",
                u.id
            ),
        ));
    }
    let mut track = if let Some(s) = u.strength {
        StepTrack::single(StepValues { attack: s, defense: s })
    } else if let Some(c) = u.chit {
        StepTrack::strength_chit(c.full, c.reduced, c.cadre)
    } else if !u.steps.is_empty() {
        StepTrack {
            values: u.steps.to_vec(),
            lost: 0,
            kind: crate::rules::units::StepKind::Printed,
        }
    } else {
        match (u.attack, u.defense) {
            (Some(attack), Some(defense)) => StepTrack::single(StepValues { attack, defense }),
            (None, _) => {
                return Err(src.error(
                    f("defense"),
                    format!("unit `{}` gives `defense` without `attack`", u.id),
                ));
            }
            (_, None) => {
                return Err(src.error(f("attack"), format!("unit `{}` gives `attack` without `defense`", u.id)));
            }
        }
    };
    if u.lost >= track.total() {
        return Err(src.error(
            f("lost"),
            format!(
                "unit `{}` has {} steps, so it cannot start with {} lost (remove eliminated units instead)",
                u.id,
                track.total(),
                u.lost
            ),
        ));
    }
    track.lost = u.lost;
    Ok(track)
}
