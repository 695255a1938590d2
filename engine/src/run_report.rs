//! A run-time error ([`RunError`]) laid out as a diagnostic, by the same renderer as the
//! load-time ones ([`fuba_grammar::report`]): the message, the place of the code running
//! (`file:line:col` and, when the ruleset's text holds it, the source line marked there),
//! and `= in:` the rule.
//!
//! [`RunError`]'s own `Display` (in `vm`) stays the one-line-and-place form that logs,
//! scenarios and replays quote; this is the form shown to a reader at the edge (the CLI).

use fuba_grammar::report::{Excerpt, Paint, Place, Report};

use crate::ruleset::diag::SourceFile;
use crate::vm::RunError;

/// `e` rendered as a diagnostic titled `title` (the error's message with what stopped:
/// `the match (seed 7) stopped: ...`), its source line taken from `file` when the place is
/// in it.
pub fn render_run_error(
    e: &RunError,
    title: &str,
    file: Option<&SourceFile>,
    paint: Paint,
) -> String {
    let found = file.and_then(|f| Some((f, place_offset(f, &e.place)?)));
    let path;
    let place = match found {
        Some((f, at)) => {
            let (lo, hi) = f.layer_range(at);
            let text = &f.text[lo..hi];
            let local = at - lo;
            let word = text[local..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(text.len() - local)
                .max(1);
            path = f.shown_at(at);
            Some(Place::Source(Excerpt {
                path: &path,
                text,
                span: local..local + word,
                labels: Vec::new(),
            }))
        }
        None if e.place.is_empty() => None,
        None => Some(Place::Named(&e.place)),
    };
    let notes = if e.place.is_empty() {
        Vec::new()
    } else {
        vec![("in", e.rule.as_str())]
    };
    Report {
        place,
        notes,
        ..Report::error(title)
    }
    .render(paint)
}

/// The byte offset of a place `file:line:col` (as [`crate::ruleset::Ruleset::place`]
/// writes it) in `file`, if one of its layers is that file and has that line and column.
fn place_offset(file: &SourceFile, place: &str) -> Option<usize> {
    let mut parts = place.rsplitn(3, ':');
    let col: usize = parts.next()?.parse().ok()?;
    let line: usize = parts.next()?.parse().ok()?;
    let name = parts.next()?;
    let (_, base) = file
        .layers
        .iter()
        .find(|(p, base)| file.shown_at(*base) == name && !p.as_os_str().is_empty())?;
    let (lo, hi) = file.layer_range(*base);
    let text = &file.text[lo..hi];
    let start = match line {
        0 => return None,
        1 => 0,
        n => text.match_indices('\n').nth(n - 2)?.0 + 1,
    };
    let rest = &text[start..];
    let line_text = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let (i, _) = line_text
        .char_indices()
        .chain([(line_text.len(), ' ')])
        .nth(col.checked_sub(1)?)?;
    let at = lo + start + i;
    (file.line_col(at) == (line, col)).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vm::ErrorKind;
    use std::path::PathBuf;

    fn error(place: &str) -> RunError {
        RunError {
            kind: ErrorKind::Rule,
            message: "no row 7".into(),
            rule: "procedures.kick".into(),
            place: place.into(),
            chain: Vec::new(),
        }
    }

    #[test]
    fn the_source_line_is_shown_when_the_file_holds_the_place() {
        let f = SourceFile::single(PathBuf::from("r.toml"), "a = 1\nkick = 'roll d6'\n");
        let shown = render_run_error(
            &error("r.toml:2:9"),
            "stopped: no row 7",
            Some(&f),
            Paint::Plain,
        );
        assert_eq!(
            shown,
            "error: stopped: no row 7\n \
             --> r.toml:2:9\n  \
             |\n\
             2 | kick = 'roll d6'\n  \
             |         ^^^^\n  \
             |\n  \
             = in: procedures.kick\n"
        );
        let elsewhere =
            render_run_error(&error("other.toml:2:9"), "stopped", Some(&f), Paint::Plain);
        assert!(elsewhere.contains("--> other.toml:2:9"), "{elsewhere}");
        assert!(elsewhere.contains("= in: procedures.kick"), "{elsewhere}");
        let host = render_run_error(
            &RunError::host(ErrorKind::Host, "x"),
            "stopped: x",
            Some(&f),
            Paint::Plain,
        );
        assert_eq!(host, "error: stopped: x\n");
    }
}
