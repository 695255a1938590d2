//! Lowering of control: conditions into jumps, values nobody uses into nothing, and calls
//! of small procedures into their callers.

use super::super::checked::as_bool;
use super::super::code::*;
use super::Lower;
use super::walk::{binds, plain};
use crate::ir::*;

impl<'r> Lower<'r> {
    /// The frame slot of an IR local slot.
    pub(super) fn slot(&self, s: u16) -> u16 {
        self.map.get(s as usize).copied().unwrap_or(s)
    }

    /// Maps a body of `slots` locals into the frame: its first locals (parameters) where
    /// `at` says the arguments stand, the others fresh hidden locals. Returns the map it
    /// replaces, to be put back after the body.
    pub(super) fn map_params(&mut self, at: &[u16], slots: u16) -> Vec<u16> {
        let map = (0..slots)
            .map(|i| match at.get(i as usize) {
                Some(&s) => s,
                None => self.hidden(1),
            })
            .collect();
        std::mem::replace(&mut self.map, map)
    }

    /// A call of procedure `idx` lowered into the caller: an argument that is a local of
    /// the caller (and that the body never assigns) is used where it is; the others are
    /// evaluated in order into fresh locals above the caller's.
    pub(super) fn inlined(&mut self, idx: u16, args: &'r [Node]) {
        let rs = self.rs;
        let p = &rs.procs[idx as usize];
        let saved = self.next_hidden;
        let base = self.hidden(p.code.slots);
        let mut map: Vec<u16> = (0..p.code.slots).map(|i| base + i).collect();
        let all_plain = args.iter().all(plain);
        let mut stores = Vec::new();
        for (i, a) in args.iter().enumerate() {
            match &a.kind {
                NodeKind::Local(s) if all_plain && !binds(&p.code.body, i as u16) => {
                    map[i] = self.slot(*s);
                }
                _ => {
                    self.expr(a);
                    stores.push(base + i as u16);
                }
            }
        }
        for s in stores.into_iter().rev() {
            self.emit(Ins::Store(s));
        }
        self.emit(Ins::CountCall(idx));
        let outer = std::mem::replace(&mut self.map, map);
        // A body with effects carries its rule mark, as its frame carried its rule.
        let mark = if p.pure || self.in_score {
            self.mark
        } else {
            let params = self.map.iter().take(p.params.len()).copied().collect();
            self.mark_for(idx, params)
        };
        let outer_mark = std::mem::replace(&mut self.mark, mark);
        let outer_exits = std::mem::replace(&mut self.exits, (!p.pure).then(Vec::new));
        self.block_value(&p.code.body);
        let exits = std::mem::replace(&mut self.exits, outer_exits);
        let end = self.here();
        self.patch_all(exits.unwrap_or_default(), end);
        self.mark = outer_mark;
        self.map = outer;
        self.next_hidden = saved;
    }

    /// Code for a node whose value is not used: an `if` leaves nothing.
    pub(super) fn effect(&mut self, n: &'r Node) {
        match &n.kind {
            NodeKind::If(c, then, other) => {
                let js = self.branch(c, false);
                self.stmts(then);
                match other {
                    Some(o) => {
                        let end = self.emit(Ins::Jump(0));
                        let to = self.here();
                        self.patch_all(js, to);
                        self.effect(o);
                        let to = self.here();
                        self.patch(end, to);
                    }
                    None => {
                        let to = self.here();
                        self.patch_all(js, to);
                    }
                }
            }
            NodeKind::Block(b) => self.stmts(b),
            _ => {
                self.expr(n);
                self.emit(Ins::Pop);
            }
        }
    }

    /// Code that jumps when the condition's truth is `when` (the jumps returned, to
    /// patch) and falls through otherwise; `and`, `or` and `not` become jumps.
    pub(super) fn branch(&mut self, n: &'r Node, when: bool) -> Vec<usize> {
        let mut calls = Vec::new();
        if let Some(v) = self.fold(n, &mut calls) {
            for c in calls {
                self.emit(Ins::CountCall(c));
            }
            return if as_bool(&v) == when {
                vec![self.emit(Ins::Jump(0))]
            } else {
                Vec::new()
            };
        }
        if let Some(js) = self.direct_branch(n, when) {
            return js;
        }
        match &n.kind {
            NodeKind::Not(x) => self.branch(x, !when),
            NodeKind::And(a, b) | NodeKind::Or(a, b) => {
                // `and` jumps on false at its first false operand, `or` on true at its
                // first true one; otherwise the first operand decides whether to go on.
                let and = matches!(n.kind, NodeKind::And(..));
                if when != and {
                    let mut js = self.branch(a, when);
                    js.extend(self.branch(b, when));
                    js
                } else {
                    let skip = self.branch(a, !when);
                    let js = self.branch(b, when);
                    let to = self.here();
                    self.patch_all(skip, to);
                    js
                }
            }
            _ => {
                if let Some(j) = self.typed_branch(n, when) {
                    return vec![j];
                }
                self.expr(n);
                self.loc = n.loc;
                vec![self.emit(if when {
                    Ins::JumpIfTrue(0)
                } else {
                    Ins::JumpIfFalse(0)
                })]
            }
        }
    }

    pub(super) fn patch_all(&mut self, at: Vec<usize>, to: u32) {
        for a in at {
            self.patch(a, to);
        }
    }
}
