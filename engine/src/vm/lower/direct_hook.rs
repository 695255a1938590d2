//! A hook's call as a direct expression: when every trigger's condition is plain (or known
//! when the rules are compiled), the call works the conditions out where it stands,
//! without entering the hook's dispatch, and gives 0 when none holds. When one holds the
//! closure gives up and the dispatch runs as stack code, the trigger's body with it.
//!
//! The closure counts what the dispatch would: one operation for the call, the procedures
//! a condition calls (a folded one too). A condition of one expression is not a call in the
//! dispatch either: it is tested where the dispatch stands ([`Lower::inline_when`]), as an
//! inlined procedure's body is, without a frame, an operation or a level of call depth.

use std::sync::Arc;

use super::super::as_bool;
use super::super::direct::{Direct, F, Src};
use super::Lower;
use super::direct::{Built, built};
use crate::ir::*;
use crate::vm::direct::Step;

impl Lower<'_> {
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
        for &ti in &hook.triggers {
            let when = rs.triggers[ti as usize].when.as_ref()?;
            let [Stmt::Expr(cond)] = &when.body.stmts[..] else {
                return None;
            };
            let mut calls = Vec::new();
            if let Some(v) = self.fold(cond, &mut calls) {
                if as_bool(&v) {
                    return None;
                }
                if !calls.is_empty() {
                    let calls: Arc<[u16]> = calls.into();
                    steps.push(Arc::new(move |m, _| {
                        m.direct_calls.extend_from_slice(&calls);
                        Some(())
                    }));
                }
                continue;
            }
            let map: Vec<u16> = (0..when.slots)
                .map(|i| match slots.get(i as usize) {
                    Some(&s) => s,
                    None => self.hidden(1),
                })
                .collect();
            let outer = std::mem::replace(&mut self.map, map);
            let counted = std::mem::replace(&mut self.counted_known, true);
            let b = self.direct(cond);
            self.counted_known = counted;
            self.map = outer;
            let b = b?;
            let Direct::Bool(c) = b.d else {
                return None;
            };
            k += b.k;
            conds.push(c);
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
}
