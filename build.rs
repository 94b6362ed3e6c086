//! Build script: stamps the commit into `hexfront --version` and the saves it writes, and gives the
//! Windows .exe its icon and version information.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=HEXFRONT_COMMIT");
    // A build from a source archive has no Git: the packager may name the commit instead.
    let commit = std::env::var("HEXFRONT_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| git(&["rev-parse", "--short=9", "HEAD"]))
        .unwrap_or_else(|| "unknown commit".to_string());
    let date = git(&["log", "-1", "--format=%cs"]).unwrap_or_default();
    let stamp = if date.is_empty() {
        commit
    } else {
        format!("{commit} {date}")
    };
    println!("cargo:rustc-env=HEXFRONT_COMMIT={stamp}");
    watch_git_head();
    let target = std::env::var("TARGET").unwrap_or_default();
    println!("cargo:rustc-env=HEXFRONT_TARGET={target}");

    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("windows") {
        windows_resources();
    }
}

/// A Git command's trimmed output, or `None` where there is no Git or no repository.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// Reruns this script when HEAD moves (a commit, a checkout), not on every build.
fn watch_git_head() {
    let Some(git_dir) = git(&["rev-parse", "--git-dir"]) else {
        return;
    };
    let head = std::path::Path::new(&git_dir).join("HEAD");
    println!("cargo:rerun-if-changed={}", head.display());
    if let Ok(text) = std::fs::read_to_string(&head)
        && let Some(reference) = text.trim().strip_prefix("ref: ")
    {
        println!(
            "cargo:rerun-if-changed={}",
            std::path::Path::new(&git_dir).join(reference).display()
        );
        println!(
            "cargo:rerun-if-changed={}",
            std::path::Path::new(&git_dir).join("packed-refs").display()
        );
    }
}

/// The .exe's icon (Explorer, the taskbar) and its file properties. A machine without a
/// resource compiler still builds the game, without them, and says so.
fn windows_resources() {
    println!("cargo:rerun-if-changed=assets/icon/hexfront.ico");
    let mut res = winresource::WindowsResource::new();
    res.set_icon("assets/icon/hexfront.ico")
        .set("ProductName", "Hexfront")
        .set("FileDescription", "Hexfront, a hex-and-square board-wargame engine")
        .set("LegalCopyright", "MIT OR Apache-2.0");
    if let Err(e) = res.compile() {
        println!("cargo:warning=the .exe is built without its icon: the resource compiler failed ({e})");
    }
}
