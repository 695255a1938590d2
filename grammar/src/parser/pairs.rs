//! Reading pest's pairs: spans, names, numbers, strings, literals, and the `for x in c`
//! head of an arm; and the error for a parse tree the builder did not expect.

use pest::iterators::Pair;

use super::Rule;
use crate::ast::{Each, Expr, ExprKind, Ident, Span, StrLit};
use crate::error::ParseError;

/// The error for a parse tree the builder did not expect (a bug, not the user's).
pub(super) fn internal() -> ParseError {
    ParseError::Syntax {
        message: "internal parser error: unexpected parse tree".into(),
        span: Span::default(),
    }
}

/// Where a pair lies in the text.
pub(super) fn span_of(p: &Pair<'_, Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

/// A name, with its place.
pub(super) fn ident(p: Pair<'_, Rule>) -> Ident {
    Ident {
        name: p.as_str().to_string(),
        span: span_of(&p),
    }
}

/// The first pair inside `p`.
pub(super) fn first(p: Pair<'_, Rule>) -> Result<Pair<'_, Rule>, ParseError> {
    p.into_inner().next().ok_or_else(internal)
}

/// An integer literal's value; one too big for `i64` is an error located at it.
pub(super) fn int_value(p: &Pair<'_, Rule>) -> Result<i64, ParseError> {
    p.as_str().parse::<i64>().map_err(|_| ParseError::Number {
        text: p.as_str().to_string(),
        span: span_of(p),
    })
}

/// A string literal's value, its escapes (`\"`, `\\`) undone.
pub(super) fn string_lit(p: Pair<'_, Rule>) -> Result<StrLit, ParseError> {
    let span = span_of(&p);
    let inner = first(p)?;
    let mut value = String::new();
    let mut chars = inner.as_str().chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                value.push(n);
            }
        } else {
            value.push(c);
        }
    }
    Ok(StrLit { value, span })
}

/// `for var in collection` at the head of an arm.
pub(super) fn each_head(p: Pair<'_, Rule>) -> Result<Each, ParseError> {
    let mut it = p.into_inner();
    let var = ident(it.next().ok_or_else(internal)?);
    let collection = ident(it.next().ok_or_else(internal)?);
    Ok(Each { var, collection })
}

/// A number, boolean, `none`, string or name.
pub(super) fn literal(p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
    let span = span_of(&p);
    let kind = match p.as_rule() {
        Rule::int => ExprKind::Int(int_value(&p)?),
        Rule::bool_lit => ExprKind::Bool(p.as_str() == "true"),
        Rule::none_lit => ExprKind::None,
        Rule::string => ExprKind::Str(string_lit(p)?.value),
        Rule::ident => ExprKind::Name(ident(p)),
        _ => return Err(internal()),
    };
    Ok(Expr { kind, span })
}
