//! Windows only: hexfront.exe started from Explorer lets go of the console window Windows opened
//! for it, and then shows a fatal error in a message box, since nobody would read the console.

/// Lets go of the console when no other program shares it (started from Explorer, not from a
/// terminal, where the log keeps printing); `true` when it did.
pub fn release_own_console() -> bool {
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GetConsoleProcessList(process_ids: *mut u32, count: u32) -> u32;
        fn FreeConsole() -> i32;
    }
    let mut ids = [0u32; 2];
    // SAFETY: `ids` has room for the two entries asked for; FreeConsole takes no arguments.
    unsafe { GetConsoleProcessList(ids.as_mut_ptr(), 2) == 1 && FreeConsole() != 0 }
}

/// After the panic hooks already installed (the log, the emergency save), a message box says
/// what stopped the game and where the game was saved.
pub fn show_panics_in_a_message_box() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        previous(info);
        if crate::game::emergency::is_caught_thread() {
            return;
        }
        let message = info.payload_as_str().unwrap_or("no message");
        message_box(&fatal_text(message, crate::game::emergency::notice_of_this_run()));
    }));
}

/// What the box says: the emergency save's notice when there was a game, and a hint when the
/// graphics could not start (no driver, or one without Vulkan, DirectX 12 or OpenGL).
pub fn fatal_text(message: &str, notice: Option<String>) -> String {
    let graphics = ["RequestDeviceError", "adapter", "GPU", "Vulkan", "surface"]
        .iter()
        .any(|w| message.contains(w));
    let mut text = notice.unwrap_or_else(|| format!("Hexfront stopped on an internal error: {message}"));
    if graphics {
        text.push_str(
            "\n\nHexfront could not start its graphics. Install or update the graphics driver \
             (from the maker of the graphics card, or Windows Update) and try again.",
        );
    }
    text
}

fn message_box(text: &str) {
    #[link(name = "user32")]
    unsafe extern "system" {
        fn MessageBoxW(window: *mut core::ffi::c_void, text: *const u16, caption: *const u16, kind: u32) -> i32;
    }
    const MB_ICONERROR: u32 = 0x10;
    let wide = |s: &str| s.encode_utf16().chain(std::iter::once(0)).collect::<Vec<u16>>();
    let (text, caption) = (wide(text), wide("Hexfront"));
    // SAFETY: both strings are NUL-terminated UTF-16 that outlive the call; no owner window.
    unsafe {
        MessageBoxW(std::ptr::null_mut(), text.as_ptr(), caption.as_ptr(), MB_ICONERROR);
    }
}
