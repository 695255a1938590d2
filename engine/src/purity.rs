//! Which procedures are pure: their value depends only on their arguments and the match
//! state, and running them changes nothing (no state write, no event, no dice, no choice,
//! no table row or hook, whose uses are counted and logged).
//!
//! The machine remembers the values of pure procedures until the state next changes
//! (see [`crate::memo`]), so rules may ask for the same offside line or legal targets many
//! times a turn at the cost of one evaluation.

use crate::ir::{Block, Node, NodeKind, Stmt};
use crate::ruleset::Ruleset;

/// Whether each procedure of the ruleset (by index) is pure.
pub fn pure_procs(rs: &Ruleset) -> Vec<bool> {
    // Start from "pure" and strike procedures out until nothing changes: a procedure is
    // impure when its own code has an effect or it calls an impure procedure.
    let mut pure = vec![true; rs.procs.len()];
    loop {
        let mut changed = false;
        for (i, p) in rs.procs.iter().enumerate() {
            if pure[i] && !block_pure(&p.code.body, &pure) {
                pure[i] = false;
                changed = true;
            }
        }
        if !changed {
            return pure;
        }
    }
}

fn block_pure(b: &Block, pure: &[bool]) -> bool {
    b.stmts.iter().all(|s| stmt_pure(s, pure))
}

fn stmt_pure(s: &Stmt, pure: &[bool]) -> bool {
    match s {
        Stmt::Let(_, n) | Stmt::LetPair(_, _, n) | Stmt::SetLocal(_, _, n) | Stmt::Expr(n) => {
            node_pure(n, pure)
        }
        Stmt::Repeat(n, b, _) | Stmt::For(_, n, b) => node_pure(n, pure) && block_pure(b, pure),
        Stmt::Break => true,
        Stmt::Return(n) => n.as_ref().is_none_or(|n| node_pure(n, pure)),
        Stmt::SetVar(..) | Stmt::Emit(..) => false,
    }
}

fn all_pure(nodes: &[Node], pure: &[bool]) -> bool {
    nodes.iter().all(|n| node_pure(n, pure))
}

fn node_pure(n: &Node, pure: &[bool]) -> bool {
    match &n.kind {
        NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Var(_) | NodeKind::Role(_) => true,
        NodeKind::TeamVar(_, x)
        | NodeKind::MoveEnd(x, _)
        | NodeKind::MoveKeeper(x)
        | NodeKind::Not(x)
        | NodeKind::Neg(x) => node_pure(x, pure),
        NodeKind::Prim(p, args) => !p.has_effect() && all_pure(args, pure),
        NodeKind::Call(idx, args) => pure[*idx as usize] && all_pure(args, pure),
        NodeKind::ListIndex(a, b)
        | NodeKind::And(a, b)
        | NodeKind::Or(a, b)
        | NodeKind::Bin(_, a, b) => node_pure(a, pure) && node_pure(b, pure),
        NodeKind::AreaList(items) | NodeKind::IntList(items) => all_pure(items, pure),
        NodeKind::If(c, then, other) => {
            node_pure(c, pure)
                && block_pure(then, pure)
                && other.as_ref().is_none_or(|o| node_pure(o, pure))
        }
        NodeKind::Match(s, arms) => {
            node_pure(s, pure) && arms.iter().all(|(_, v)| node_pure(v, pure))
        }
        NodeKind::Quant(_, _, coll, filter) => {
            node_pure(coll, pure) && filter.as_ref().is_none_or(|f| node_pure(f, pure))
        }
        NodeKind::Block(b) => block_pure(b, pure),
        // Counted, logged or asking for dice or a choice.
        NodeKind::Table(..)
        | NodeKind::ChooseFrom { .. }
        | NodeKind::ChooseArms { .. }
        | NodeKind::Roll { .. }
        | NodeKind::Modifiers { .. }
        | NodeKind::Hook(..) => false,
    }
}
