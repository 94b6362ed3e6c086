//! After-combat choices at the client: each legal retreat path drawn on the board and labelled by
//! its priority (the suggested one first), picked by button or by clicking its end cell; advance
//! targets highlighted, with the units to send and a Stay button. The game waits for these
//! orders (`AfterCombatMode { automatic: false }`) and checks every choice itself.

use super::clear_of_counters::{boxes_at, draw_arrow};
use super::layout::Layout;
use super::state::{BoardCamera, Palette, PlayerOrder};
use crate::combat::Chooser;
use crate::game::advance::advance_options;
use crate::game::combat_phase::{PendingAdvances, PendingRetreats, UnitData};
use crate::game::components::{GameMap, MapIndex, Sides};
use crate::game::order::Order;
use crate::game::phase::{CombatStep, GameState};
use crate::game::retreat::{AfterCombatMode, retreat_chooser, retreat_options};
use crate::game::zoc::Zoc;
use crate::rules::grid::Cell;
use crate::rules::retreat::{Picker, choose_retreat};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// What the player is being asked, worked out once per pending retreat or advance.
#[derive(Resource, Default, Clone, Debug)]
pub struct Asked {
    pub retreat: Option<RetreatAsk>,
    pub advance: Option<AdvanceAsk>,
}

#[derive(Clone, Debug)]
pub struct RetreatAsk {
    /// The unit's id.
    pub unit: String,
    pub name: String,
    pub from: Cell,
    pub cells: u32,
    pub chooser: String,
    /// Legal paths, the suggested one first: cells, priority text, through an enemy ZOC.
    pub paths: Vec<(Vec<Cell>, String, bool)>,
    /// Why the first path is the suggestion.
    pub suggested_why: String,
    pub refused: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct AdvanceAsk {
    pub into: Cell,
    /// Id, name, and whether it attacked (followers only follow).
    pub units: Vec<(String, String, bool)>,
    /// Cells with whether any unit still to advance may enter and, if none, why not.
    pub targets: Vec<(Cell, Result<(), String>)>,
    /// The cells each unit (by id) may enter.
    pub may_enter: Vec<(String, Vec<Cell>)>,
    pub mandatory: bool,
    /// How many of the combat's units have advanced already.
    pub moved: usize,
}

/// The attackers the owner ticked to advance, for the advance into `into` after `moved` of its
/// units had gone: all of them when the advance is offered, none of those left behind once some
/// have advanced (the player kept them back; a second click must not send them by default).
#[derive(Resource, Default, Debug)]
pub struct AdvanceTicks {
    into: Option<Cell>,
    moved: usize,
    ids: Vec<String>,
}

impl AdvanceTicks {
    /// Who advances when a cell is picked: the ticked attackers of this advance; with no ticks
    /// for it yet, all of them before anyone has advanced and none after.
    pub fn chosen(&self, a: &AdvanceAsk) -> Vec<String> {
        let attackers = a.attackers();
        if self.fits(a) {
            attackers.into_iter().filter(|id| self.ids.contains(id)).collect()
        } else if a.moved == 0 {
            attackers
        } else {
            Vec::new()
        }
    }

    /// Whether these ticks belong to `a` (same cell, nobody advanced since, only units still to
    /// advance).
    fn fits(&self, a: &AdvanceAsk) -> bool {
        let attackers = a.attackers();
        self.into == Some(a.into) && self.moved == a.moved && self.ids.iter().all(|id| attackers.contains(id))
    }

    /// Makes the ticks `a`'s, as `chosen` reads them, when they were another's (or taken before
    /// the last units advanced).
    fn fit(&mut self, a: &AdvanceAsk) {
        if !self.fits(a) {
            *self = AdvanceTicks {
                into: Some(a.into),
                moved: a.moved,
                ids: self.chosen(a),
            };
        }
    }
}

impl AdvanceAsk {
    /// Of `chosen`, those that may enter `cell` (a second-cell advance leaves foot units behind).
    pub fn going_to(&self, chosen: Vec<String>, cell: Cell) -> Vec<String> {
        chosen
            .into_iter()
            .filter(|id| self.may_enter.iter().any(|(u, cells)| u == id && cells.contains(&cell)))
            .collect()
    }

    /// The ids of the attackers still to advance.
    pub fn attackers(&self) -> Vec<String> {
        self.units.iter().filter(|u| u.2).map(|u| u.0.clone()).collect()
    }
}

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(AfterCombatMode { automatic: false })
        .init_resource::<Asked>()
        .init_resource::<AdvanceTicks>()
        .add_systems(OnEnter(GameState::NoGame), |mut t: ResMut<AdvanceTicks>| {
            *t = AdvanceTicks::default()
        })
        .add_systems(OnEnter(GameState::NoGame), |mut t: ResMut<AdvanceTicks>| {
            *t = AdvanceTicks::default()
        })
        .add_systems(
            Update,
            (
                work_out_questions,
                click_to_choose
                    .after(super::state::ClickSystems)
                    .run_if(not(resource_exists::<super::state::Replay>))
                    .run_if(super::state::no_dialog),
                draw_choices,
            )
                .chain()
                .run_if(in_state(GameState::Playing).and_then(resource_exists::<Layout>)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            // Not in the showcase: nobody there chooses, the computers do.
            choice_panel.run_if(
                in_state(GameState::Playing)
                    .and_then(not(resource_exists::<super::state::Replay>))
                    .and_then(not(resource_exists::<super::present::showcase::Showcase>))
                    .and_then(not(super::present::overlay::roll_on_screen))
                    .and_then(not(computer_chooses_on_stage)),
            ),
        );
}

/// In presentation mode the computer's own retreats and advances are not shown as a player's
/// panel: viewers see them carried out.
fn computer_chooses_on_stage(world: &World) -> bool {
    world.resource::<super::state::Presenting>().0 && super::computer::computer_to_play(world).is_some()
}

#[allow(clippy::too_many_arguments)]
fn work_out_questions(
    retreats: Res<PendingRetreats>,
    advances: Res<PendingAdvances>,
    step: Option<Res<State<CombatStep>>>,
    map: Res<GameMap>,
    zoc: Res<Zoc>,
    sides: Res<Sides>,
    index: Res<MapIndex>,
    units: Query<UnitData>,
    mut asked: ResMut<Asked>,
) {
    let step = step.map(|s| *s.get());
    if !(retreats.is_changed() || advances.is_changed() || index.is_changed() || asked.is_added()) {
        return;
    }
    asked.retreat = None;
    asked.advance = None;
    if step == Some(CombatStep::Retreat)
        && let Some(p) = retreats.0.first()
        && let Ok((retreater, options)) = retreat_options(
            &map,
            &zoc.0,
            &sides,
            &index,
            &units,
            p.unit,
            p.from,
            p.demand.cells,
            &p.opponents,
        )
    {
        let picker = match p.demand.chooser {
            Chooser::Opponent => Picker::Opponent,
            _ => Picker::Owner,
        };
        let suggested = choose_retreat(&options.legal, &retreater, picker).cloned();
        let suggested_why = suggested
            .as_ref()
            .map_or("", |s| crate::rules::retreat::why_chosen(s, &retreater, picker))
            .to_string();
        let mut paths: Vec<(Vec<Cell>, String, bool)> = options
            .legal
            .iter()
            .map(|l| {
                let prio = l
                    .priorities
                    .iter()
                    .map(|p| format!("P{p}"))
                    .collect::<Vec<_>>()
                    .join(">");
                (l.cells.to_vec(), prio, l.through_ezoc)
            })
            .collect();
        if let Some(s) = suggested
            && let Some(i) = paths.iter().position(|(c, ..)| c.as_slice() == s.cells.as_slice())
        {
            let first = paths.remove(i);
            paths.insert(0, first);
        }
        let name = units
            .get(p.unit)
            .map_or_else(|_| "a unit".into(), |d| d.unit.name.clone());
        let id = units.get(p.unit).map_or_else(|_| String::new(), |d| d.unit.id.clone());
        let owner = units.get(p.unit).map_or(0, |d| d.side.0);
        let chooser = match retreat_chooser(p.demand.chooser, owner, sides.0.len()) {
            Some(side) => sides.0[side].name.clone(),
            None => "a die roll".into(),
        };
        asked.retreat = Some(RetreatAsk {
            unit: id,
            name,
            from: p.from,
            cells: p.demand.cells,
            chooser,
            paths,
            suggested_why,
            refused: options
                .illegal
                .iter()
                .take(6)
                .map(|x| {
                    format!(
                        "{}: {}",
                        x.cells.last().map(ToString::to_string).unwrap_or_default(),
                        x.reason
                    )
                })
                .collect(),
        });
    } else if step == Some(CombatStep::Advance)
        && let Some(p) = advances.0.first()
        && !map.ruleset.advance.automatic
    {
        asked.advance = Some(advance_question(&map, &index, &units, p));
    }
}

/// The advance the owner is asked about: the units still to advance, and each cell with whether
/// any of them may enter it (a second-cell advance is the mechanized units' even when a foot unit
/// is listed first; else the first refusal), and which cells each may enter.
fn advance_question(
    map: &GameMap,
    index: &MapIndex,
    units: &Query<UnitData>,
    p: &crate::game::combat_phase::PendingAdvance,
) -> AdvanceAsk {
    let mut list = Vec::new();
    let mut targets: Vec<(Cell, Result<(), String>)> = Vec::new();
    let mut may_enter = Vec::new();
    for e in p.attackers.iter().chain(&p.followers) {
        if let Ok(d) = units.get(*e)
            && d.cell() != p.into
            && !p.moved.contains(e)
        {
            list.push((d.unit.id.clone(), d.unit.name.clone(), p.attackers.contains(e)));
            let options = advance_options(map, index, units, p, *e);
            may_enter.push((
                d.unit.id.clone(),
                options.iter().filter(|t| t.allowed.is_ok()).map(|t| t.cell).collect(),
            ));
            for t in options {
                match targets.iter_mut().find(|(c, _)| *c == t.cell) {
                    Some((_, allowed)) if allowed.is_err() && t.allowed.is_ok() => *allowed = Ok(()),
                    Some(_) => {}
                    None => targets.push((t.cell, t.allowed)),
                }
            }
        }
    }
    AdvanceAsk {
        into: p.into,
        units: list,
        targets,
        may_enter,
        mandatory: p.right.mandatory,
        moved: p.moved.len(),
    }
}

/// Clicking the end cell of a legal retreat, or an allowed advance target, chooses it
/// (`clicks.rs` worked out which).
fn click_to_choose(
    this: Res<super::state::ThisClick>,
    mut orders: MessageWriter<PlayerOrder>,
    mut refusal: ResMut<super::state::LastRefusal>,
) {
    use super::state::BoardClick;
    // A refusal shown lasts until the next action: this choice is one.
    if matches!(&this.0, Some(BoardClick::Retreat { .. } | BoardClick::Advance { .. })) {
        refusal.0 = None;
    }
    match &this.0 {
        Some(BoardClick::Retreat { unit, path }) => {
            orders.write(PlayerOrder(Order::Retreat {
                unit: unit.clone(),
                path: path.clone(),
            }));
        }
        Some(BoardClick::Advance { units, to }) => {
            orders.write(PlayerOrder(Order::Advance {
                units: units.clone(),
                to: *to,
            }));
        }
        _ => {}
    }
}

fn draw_choices(
    asked: Res<Asked>,
    (layout, index): (Res<Layout>, Res<MapIndex>),
    palette: Res<Palette>,
    mut gizmos: Gizmos,
) {
    if let Some(r) = &asked.retreat {
        for (i, (path, _, ezoc)) in r.paths.iter().enumerate() {
            let color = if i == 0 {
                palette.retreat
            } else {
                palette.retreat.with_alpha(0.45)
            };
            let mut from = r.from;
            for c in path {
                let boxes = boxes_at(&layout, &index, &[from, *c]);
                draw_arrow(&mut gizmos, &boxes, layout.center(from), layout.center(*c), color);
                from = *c;
            }
            if *ezoc {
                let c = layout.center(from);
                gizmos.circle_2d(c, layout.side() * 0.3, palette.must_stop);
            }
        }
    }
    if let Some(a) = &asked.advance {
        for (cell, ok) in &a.targets {
            let color = if ok.is_ok() {
                palette.advance
            } else {
                Color::srgba(0.5, 0.5, 0.5, 0.6)
            };
            let mut pts = layout.corners(*cell);
            let c = layout.center(*cell);
            for p in pts.iter_mut() {
                *p = c + (*p - c) * 0.82;
            }
            pts.push(pts[0]);
            gizmos.linestrip_2d(pts, color);
        }
    }
}

fn choice_panel(
    mut contexts: EguiContexts,
    asked: Res<Asked>,
    palette: Res<Palette>,
    layout: Option<Res<Layout>>,
    camera: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut orders: MessageWriter<PlayerOrder>,
    log_panel: Res<super::log_panel::LogPanel>,
    mut ticks: ResMut<AdvanceTicks>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(r) = &asked.retreat {
        retreat_window(ctx, r, &mut orders, log_panel.right_inset());
        if let (Some(layout), Ok(camera)) = (&layout, camera.single()) {
            retreat_labels(ctx, r, layout, camera, &palette);
        }
    }
    if let Some(a) = &asked.advance {
        advance_window(ctx, a, &mut orders, log_panel.right_inset(), &mut ticks, &palette);
    }
    Ok(())
}

/// The retreat question: every legal path with its priorities, the suggestion first and why.
fn retreat_window(ctx: &egui::Context, r: &RetreatAsk, orders: &mut MessageWriter<PlayerOrder>, right_inset: f32) {
    egui::Window::new(format!("Retreat: {}", r.name))
        .id(egui::Id::new("retreat-choice"))
        .anchor(egui::Align2::RIGHT_BOTTOM, [-right_inset, -40.0])
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(format!(
                "{} must retreat {} from {}; {} chooses the path.",
                r.name,
                crate::rules::units::counted(r.cells, "cell", "cells"),
                r.from,
                r.chooser
            ));
            ui.label(
                egui::RichText::new("P1 toward home, free of enemy ZOC · P2 free of ZOC · P3 toward home · P4 other")
                    .small()
                    .weak(),
            );
            if !r.suggested_why.is_empty() {
                ui.label(egui::RichText::new(format!("★ suggested: {}", r.suggested_why)).small());
            }
            for (i, (path, prio, ezoc)) in r.paths.iter().enumerate() {
                let route = path.iter().map(ToString::to_string).collect::<Vec<_>>().join(" > ");
                let mut text = format!("{route}   {prio}");
                if *ezoc {
                    text += "   (through enemy ZOC: ER check)";
                }
                if i == 0 {
                    text += "   ★ suggested";
                }
                let mut button = ui.button(text);
                if i == 0 {
                    button = button.on_hover_text(format!("Suggested: {}", r.suggested_why));
                }
                if button.clicked() {
                    orders.write(PlayerOrder(Order::Retreat {
                        unit: r.unit.clone(),
                        path: path.clone(),
                    }));
                }
            }
            if !r.refused.is_empty() {
                ui.collapsing("Why not elsewhere", |ui| {
                    for x in &r.refused {
                        ui.label(egui::RichText::new(x).small());
                    }
                });
            }
            ui.label(
                egui::RichText::new("Or click the end cell of a red arrow on the board.")
                    .small()
                    .weak(),
            );
        });
}

/// Priority labels at each retreat path's end, on the board.
fn retreat_labels(
    ctx: &egui::Context,
    r: &RetreatAsk,
    layout: &Layout,
    (cam, global): (&Camera, &GlobalTransform),
    palette: &Palette,
) {
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("retreat-labels"),
    ));
    let zoom = ctx.zoom_factor();
    for (i, (path, prio, _)) in r.paths.iter().enumerate() {
        if let Some(end) = path.last()
            && let Ok(p) = cam.world_to_viewport(global, layout.center(*end).extend(0.0))
        {
            let label = if i == 0 { format!("★ {prio}") } else { prio.clone() };
            painter.text(
                egui::pos2(p.x / zoom, p.y / zoom - 18.0),
                egui::Align2::CENTER_BOTTOM,
                label,
                egui::FontId::proportional(13.0),
                Palette::egui(palette.retreat),
            );
        }
    }
}

/// The advance question: tick who advances, then a cell (or Stay).
fn advance_window(
    ctx: &egui::Context,
    a: &AdvanceAsk,
    orders: &mut MessageWriter<PlayerOrder>,
    right_inset: f32,
    ticks: &mut AdvanceTicks,
    palette: &Palette,
) {
    egui::Window::new(format!("Advance into {}", a.into))
        .id(egui::Id::new("advance-choice"))
        .anchor(egui::Align2::RIGHT_BOTTOM, [-right_inset, -40.0])
        .resizable(false)
        .show(ctx, |ui| {
            ticks.fit(a);
            if a.moved == 0 {
                ui.label(format!(
                    "The cell is vacated. Tick who advances{}:",
                    if a.mandatory { " (at least one must)" } else { "" }
                ));
            } else {
                ui.label("Tick any others to send them too, or Stay to keep them where they are:");
            }
            for (id, name, attacked) in &a.units {
                if !attacked {
                    continue;
                }
                let mut on = ticks.ids.contains(id);
                if ui.checkbox(&mut on, name.as_str()).changed() {
                    if on {
                        ticks.ids.push(id.clone());
                    } else {
                        ticks.ids.retain(|x| x != id);
                    }
                }
            }
            let attackers = ticks.chosen(a);
            for (cell, ok) in &a.targets {
                match ok {
                    Ok(()) => {
                        let going = a.going_to(attackers.clone(), *cell);
                        let button = egui::Button::new(format!("Advance into {cell}"));
                        let clicked = ui
                            .add_enabled(!ticks.ids.is_empty() && !going.is_empty(), button)
                            .on_disabled_hover_text("None of the ticked units may enter it (a second-cell advance is for mechanized and motorized units)")
                            .clicked();
                        if clicked {
                            orders.write(PlayerOrder(Order::Advance { units: going, to: *cell }));
                        }
                    }
                    Err(why) => {
                        ui.label(
                            egui::RichText::new(format!("{cell}: {why}"))
                                .small()
                                .color(palette.warn),
                        );
                    }
                }
            }
            if ui
                .button("Stay")
                .on_hover_text("End the advance; refused when an advance is mandatory")
                .clicked()
            {
                orders.write(PlayerOrder(Order::EndAdvance));
            }
            ui.label(
                egui::RichText::new("Or click a green cell on the board.")
                    .small()
                    .weak(),
            );
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(into: Cell, moved: usize, ids: &[&str]) -> AdvanceAsk {
        AdvanceAsk {
            into,
            units: ids.iter().map(|id| (id.to_string(), id.to_string(), true)).collect(),
            targets: vec![(into, Ok(()))],
            may_enter: ids.iter().map(|id| (id.to_string(), vec![into])).collect(),
            mandatory: false,
            moved,
        }
    }

    #[test]
    fn units_left_behind_stay_unticked() {
        let into = Cell::new(8, 8);
        let mut ticks = AdvanceTicks::default();
        let first = ask(into, 0, &["a", "b", "c"]);
        assert_eq!(ticks.chosen(&first), vec!["a", "b", "c"]);
        ticks.fit(&first);
        // The player sends a alone.
        ticks.ids.retain(|id| id == "a");
        assert_eq!(ticks.chosen(&first), vec!["a"]);
        // a has advanced: b and c, kept back on purpose, are offered unticked.
        let again = ask(into, 1, &["b", "c"]);
        assert!(ticks.chosen(&again).is_empty());
        ticks.fit(&again);
        assert!(ticks.ids.is_empty());
        ticks.ids.push("c".into());
        assert_eq!(ticks.chosen(&again), vec!["c"]);
    }

    #[test]
    fn a_new_advance_is_offered_all_ticked() {
        let mut ticks = AdvanceTicks::default();
        ticks.fit(&ask(Cell::new(8, 8), 1, &["b"]));
        assert!(ticks.chosen(&ask(Cell::new(8, 8), 1, &["b"])).is_empty());
        let next = ask(Cell::new(3, 4), 0, &["d", "e"]);
        assert_eq!(ticks.chosen(&next), vec!["d", "e"]);
        ticks.fit(&next);
        assert_eq!(ticks.ids, vec!["d", "e"]);
    }
}
