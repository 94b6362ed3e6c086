//! The window's icon (the title bar and taskbar on Windows and Linux/X11): Bevy 0.19 has no API
//! for it, so it is set once on winit's window, from the PNG built into the binary. macOS takes
//! its Dock icon from the .app bundle instead.

use bevy::ecs::system::NonSendMarker;
use bevy::prelude::*;

/// assets/icon/hexfront-64.png, generated from hexfront.svg by packaging/icon.sh.
const ICON_PNG: &[u8] = include_bytes!("../../assets/icon/hexfront-64.png");

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, set_window_icon);
}

/// The icon as winit wants it: RGBA pixels, width and height.
pub fn icon_pixels() -> Result<(Vec<u8>, u32, u32), image::ImageError> {
    let icon = image::load_from_memory_with_format(ICON_PNG, image::ImageFormat::Png)?.into_rgba8();
    let (width, height) = icon.dimensions();
    Ok((icon.into_raw(), width, height))
}

/// Runs on the main thread (winit's windows live there) until the window exists, then once.
fn set_window_icon(_main_thread: NonSendMarker, mut done: Local<bool>) {
    if *done {
        return;
    }
    bevy::winit::WINIT_WINDOWS.with_borrow(|windows| {
        for window in windows.windows.values() {
            *done = true;
            let icon = icon_pixels()
                .map_err(|e| e.to_string())
                .and_then(|(rgba, w, h)| winit::window::Icon::from_rgba(rgba, w, h).map_err(|e| e.to_string()));
            match icon {
                Ok(icon) => window.set_window_icon(Some(icon)),
                Err(e) => warn!("the window icon could not be read: {e}"),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_built_in_icon_decodes_to_a_square_picture() {
        let (rgba, width, height) = super::icon_pixels().expect("icon decodes");
        assert_eq!((width, height), (64, 64));
        assert_eq!(rgba.len(), 64 * 64 * 4);
        // Not blank: the corners are transparent, the middle (the counter) opaque.
        assert_eq!(rgba[3], 0);
        let middle = ((32 * 64 + 32) * 4 + 3) as usize;
        assert_eq!(rgba[middle], 255);
    }
}
