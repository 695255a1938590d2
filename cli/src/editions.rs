//! The rulebook editions built into the binary, and how `--rules` finds a ruleset.
//!
//! An edition is the text of its ruleset file, embedded at build time. `--rules` takes an
//! edition name or a path: a path is read when the command runs, so a copied and edited
//! ruleset works without rebuilding `fuba`.

use std::path::Path;

use fuba_engine::ruleset::diag::LoadErrors;
use fuba_engine::ruleset::{Ruleset, load_file, load_str};

/// A built-in edition.
pub struct Edition {
    /// The name given to `--rules`.
    pub name: &'static str,
    /// Where its file lives in the repository.
    pub file: &'static str,
    /// The ruleset file's text.
    pub text: &'static str,
}

/// Every built-in edition (2015 and 2024 will join the original here).
pub const EDITIONS: &[Edition] = &[Edition {
    name: "original",
    file: "rulesets/original.toml",
    text: include_str!("../../rulesets/original.toml"),
}];

/// The names of the built-in editions, for messages.
pub fn names() -> String {
    EDITIONS
        .iter()
        .map(|e| format!("{} (built from {})", e.name, e.file))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why `--rules` gave no ruleset.
pub enum RulesError {
    /// Neither an edition name nor a path (a usage error).
    Unknown(String),
    /// The file has errors.
    Load(LoadErrors),
}

/// Whether `arg` is to be read as a path rather than an edition name.
fn looks_like_path(arg: &str) -> bool {
    arg.contains('/')
        || arg.contains(std::path::MAIN_SEPARATOR)
        || arg.ends_with(".toml")
        || Path::new(arg).is_file()
}

/// Loads the ruleset named by `--rules`: an edition name first, else a path.
pub fn load(arg: &str) -> Result<Ruleset, RulesError> {
    if let Some(e) = find(arg) {
        return load_str(Path::new(&format!("<{}>", e.name)), e.text).map_err(RulesError::Load);
    }
    if looks_like_path(arg) {
        return load_file(Path::new(arg)).map_err(RulesError::Load);
    }
    Err(RulesError::Unknown(format!(
        "unknown edition `{arg}`; the built-in editions are: {}; or give the path of a ruleset file (e.g. ./my-rules.toml)",
        names()
    )))
}

/// The built-in edition called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static Edition> {
    EDITIONS.iter().find(|e| e.name == name)
}
