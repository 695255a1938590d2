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
    /// Brackets, blocks or sub-expressions nest deeper than the limit.
    #[error("nesting deeper than {limit} levels")]
    TooDeep {
        /// The limit that was exceeded.
        limit: usize,
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
