//! Errors in ruleset files, located by file, line and column, and rendered as source
//! diagnostics ([`fuba_grammar::report`]): the line itself with a marker under the
//! offending text, and a hint.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Whether a rendered diagnostic carries colors, and which to use on stderr.
pub use fuba_grammar::report::Paint;
use fuba_grammar::report::{Excerpt, Level, Place, Report};

/// The text of a ruleset, kept to point into it. A ruleset that `extends` others is made
/// of layers: their texts are laid end to end (separated by a newline) and every offset
/// is an offset into that whole; [`SourceFile::layer`] tells which file it falls in.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path of the top layer as given (or, for a text built into the program, its
    /// file in angle brackets, `<rulesets/original.toml>`: see [`shown`]).
    pub path: PathBuf,
    /// The whole text (every layer).
    pub text: Arc<str>,
    /// Each layer's path and the offset where its text starts, bottom layer first.
    pub layers: Vec<(PathBuf, usize)>,
}

/// How a layer's path is named in messages. A text built into the program (an edition,
/// a file it includes) is loaded under its file's path in angle brackets, so that it is
/// never mistaken for a file on disk (`<rulesets/2015.toml>`); messages name that file
/// (`rulesets/2015.toml`), the one a designer opens in the repository.
pub fn shown(path: &Path) -> String {
    let s = path.display().to_string();
    match s.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
        Some(file) => file.to_string(),
        None => s,
    }
}

impl SourceFile {
    /// A single-file source.
    pub fn single(path: PathBuf, text: &str) -> Self {
        SourceFile {
            layers: vec![(path.clone(), 0)],
            path,
            text: Arc::from(text),
        }
    }

    /// The path of the layer holding `offset` and where that layer starts.
    pub fn layer(&self, offset: usize) -> (&std::path::Path, usize) {
        self.layers
            .iter()
            .rev()
            .find(|(_, base)| *base <= offset)
            .map_or((self.path.as_path(), 0), |(p, b)| (p.as_path(), *b))
    }

    /// The name of the layer holding `offset`, as messages show it ([`shown`]).
    pub fn shown_at(&self, offset: usize) -> String {
        shown(self.layer(offset).0)
    }

    /// 1-based line and column of a byte offset, within its layer's file.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let base = self.layer(offset).1;
        let before = &self.text[base..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }

    /// The full text of the line holding `offset`, and the offset where it starts.
    pub fn line_at(&self, offset: usize) -> (&str, usize) {
        let offset = offset.min(self.text.len());
        let start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let end = self.text[offset..]
            .find('\n')
            .map_or(self.text.len(), |i| offset + i);
        (&self.text[start..end], start)
    }

    /// The byte range of the layer holding `offset`: from where its text starts to where
    /// the next layer's starts (or the end of the whole).
    pub fn layer_range(&self, offset: usize) -> (usize, usize) {
        let start = self.layer(offset).1;
        let end = self
            .layers
            .iter()
            .map(|(_, base)| *base)
            .filter(|base| *base > start)
            .min()
            .unwrap_or(self.text.len());
        (start, end)
    }

    /// Where `needle` is first written in the layer holding `anchor` (a table's header,
    /// say, in the layer that writes one of its values).
    pub fn find_in_layer(&self, anchor: usize, needle: &str) -> Option<usize> {
        let (start, end) = self.layer_range(anchor);
        self.text[start..end].find(needle).map(|i| start + i)
    }

    /// Where a TOML key is written under a table header, best effort: the offset of
    /// `key` after the header `[section]` (or anywhere when the header is not found).
    pub fn find_key(&self, section: &str, key: &str) -> Option<usize> {
        self.find_key_within((0, self.text.len()), section, key)
    }

    /// [`SourceFile::find_key`] within the layer holding `anchor` only (the layer that
    /// writes the key's value), so that a key a layer adds or changes is found there and
    /// not under the same header in a layer below.
    pub fn find_key_in_layer(&self, anchor: usize, section: &str, key: &str) -> Option<usize> {
        self.find_key_within(self.layer_range(anchor), section, key)
    }

    /// Where the top-most layer that writes the header `[section]` writes `key` under it:
    /// the place of a value a layer above may have replaced (`halfway` in `[board]`).
    pub fn find_key_top_down(&self, section: &str, key: &str) -> Option<usize> {
        let header = format!("[{section}]");
        self.layers.iter().rev().find_map(|&(_, start)| {
            let (start, end) = self.layer_range(start);
            self.text[start..end].find(&header)?;
            self.find_key_within((start, end), section, key)
        })
    }

    /// [`SourceFile::find_key`] within the byte range `(start, end)` of the whole text.
    fn find_key_within(
        &self,
        (start, end): (usize, usize),
        section: &str,
        key: &str,
    ) -> Option<usize> {
        let text = &self.text[start..end];
        let header = format!("[{section}]");
        let from = start + text.find(&header).unwrap_or(0);
        let rest = &self.text[from..end];
        let quoted = format!("\"{key}\"");
        let candidates = [quoted.as_str(), key];
        candidates
            .iter()
            .filter_map(|k| {
                rest.match_indices(k).find_map(|(i, _)| {
                    let before = rest[..i].chars().last();
                    let after = rest[i + k.len()..].trim_start().chars().next();
                    let starts = matches!(before, None | Some('\n' | ' ' | '.' | '{' | ','));
                    (starts && matches!(after, Some('=' | '.'))).then_some(from + i)
                })
            })
            .min()
    }
}

/// The severity of a diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The ruleset cannot be used.
    Error,
    /// The ruleset works but something is likely wrong.
    Warning,
}

/// One problem in a ruleset, with its place.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// The file, if the problem is in one.
    pub file: Option<SourceFile>,
    /// Byte range in the file.
    pub span: Option<(usize, usize)>,
    /// Which rule it concerns (`procedures.control_check`).
    pub rule: Option<String>,
    /// How to fix it.
    pub hint: Option<String>,
    /// For a warning, the lint that raised it (`unused-procedure`; see `crate::lint`).
    pub lint: Option<&'static str>,
    /// Other places of the file that explain it (byte range, what is there), marked
    /// under the source with their label.
    pub labels: Vec<((usize, usize), String)>,
}

impl Diagnostic {
    /// An error with no place yet.
    pub fn error(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            file: None,
            span: None,
            rule: None,
            hint: None,
            lint: None,
            labels: Vec::new(),
        }
    }

    /// A warning of the lint `lint`, with no place yet.
    pub fn warning(lint: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            lint: Some(lint),
            ..Diagnostic::error(message)
        }
    }

    /// Places the diagnostic in a file.
    pub fn at(mut self, file: &SourceFile, span: (usize, usize)) -> Self {
        self.file = Some(file.clone());
        self.span = Some(span);
        self
    }

    /// Names the rule concerned.
    pub fn in_rule(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }

    /// Marks another place of its file, `span`, with what is there: the place where a
    /// thing was declared or removed, say. Shown under the source when it is in the same
    /// layer, as a `note:` with its `file:line:col` otherwise.
    pub fn also_at(mut self, span: (usize, usize), label: impl Into<String>) -> Self {
        self.labels.push((span, label.into()));
        self
    }

    /// Adds a hint.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// `path:line:col`, if the diagnostic has a place.
    pub fn location(&self) -> Option<String> {
        let f = self.file.as_ref()?;
        let (line, col) = f.line_col(self.span.map_or(0, |s| s.0));
        Some(format!(
            "{}:{line}:{col}",
            f.shown_at(self.span.map_or(0, |s| s.0))
        ))
    }

    /// Renders as JSON-ready data.
    pub fn to_json(&self) -> serde_json::Value {
        let (line, column) = match (&self.file, self.span) {
            (Some(f), Some(s)) => {
                let (l, c) = f.line_col(s.0);
                (Some(l), Some(c))
            }
            _ => (None, None),
        };
        serde_json::json!({
            "severity": self.severity,
            "message": self.message,
            "file": self.file.as_ref().map(|f| f.shown_at(self.span.map_or(0, |s| s.0))),
            "line": line,
            "column": column,
            "rule": self.rule,
            "hint": self.hint,
            "lint": self.lint,
        })
    }
}

impl Diagnostic {
    /// The diagnostic laid out for a reader ([`fuba_grammar::report`]): the message, its
    /// place `file:line:col` and source line with the span marked (other places of the same
    /// file with their label), then `= in:` the rule, `= note:` the places of other files,
    /// `= help:` the hint.
    pub fn render(&self, paint: Paint) -> String {
        let mut notes: Vec<(&str, &str)> = Vec::new();
        if let Some(rule) = &self.rule {
            notes.push(("in", rule));
        }
        let mut elsewhere = Vec::new();
        let mut place = None;
        let path: String;
        if let (Some(file), Some((start, end))) = (&self.file, self.span) {
            let (lo, hi) = file.layer_range(start);
            path = file.shown_at(start);
            let local = |(s, e): (usize, usize)| s.saturating_sub(lo)..e.saturating_sub(lo);
            let mut labels = Vec::new();
            for (span, label) in &self.labels {
                if file.layer_range(span.0) == (lo, hi) {
                    labels.push((local(*span), label.as_str()));
                } else {
                    let (line, col) = file.line_col(span.0);
                    elsewhere.push(format!("{label}: {}:{line}:{col}", file.shown_at(span.0)));
                }
            }
            place = Some(Place::Source(Excerpt {
                path: &path,
                text: &file.text[lo..hi],
                span: local((start, end)),
                labels,
            }));
        }
        notes.extend(elsewhere.iter().map(|n| ("note", n.as_str())));
        if let Some(h) = &self.hint {
            notes.push(("help", h));
        }
        Report {
            level: match self.severity {
                Severity::Error => Level::Error,
                Severity::Warning => Level::Warning,
            },
            code: self.lint,
            message: &self.message,
            place,
            notes,
        }
        .render(paint)
    }
}

/// Plain (no colors): logs, files, snapshots. [`Diagnostic::render`] chooses.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Paint::Plain))
    }
}

/// All the problems found while loading a ruleset.
#[derive(Debug, Clone)]
pub struct LoadErrors(pub Vec<Diagnostic>);

impl LoadErrors {
    /// Every diagnostic rendered ([`Diagnostic::render`]), a blank line between two.
    pub fn render(&self, paint: Paint) -> String {
        let shown: Vec<String> = self.0.iter().map(|d| d.render(paint)).collect();
        shown.join("\n")
    }
}

/// Plain (no colors): logs, files, snapshots. [`LoadErrors::render`] chooses.
impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Paint::Plain))
    }
}

impl std::error::Error for LoadErrors {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two layers that both write `[t.rows]` with a key `"1"`: the bottom one first.
    fn two_layers() -> SourceFile {
        let bottom = "[t.rows]\n\"1\" = 1\n";
        let top = "[t.rows]\n\"1\" = 2\n";
        let text = format!("{bottom}\n{top}\n");
        SourceFile {
            path: PathBuf::from("top.toml"),
            text: Arc::from(text.as_str()),
            layers: vec![
                (PathBuf::from("bottom.toml"), 0),
                (PathBuf::from("top.toml"), bottom.len() + 1),
            ],
        }
    }

    /// A rule using a procedure, and the procedure's removal, in one file (`rules.toml`)
    /// laid over another (`base.toml`, declaring it).
    fn removal() -> (SourceFile, [(usize, usize); 3]) {
        let bottom = "[procedures]\ntwice = 'a * 2'\n";
        let top = "remove = [\"procedures.twice\"]\n[procedures]\nkick = '''\nlet n = twice(\n  3)\n'''\n";
        let text = format!("{bottom}\n{top}");
        let base = bottom.len() + 1;
        let at = |layer: usize, needle: &str| {
            let i = layer + text[layer..].find(needle).expect("written");
            (i, i + needle.len())
        };
        let (used, removed, declared) = (
            at(base, "twice(\n  3)"),
            at(base, "\"procedures.twice\""),
            at(0, "twice"),
        );
        let file = SourceFile {
            path: PathBuf::from("rules.toml"),
            text: Arc::from(text.as_str()),
            layers: vec![
                (PathBuf::from("base.toml"), 0),
                (PathBuf::from("rules.toml"), base),
            ],
        };
        (file, [used, removed, declared])
    }

    #[test]
    fn a_diagnostic_marks_its_span_over_lines_and_labels_other_places() {
        let (file, [used, removed, declared]) = removal();
        let d =
            Diagnostic::error("procedure `twice` was removed by a layer but is still used here")
                .at(&file, used)
                .also_at(removed, "removed here")
                .also_at(declared, "declared here")
                .in_rule("procedures.kick")
                .hint("keep the procedure, or change the rule that uses it");
        let shown = d.to_string();
        assert!(!shown.contains('\u{1b}'), "{shown}");
        assert!(d.render(Paint::Styled).contains('\u{1b}'));
        insta::assert_snapshot!(shown);
    }

    #[test]
    fn a_key_is_found_in_the_layer_of_its_value() {
        let f = two_layers();
        let top = f.layers[1].1;
        assert_eq!(f.layer_range(0), (0, top));
        assert_eq!(f.layer_range(top + 3), (top, f.text.len()));
        // Searching the whole text finds the bottom layer's key first.
        assert_eq!(f.find_key("t.rows", "1"), Some(9));
        let value = top + f.text[top..].find("= 2").expect("the top value");
        assert_eq!(f.find_key_in_layer(value, "t.rows", "1"), Some(top + 9));
        assert_eq!(f.find_in_layer(value, "[t.rows]"), Some(top));
        assert_eq!(f.line_col(top + 9), (2, 1));
    }
}
