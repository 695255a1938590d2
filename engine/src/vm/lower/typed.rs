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

    /// The operands of a light primitive when they are all locals or team roles, for
    /// the typed instructions that read them in place (the second [`NO_OPD`] for one).
    fn prim_opds(&self, p: Prim, args: &[Node]) -> Option<[u16; 2]> {
        if !is_light(p) || args.is_empty() || args.len() > 2 {
            return None;
        }
        let mut opds = [NO_OPD; 2];
        for (o, n) in opds.iter_mut().zip(args) {
            *o = match &n.kind {
                NodeKind::Local(s) => self.slot(*s),
                NodeKind::Role(r) => role_opd(*r),
                _ => return None,
            };
        }
        Some(opds)
    }

    /// A light primitive whose operands are all locals or team roles: read in place, not
    /// pushed (`false`: not such a call, nothing emitted).
    pub(super) fn typed_prim(&mut self, p: Prim, args: &'r [Node]) -> bool {
        let Some([a, b]) = self.prim_opds(p, args) else {
            return false;
        };
        self.emit(if b == NO_OPD {
            Ins::PrimL(p, a)
        } else {
            Ins::PrimLL(p, a, b)
        });
        true
    }

    /// `let x = e` or `set x = e` of such a primitive: its value goes straight into the
    /// local (`false`: nothing emitted).
    pub(super) fn typed_store(&mut self, slot: u16, n: &'r Node) -> bool {
        let NodeKind::Prim(p, args) = &n.kind else {
            return false;
        };
        let Some([a, b]) = self.prim_opds(*p, args) else {
            return false;
        };
        if self.fold(n, &mut Vec::new()).is_some() {
            return false;
        }
        self.loc = n.loc;
        self.emit(Ins::PrimTo(*p, a, b, self.slot(slot)));
        true
    }
}
