//! A trigger's body: its value is added to its hook's total, so it must be an integer, or
//! nothing (a body that only acts, or an `if` without `else` not taken, adds 0).

use fuba_grammar::ast;

use super::{Compiler, R, shown};
use crate::ir::*;
use crate::value::Ty;

impl Compiler<'_> {
    /// Compiles a trigger's body: as [`Compiler::body`] (the code and its type), and a value it ends on or returns
    /// that is neither an integer nor nothing is a type error.
    pub fn trigger_body(&mut self, b: &ast::Block) -> R<(Code, Ty)> {
        let (code, ty) = self.body(b)?;
        let what = "the value of a trigger (added to its hook's total)";
        if let Some(&(span, t, _)) = self.returned.iter().find(|r| !r.2) {
            return Err(self.err(span, type_error(what, t)));
        }
        let last = match code.body.stmts.last() {
            Some(Stmt::Expr(n)) => Some(n),
            _ => None,
        };
        if last.is_some_and(|n| !int_or_nothing(n)) {
            let span = b.stmts.last().map_or(b.span, |s| s.span);
            return Err(self.err(span, type_error(what, ty)));
        }
        Ok((code, ty))
    }
}

/// The message for a trigger's value of type `t`.
fn type_error(what: &str, t: Ty) -> String {
    format!(
        "type error: {what} must be int or nothing, found {}",
        shown(t)
    )
}

/// Whether the value of `n` is always an integer or nothing: its type says so, or it is
/// an `if` or a `match` each of whose branches is.
pub(super) fn int_or_nothing(n: &Node) -> bool {
    match (&n.kind, n.ty) {
        (_, Ty::Int | Ty::None) => true,
        (NodeKind::If(_, then, otherwise), Ty::Any) => {
            block_int_or_nothing(then) && otherwise.as_deref().is_none_or(int_or_nothing)
        }
        (NodeKind::Match(_, arms), Ty::Any) => arms.iter().all(|(_, v)| int_or_nothing(v)),
        _ => false,
    }
}

/// Whether a block's value (its last statement's, nothing if that is no expression) is
/// always an integer or nothing.
fn block_int_or_nothing(b: &Block) -> bool {
    match b.stmts.last() {
        Some(Stmt::Expr(n)) => int_or_nothing(n),
        _ => true,
    }
}
