//! Which code leaves the match state as it found it: no state variable set, no primitive
//! with an effect, no event emitted, no dice, no choice. Such a `prefer` score can be
//! worked out on the live match (with logging and counting paused) instead of on a copy.
//!
//! Weaker than purity ([`crate::purity`]): a quiet procedure may log (modifier lists,
//! table rows), which is paused while scores are worked out.

use crate::ir::{Block, Node, NodeKind, Stmt, any_in, any_in_node};
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
        !any_in(
            b,
            |s| matches!(s, Stmt::SetVar(..) | Stmt::Emit(..)),
            |n| !self.quiet_itself(n),
        )
    }

    /// Whether procedure `i` is quiet.
    pub fn proc(&self, i: usize) -> bool {
        self.procs[i]
    }

    /// Whether evaluating the node leaves the state unchanged.
    pub fn node(&self, n: &Node) -> bool {
        !any_in_node(
            n,
            |s| matches!(s, Stmt::SetVar(..) | Stmt::Emit(..)),
            |n| !self.quiet_itself(n),
        )
    }

    /// Whether the node itself (not its parts) leaves the state unchanged.
    fn quiet_itself(&self, n: &Node) -> bool {
        match &n.kind {
            NodeKind::Prim(p, _) => !p.has_effect(),
            NodeKind::Call(idx, _) => self.procs[*idx as usize],
            NodeKind::Table(t, _) => self.tables[*t as usize],
            NodeKind::Hook(h, _) => self.hooks[*h as usize],
            NodeKind::ChooseFrom { .. } | NodeKind::ChooseArms { .. } | NodeKind::Roll { .. } => {
                false
            }
            _ => true,
        }
    }
}
