//! Helpers shared by the workspace tests.

use std::path::PathBuf;

use fuba_engine::ruleset::{Ruleset, load_file};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Path of a ruleset file under `rulesets/`.
pub fn ruleset_path(name: &str) -> PathBuf {
    root().join("rulesets").join(format!("{name}.toml"))
}

/// Loads an edition from `rulesets/`, panicking with the diagnostics if it does not load.
pub fn edition(name: &str) -> Ruleset {
    match load_file(&ruleset_path(name)) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    }
}
