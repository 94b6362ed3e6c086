//! The stack panel: with a stack selected, every unit in its cell is listed — the side's own with a
//! tick to take it along or leave it behind (a move takes only the ticked units: split a stack by
//! moving part of it, merge by Shift+clicking a friendly stack), and, where a cell is shared by both
//! sides (Rommel's contested squares), the enemy's too.

use super::counters::values_text;
use super::state::Selection;
use crate::game::components::*;
use crate::game::phase::TurnState;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        stack_panel.run_if(
            resource_exists::<TurnState>
                .and_then(resource_exists::<MapIndex>)
                .and_then(super::state::off),
        ),
    );
}

type UnitRow<'a> = (&'a Unit, &'a Side, &'a Steps, &'a MovePoints, &'a Statuses);

fn stack_panel(
    mut contexts: EguiContexts,
    mut selection: ResMut<Selection>,
    index: Res<MapIndex>,
    turn: Res<TurnState>,
    (sides, map): (Res<Sides>, Res<crate::game::components::GameMap>),
    (positions, ids): (Query<&Position>, Res<crate::game::components::UnitIds>),
    units: Query<UnitRow>,
) -> Result {
    let full = map.ruleset.combat.counter_prints_defense();
    let selected = selection.entities(&ids);
    let Some(cell) = selected.first().and_then(|e| positions.get(*e).ok()).map(|p| p.0) else {
        return Ok(());
    };
    let stack: Vec<Entity> = index.stack(cell).iter().rev().copied().collect();
    if stack.len() < 2 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut chosen: Vec<Entity> = selected.clone();
    egui::Window::new(format!("Stack at {cell}"))
        .id(egui::Id::new("stack-panel"))
        .resizable(false)
        .collapsible(true)
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -40.0])
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new("Ticked units move together; untick some to leave them here.")
                    .small()
                    .weak(),
            );
            for e in &stack {
                let Ok((unit, side, steps, mp, statuses)) = units.get(*e) else {
                    continue;
                };
                let [r, g, b] = sides.0[side.0].color;
                ui.horizontal(|ui| {
                    let own = *side == turn.active;
                    if own {
                        let mut ticked = chosen.contains(e);
                        if ui
                            .checkbox(&mut ticked, "")
                            .on_hover_text("Take this unit along on the next move")
                            .changed()
                        {
                            if ticked {
                                chosen.push(*e);
                            } else {
                                chosen.retain(|x| x != e);
                            }
                        }
                    } else {
                        ui.add_space(24.0);
                    }
                    ui.colored_label(egui::Color32::from_rgb(r, g, b), "■");
                    ui.label(egui::RichText::new(values_text(steps, mp, full)).monospace().strong());
                    ui.label(&unit.name);
                    let mut notes = vec![format!("MP {}/{}", mp.left(), mp.allowance)];
                    notes.extend(statuses.0.iter().map(|s| s.word().to_string()));
                    ui.label(egui::RichText::new(notes.join(", ")).small().weak());
                });
            }
            ui.horizontal(|ui| {
                let own: Vec<Entity> = stack
                    .iter()
                    .copied()
                    .filter(|e| units.get(*e).is_ok_and(|u| *u.1 == turn.active))
                    .collect();
                if ui
                    .small_button("All")
                    .on_hover_text("Tick every unit of yours here")
                    .clicked()
                {
                    chosen = own;
                }
            });
        });
    // Kept in stack order (bottom first, as a click selects), so an unchanged choice is equal; an
    // empty choice is ignored so the selection stays on this cell.
    let bottom_first = index.stack(cell);
    chosen.sort_by_key(|e| bottom_first.iter().position(|s| s == e));
    if !chosen.is_empty() && chosen != selected {
        selection.units = chosen
            .iter()
            .filter_map(|e| units.get(*e).ok().map(|u| u.0.id.clone()))
            .collect();
    }
    Ok(())
}
