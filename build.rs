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

/// A Git command's trimmed output, or `None` where there is no Git or no repository, or where the
/// repository is not this crate's own (a source archive unpacked inside another checkout).
fn git(args: &[&str]) -> Option<String> {
    fn run(args: &[&str]) -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
        (out.status.success() && !text.is_empty()).then_some(text)
    }
    // Asked once per build-script run, not before every command.
    static OWN: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let own = *OWN.get_or_init(|| {
        let top = run(&["rev-parse", "--show-toplevel"]).and_then(|t| std::fs::canonicalize(t).ok());
        let manifest = std::env::var("CARGO_MANIFEST_DIR")
            .ok()
            .and_then(|m| std::fs::canonicalize(m).ok());
        top.is_some() && top == manifest
    });
    if own { run(args) } else { None }
}

/// Reruns this script when HEAD moves (a commit, a checkout), not on every build: the files Git
/// changes then, found with `--git-path` (right in worktrees too). Only files that exist are
/// named, since cargo reruns every time for a missing one.
fn watch_git_head() {
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(reference);
    }
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name])
            && std::path::Path::new(&path).exists()
        {
            println!("cargo:rerun-if-changed={path}");
        }
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
    println!("cargo:rerun-if-env-changed=HEXFRONT_REQUIRE_ICON");
    if let Err(e) = res.compile_for("hexfront") {
        // The release builds set HEXFRONT_REQUIRE_ICON: a bundle never ships without its icon.
        if std::env::var_os("HEXFRONT_REQUIRE_ICON").is_some() {
            panic!("the resource compiler failed, and HEXFRONT_REQUIRE_ICON is set: {e}");
        }
        println!("cargo:warning=the .exe is built without its icon: the resource compiler failed ({e})");
    }
}
