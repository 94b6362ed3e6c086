//! What counts as a change of the scene the still view's picture shows (`view_cache.rs`):
//! anything drawn on the board moved, shown, hidden, made or removed, a text or colour changed, a
//! mesh, material or image made or changed. Gizmos are not in the picture, so not here.

use super::state::BoardCamera;
use bevy::camera::visibility::RenderLayers;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::sprite::Anchor;

/// Anything the scene's picture shows that changed this frame: a counter moved, shown, hidden,
/// made or removed, a text or colour changed, a mesh, material or image remade.
#[derive(SystemParam)]
pub struct SceneChanges<'w, 's> {
    drawn: Query<
        'w,
        's,
        (),
        (
            Or<(With<Mesh2d>, With<Text2d>, With<Sprite>)>,
            // Never matches the window's camera anyway; said for Bevy's access check, since
            // `follow_view` writes that camera's layers in the same system.
            Without<BoardCamera>,
            // The tiles' cameras are aimed in the same system too.
            Without<super::view_tiles::TileBaker>,
            Or<(
                Changed<GlobalTransform>,
                Changed<Mesh2d>,
                Changed<MeshMaterial2d<ColorMaterial>>,
                Changed<Text2d>,
                Changed<TextColor>,
                Changed<TextFont>,
                Changed<Sprite>,
                Changed<Anchor>,
                Changed<RenderLayers>,
            )>,
        ),
    >,
    // Any entity's: a parent's visibility hides its children.
    shown: Query<'w, 's, (), Changed<Visibility>>,
    removed_meshes: RemovedComponents<'w, 's, Mesh2d>,
    removed_texts: RemovedComponents<'w, 's, Text2d>,
    removed_sprites: RemovedComponents<'w, 's, Sprite>,
    meshes: MessageReader<'w, 's, AssetEvent<Mesh>>,
    materials: MessageReader<'w, 's, AssetEvent<ColorMaterial>>,
    images: MessageReader<'w, 's, AssetEvent<Image>>,
}

impl SceneChanges<'_, '_> {
    /// Whether anything changed; reads every message, so none is seen twice. The pictures' own
    /// images (`own`) are not part of the scene.
    pub fn any(&mut self, own: &[AssetId<Image>]) -> bool {
        let removed = self.removed_meshes.read().count()
            + self.removed_texts.read().count()
            + self.removed_sprites.read().count();
        let assets = self.meshes.read().filter(|e| redraws(e, &[])).count()
            + self.materials.read().filter(|e| redraws(e, &[])).count()
            + self.images.read().filter(|e| redraws(e, own)).count();
        removed + assets > 0 || !self.drawn.is_empty() || !self.shown.is_empty()
    }
}

/// Whether an asset event can change what is drawn: an asset made, loaded or changed, unless it
/// is one of `own` (one dropped is drawn by nothing).
fn redraws<A: Asset>(event: &AssetEvent<A>, own: &[AssetId<A>]) -> bool {
    match event {
        AssetEvent::Added { id } | AssetEvent::Modified { id } | AssetEvent::LoadedWithDependencies { id } => {
            !own.contains(id)
        }
        AssetEvent::Removed { .. } | AssetEvent::Unused { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `SceneChanges::any` said each frame.
    #[derive(Resource, Default)]
    struct Said(Vec<bool>);

    #[derive(Resource)]
    struct Own(AssetId<Image>);

    fn watch(mut changes: SceneChanges, own: Res<Own>, mut said: ResMut<Said>) {
        said.0.push(changes.any(&[own.0]));
    }

    /// A frame, and whether the scene was said to have changed in it.
    fn frame(app: &mut App) -> bool {
        app.update();
        *app.world().resource::<Said>().0.last().expect("a frame was watched")
    }

    #[test]
    fn the_scene_changes_when_anything_drawn_moves_shows_goes_or_is_remade_and_only_then() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default(), TransformPlugin))
            .init_asset::<Mesh>()
            .init_asset::<ColorMaterial>()
            .init_asset::<Image>()
            .init_resource::<Said>()
            .add_systems(PostUpdate, watch.after(TransformSystems::Propagate));
        let own = app
            .world_mut()
            .resource_mut::<Assets<Image>>()
            .add(crate::gui::render_layers::render_target_image(UVec2::ONE));
        app.insert_resource(Own(own.id()));
        frame(&mut app);
        assert!(!frame(&mut app), "nothing drawn, nothing changed");

        let counter = app
            .world_mut()
            .spawn((Mesh2d(Handle::default()), Transform::default()))
            .id();
        assert!(frame(&mut app), "a counter made");
        assert!(!frame(&mut app), "a counter standing still");
        let name = app
            .world_mut()
            .spawn((Text2d::new("Mortain"), Transform::default()))
            .id();
        assert!(frame(&mut app), "a name made");
        assert!(!frame(&mut app));

        app.world_mut()
            .get_mut::<Transform>(counter)
            .expect("a counter")
            .translation
            .x = 40.0;
        assert!(frame(&mut app), "a counter moved");
        assert!(!frame(&mut app));
        app.world_mut().entity_mut(counter).insert(Visibility::Hidden);
        assert!(frame(&mut app), "a counter hidden");
        assert!(!frame(&mut app));
        app.world_mut().get_mut::<Text2d>(name).expect("a name").0 = "St Hilaire".into();
        assert!(frame(&mut app), "a name's text changed");
        assert!(!frame(&mut app));

        // A parent moved moves the counters under it.
        let stack = app.world_mut().spawn(Transform::default()).id();
        app.world_mut().entity_mut(counter).insert(ChildOf(stack));
        frame(&mut app);
        assert!(!frame(&mut app));
        app.world_mut()
            .get_mut::<Transform>(stack)
            .expect("a stack")
            .translation
            .y = 10.0;
        assert!(frame(&mut app), "a stack moved");
        assert!(!frame(&mut app));

        let material = app
            .world_mut()
            .resource_mut::<Assets<ColorMaterial>>()
            .add(ColorMaterial::from_color(Color::WHITE));
        assert!(frame(&mut app), "a material made");
        assert!(!frame(&mut app));
        if let Some(mut m) = app
            .world_mut()
            .resource_mut::<Assets<ColorMaterial>>()
            .get_mut(&material)
        {
            m.color = Color::BLACK;
        }
        assert!(frame(&mut app), "a material's colour changed");
        assert!(!frame(&mut app));

        // The pictures' own images are not the scene.
        let own = app.world().resource::<Own>().0;
        if let Some(mut image) = app.world_mut().resource_mut::<Assets<Image>>().get_mut(own) {
            image.texture_descriptor.label = None;
        }
        assert!(!frame(&mut app), "the picture's own image changed");

        app.world_mut().despawn(counter);
        assert!(frame(&mut app), "a counter removed");
        assert!(!frame(&mut app));
    }
}
