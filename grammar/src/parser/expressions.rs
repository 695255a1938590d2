//! Expressions built from operators and literals: unary and binary operators, indexes
//! and fields, lists, blocks, `modifiers`, `count`/`any`/`all`, `hook` and calls'
//! arguments.

use pest::iterators::Pair;

use super::Rule;
use super::builder::Builder;
use super::pairs::{first, ident, internal, span_of, string_lit};
use crate::ast::{BinOp, Expr, ExprKind, ModRow, Quant, Span, UnOp};
use crate::error::ParseError;

impl Builder {
    /// `not`, `-` and `+` before an operand: each one a tree level.
    pub(super) fn unary(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let mut ops = Vec::new();
        let mut operand = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::not_op => ops.push((UnOp::Not, span_of(&q))),
                Rule::neg_op if q.as_str() == "-" => ops.push((UnOp::Neg, span_of(&q))),
                Rule::neg_op => ops.push((UnOp::Plus, span_of(&q))),
                _ => operand = Some(q),
            }
        }
        let operand = operand.ok_or_else(internal)?;
        let mut e = self.nested(ops.len(), span_of(&operand), |b| b.expr(operand))?;
        for (op, op_span) in ops.into_iter().rev() {
            let s = Span::new(op_span.start, e.span.end);
            e = Expr {
                kind: ExprKind::Unary {
                    op,
                    expr: Box::new(e),
                },
                span: s,
            };
        }
        Ok(e)
    }

    /// An operand followed by indexes `[i]` and fields `.name`: each one a tree level.
    pub(super) fn postfix(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let mut it = p.into_inner();
        let base = it.next().ok_or_else(internal)?;
        let ops: Vec<Pair<'_, Rule>> = it.collect();
        // The innermost node of the chain is its base.
        self.nested(ops.len(), span_of(&base), |b| {
            let mut e = b.expr(base)?;
            for op in ops {
                let s = Span::new(e.span.start, op.as_span().end());
                let kind = match op.as_rule() {
                    Rule::index_op => ExprKind::Index {
                        base: Box::new(e),
                        index: Box::new(b.expr(first(op)?)?),
                    },
                    Rule::field_op => ExprKind::Field {
                        base: Box::new(e),
                        field: ident(first(op)?),
                    },
                    _ => return Err(internal()),
                };
                e = Expr { kind, span: s };
            }
            Ok(e)
        })
    }

    /// A list `[a, b, ...]`.
    pub(super) fn list_lit(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let items = p
            .into_inner()
            .map(|q| self.expr(q))
            .collect::<Result<_, _>>()?;
        Ok(Expr {
            kind: ExprKind::List(items),
            span,
        })
    }

    /// A block `{ ... }` written where a value is expected.
    pub(super) fn block_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        Ok(Expr {
            kind: ExprKind::Block(self.block(p)?),
            span,
        })
    }

    /// `modifiers "name" { "label": value when condition, ... }`.
    pub(super) fn modifiers_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let name = string_lit(it.next().ok_or_else(internal)?)?;
        let mut rows = Vec::new();
        for r in it {
            let mut ri = r.into_inner();
            let label = string_lit(ri.next().ok_or_else(internal)?)?;
            let value = self.expr(ri.next().ok_or_else(internal)?)?;
            let when = ri.next().map(|w| self.expr(w)).transpose()?;
            rows.push(ModRow { label, value, when });
        }
        Ok(Expr {
            kind: ExprKind::Modifiers { name, rows },
            span,
        })
    }

    /// `count x in set where condition` (also `any`, `all`).
    pub(super) fn quant_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let quant = match it.next().ok_or_else(internal)?.as_str() {
            "count" => Quant::Count,
            "any" => Quant::Any,
            _ => Quant::All,
        };
        let var = ident(it.next().ok_or_else(internal)?);
        let iter = Box::new(self.expr(it.next().ok_or_else(internal)?)?);
        let filter = it.next().map(|w| self.expr(w).map(Box::new)).transpose()?;
        Ok(Expr {
            kind: ExprKind::Quant {
                quant,
                var,
                iter,
                filter,
            },
            span,
        })
    }

    /// `hook name(arguments)`.
    pub(super) fn hook_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let name = ident(it.next().ok_or_else(internal)?);
        let args = self.args(it.next().ok_or_else(internal)?)?;
        Ok(Expr {
            kind: ExprKind::Hook { name, args },
            span,
        })
    }

    /// A call's arguments `(a, b, ...)`.
    pub(super) fn args(&mut self, p: Pair<'_, Rule>) -> Result<Vec<Expr>, ParseError> {
        p.into_inner().map(|q| self.expr(q)).collect()
    }

    /// Left-associative chains `a op b op c`; comparisons have at most one operator.
    pub(super) fn binary_chain(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let items: Vec<Pair<'_, Rule>> = p.into_inner().collect();
        let n_ops = items.len() / 2;
        // The innermost node of a left-associative chain is its first operand.
        let span = items.first().map(span_of).unwrap_or_default();
        self.nested(n_ops, span, |b| {
            let mut it = items.into_iter();
            let mut lhs = b.expr(it.next().ok_or_else(internal)?)?;
            while let Some(op) = it.next() {
                let op = binop(op.as_str())?;
                let rhs = b.expr(it.next().ok_or_else(internal)?)?;
                let span = Span::new(lhs.span.start, rhs.span.end);
                lhs = Expr {
                    kind: ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    span,
                };
            }
            Ok(lhs)
        })
    }
}

/// The binary operator written `s`.
fn binop(s: &str) -> Result<BinOp, ParseError> {
    Ok(match s {
        "or" => BinOp::Or,
        "and" => BinOp::And,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "in" => BinOp::In,
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "|" => BinOp::Union,
        "&" => BinOp::Intersect,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "%" => BinOp::Rem,
        _ => return Err(internal()),
    })
}
