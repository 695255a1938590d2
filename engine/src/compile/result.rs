//! The value a procedure or a table's row gives: the value it ends on, or the one it
//! returns. Every `return` gives a value of the code's result type, and code that returns
//! a value cannot also end without one, so that a caller (or a table look-up) reads the
//! type the checker told it.

use fuba_grammar::ast;

use super::{Compiler, R, shown};
use crate::ir::*;
use crate::value::Ty;

impl Compiler<'_> {
    /// Compiles a procedure's body or a table row's: as [`Compiler::body`], and the type
    /// given is the code's result type (that of the value it ends on, or of its first
    /// `return` when it cannot reach its end). A `return` whose value is of another type,
    /// or code that returns a value but can also end without one, is a type error; `what`
    /// names the code in the messages (procedure `p`, row `1..3` of table `t`).
    pub fn valued_body(&mut self, b: &ast::Block, what: &str) -> R<(Code, Ty)> {
        let (code, end) = self.body(b)?;
        let returned = std::mem::take(&mut self.returned);
        // A value of type `any` after an error already reported brings no second one.
        if self.after_error {
            return Ok((code, end));
        }
        let falls_through = !block_returns(&code.body);
        let (result, from) = match returned.first() {
            Some(&(span, t, _)) if !falls_through => (t, Some(span)),
            _ => (end, None),
        };
        for &(span, t, _) in &returned {
            if self.fits(t, result) {
                continue;
            }
            return Err(match from {
                Some(first) => self.err(
                    span,
                    format!(
                        "type error: the value returned must be {result}, the type of the first value {what} returns (at {}), found {}",
                        self.place(first),
                        shown(t)
                    ),
                ),
                None if result == Ty::None => {
                    let last = b.stmts.last().map_or(b.span, |s| s.span);
                    self.err(
                        last,
                        format!(
                            "type error: {what} returns {} (at {}) but can end without a value",
                            shown(t),
                            self.place(span)
                        ),
                    )
                    .hint("end it on a value of that type, or on a `return`")
                }
                None => self.err(
                    span,
                    format!(
                        "type error: the value returned must be {result}, the type of the value {what} ends on, found {}",
                        shown(t)
                    ),
                ),
            });
        }
        Ok((code, result))
    }

    /// Where a span of the code being compiled starts: file, line and column.
    fn place(&self, span: ast::Span) -> String {
        self.rs.place((self.offset + span.start) as u32)
    }
}

/// Whether a block always leaves by a `return` (never reaches its end).
fn block_returns(b: &Block) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Return(_) => true,
        Stmt::Expr(n) => node_returns(n),
        _ => false,
    })
}

/// Whether evaluating a node always leaves by a `return`: a block that does, or an `if`
/// with an `else` both of whose branches do.
fn node_returns(n: &Node) -> bool {
    match &n.kind {
        NodeKind::If(_, then, Some(otherwise)) => block_returns(then) && node_returns(otherwise),
        NodeKind::Block(b) => block_returns(b),
        _ => false,
    }
}
