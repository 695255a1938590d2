//! Uses of entries a layer removed (`remove = [...]`): each use is a located error naming
//! where the entry was removed, and compiling goes on after one, so that a removed
//! procedure, table, constant or hook used in several places gets an error at every use.

use fuba_grammar::ast;

use super::{Compiler, R};
use crate::ir::{Node, NodeKind};
use crate::ruleset::diag::Diagnostic;
use crate::value::{Ty, Value};

impl Compiler<'_> {
    /// "removed at FILE:LINE:COL" when a layer removed `key`.
    pub(super) fn removed_hint(&self, key: &str) -> Option<String> {
        let (start, _) = *self.rs.removed.get(key)?;
        Some(format!(
            "`{key}` is removed at {}",
            self.rs.place(start as u32)
        ))
    }

    /// A use of a removed entry: its error is kept and compiling goes on (the arguments
    /// too, for the uses inside them), with a value of any type in its place.
    pub(super) fn removed_use(
        &mut self,
        d: Diagnostic,
        args: &[ast::Expr],
        sp: ast::Span,
    ) -> (Node, Ty) {
        self.removed_uses.push(d);
        self.after_error = true;
        for a in args {
            // Another error in an argument is left to the code's own compilation result.
            let _ = self.expr(a);
        }
        (self.node(NodeKind::Const(Value::None), sp), Ty::Any)
    }

    /// The result of compiling a unit, with the uses of removed entries: the first error
    /// is returned, every other one handed to the resolver.
    pub(super) fn finish<T>(&mut self, r: R<T>) -> R<T> {
        if self.removed_uses.is_empty() {
            return r;
        }
        let mut errors = std::mem::take(&mut self.removed_uses);
        if let Err(e) = r {
            errors.push(e);
        }
        let first = errors.remove(0);
        for d in errors {
            self.resolver.also_error(d);
        }
        Err(first)
    }
}
