//! Which Hexfront this is: the version, commit and target shown by `hexfront --version` and
//! recorded in every save and turn file (stamped by build.rs).

/// The package version, e.g. `0.1.0`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `0.1.0 (e474e10f2 2026-11-23, x86_64-unknown-linux-gnu)`: the version, the commit and its date
/// (or `unknown commit` when built outside Git without `HEXFRONT_COMMIT`), and the target.
pub const LONG: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("HEXFRONT_COMMIT"),
    ", ",
    env!("HEXFRONT_TARGET"),
    ")"
);

/// What a save's `written_by` says: `Hexfront 0.1.0 (…)`.
pub fn written_by() -> String {
    format!("Hexfront {LONG}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_long_version_names_the_version_commit_and_target() {
        assert!(super::LONG.starts_with(super::VERSION));
        assert!(super::LONG.contains(std::env::consts::OS) || super::LONG.contains("darwin"));
        assert!(super::written_by().starts_with("Hexfront 0."));
        // The commit part is never empty: a hash, or `unknown commit`.
        let inside = &super::LONG[super::VERSION.len() + 2..];
        assert!(
            inside.split(',').next().is_some_and(|c| c.len() >= 7),
            "{}",
            super::LONG
        );
    }
}
