//! The director of presentation mode, as pure functions of the frame's layout: where the camera
//! stands to show a combat's cells clear of the odds overlay and the lower third, the whole map
//! centred in the frame, the camera's move between two shots, and the hold that keeps a combat's
//! order from changing the board until the camera is there and the dice have tumbled (so the
//! board never spoils the result). The client's presentation mode, showcase and replay theatre
//! and the tests use the same.

use crate::game::combat_phase::PlannedCombat;
use crate::rules::grid::{Cell, GridKind};
use bevy::math::{Rect, Vec2};

pub use crate::art::{HEX_SIZE, SQUARE_SIDE, cell_center, cell_side};

/// Every cell a planned combat involves: the attackers', the defenders' and the target.
pub fn combat_cells(planned: &PlannedCombat) -> Vec<Cell> {
    let mut cells = planned.attacker_cells.clone();
    cells.extend(&planned.defender_cells);
    cells.push(planned.order.target);
    cells
}

/// The frame in logical pixels (origin top left, y down) and what covers it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screen {
    pub size: Vec2,
    /// Width of the odds overlay's column on the right (0 when it is not shown).
    pub overlay: f32,
    /// Height of the lower third (and the theatre's timeline over it) at the bottom.
    pub lower_third: f32,
}

/// The lower third's share of the frame's height.
pub const LOWER_THIRD: f32 = 0.1;
/// The odds overlay's width at a UI scale of 1, with its margins.
pub const OVERLAY_WIDTH: f32 = 470.0;
/// A cell this many pixels across (at 1080 lines) reads on a phone: a combat is shown at least
/// this close when it fits.
pub const READABLE_CELL_PX: f32 = 120.0;

/// The UI scale in presentation mode for a frame `height` pixels high: at least what makes type
/// readable on a phone watching the stream (1.71 at 1080 lines, 1.14 at 720), or the setting's.
pub fn ui_zoom(height: f32, ui_scale: f32) -> f32 {
    ui_scale.max(height / 630.0)
}

/// The presentation frame of `size` logical pixels: the lower third (with `extra_bottom` more at
/// a UI scale of 1, the theatre's timeline) and, when `overlay` shows, the odds column.
pub fn presentation_screen(size: Vec2, ui_scale: f32, overlay: bool, extra_bottom: f32) -> Screen {
    let zoom = ui_zoom(size.y, ui_scale);
    Screen {
        size,
        overlay: if overlay { OVERLAY_WIDTH * zoom } else { 0.0 },
        lower_third: size.y * LOWER_THIRD + extra_bottom * zoom,
    }
}

/// The scale at which a cell of a `kind` grid is `READABLE_CELL_PX` across in a frame `height`
/// pixels high (scaled from 1080 lines): a hex two of its sides across, a square one.
pub fn readable_scale(kind: GridKind, height: f32) -> f32 {
    let across = match kind {
        GridKind::Hex { .. } => 2.0 * cell_side(kind),
        GridKind::Square { .. } => cell_side(kind),
    };
    across / (READABLE_CELL_PX * height / 1080.0)
}

/// Pixels kept between the framed cells and the free rectangle's edges.
pub const MARGIN_PX: f32 = 24.0;

impl Screen {
    /// The part of the frame nothing covers: left of the overlay, above the lower third.
    pub fn free(&self) -> Rect {
        Rect::new(
            0.0,
            0.0,
            (self.size.x - self.overlay).max(1.0),
            (self.size.y - self.lower_third).max(1.0),
        )
    }
}

/// Where the board camera stands: the world point at the frame's centre (world y up), and world
/// units per logical pixel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    pub center: Vec2,
    pub scale: f32,
}

impl Shot {
    /// Where the world point `p` shows in the frame, in logical pixels.
    pub fn to_screen(&self, screen: &Screen, p: Vec2) -> Vec2 {
        let d = (p - self.center) / self.scale;
        Vec2::new(screen.size.x / 2.0 + d.x, screen.size.y / 2.0 - d.y)
    }

    /// The frame rectangle a world rectangle shows in.
    pub fn rect_to_screen(&self, screen: &Screen, r: Rect) -> Rect {
        Rect::from_corners(self.to_screen(screen, r.min), self.to_screen(screen, r.max))
    }
}

/// The scales the camera keeps to (world units per pixel).
pub const MIN_SCALE: f32 = 0.15;
pub const MAX_SCALE: f32 = 6.0;

/// The world rectangle a combat's cells take: every centre with `radius` around it.
pub fn cells_rect(centers: &[Vec2], radius: f32) -> Option<Rect> {
    let first = *centers.first()?;
    let r = centers
        .iter()
        .fold(Rect::from_center_size(first, Vec2::ZERO), |r, p| r.union_point(*p));
    Some(r.inflate(radius))
}

/// The shot showing `cells` (a world rectangle) inside the free part of `screen` with a margin,
/// as close as `readable` (a scale at which counters read on a phone) and never farther than
/// needed; `now` is kept when it already shows them at least that close.
pub fn frame_cells(cells: Rect, screen: &Screen, readable: f32, now: Shot) -> Shot {
    let free = screen.free().inflate(-MARGIN_PX);
    let free_size = free.size().max(Vec2::splat(1.0));
    let needed = (cells.width() / free_size.x).max(cells.height() / free_size.y);
    let scale = readable.min(now.scale).max(needed).clamp(MIN_SCALE, MAX_SCALE);
    // Kept when it already shows them close enough, clear of the margin too.
    let padded = Screen {
        size: screen.size,
        overlay: screen.overlay + MARGIN_PX,
        lower_third: screen.lower_third + MARGIN_PX,
    };
    if now.scale <= scale * 1.05 && shows(&now, &padded, cells.inflate(MARGIN_PX * now.scale)) {
        return now;
    }
    centred(cells.center(), free.center(), screen, scale)
}

/// The whole map, `bounds` in world units, as large as it fits in the free part of `screen`,
/// centred there.
pub fn fit_whole(bounds: Rect, screen: &Screen) -> Shot {
    let free = screen.free();
    let size = bounds.size() * 1.02;
    let scale = (size.x / free.width().max(1.0))
        .max(size.y / free.height().max(1.0))
        .clamp(MIN_SCALE, MAX_SCALE);
    centred(bounds.center(), free.center(), screen, scale)
}

/// Between combats: a shot halfway (in proportion) between the whole map and a readable cell,
/// with `around` (the last combat's cell) in the middle of the free part, moved only as far as
/// keeps the free part on the map; the whole map when that is hardly farther out.
pub fn medium_shot(around: Vec2, bounds: Rect, screen: &Screen, readable: f32) -> Shot {
    let whole = fit_whole(bounds, screen);
    let scale = (whole.scale * readable).sqrt().clamp(MIN_SCALE, MAX_SCALE);
    if whole.scale < scale * 1.25 {
        return whole;
    }
    let free = screen.free();
    let half = free.size() * scale / 2.0;
    let keep = |v: f32, lo: f32, hi: f32, half: f32| {
        if hi - lo <= 2.0 * half {
            (lo + hi) / 2.0
        } else {
            v.clamp(lo + half, hi - half)
        }
    };
    let middle = Vec2::new(
        keep(around.x, bounds.min.x, bounds.max.x, half.x),
        keep(around.y, bounds.min.y, bounds.max.y, half.y),
    );
    centred(middle, free.center(), screen, scale)
}

/// The shot at `scale` with world point `world` at frame point `at`.
fn centred(world: Vec2, at: Vec2, screen: &Screen, scale: f32) -> Shot {
    let off = at - screen.size / 2.0;
    Shot {
        center: world - Vec2::new(off.x, -off.y) * scale,
        scale,
    }
}

/// Whether `shot` shows the world rectangle `cells` wholly inside the free part of `screen`.
pub fn shows(shot: &Shot, screen: &Screen, cells: Rect) -> bool {
    let on = shot.rect_to_screen(screen, cells);
    let free = screen.free();
    on.min.x >= free.min.x - 0.5
        && on.min.y >= free.min.y - 0.5
        && on.max.x <= free.max.x + 0.5
        && on.max.y <= free.max.y + 0.5
}

/// The camera's move from one shot to another over `secs`, eased at both ends; the scale changes
/// evenly in proportion (a zoom feels steady), and it is exactly at `to` once the time is up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    pub from: Shot,
    pub to: Shot,
    pub started: f64,
    pub secs: f64,
}

/// Seconds the camera takes to a combat (the dice tumble at least this long in presentation
/// mode, so it is there before the result).
pub const MOVE_SECS: f64 = 0.7;

impl Move {
    pub fn at(&self, now: f64) -> Shot {
        let t = if self.secs <= 0.0 {
            1.0
        } else {
            ((now - self.started) / self.secs).clamp(0.0, 1.0) as f32
        };
        let e = t * t * (3.0 - 2.0 * t);
        let scale = (self.from.scale.ln() + (self.to.scale.ln() - self.from.scale.ln()) * e).exp();
        // The centre moves evenly while the scale changes in proportion; both arrive together.
        Shot {
            center: self.from.center.lerp(self.to.center, e),
            scale: if t >= 1.0 { self.to.scale } else { scale },
        }
    }

    pub fn done(&self, now: f64) -> bool {
        now - self.started >= self.secs
    }
}

/// A combat about to be rolled: its cells' world rectangle and the cell fought over.
#[derive(Clone, Debug, PartialEq)]
pub struct Combat {
    pub cells: Rect,
    pub target: String,
}

/// What the director logs for a combat when its result shows: the framed cells and the free
/// rectangle, in frame pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct Framed {
    pub target: String,
    pub cells: Rect,
    pub free: Rect,
}

impl Framed {
    pub fn inside(&self) -> bool {
        let (c, f) = (self.cells, self.free);
        c.min.x >= f.min.x - 0.5 && c.min.y >= f.min.y - 0.5 && c.max.x <= f.max.x + 0.5 && c.max.y <= f.max.y + 0.5
    }

    pub fn line(&self) -> String {
        let r = |r: Rect| format!("({:.0},{:.0})–({:.0},{:.0})", r.min.x, r.min.y, r.max.x, r.max.y);
        format!(
            "director: combat at {}: cells {} in free {}{}",
            self.target,
            r(self.cells),
            r(self.free),
            if self.inside() { "" } else { " — OUTSIDE" }
        )
    }
}

/// What to do with an order that rolls a combat's dice.
#[derive(Clone, Debug, PartialEq)]
pub enum Cue {
    /// Not yet: the camera is on its way or the dice are tumbling. Ask again next frame.
    Hold,
    /// Carry it out now: the result shows in this frame.
    Roll(Framed),
}

/// The hold before a combat's dice: started by the first ask, released once the camera has
/// arrived and the tumble is over.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Director {
    pub holding: Option<Holding>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Holding {
    pub combat: Combat,
    pub started: f64,
    pub until: f64,
    pub camera: Move,
}

impl Director {
    /// Asked before a combat's order each frame: the first ask frames the combat (the camera moves
    /// from `now_shot`) and holds for the tumble (`tumble_secs`, at least the camera's move);
    /// the ask at or after that time rolls. A different combat asked meanwhile starts afresh.
    pub fn cue(
        &mut self,
        combat: Combat,
        screen: &Screen,
        readable: f32,
        now_shot: Shot,
        now: f64,
        tumble_secs: f64,
    ) -> Cue {
        match &self.holding {
            Some(h) if h.combat == combat && now >= h.until => {
                let h = self.holding.take().expect("held");
                let shot = h.camera.at(now);
                Cue::Roll(Framed {
                    target: h.combat.target.clone(),
                    cells: shot.rect_to_screen(screen, h.combat.cells),
                    free: screen.free(),
                })
            }
            Some(h) if h.combat == combat => Cue::Hold,
            _ => {
                let to = frame_cells(combat.cells, screen, readable, now_shot);
                let camera = Move {
                    from: now_shot,
                    to,
                    started: now,
                    secs: if to == now_shot { 0.0 } else { MOVE_SECS },
                };
                self.holding = Some(Holding {
                    until: now + tumble_secs.max(camera.secs),
                    started: now,
                    combat,
                    camera,
                });
                Cue::Hold
            }
        }
    }

    /// Where the camera is while a combat is held, if one is.
    pub fn camera(&self, now: f64) -> Option<Shot> {
        self.holding.as_ref().map(|h| h.camera.at(now))
    }

    /// When the held combat's dice started to tumble.
    pub fn tumbling_since(&self) -> Option<f64> {
        self.holding.as_ref().map(|h| h.started)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hd() -> Screen {
        Screen {
            size: Vec2::new(1920.0, 1080.0),
            overlay: 800.0,
            lower_third: 108.0,
        }
    }

    #[test]
    fn a_combat_far_off_frame_is_brought_into_the_free_rectangle() {
        let screen = hd();
        let now = Shot {
            center: Vec2::ZERO,
            scale: 2.0,
        };
        let cells = Rect::new(3000.0, -900.0, 3200.0, -760.0);
        assert!(!shows(&now, &screen, cells));
        let shot = frame_cells(cells, &screen, 0.6, now);
        assert!(shows(&shot, &screen, cells), "{shot:?}");
        assert_eq!(shot.scale, 0.6, "zoomed in to read");
        // The free rectangle's centre holds the cells' centre.
        let at = shot.to_screen(&screen, cells.center());
        assert!(
            (at - screen.free().inflate(-MARGIN_PX).center()).length() < 0.01,
            "{at}"
        );
    }

    #[test]
    fn a_combat_too_wide_to_read_is_shown_whole_not_cropped() {
        let screen = hd();
        let now = Shot {
            center: Vec2::ZERO,
            scale: 3.0,
        };
        let cells = Rect::new(0.0, 0.0, 2000.0, 300.0);
        let shot = frame_cells(cells, &screen, 0.5, now);
        assert!(shows(&shot, &screen, cells));
        assert!(shot.scale > 0.5 && shot.scale < 3.0, "{shot:?}");
    }

    #[test]
    fn the_whole_map_is_centred_in_the_frame_above_the_lower_third() {
        for size in [
            Vec2::new(1920.0, 1080.0),
            Vec2::new(1920.0, 1200.0),
            Vec2::new(1280.0, 720.0),
        ] {
            let screen = Screen {
                size,
                overlay: 0.0,
                lower_third: size.y * 0.1,
            };
            let bounds = Rect::new(-40.0, -1200.0, 1400.0, 40.0);
            let shot = fit_whole(bounds, &screen);
            assert!(shows(&shot, &screen, bounds), "{size}");
            let on = shot.rect_to_screen(&screen, bounds);
            let free = screen.free();
            // Equal room left and right, and above and below.
            assert!(
                ((on.min.x - free.min.x) - (free.max.x - on.max.x)).abs() < 0.5,
                "{on:?} {free:?}"
            );
            assert!(
                ((on.min.y - free.min.y) - (free.max.y - on.max.y)).abs() < 0.5,
                "{on:?} {free:?}"
            );
            // It fills one direction.
            assert!(on.width() > free.width() * 0.95 || on.height() > free.height() * 0.95);
        }
    }

    #[test]
    fn between_combats_the_camera_stands_closer_than_the_whole_map_and_on_it() {
        let screen = Screen { overlay: 0.0, ..hd() };
        let bounds = Rect::new(-40.0, -1200.0, 2400.0, 40.0);
        let whole = fit_whole(bounds, &screen);
        let readable = 0.7;
        let mut checked = 0;
        for x in (-40..=2400).step_by(122) {
            for y in (-1200..=40).step_by(62) {
                let around = Vec2::new(x as f32, y as f32);
                let shot = medium_shot(around, bounds, &screen, readable);
                assert!(shot.scale < whole.scale && shot.scale > readable, "{shot:?}");
                assert!((shot.scale - (whole.scale * readable).sqrt()).abs() < 1e-4);
                // The free part shows only map, and the combat's cell is in it.
                let seen = Rect::from_corners(
                    shot.center - screen.size * shot.scale / 2.0,
                    shot.center + screen.size * shot.scale / 2.0,
                );
                let free_seen = Rect {
                    min: Vec2::new(seen.min.x, seen.min.y + screen.lower_third * shot.scale),
                    max: seen.max,
                };
                assert!(bounds.inflate(0.01).contains(free_seen.min) && bounds.inflate(0.01).contains(free_seen.max));
                assert!(
                    shows(&shot, &screen, Rect::from_center_size(around, Vec2::splat(0.1))),
                    "{around}"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 21 * 21);
        // Away from the edges, the cell is in the middle of the free part.
        let middle = Vec2::new(1200.0, -600.0);
        let shot = medium_shot(middle, bounds, &screen, readable);
        assert!((shot.to_screen(&screen, middle) - screen.free().center()).length() < 0.01);
        // A map that hardly needs zooming out is shown whole.
        let small = Rect::new(0.0, 0.0, 600.0, 300.0);
        let whole = fit_whole(small, &screen);
        assert_eq!(medium_shot(Vec2::ZERO, small, &screen, whole.scale * 0.9), whole);
    }

    #[test]
    fn a_move_ends_exactly_on_its_shot_and_eases_between() {
        let from = Shot {
            center: Vec2::ZERO,
            scale: 4.0,
        };
        let to = Shot {
            center: Vec2::new(100.0, 50.0),
            scale: 1.0,
        };
        let m = Move {
            from,
            to,
            started: 10.0,
            secs: 0.7,
        };
        assert_eq!(m.at(10.0), from);
        assert_eq!(m.at(10.7), to);
        assert_eq!(m.at(99.0), to);
        let mid = m.at(10.35);
        assert!((mid.scale - 2.0).abs() < 1e-3, "geometric middle of 4 and 1: {mid:?}");
        assert!((mid.center - Vec2::new(50.0, 25.0)).length() < 1e-3);
    }

    #[test]
    fn the_director_holds_a_combat_until_camera_and_dice_are_done() {
        let screen = hd();
        let mut d = Director::default();
        let combat = Combat {
            cells: Rect::new(3000.0, -900.0, 3200.0, -760.0),
            target: "0708".into(),
        };
        let shot = Shot {
            center: Vec2::ZERO,
            scale: 2.0,
        };
        let mut holds = 0;
        let mut now = 5.0;
        let framed = loop {
            let cam = d.camera(now).unwrap_or(shot);
            match d.cue(combat.clone(), &screen, 0.6, cam, now, 0.3) {
                Cue::Hold => holds += 1,
                Cue::Roll(f) => break f,
            }
            now += 1.0 / 60.0;
        };
        // The camera's move (0.7 s) is longer than the tumble asked: 42 frames held.
        assert!((42..=43).contains(&holds), "{holds}");
        assert!(framed.inside(), "{}", framed.line());
        assert!(d.holding.is_none());
    }
}
