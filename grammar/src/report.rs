//! Messages that point into source text, rendered as a reader sees them: the one renderer
//! of every diagnostic of fuba (a ruleset's load-time errors and warnings, the syntax
//! errors of this crate, the errors that stop a match).
//!
//! A [`Report`] says what is wrong (its [`Level`], an optional code such as a lint's name,
//! the message), where ([`Place`]: source text with the span marked, or only the place's
//! name) and the notes under it (`in:` the rule, `help:` a fix). [`Report::render`] lays it
//! out with [`annotate_snippets`], the renderer rustc uses: the `-->` line, the source
//! lines with a gutter of line numbers, the span underlined with carets (other places of
//! the same text with dashes and their label), the notes as `= name: text`.
//!
//! [`Paint::Plain`] gives text for logs, files and snapshots; [`Paint::Styled`] adds the
//! terminal's colors. [`Paint::for_stderr`] picks: color only on a terminal with `NO_COLOR`
//! unset. The layout is the same in both.
//!
//! It lives in this crate, the lowest of the workspace, so that the parser's syntax errors
//! and the engine's diagnostics share it.

use std::ffi::OsStr;
use std::io::IsTerminal;
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Group, Level as Kind, Origin, Renderer, Snippet};

/// Whether a rendered message carries the terminal's colors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    /// Text only: logs, files, snapshots, a terminal with `NO_COLOR` set.
    Plain,
    /// With ANSI colors, for a terminal.
    Styled,
}

impl Paint {
    /// Color only when the output is a terminal and `NO_COLOR` (its value, if set) is unset
    /// or empty (<https://no-color.org>).
    pub fn choose(is_terminal: bool, no_color: Option<&OsStr>) -> Paint {
        let no_color = no_color.is_some_and(|v| !v.is_empty());
        if is_terminal && !no_color {
            Paint::Styled
        } else {
            Paint::Plain
        }
    }

    /// [`Paint::choose`] for this process's stderr and environment.
    pub fn for_stderr() -> Paint {
        Paint::choose(
            std::io::stderr().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        )
    }

    /// The renderer for this paint. Source lines are never cut to a terminal's width: a
    /// message keeps all of its line, as a log must.
    fn renderer(self) -> Renderer {
        let renderer = match self {
            Paint::Plain => Renderer::plain(),
            Paint::Styled => Renderer::styled(),
        };
        renderer.term_width(FULL_WIDTH)
    }
}

/// A width no source line reaches, so that none is shortened with `...`.
const FULL_WIDTH: usize = 100_000;

/// How grave a [`Report`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// `error`: the thing cannot be used.
    Error,
    /// `warning`: it works but something is likely wrong.
    Warning,
}

/// Where a [`Report`] points.
#[derive(Debug, Clone)]
pub enum Place<'a> {
    /// Into source text: its lines are shown with the span marked.
    Source(Excerpt<'a>),
    /// Only the place's name (`file:line:col`), when its text is not at hand.
    Named(&'a str),
}

/// A span of a source text to mark, and other spans of the same text with a label each.
#[derive(Debug, Clone)]
pub struct Excerpt<'a> {
    /// The file's name as messages show it.
    pub path: &'a str,
    /// The whole text of the file (line numbers count from its start).
    pub text: &'a str,
    /// The byte range the report is about (cut to the text; an empty one marks a column).
    pub span: Range<usize>,
    /// Other places of the text that explain it, each with what it is.
    pub labels: Vec<(Range<usize>, &'a str)>,
}

/// One message: what, where, and the notes under it.
#[derive(Debug, Clone)]
pub struct Report<'a> {
    /// Error or warning.
    pub level: Level,
    /// A code shown after the level, `warning[unused-procedure]` (a lint's name).
    pub code: Option<&'a str>,
    /// What is wrong.
    pub message: &'a str,
    /// Where, if anywhere.
    pub place: Option<Place<'a>>,
    /// The notes under the source, in order, each a name and a text: `("in", rule)`
    /// is shown `= in: rule`.
    pub notes: Vec<(&'a str, &'a str)>,
}

impl<'a> Report<'a> {
    /// An error saying `message`, with no place and no notes yet.
    pub fn error(message: &'a str) -> Self {
        Report {
            level: Level::Error,
            code: None,
            message,
            place: None,
            notes: Vec::new(),
        }
    }

    /// The report laid out as text (ending with a newline), colored or not.
    pub fn render(&self, paint: Paint) -> String {
        let kind = match self.level {
            Level::Error => Kind::ERROR,
            Level::Warning => Kind::WARNING,
        };
        let mut title = kind.primary_title(self.message);
        if let Some(code) = self.code {
            title = title.id(code);
        }
        let mut group = Group::with_title(title);
        match &self.place {
            Some(Place::Source(excerpt)) => group = group.element(excerpt.snippet()),
            Some(Place::Named(name)) => group = group.element(Origin::path(*name)),
            None => {}
        }
        for (name, text) in &self.notes {
            group = group.element(Kind::NOTE.with_name(*name).message(*text));
        }
        let mut out = paint.renderer().render(&[group]);
        out.push('\n');
        out
    }
}

impl<'a> Excerpt<'a> {
    /// The lines of the text that the spans touch, as a snippet numbered from the line
    /// they start on, the span marked as primary and the labels as context.
    fn snippet(&self) -> Snippet<'a, annotate_snippets::Annotation<'a>> {
        let text = self.text;
        let span = within(text, &self.span);
        let labels: Vec<_> = self
            .labels
            .iter()
            .map(|(r, label)| (within(text, r), *label))
            .collect();
        let lo = labels
            .iter()
            .map(|(r, _)| r.start)
            .fold(span.start, usize::min);
        let hi = labels.iter().map(|(r, _)| r.end).fold(span.end, usize::max);
        let first = text[..lo].rfind('\n').map_or(0, |i| i + 1);
        let last = text[hi..].find('\n').map_or(text.len(), |i| hi + i);
        let line = text[..first].matches('\n').count() + 1;
        let shift = |r: &Range<usize>| r.start - first..r.end - first;
        let mut snippet = Snippet::source(&text[first..last])
            .line_start(line)
            .path(self.path)
            .annotation(AnnotationKind::Primary.span(shift(&span)));
        for (r, label) in &labels {
            snippet = snippet.annotation(AnnotationKind::Context.span(shift(r)).label(*label));
        }
        snippet
    }
}

/// `range` cut to `text` and moved back to character boundaries, start before end, and
/// without the blanks and line ends it ends with (a value's span that takes in its line's
/// end marks that line, not the next one too).
fn within(text: &str, range: &Range<usize>) -> Range<usize> {
    let boundary = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = boundary(range.start);
    let end = boundary(range.end).max(start);
    let kept = text[start..end].trim_end().len();
    let first = text[start..end].chars().next().map_or(0, char::len_utf8);
    start..start + kept.max(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &'static str, span: Range<usize>) -> Report<'static> {
        Report {
            place: Some(Place::Source(Excerpt {
                path: "rules.toml",
                text,
                span,
                labels: Vec::new(),
            })),
            notes: vec![("in", "procedures.kick"), ("help", "write `==`")],
            ..Report::error("unknown operator `=`")
        }
    }

    #[test]
    fn plain_has_no_color_and_styled_has() {
        let r = at("a = 1\nif a = 1 {}\n", 11..12);
        let plain = r.render(Paint::Plain);
        assert!(!plain.contains('\u{1b}'), "{plain}");
        assert_eq!(
            plain,
            "error: unknown operator `=`\n \
             --> rules.toml:2:6\n  \
             |\n\
             2 | if a = 1 {}\n  \
             |      ^\n  \
             |\n  \
             = in: procedures.kick\n  \
             = help: write `==`\n"
        );
        let styled = r.render(Paint::Styled);
        assert!(styled.contains('\u{1b}'), "{styled}");
    }

    #[test]
    fn a_span_ending_with_its_line_end_marks_that_line_only() {
        let r = at("a = 1\nteam\n'''\n", 6..11);
        let shown = r.render(Paint::Plain);
        assert!(shown.contains("2 | team\n  | ^^^^\n"), "{shown}");
        assert!(!shown.contains("'''"), "{shown}");
    }

    #[test]
    fn color_only_on_a_terminal_without_no_color() {
        assert_eq!(Paint::choose(true, None), Paint::Styled);
        assert_eq!(Paint::choose(true, Some(OsStr::new(""))), Paint::Styled);
        assert_eq!(Paint::choose(true, Some(OsStr::new("1"))), Paint::Plain);
        assert_eq!(Paint::choose(false, None), Paint::Plain);
        assert_eq!(Paint::choose(false, Some(OsStr::new("1"))), Paint::Plain);
    }

    #[test]
    fn spans_past_the_text_or_inside_a_character_are_cut() {
        let r = at("é = 1", 1..99);
        assert!(r.render(Paint::Plain).contains("--> rules.toml:1:1"));
        #[allow(clippy::reversed_empty_ranges)] // a span reversed by mistake
        let r = at("x", 5..2);
        assert!(r.render(Paint::Plain).contains("--> rules.toml:1:2"));
    }
}
