//! The map part of a scenario checked: its grid against the ruleset's, the rows of terrain, edge
//! features, roads and cell features, each error located at its field.

use super::file::RawScenario;
use super::ruleset::{GridFamily, Ruleset, list};
use crate::rules::grid::{Cell, Grid, GridKind, parse_label};
use crate::rules::terrain::{Board, EdgeFeature};
use crate::source::{LoadError, Source};
use std::collections::HashMap;

/// Parses a cell label found at `field` and checks it is on the map.
pub(super) fn cell_on_map(src: &Source, grid: &Grid, field: String, label: &str) -> Result<Cell, LoadError> {
    let cell = parse_label(label).map_err(|m| src.error(field.clone(), m))?;
    if !grid.contains(cell) {
        return Err(src.error(
            field,
            format!("cell {label} is off the {}×{} map", grid.width, grid.height),
        ));
    }
    Ok(cell)
}

/// The board a scenario's map describes, or the first thing wrong with it.
pub(super) fn validate_map(src: &Source, raw: &RawScenario, ruleset: &Ruleset) -> Result<Board, LoadError> {
    let m = &raw.map;
    let family = match m.grid {
        GridKind::Hex { .. } => GridFamily::Hex,
        GridKind::Square { .. } => GridFamily::Square,
    };
    if family != ruleset.raw.grid {
        return Err(src.error(
            "map.grid",
            format!(
                "ruleset `{}` is played on a {:?} grid, not {:?}",
                ruleset.raw.id, ruleset.raw.grid, family
            ),
        ));
    }
    let side = crate::source::limits::MAX_MAP_SIDE;
    if m.width == 0 || m.height == 0 || m.width > side || m.height > side {
        return Err(src.error(
            "map.width",
            format!("a map must be 1 to {side} cells each way, not {}×{}", m.width, m.height),
        ));
    }
    let mut legend = HashMap::new();
    for (ch, id) in &m.legend {
        let t = ruleset.terrain_ids.get(id).ok_or_else(|| {
            src.error(
                format!("map.legend.{ch}"),
                format!(
                    "unknown terrain `{id}`: ruleset `{}` defines {}",
                    ruleset.raw.id,
                    list(ruleset.terrain_ids.keys())
                ),
            )
        })?;
        legend.insert(*ch, *t);
    }
    let grid = Grid::new(m.grid, m.width, m.height);
    let fill = *legend
        .values()
        .next()
        .ok_or_else(|| src.error("map.legend", "the legend is empty"))?;
    let mut board = Board::new(grid, fill);
    if m.rows.len() != m.height as usize {
        return Err(src.error(
            "map.rows",
            format!("the map is {} rows high but `rows` has {}", m.height, m.rows.len()),
        ));
    }
    for (r, row) in m.rows.iter().enumerate() {
        let chars: Vec<char> = row.chars().collect();
        if chars.len() != m.width as usize {
            return Err(src.error(
                format!("map.rows[{r}]"),
                format!(
                    "row {} has {} cells but the map is {} wide",
                    r + 1,
                    chars.len(),
                    m.width
                ),
            ));
        }
        for (c, ch) in chars.iter().enumerate() {
            let t = legend.get(ch).ok_or_else(|| {
                src.error(
                    format!("map.rows[{r}]"),
                    format!("row {}, column {}: `{ch}` is not in the legend", r + 1, c + 1),
                )
            })?;
            board.set_terrain(Cell::new(c as i32, r as i32), *t);
        }
    }
    let cell = |field: String, label: &str| cell_on_map(src, &grid, field, label);
    for (e, edges) in m.edges.iter().enumerate() {
        for (k, (a, b)) in edges.between.iter().enumerate() {
            let field = format!("map.edges[{e}].between[{k}]");
            let (ca, cb) = (cell(format!("{field}[0]"), a)?, cell(format!("{field}[1]"), b)?);
            board
                .add_edge_feature(ca, cb, edges.feature)
                .map_err(|msg| src.error(field, msg))?;
        }
    }
    for (r, road) in m.roads.iter().enumerate() {
        let mut prev: Option<Cell> = None;
        for (k, label) in road.iter().enumerate() {
            let c = cell(format!("map.roads[{r}][{k}]"), label)?;
            if let Some(p) = prev {
                board
                    .add_edge_feature(p, c, EdgeFeature::Road)
                    .map_err(|msg| src.error(format!("map.roads[{r}][{k}]"), format!("road {}: {msg}", r + 1)))?;
            }
            prev = Some(c);
        }
    }
    for (label, features) in &m.features {
        let field = format!("map.features.{label}");
        let c = cell(field.clone(), label)?;
        for f in features {
            board.add_feature(c, *f).map_err(|msg| src.error(field.clone(), msg))?;
        }
    }
    Ok(board)
}
