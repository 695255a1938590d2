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

/// Whether the code assigns local `slot` anywhere (`set`, `let`, a loop's variable).
pub(super) fn assigns(b: &Block, slot: u16) -> bool {
    any_in(
        b,
        |s| match s {
            Stmt::Let(x, _) | Stmt::SetLocal(x, _, _) | Stmt::For(x, _, _) => *x == slot,
            Stmt::LetPair(a, c, _) => *a == slot || *c == slot,
            _ => false,
        },
        |n| match &n.kind {
            NodeKind::Quant(_, s, _, _) => *s == slot,
            // Not in an inlined body.
            NodeKind::ChooseFrom { .. }
            | NodeKind::ChooseArms { .. }
            | NodeKind::Roll { .. }
            | NodeKind::Modifiers { .. } => true,
            _ => false,
        },
    )
}
