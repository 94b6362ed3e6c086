//! The director of presentation mode over real games: for every combat of a computer-vs-computer
//! game of each shipped scenario (each ruleset) and of the committed game, the camera moved as
//! the client moves it shows the combat's cells inside the free rectangle (the frame minus the
//! odds overlay and the lower third) when the result shows, and the combat's order waits (the
//! board unchanged) until then.

use bevy::math::Vec2;
use bevy::prelude::*;
use hexfront::ai::Profile;
use hexfront::ai::{ComputerPlayer, side_to_act};
use hexfront::game::components::{GameMap, Sides, Unit};
use hexfront::game::execute::replay_entry;
use hexfront::game::fight::odds_before;
use hexfront::game::order::Order;
use hexfront::game::save::{parse_game_str, replay_app};
use hexfront::scenario::{SHIPPED, shipped_scenario};
use hexfront::show::director::{
    Combat, Cue, Director, Framed, Screen, Shot, cell_center, cell_side, cells_rect, combat_cells, fit_whole,
    presentation_screen, readable_scale,
};
use std::path::Path;

/// Frames a second the camera is stepped at.
const FPS: f64 = 60.0;
/// The dice tumble setting's default.
const TUMBLE_SECS: f64 = 1.6;

/// The camera as the client has it: the whole map fitted, then each combat framed.
struct Stage {
    screen: Screen,
    shot: Shot,
    now: f64,
    director: Director,
    framed: Vec<Framed>,
}

impl Stage {
    fn new(world: &World, size: Vec2) -> Self {
        let kind = world.resource::<GameMap>().board.grid.kind;
        let grid = world.resource::<GameMap>().board.grid;
        let side = cell_side(kind);
        let corners = [
            (0, 0),
            (grid.width as i32 - 1, grid.height as i32 - 1),
            (0, grid.height as i32 - 1),
            (grid.width as i32 - 1, 0),
            (1, grid.height as i32 - 1),
        ];
        let centres: Vec<Vec2> = corners
            .iter()
            .map(|&(c, r)| cell_center(kind, hexfront::rules::grid::Cell::new(c, r), side))
            .collect();
        let bounds = cells_rect(&centres, side).unwrap();
        let screen = presentation_screen(size, 1.0, true, 0.0);
        let whole = presentation_screen(size, 1.0, false, 0.0);
        Self {
            shot: fit_whole(bounds, &whole),
            screen,
            now: 0.0,
            director: Director::default(),
            framed: Vec::new(),
        }
    }

    /// Holds `order` as the client does while presenting, frame by frame, until the director
    /// rolls it; checks the board does not change meanwhile. `false` when it fights no combat.
    fn hold(&mut self, world: &mut World, order: &Order) -> bool {
        let Some(Ok((planned, _))) = odds_before(world, order) else {
            return false;
        };
        let kind = world.resource::<GameMap>().board.grid.kind;
        let side = cell_side(kind);
        let centres: Vec<Vec2> = combat_cells(&planned)
            .iter()
            .map(|c| cell_center(kind, *c, side))
            .collect();
        let combat = Combat {
            cells: cells_rect(&centres, side).unwrap(),
            target: planned.order.target.to_string(),
        };
        let units_before = units(world);
        let readable = readable_scale(kind, self.screen.size.y);
        let mut held = 0;
        loop {
            let shot = self.director.camera(self.now).unwrap_or(self.shot);
            let cue = self
                .director
                .cue(combat.clone(), &self.screen, readable, shot, self.now, TUMBLE_SECS);
            self.shot = self.director.camera(self.now).unwrap_or(shot);
            match cue {
                Cue::Hold => held += 1,
                Cue::Roll(framed) => {
                    self.framed.push(framed);
                    break;
                }
            }
            // Nothing changes the board while the combat is held.
            assert_eq!(units(world), units_before);
            self.now += 1.0 / FPS;
            assert!(held < 10_000, "the director never rolled {}", combat.target);
        }
        assert!(
            held as f64 >= TUMBLE_SECS * FPS - 1.0,
            "{}: held {held} frames",
            combat.target
        );
        true
    }
}

/// The units on the board with their steps: what a viewer sees.
fn units(world: &mut World) -> Vec<(String, u32)> {
    let mut q = world.query::<(&Unit, &hexfront::game::components::Steps)>();
    let mut v: Vec<(String, u32)> = q.iter(world).map(|(u, s)| (u.id.clone(), s.0.lost as u32)).collect();
    v.sort();
    v
}

/// Plays `scenario`'s game computer against computer through the director, up to `most` combats.
fn showcase_game(index: usize, seed: u64, most: usize, size: Vec2) -> Vec<Framed> {
    let scenario = shipped_scenario(index).unwrap();
    let mut app = hexfront::game::headless_app(&scenario, seed);
    let world = app.world_mut();
    let sides = world.resource::<Sides>().0.len();
    let mut players: Vec<ComputerPlayer> = (0..sides)
        .map(|s| ComputerPlayer::new(s, Profile::novice(), seed))
        .collect();
    let mut stage = Stage::new(world, size);
    for _ in 0..20_000 {
        if stage.framed.len() >= most {
            break;
        }
        let Some(side) = side_to_act(world) else { break };
        let Some(order) = players[side].next_order(world) else {
            break;
        };
        stage.hold(world, &order);
        if players[side].give(world, order).is_err() {
            break;
        }
    }
    stage.framed
}

fn assert_framed(name: &str, framed: &[Framed]) {
    for f in framed {
        assert!(f.inside(), "{name}: {}", f.line());
    }
}

#[test]
fn every_showcase_combat_is_framed_clear_of_overlay_and_lower_third() {
    let mut total = 0;
    let mut per = Vec::new();
    for (i, (path, _)) in SHIPPED.iter().enumerate() {
        // 1920×1080 and a 1920×1200 screen, alternately.
        let size = if i % 2 == 0 {
            Vec2::new(1920.0, 1080.0)
        } else {
            Vec2::new(1920.0, 1200.0)
        };
        let framed = showcase_game(i, 7 + i as u64, 12, size);
        assert_framed(path, &framed);
        per.push((*path, framed.len()));
        total += framed.len();
    }
    eprintln!("combats framed per scenario: {per:?}");
    assert!(per.iter().all(|(_, n)| *n >= 3), "{per:?}");
    assert!(total >= 50, "{total} combats: {per:?}");
}

#[test]
fn every_combat_of_the_committed_game_is_framed() {
    let path = Path::new("tests/fixtures/smolensk-game.ron");
    let game = parse_game_str(path, &std::fs::read_to_string(path).unwrap(), 1).unwrap();
    let mut app = replay_app(&game, Some(0)).unwrap();
    let world = app.world_mut();
    let mut stage = Stage::new(world, Vec2::new(1920.0, 1080.0));
    let mut fought = 0;
    for (i, entry) in game.log.iter().enumerate() {
        if stage.hold(world, &entry.order) {
            fought += 1;
        }
        replay_entry(world, i, entry).unwrap();
    }
    assert_eq!(fought, 20);
    assert_eq!(stage.framed.len(), 20);
    assert_framed("smolensk-game", &stage.framed);
    // Hold on: a retreat or an elimination shows after the roll; replaying the same entries
    // without a hold ends on the same board (the director changes when, never what).
    let mut plain = replay_app(&game, None).unwrap();
    assert_eq!(units(plain.world_mut()), units(world));
}
