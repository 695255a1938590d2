//! Sunk `let`s of direct blocks (`lower/direct.rs`): a `let` whose expression cannot
//! fail, count or change anything, given operands of the kinds the checker found, is not
//! bound at all; its closures stand wherever the local is read, so a branch that never
//! reads it never works it out (a score's branches read few of its `let`s).
//!
//! The stack code binds every `let`; it would fail only on an operand of another kind
//! than the checker found. So in the `let`'s place a guard reads the locals the
//! expression reads and gives up unless each is of its kind: where the guard passes, the
//! stack code's `let` cannot fail, and leaving it out changes no value, error or counter.

use std::sync::Arc;

use super::super::kinds::{Ar, Kind, Tm};
use super::super::machine::Direct;
use super::Lower;
use crate::ir::*;
use crate::prims::Prim;
use crate::value::{Move, Ty, Value};

/// A local a sunk expression reads, checked to be of its kind.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Guard {
    slot: u16,
    ty: Ty,
}

/// Whether the guarded local holds a value of its kind.
#[inline(always)]
fn holds(g: Guard, v: &Value) -> bool {
    match g.ty {
        Ty::Int => i64::of(v).is_some(),
        Ty::Bool => bool::of(v).is_some(),
        Ty::Team => Tm::of(v).is_some(),
        Ty::Area => Ar::of(v).is_some(),
        Ty::Move => Move::of(v).is_some(),
        _ => false,
    }
}

/// The step standing for sunk `let`s: the locals they read are of their kinds (one or
/// two locals, the common case, checked without a loop).
pub(super) fn guard(gs: Vec<Guard>) -> crate::vm::machine::Step {
    let at = |m: &crate::vm::Match<'_>, base: usize, g: Guard| {
        m.stack
            .get(base + g.slot as usize)
            .is_some_and(|v| holds(g, v))
    };
    match gs[..] {
        [g] => Arc::new(move |m, base| at(m, base, g).then_some(())),
        [g, h] => Arc::new(move |m, base| (at(m, base, g) && at(m, base, h)).then_some(())),
        _ => {
            let gs: Arc<[Guard]> = gs.into();
            Arc::new(move |m, base| gs.iter().all(|g| at(m, base, *g)).then_some(()))
        }
    }
}

/// Primitives that cannot fail on operands of their kinds and only read the state.
fn sure_prim(p: Prim) -> bool {
    matches!(
        p,
        Prim::BallArea
            | Prim::BallValue
            | Prim::Other
            | Prim::Adjacent
            | Prim::SameLevel
            | Prim::FieldAreas
            | Prim::Unmoved
            | Prim::Count
            | Prim::CountField
            | Prim::Forward
            | Prim::Backward
            | Prim::Behind
            | Prim::Closer
            | Prim::Distance
            | Prim::Between
            | Prim::Max
            | Prim::Min
            | Prim::Size
            | Prim::EntirelyInHalf
            | Prim::PartlyInHalf
    )
}

impl Lower<'_> {
    /// Whether node `n` cannot fail, count or change anything when the locals it reads
    /// are of their kinds; those locals (not sunk themselves) are added to `gs`.
    pub(super) fn sure(&self, n: &Node, gs: &mut Vec<Guard>) -> bool {
        match &n.kind {
            NodeKind::Const(v) => !matches!(v, Value::None),
            NodeKind::Local(s) => {
                let slot = self.slot(*s);
                if self.sunk_at(slot).is_none() {
                    if !matches!(n.ty, Ty::Int | Ty::Bool | Ty::Team | Ty::Area | Ty::Move) {
                        return false;
                    }
                    let g = Guard { slot, ty: n.ty };
                    if !gs.contains(&g) {
                        gs.push(g);
                    }
                }
                true
            }
            NodeKind::Role(_) => true,
            NodeKind::Not(x) | NodeKind::MoveEnd(x, _) | NodeKind::MoveKeeper(x) => {
                self.sure(x, gs)
            }
            NodeKind::And(a, b) | NodeKind::Or(a, b) => self.sure(a, gs) && self.sure(b, gs),
            NodeKind::Bin(op, a, b) => {
                matches!(
                    op,
                    Op::Lt
                        | Op::Le
                        | Op::Gt
                        | Op::Ge
                        | Op::Eq
                        | Op::Ne
                        | Op::InAreas
                        | Op::Union
                        | Op::Inter
                        | Op::Diff
                ) && self.sure(a, gs)
                    && self.sure(b, gs)
            }
            NodeKind::Prim(p, args) => sure_prim(*p) && args.iter().all(|a| self.sure(a, gs)),
            NodeKind::If(c, yes, Some(no)) => {
                self.sure(c, gs)
                    && matches!(&yes.stmts[..], [Stmt::Expr(e)] if self.sure(e, gs))
                    && self.sure(no, gs)
            }
            _ => false,
        }
    }

    /// The closures standing for a sunk local at frame slot `slot`, if it is one.
    pub(super) fn sunk_at(&self, slot: u16) -> Option<&(u16, Direct, u32)> {
        self.sunk.iter().rev().find(|e| e.0 == slot)
    }
}

/// How many times the statements read IR local `slot`.
pub(super) fn uses(stmts: &[Stmt], slot: u16) -> usize {
    let mut k = 0;
    let mut node = |n: &Node| {
        if matches!(n.kind, NodeKind::Local(x) if x == slot) {
            k += 1;
        }
        false
    };
    let mut search = Search {
        stmt: &mut |_| false,
        node: &mut node,
    };
    for s in stmts {
        search.in_stmt(s);
    }
    k
}

/// Whether node `n` reads IR local `slot` where its closures always work the read out
/// when they give a value (not in a branch, not behind an `and` or an `or`).
pub(super) fn read_surely(n: &Node, slot: u16) -> bool {
    match &n.kind {
        NodeKind::Local(x) => *x == slot,
        NodeKind::Not(x)
        | NodeKind::Neg(x)
        | NodeKind::MoveEnd(x, _)
        | NodeKind::MoveKeeper(x)
        | NodeKind::TeamVar(_, x) => read_surely(x, slot),
        NodeKind::Bin(_, a, b) => read_surely(a, slot) || read_surely(b, slot),
        NodeKind::And(a, _) | NodeKind::Or(a, _) => read_surely(a, slot),
        NodeKind::Prim(_, args) => args.iter().any(|a| read_surely(a, slot)),
        NodeKind::If(c, _, _) => read_surely(c, slot),
        _ => false,
    }
}
