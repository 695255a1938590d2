//! Questions the lowering asks of IR code: whether it can assign a local.

use crate::ir::{Block, Node, NodeKind, Stmt, any_in, any_in_node};

/// Whether evaluating the node cannot assign a local (no block in it).
pub(super) fn plain(n: &Node) -> bool {
    !any_in_node(
        n,
        |_| true,
        |n| {
            !matches!(
                n.kind,
                NodeKind::Const(_)
                    | NodeKind::Local(_)
                    | NodeKind::Var(_)
                    | NodeKind::Role(_)
                    | NodeKind::Prim(..)
                    | NodeKind::Call(..)
                    | NodeKind::TeamVar(..)
                    | NodeKind::Not(_)
                    | NodeKind::Neg(_)
                    | NodeKind::Bin(..)
                    | NodeKind::And(..)
                    | NodeKind::Or(..)
            )
        },
    )
}

/// Whether the code binds local `slot` (a `let`, a `set`, a loop's or a quantifier's
/// variable): the closures of a direct block write a local only there, and an inlined body
/// nowhere else (a decision's option, a roll's dice and a modifier list's running total go
/// to slots of their own, never a parameter's).
pub(super) fn binds(b: &Block, slot: u16) -> bool {
    any_in(
        b,
        |s| match s {
            Stmt::Let(x, _) | Stmt::SetLocal(x, _, _) | Stmt::For(x, _, _) => *x == slot,
            Stmt::LetPair(a, c, _) => *a == slot || *c == slot,
            _ => false,
        },
        |n| matches!(n.kind, NodeKind::Quant(_, s, _, _) if s == slot),
    )
}
