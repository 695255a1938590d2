//! Where direct closures go in the stack code: a plain expression as one [`Ins::Direct`],
//! a plain condition as one [`Ins::DirectBranch`] (each followed by its stack code, run
//! only when the closure gives up), and a trigger's plain `when` worked out in its hook's
//! dispatch. The closures themselves are built in `direct.rs`.

use std::sync::Arc;

use super::super::code::*;
use super::super::machine::{Direct, F, Src};
use super::Lower;
use super::direct::MIN_NODES;
use crate::ir::*;

impl<'r> Lower<'r> {
    /// Registers a direct expression; `None` when the program has as many as an
    /// instruction can address.
    pub(super) fn add_direct(&mut self, d: Direct) -> Option<u16> {
        let i = u16::try_from(self.p.directs.len()).ok()?;
        self.p.directs.push(d);
        Some(i)
    }

    /// Lowers a plain expression as one [`Ins::Direct`] and its stack code after it;
    /// `false` when the node is not a plain expression worth it (nothing emitted).
    pub(super) fn direct_expr(&mut self, n: &'r Node) -> bool {
        if self.no_direct {
            return false;
        }
        let mark = self.hoist_mark();
        let Some(b) = self.direct(n).filter(|b| b.k >= MIN_NODES && b.exact) else {
            self.hoist_undo(mark);
            return false;
        };
        let Some(i) = self.add_direct(b.d) else {
            self.hoist_undo(mark);
            return false;
        };
        self.loc = n.loc;
        let at = self.emit(Ins::Direct(i, 0));
        self.no_direct = true;
        self.expr(n);
        self.no_direct = false; // (it was off: see the start)
        let to = self.here();
        self.p.code[at] = Ins::Direct(i, to);
        true
    }

    /// A trigger's `when` that is one plain condition, as a direct expression worked out
    /// in its hook's dispatch instead of a call of its code unit (`None`: called). The
    /// call it stands for is one operation and one level deeper: counted as such, and
    /// given up where the call would fail.
    pub(super) fn trigger_when(&mut self, when: &Code) -> Option<u16> {
        if self.no_direct {
            return None;
        }
        let [Stmt::Expr(cond)] = &when.body.stmts[..] else {
            return None;
        };
        let b = self.direct(cond)?;
        let Direct::Bool(c) = b.d else {
            return None;
        };
        let f: F<bool> = Arc::new(move |m, base| {
            m.ops += 1;
            if m.ops > m.limits.ops_per_stage || m.depth >= m.limits.max_call_depth {
                return None;
            }
            c.get(m, base)
        });
        self.add_direct(Direct::Bool(Src::Fn(f)))
    }

    /// Lowers a plain condition as one [`Ins::DirectBranch`] and its stack code after it;
    /// the jumps to patch (`None`: not a plain condition worth it, nothing emitted).
    pub(super) fn direct_branch(&mut self, n: &'r Node, when: bool) -> Option<Vec<usize>> {
        if self.no_direct {
            return None;
        }
        let mark = self.hoist_mark();
        let Some(b) = self
            .direct(n)
            .filter(|b| b.k >= MIN_NODES && matches!(b.d, Direct::Bool(_)))
        else {
            self.hoist_undo(mark);
            return None;
        };
        let Some(i) = self.add_direct(b.d) else {
            self.hoist_undo(mark);
            return None;
        };
        self.loc = n.loc;
        let at = self.emit(Ins::DirectBranch(i, when, 0, 0));
        self.no_direct = true;
        let mut js = self.branch(n, when);
        self.no_direct = false;
        let to = self.here();
        self.p.code[at] = Ins::DirectBranch(i, when, to, 0);
        js.push(at);
        Some(js)
    }
}
