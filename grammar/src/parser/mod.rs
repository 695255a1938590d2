//! From text to [`ast`](crate::ast): pest parses, the modules here build the tree.
//!
//! Before pest runs, [`nesting::check_nesting`] rejects code whose brackets nest deeper
//! than [`MAX_NESTING`](crate::limits::MAX_NESTING). Nesting that brackets do not show (an
//! `else if` chain, `roll d6 by roll d6 by ...`) is caught by pest's own stack guard,
//! reported as [`ParseError::TooDeep`] too. The builder then counts the depth of the tree
//! it builds (chains of operators included: `a + b + c` is a tree of depth 3) and stops at
//! [`MAX_TREE_DEPTH`](crate::limits::MAX_TREE_DEPTH), so that no later recursive walk over
//! the tree (printing, checking, evaluating, dropping) can exhaust the stack either.
//!
//! The modules, in the order the text goes through them:
//! - [`nesting`]: the bracket count before pest runs;
//! - [`syntax_error`] and [`rule_names`]: pest's error turned into a message, naming every
//!   grammar rule; [`keywords`]: the words that cannot be names;
//! - [`builder`]: the tree builder, its depth count and the statements; the expressions
//!   in [`expressions`] (operators, literals, lists, `modifiers`, `count`, `hook`),
//!   [`branches`] (`if`, `match`), [`choose`], [`roll`] and [`prompt`];
//! - [`pairs`]: reading names, numbers and strings off pest's pairs.

use pest::Parser as _;
use pest::iterators::Pair;

use crate::ast::{Block, Expr, Param, Span};
use crate::error::ParseError;
use crate::limits::MAX_CODE_BYTES;

mod branches;
mod builder;
mod choose;
mod expressions;
mod keywords;
mod nesting;
mod pairs;
mod prompt;
mod roll;
mod rule_names;
mod syntax_error;

pub use keywords::KEYWORDS;
pub(crate) use prompt::escape as escape_prompt;

use builder::Builder;
use nesting::check_nesting;
use pairs::{first, ident, internal, span_of};
use syntax_error::syntax_error;

/// The parser pest derives from the grammar, `effect.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "effect.pest"]
struct EffectParser;

/// Parses a sequence of statements (a procedure body, a table entry, a trigger effect).
pub fn parse_body(text: &str) -> Result<Block, ParseError> {
    let top = parse_rule(Rule::body, text)?;
    let mut b = Builder { depth: 0 };
    let span = span_of(&top);
    let stmts = top
        .into_inner()
        .filter(|p| p.as_rule() == Rule::stmt)
        .map(|p| b.stmt(p))
        .collect::<Result<_, _>>()?;
    Ok(Block { stmts, span })
}

/// Parses one expression (a condition).
pub fn parse_expression(text: &str) -> Result<Expr, ParseError> {
    let top = parse_rule(Rule::expression, text)?;
    let mut b = Builder { depth: 0 };
    let inner = first(top)?;
    b.expr(inner)
}

/// Parses a parameter list: `name: type, ...`.
pub fn parse_params(text: &str) -> Result<Vec<Param>, ParseError> {
    let top = parse_rule(Rule::params, text)?;
    top.into_inner()
        .filter(|p| p.as_rule() == Rule::param)
        .map(|p| {
            let mut it = p.into_inner();
            let name = ident(it.next().ok_or_else(internal)?);
            let ty = ident(it.next().ok_or_else(internal)?);
            Ok(Param { name, ty })
        })
        .collect()
}

/// Parses `text` as `rule` (after the length and nesting checks), giving its one top pair.
fn parse_rule(rule: Rule, text: &str) -> Result<Pair<'_, Rule>, ParseError> {
    if text.len() > MAX_CODE_BYTES {
        return Err(ParseError::TooLong {
            limit: MAX_CODE_BYTES,
            span: Span::new(0, text.len()),
        });
    }
    check_nesting(text)?;
    let mut pairs = EffectParser::parse(rule, text).map_err(|e| syntax_error(rule, text, e))?;
    pairs.next().ok_or_else(internal)
}
