//! What a ruleset's combat section (and its stacking, zones of control and advance) reads while it
//! is validated: the source for located errors and the terrain ids by name.

use crate::rules::terrain::TerrainId;
use crate::source::{LoadError, Source};
use std::collections::{BTreeMap, HashMap};

/// What a ruleset's sections (combat, stacking, zones of control, advance) need from its terrain
/// list while they are validated.
pub struct Context<'a> {
    pub src: &'a Source<'a>,
    pub terrain_ids: &'a HashMap<String, TerrainId>,
}

impl Context<'_> {
    /// A terrain id named in the combat section.
    pub fn terrain(&self, field: &str, id: &str) -> Result<TerrainId, LoadError> {
        self.terrain_ids.get(id).copied().ok_or_else(|| {
            self.src.error(
                field.to_string(),
                format!(
                    "unknown terrain `{id}`: this ruleset defines {}",
                    crate::source::list(self.terrain_ids.keys())
                ),
            )
        })
    }

    /// A map from terrain id to `T`, keyed by `TerrainId`.
    pub fn terrain_map<T: Clone>(
        &self,
        field: &str,
        raw: &BTreeMap<String, T>,
    ) -> Result<HashMap<TerrainId, T>, LoadError> {
        raw.iter()
            .map(|(id, v)| Ok((self.terrain(&format!("{field}.{id}"), id)?, v.clone())))
            .collect()
    }

    pub fn terrain_list(&self, field: &str, raw: &[String]) -> Result<Vec<TerrainId>, LoadError> {
        raw.iter()
            .enumerate()
            .map(|(i, id)| self.terrain(&format!("{field}[{i}]"), id))
            .collect()
    }

    /// One flag per terrain (by `TerrainId`), set for the terrain ids listed.
    pub fn terrain_flags(&self, field: &str, raw: &[String]) -> Result<Vec<bool>, LoadError> {
        let mut flags = vec![false; self.terrain_ids.len()];
        for t in self.terrain_list(field, raw)? {
            flags[t.0 as usize] = true;
        }
        Ok(flags)
    }
}
