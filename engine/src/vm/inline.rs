//! Which procedures are lowered into their callers instead of being called: small pure
//! procedures (`adj`, `can_leave`, `twice`...) whose bodies cost less than a call's frame
//! and memo bookkeeping. An inlined call still counts as a call of its procedure (figures,
//! coverage and the memo's record of calls stay as they were).

use crate::ir::{Block, Node, NodeKind, Stmt};
use crate::ruleset::Ruleset;

/// Largest body (in IR nodes, inlined callees included) that is inlined.
pub const INLINE_NODES: usize = 24;
/// Largest body inlined into a `prefer` score, which runs once for every option offered.
pub const INLINE_SCORE_NODES: usize = 160;

/// For each procedure, whether its calls are inlined, for bodies of at most `limit` nodes.
pub fn plan(rs: &Ruleset, limit: usize) -> Vec<bool> {
    let mut size: Vec<Option<Option<usize>>> = vec![None; rs.procs.len()];
    (0..rs.procs.len())
        .map(|i| inlined_size(rs, i, &mut size, 0, limit).is_some())
        .collect()
}

/// The inlined size of procedure `i`, or `None` when it is not inlined.
fn inlined_size(
    rs: &Ruleset,
    i: usize,
    memo: &mut Vec<Option<Option<usize>>>,
    depth: usize,
    limit: usize,
) -> Option<usize> {
    if let Some(known) = memo[i] {
        return known;
    }
    let p = &rs.procs[i];
    let mut r = None;
    if p.pure && depth < 8 {
        // Mark as not inlined while it is measured: a cycle is never inlined.
        memo[i] = Some(None);
        let mut w = Walk {
            rs,
            memo,
            depth,
            limit,
            size: 0,
            ok: true,
        };
        w.block(&p.code.body);
        if w.ok && w.size <= limit {
            r = Some(w.size);
        }
    }
    memo[i] = Some(r);
    r
}

struct Walk<'r, 'm> {
    rs: &'r Ruleset,
    memo: &'m mut Vec<Option<Option<usize>>>,
    depth: usize,
    limit: usize,
    size: usize,
    ok: bool,
}

impl Walk<'_, '_> {
    fn block(&mut self, b: &Block) {
        for s in b.stmts.iter() {
            match s {
                Stmt::Let(_, n)
                | Stmt::LetPair(_, _, n)
                | Stmt::SetLocal(_, _, n)
                | Stmt::Expr(n) => self.node(n),
                Stmt::Repeat(n, b, _) | Stmt::For(_, n, b) => {
                    self.node(n);
                    self.block(b);
                }
                // Leaving early needs a frame of its own.
                Stmt::Break | Stmt::Return(_) | Stmt::SetVar(..) | Stmt::Emit(..) => {
                    self.ok = false
                }
            }
        }
    }

    fn nodes(&mut self, ns: &[Node]) {
        for n in ns {
            self.node(n);
        }
    }

    fn node(&mut self, n: &Node) {
        self.size += 1;
        if !self.ok || self.size > self.limit {
            self.ok = false;
            return;
        }
        match &n.kind {
            NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Var(_) | NodeKind::Role(_) => {}
            NodeKind::TeamVar(_, x)
            | NodeKind::MoveEnd(x, _)
            | NodeKind::MoveKeeper(x)
            | NodeKind::Not(x)
            | NodeKind::Neg(x) => self.node(x),
            NodeKind::Prim(_, args) => self.nodes(args),
            NodeKind::Call(idx, args) => {
                self.nodes(args);
                match inlined_size(
                    self.rs,
                    *idx as usize,
                    self.memo,
                    self.depth + 1,
                    self.limit,
                ) {
                    Some(s) => self.size += s,
                    // A remembered procedure (pure, with a loop) stays a call inside the
                    // inlined body; any other callee keeps the caller a call of its own.
                    None => {
                        let callee = &self.rs.procs[*idx as usize];
                        self.ok &= callee.pure && has_loop(&callee.code.body);
                    }
                }
            }
            NodeKind::ListIndex(a, b)
            | NodeKind::And(a, b)
            | NodeKind::Or(a, b)
            | NodeKind::Bin(_, a, b) => {
                self.node(a);
                self.node(b);
            }
            NodeKind::AreaList(items) | NodeKind::IntList(items) => self.nodes(items),
            NodeKind::If(c, then, other) => {
                self.node(c);
                self.block(then);
                if let Some(o) = other {
                    self.node(o);
                }
            }
            NodeKind::Match(s, arms) => {
                self.node(s);
                for (_, v) in arms.iter() {
                    self.node(v);
                }
            }
            NodeKind::Quant(_, _, coll, filter) => {
                self.node(coll);
                if let Some(f) = filter {
                    self.node(f);
                }
            }
            NodeKind::Block(b) => self.block(b),
            NodeKind::Table(..)
            | NodeKind::ChooseFrom { .. }
            | NodeKind::ChooseArms { .. }
            | NodeKind::Roll { .. }
            | NodeKind::Modifiers { .. }
            | NodeKind::Hook(..) => self.ok = false,
        }
    }
}

/// Whether the code iterates (a `for`, a `repeat` or a quantifier anywhere in it).
pub fn has_loop(b: &Block) -> bool {
    fn node(n: &Node) -> bool {
        match &n.kind {
            NodeKind::Quant(..) => true,
            NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Var(_) | NodeKind::Role(_) => false,
            NodeKind::TeamVar(_, x)
            | NodeKind::MoveEnd(x, _)
            | NodeKind::MoveKeeper(x)
            | NodeKind::Not(x)
            | NodeKind::Neg(x)
            | NodeKind::Table(_, x) => node(x),
            NodeKind::Prim(_, args) | NodeKind::Call(_, args) | NodeKind::Hook(_, args) => {
                args.iter().any(node)
            }
            NodeKind::AreaList(items) | NodeKind::IntList(items) => items.iter().any(node),
            NodeKind::ListIndex(a, b)
            | NodeKind::And(a, b)
            | NodeKind::Or(a, b)
            | NodeKind::Bin(_, a, b) => node(a) || node(b),
            NodeKind::If(c, then, other) => {
                node(c) || has_loop(then) || other.as_ref().is_some_and(|o| node(o))
            }
            NodeKind::Match(s, arms) => node(s) || arms.iter().any(|(_, v)| node(v)),
            NodeKind::Block(b) => has_loop(b),
            NodeKind::ChooseFrom { .. }
            | NodeKind::ChooseArms { .. }
            | NodeKind::Roll { .. }
            | NodeKind::Modifiers { .. } => false,
        }
    }
    b.stmts.iter().any(|s| match s {
        Stmt::Repeat(..) | Stmt::For(..) => true,
        Stmt::Let(_, n) | Stmt::LetPair(_, _, n) | Stmt::SetLocal(_, _, n) | Stmt::Expr(n) => {
            node(n)
        }
        Stmt::SetVar(_, t, _, n, _) => node(n) || t.as_ref().is_some_and(node),
        Stmt::Return(n) => n.as_ref().is_some_and(node),
        Stmt::Emit(_, fields) => fields.iter().any(|(_, n)| node(n)),
        Stmt::Break => false,
    })
}
