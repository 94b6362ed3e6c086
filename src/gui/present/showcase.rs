//! The showcase (`hexfront showcase [SCENARIO...]`): the computer plays every side at a pace for
//! viewers, in presentation mode; when a game ends its result holds a while and the next scenario
//! starts, round and round (an attract mode). Each turn a quick balance-lab run on another thread
//! plays the position out a few times and the lower third says who wins from here.

use super::super::state::Settings;
use super::super::state::StartGame;
use super::super::state::{ComputerPace, Seats};
use crate::ai::Profile;
use crate::game::components::Sides;
use crate::game::log::OrderLog;
use crate::game::phase::{GameState, TurnState};
use crate::game::retreat::AfterCombatMode;
use crate::game::start::GameOrigin;
use crate::lab::{Seat, win_rates_from};
use crate::scenario::Scenario;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};

/// Games the quick lab run plays from each turn's start.
pub const QUICK_GAMES: u64 = 12;

/// The scenarios shown in turn, and where the show stands.
#[derive(Resource)]
pub struct Showcase {
    pub scenarios: Vec<Scenario>,
    pub next: usize,
    pub seed: u64,
    over_since: Option<f64>,
    /// The run playing a position out: its turn, the answer's channel (none yet: still running)
    /// and the flag that stops it.
    asked: Option<QuickRun>,
    /// The last answer: turn, each side's share, the share drawn.
    pub odds: Option<(u32, Vec<f64>)>,
    /// The title card up between two scenarios (`curtain.rs`).
    pub curtain: Option<Curtain>,
}

impl Showcase {
    pub fn new(scenarios: Vec<Scenario>, seed: u64) -> Self {
        Self {
            scenarios,
            next: 0,
            seed,
            over_since: None,
            asked: None,
            odds: None,
            curtain: None,
        }
    }

    /// The side most likely to win from the last quick run: its info, share and the turn.
    pub fn leader<'a>(&self, sides: &'a Sides) -> Option<(&'a crate::scenario::validate::SideInfo, f64, u32)> {
        let (turn, rates) = self.odds.as_ref()?;
        let (best, share) = rates[..rates.len().saturating_sub(1)]
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))?;
        Some((sides.0.get(best)?, *share, *turn))
    }

    /// The next scenario's game, every side the standard computer player.
    pub fn next_game(&mut self) -> Option<(StartGame, Seats)> {
        let scenario = self.scenarios.get(self.next % self.scenarios.len().max(1))?.clone();
        let seats = Seats(vec![Some(Profile::standard()); scenario.sides.len()]);
        // The first game keeps the seed given (`--seed` reproduces it); each later one, a lap
        // of the same scenarios included, gets dice of its own.
        let seed = if self.next == 0 {
            self.seed
        } else {
            lap_seed(self.seed, self.next as u64)
        };
        self.next += 1;
        self.odds = None;
        self.asked = None;
        self.over_since = None;
        self.curtain = Some(Curtain {
            title: scenario.raw.name.clone(),
            setting: scenario.raw.setting.clone(),
            game: self.next,
            old_board_gone: false,
            board_since: None,
        });
        Some((StartGame::new(scenario, seed), seats))
    }
}

/// The title card the showcase raises between two scenarios (drawn by `curtain.rs`): what it
/// says, whether the old board has gone, and when the new board first showed.
#[derive(Clone, Debug, PartialEq)]
pub struct Curtain {
    pub title: String,
    pub setting: String,
    pub game: usize,
    /// The old game's board has gone (the state passed through `NoGame`).
    pub old_board_gone: bool,
    pub board_since: Option<f64>,
}

/// A quick lab run on another thread.
struct QuickRun {
    turn: u32,
    answer: Mutex<Receiver<Option<Vec<f64>>>>,
    done: bool,
    stop: Arc<AtomicBool>,
}

impl Drop for QuickRun {
    /// A run nobody waits for any more stops after the game it is playing.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (pace, next_when_over, ask_who_wins, hear_who_wins, no_autosave).run_if(resource_exists::<Showcase>),
    );
}

/// A show's games are not the player's: none fills the saves folder.
fn no_autosave(mut commands: Commands, autosave: Option<Res<crate::game::autosave::Autosave>>) {
    if autosave.is_some() {
        commands.remove_resource::<crate::game::autosave::Autosave>();
    }
}

/// The computer's pace from the streaming setting (orders a second).
fn pace(settings: Res<Settings>, mut pace: ResMut<ComputerPace>) {
    let want = 1.0 / settings.streaming.showcase_pace.max(0.1);
    if (pace.0 - want).abs() > 1e-3 {
        pace.0 = want;
    }
}

/// Seconds without a new order after which a showcase game counts as stuck (a computer that gave
/// up its side) and the next one starts.
const STUCK_SECS: f64 = 60.0;

/// A finished (or stuck) game's result holds twice the combat pacing, then the next scenario
/// starts.
fn next_when_over(
    mut commands: Commands,
    state: Res<State<GameState>>,
    mut show: ResMut<Showcase>,
    (time, settings, log): (Res<Time>, Res<Settings>, Option<Res<OrderLog>>),
    mut next: ResMut<NextState<GameState>>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut last_order: Local<(usize, f64)>,
    overlay: Res<super::overlay::Overlay>,
) {
    let now = time.elapsed_secs_f64();
    let orders = log.map_or(0, |l| l.entries.len());
    if orders != last_order.0 || *state.get() != GameState::Playing {
        *last_order = (orders, now);
    }
    let stuck = now - last_order.1 > STUCK_SECS;
    if stuck {
        warn!("showcase: no order for {STUCK_SECS} s; on to the next scenario");
        *last_order = (orders, now);
        show.over_since = Some(f64::NEG_INFINITY);
    }
    let starting = *state.get() == GameState::NoGame && show.over_since.is_none() && show.next == 0;
    if *state.get() != GameState::Over && !starting && !stuck {
        show.over_since = None;
        return;
    }
    redraw.write(RequestRedraw);
    // The victory card comes once the last combat's result has gone (`victory.rs`): the game's
    // result holds from then.
    if *state.get() == GameState::Over && overlay.busy(now, &settings) {
        show.over_since = None;
        return;
    }
    let since = *show.over_since.get_or_insert(now);
    if (starting || now - since >= f64::from(settings.streaming.hold_secs) * 2.0)
        && let Some((game, seats)) = show.next_game()
    {
        info!(
            "showcase: game {} of the loop, {}",
            show.next, game.game.scenario.raw.name
        );
        commands.insert_resource(game);
        commands.insert_resource(seats);
        // At the start there is no old board to see go.
        if let Some(curtain) = show.curtain.as_mut().filter(|_| starting) {
            curtain.old_board_gone = true;
        }
        next.set(GameState::NoGame);
    }
}

/// Runs `f` with this thread's log lines dropped (headless games narrate every order).
pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
    use bevy::log::tracing::subscriber::{NoSubscriber, with_default};
    with_default(NoSubscriber::default(), f)
}

/// At each turn's start, plays the position out on another thread.
fn ask_who_wins(
    mut show: ResMut<Showcase>,
    turn: Option<Res<TurnState>>,
    log: Option<Res<OrderLog>>,
    origin: Option<Res<GameOrigin>>,
    after_combat: Option<Res<AfterCombatMode>>,
    state: Res<State<GameState>>,
) {
    let (Some(turn), Some(log), Some(origin)) = (turn, log, origin) else {
        return;
    };
    // One run at a time: a turn that passes while one runs is asked about when it is done.
    let busy = show.asked.as_ref().is_some_and(|r| !r.done || r.turn == turn.turn);
    if *state.get() != GameState::Playing || busy {
        return;
    }
    let game = crate::game::save::LoadedGame::begun_at(
        &origin,
        log.entries.clone(),
        after_combat.is_some_and(|a| a.automatic),
    );
    let seats: Vec<Seat> = (0..origin.scenario.sides.len())
        .map(|_| Seat::Computer(Profile::standard()))
        .collect();
    let (tx, rx) = channel();
    let seed = lap_seed(show.seed ^ u64::from(turn.turn) << 32, show.next as u64);
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    std::thread::spawn(move || {
        // The quick games' narration stays out of the window's log.
        let rates = quietly(|| win_rates_from(&game, QUICK_GAMES, seed, &seats, &stopped));
        let _ = tx.send(rates);
    });
    show.asked = Some(QuickRun {
        turn: turn.turn,
        answer: Mutex::new(rx),
        done: false,
        stop,
    });
}

fn hear_who_wins(mut show: ResMut<Showcase>, mut redraw: MessageWriter<RequestRedraw>) {
    let Some(run) = show.asked.as_mut().filter(|r| !r.done) else {
        return;
    };
    let heard = run.answer.lock().ok().and_then(|rx| rx.try_recv().ok());
    let Some(rates) = heard else { return };
    run.done = true;
    let turn = run.turn;
    if let Some(rates) = rates {
        show.odds = Some((turn, rates));
    }
    redraw.write(RequestRedraw);
}

/// A seed of its own for game `n` of the showcase (SplitMix64 of the two).
pub fn lap_seed(seed: u64, n: u64) -> u64 {
    let mut z = seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
