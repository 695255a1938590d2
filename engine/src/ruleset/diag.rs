//! Errors in ruleset files, located by file, line and column, and rendered as source
//! diagnostics: the line itself with a marker under the offending text, and a hint.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

    /// Where a TOML key is written under a table header, best effort: the offset of
    /// `key` after the header `[section]` (or anywhere when the header is not found).
    pub fn find_key(&self, section: &str, key: &str) -> Option<usize> {
        let header = format!("[{section}]");
        let from = self.text.find(&header).unwrap_or(0);
        let rest = &self.text[from..];
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

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match self.lint {
            Some(l) => writeln!(f, "{sev}[{l}]: {}", self.message)?,
            None => writeln!(f, "{sev}: {}", self.message)?,
        }
        if let (Some(file), Some((start, end))) = (&self.file, self.span) {
            let (line, col) = file.line_col(start);
            let (text, line_start) = file.line_at(start);
            let gutter = line.to_string().len();
            writeln!(f, "{:gutter$}--> {}:{line}:{col}", "", file.shown_at(start))?;
            writeln!(f, "{:gutter$} |", "")?;
            writeln!(f, "{line} | {text}")?;
            let pad: String = text[..start - line_start]
                .chars()
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            let line_end = line_start + text.len();
            let width = text[start - line_start..end.clamp(start, line_end) - line_start]
                .chars()
                .count()
                .max(1);
            writeln!(f, "{:gutter$} | {pad}{}", "", "^".repeat(width))?;
        }
        let gutter = match (&self.file, self.span) {
            (Some(file), Some((start, _))) => file.line_col(start).0.to_string().len(),
            _ => 1,
        };
        if let Some(rule) = &self.rule {
            writeln!(f, "{:gutter$} = in: {rule}", "")?;
        }
        if let Some(h) = &self.hint {
            writeln!(f, "{:gutter$} = help: {h}", "")?;
        }
        Ok(())
    }
}

/// All the problems found while loading a ruleset.
#[derive(Debug, Clone)]
pub struct LoadErrors(pub Vec<Diagnostic>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}
