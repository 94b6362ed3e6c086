//! What keeps the window cheap, behind one plugin: the one door to the code that reaches into
//! Bevy's render internals (the first place to look at a Bevy upgrade).
//!
//! The parts, in the order they are added:
//! - `redraw`: the window draws only on input, window events and work in progress; anything that
//!   animates asks for frames with `RequestRedraw`, and a few frames follow every input.
//! - `detail`: from afar the board is one picture baked when the game starts; zoomed in, its
//!   chunk meshes (culled off screen) and the counters' faces.
//! - `view_cache`: once the camera has stood still a few frames, a second camera renders the
//!   board into an image and each frame starts from a copy of it: the terrain's picture (good until
//!   the camera moves) and the whole scene's (good until anything drawn changes, as
//!   `scene_changes` defines it). While the camera pans at one zoom, the terrain is copied
//!   together from tiles (`view_tiles`) and the terrain's last picture instead of drawn.
//! - `egui_shader`: egui's panels drawn with a shader that gives the same 8-bit colours without
//!   pow() per pixel (a software rasterizer pays for every pixel).
//! - `frame_reuse`: a frame that would draw what the last one drew (the same scene picture, gizmos
//!   and egui panels) starts from a copy of the window's last frame; on a software renderer such
//!   copies go unpresented once the window shows one (`frame_reuse::unpresented`).
//!
//! Invariants: a picture is never shown once what it shows has changed (`scene_changes` lists
//! what counts: anything drawn on the board moved, shown, hidden, made or removed, a text, colour,
//! mesh, material or image changed); gizmos and egui are drawn over the pictures every frame a
//! picture is used, and are in the reused frame only when they are the same; a tile is copied only
//! at the zoom it was baked at, and the view's every pixel comes from exactly one piece (else the
//! terrain is drawn live that frame); a still board holds no tiles; a screenshot always
//! gets a presented frame; nothing here changes the game.
//!
//! Switches, to compare or should a driver get a copy wrong: `HEXFRONT_VIEW_PICTURE=off|terrain`
//! (no pictures, or the terrain's only), `HEXFRONT_VIEW_TILES=off` (no tiles while panning),
//! `HEXFRONT_FRAME_REUSE=off|present` (no reused frames, or
//! reused but always presented), `HEXFRONT_EGUI_SHADER=stock` (bevy_egui's own shader).

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        super::redraw::plugin,
        super::detail::plugin,
        super::view_cache::plugin,
        super::egui_shader::plugin,
        super::frame_reuse::plugin,
    ));
}
