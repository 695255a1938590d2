//! The rulebook editions built into the binary, and how `--rules` finds a ruleset.
//!
//! An edition is the text of its ruleset file, embedded at build time. `--rules` takes an
//! edition name or a path: a path is read when the command runs, so a copied and edited
//! ruleset works without rebuilding `fuba`.

use std::path::{Path, PathBuf};

use fuba_engine::files::{FileKind, read_text};
use fuba_engine::load::{load_file_with, load_str_options, load_str_with};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::ruleset::diag::{LoadErrors, Paint};

use crate::error::CliError;

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

/// Fragment files the built-in editions include (`[meta] include`), by their path
/// relative to the folder of the edition's file; an embedded edition finds them here.
pub const FRAGMENTS: &[(&str, &str)] = &[
    (
        "2024/options.toml",
        include_str!("../../rulesets/2024/options.toml"),
    ),
    (
        "2024/condition.toml",
        include_str!("../../rulesets/2024/condition.toml"),
    ),
    (
        "2024/formations.toml",
        include_str!("../../rulesets/2024/formations.toml"),
    ),
    (
        "2024/substitutions.toml",
        include_str!("../../rulesets/2024/substitutions.toml"),
    ),
    (
        "2024/charge.toml",
        include_str!("../../rulesets/2024/charge.toml"),
    ),
    (
        "2024/pressing.toml",
        include_str!("../../rulesets/2024/pressing.toml"),
    ),
    (
        "2024/offside_risk.toml",
        include_str!("../../rulesets/2024/offside_risk.toml"),
    ),
    (
        "2024/challenge.toml",
        include_str!("../../rulesets/2024/challenge.toml"),
    ),
    (
        "2024/slowing.toml",
        include_str!("../../rulesets/2024/slowing.toml"),
    ),
    (
        "2024/weather.toml",
        include_str!("../../rulesets/2024/weather.toml"),
    ),
    (
        "2024/var.toml",
        include_str!("../../rulesets/2024/var.toml"),
    ),
    (
        "2024/skills.toml",
        include_str!("../../rulesets/2024/skills.toml"),
    ),
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

/// The built-in edition an `extends` names: a built-in edition's name always means the
/// edition built into `fuba`, wherever the file naming it lies (and whatever files lie
/// near it); and the fragments the built-in editions include.
///
/// A built-in text is named by its file in the repository in angle brackets
/// (`<rulesets/2024.toml>`, `<rulesets/2024/skills.toml>`): never a file on disk, and
/// shown in messages as the file a designer opens (`fuba_engine::ruleset::diag::shown`).
/// A fragment is asked for by its path next to the edition's name
/// (`<rulesets/2024/skills.toml`, as the loader joins it) or relative to it.
pub fn lookup(name: &str) -> Option<(PathBuf, String)> {
    let key = name.trim_start_matches('<').trim_end_matches('>');
    let key = key.strip_prefix(FOLDER).unwrap_or(key);
    if let Some((p, t)) = FRAGMENTS.iter().find(|(p, _)| *p == key) {
        return Some((PathBuf::from(format!("<{FOLDER}{p}>")), t.to_string()));
    }
    find(name).map(|e| (builtin_path(e), e.text.to_string()))
}

/// The folder of the built-in editions' files in the repository.
const FOLDER: &str = "rulesets/";

/// The path a built-in edition is loaded under: its file in angle brackets.
pub fn builtin_path(e: &Edition) -> PathBuf {
    PathBuf::from(format!("<{}>", e.file))
}

/// Loads a ruleset file; its `extends` may name a built-in edition.
pub fn load_path(path: &Path) -> Result<Ruleset, LoadErrors> {
    load_file_with(path, &lookup)
}

/// Loads a built-in edition.
pub fn load_edition(e: &Edition) -> Result<Ruleset, LoadErrors> {
    load_str_with(&builtin_path(e), e.text, &lookup)
}

/// Splits `--option NAME=VALUE` arguments.
pub fn parse_options(args: &[String]) -> Result<Vec<(String, String)>, String> {
    args.iter()
        .map(|a| match a.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                Ok((k.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(format!(
                "--option `{a}`: write NAME=VALUE, for example --option weather=off"
            )),
        })
        .collect()
}

/// Loads the ruleset named by `--rules` with match options set (`--option NAME=VALUE`).
pub fn load_with_options(arg: &str, options: &[(String, String)]) -> Result<Ruleset, RulesError> {
    if options.is_empty() {
        return load(arg);
    }
    let (path, text) = match find(arg) {
        Some(e) => (builtin_path(e), e.text.to_string()),
        None if looks_like_path(arg) => {
            let text = read_text(Path::new(arg), FileKind::Ruleset).map_err(|e| {
                RulesError::Load(LoadErrors(vec![
                    fuba_engine::ruleset::diag::Diagnostic::error(format!(
                        "cannot read ruleset `{arg}`: {e}"
                    )),
                ]))
            })?;
            (PathBuf::from(arg), text)
        }
        None => return load(arg),
    };
    load_str_options(&path, &text, &lookup, options).map_err(RulesError::Load)
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

/// [`crate::load_rules`] with match options: diagnostics on stderr, a usage error for an
/// unknown edition or a malformed `--option`.
pub fn load_rules_with(arg: &str, option_args: &[String]) -> Result<Ruleset, CliError> {
    let options = parse_options(option_args).map_err(CliError::Usage)?;
    if options.is_empty() {
        return load_rules(arg);
    }
    match load_with_options(arg, &options) {
        Ok(rs) => Ok(rs),
        Err(RulesError::Unknown(m)) => Err(CliError::Usage(m)),
        Err(RulesError::Load(e)) => {
            note!("{}", e.render(Paint::for_stderr()));
            Err(CliError::Failure(format!(
                "the ruleset `{arg}` with the options given has {} error{}",
                e.0.len(),
                if e.0.len() == 1 { "" } else { "s" }
            )))
        }
    }
}

/// Loads the ruleset named by `--rules`, reporting errors on stderr.
pub fn load_rules(arg: &str) -> Result<Ruleset, CliError> {
    match load(arg) {
        Ok(rs) => Ok(rs),
        Err(RulesError::Unknown(m)) => Err(CliError::Usage(m)),
        Err(RulesError::Load(e)) => {
            note_raw!("{}", e.render(Paint::for_stderr()));
            Err(CliError::Failure(format!(
                "the ruleset `{arg}` has {} error{}",
                e.0.len(),
                if e.0.len() == 1 { "" } else { "s" }
            )))
        }
    }
}
