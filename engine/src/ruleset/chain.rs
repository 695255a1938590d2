//! The layers of a ruleset: the file itself, the files it includes and the ruleset it
//! extends, found by reading only their `[meta] extends` and `include`.
//!
//! How `extends = "..."` resolves (docs/ruleset-format.md, "Finding the ruleset
//! extended"): a value ending in `.toml` or holding a `/` or `\` is a path, relative to
//! the file that names it; any other value is an edition name, and an edition the program
//! has built in (the [`EditionLookup`] it passes) is always that edition, wherever the
//! file lies. Only a name no built-in edition has is looked for as `NAME.toml` next to the
//! file and in the folders above it (the real folders, so a file named by an absolute or
//! a relative path finds the same one).

// A diagnostic is large, but it only travels while a ruleset loads.
#![allow(clippy::result_large_err)]

use std::path::{Path, PathBuf};

use super::Ruleset;
use super::diag::{Diagnostic, LoadErrors, SourceFile};
use super::raw::RawHead;

/// The editions a program has built in, by name (and the fragments they include, by
/// their path relative to the edition's file): its path as shown in messages and its
/// text. An `extends` naming one of them always means that one.
pub type EditionLookup<'a> = &'a dyn Fn(&str) -> Option<(PathBuf, String)>;

/// The most rulesets a ruleset may stack through `extends`, itself included.
const MAX_LAYERS: usize = 32;

/// Loads and checks a ruleset file. An `extends` names a path (relative to the file) or
/// an edition, looked up as `NAME.toml` next to the file and in the folders above it
/// (no edition is built in).
pub fn load_file(path: &Path) -> Result<Ruleset, LoadErrors> {
    load_file_with(path, &|_| None)
}

/// [`load_file`], with the editions a program has built in.
pub fn load_file_with(path: &Path, editions: EditionLookup<'_>) -> Result<Ruleset, LoadErrors> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        LoadErrors(vec![Diagnostic::error(format!(
            "cannot read ruleset `{}`: {e}",
            path.display()
        ))])
    })?;
    super::load_str_with(path, &text, editions)
}

/// Whether an `extends` value is a path rather than an edition name.
fn is_path(name: &str) -> bool {
    name.ends_with(".toml") || name.contains('/') || name.contains('\\')
}

/// Where `extends = name` written in `from` points: its path and text.
fn resolve_extends(
    name: &str,
    from: &Path,
    editions: EditionLookup<'_>,
) -> Option<(PathBuf, String)> {
    let dir = from.parent().unwrap_or(Path::new("."));
    if is_path(name) {
        let p = dir.join(name);
        return std::fs::read_to_string(&p).ok().map(|t| (p, t));
    }
    if let Some(found) = editions(name) {
        return Some(found);
    }
    // No edition of that name is built in: `NAME.toml` in the file's real folder or one
    // above it, the same however the file was named.
    let from = std::fs::canonicalize(from).unwrap_or_else(|_| from.to_path_buf());
    let mut d = from.parent();
    while let Some(x) = d {
        let p = x.join(format!("{name}.toml"));
        if p != from {
            if let Ok(t) = std::fs::read_to_string(&p) {
                return Some((p, t));
            }
        }
        d = x.parent().filter(|p| !p.as_os_str().is_empty());
    }
    None
}

/// A TOML error as a located diagnostic; `base` is the offset of the layer's text.
pub(super) fn toml_error(file: &SourceFile, base: usize, e: &toml::de::Error) -> Diagnostic {
    let span = e.span().unwrap_or(0..0);
    let msg = e.message().trim().to_string();
    Diagnostic::error(format!("invalid ruleset file: {msg}"))
        .at(file, (span.start.max(base), span.end.max(base)))
        .hint("see docs/ruleset-format.md for every key")
}

/// The layers of the ruleset `path` (whose text is `text`), top first: a file's includes
/// lie just below it, the ruleset it extends below them.
pub(super) fn layers(
    path: &Path,
    text: &str,
    editions: EditionLookup<'_>,
) -> Result<Vec<(PathBuf, String)>, LoadErrors> {
    let mut chain: Vec<(PathBuf, String)> = vec![(path.to_path_buf(), text.to_string())];
    let mut cur = 0;
    loop {
        let (p, t) = chain[cur].clone();
        let head: RawHead = toml::from_str(&t)
            .map_err(|e| LoadErrors(vec![toml_error(&SourceFile::single(p.clone(), &t), 0, &e)]))?;
        let here = SourceFile::single(p.clone(), &t);
        for inc in head.meta.include.iter().rev() {
            let at = (inc.span().start, inc.span().end);
            let ip = p.parent().unwrap_or(Path::new(".")).join(inc.get_ref());
            // A file that is not on disk (a text built into a program) finds its
            // includes through the lookup first, by their path relative to it.
            let key = ip.to_string_lossy().replace('\\', "/");
            let found = if p.is_file() {
                std::fs::read_to_string(&ip).ok()
            } else {
                editions(&key)
                    .map(|(_, t)| t)
                    .or_else(|| std::fs::read_to_string(&ip).ok())
            };
            let Some(it) = found else {
                return Err(LoadErrors(vec![
                    Diagnostic::error(format!("cannot read the included file `{}`", ip.display()))
                        .at(&here, at)
                        .hint("an include is a path relative to the file that includes it"),
                ]));
            };
            let ih: RawHead = toml::from_str(&it).map_err(|e| {
                LoadErrors(vec![toml_error(
                    &SourceFile::single(ip.clone(), &it),
                    0,
                    &e,
                )])
            })?;
            if ih.meta.extends.is_some() || !ih.meta.include.is_empty() {
                return Err(LoadErrors(vec![
                    Diagnostic::error(format!(
                        "the included file `{}` may not itself extend or include",
                        ip.display()
                    ))
                    .at(&here, at),
                ]));
            }
            if chain.len() >= MAX_LAYERS {
                return Err(LoadErrors(vec![
                    Diagnostic::error(format!("more than {MAX_LAYERS} layers and includes"))
                        .at(&here, at),
                ]));
            }
            chain.push((ip, it));
        }
        let Some(ext) = head.meta.extends else { break };
        let at = (ext.span().start, ext.span().end);
        if chain.len() >= MAX_LAYERS {
            return Err(LoadErrors(vec![
                Diagnostic::error(format!(
                    "more than {MAX_LAYERS} layers of `extends` (a cycle?)"
                ))
                .at(&here, at),
            ]));
        }
        let Some((pp, pt)) = resolve_extends(ext.get_ref(), &p, editions) else {
            return Err(LoadErrors(vec![
                Diagnostic::error(format!(
                    "cannot find the ruleset `{}` this file extends",
                    ext.get_ref()
                ))
                .at(&here, at)
                .hint("give the name of an edition or a path relative to this file"),
            ]));
        };
        if chain.iter().any(|(q, _)| *q == pp) {
            return Err(LoadErrors(vec![
                Diagnostic::error(format!(
                    "`extends` goes round in a circle through `{}`",
                    pp.display()
                ))
                .at(&here, at),
            ]));
        }
        chain.push((pp, pt));
        cur = chain.len() - 1;
    }
    Ok(chain)
}
