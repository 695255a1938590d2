//! The bracket count run before pest: code whose brackets nest deeper than
//! [`MAX_NESTING`] is refused before any recursive descent starts.

use crate::ast::Span;
use crate::error::{Nesting, ParseError};
use crate::limits::MAX_NESTING;

/// Rejects text whose brackets nest deeper than the limit, skipping strings and comments.
pub(super) fn check_nesting(text: &str) -> Result<(), ParseError> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut in_comment = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_comment {
            in_comment = c != '\n';
            continue;
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') | (false, '\n') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '#' => in_comment = true,
            '"' => in_string = true,
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(ParseError::TooDeep {
                        limit: MAX_NESTING,
                        what: Nesting::Brackets,
                        span: Span::new(i, i + 1),
                    });
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}
