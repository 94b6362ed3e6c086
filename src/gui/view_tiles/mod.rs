//! The moving view's tiles: while the camera pans at one zoom, each frame's terrain is put
//! together from copies of square pictures of it (tiles, `TILE` pixels a side, cut on one grid
//! at that zoom) and of the still view's picture where that still covers, instead of the
//! terrain's meshes being drawn again. A tile the view needs at once is baked in the frame that
//! needs it; the tiles around the view are baked ahead, nearest the way it moves first, two a
//! frame; a zoom starts a new grid; a view at rest lets them all go. (On a software renderer
//! every pixel of every triangle costs; a copy is a plain memory copy.) `grid.rs` holds the
//! geometry, pure; this file the tiles' images and the cameras that bake them.

mod grid;

use bevy::camera::visibility::RenderLayers;
use bevy::camera::{ImageRenderTarget, RenderTarget, ScalingMode};
use bevy::ecs::query::QueryFilter;
use bevy::math::IRect;
use bevy::prelude::*;
pub use grid::PieceCopy;
use grid::{TILE, TileGrid, assemble, near, wanted_ahead};
use std::collections::HashMap;

/// Cameras that bake tiles: at most this many tiles are baked in one frame.
const BAKERS: usize = 8;
/// Tiles baked ahead of the view in one frame, besides those it needs at once.
const AHEAD_PER_FRAME: usize = 2;
/// Frames drawn after the tiles are let go, for the renderer to free them.
const SETTLING_FRAMES: u32 = 4;
/// Images kept ready for tiles (an image made this frame can be drawn into only from the next).
const SPARE_IMAGES: usize = 12;

/// A baker's projection: a tile's world size on its image.
fn tile_projection(side: Vec2) -> Projection {
    Projection::Orthographic(OrthographicProjection {
        scaling_mode: ScalingMode::Fixed {
            width: side.x,
            height: side.y,
        },
        ..OrthographicProjection::default_2d()
    })
}

/// The view this frame as the tiles see it.
#[derive(Clone, Copy, Debug)]
pub struct TileView {
    pub centre: Vec2,
    pub area: Vec2,
    pub pixels: UVec2,
    pub scale_factor: f32,
}

impl TileView {
    /// The world point at the view's top-left corner.
    fn corner(&self) -> Vec2 {
        self.centre + Vec2::new(-self.area.x, self.area.y) / 2.0
    }

    fn per_unit(&self) -> f32 {
        self.pixels.x as f32 / self.area.x.max(1e-6)
    }
}

/// The moving view's tiles and the cameras that bake them.
pub struct ViewTiles {
    grid: Option<TileGrid>,
    scale_factor: f32,
    tiles: HashMap<IVec2, Handle<Image>>,
    spare: Vec<Handle<Image>>,
    /// Images made lately, and frames since: spare once the renderer has them.
    fresh: Vec<(Handle<Image>, u8)>,
    bakers: Vec<Entity>,
    /// Frames since the bakers were aimed at this grid's zoom (they bake from the second).
    bakers_aimed: u32,
    last_centre: Option<Vec2>,
    /// Tiles baked, and frames whose terrain was put together from tiles, since the board opened.
    pub baked: u64,
    pub frames_from_tiles: u64,
    /// What the bakers see.
    layers: RenderLayers,
    /// Frames still to draw after letting go, for the renderer to free what was let go.
    settling: u32,
    /// `HEXFRONT_VIEW_TILES=off`: no tiles (to compare with, or should a driver get them wrong).
    off: bool,
}

/// A camera that bakes tiles.
#[derive(Component)]
pub struct TileBaker;

/// The bakers' parts this module sets.
pub type BakerParts<'a> = (
    &'a mut Camera,
    &'a mut RenderTarget,
    &'a mut Transform,
    &'a mut GlobalTransform,
    &'a mut Projection,
);

impl ViewTiles {
    /// Tiles of the terrain on `layers`, baked by cameras made when a move needs them.
    pub fn new(layers: RenderLayers) -> Self {
        Self {
            grid: None,
            scale_factor: 1.0,
            tiles: HashMap::new(),
            spare: Vec::new(),
            fresh: Vec::new(),
            bakers: Vec::new(),
            bakers_aimed: 0,
            last_centre: None,
            baked: 0,
            frames_from_tiles: 0,
            layers,
            settling: 0,
            off: std::env::var("HEXFRONT_VIEW_TILES").as_deref() == Ok("off"),
        }
    }

    /// The bakers: cameras rendering the terrain's layers into tiles at the grid's zoom, ordered
    /// before every other camera; and images for them to draw into.
    fn spawn_bakers(&mut self, commands: &mut Commands, images: &mut Assets<Image>) {
        let side = self.grid.map_or(Vec2::ONE, |g| g.tile_world(IVec2::ZERO).1);
        self.make_spare_images(images);
        // Aimed at a tile's image from the start: every tile's is the same size, so the target's
        // size Bevy works out for a camera is right from its first frame of baking.
        let Some((first, _)) = self.fresh.first() else { return };
        let target = RenderTarget::Image(ImageRenderTarget {
            handle: first.clone(),
            scale_factor: self.scale_factor,
        });
        for i in 0..BAKERS {
            let id = commands
                .spawn((
                    Camera2d,
                    Camera {
                        order: -20 + i as isize,
                        is_active: false,
                        ..default()
                    },
                    target.clone(),
                    tile_projection(side),
                    self.layers.clone(),
                    Msaa::Off,
                    TileBaker,
                ))
                .id();
            self.bakers.push(id);
        }
        // Aimed from the next frame on, once Bevy has worked out their projections.
        self.bakers_aimed = 0;
    }

    /// Whether a frame is wanted for what was let go to be freed (images are freed by the
    /// renderer a frame or two after their last handle goes, and a still window draws none).
    pub fn settling(&mut self) -> bool {
        self.settling = self.settling.saturating_sub(1);
        self.settling > 0
    }

    /// The bakers' cameras, to despawn with the board.
    pub fn bakers(&self) -> &[Entity] {
        &self.bakers
    }

    /// Every tile gone (the terrain or the background changed): they are baked again as needed.
    pub fn forget(&mut self) {
        let tiles: Vec<_> = self.tiles.drain().map(|(_, image)| image).collect();
        self.spare.extend(tiles);
        self.spare.truncate(SPARE_IMAGES);
    }

    /// The view stands still and its own picture is ready: tiles, images and bakers let go, so
    /// a still board holds nothing of them (a move makes them again, drawing live for the two
    /// frames that takes).
    pub fn rest(&mut self, commands: &mut Commands) {
        if !(self.bakers.is_empty() && self.spare.is_empty() && self.fresh.is_empty()) {
            self.settling = SETTLING_FRAMES;
        }
        self.tiles.clear();
        self.spare.clear();
        self.fresh.clear();
        for baker in self.bakers.drain(..) {
            commands.entity(baker).despawn();
        }
    }

    /// One frame: the grid kept at the view's zoom, the tiles it needs baked, and the copies that
    /// make up the view's terrain when tiles and the still picture (`still`: its image and the
    /// view it shows, if at this zoom) cover it.
    pub fn step<F: QueryFilter>(
        &mut self,
        commands: &mut Commands,
        view: TileView,
        still: Option<(AssetId<Image>, TileView)>,
        depth: f32,
        images: &mut Assets<Image>,
        bakers: &mut Query<BakerParts, F>,
    ) -> Option<Vec<PieceCopy>> {
        if self.off {
            return None;
        }
        self.age_fresh();
        self.keep_grid(view, still.map(|(_, v)| v), bakers);
        let grid = self.grid?;
        let rect = grid.view_rect(view.centre, view.area, view.pixels);
        // The still picture only where its corner lies on a whole pixel of the grid: one baked
        // after a move of a fraction of a pixel would sit up to half a pixel off the tiles.
        let still = still
            .filter(|(_, v)| grid.same_zoom(v.per_unit()) && v.scale_factor == view.scale_factor)
            .filter(|(_, v)| {
                let corner = grid.pixel(v.corner());
                (corner - corner.round()).abs().max_element() < 0.01
            })
            .map(|(id, v)| (id, grid.view_rect(v.centre, v.area, v.pixels)));
        let moved = self.last_centre.map(|c| (view.centre - c) * grid.per_unit);
        self.last_centre = Some(view.centre);
        let assembled = assemble(rect, still, |c| self.tiles.get(&c).map(Handle::id));
        if self.bakers.is_empty() {
            // Bakers only once the view lacks tiles while moving: not for a still view, whose
            // picture is on its way.
            if assembled.is_err() && moved.is_some_and(|m| m != Vec2::ZERO) {
                self.spawn_bakers(commands, images);
            }
            return assembled.ok();
        }
        // What the view lacks is baked at once, as much of it as there are bakers (the rest in
        // the next frames, the view drawn live till then).
        let mut jobs = Vec::new();
        let copies = match assembled {
            Ok(copies) => Some(copies),
            Err(mut missing) if self.bakers_aimed > 0 => {
                missing.truncate(BAKERS);
                jobs = missing;
                None
            }
            Err(_) => None,
        };
        // Ahead only while moving: a zoom sweep or a still view bakes nothing it will not use.
        if let Some(step) = moved.filter(|m| *m != Vec2::ZERO && self.bakers_aimed > 0) {
            let have = |c: IVec2| self.tiles.contains_key(&c) || jobs.contains(&c);
            let ahead = wanted_ahead(rect, Vec2::new(step.x, -step.y), still.map(|s| s.1), have);
            jobs.extend(ahead.into_iter().take(AHEAD_PER_FRAME.min(BAKERS - jobs.len())));
        }
        let baked_now = self.bake(&jobs, grid, depth, images, bakers);
        self.drop_far(rect);
        match copies {
            Some(copies) => Some(copies),
            None if baked_now => assemble(rect, still, |c| self.tiles.get(&c).map(Handle::id)).ok(),
            None => None,
        }
    }

    /// Images made two frames ago are the renderer's now (one made in a frame's last systems is
    /// prepared for drawing into in the next frame's).
    fn age_fresh(&mut self) {
        for (_, age) in &mut self.fresh {
            *age += 1;
        }
        let (ready, young): (Vec<_>, Vec<_>) = self.fresh.drain(..).partition(|(_, age)| *age >= 2);
        self.fresh = young;
        self.spare.extend(ready.into_iter().map(|(image, _)| image));
    }

    /// The grid kept while the zoom stays and tiles near the view are held; else a new one, its
    /// origin at the still picture's corner when that is near the view (both then lie on whole
    /// pixels of it), else at the view's; the bakers aimed at a new zoom.
    fn keep_grid<F: QueryFilter>(
        &mut self,
        view: TileView,
        still: Option<TileView>,
        bakers: &mut Query<BakerParts, F>,
    ) {
        let per_unit = view.per_unit();
        let same_zoom = self
            .grid
            .is_some_and(|g| g.same_zoom(per_unit) && self.scale_factor == view.scale_factor);
        if same_zoom {
            self.bakers_aimed = self.bakers_aimed.saturating_add(1);
            if self.holds_near(view) {
                return;
            }
        }
        self.forget();
        let view_grid = TileGrid {
            per_unit,
            origin: view.corner(),
        };
        let rect = view_grid.view_rect(view.centre, view.area, view.pixels);
        let still_near = |s: &TileView| {
            view_grid.same_zoom(s.per_unit())
                && s.scale_factor == view.scale_factor
                && near(rect, view_grid.view_rect(s.centre, s.area, s.pixels))
        };
        let origin = still.filter(still_near).map_or(view_grid.origin, |s| s.corner());
        let grid = TileGrid { per_unit, origin };
        self.grid = Some(grid);
        if same_zoom {
            return;
        }
        self.scale_factor = view.scale_factor;
        self.bakers_aimed = 0;
        self.last_centre = None;
        let (_, side) = grid.tile_world(IVec2::ZERO);
        for &baker in &self.bakers {
            if let Ok((mut camera, _, _, _, mut projection)) = bakers.get_mut(baker) {
                camera.is_active = false;
                *projection = tile_projection(side);
            }
        }
    }

    /// Whether a tile is held within the rings around the view, one ring more.
    fn holds_near(&self, view: TileView) -> bool {
        let Some(grid) = self.grid else { return false };
        let rect = grid.view_rect(view.centre, view.area, view.pixels);
        self.tiles.keys().any(|c| near(rect, TileGrid::tile_rect(*c)))
    }

    /// Each job a baker aimed at its tile this frame (it renders before the window's camera copies
    /// from it); the other bakers stopped. Whether every job found a baker and an image.
    fn bake<F: QueryFilter>(
        &mut self,
        jobs: &[IVec2],
        grid: TileGrid,
        depth: f32,
        images: &mut Assets<Image>,
        bakers: &mut Query<BakerParts, F>,
    ) -> bool {
        let mut all = true;
        for (i, &baker) in self.bakers.iter().enumerate() {
            let Ok((mut camera, mut target, mut transform, mut global, _)) = bakers.get_mut(baker) else {
                continue;
            };
            let job = jobs.get(i).copied();
            let image = job.and_then(|cell| self.tiles.remove(&cell).or_else(|| self.spare.pop()));
            let (Some(cell), Some(image)) = (job, image) else {
                all &= job.is_none();
                if camera.is_active {
                    camera.is_active = false;
                }
                continue;
            };
            let (centre, _) = grid.tile_world(cell);
            *transform = Transform::from_translation(centre.extend(depth));
            // Set here too: the transforms were propagated already this frame, and the frustum
            // is worked out from this after.
            *global = GlobalTransform::from(*transform);
            *target = RenderTarget::Image(ImageRenderTarget {
                handle: image.clone(),
                scale_factor: self.scale_factor,
            });
            camera.is_active = true;
            self.tiles.insert(cell, image);
            self.baked += 1;
        }
        self.make_spare_images(images);
        all
    }

    /// Images enough for the bakers' next frames.
    fn make_spare_images(&mut self, images: &mut Assets<Image>) {
        while self.spare.len() + self.fresh.len() < SPARE_IMAGES {
            let pixels = UVec2::splat(TILE as u32);
            let image = images.add(super::render_layers::render_target_image(pixels));
            self.fresh.push((image, 0));
        }
    }

    /// Tiles farther than the rings around the view let go, their images kept spare.
    fn drop_far(&mut self, view: IRect) {
        let far: Vec<IVec2> = self
            .tiles
            .keys()
            .filter(|c| !near(view, TileGrid::tile_rect(**c)))
            .copied()
            .collect();
        for cell in far {
            if let Some(image) = self.tiles.remove(&cell)
                && self.spare.len() < SPARE_IMAGES
            {
                self.spare.push(image);
            }
        }
    }

    /// Every image of the tiles', which are no change of the scene when made.
    pub fn images(&self) -> impl Iterator<Item = AssetId<Image>> + '_ {
        self.tiles
            .values()
            .chain(&self.spare)
            .chain(self.fresh.iter().map(|(image, _)| image))
            .map(Handle::id)
    }
}
