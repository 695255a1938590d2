//! Which code leaves the match state as it found it: no state variable set, no primitive
//! with an effect, no event emitted, no dice, no choice. Such a `prefer` score can be
//! worked out on the live match (with logging and counting paused) instead of on a copy.
//!
//! Weaker than purity ([`crate::purity`]): a quiet procedure may log (modifier lists,
//! table rows), which is paused while scores are worked out.

use crate::ir::{Block, Node, NodeKind, Stmt};
use crate::ruleset::Ruleset;

/// The quiet procedures, table rows, and triggers of a ruleset.
pub struct Quiet {
    procs: Vec<bool>,
    tables: Vec<bool>,
    hooks: Vec<bool>,
}

impl Quiet {
    /// Works out what is quiet (a fixed point: a call is quiet when its callee is).
    pub fn of(rs: &Ruleset) -> Quiet {
        let mut q = Quiet {
            procs: vec![true; rs.procs.len()],
            tables: vec![true; rs.tables.len()],
            hooks: vec![true; rs.hooks.len()],
        };
        loop {
            let mut changed = false;
            for (i, p) in rs.procs.iter().enumerate() {
                if q.procs[i] && !q.block(&p.code.body) {
                    q.procs[i] = false;
                    changed = true;
                }
            }
            for (i, t) in rs.tables.iter().enumerate() {
                if q.tables[i] && !t.rows.iter().all(|r| q.block(&r.code.body)) {
                    q.tables[i] = false;
                    changed = true;
                }
            }
            for (i, h) in rs.hooks.iter().enumerate() {
                let ok = h.triggers.iter().all(|t| {
                    let tr = &rs.triggers[*t as usize];
                    q.block(&tr.code.body) && tr.when.as_ref().is_none_or(|w| q.block(&w.body))
                });
                if q.hooks[i] && !ok {
                    q.hooks[i] = false;
                    changed = true;
                }
            }
            if !changed {
                return q;
            }
        }
    }

    fn block(&self, b: &Block) -> bool {
        b.stmts.iter().all(|s| match s {
            Stmt::Let(_, n) | Stmt::LetPair(_, _, n) | Stmt::SetLocal(_, _, n) | Stmt::Expr(n) => {
                self.node(n)
            }
            Stmt::Repeat(n, b, _) | Stmt::For(_, n, b) => self.node(n) && self.block(b),
            Stmt::Break => true,
            Stmt::Return(n) => n.as_ref().is_none_or(|n| self.node(n)),
            Stmt::SetVar(..) | Stmt::Emit(..) => false,
        })
    }

    fn all(&self, ns: &[Node]) -> bool {
        ns.iter().all(|n| self.node(n))
    }

    /// Whether evaluating the node leaves the state unchanged.
    pub fn node(&self, n: &Node) -> bool {
        match &n.kind {
            NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Var(_) | NodeKind::Role(_) => true,
            NodeKind::TeamVar(_, x)
            | NodeKind::MoveEnd(x, _)
            | NodeKind::MoveKeeper(x)
            | NodeKind::Not(x)
            | NodeKind::Neg(x) => self.node(x),
            NodeKind::Prim(p, args) => !p.has_effect() && self.all(args),
            NodeKind::Call(idx, args) => self.procs[*idx as usize] && self.all(args),
            NodeKind::Table(t, key) => self.tables[*t as usize] && self.node(key),
            NodeKind::Hook(h, args) => self.hooks[*h as usize] && self.all(args),
            NodeKind::ListIndex(a, b)
            | NodeKind::And(a, b)
            | NodeKind::Or(a, b)
            | NodeKind::Bin(_, a, b) => self.node(a) && self.node(b),
            NodeKind::AreaList(items) | NodeKind::IntList(items) => self.all(items),
            NodeKind::If(c, then, other) => {
                self.node(c) && self.block(then) && other.as_ref().is_none_or(|o| self.node(o))
            }
            NodeKind::Match(s, arms) => self.node(s) && arms.iter().all(|(_, v)| self.node(v)),
            NodeKind::Quant(_, _, coll, filter) => {
                self.node(coll) && filter.as_ref().is_none_or(|f| self.node(f))
            }
            NodeKind::Modifiers { rows, .. } => rows
                .iter()
                .all(|(_, v, c)| self.node(v) && c.as_ref().is_none_or(|c| self.node(c))),
            NodeKind::Block(b) => self.block(b),
            NodeKind::ChooseFrom { .. } | NodeKind::ChooseArms { .. } | NodeKind::Roll { .. } => {
                false
            }
        }
    }
}
