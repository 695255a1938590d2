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

use crate::files::{FileKind, read_text, size_text};
use crate::limits::{MAX_INCLUDES, MAX_LAYERS, MAX_RULESET_BYTES};
use crate::ruleset::diag::{Diagnostic, LoadErrors, SourceFile};
use crate::ruleset::raw::RawHead;

/// The editions a program has built in, by name (and the fragments they include, by
/// their path relative to the edition's file): its path as shown in messages and its
/// text. An `extends` naming one of them always means that one.
pub type EditionLookup<'a> = &'a dyn Fn(&str) -> Option<(PathBuf, String)>;

/// Whether an `extends` value is a path rather than an edition name.
fn is_path(name: &str) -> bool {
    name.ends_with(".toml") || name.contains('/') || name.contains('\\')
}

/// Where `extends = name` written in `from` points: its path and text, or why it was not
/// found or read.
fn resolve_extends(
    name: &str,
    from: &Path,
    editions: EditionLookup<'_>,
) -> Result<(PathBuf, String), String> {
    let read = |p: PathBuf| match read_text(&p, FileKind::Ruleset) {
        Ok(t) => Ok((p, t)),
        Err(e) => Err(format!(
            "cannot read the ruleset `{}` this file extends: {e}",
            p.display()
        )),
    };
    let dir = from.parent().unwrap_or(Path::new("."));
    if is_path(name) {
        let p = dir.join(name);
        if std::fs::symlink_metadata(&p).is_err() {
            return Err(format!(
                "cannot find the ruleset `{name}` this file extends: there is no file `{}`",
                p.display()
            ));
        }
        return read(p);
    }
    if let Some(found) = editions(name) {
        return Ok(found);
    }
    // No edition of that name is built in: `NAME.toml` in the file's real folder or one
    // above it, the same however the file was named.
    let from = std::fs::canonicalize(from).unwrap_or_else(|_| from.to_path_buf());
    let mut d = from.parent();
    while let Some(x) = d {
        let p = x.join(format!("{name}.toml"));
        if p != from && std::fs::symlink_metadata(&p).is_ok() {
            return read(p);
        }
        d = x.parent().filter(|p| !p.as_os_str().is_empty());
    }
    Err(format!(
        "cannot find the ruleset `{name}` this file extends"
    ))
}

/// An error when the layers read so far hold more than [`MAX_RULESET_BYTES`].
fn too_large(
    chain: &[(PathBuf, String)],
    here: &SourceFile,
    at: (usize, usize),
) -> Option<LoadErrors> {
    let total: usize = chain.iter().map(|(_, t)| t.len()).sum();
    (total as u64 > MAX_RULESET_BYTES).then(|| {
        LoadErrors(vec![
            Diagnostic::error(format!(
                "the ruleset, its layers and included files together are {}; a ruleset may be at most {} (`MAX_RULESET_BYTES` in engine/src/limits.rs)",
                size_text(total as u64),
                size_text(MAX_RULESET_BYTES)
            ))
            .at(here, at),
        ])
    })
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
    // Rulesets stacked so far (the file itself is the first) and files included.
    let (mut stacked, mut included) = (1, 0);
    loop {
        let (p, t) = chain[cur].clone();
        let head: RawHead = toml::from_str(&t)
            .map_err(|e| LoadErrors(vec![toml_error(&SourceFile::single(p.clone(), &t), 0, &e)]))?;
        let here = SourceFile::single(p.clone(), &t);
        for inc in head.meta.include.iter().rev() {
            let at = (inc.span().start, inc.span().end);
            let ip = p.parent().unwrap_or(Path::new(".")).join(inc.get_ref());
            // A file that is not on disk (a text built into a program) finds its
            // includes through the lookup first, by their path relative to it, and names
            // them as the lookup does.
            let key = ip.to_string_lossy().replace('\\', "/");
            let found = match editions(&key) {
                Some((named, t)) if !p.is_file() => Ok((named, t)),
                _ => read_text(&ip, FileKind::Ruleset).map(|t| (ip.clone(), t)),
            };
            let it = found.map_err(|e| {
                LoadErrors(vec![
                    Diagnostic::error(format!(
                        "cannot read the included file `{}`: {e}",
                        ip.display()
                    ))
                    .at(&here, at)
                    .hint("an include is a path relative to the file that includes it"),
                ])
            })?;
            let (ip, it) = it;
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
                        crate::ruleset::diag::shown(&ip)
                    ))
                    .at(&here, at),
                ]));
            }
            included += 1;
            if included > MAX_INCLUDES {
                return Err(LoadErrors(vec![
                    Diagnostic::error(format!(
                        "more than {MAX_INCLUDES} included files in the ruleset and the ones it extends (`MAX_INCLUDES` in engine/src/limits.rs)"
                    ))
                    .at(&here, at),
                ]));
            }
            chain.push((ip, it));
            if let Some(e) = too_large(&chain, &here, at) {
                return Err(e);
            }
        }
        let Some(ext) = head.meta.extends else { break };
        let at = (ext.span().start, ext.span().end);
        stacked += 1;
        if stacked > MAX_LAYERS {
            return Err(LoadErrors(vec![
                Diagnostic::error(format!(
                    "more than {MAX_LAYERS} rulesets stacked by `extends`, the edition at the bottom included (`MAX_LAYERS` in engine/src/limits.rs)"
                ))
                .at(&here, at),
            ]));
        }
        let (pp, pt) = resolve_extends(ext.get_ref(), &p, editions).map_err(|m| {
            LoadErrors(vec![Diagnostic::error(m).at(&here, at).hint(
                "give the name of an edition or a path relative to this file",
            )])
        })?;
        if chain.iter().any(|(q, _)| *q == pp) {
            return Err(LoadErrors(vec![
                Diagnostic::error(format!(
                    "`extends` goes round in a circle through `{}`",
                    crate::ruleset::diag::shown(&pp)
                ))
                .at(&here, at),
            ]));
        }
        chain.push((pp, pt));
        if let Some(e) = too_large(&chain, &here, at) {
            return Err(e);
        }
        cur = chain.len() - 1;
    }
    Ok(chain)
}
