//! Lowering to typed instructions ([`crate::vm::typed`]) where the checker's types on the
//! nodes allow them.

use super::super::code::*;
use super::super::light::is_light;
use super::super::typed::{mirror, negate};
use super::Lower;
use crate::ir::*;
use crate::prims::Prim;
use crate::value::{Ty, Value};

/// Types compared by [`Ins::JumpIfLL`]'s equality: one machine word, no heap.
fn scalar(t: Ty) -> bool {
    matches!(t, Ty::Int | Ty::Bool | Ty::Team | Ty::Area | Ty::Str)
}

impl<'r> Lower<'r> {
    /// A comparison of a local with a local or a small integer, branched on: one typed
    /// instruction that jumps when the comparison's truth is `when` (`None`: not such a
    /// comparison, nothing emitted).
    pub(super) fn typed_branch(&mut self, n: &'r Node, when: bool) -> Option<usize> {
        let NodeKind::Bin(op, x, y) = &n.kind else {
            return None;
        };
        let mut op = *op;
        negate(op)?;
        let (x, y) = match (&x.kind, &y.kind) {
            (NodeKind::Local(_), _) => (x, y),
            (_, NodeKind::Local(_)) => {
                op = mirror(op)?;
                (y, x)
            }
            _ => return None,
        };
        let NodeKind::Local(a) = x.kind else {
            return None;
        };
        if !when {
            op = negate(op)?;
        }
        let ordered = !matches!(op, Op::Eq | Op::Ne);
        let ins = match &y.kind {
            NodeKind::Local(b) => {
                let fits = if ordered {
                    x.ty == Ty::Int && y.ty == Ty::Int
                } else {
                    x.ty == y.ty && scalar(x.ty)
                };
                if !fits {
                    return None;
                }
                Ins::JumpIfLL(op, self.slot(a), self.slot(*b), 0)
            }
            NodeKind::Role(r) => {
                if ordered || x.ty != Ty::Team {
                    return None;
                }
                Ins::JumpIfLL(op, self.slot(a), role_opd(*r), 0)
            }
            _ => {
                if x.ty != Ty::Int || y.ty != Ty::Int {
                    return None;
                }
                let mut calls = Vec::new();
                let Some(Value::Int(k)) = self.fold(y, &mut calls) else {
                    return None;
                };
                let k = i32::try_from(k).ok()?;
                if !calls.is_empty() {
                    return None;
                }
                Ins::JumpIfLK(op, self.slot(a), k, 0)
            }
        };
        self.loc = n.loc;
        Some(self.emit(ins))
    }

    /// A light primitive whose operands are all locals or team roles: read in place, not
    /// pushed
    /// (`false`: not such a call, nothing emitted).
    pub(super) fn typed_prim(&mut self, p: Prim, args: &'r [Node]) -> bool {
        if !is_light(p) {
            return false;
        }
        let mut opds = [0u16; 2];
        if args.is_empty() || args.len() > 2 {
            return false;
        }
        for (o, n) in opds.iter_mut().zip(args) {
            *o = match &n.kind {
                NodeKind::Local(s) => self.slot(*s),
                NodeKind::Role(r) => role_opd(*r),
                _ => return false,
            };
        }
        let ins = if args.len() == 1 {
            Ins::PrimL(p, opds[0])
        } else {
            Ins::PrimLL(p, opds[0], opds[1])
        };
        self.emit(ins);
        true
    }
}
