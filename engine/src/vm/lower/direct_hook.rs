//! A hook's call as a direct expression: when every trigger's condition is plain (or known
//! when the rules are compiled), the call works the conditions out where it stands,
//! without entering the hook's dispatch, and gives 0 when none holds. When one holds the
//! closure gives up and the dispatch runs as stack code, the trigger's body with it.
//!
//! A condition that is not plain as a whole is tested by the first operands of its `and`
//! chain that are (a call's guard among them, as the dispatch tests it): while one of them
//! is false the trigger cannot fire; when they all hold the closure gives up too. 2024's
//! `pass_value_modifier`, asked for every candidate target of a pass, has a trigger
//! `start == target and dribbler_on(team, target)`: the dispatch is now entered only when
//! the target is the start area and `dribbler_on`'s first test holds (with every advanced
//! rule: 6 times a match instead of 683).
//!
//! The closure counts what the dispatch would: one operation for the call, the procedures
//! a condition calls (a folded one too). A condition of one expression is not a call in the
//! dispatch either: it is tested where the dispatch stands ([`Lower::inline_when`]), as an
//! inlined procedure's body is, without a frame, an operation or a level of call depth.

use std::sync::Arc;

use super::super::checked::as_bool;
use super::super::machine::{Direct, F, Src};
use super::Lower;
use super::built::{Built, built};
use super::hook_when::conjuncts;
use crate::ir::*;
use crate::vm::machine::Step;

/// Most conditions of a hook that are not plain as a whole and are tested by their first
/// operands ([`Lower::plain_prefix`]): with more, the closures of their tests cost more
/// than the dispatch, which jumps on a skill's name (2024's `pass_done`, ten such
/// conditions: +0.3% instructions a match of the basic edition).
const PREFIX_TRIGGERS: usize = 3;

/// What decides whether a trigger fires ([`Lower::trigger_test`]).
pub(super) enum When<'r> {
    /// Known false when the rules are compiled: the procedures its condition calls, to
    /// count as the dispatch counts them.
    Never(Vec<u16>),
    /// Its condition, one expression, and the number of its frame's slots (its hook's
    /// parameters first).
    Test(&'r Node, u16),
}

impl<'r> Lower<'r> {
    /// The closures of `hook h(args)` (`None`: a trigger has no condition, or one that is
    /// not plain, or one known true: the dispatch is called).
    pub(super) fn hook_call(&mut self, h: usize, args: &[Node]) -> Option<Built> {
        let saved = self.next_hidden;
        let r = self.hook_call_in(h, args);
        self.next_hidden = saved;
        r
    }

    fn hook_call_in(&mut self, h: usize, args: &[Node]) -> Option<Built> {
        let rs = self.rs;
        let hook = &rs.hooks[h];
        let mut steps: Vec<Step> = Vec::new();
        let mut k = 1;
        // The arguments where the conditions read them: a local where it is, any other
        // value bound to a hidden local first (the dispatch's parameters).
        // A role or a constant is bound only if a condition is tested (nothing else reads
        // it, and reading it cannot give up).
        let mut slots = Vec::with_capacity(args.len());
        let mut quiet: Vec<Step> = Vec::new();
        for a in args {
            match &a.kind {
                NodeKind::Local(s) => slots.push(self.slot(*s)),
                _ => {
                    let at = self.hidden(1);
                    let (step, ka) = self.bind(at, a)?;
                    if matches!(a.kind, NodeKind::Role(_) | NodeKind::Const(_)) {
                        quiet.push(step);
                    } else {
                        steps.push(step);
                    }
                    k += ka;
                    slots.push(at);
                }
            }
        }
        let bound = steps.len();
        let mut conds: Vec<Src<bool>> = Vec::with_capacity(hook.triggers.len());
        let mut prefixed = 0;
        for &ti in &hook.triggers {
            let (cond, when_slots) = match self.trigger_test(ti)? {
                When::Never(calls) => {
                    if !calls.is_empty() {
                        let calls: Arc<[u16]> = calls.into();
                        steps.push(Arc::new(move |m, _| {
                            m.direct_calls.extend_from_slice(&calls);
                            Some(())
                        }));
                    }
                    continue;
                }
                When::Test(cond, slots) => (cond, slots),
            };
            let outer = self.map_params(&slots, when_slots);
            let counted = std::mem::replace(&mut self.counted_known, true);
            let c = self.direct_test(cond).or_else(|| {
                prefixed += 1;
                self.plain_prefix(cond)
            });
            self.counted_known = counted;
            self.map = outer;
            let (c, kc) = c?;
            k += kc;
            conds.push(c);
        }
        if prefixed > PREFIX_TRIGGERS {
            return None;
        }
        if !conds.is_empty() {
            // Bound before the conditions' counts, as the dispatch binds its parameters.
            steps.splice(bound..bound, quiet);
        }
        let steps: Arc<[Step]> = steps.into();
        let conds: Arc<[Src<bool>]> = conds.into();
        let f: F<i64> = Arc::new(move |m, base| {
            for s in steps.iter() {
                s(m, base)?;
            }
            // The call of the dispatch.
            m.ops += 1;
            if m.ops > m.limits.ops_per_stage {
                return None;
            }
            for c in conds.iter() {
                if c.get(m, base)? {
                    return None;
                }
            }
            Some(0)
        });
        built(Direct::Int(Src::Fn(f)), k)
    }

    /// What decides whether trigger `ti` fires where its hook is called; `None` when the
    /// dispatch must be called (the trigger has no condition, one of more than one
    /// statement, or one known true when the rules are compiled).
    pub(super) fn trigger_test(&mut self, ti: u16) -> Option<When<'r>> {
        let rs = self.rs;
        let when = rs.triggers.get(usize::from(ti))?.when.as_ref()?;
        let [Stmt::Expr(cond)] = &when.body.stmts[..] else {
            return None;
        };
        let mut calls = Vec::new();
        match self.fold(cond, &mut calls) {
            Some(v) if as_bool(&v) => None,
            Some(_) => Some(When::Never(calls)),
            None => Some(When::Test(cond, when.slots)),
        }
    }

    /// `n` as a plain condition's closures and their size; `None` (nothing hoisted) when
    /// it is not one.
    fn direct_test(&mut self, n: &Node) -> Option<(Src<bool>, u32)> {
        let mark = self.hoist_mark();
        match self.direct(n) {
            Some(Built {
                d: Direct::Bool(c),
                k,
                ..
            }) => Some((c, k)),
            _ => {
                self.hoist_undo(mark);
                None
            }
        }
    }

    /// A condition that is not plain as a whole, as the operands at the start of its `and`
    /// chain that can be worked out here (`start == target and dribbler_on(team, target)`):
    /// true when they all hold, and the closure then gives up (the dispatch tests the
    /// rest). A call with a guard ([`Lower::guard_of`]: `skill_ready(team, "Runner")`) is
    /// tested by its guard, as the dispatch tests it: one false test makes the call
    /// `false`, counted as made. The operands are worked out in order and the first false
    /// one stops, as the dispatch's `and` does, so what they count is what it counts.
    /// `None`: the first operand cannot be worked out here.
    fn plain_prefix(&mut self, cond: &Node) -> Option<(Src<bool>, u32)> {
        let mut parts = Vec::new();
        conjuncts(cond, &mut parts);
        let mut tests: Vec<Src<bool>> = Vec::new();
        let mut k = 0;
        for n in parts {
            if let Some(guard) = self.guard_of(n) {
                // The prefix ends here: when the guard holds, the call decides.
                if let Some((t, kt)) = self.guard_test(n, &guard) {
                    tests.push(t);
                    k += kt;
                }
                break;
            }
            let Some((c, kc)) = self.direct_test(n) else {
                break;
            };
            tests.push(c);
            k += kc;
        }
        if tests.is_empty() {
            return None;
        }
        let tests: Arc<[Src<bool>]> = tests.into();
        let f: F<bool> = Arc::new(move |m, base| {
            for t in tests.iter() {
                if !t.get(m, base)? {
                    return Some(false);
                }
            }
            Some(true)
        });
        Some((Src::Fn(f), k))
    }

    /// The guard of call `n` (`guard`, from [`Lower::guard_of`]) as a closure: its
    /// arguments bound to the procedure's parameters, its tests worked out in order; false
    /// (the call counted as made, its value false) when one fails, true when all hold.
    fn guard_test(&mut self, n: &Node, guard: &[&'r Node]) -> Option<(Src<bool>, u32)> {
        let NodeKind::Call(idx, args) = &n.kind else {
            return None;
        };
        let idx = *idx;
        let slots = self.rs.procs[idx as usize].code.slots;
        let mut k = 0;
        let mut steps: Vec<Step> = Vec::new();
        let mut at = Vec::with_capacity(args.len());
        for a in args.iter() {
            match &a.kind {
                NodeKind::Local(s) => at.push(self.slot(*s)),
                _ => {
                    let h = self.hidden(1);
                    let (step, ka) = self.bind(h, a)?;
                    steps.push(step);
                    k += ka;
                    at.push(h);
                }
            }
        }
        let outer = self.map_params(&at, slots);
        let mut tests: Vec<Src<bool>> = Vec::with_capacity(guard.len());
        for g in guard {
            let Some((c, kc)) = self.direct_test(g) else {
                break;
            };
            tests.push(c);
            k += kc;
        }
        self.map = outer;
        if tests.len() < guard.len() {
            return None;
        }
        let steps: Arc<[Step]> = steps.into();
        let tests: Arc<[Src<bool>]> = tests.into();
        let f: F<bool> = Arc::new(move |m, base| {
            for s in steps.iter() {
                s(m, base)?;
            }
            for t in tests.iter() {
                if !t.get(m, base)? {
                    m.direct_calls.push(idx);
                    return Some(false);
                }
            }
            Some(true)
        });
        Some((Src::Fn(f), k))
    }
}
