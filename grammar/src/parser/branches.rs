//! `if` and `match`: conditions, arms and patterns.

use pest::iterators::Pair;

use super::Rule;
use super::builder::Builder;
use super::pairs::{each_head, first, int_value, internal, span_of, string_lit};
use crate::ast::{Expr, ExprKind, MatchArm, Pattern};
use crate::error::ParseError;

impl Builder {
    /// `if cond { ... } else ...`: an `else if` is one tree level deeper.
    pub(super) fn if_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let cond = Box::new(self.expr(it.next().ok_or_else(internal)?)?);
        let then = self.block(it.next().ok_or_else(internal)?)?;
        let otherwise = match it.next() {
            None => None,
            Some(q) if q.as_rule() == Rule::block => {
                let b = self.block(q)?;
                Some(Box::new(Expr {
                    span: b.span,
                    kind: ExprKind::Block(b),
                }))
            }
            Some(q) => {
                self.enter(span_of(&q))?;
                let e = self.if_expr(q)?;
                self.depth -= 1;
                Some(Box::new(e))
            }
        };
        Ok(Expr {
            kind: ExprKind::If {
                cond,
                then,
                otherwise,
            },
            span,
        })
    }

    /// `match value { pattern | pattern => value, ... }`, arms headed by patterns or
    /// by `for entry in collection`.
    pub(super) fn match_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let scrutinee = Box::new(self.expr(it.next().ok_or_else(internal)?)?);
        let mut arms = Vec::new();
        for arm in it {
            let arm_span = span_of(&arm);
            let mut patterns = Vec::new();
            let mut value = None;
            let mut each = None;
            for q in arm.into_inner() {
                match q.as_rule() {
                    Rule::pattern => patterns.push(pattern(first(q)?)?),
                    Rule::each_head => each = Some(each_head(q)?),
                    _ => value = Some(self.expr(q)?),
                }
            }
            arms.push(MatchArm {
                patterns,
                value: value.ok_or_else(internal)?,
                span: arm_span,
                each,
            });
        }
        Ok(Expr {
            kind: ExprKind::Match { scrutinee, arms },
            span,
        })
    }
}

/// A pattern of a `match` arm: `_`, a range `a..b`, an integer, a string or a boolean.
fn pattern(p: Pair<'_, Rule>) -> Result<Pattern, ParseError> {
    Ok(match p.as_rule() {
        Rule::wildcard => Pattern::Wildcard,
        Rule::range_pat => {
            let mut it = p.into_inner();
            let lo = int_value(&it.next().ok_or_else(internal)?)?;
            let hi = int_value(&it.next().ok_or_else(internal)?)?;
            Pattern::Range(lo, hi)
        }
        Rule::neg_int | Rule::int => Pattern::Int(int_value(&p)?),
        Rule::string => Pattern::Str(string_lit(p)?.value),
        Rule::bool_lit => Pattern::Bool(p.as_str() == "true"),
        _ => return Err(internal()),
    })
}
