//! The tree builder: its depth count, blocks, statements, and the dispatch of an
//! expression to the function that builds its kind of node.

use pest::iterators::Pair;

use super::Rule;
use super::pairs::{first, ident, internal, literal, span_of, string_lit};
use crate::ast::{AssignOp, Block, Expr, ExprKind, Ident, LetPattern, Span, Stmt, StmtKind};
use crate::error::{Nesting, ParseError};
use crate::limits::MAX_TREE_DEPTH;

/// Builds the tree from pest's pairs, counting how deep it is.
pub(super) struct Builder {
    /// Levels of the tree open at this point of the build.
    pub(super) depth: usize,
}

impl Builder {
    /// Goes one level deeper, refusing a tree deeper than [`MAX_TREE_DEPTH`].
    pub(super) fn enter(&mut self, span: Span) -> Result<(), ParseError> {
        self.depth += 1;
        // A bracket level may cost a few tree levels; allow for that, but stay bounded.
        if self.depth > MAX_TREE_DEPTH {
            return Err(ParseError::TooDeep {
                limit: MAX_TREE_DEPTH,
                what: Nesting::Tree,
                span,
            });
        }
        Ok(())
    }

    /// A block `{ ... }`: one tree level holding its statements.
    pub(super) fn block(&mut self, p: Pair<'_, Rule>) -> Result<Block, ParseError> {
        let span = span_of(&p);
        self.enter(span)?;
        let stmts = p
            .into_inner()
            .map(|s| self.stmt(s))
            .collect::<Result<_, _>>()?;
        self.depth -= 1;
        Ok(Block { stmts, span })
    }

    /// A statement: `let`, `set`, `repeat`, `for`, `break`, `return`, `emit` or an
    /// expression.
    pub(super) fn stmt(&mut self, p: Pair<'_, Rule>) -> Result<Stmt, ParseError> {
        let span = span_of(&p);
        let inner = first(p)?;
        let kind = match inner.as_rule() {
            Rule::let_stmt => {
                let mut it = inner.into_inner();
                let pat = it.next().ok_or_else(internal)?;
                let names: Vec<Ident> = pat.into_inner().map(ident).collect();
                let pattern = match <[Ident; 2]>::try_from(names) {
                    Ok([a, b]) => LetPattern::Pair(a, b),
                    Err(mut v) => LetPattern::Name(v.pop().ok_or_else(internal)?),
                };
                let value = self.expr(it.next().ok_or_else(internal)?)?;
                StmtKind::Let { pattern, value }
            }
            Rule::set_stmt => {
                let mut it = inner.into_inner().peekable();
                let name = ident(it.next().ok_or_else(internal)?);
                let field = match it.peek().map(|p| p.as_rule()) {
                    Some(Rule::set_field) => Some(ident(first(it.next().ok_or_else(internal)?)?)),
                    _ => None,
                };
                let index = match it.peek().map(|p| p.as_rule()) {
                    Some(Rule::expr) => Some(self.expr(it.next().ok_or_else(internal)?)?),
                    _ => None,
                };
                let op = match it.next().ok_or_else(internal)?.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Assign,
                };
                let value = self.expr(it.next().ok_or_else(internal)?)?;
                StmtKind::Set {
                    name,
                    field,
                    index,
                    op,
                    value,
                }
            }
            Rule::repeat_stmt => {
                let mut it = inner.into_inner();
                let count = self.expr(it.next().ok_or_else(internal)?)?;
                let body = self.block(it.next().ok_or_else(internal)?)?;
                StmtKind::Repeat { count, body }
            }
            Rule::for_stmt => {
                let mut it = inner.into_inner();
                let var = ident(it.next().ok_or_else(internal)?);
                let iter = self.expr(it.next().ok_or_else(internal)?)?;
                let mut next = it.next().ok_or_else(internal)?;
                let mut filter = None;
                if next.as_rule() == Rule::for_where {
                    filter = Some(self.expr(first(next)?)?);
                    next = it.next().ok_or_else(internal)?;
                }
                let body = self.block(next)?;
                StmtKind::For {
                    var,
                    iter,
                    filter,
                    body,
                }
            }
            Rule::break_stmt => StmtKind::Break,
            Rule::return_stmt => match inner.into_inner().next() {
                Some(e) => StmtKind::Return(Some(self.expr(e)?)),
                None => StmtKind::Return(None),
            },
            Rule::emit_stmt => {
                let mut it = inner.into_inner();
                let kind = string_lit(it.next().ok_or_else(internal)?)?;
                let mut fields = Vec::new();
                for f in it {
                    let mut fi = f.into_inner();
                    let name = ident(fi.next().ok_or_else(internal)?);
                    let value = self.expr(fi.next().ok_or_else(internal)?)?;
                    fields.push((name, value));
                }
                StmtKind::Emit { kind, fields }
            }
            Rule::expr => StmtKind::Expr(self.expr(inner)?),
            _ => return Err(internal()),
        };
        Ok(Stmt { kind, span })
    }

    /// Builds an expression. Precedence levels that hold a single operand (and
    /// parentheses, which only group) are passed through in a loop, not by recursion, so
    /// the builder recurses once per node of the tree, not once per grammar rule.
    pub(super) fn expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let p = skip_single(p);
        let span = span_of(&p);
        self.enter(span)?;
        let e = self.expr_inner(p)?;
        self.depth -= 1;
        Ok(e)
    }

    /// One node. Each kind of node is built by its own function, so that this one, which
    /// is on the stack once per level of nesting, keeps a small stack frame.
    pub(super) fn expr_inner(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        match p.as_rule() {
            Rule::or_expr | Rule::and_expr | Rule::sum_expr | Rule::prod_expr | Rule::cmp_expr => {
                self.binary_chain(p)
            }
            Rule::not_expr | Rule::unary => self.unary(p),
            Rule::postfix => self.postfix(p),
            Rule::int | Rule::bool_lit | Rule::none_lit | Rule::string | Rule::ident => literal(p),
            Rule::list_lit => self.list_lit(p),
            Rule::block => self.block_expr(p),
            Rule::if_expr => self.if_expr(p),
            Rule::match_expr => self.match_expr(p),
            Rule::choose_expr => self.choose_expr(p),
            Rule::roll_expr => self.roll_expr(p),
            Rule::modifiers_expr => self.modifiers_expr(p),
            Rule::quant_expr => self.quant_expr(p),
            Rule::hook_expr => self.hook_expr(p),
            Rule::call => {
                let span = span_of(&p);
                let mut it = p.into_inner();
                let name = ident(it.next().ok_or_else(internal)?);
                let args = self.args(it.next().ok_or_else(internal)?)?;
                Ok(Expr {
                    kind: ExprKind::Call { name, args },
                    span,
                })
            }
            _ => Err(internal()),
        }
    }

    /// Goes `extra` levels deeper for the duration of `f`: a chain of `n` operators
    /// (`a + b + c`, `not not x`, `x.a.b`) nests the tree `n` levels deep.
    pub(super) fn nested<T>(
        &mut self,
        extra: usize,
        span: Span,
        f: impl FnOnce(&mut Self) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        self.depth += extra;
        if self.depth > MAX_TREE_DEPTH {
            return Err(ParseError::TooDeep {
                limit: MAX_TREE_DEPTH,
                what: Nesting::Tree,
                span,
            });
        }
        let r = f(self)?;
        self.depth -= extra;
        Ok(r)
    }
}

/// Skips the precedence levels that hold a single operand, and parentheses (which only
/// group: the tree keeps no trace of them; the printer puts back those the precedence
/// needs).
fn skip_single(mut p: Pair<'_, Rule>) -> Pair<'_, Rule> {
    loop {
        match p.as_rule() {
            Rule::expr
            | Rule::or_expr
            | Rule::and_expr
            | Rule::not_expr
            | Rule::cmp_expr
            | Rule::sum_expr
            | Rule::prod_expr
            | Rule::unary
            | Rule::postfix
            | Rule::primary
            | Rule::paren => {
                let mut inner = p.clone().into_inner();
                match (inner.next(), inner.next()) {
                    (Some(only), None) => p = only,
                    _ => return p,
                }
            }
            _ => return p,
        }
    }
}
