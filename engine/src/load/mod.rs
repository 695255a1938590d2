//! Loading a ruleset: TOML → raw structs → checked [`Ruleset`]. Every problem found is
//! reported with its file, line and column; the first error in a piece of code stops
//! that piece, but the other pieces are still checked so one run shows them all.
//!
//! The steps, each in the module of its concern: the layers `extends` and `include` stack
//! (`chain.rs`), laid end to end and merged (`merge.rs`); the collections prepared
//! ([`collections`]); the board (`board.rs`); the declarations — numbers, constants,
//! options, state variables, hooks (`declarations.rs`); procedures (`procedures.rs`) and
//! tables (`tables.rs`), compiled on first use (`code.rs`); the structure of a match
//! (`structure.rs`); triggers (`triggers.rs`); narration and figures ([`figures`]); then the
//! analyses of a loaded ruleset (purity, lints).

// A diagnostic is large, but it only travels while a ruleset loads.
#![allow(clippy::result_large_err)]

mod board;
mod chain;
mod code;
pub mod collections;
mod declarations;
pub mod expand;
mod expand_code;
pub mod figures;
mod merge;
pub mod needs;
mod procedures;
mod ranges;
mod structure;
mod tables;
mod triggers;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use crate::files::{FileKind, read_text};
use crate::ruleset::diag::{Diagnostic, LoadErrors, SourceFile};
use crate::ruleset::model::Ruleset;
use crate::ruleset::raw::RawRuleset;
use code::{CodeLoad, Resolver};
use collections::Collections;

pub use chain::EditionLookup;

/// Loads and checks a ruleset file. An `extends` names a path (relative to the file) or
/// an edition, looked up as `NAME.toml` next to the file and in the folders above it
/// (no edition is built in).
pub fn load_file(path: &Path) -> Result<Ruleset, LoadErrors> {
    load_file_with(path, &|_| None)
}

/// [`load_file`], with the editions a program has built in.
pub fn load_file_with(path: &Path, editions: EditionLookup<'_>) -> Result<Ruleset, LoadErrors> {
    load_file_options(path, editions, &[])
}

/// Match options from the environment variable `FUBA_OPTIONS` (`name=value` pairs
/// separated by commas, as `--option` takes them one at a time), for the benchmarks and
/// profilers that load a ruleset file without the command line.
pub fn options_from_env() -> Vec<(String, String)> {
    std::env::var("FUBA_OPTIONS")
        .unwrap_or_default()
        .split(',')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

/// [`load_file_with`], with match options set: `(name, value)` pairs as a player writes
/// them (`weather`, `off`).
pub fn load_file_options(
    path: &Path,
    editions: EditionLookup<'_>,
    options: &[(String, String)],
) -> Result<Ruleset, LoadErrors> {
    let text = read_text(path, FileKind::Ruleset).map_err(|e| {
        LoadErrors(vec![Diagnostic::error(format!(
            "cannot read ruleset `{}`: {e}",
            path.display()
        ))])
    })?;
    load_str_options(path, &text, editions, options)
}

/// Loads and checks a ruleset from text; `path` names it in messages.
pub fn load_str(path: &Path, text: &str) -> Result<Ruleset, LoadErrors> {
    load_str_with(path, text, &|_| None)
}

/// [`load_str`], with a fallback for edition names.
pub fn load_str_with(
    path: &Path,
    text: &str,
    editions: EditionLookup<'_>,
) -> Result<Ruleset, LoadErrors> {
    load_str_options(path, text, editions, &[])
}

/// [`load_str_with`], with match options set: `(name, value)` pairs as a player writes
/// them (`weather`, `off`).
pub fn load_str_options(
    path: &Path,
    text: &str,
    editions: EditionLookup<'_>,
    options: &[(String, String)],
) -> Result<Ruleset, LoadErrors> {
    // The chain of layers, top first (chain.rs), then bottom first.
    let mut chain = chain::layers(path, text, editions)?;
    chain.reverse();
    let (file, mut raw, removed) = merge::merged(path, &chain)?;
    let colls = collections::prepare(&mut raw, &file);
    build(file, raw, removed, options, colls)
}

/// The merged layers checked into a ruleset: each declaration read, every piece of code
/// compiled, and the analyses run.
fn build(
    file: SourceFile,
    raw: RawRuleset,
    removed: HashMap<String, (usize, usize)>,
    set_options: &[(String, String)],
    (mut colls, mut errors): (Collections, Vec<Diagnostic>),
) -> Result<Ruleset, LoadErrors> {
    let Some(board) = board::board(&raw, &file, &mut errors) else {
        return Err(LoadErrors(errors));
    };
    let mut rs = declarations::ruleset(&file, &raw, board, removed, &mut errors);
    declarations::constants(&mut rs, &raw, &file, &mut errors);
    declarations::options(&mut rs, &raw, set_options, &file, &mut errors);
    rs.fingerprint = declarations::fingerprint(&rs, &file);
    declarations::state_vars(&mut rs, &raw, &file, &mut errors);
    declarations::hooks(&mut rs, &raw, &file, &colls, &mut errors);
    // Procedures and tables are declared now, compiled on first use.
    let mut resolver = Resolver::default();
    let mut cx = CodeLoad {
        file: &file,
        colls: &mut colls,
        resolver: &mut resolver,
        errors: &mut errors,
    };
    procedures::declare(&mut rs, &raw, &mut cx);
    tables::declare(&mut rs, &raw, &mut cx);
    structure::match_procedures(&mut rs, &raw, &file, cx.errors);
    // Every procedure and table, those not reached yet too.
    cx.resolver.compile_waiting(&mut rs);
    triggers::build(&mut rs, &raw, &mut cx);
    declarations::narration(&mut rs, &raw);
    // Figures last: their tests read the fields every procedure emits.
    figures::build(&mut rs, &raw, &mut errors);
    errors.extend(resolver.errors);
    finish(rs, raw, &colls, errors)
}

/// A ruleset without errors, with its look-ups, the purity of its procedures and the
/// warnings of the lints; or every error, in the order of the file, each once.
fn finish(
    mut rs: Ruleset,
    raw: RawRuleset,
    colls: &Collections,
    mut errors: Vec<Diagnostic>,
) -> Result<Ruleset, LoadErrors> {
    // Keep the order of the file, and drop repeats.
    let mut seen = HashSet::new();
    errors.retain(|d| seen.insert((d.span, d.message.clone())));
    errors.sort_by_key(|d| d.span.map_or(0, |s| s.0));
    if errors.is_empty() {
        rs.lookups = crate::ruleset::lookups::Lookups::build(&rs.board, &rs.symbols);
        let pure = crate::purity::pure_procs(&rs);
        for (p, pure) in rs.procs.iter_mut().zip(pure) {
            p.pure = pure;
        }
        rs.warnings = crate::lint::lint(&rs, &raw);
        rs.warnings.extend(collections::lint(colls, &rs.file));
        rs.warnings
            .extend(crate::lint_narration::unused_narration(&rs, &raw));
        rs.raw = Arc::new(raw);
        Ok(rs)
    } else {
        Err(LoadErrors(errors))
    }
}
