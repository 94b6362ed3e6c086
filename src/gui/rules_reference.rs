//! The rules reference for the ruleset in play (F3, or the Rules buttons where an option
//! appears): the combat table, the terrain effects chart (movement costs by mobility and each
//! terrain's combat effect as the rules assess it) and what every option does and who decides it
//! (`combat::reference`).

use crate::combat::reference::{options, terrain_effects};
use crate::game::components::GameMap;
use crate::rules::units::{StepTrack, StepValues, UnitClass};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Whether the reference is open, and at which page.
#[derive(Resource, Default)]
pub struct RulesReference {
    pub open: bool,
    pub page: Page,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Page {
    #[default]
    Options,
    Table,
    Terrain,
    Notes,
}

impl RulesReference {
    /// Opens it at `page`.
    pub fn show(&mut self, page: Page) {
        self.open = true;
        self.page = page;
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RulesReference>()
        .add_systems(
            Update,
            toggle_key
                .before(super::state::HudSystems)
                .run_if(resource_exists::<GameMap>),
        )
        .add_systems(
            EguiPrimaryContextPass,
            reference_window.run_if(resource_exists::<GameMap>),
        );
}

fn toggle_key(mut keys: ResMut<super::keymap::Keys>, mut reference: ResMut<RulesReference>) {
    if let Some(open) = keys.toggled(reference.open, super::keymap::Action::RulesReference) {
        reference.open = open;
    }
}

/// A plain one-step infantry unit of 4-4, for the terrain chart's example attack.
fn plain_unit(id: &str) -> crate::combat::Combatant {
    crate::combat::Combatant {
        id: id.into(),
        name: id.into(),
        class: UnitClass::Infantry,
        size: crate::rules::units::UnitSize::Division,
        mobility: UnitClass::Infantry.default_mobility(),
        traits: Vec::new(),
        steps: StepTrack::single(StepValues { attack: 4, defense: 4 }),
        armor: None,
        er: Some(5),
        element: None,
        parent: None,
        statuses: Default::default(),
        experience: 0,
        nation: String::new(),
        crossing: Default::default(),
        participating: true,
        loss_rank: 0,
    }
}

fn reference_window(mut contexts: EguiContexts, mut reference: ResMut<RulesReference>, map: Res<GameMap>) -> Result {
    if !reference.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let title = format!("Rules: {} (F3)", map.ruleset.raw.name);
    egui::Window::new(title)
        .id(egui::Id::new("rules-reference"))
        .open(&mut open)
        .default_width(620.0)
        .default_height(480.0)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut reference.page, Page::Options, "Options and who decides");
                ui.selectable_value(&mut reference.page, Page::Table, "Combat table");
                ui.selectable_value(&mut reference.page, Page::Terrain, "Terrain effects");
                ui.selectable_value(&mut reference.page, Page::Notes, "Source and notes");
            });
            ui.separator();
            egui::ScrollArea::vertical().show(ui, |ui| match reference.page {
                Page::Options => options_page(ui, &map),
                Page::Table => table_page(ui, &map),
                Page::Terrain => terrain_page(ui, &map),
                Page::Notes => notes_page(ui, &map),
            });
        });
    if !open {
        reference.open = false;
    }
    Ok(())
}

/// Where the ruleset's numbers come from, and its notes: the choices made where the rule texts are
/// silent and the numbers authored for Hexfront.
fn notes_page(ui: &mut egui::Ui, map: &GameMap) {
    let raw = &map.ruleset.raw;
    ui.label(egui::RichText::new(&raw.name).strong());
    ui.add(egui::Label::new(format!("Source: {}", raw.source)).wrap());
    ui.add_space(6.0);
    if raw.notes.is_empty() {
        ui.label(egui::RichText::new("This ruleset has no notes.").weak());
    }
    for note in &raw.notes {
        ui.add(egui::Label::new(format!("• {note}")).wrap());
        ui.add_space(3.0);
    }
}

fn options_page(ui: &mut egui::Ui, map: &GameMap) {
    for o in options(&map.ruleset.combat) {
        ui.label(egui::RichText::new(o.name.as_ref()).strong());
        ui.label(egui::RichText::new(format!("Decided by: {}", o.who)).small().italics());
        ui.add(egui::Label::new(o.text.as_ref()).wrap());
        ui.add_space(6.0);
    }
}

fn table_page(ui: &mut egui::Ui, map: &GameMap) {
    let view = map.ruleset.combat.table_view();
    ui.label(egui::RichText::new(&view.title).strong());
    egui::Grid::new("reference-crt")
        .striped(true)
        .spacing([6.0, 2.0])
        .show(ui, |ui| {
            ui.label(egui::RichText::new(&view.row_header).weak());
            for c in &view.columns {
                ui.label(egui::RichText::new(c).strong().monospace());
            }
            ui.end_row();
            for (label, cells) in &view.rows {
                ui.label(egui::RichText::new(label).monospace());
                for text in cells {
                    ui.label(egui::RichText::new(text).monospace().small());
                }
                ui.end_row();
            }
        });
    ui.add(egui::Label::new(egui::RichText::new(&view.note).small().weak()).wrap());
}

fn terrain_page(ui: &mut egui::Ui, map: &GameMap) {
    let rules = &map.ruleset;
    ui.label(egui::RichText::new("Movement points to enter (— prohibited)").strong());
    egui::Grid::new("reference-movement").striped(true).show(ui, |ui| {
        for h in ["terrain", "foot", "motorized", "mechanized"] {
            ui.label(egui::RichText::new(h).weak());
        }
        ui.end_row();
        for (name, costs) in &rules.movement.terrain {
            ui.label(name);
            for c in costs {
                ui.label(c.map_or("—".to_string(), |mp| mp.to_string()));
            }
            ui.end_row();
        }
    });
    ui.add_space(8.0);
    ui.label(egui::RichText::new("In combat: a 4-4 infantry unit attacking one defending there").strong());
    // By the names the movement chart shows, in its order.
    let mut terrains: Vec<(String, crate::rules::terrain::TerrainId)> = rules
        .terrain_ids
        .values()
        .map(|id| {
            let name = rules
                .movement
                .terrain
                .get(usize::from(id.0))
                .map_or("?", |(n, _)| n.as_str());
            (name.to_string(), *id)
        })
        .collect();
    terrains.sort_by_key(|(_, id)| id.0);
    for (name, words) in terrain_effects(&rules.combat, &terrains, plain_unit("attacker"), plain_unit("defender")) {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(format!("{name}:")).strong());
            ui.label(egui::RichText::new(words).small());
        });
    }
}
