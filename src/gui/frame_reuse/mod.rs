//! The window's last finished frame kept as a picture: when a frame would draw exactly what the
//! frames before it drew (the scene's picture, the same gizmos, the same egui panels), it starts
//! from a copy of that frame and draws neither the gizmos nor egui's panels again. Whatever keeps
//! asking for frames while nothing on screen changes (the pointer moving within a cell, a
//! benchmark) then costs a copy and Bevy's last pass instead of every panel's every pixel. On a
//! software renderer, where that last pass alone fills every pixel on the processor, such frames
//! are not presented at all once the window shows one (but for one a second, and the first after
//! a pause).

mod unpresented;

use super::render_layers::render_target_image;
use super::state::BoardCamera;
use super::view_cache::{OwnImages, StartFromPicture, ViewCache};
use crate::game::phase::GameState;
use bevy::camera::visibility::RenderLayers;
use bevy::core_pipeline::Core2d;
use bevy::core_pipeline::upscaling::upscaling;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::gizmos::{GizmoAsset, GizmoHandles, GizmoMeshSystems};
use bevy::platform::hash::FixedHasher;
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::extract_component::{ExtractComponent, ExtractComponentPlugin};
use bevy::render::render_asset::RenderAssets;
use bevy::render::render_resource::Extent3d;
use bevy::render::render_resource::PipelineCache;
use bevy::render::renderer::RenderAdapterInfo;
use bevy::render::renderer::{RenderContext, ViewQuery};
use bevy::render::texture::GpuImage;
use bevy::render::view::ViewTarget;
use bevy_egui::egui;
use bevy_egui::{EguiPostUpdateSet, EguiRenderOutput};
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

/// Frames in a row that must look the same before the finished frame is kept: a board that
/// changes every frame never pays for the copy, an idle one never asks for frames at all.
const SAME_FRAMES_BEFORE_KEEPING: u32 = 4;

/// Copies of the kept frame presented before the window is taken to show it (a frame may fail
/// to be presented).
const PRESENTED_BEFORE_HELD: u32 = 2;

/// In a run of copies the window already shows, one is presented this often all the same: a
/// window uncovered on a desktop that keeps no copy of it (X11 without a compositor) is painted
/// again soon.
const PRESENT_AT_LEAST_EVERY: Duration = Duration::from_secs(1);

/// A frame after a pause this long is presented: it may be the window asking to be painted.
const PAUSE_BEFORE_PRESENTING: Duration = Duration::from_millis(250);

/// On the window's camera: the image its finished frame (before Bevy's last pass) is copied
/// into and the copy's number; and whether the window already shows this frame (then it is not
/// presented).
#[derive(Component, Clone, Default, PartialEq, ExtractComponent)]
pub struct KeepFrame {
    copy_into: Option<(AssetId<Image>, u32)>,
    window_holds_it: bool,
}

/// What the render world did with the main world's requests: the number of the last frame copied,
/// and whether a copy could not be made (another format or size: frames are then always drawn).
#[derive(Resource, Clone, Default)]
struct CopiesMade(Arc<(AtomicU32, AtomicBool)>);

/// Whether egui changes one of its textures this frame. Read between egui's output and the
/// texture updates (bevy_egui empties the delta before `Last`): a texture whose pixels change
/// under the same triangles would otherwise leave a kept frame stale.
#[derive(Resource, Default)]
struct EguiTexturesChanging(bool);

/// The kept frame: its image, and what it showed.
#[derive(Resource, Default)]
struct KeptFrame {
    image: Option<(Handle<Image>, UVec2)>,
    /// What the last frame showed, and for how many frames in a row.
    last: Option<u64>,
    same_for: u32,
    /// What the kept image shows, and the first copy's number made of it.
    kept: Option<(u64, u32)>,
    /// The last copy's number asked for.
    copies: u32,
    /// Frames in a row that were copies of the kept frame.
    reused_for: u32,
    /// How long the window's frames have not been presented.
    unpresented_for: Duration,
}

/// What this frame does with the kept frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameUse {
    /// Drawn as usual.
    Draw,
    /// Drawn as usual, and the finished frame copied (the copy's number).
    DrawAndKeep(u32),
    /// A copy of the kept frame: no gizmos, no panels drawn.
    Reuse,
}

impl KeptFrame {
    /// One frame: `shows` is what it would show (None: something that cannot be compared, such
    /// as a texture egui is changing, or no scene picture on screen); `copied` the last copy's
    /// number the render world made. The render world copies a frame while the main world runs
    /// the next, so a copy is only used once it says it made it.
    fn step(&mut self, shows: Option<u64>, copied: u32) -> FrameUse {
        let frame_use = self.choose(shows, copied);
        self.reused_for = match frame_use {
            FrameUse::Reuse => self.reused_for.saturating_add(1),
            _ => 0,
        };
        frame_use
    }

    /// After `step`: whether this frame goes unpresented, the window already showing it. It is
    /// one of a run of copies of the kept frame long enough for one to have been presented, it
    /// follows the last frame without a pause (a frame after one may be the window asking to be
    /// painted), and a frame was presented less than `PRESENT_AT_LEAST_EVERY` ago.
    fn skips_presenting(&mut self, since_last_frame: Duration) -> bool {
        let unpresented_for = self.unpresented_for + since_last_frame;
        let skip = self.reused_for > PRESENTED_BEFORE_HELD
            && since_last_frame < PAUSE_BEFORE_PRESENTING
            && unpresented_for < PRESENT_AT_LEAST_EVERY;
        self.unpresented_for = if skip { unpresented_for } else { Duration::ZERO };
        skip
    }

    fn choose(&mut self, shows: Option<u64>, copied: u32) -> FrameUse {
        let Some(shows) = shows else {
            self.last = None;
            self.same_for = 0;
            self.kept = None;
            return FrameUse::Draw;
        };
        self.same_for = if self.last == Some(shows) {
            self.same_for.saturating_add(1)
        } else {
            0
        };
        self.last = Some(shows);
        match self.kept {
            Some((kept, first)) if kept == shows && copied >= first => FrameUse::Reuse,
            Some((kept, _)) if kept == shows => self.copy(),
            _ if self.same_for >= SAME_FRAMES_BEFORE_KEEPING => {
                let number = self.copies + 1;
                self.kept = Some((shows, number));
                self.copy()
            }
            _ => {
                self.kept = None;
                FrameUse::Draw
            }
        }
    }

    /// Nothing kept any more (the board left). The copies' numbering goes on: the render world's
    /// count of copies made does not start again.
    fn forget(&mut self) {
        *self = KeptFrame {
            copies: self.copies,
            ..default()
        };
    }

    fn copy(&mut self) -> FrameUse {
        self.copies += 1;
        FrameUse::DrawAndKeep(self.copies)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(ExtractComponentPlugin::<KeepFrame>::default())
        .register_required_components::<BoardCamera, KeepFrame>()
        .init_resource::<KeptFrame>()
        .init_resource::<EguiTexturesChanging>();
    // `HEXFRONT_FRAME_REUSE=off`: every frame drawn (to compare, or should a driver get the copy
    // wrong).
    let switch = std::env::var("HEXFRONT_FRAME_REUSE").unwrap_or_default();
    if switch == "off" {
        return;
    }
    unpresented::plugin(app, switch != "present");
    app.add_systems(
        PostUpdate,
        note_egui_textures
            .after(EguiPostUpdateSet::ProcessOutput)
            .before(EguiPostUpdateSet::PostProcessOutput),
    )
    .add_systems(
        Last,
        // After the frame's gizmos are in their assets; egui's output is read in PostUpdate.
        reuse_frames
            .after(GizmoMeshSystems)
            .run_if(super::board_shown.and_then(resource_exists::<ViewCache>)),
    )
    .add_systems(OnEnter(GameState::NoGame), forget_kept_frame);
    let copies = CopiesMade::default();
    app.insert_resource(copies.clone());
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .insert_resource(copies)
            .add_systems(Core2d, keep_frame.after(bevy_egui::render::egui_pass).before(upscaling));
    }
}

fn note_egui_textures(output: Query<&EguiRenderOutput, With<BoardCamera>>, mut changing: ResMut<EguiTexturesChanging>) {
    changing.0 = output.iter().any(|o| !o.textures_delta.is_empty());
}

/// Leaving the board: nothing kept, no copies asked for (the start screen is not a board).
fn forget_kept_frame(mut kept: ResMut<KeptFrame>, mut own_images: ResMut<OwnImages>, mut keep: Query<&mut KeepFrame>) {
    kept.forget();
    own_images.0.clear();
    for mut keep in &mut keep {
        if *keep != KeepFrame::default() {
            *keep = KeepFrame::default();
        }
    }
}

/// What a frame shows, as one number: the scene's picture (which and which baking of it), the
/// window's size, every gizmo line and every egui triangle. None when egui changes a texture this
/// frame or paints with a callback (neither can be compared).
fn frame_signature<'a>(
    scene: (AssetId<Image>, u32, UVec2),
    egui_output: &EguiRenderOutput,
    gizmos: impl Iterator<Item = Option<&'a GizmoAsset>>,
) -> Option<u64> {
    if !egui_output.textures_delta.is_empty() {
        return None;
    }
    let mut h = FixedHasher.build_hasher();
    scene.hash(&mut h);
    h.write_usize(egui_output.paint_jobs.len());
    for job in &egui_output.paint_jobs {
        let r = job.clip_rect;
        for v in [r.min.x, r.min.y, r.max.x, r.max.y] {
            h.write_u32(v.to_bits());
        }
        let egui::epaint::Primitive::Mesh(mesh) = &job.primitive else {
            return None;
        };
        mesh.texture_id.hash(&mut h);
        h.write_usize(mesh.indices.len());
        for i in &mesh.indices {
            h.write_u32(*i);
        }
        h.write_usize(mesh.vertices.len());
        for v in &mesh.vertices {
            for f in [v.pos.x, v.pos.y, v.uv.x, v.uv.y] {
                h.write_u32(f.to_bits());
            }
            h.write(&v.color.to_array());
        }
    }
    for gizmo in gizmos {
        let Some(gizmo) = gizmo else {
            h.write_u8(0);
            continue;
        };
        let b = gizmo.buffer();
        for (positions, colors) in [
            (&b.list_positions, &b.list_colors),
            (&b.strip_positions, &b.strip_colors),
        ] {
            h.write_usize(positions.len());
            for p in positions {
                for f in p.to_array() {
                    h.write_u32(f.to_bits());
                }
            }
            for c in colors {
                for f in c.to_f32_array() {
                    h.write_u32(f.to_bits());
                }
            }
        }
    }
    Some(h.finish())
}

/// Main world, last of the frame: whether this frame is drawn, drawn and kept, or a copy.
fn reuse_frames(
    cache: Res<ViewCache>,
    mut kept: ResMut<KeptFrame>,
    mut images: ResMut<Assets<Image>>,
    mut own_images: ResMut<OwnImages>,
    gizmo_handles: Option<Res<GizmoHandles>>,
    gizmo_assets: Option<Res<Assets<GizmoAsset>>>,
    gizmo_configs: Option<Res<GizmoConfigStore>>,
    copies: Res<CopiesMade>,
    egui_textures: Res<EguiTexturesChanging>,
    skip_presenting: Res<unpresented::SkipPresenting>,
    adapter: Option<Res<RenderAdapterInfo>>,
    time: Res<Time<Real>>,
    mut window_camera: Query<
        (
            &mut EguiRenderOutput,
            &mut StartFromPicture,
            &mut RenderLayers,
            &mut KeepFrame,
        ),
        With<BoardCamera>,
    >,
) {
    let Ok((mut egui_output, mut start, mut layers, mut keep)) = window_camera.single_mut() else {
        return;
    };
    // Only over the scene's picture: with anything drawn live the frame is never the same twice
    // for certain.
    let scene = cache
        .scene_shown()
        .filter(|(id, ..)| start.picture() == Some(*id) && !copies.0.1.load(Ordering::Relaxed));
    let configs_changed = gizmo_configs.is_some_and(|c| c.is_changed());
    let shows = scene
        .filter(|_| !configs_changed && !egui_textures.0)
        .and_then(|scene| {
            let mut handles: Vec<_> = gizmo_handles
                .iter()
                .flat_map(|h| h.handles().iter())
                .map(|(ty, handle)| (*ty, handle.as_ref().map(Handle::id)))
                .collect();
            handles.sort_by_key(|(ty, _)| *ty);
            let gizmos = handles
                .into_iter()
                .map(|(_, id)| id.and_then(|id| gizmo_assets.as_ref().and_then(|a| a.get(id))));
            frame_signature(scene, &egui_output, gizmos)
        });
    let wanted = match kept.step(shows, copies.0.0.load(Ordering::Acquire)) {
        FrameUse::Draw => None,
        FrameUse::DrawAndKeep(number) => {
            let pixels = scene.map_or(UVec2::ONE, |(_, _, p)| p);
            if kept.image.as_ref().is_none_or(|(_, p)| *p != pixels) {
                let image = images.add(render_target_image(pixels));
                // Its making is no change of the scene.
                own_images.0 = vec![image.id()];
                kept.image = Some((image, pixels));
            }
            kept.image.as_ref().map(|(h, _)| (h.id(), number))
        }
        FrameUse::Reuse => {
            if let Some((image, _)) = &kept.image {
                start.set_picture(Some(image.id()));
                let none = RenderLayers::none();
                if *layers != none {
                    *layers = none;
                }
                egui_output.paint_jobs.clear();
            }
            None
        }
    };
    // (A frame with a screenshot asked for is presented all the same: `unpresented.rs` sees it in the
    // render world, whatever system asked for it.)
    let may_skip = skip_presenting.0 && adapter.is_some_and(|a| super::state::software_renderer(&a));
    let wanted = KeepFrame {
        copy_into: wanted,
        window_holds_it: may_skip && kept.skips_presenting(time.delta()),
    };
    if *keep != wanted {
        *keep = wanted;
    }
}

/// Render world, after egui's panels and before Bevy's last pass: the finished frame copied into
/// the kept image when the main world asked for it.
fn keep_frame(
    view: ViewQuery<(&ViewTarget, &KeepFrame)>,
    images: Res<RenderAssets<GpuImage>>,
    copies: Res<CopiesMade>,
    pipelines: Res<PipelineCache>,
    mut ctx: RenderContext,
) {
    let (target, keep) = view.into_inner();
    let Some((id, number)) = keep.copy_into else { return };
    // A pipeline still compiling means something was left out of this frame (Bevy skips its
    // draws): not a frame to keep.
    if pipelines.waiting_pipelines().next().is_some() {
        return;
    }
    // A new image reaches the render world a frame after it is made: the next copy is asked for.
    let Some(to) = images.get(id).map(|p| &p.texture) else {
        return;
    };
    let from = target.main_texture();
    if to.format() != from.format() {
        if !copies.0.1.swap(true, Ordering::Relaxed) {
            warn!("the window's finished frame could not be kept: every frame is drawn");
        }
        return;
    }
    // A window resized since the image was made: the next frame shows something else anyway.
    if to.size() != from.size() {
        return;
    }
    let size = Extent3d {
        width: from.width(),
        height: from.height(),
        depth_or_array_layers: 1,
    };
    ctx.command_encoder()
        .copy_texture_to_texture(from.as_image_copy(), to.as_image_copy(), size);
    copies.0.0.fetch_max(number, Ordering::Release);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(x: f32) -> EguiRenderOutput {
        let mut mesh = egui::Mesh::default();
        mesh.add_colored_rect(
            egui::Rect::from_min_size(egui::pos2(x, 0.0), egui::vec2(10.0, 10.0)),
            egui::Color32::RED,
        );
        EguiRenderOutput {
            paint_jobs: vec![egui::ClippedPrimitive {
                clip_rect: egui::Rect::EVERYTHING,
                primitive: egui::epaint::Primitive::Mesh(mesh),
            }],
            textures_delta: default(),
        }
    }

    fn scene() -> (AssetId<Image>, u32, UVec2) {
        (AssetId::default(), 1, UVec2::new(1600, 1000))
    }

    #[test]
    fn a_frame_is_kept_after_five_alike_and_reused_once_copied_until_anything_changes() {
        use FrameUse::*;
        let mut kept = KeptFrame::default();
        let a = frame_signature(scene(), &output(0.0), std::iter::empty());
        let first: Vec<FrameUse> = (0..5).map(|_| kept.step(a, 0)).collect();
        assert_eq!(first, [Draw, Draw, Draw, Draw, DrawAndKeep(1)]);
        // Copy 1 not made yet (the render world is a frame behind, or the image was new): asked again.
        assert_eq!(kept.step(a, 0), DrawAndKeep(2));
        assert_eq!(kept.step(a, 1), Reuse);
        assert_eq!(kept.step(a, 2), Reuse);
        // A panel moved by a pixel: drawn again, and kept again once it stands still; copies of
        // the frame before are not used for it.
        let b = frame_signature(scene(), &output(1.0), std::iter::empty());
        assert_ne!(a, b);
        let first: Vec<FrameUse> = (0..5).map(|_| kept.step(b, 2)).collect();
        assert_eq!(first, [Draw, Draw, Draw, Draw, DrawAndKeep(3)]);
        assert_eq!(kept.step(b, 2), DrawAndKeep(4));
        assert_eq!(kept.step(b, 3), Reuse);
        // The board left and came back: no copy made before counts for the new one.
        kept.forget();
        let first: Vec<FrameUse> = (0..5).map(|_| kept.step(b, 4)).collect();
        assert_eq!(first, [Draw, Draw, Draw, Draw, DrawAndKeep(5)]);
        assert_eq!(kept.step(b, 4), DrawAndKeep(6));
        assert_eq!(kept.step(b, 5), Reuse);
        // Nothing comparable (egui changing a texture): drawn, and the kept frame forgotten.
        assert_eq!(kept.step(None, 6), Draw);
        assert_eq!(kept.step(b, 6), Draw);
    }

    #[test]
    fn a_run_of_copies_goes_unpresented_but_for_one_a_second_after_a_pause_or_a_drawn_frame() {
        use FrameUse::*;
        let ms = Duration::from_millis;
        let mut kept = KeptFrame::default();
        let a = frame_signature(scene(), &output(0.0), std::iter::empty());
        let frame = |kept: &mut KeptFrame, shows, since| (kept.step(shows, 1), kept.skips_presenting(since));
        let first: Vec<_> = (0..5).map(|_| frame(&mut kept, a, ms(10))).collect();
        assert!(first.iter().all(|(_, skip)| !skip), "{first:?}");
        // The first copies are presented, then the window shows the kept frame.
        let copies: Vec<_> = (0..PRESENTED_BEFORE_HELD + 1)
            .map(|_| frame(&mut kept, a, ms(10)))
            .collect();
        assert!(copies.iter().all(|(used, _)| *used == Reuse), "{copies:?}");
        assert!(copies[..PRESENTED_BEFORE_HELD as usize].iter().all(|(_, skip)| !skip));
        assert_eq!(copies.last(), Some(&(Reuse, true)));
        // Ten seconds of frames 10 ms apart: one presented a second.
        let presented = (0..1000).filter(|_| !frame(&mut kept, a, ms(10)).1).count();
        assert_eq!(presented, 10);
        // A frame after a pause is presented (it may be the window asking to be painted).
        assert_eq!(frame(&mut kept, a, ms(300)), (Reuse, false));
        assert_eq!(frame(&mut kept, a, ms(10)), (Reuse, true));
        // Anything else drawn, and the copies start again from the first.
        let b = frame_signature(scene(), &output(1.0), std::iter::empty());
        assert_eq!(frame(&mut kept, b, ms(10)), (Draw, false));
        assert_eq!(frame(&mut kept, a, ms(10)), (Draw, false));
    }

    #[test]
    fn what_a_frame_shows_changes_with_the_scene_picture_its_baking_the_gizmos_and_egui() {
        let base = frame_signature(scene(), &output(0.0), std::iter::empty());
        assert_eq!(base, frame_signature(scene(), &output(0.0), std::iter::empty()));
        let (id, bakes, pixels) = scene();
        assert_ne!(
            base,
            frame_signature((id, bakes + 1, pixels), &output(0.0), std::iter::empty())
        );
        assert_ne!(
            base,
            frame_signature((id, bakes, pixels + 1), &output(0.0), std::iter::empty())
        );
        let mut gizmo = GizmoAsset::new();
        gizmo.line(Vec3::ZERO, Vec3::X, Color::WHITE);
        let with_line = frame_signature(scene(), &output(0.0), [Some(&gizmo)].into_iter());
        assert_ne!(base, with_line);
        let mut moved = GizmoAsset::new();
        moved.line(Vec3::ZERO, Vec3::Y, Color::WHITE);
        assert_ne!(
            with_line,
            frame_signature(scene(), &output(0.0), [Some(&moved)].into_iter())
        );
        let mut recoloured = GizmoAsset::new();
        recoloured.line(Vec3::ZERO, Vec3::X, Color::BLACK);
        assert_ne!(
            with_line,
            frame_signature(scene(), &output(0.0), [Some(&recoloured)].into_iter())
        );
        let mut changing_texture = output(0.0);
        changing_texture.textures_delta.free.insert(egui::TextureId::Managed(1));
        assert_eq!(frame_signature(scene(), &changing_texture, std::iter::empty()), None);
        // (egui insists that a delta is applied before it is dropped.)
        changing_texture.textures_delta.clear();
    }
}
