//! The director of presentation mode over real games: for every combat of a computer-vs-computer
//! game of each shipped scenario (each ruleset) and of the committed game, the camera moved as
//! the director moves it shows the combat's cells inside the free rectangle (the frame minus the
//! odds overlay and the lower third) when the result shows. With the client (the `gui`
//! feature), the client's own hold (`gui::present::stage::may_roll`) is driven frame by frame
//! against a window and a board camera: the combat's order is refused until the camera is there
//! and the dice have tumbled, so no unit leaves the board before the result is on screen.

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
struct Show {
    screen: Screen,
    shot: Shot,
    now: f64,
    director: Director,
    framed: Vec<Framed>,
}

impl Show {
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
    let mut stage = Show::new(world, size);
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
    let mut stage = Show::new(world, Vec2::new(1920.0, 1080.0));
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
    // The director changes when an order is carried out, never what: replayed without it,
    // the game ends on the same board.
    let mut plain = replay_app(&game, None).unwrap();
    assert_eq!(units(plain.world_mut()), units(world));
}

#[cfg(feature = "gui")]
mod client {
    //! The client's hold itself, in a world with a window and a board camera.
    use super::*;
    use hexfront::gui::layout::Layout;
    use hexfront::gui::present::Frame;
    use hexfront::gui::present::stage::{Stage, may_roll, screen_now};
    use hexfront::gui::state::{BoardCamera, Presenting, Settings};
    use hexfront::show::director::shows;
    use std::time::Duration;

    /// A game of shipped scenario `index` in a world as the client has it while presenting at
    /// 1920×1080, the camera on the whole map.
    fn presenting(index: usize, seed: u64) -> App {
        let scenario = shipped_scenario(index).unwrap();
        let mut app = hexfront::game::headless_app(&scenario, seed);
        app.add_message::<bevy::window::RequestRedraw>();
        let grid = app.world().resource::<GameMap>().board.grid;
        let world = app.world_mut();
        let fitted = super::Show::new(world, Vec2::new(1920.0, 1080.0)).shot;
        world.insert_resource(Presenting(true));
        world.insert_resource(Settings::default());
        world.insert_resource(Frame::default());
        world.insert_resource(Layout { grid });
        world.init_resource::<Stage>();
        let mut window = bevy::window::Window::default();
        window.resolution = bevy::window::WindowResolution::new(1920, 1080).with_scale_factor_override(1.0);
        world.spawn((window, bevy::window::PrimaryWindow));
        let mut ortho = OrthographicProjection::default_2d();
        ortho.scale = fitted.scale;
        world.spawn((
            BoardCamera,
            Transform::from_translation(fitted.center.extend(0.0)),
            Projection::Orthographic(ortho),
        ));
        app
    }

    fn advance(world: &mut World) {
        world.resource_mut::<Time>().advance_by(Duration::from_micros(16_667));
    }

    /// Where the board camera is.
    fn camera(world: &mut World) -> Shot {
        let mut q = world.query_filtered::<(&Transform, &Projection), With<BoardCamera>>();
        let (t, p) = q.single(world).unwrap();
        let Projection::Orthographic(o) = p else {
            panic!("orthographic")
        };
        Shot {
            center: t.translation.truncate(),
            scale: o.scale,
        }
    }

    /// The client's frame for a combat's order: asks the hold, then the camera follows the
    /// director (`camera_on_stage`), then time passes. Returns the frames held.
    fn hold_as_the_client(world: &mut World, order: &Order) -> usize {
        let mut held = 0;
        while !may_roll(world, order) {
            held += 1;
            let stage = world.resource::<Stage>();
            assert!(
                stage.card.as_ref().is_some_and(|c| c.tumbling_since.is_some()),
                "the card tumbles"
            );
            let now = world.resource::<Time>().elapsed_secs_f64();
            if let Some(shot) = world.resource::<Stage>().director.camera(now) {
                let mut q = world.query_filtered::<(&mut Transform, &mut Projection), With<BoardCamera>>();
                let (mut t, mut p) = q.single_mut(world).unwrap();
                t.translation = shot.center.extend(0.0);
                if let Projection::Orthographic(o) = p.as_mut() {
                    o.scale = shot.scale;
                }
            }
            advance(world);
            assert!(held < 10_000, "never rolled");
        }
        held
    }

    #[test]
    fn the_clients_hold_keeps_each_combat_off_the_board_until_framed_and_rolled() {
        let mut combats = 0;
        for index in [0, 1, 3] {
            let mut app = presenting(index, 11);
            let world = app.world_mut();
            let sides = world.resource::<Sides>().0.len();
            let mut players: Vec<ComputerPlayer> = (0..sides)
                .map(|s| ComputerPlayer::new(s, Profile::novice(), 11))
                .collect();
            let mut here = 0;
            for _ in 0..5_000 {
                let Some(side) = side_to_act(world) else { break };
                let Some(order) = players[side].next_order(world) else {
                    break;
                };
                let fights = odds_before(world, &order).is_some_and(|r| r.is_ok());
                let held = hold_as_the_client(world, &order);
                if fights {
                    let tumble = f64::from(world.resource::<Settings>().streaming.roll_secs);
                    assert!(held as f64 >= tumble * FPS - 1.0, "held {held} frames");
                    let (planned, _) = odds_before(world, &order).unwrap().unwrap();
                    let layout = *world.resource::<Layout>();
                    let centres: Vec<Vec2> = combat_cells(&planned).iter().map(|c| layout.center(*c)).collect();
                    let cells = cells_rect(&centres, layout.side()).unwrap();
                    let screen = screen_now(world).unwrap();
                    assert!(
                        shows(&camera(world), &screen, cells),
                        "the real camera frames {}",
                        planned.order.target
                    );
                    let stage = world.resource::<Stage>();
                    assert_eq!(stage.last_rolled.map(|(c, _)| c), Some(planned.order.target));
                    assert!(stage.director.holding.is_none());
                    // However slow the next frame, the next order waits until the result has
                    // reached the card (or a result that never comes has been given up on).
                    let now = world.resource::<Time>().elapsed_secs_f64();
                    assert!(stage.awaits_result(now) && stage.awaits_result(now + 1.5));
                    assert!(!stage.awaits_result(now + 3.5));
                    here += 1;
                } else {
                    assert_eq!(held, 0, "an order that fights no combat is never held");
                }
                if players[side].give(world, order).is_err() || here >= 6 {
                    break;
                }
            }
            assert!(here >= 3, "scenario {index}: {here} combats");
            combats += here;
        }
        assert!(combats >= 12, "{combats}");
    }

    #[test]
    fn leaving_presentation_mode_mid_hold_lets_the_combat_go_and_drops_the_card() {
        let mut app = presenting(0, 11);
        let world = app.world_mut();
        let sides = world.resource::<Sides>().0.len();
        let mut players: Vec<ComputerPlayer> = (0..sides)
            .map(|s| ComputerPlayer::new(s, Profile::novice(), 11))
            .collect();
        for _ in 0..5_000 {
            let side = side_to_act(world).unwrap();
            let order = players[side].next_order(world).unwrap();
            if odds_before(world, &order).is_some_and(|r| r.is_ok()) {
                assert!(!may_roll(world, &order), "held at first");
                advance(world);
                assert!(!may_roll(world, &order), "still held");
                world.insert_resource(Presenting(false));
                assert!(may_roll(world, &order), "goes at once");
                let stage = world.resource::<Stage>();
                assert!(stage.director.holding.is_none() && stage.card.is_none());
                return;
            }
            players[side].give(world, order).unwrap();
        }
        panic!("no combat came");
    }
}
