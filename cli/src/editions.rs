//! The rulebook editions built into the binary, and how `--rules` finds a ruleset.
//!
//! An edition is the text of its ruleset file, embedded at build time. `--rules` takes an
//! edition name or a path: a path is read when the command runs, so a copied and edited
//! ruleset works without rebuilding `fuba`.

use std::path::{Path, PathBuf};

use fuba_engine::ruleset::diag::LoadErrors;
use fuba_engine::ruleset::{Ruleset, load_file_with, load_str_with};

/// A built-in edition.
pub struct Edition {
    /// The name given to `--rules`.
    pub name: &'static str,
    /// Where its file lives in the repository.
    pub file: &'static str,
    /// The ruleset file's text.
    pub text: &'static str,
}

/// Every built-in edition.
pub const EDITIONS: &[Edition] = &[
    Edition {
        name: "original",
        file: "rulesets/original.toml",
        text: include_str!("../../rulesets/original.toml"),
    },
    Edition {
        name: "2015",
        file: "rulesets/2015.toml",
        text: include_str!("../../rulesets/2015.toml"),
    },
    Edition {
        name: "2024",
        file: "rulesets/2024.toml",
        text: include_str!("../../rulesets/2024.toml"),
    },
];

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

/// The built-in edition an `extends` names, when no file of that name is found next to
/// the ruleset extending it.
pub fn lookup(name: &str) -> Option<(PathBuf, String)> {
    find(name).map(|e| (PathBuf::from(format!("<{}>", e.name)), e.text.to_string()))
}

/// Loads a ruleset file; its `extends` may name a built-in edition.
pub fn load_path(path: &Path) -> Result<Ruleset, LoadErrors> {
    load_file_with(path, &lookup)
}

/// Loads a built-in edition.
pub fn load_edition(e: &Edition) -> Result<Ruleset, LoadErrors> {
    load_str_with(Path::new(&format!("<{}>", e.name)), e.text, &lookup)
}

/// Loads the ruleset named by `--rules`: an edition name first, else a path.
pub fn load(arg: &str) -> Result<Ruleset, RulesError> {
    if let Some(e) = find(arg) {
        return load_edition(e).map_err(RulesError::Load);
    }
    if looks_like_path(arg) {
        return load_path(Path::new(arg)).map_err(RulesError::Load);
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
