//! The balance lab in the client (Game ▸ Balance lab…): computer-vs-computer games of the
//! scenario on the board, played on background threads while the window stays live, with a
//! progress bar, then the report and its charts (win rates with 95% intervals, objective points
//! by turn) drawn with egui_plot. The same `lab::run` and tally as `hexfront balance`.

use super::saves::GameCommand;
use crate::ai::LEVELS;
use crate::game::phase::GameState;
use crate::game::start::GameOrigin;
use crate::lab::tally::{Tally, wilson};
use crate::lab::{Batch, Seat, run, tally_of};
use crate::scenario::Scenario;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui_plot::{Bar, BarChart, Legend, Line, Plot, PlotPoints};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

/// A batch under way on background threads.
struct LabRun {
    done: Arc<AtomicUsize>,
    total: usize,
    started: Instant,
    handle: JoinHandle<Result<Tally, String>>,
}

/// The lab window's state.
#[derive(Resource)]
pub struct LabWindow {
    pub open: bool,
    games: u64,
    seed: u64,
    seats: [String; 2],
    mirror: bool,
    running: Option<LabRun>,
    result: Option<(Tally, f32)>,
    error: Option<String>,
}

impl Default for LabWindow {
    fn default() -> Self {
        Self {
            open: false,
            games: 100,
            seed: 1,
            seats: ["standard".into(), "standard".into()],
            mirror: false,
            running: None,
            result: None,
            error: None,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LabWindow>()
        .add_systems(Update, (open_on_command, collect_finished))
        .add_systems(
            EguiPrimaryContextPass,
            lab_window.run_if(in_state(GameState::Playing).or_else(in_state(GameState::Over))),
        );
}

fn open_on_command(mut commands: MessageReader<GameCommand>, mut lab: ResMut<LabWindow>) {
    if commands.read().any(|c| *c == GameCommand::BalanceLab) {
        lab.open = !lab.open;
    }
}

/// Takes the tally of a finished batch.
fn collect_finished(mut lab: ResMut<LabWindow>) {
    if !lab.running.as_ref().is_some_and(|r| r.handle.is_finished()) {
        return;
    }
    let Some(run) = lab.running.take() else { return };
    let secs = run.started.elapsed().as_secs_f32();
    match run.handle.join() {
        Ok(Ok(tally)) => lab.result = Some((tally, secs)),
        Ok(Err(e)) => lab.error = Some(e),
        Err(_) => lab.error = Some("the lab stopped unexpectedly (a bug: please report it)".into()),
    }
}

/// Starts the batch on background threads.
fn start(lab: &mut LabWindow, scenario: Scenario) {
    let seats: Result<Vec<Seat>, String> = lab.seats.iter().map(|s| Seat::parse(s)).collect();
    let seats = match seats {
        Ok(s) => s,
        Err(e) => {
            lab.error = Some(e);
            return;
        }
    };
    let batch = Batch {
        games: lab.games,
        seed: lab.seed,
        seats,
        mirror: lab.mirror,
        shard: (0, 1),
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        keep_logs: None,
    };
    let done = Arc::new(AtomicUsize::new(0));
    let total = (lab.games * if lab.mirror { 2 } else { 1 }) as usize;
    let counter = done.clone();
    let handle = std::thread::spawn(move || {
        let records = run(&scenario, &batch, &|d, _| counter.store(d, Ordering::Relaxed))?;
        Ok(tally_of(&scenario, &batch, &records))
    });
    lab.error = None;
    lab.running = Some(LabRun {
        done,
        total,
        started: Instant::now(),
        handle,
    });
}

fn lab_window(mut contexts: EguiContexts, mut lab: ResMut<LabWindow>, origin: Option<Res<GameOrigin>>) -> Result {
    if !lab.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Balance lab")
        .open(&mut open)
        .default_size([760.0, 560.0])
        .show(ctx, |ui| {
            let Some(origin) = origin.as_ref() else {
                ui.label("Start a game first: the lab plays its scenario.");
                return;
            };
            settings(ui, &mut lab, &origin.scenario);
            ui.separator();
            if let Some(r) = &lab.running {
                let done = r.done.load(Ordering::Relaxed);
                let rate = done as f32 / r.started.elapsed().as_secs_f32().max(0.001);
                ui.add(
                    egui::ProgressBar::new(done as f32 / r.total.max(1) as f32)
                        .text(format!("{done} / {} games · {rate:.0} games/s", r.total)),
                );
                ui.label("It runs in the background: play on meanwhile, the report appears here.");
                ui.ctx().request_repaint();
            }
            if let Some(e) = &lab.error {
                ui.colored_label(egui::Color32::from_rgb(220, 60, 40), e);
            }
            if let Some((tally, secs)) = &lab.result {
                report(ui, tally, *secs);
            }
        });
    lab.open = open;
    Ok(())
}

/// Who plays, how many games, the seed, and Run.
fn settings(ui: &mut egui::Ui, lab: &mut LabWindow, scenario: &Scenario) {
    ui.label(format!("Computer-vs-computer games of {}", scenario.raw.name));
    let choices: Vec<&str> = LEVELS.iter().copied().chain(["random", "passive"]).collect();
    ui.horizontal(|ui| {
        for (i, side) in scenario.sides.iter().enumerate().take(2) {
            ui.label(format!("{}:", side.name));
            egui::ComboBox::from_id_salt(("lab-seat", i))
                .selected_text(lab.seats[i].clone())
                .show_ui(ui, |ui| {
                    for c in &choices {
                        ui.selectable_value(&mut lab.seats[i], (*c).to_string(), *c);
                    }
                });
        }
    });
    ui.horizontal(|ui| {
        ui.label("Games:");
        ui.add(egui::DragValue::new(&mut lab.games).range(1..=100_000));
        ui.label("Seed:");
        ui.add(egui::DragValue::new(&mut lab.seed));
        ui.checkbox(&mut lab.mirror, "mirrored")
            .on_hover_text("Play each seed again with the seats swapped: a duplicate match between the two players");
        let idle = lab.running.is_none();
        if ui
            .add_enabled(idle, egui::Button::new(egui::RichText::new("Run").strong()))
            .on_hover_text("The same games `hexfront balance` plays: the same seed gives the same report")
            .clicked()
        {
            start(lab, scenario.clone());
        }
    });
}

const SIDE_COLOURS: [egui::Color32; 2] = [
    egui::Color32::from_rgb(200, 80, 60),
    egui::Color32::from_rgb(70, 130, 210),
];

/// The charts and the report of a finished batch.
fn report(ui: &mut egui::Ui, tally: &Tally, secs: f32) {
    ui.label(format!("{} games in {secs:.1} s", tally.games));
    ui.columns(2, |cols| {
        win_chart(&mut cols[0], tally);
        points_chart(&mut cols[1], tally);
    });
    egui::ScrollArea::vertical().max_height(220.0).show(ui, |ui| {
        ui.add(egui::Label::new(egui::RichText::new(tally.report()).monospace()).wrap_mode(egui::TextWrapMode::Extend));
    });
}

/// Win rates and draws as bars, each with its 95% interval.
fn win_chart(ui: &mut egui::Ui, tally: &Tally) {
    let n = tally.games.max(1) as f64;
    let mut counts: Vec<(String, u64, egui::Color32)> = tally
        .sides
        .iter()
        .zip(&tally.wins)
        .enumerate()
        .map(|(i, (s, w))| (s.clone(), *w, SIDE_COLOURS[i % 2]))
        .collect();
    counts.push(("draws".into(), tally.draws, egui::Color32::GRAY));
    Plot::new("lab-wins")
        .height(200.0)
        .include_y(0.0)
        .include_y(100.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show_x(false)
        .show_axes([false, true])
        .y_axis_label("wins, % (bars: 95% interval)")
        .legend(Legend::default())
        .show(ui, |plot| {
            for (i, (name, wins, colour)) in counts.iter().enumerate() {
                let x = i as f64;
                let bar = Bar::new(x, 100.0 * *wins as f64 / n).width(0.6).fill(*colour);
                plot.bar_chart(BarChart::new(name.clone(), vec![bar]).color(*colour));
                let (lo, hi) = wilson(*wins as f64, n);
                // Unnamed: the interval stays out of the legend.
                plot.line(
                    Line::new("", PlotPoints::from(vec![[x, 100.0 * lo], [x, 100.0 * hi]]))
                        .color(egui::Color32::WHITE)
                        .width(2.0),
                );
            }
        });
}

/// Each side's mean objective points at the end of each turn.
fn points_chart(ui: &mut egui::Ui, tally: &Tally) {
    let means = tally.mean_points();
    Plot::new("lab-points")
        .height(200.0)
        .include_y(0.0)
        .x_axis_label("end of turn")
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .legend(Legend::default())
        .show(ui, |plot| {
            for (side, name) in tally.sides.iter().enumerate() {
                let points: Vec<[f64; 2]> = means
                    .iter()
                    .enumerate()
                    .map(|(t, p)| [(t + 1) as f64, p.get(side).copied().unwrap_or(0.0)])
                    .collect();
                plot.line(
                    Line::new(format!("{name}: objective points"), PlotPoints::from(points))
                        .color(SIDE_COLOURS[side % 2])
                        .width(2.5),
                );
            }
        });
}
