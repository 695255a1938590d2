//! Parse errors with spans.

use crate::ast::Span;

/// An error found while parsing a piece of effect-language code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The text does not follow the grammar.
    #[error("syntax error: {message}")]
    Syntax {
        /// What was expected.
        message: String,
        /// Where (byte offsets in the parsed text).
        span: Span,
    },
    /// Brackets, blocks or sub-expressions nest deeper than a limit; `what` says which.
    #[error("{}", .what.describe(*.limit))]
    TooDeep {
        /// The limit that was exceeded.
        limit: usize,
        /// Which limit: what counts against it.
        what: Nesting,
        /// Where the limit was exceeded.
        span: Span,
    },
    /// The code is longer than the limit.
    #[error("code longer than {limit} bytes")]
    TooLong {
        /// The limit that was exceeded.
        limit: usize,
        /// The whole text.
        span: Span,
    },
    /// A number does not fit in a 64-bit integer, or a dice count is out of range.
    #[error("number out of range: {text}")]
    Number {
        /// The number as written.
        text: String,
        /// Where.
        span: Span,
    },
}

/// The nesting limits of the parser ([`crate::limits`]), each counting something else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Nesting {
    /// Open brackets: [`MAX_NESTING`](crate::limits::MAX_NESTING).
    Brackets,
    /// Levels of the syntax tree: [`MAX_TREE_DEPTH`](crate::limits::MAX_TREE_DEPTH).
    Tree,
    /// The parser's own stack guard (nesting that brackets do not show).
    ParserStack,
}

impl Nesting {
    /// The message for this limit, with its value.
    pub fn describe(self, limit: usize) -> String {
        match self {
            Nesting::Brackets => format!(
                "brackets nest deeper than {limit} levels (each `(`, `[` or `{{` not yet closed \
                 counts one)"
            ),
            Nesting::Tree => format!(
                "code nests deeper than {limit} levels of the syntax tree (each operator of a \
                 chain such as `a + b + c`, each `else if`, each `not` and each block or \
                 bracket counts one)"
            ),
            Nesting::ParserStack => format!(
                "code nests too deep for the parser's stack (nesting brackets do not show, such \
                 as a long `else if` chain or `roll d6 by roll d6 by ...`; the syntax tree may \
                 be at most {limit} levels deep)"
            ),
        }
    }
}

impl ParseError {
    /// Where the error is, as byte offsets in the parsed text.
    pub fn span(&self) -> Span {
        match self {
            ParseError::Syntax { span, .. }
            | ParseError::TooDeep { span, .. }
            | ParseError::TooLong { span, .. }
            | ParseError::Number { span, .. } => *span,
        }
    }
}
