//! The parts of a `prefer` score that do not depend on the option, worked out once per
//! decision instead of once per option (`prefer m => move_preference(t, m)`: the ball's
//! area, `t == ct`, the start area's player counts of a control check).
//!
//! A score of a `choose ... from` whose scores are all quiet runs on the live match, and
//! nothing changes the state while the options are scored; the locals of the frame
//! waiting at the `choose` do not change either, but for the option's slot and those the
//! score itself assigns. A direct expression inside such a score that reads nothing else
//! (constants, roles, state variables, primitives without effect, those locals, inlined
//! calls of them) is *hoisted*: its closures are registered with the decision
//! ([`crate::vm::code::DecisionSite::hoist`]) and worked out into a hidden local of their
//! own before the first option is scored ([`crate::vm::Match::hoist_scores`]); the score's
//! closures read that local instead. A hoisted expression that gives up leaves a value of
//! no kind its readers accept, so they give up too and the score's stack code (which
//! never reads these locals) runs, as it would have.

use super::super::code::{Ins, ScoreKey};
use super::super::machine::{Direct, Src};
use super::Lower;
use super::built::Built;
use crate::ir::{Node, NodeKind, Stmt, any_in, any_in_node};

/// Hidden locals kept for the hoisted parts of one score.
pub(super) const HOIST_SLOTS: u16 = 16;

/// The hoisting context of the score being lowered.
pub(super) struct Hoist {
    /// Frame slots below this are the locals live at the `choose`.
    live: u16,
    /// The option's slot.
    option: u16,
    /// The frame slots the score assigns itself.
    assigned: Vec<u16>,
    /// The next hidden local free for a hoisted part, and the end of those kept.
    next: u16,
    end: u16,
    /// The hoisted parts: their hidden local and their direct expression's index.
    list: Vec<(u16, u16)>,
    /// Whether a closure built for the score outside its hoisted parts reads the match
    /// (see [`Lower::reads_match`]).
    state: bool,
    /// The node each part was hoisted from (its address) and the part's local.
    nodes: Vec<(usize, u16)>,
    /// The rows of a modifier list hoisted as one sum: the rows' address, the sum's local
    /// and which rows (`mods.rs`).
    pub(super) rows: Vec<(usize, u16, Box<[bool]>)>,
    /// Parts read only where another is true (their locals: see [`Lower::guard_hoisted`]).
    guards: Vec<(u16, u16)>,
    /// Whether a part hoisted may dispatch a hook ([`Lower::reaches_hook`]): a dispatch
    /// counts an operation, once per offer where hoisted, so the score's word code (which
    /// hoists nothing) would count it again for each option.
    pub(super) ticks: bool,
}

/// The frame slots below `h.live` (the locals live at the `choose`, not the option's, not
/// those the score binds itself) that score `n` reads, given `slot` (an IR local's frame
/// slot); `None` when the score sets a local (`set x = ...`: its value could come from an
/// earlier offer). With the hoisted parts' locals, these are what a kept score is
/// compared on (`vm/kept.rs`).
fn score_reads(n: &Node, h: &Hoist, slot: impl Fn(u16) -> u16) -> Option<Box<[u16]>> {
    let mut reads = Vec::new();
    let sets = any_in_node(
        n,
        |s| matches!(s, Stmt::SetLocal(..)),
        |n| {
            if let NodeKind::Local(s) = n.kind {
                let s = slot(s);
                if s < h.live && s != h.option && !h.assigned.contains(&s) && !reads.contains(&s) {
                    reads.push(s);
                }
            }
            false
        },
    );
    (!sets).then(|| reads.into())
}

/// The guards of the hoisted parts, as indices in their list.
fn guards(h: &Hoist) -> Box<[(u8, u8)]> {
    let index = |slot: u16| h.list.iter().position(|x| x.0 == slot);
    h.guards
        .iter()
        .filter_map(|&(p, g)| Some((index(p)? as u8, index(g)? as u8)))
        .collect()
}

/// The local slots a node assigns (`let`, `set`, a loop's or a quantifier's variable).
fn assigned(n: &Node) -> Vec<u16> {
    let stmts = std::cell::RefCell::new(Vec::new());
    any_in_node(
        n,
        |s| {
            match s {
                Stmt::Let(x, _) | Stmt::SetLocal(x, _, _) | Stmt::For(x, _, _) => {
                    stmts.borrow_mut().push(*x)
                }
                Stmt::LetPair(a, c, _) => stmts.borrow_mut().extend([*a, *c]),
                _ => {}
            }
            false
        },
        |n| {
            if let NodeKind::Quant(_, s, _, _) = n.kind {
                stmts.borrow_mut().push(s);
            }
            false
        },
    );
    stmts.into_inner()
}

impl<'r> Lower<'r> {
    /// The code of the `prefer` score `n` of decision `site` (see [`Lower::waiting_value`]),
    /// with its option-independent parts hoisted when the decision allows it.
    pub(super) fn score_value(&mut self, n: &'r Node, site: usize, live: u16) -> u32 {
        let d = &self.p.decisions[site];
        let option = match &d.prefer[..] {
            [Some((slot, _))] if d.arms.is_empty() && d.pure_prefer && !self.no_direct => *slot,
            _ => return self.waiting_value(n, live),
        };
        let end = live + HOIST_SLOTS;
        self.max_slot = self.max_slot.max(end);
        self.hoist = Some(Hoist {
            live,
            option,
            assigned: assigned(n).into_iter().map(|s| self.slot(s)).collect(),
            next: live,
            end,
            list: Vec::new(),
            state: false,
            nodes: Vec::new(),
            rows: Vec::new(),
            guards: Vec::new(),
            ticks: false,
        });
        let at = self.waiting_value(n, end);
        let mut parts = None;
        if let Some(h) = self.hoist.take() {
            let keep = if h.state || !self.one_direct(at) {
                None
            } else {
                score_reads(n, &h, |s| self.slot(s)).map(|reads| ScoreKey {
                    reads,
                    guards: guards(&h),
                })
            };
            let d = &mut self.p.decisions[site];
            d.hoist = h.list.into();
            d.keep = keep;
            parts = (!h.ticks).then_some((h.nodes, h.rows));
        }
        if let (Some((nodes, rows)), true) = (parts, self.one_direct(at)) {
            let hoisted = !nodes.is_empty() || !rows.is_empty();
            let read = (self.score_parts(n, nodes, rows)).and_then(|p| self.word_score(n, p));
            let own = (hoisted)
                .then(|| self.score_parts(n, Vec::new(), Vec::new()))
                .flatten()
                .and_then(|p| self.word_score(n, p));
            let d = &mut self.p.decisions[site];
            d.word = read;
            d.word_own = own;
        }
        at
    }

    /// Whether the code at `at` is one direct expression and the end of a score (its
    /// stack code skipped when the closures give a value).
    fn one_direct(&self, at: u32) -> bool {
        let code = &self.p.code;
        matches!(code.get(at as usize), Some(Ins::Direct(_, skip))
            if code.get(*skip as usize) == Some(&Ins::EndScore))
    }

    /// Notes that a closure being built reads the match: a state variable, a role, a
    /// primitive that is not board geometry, a hook. Inside a score's hoisted part (worked
    /// out once per offer, its value compared when scores are kept) nothing is noted.
    pub(super) fn reads_match(&mut self) {
        if let Some(h) = &mut self.hoist {
            h.state = true;
        }
    }

    /// Where the hoisted parts stand (to give back those of a direct expression that was
    /// not made).
    pub(super) fn hoist_mark(&self) -> usize {
        self.hoist.as_ref().map_or(0, |h| h.list.len())
    }

    /// Gives back the parts hoisted since `mark`.
    pub(super) fn hoist_undo(&mut self, mark: usize) {
        if let Some(h) = &mut self.hoist
            && h.list.len() > mark
        {
            h.next = h.list[mark].0;
            h.list.truncate(mark);
            let next = h.next;
            h.nodes.retain(|e| e.1 < next);
            h.rows.retain(|e| e.1 < next);
            h.guards.retain(|g| g.0 < next && g.1 < next);
        }
    }

    /// After `a and b` is built: the parts hoisted while `b` was built (from `b_mark`) are
    /// read only where `a` is true, so only where each part hoisted from one of `a`'s
    /// conjuncts while `a` was built (from `a_mark`) is true. A part hoisted while `b` was
    /// built is read only by `b`'s closures: its closures stand in `b`'s tree, and a `let`
    /// it was hoisted for (sunk), an inlined call's argument it stands for, are `b`'s.
    pub(super) fn guard_hoisted(&mut self, a: &Node, a_mark: usize, b_mark: usize) {
        let Some(h) = &mut self.hoist else { return };
        if h.list.len() <= b_mark || b_mark < a_mark {
            return;
        }
        let mut leaves = Vec::new();
        super::hook_when::conjuncts(a, &mut leaves);
        let made_in_a = &h.list[a_mark..b_mark];
        let gs: Vec<u16> = leaves
            .iter()
            .filter_map(|leaf| {
                let at = *leaf as *const Node as usize;
                h.nodes
                    .iter()
                    .rev()
                    .find(|e| e.0 == at && made_in_a.iter().any(|x| x.0 == e.1))
                    .map(|e| e.1)
            })
            .collect();
        let parts: Vec<u16> = h.list[b_mark..].iter().map(|x| x.0).collect();
        for p in parts {
            for &g in &gs {
                h.guards.push((p, g));
            }
        }
    }

    /// Node `n` hoisted: the closures reading its hidden local (`None`: not hoisted;
    /// `Some(None)`: not plain).
    pub(super) fn hoisted(&mut self, n: &Node) -> Option<Option<Built>> {
        let h = self.hoist.as_ref()?;
        if h.next >= h.end
            || matches!(n.kind, NodeKind::Const(_) | NodeKind::Local(_))
            || !self.invariant(n)
        {
            return None;
        }
        // Its parts are worked out with it, not hoisted on their own.
        let outer = self.hoist.take();
        let b = self.direct(n);
        self.hoist = outer;
        let Some(b) = b else { return Some(None) };
        let worked_out = matches!(src_kind(&b.d), Some(true));
        if !b.exact || !worked_out {
            // Built outside the hoisting context: what its closures read was not noted (a
            // constant or a local reads nothing of the match).
            if worked_out {
                self.reads_match();
            }
            return Some(Some(b));
        }
        let Some(i) = self.add_direct(b.d.clone()) else {
            self.reads_match();
            return Some(Some(b));
        };
        let ticks = self.reaches_hook(n);
        let slot = self.hoist_part(i)?;
        let h = self.hoist.as_mut()?;
        h.ticks |= ticks;
        h.nodes.push((n as *const Node as usize, slot));
        Some(Some(Built::hoisted(local(&b.d, slot), b.k)))
    }

    /// Whether a hidden local is free for one more hoisted part.
    pub(super) fn hoist_free(&self) -> bool {
        self.hoist.as_ref().is_some_and(|h| h.next < h.end)
    }

    /// Registers direct expression `i` (built outside the hoisting context) as a hoisted
    /// part of no node of its own: its hidden local.
    pub(super) fn hoist_part(&mut self, i: u16) -> Option<u16> {
        let h = self.hoist.as_mut()?;
        if h.next >= h.end {
            return None;
        }
        let slot = h.next;
        h.next += 1;
        h.list.push((slot, i));
        Some(slot)
    }

    /// Whether working out `n` may dispatch a hook: one in it, or in a procedure it calls
    /// at any depth.
    pub(super) fn reaches_hook(&self, n: &Node) -> bool {
        let procs = &self.rs.procs;
        let mut seen = vec![false; procs.len()];
        let mut todo: Vec<usize> = Vec::new();
        let mut found = |n: &Node, todo: &mut Vec<usize>| match n.kind {
            NodeKind::Hook(..) => true,
            NodeKind::Call(i, _) => {
                if let Some(s) = seen.get_mut(i as usize)
                    && !*s
                {
                    *s = true;
                    todo.push(i as usize);
                }
                false
            }
            _ => false,
        };
        if any_in_node(n, |_| false, |n| found(n, &mut todo)) {
            return true;
        }
        while let Some(i) = todo.pop() {
            let mut more = Vec::new();
            if any_in(&procs[i].code.body, |_| false, |n| found(n, &mut more)) {
                return true;
            }
            todo.extend(more);
        }
        false
    }

    /// Whether a direct expression reads a hoisted part's local.
    pub(super) fn is_hoisted(&self, d: &Direct) -> bool {
        let Some(h) = &self.hoist else { return false };
        matches!(local_slot(d), Some(s) if s >= h.live && s < h.next)
    }

    /// Whether node `n` has the same value for every option of the decision.
    pub(super) fn invariant(&self, n: &Node) -> bool {
        let Some(h) = &self.hoist else { return false };
        match &n.kind {
            NodeKind::Const(_) | NodeKind::Role(_) | NodeKind::Var(_) => true,
            NodeKind::Local(s) => {
                let slot = self.slot(*s);
                match self.sunk_at(slot) {
                    Some((_, d, _)) => self.is_hoisted(d),
                    // A hoisted part's local (an inlined call's argument reads it in place).
                    None if slot >= h.live => slot < h.next,
                    None => slot != h.option && !h.assigned.contains(&slot),
                }
            }
            NodeKind::TeamVar(_, x)
            | NodeKind::Not(x)
            | NodeKind::Neg(x)
            | NodeKind::MoveEnd(x, _)
            | NodeKind::MoveKeeper(x) => self.invariant(x),
            NodeKind::And(a, b) | NodeKind::Or(a, b) | NodeKind::Bin(_, a, b) => {
                self.invariant(a) && self.invariant(b)
            }
            NodeKind::Prim(p, args) => !p.has_effect() && args.iter().all(|a| self.invariant(a)),
            NodeKind::If(c, yes, Some(no)) => {
                self.invariant(c)
                    && matches!(&yes.stmts[..], [Stmt::Expr(e)] if self.invariant(e))
                    && self.invariant(no)
            }
            // An inlined procedure reads only its arguments and the state.
            NodeKind::Call(idx, args) => {
                self.inline_scores[*idx as usize] && args.iter().all(|a| self.invariant(a))
            }
            _ => false,
        }
    }
}

/// `$e` of the operand of any kind of direct expression (one arm per kind).
macro_rules! on_src {
    ($d:expr, $s:ident => $e:expr) => {
        match $d {
            Direct::Int($s) => $e,
            Direct::Bool($s) => $e,
            Direct::Team($s) => $e,
            Direct::Area($s) => $e,
            Direct::Areas($s) => $e,
            Direct::Name($s) => $e,
            Direct::Move($s) => $e,
        }
    };
}

/// Whether the expression is worked out (`Some(true)`), a local or a constant.
fn src_kind(d: &Direct) -> Option<bool> {
    Some(on_src!(d, s => matches!(s, Src::Fn(_))))
}

/// The local an expression only reads, if it is one.
pub(super) fn local_slot(d: &Direct) -> Option<u16> {
    on_src!(d, s => match s {
        Src::Local(x) => Some(*x),
        _ => None,
    })
}

/// The closures reading local `slot` as a value of `d`'s kind.
fn local(d: &Direct, slot: u16) -> Direct {
    match d {
        Direct::Int(_) => Direct::Int(Src::Local(slot)),
        Direct::Bool(_) => Direct::Bool(Src::Local(slot)),
        Direct::Team(_) => Direct::Team(Src::Local(slot)),
        Direct::Area(_) => Direct::Area(Src::Local(slot)),
        Direct::Areas(_) => Direct::Areas(Src::Local(slot)),
        Direct::Name(_) => Direct::Name(Src::Local(slot)),
        Direct::Move(_) => Direct::Move(Src::Local(slot)),
    }
}
