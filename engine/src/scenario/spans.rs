//! Where each key and value of a scenario file was written, so that a name the ruleset does
//! not know is reported at its line and column.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// One step of a path into the file: a key, or an array index.
#[derive(Debug, Clone, Copy)]
pub(super) enum Step<'a> {
    /// A table key.
    Key(&'a str),
    /// An array element.
    Index(usize),
}

/// The scenario file's text with its parse tree.
#[derive(Debug, Clone, Default)]
pub(super) struct Spans {
    text: String,
}

impl Spans {
    /// The spans of `text` (a scenario file as read).
    pub fn new(text: &str) -> Spans {
        Spans {
            text: text.to_string(),
        }
    }

    /// The line and column (1-based) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count()
            + 1;
        (line, col)
    }

    /// Where the value at `path` was written (for the last step a key, where the key was
    /// written when `key` is set): line and column, if the path is in the file.
    pub fn at(&self, path: &[Step<'_>], key: bool) -> Option<(usize, usize)> {
        let root = DeTable::parse(&self.text).ok()?;
        let mut here: Option<&Spanned<DeValue<'_>>> = None;
        for (i, step) in path.iter().enumerate() {
            let next = match *step {
                Step::Key(k) => {
                    let table: &DeTable<'_> = match here.map(Spanned::get_ref) {
                        None => root.get_ref(),
                        Some(DeValue::Table(t)) => t,
                        Some(_) => return None,
                    };
                    let (name, v) = table.get_key_value(k)?;
                    if key && i + 1 == path.len() {
                        return Some(self.line_col(name.span().start));
                    }
                    v
                }
                Step::Index(n) => match here.map(Spanned::get_ref) {
                    Some(DeValue::Array(items)) => items.get(n)?,
                    _ => return None,
                },
            };
            here = Some(next);
        }
        here.map(|v| self.line_col(v.span().start))
    }
}
