//! Streamer mode's headless core on the committed game: every combat found with its exact odds,
//! the "biggest upset" ordering, and the highlight pictures.

use hexfront::combat::Role;
use hexfront::combat::odds::Fraction;
use hexfront::game::order::Order;
use hexfront::game::save::{LoadedGame, parse_game_str};
use hexfront::show::highlights::{Request, upsets_to_show, write_all};
use hexfront::show::moments::{self, Moments};
use std::path::Path;

const COMMITTED_GAME: &str = "tests/fixtures/smolensk-game.ron";

fn committed() -> (LoadedGame, Moments) {
    let path = Path::new(COMMITTED_GAME);
    let text = std::fs::read_to_string(path).unwrap();
    let game = parse_game_str(path, &text, 1).unwrap();
    let found = moments::find(&game).unwrap();
    (game, found)
}

fn frac(num: u128, den: u128) -> Fraction {
    Fraction::new(num, den)
}

#[test]
fn every_combat_of_the_log_is_found_with_odds_that_add_up() {
    let (game, found) = committed();
    assert_eq!(found.problem, None);
    // Each combat is found at the entry that rolled its dice: the attack, or the defender's
    // No Retreat! decision before the die.
    let rolled: Vec<usize> = game
        .log
        .iter()
        .enumerate()
        .filter(|(_, e)| e.dice.iter().any(|d| d.purpose == "combat"))
        .map(|(i, _)| i)
        .collect();
    let attacks = game.log.iter().filter(|e| matches!(e.order, Order::Attack(_))).count();
    assert_eq!((attacks, rolled.len()), (20, 20));
    assert_eq!(found.combats.iter().map(|c| c.entry).collect::<Vec<_>>(), rolled);
    for c in &found.combats {
        let total = c.bars.iter().fold(Fraction::ZERO, |t, b| t.plus(b.exact));
        assert_eq!(total, Fraction::ONE, "entry {}: the bars add up to 1", c.entry);
        let lit: Vec<_> = c.bars.iter().filter(|b| b.happened).collect();
        assert_eq!(lit.len(), 1, "entry {}: one bar is the result", c.entry);
        // Results that read the same are one bar, its label listing their codes.
        assert!(
            lit[0].codes().any(|code| code == c.result),
            "entry {}: {} lit for {}",
            c.entry,
            lit[0].label,
            c.result
        );
        assert!(c.p_result.num > 0 && c.p_result.as_f64() <= lit[0].exact.as_f64());
        // The upset chance counts the result itself and every result more lopsided.
        assert!(c.upset.as_f64() >= c.p_result.as_f64() && c.upset.as_f64() <= 1.0);
        assert_eq!(c.dice.len(), game.log[c.entry].dice.len());
        assert!(!c.board.is_empty() && !c.attacker_cells.is_empty());
    }
    // Six turns, the last one the game's end.
    assert_eq!(
        found.turn_ends.iter().map(|t| t.turn).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    assert!(found.turn_ends.last().unwrap().over);
}

#[test]
fn the_biggest_upset_is_the_result_the_odds_gave_the_least_chance() {
    let (_, found) = committed();
    let ranked = found.biggest_upsets();
    assert_eq!(ranked.len(), found.combats.len());
    for pair in ranked.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let key = |c: &moments::CombatMoment| (c.upset.as_f64(), c.p_result.as_f64(), c.entry);
        assert!(key(a) <= key(b), "{} before {}", a.headline(), b.headline());
    }
    // The committed game's biggest upset: turn 3, two German corps at 15:8 (the 2:1 column after
    // the shift for dispersed defenders) roll a 2 and only disperse the 20th Army: of the six
    // faces, none is worse for the attacker.
    let top = ranked[0];
    assert_eq!(
        (top.turn, top.target.to_string(), top.result.as_str()),
        (3, "0613".into(), "D")
    );
    assert_eq!(top.column.as_deref(), Some("2:1"));
    assert_eq!(top.dice, [2]);
    assert_eq!(
        (top.p_result, top.upset, top.beat_the_odds),
        (frac(1, 6), frac(1, 6), Role::Defender)
    );
    let bars: Vec<(&str, Fraction)> = top.bars.iter().map(|b| (b.label.as_str(), b.exact)).collect();
    assert_eq!(
        bars,
        [
            ("DR -> DE", frac(1, 3)),
            ("X", frac(1, 6)),
            ("D", frac(1, 6)),
            ("dw", frac(1, 6)),
            ("DW", frac(1, 6))
        ]
    );
    assert!(top.modifiers.iter().any(|m| m.contains("dispersed defenders")));
    // The least surprising combat is last: a result the odds made at least even money.
    assert!(ranked.last().unwrap().upset.as_f64() >= 0.5);
    // Upsets worth a picture: at most a 1 in 4 chance.
    let shown = upsets_to_show(&found, 10);
    assert!(!shown.is_empty() && shown.iter().all(|c| c.upset.as_f64() <= 0.25));
    assert_eq!(shown[0].entry, top.entry);
}

/// How many different colours a picture has (a blank one has one or two).
fn colours(path: &Path) -> usize {
    let img = image::open(path).unwrap().to_rgb8();
    let mut seen: Vec<[u8; 3]> = img.pixels().map(|p| p.0).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

#[test]
fn highlights_draw_each_turn_end_and_the_upsets() {
    let (game, found) = committed();
    let dir = std::env::temp_dir().join(format!("hexfront-highlights-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let req = Request {
        dir: dir.clone(),
        width: 480,
        upsets: 2,
        aspect: hexfront::art::crop::Aspect::Map,
    };
    let mut said = Vec::new();
    let files = write_all(&game.scenario, &found, &req, |p| said.push(p.to_path_buf())).unwrap();
    assert_eq!(files, said);
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "00-title.png",
            "turn-01.png",
            "turn-02.png",
            "turn-03.png",
            "turn-04.png",
            "turn-05.png",
            "turn-06-game-over.png",
            "upset-1-turn-03-0613.png",
            "upset-2-turn-04-1005.png"
        ]
    );
    for f in &files {
        assert!(colours(f) > 40, "{} is not blank", f.display());
    }
    // The upset's result is lit in orange, on its bar and its ring.
    let upset = image::open(&files[7]).unwrap().to_rgb8();
    let orange = upset.pixels().filter(|p| p.0 == [230, 159, 0]).count();
    assert!(orange > 200, "{orange} orange pixels");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Presentation mode's odds, taken by a hook just before each combat's dice, change nothing:
/// the committed game given again order by order with them on rolls the same dice and reaches the
/// same state hash after every order.
#[test]
fn taking_the_odds_before_each_roll_changes_no_die_and_no_state() {
    use hexfront::game::combat_phase::OddsBeforeRoll;
    use hexfront::game::execute::execute;
    use hexfront::game::log::OrderLog;
    let (game, _) = committed();
    let mut app = hexfront::game::save::replay_app(&game, Some(0)).unwrap();
    let world = app.world_mut();
    world.insert_resource(OddsBeforeRoll::default());
    world
        .resource_mut::<hexfront::game::execute::BeforeOrder>()
        .0
        .push(hexfront::game::fight::take_odds_before_roll);
    let mut taken = 0;
    for (i, recorded) in game.log.iter().enumerate() {
        let at = execute(world, recorded.issued()).unwrap_or_else(|r| panic!("entry {}: {r}", i + 1));
        let got = &world.resource::<OrderLog>().entries[at];
        assert_eq!(
            (&got.dice, got.rng, &got.hash),
            (&recorded.dice, recorded.rng, &recorded.hash),
            "entry {}",
            i + 1
        );
        if world.resource_mut::<OddsBeforeRoll>().0.take().is_some() {
            taken += 1;
        }
    }
    assert_eq!(taken, 20, "one set of odds per combat");
}

/// At 16:9 and 1:1 every picture has exactly that shape, the upset's cell is framed (its orange
/// ring drawn in the map's part, left of the overlay) and each turn's picture is framed on the
/// cells where something happened that turn.
#[test]
fn highlights_cropped_on_the_action_keep_their_shape_and_their_combat() {
    use hexfront::art::crop::Aspect;
    use hexfront::art::text::Pen;
    use hexfront::show::highlights::{
        changed_cells, start_units, title_picture, turn_action, turn_frame, turn_picture, upset_picture, upset_split,
    };
    let (game, found) = committed();
    let s = &game.scenario;
    let pen = Pen::new();
    let mut checked = 0;
    for (aspect, (w, h)) in [(Aspect::Wide, (1280, 720)), (Aspect::Square, (1280, 1280))] {
        for (rank, c) in upsets_to_show(&found, 3).into_iter().enumerate() {
            let img = upset_picture(s, c, rank + 1, (w, aspect), &pen);
            assert_eq!((img.width(), img.height()), (w, h));
            // Narrow pictures keep their shape too (the overlay takes at most half).
            let narrow = upset_picture(s, c, rank + 1, (480, aspect), &pen);
            assert_eq!((narrow.width(), narrow.height()), (480, 480 * h / w));
            let map_w = upset_split(w, aspect).0;
            let ring = img
                .enumerate_pixels()
                .filter(|(x, _, p)| *x < map_w && p.0 == [230, 159, 0])
                .count();
            assert!(
                ring > 150,
                "upset {} at {}: {ring} pixels of its ring",
                rank + 1,
                c.target
            );
            checked += 1;
        }
        // From the start, as `write_all` does: turn 1 against the units at the start.
        let mut before = start_units(s);
        let (world_w, world_h) = hexfront::art::picture::world_size(s);
        for end in &found.turn_ends {
            let action = turn_action(s, &before, end);
            if end.over {
                assert!(
                    s.objectives.iter().all(|o| action.contains(&o.cell)),
                    "the end frames the objectives"
                );
            }
            assert!(!action.is_empty(), "turn {}: something happened", end.turn);
            let img = turn_picture(s, end, (w, aspect), &action, &pen);
            assert_eq!((img.width(), img.height()), (w, h), "turn {}", end.turn);
            // The frame holds every cell where something happened, when it fits on the map.
            let frame = turn_frame(s, end, (w, aspect), &action);
            if frame.w < world_w && frame.h < world_h {
                for cell in &action {
                    let (x, y) = hexfront::rules::grid::unit_center(s.board.grid.kind, *cell);
                    let (x, y) = (x + 1.0, y + 1.0);
                    let inside = x >= frame.x && x <= frame.x + frame.w && y >= frame.y && y <= frame.y + frame.h;
                    assert!(inside, "turn {}: {cell} outside {frame:?}", end.turn);
                }
            }
            before = end.units.clone();
            checked += 1;
        }
        let req = Request {
            dir: std::env::temp_dir(),
            width: w,
            upsets: 0,
            aspect,
        };
        let card = title_picture(s, &found, &req, &pen);
        assert_eq!((card.width(), card.height()), (w, h));
        checked += 1;
    }
    assert_eq!(checked, 2 * (3 + 6 + 1));
    // What changed on a board: a move's two cells, a loss's cell, an arrival's.
    let start = &found.turn_ends[0].units;
    let mut moved = start.clone();
    moved[0].cell = hexfront::rules::grid::Cell::new(0, 0);
    moved[1].steps -= 1;
    let cells = changed_cells(start, &moved);
    assert!(cells.contains(&start[0].cell) && cells.contains(&moved[0].cell) && cells.contains(&start[1].cell));
    assert_eq!(cells.len(), 3);
}

/// The theatre lights a combat's result when the entry that resolves it is carried out: the
/// attack's own, or the defender's answer after it (a No Retreat! decision). Each moment names
/// that entry, and carrying out the log one entry at a time resolves each combat exactly there.
#[test]
fn each_combat_is_resolved_by_the_entry_its_moment_names() {
    use bevy::ecs::message::Messages;
    use hexfront::game::combat_phase::CombatResolved;
    use hexfront::game::execute::replay_entry;
    let (game, found) = committed();
    let mut app = hexfront::game::save::replay_app(&game, Some(0)).unwrap();
    let world = app.world_mut();
    let mut resolved = Vec::new();
    for (i, entry) in game.log.iter().enumerate() {
        world.resource_mut::<Messages<CombatResolved>>().clear();
        replay_entry(world, i, entry).unwrap();
        if let Some(c) = world.resource_mut::<Messages<CombatResolved>>().drain().last() {
            resolved.push((i, c.target));
        }
    }
    let named: Vec<_> = found.combats.iter().map(|c| (c.resolved_in, c.target)).collect();
    assert_eq!(named, resolved);
    let answered = found.combats.iter().filter(|c| c.resolved_in > c.entry).count();
    assert!(found.combats.iter().all(|c| c.resolved_in >= c.entry));
    // The committed game has combats resolved by a later answer (the biggest upset among them).
    assert!(answered >= 1, "{answered} answered");
    println!("{} combats, {answered} resolved by a later entry", named.len());
}

/// A Killing Ground defender may take a step instead of retreating: the card lights the bar the
/// dice gave and says what the answer made of it, in words, never the answered result as if the
/// dice had given it. Computer-vs-computer games of Mortain until such answers come.
#[test]
fn a_result_the_defender_answered_is_told_apart_from_what_the_dice_gave() {
    use hexfront::ai::{ComputerPlayer, Profile, side_to_act};
    use hexfront::game::log::OrderLog;
    let scenario = hexfront::scenario::shipped_scenario(0).unwrap();
    let (mut answered, mut combats) = (0, 0);
    for seed in 1..=6 {
        let mut app = hexfront::game::headless_app(&scenario, seed);
        let world = app.world_mut();
        let sides = world.resource::<hexfront::game::components::Sides>().0.len();
        let mut players: Vec<ComputerPlayer> = (0..sides)
            .map(|s| ComputerPlayer::new(s, Profile::standard(), seed))
            .collect();
        for _ in 0..3_000 {
            let Some(side) = side_to_act(world) else { break };
            let Some(order) = players[side].next_order(world) else {
                break;
            };
            if players[side].give(world, order).is_err() {
                break;
            }
        }
        let log = world.resource::<OrderLog>().entries.clone();
        let mut fresh = hexfront::game::headless_app(&scenario, seed);
        let found = moments::find_in(fresh.world_mut(), &log);
        assert_eq!(found.problem, None);
        for c in &found.combats {
            combats += 1;
            let lit: Vec<_> = c.bars.iter().filter(|b| b.happened).collect();
            assert_eq!(lit.len(), 1, "seed {seed}, entry {}: one bar lit", c.entry);
            if let Some(words) = &c.answered {
                answered += 1;
                assert_ne!(words, &lit[0].words, "seed {seed}, entry {}", c.entry);
                assert!(!words.is_empty() && c.resolved_in > c.entry, "{words}");
            }
        }
    }
    println!("{combats} combats, {answered} answered otherwise than the dice gave");
    assert!(combats >= 30 && answered >= 1, "{combats} combats, {answered} answered");
}
