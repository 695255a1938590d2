//! Questions the lowering asks of IR code: whether it can assign a local.

use crate::ir::{Block, Node, NodeKind, Stmt};

/// Whether evaluating the node cannot assign a local (no block in it).
pub(super) fn plain(n: &Node) -> bool {
    match &n.kind {
        NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Var(_) | NodeKind::Role(_) => true,
        NodeKind::Prim(_, args) | NodeKind::Call(_, args) => args.iter().all(plain),
        NodeKind::TeamVar(_, x) | NodeKind::Not(x) | NodeKind::Neg(x) => plain(x),
        NodeKind::Bin(_, a, b) | NodeKind::And(a, b) | NodeKind::Or(a, b) => plain(a) && plain(b),
        _ => false,
    }
}

/// Whether the code assigns local `slot` anywhere (`set`, `let`, a loop's variable).
pub(super) fn assigns(b: &Block, slot: u16) -> bool {
    fn node(n: &Node, slot: u16) -> bool {
        match &n.kind {
            NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Var(_) | NodeKind::Role(_) => false,
            NodeKind::TeamVar(_, x)
            | NodeKind::MoveEnd(x, _)
            | NodeKind::MoveKeeper(x)
            | NodeKind::Not(x)
            | NodeKind::Neg(x)
            | NodeKind::Table(_, x) => node(x, slot),
            NodeKind::Prim(_, xs)
            | NodeKind::Call(_, xs)
            | NodeKind::Hook(_, xs)
            | NodeKind::AreaList(xs)
            | NodeKind::IntList(xs) => xs.iter().any(|x| node(x, slot)),
            NodeKind::ListIndex(a, b)
            | NodeKind::And(a, b)
            | NodeKind::Or(a, b)
            | NodeKind::Bin(_, a, b) => node(a, slot) || node(b, slot),
            NodeKind::If(c, then, other) => {
                node(c, slot)
                    || assigns(then, slot)
                    || other.as_ref().is_some_and(|o| node(o, slot))
            }
            NodeKind::Match(x, arms) => node(x, slot) || arms.iter().any(|(_, v)| node(v, slot)),
            NodeKind::Quant(_, s, coll, filter) => {
                *s == slot || node(coll, slot) || filter.as_ref().is_some_and(|f| node(f, slot))
            }
            NodeKind::Block(b) => assigns(b, slot),
            // Not in an inlined body.
            NodeKind::ChooseFrom { .. }
            | NodeKind::ChooseArms { .. }
            | NodeKind::Roll { .. }
            | NodeKind::Modifiers { .. } => true,
        }
    }
    b.stmts.iter().any(|s| match s {
        Stmt::Let(x, n) | Stmt::SetLocal(x, _, n) => *x == slot || node(n, slot),
        Stmt::LetPair(a, c, n) => *a == slot || *c == slot || node(n, slot),
        Stmt::For(x, n, body) => *x == slot || node(n, slot) || assigns(body, slot),
        Stmt::Repeat(n, body, _) => node(n, slot) || assigns(body, slot),
        Stmt::Expr(n) => node(n, slot),
        Stmt::SetVar(_, t, _, n, _) => node(n, slot) || t.as_ref().is_some_and(|t| node(t, slot)),
        Stmt::Return(n) => n.as_ref().is_some_and(|n| node(n, slot)),
        Stmt::Emit(_, fields) => fields.iter().any(|(_, n)| node(n, slot)),
        Stmt::Break => false,
    })
}
