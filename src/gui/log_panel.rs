//! The game log as a panel: a view of the order log, each order in words under turn and phase
//! headers, with what it did (moves, combats with odds, column, modifiers, dice and result,
//! retreats, advances). L shows or hides it. A secret (Rommel's attack tactics) reads as hidden
//! until the defender's answer reveals it.

use crate::game::components::{GameLog, GameMap, Sides};
use crate::game::log::OrderLog;
use crate::game::phase::TurnState;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Whether the log panel is shown, and how wide it is (windows on the right keep clear of it).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct LogPanel {
    pub open: bool,
    pub width: f32,
}

impl Default for LogPanel {
    fn default() -> Self {
        Self {
            open: true,
            width: 340.0,
        }
    }
}

impl LogPanel {
    /// How far windows anchored on the right must stay from the edge.
    pub fn right_inset(&self) -> f32 {
        if self.open { self.width + 8.0 } else { 8.0 }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LogPanel>().add_systems(Update, toggle).add_systems(
        EguiPrimaryContextPass,
        log_panel.run_if(
            resource_exists::<OrderLog>
                .and_then(resource_exists::<TurnState>)
                .and_then(super::board_shown)
                .and_then(super::state::off),
        ),
    );
}

fn toggle(keys: Res<super::keymap::Keys>, mut panel: ResMut<LogPanel>) {
    if keys.just(super::keymap::Action::GameLog) {
        panel.open = !panel.open;
    }
}

fn log_panel(
    mut contexts: EguiContexts,
    mut panel: ResMut<LogPanel>,
    log: Res<OrderLog>,
    prose: Res<GameLog>,
    map: Res<GameMap>,
    sides: Res<Sides>,
) -> Result {
    if !panel.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let top = 34.0;
    let bottom = 30.0;
    let height = (ctx.content_rect().height() - top - bottom).max(100.0);
    let response = egui::Window::new("Game log (L)")
        .id(egui::Id::new("game-log"))
        .anchor(egui::Align2::RIGHT_TOP, [-4.0, top])
        .default_width(panel.width)
        .min_height(height)
        .max_height(height)
        .resizable([true, false])
        .collapsible(false)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .stick_to_bottom(true)
                .show(ui, |ui| entries(ui, &log, &prose, &map, &sides));
        });
    if let Some(r) = response {
        panel.width = r.response.rect.width();
    }
    Ok(())
}

/// The log's entries under turn and phase headers.
fn entries(ui: &mut egui::Ui, log: &OrderLog, prose: &GameLog, map: &GameMap, sides: &Sides) {
    // What the game said before the first order (the scenario, a migrated save's old log).
    let recorded: usize = log.entries.iter().map(|e| e.lines.len()).sum();
    for line in prose.0.iter().take(prose.0.len().saturating_sub(recorded)) {
        ui.label(egui::RichText::new(line).small().weak());
    }
    let mut header = None;
    for (i, e) in log.entries.iter().enumerate() {
        let key = (e.when.turn, e.when.side, e.when.phase);
        if header != Some(key) {
            header = Some(key);
            let side = sides.0.get(e.when.side);
            let phase = map
                .ruleset
                .raw
                .player_turn
                .get(e.when.phase)
                .map_or("?".to_string(), |p| format!("{p:?}"));
            ui.add_space(6.0);
            let on = ui.visuals().panel_fill;
            let color = side.map_or(egui::Color32::GRAY, |s| super::side_text::side_text_color(s.color, on));
            ui.colored_label(
                color,
                egui::RichText::new(format!(
                    "Turn {} · {} · {phase} phase",
                    e.when.turn,
                    side.map_or("?", |s| s.name.as_str())
                ))
                .strong(),
            );
            ui.separator();
        }
        let issuer = sides
            .0
            .iter()
            .find(|s| s.id == e.side)
            .map_or(e.side.as_str(), |s| s.name.as_str());
        let revealed = log.revealed(i);
        let words = e.public_words(revealed);
        let title = ui.label(egui::RichText::new(format!("{}. {issuer}: {words}", i + 1)).strong());
        if !e.dice.is_empty() {
            title.on_hover_text(format!("Dice: {}", e.dice_words()));
        }
        for line in &e.lines {
            let hidden = !revealed && e.order.has_secret();
            if hidden && line.contains("Tactics") {
                continue;
            }
            let text = egui::RichText::new(line.trim_start());
            let text = if line.starts_with("Combat at") {
                text.color(egui::Color32::from_rgb(235, 200, 90))
            } else {
                text
            };
            ui.label(text);
        }
    }
}
