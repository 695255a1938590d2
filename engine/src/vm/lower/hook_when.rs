//! A trigger's condition in its hook's dispatch. A condition of one expression is tested
//! where the dispatch stands, as an inlined procedure's body is (without a frame, an
//! operation or a level of call depth), instead of calling its code unit.
//!
//! A call in the condition's `and` chain of a pure procedure that is not inlined and whose
//! body is itself an `and` chain starting with tests that call nothing (2024's
//! `skill_ready(team, "Runner")`: `skills > 0 and s.skill[t] == 1 and ...`) has those
//! tests worked out first, with the call's arguments, in the dispatch: when one is false
//! the procedure would give `false`, so it is not entered, and only counted as called
//! (coverage and figures stay as they were). Most triggers of a hook ask for a skill or a
//! state no team has, and stop there.

use crate::ir::*;
use crate::prims::Prim;

use super::super::code::Ins;
use super::Lower;

impl<'r> Lower<'r> {
    /// A trigger's condition of one expression lowered into its hook's dispatch, its
    /// parameters the dispatch's own (`params` of them) and its other locals above the
    /// dispatch's: the jumps taken when it is false (to patch past the trigger), or `None`
    /// when the condition is more than one expression (its code unit is called).
    pub(super) fn inline_when(&mut self, when: &'r Code, params: u16) -> Option<Vec<usize>> {
        let [Stmt::Expr(cond)] = &when.body.stmts[..] else {
            return None;
        };
        let saved = self.next_hidden;
        let map: Vec<u16> = (0..when.slots)
            .map(|i| if i < params { i } else { self.hidden(1) })
            .collect();
        let outer = std::mem::replace(&mut self.map, map);
        let mut parts = Vec::new();
        conjuncts(cond, &mut parts);
        let js = if parts.iter().any(|n| self.guard_of(n).is_some()) {
            let mut js = Vec::new();
            for n in parts {
                js.extend(self.when_part(n));
            }
            js
        } else {
            self.branch(cond, false)
        };
        self.map = outer;
        self.next_hidden = saved;
        Some(js)
    }

    /// One operand of the condition's `and` chain: the jumps taken when it is false.
    fn when_part(&mut self, n: &'r Node) -> Vec<usize> {
        let Some(guard) = self.guard_of(n) else {
            return self.branch(n, false);
        };
        let NodeKind::Call(idx, args) = &n.kind else {
            return self.branch(n, false);
        };
        let idx = *idx;
        let rs = self.rs;
        let p = &rs.procs[idx as usize];
        // The arguments: a local where it is, any other value worked out once into a
        // hidden local (it calls nothing: `guard_of`).
        let mut at = Vec::with_capacity(args.len());
        let mut stores = Vec::new();
        for a in args.iter() {
            match &a.kind {
                NodeKind::Local(s) => at.push(self.slot(*s)),
                _ => {
                    let h = self.hidden(1);
                    self.expr(a);
                    stores.push(h);
                    at.push(h);
                }
            }
        }
        for s in stores.into_iter().rev() {
            self.emit(Ins::Store(s));
        }
        // The procedure's first tests, its parameters the arguments' locals.
        let outer = self.map_params(&at, p.code.slots);
        let mut failed = Vec::new();
        for g in guard {
            failed.extend(self.branch(g, false));
        }
        self.map = outer;
        // They hold: the call, as it stands.
        for &s in &at {
            self.emit(Ins::Local(s));
        }
        self.loc = n.loc;
        let u = self.p.procs[idx as usize];
        self.emit(Ins::Call(u));
        let mut js = vec![self.emit(Ins::JumpIfFalse(0))];
        let over = self.emit(Ins::Jump(0));
        // One is false: the call counted, its value false.
        let to = self.here();
        self.patch_all(failed, to);
        self.emit(Ins::CountCall(idx));
        js.push(self.emit(Ins::Jump(0)));
        let to = self.here();
        self.patch(over, to);
        js
    }

    /// For a call of a pure procedure that is not inlined, whose body is an `and` chain
    /// and whose arguments call nothing: the first operands of that chain that call
    /// nothing (at least one not known now, and not the whole chain).
    pub(super) fn guard_of(&self, n: &Node) -> Option<Vec<&'r Node>> {
        let NodeKind::Call(idx, args) = &n.kind else {
            return None;
        };
        let rs = self.rs;
        let p = &rs.procs[*idx as usize];
        if self.inline[*idx as usize]
            || self.in_score
            || !p.pure
            || super::super::inline::has_loop(&p.code.body)
            || !args.iter().all(calls_nothing)
        {
            return None;
        }
        let [Stmt::Expr(body)] = &p.code.body.stmts[..] else {
            return None;
        };
        let mut parts = Vec::new();
        conjuncts(body, &mut parts);
        let n = parts.iter().take_while(|g| calls_nothing(g)).count();
        if n == 0 || n == parts.len() {
            return None;
        }
        parts.truncate(n);
        let known = |g: &&Node| {
            let mut calls = Vec::new();
            self.fold(g, &mut calls).is_some()
        };
        if parts.iter().all(known) {
            return None;
        }
        Some(parts)
    }
}

/// The operands of an `and` chain, in order (the node itself when it is not an `and`).
pub(super) fn conjuncts<'a>(n: &'a Node, out: &mut Vec<&'a Node>) {
    match &n.kind {
        NodeKind::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(n),
    }
}

/// Whether an expression is a plain test: no call, hook, table, modifier list, choice,
/// dice, block or primitive with an effect anywhere in it.
fn calls_nothing(n: &Node) -> bool {
    !any_in_node(
        n,
        |_| true,
        |n| match &n.kind {
            NodeKind::Prim(p, _) => Prim::has_effect(*p),
            NodeKind::Call(..)
            | NodeKind::Hook(..)
            | NodeKind::Table(..)
            | NodeKind::Modifiers { .. }
            | NodeKind::ChooseFrom { .. }
            | NodeKind::ChooseArms { .. }
            | NodeKind::Roll { .. }
            | NodeKind::Block(..) => true,
            _ => false,
        },
    )
}
