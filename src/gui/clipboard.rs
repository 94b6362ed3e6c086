//! The system clipboard, for text the player carries elsewhere (an online game's code): copy and
//! paste through the operating system's own clipboard. The clipboard is kept open for the
//! window's life, as X11 serves copied text from the process that copied it.

use std::sync::{Mutex, OnceLock};

fn clipboard() -> &'static Mutex<Option<arboard::Clipboard>> {
    static CLIPBOARD: OnceLock<Mutex<Option<arboard::Clipboard>>> = OnceLock::new();
    CLIPBOARD.get_or_init(|| Mutex::new(arboard::Clipboard::new().ok()))
}

/// Puts `text` on the clipboard, or says why not.
pub fn copy(text: &str) -> Result<(), String> {
    let mut held = clipboard().lock().map_err(|_| "the clipboard is busy".to_string())?;
    let board = held
        .as_mut()
        .ok_or("no clipboard on this system (select the text and copy it by hand)")?;
    board
        .set_text(text.to_string())
        .map_err(|e| format!("the clipboard refused: {e}"))
}

/// The text on the clipboard, or why there is none.
pub fn paste() -> Result<String, String> {
    let mut held = clipboard().lock().map_err(|_| "the clipboard is busy".to_string())?;
    let board = held.as_mut().ok_or("no clipboard on this system")?;
    board.get_text().map_err(|e| format!("nothing to paste ({e})"))
}

/// Copies `text` and says how it went, in words for the player.
pub fn copied(text: &str) -> (String, bool) {
    match copy(text) {
        Ok(()) => (format!("Copied {text}: paste it to your friend"), false),
        Err(e) => (e, true),
    }
}
