//! Word code of a decision's `prefer` score ([`crate::vm::word`], compiled by
//! `vm/native/score.rs`): the score of one option, run for each option while the decision
//! waits, before its closures (which score an option the machine code gives up on).
//!
//! It reads the parts of the score the closures hoisted (`hoist.rs`: worked out once per
//! offer into hidden locals) from those locals, found by the address of the node or the
//! modifier rows they were hoisted from. An address names one part only where the code
//! around it is lowered once in the score: inside a procedure the score's tree calls more
//! than once, the closures may hoist a node in one call and not in another, so there the
//! word code works the node out itself. A score whose hoisted parts could dispatch a hook
//! is not made (the dispatch is an operation, counted once per offer there).

use super::Lower;
use super::direct_hook::When;
use super::mods::LIMIT;
use super::word_build::{Build, Parts, R};
use crate::ir::{Node, NodeKind, any_in, any_in_node};
use crate::value::Sym;
use crate::vm::word::{K, W, WOp, WordProg};

/// The most procedure bodies walked to find which procedures a score calls twice; past it
/// the score reads no hoisted part.
const MAX_WALK: usize = 10_000;

impl Build {
    /// Entering an inlined call of procedure `idx`: whether it is one the score calls
    /// more than once (then nothing inside it is read from a hoisted part).
    pub(super) fn enter_call(&mut self, idx: u16) -> bool {
        match &mut self.parts {
            Some(p) if p.shared.get(idx as usize).copied().unwrap_or(true) => {
                p.depth += 1;
                true
            }
            _ => false,
        }
    }

    /// Leaving the call [`Build::enter_call`] entered.
    pub(super) fn leave_call(&mut self, entered: bool) {
        if let (true, Some(p)) = (entered, &mut self.parts) {
            p.depth -= 1;
        }
    }
}

impl Lower<'_> {
    /// The parts hoisted out of score `n` (nodes and rows by address and local), with
    /// the procedures its tree calls more than once; `None` when the tree is too large to
    /// walk.
    pub(super) fn score_parts(
        &self,
        n: &Node,
        nodes: Vec<(usize, u16)>,
        rows: Vec<(usize, u16, Box<[bool]>)>,
    ) -> Option<Parts> {
        let procs = &self.rs.procs;
        let mut calls = vec![0u32; procs.len()];
        let mut todo: Vec<usize> = Vec::new();
        let note = |n: &Node, todo: &mut Vec<usize>, calls: &mut Vec<u32>| {
            if let NodeKind::Call(i, _) = n.kind
                && let Some(c) = calls.get_mut(i as usize)
            {
                *c += 1;
                todo.push(i as usize);
            }
            false
        };
        any_in_node(n, |_| false, |x| note(x, &mut todo, &mut calls));
        let mut walked = 0;
        while let Some(i) = todo.pop() {
            walked += 1;
            if walked > MAX_WALK {
                return None;
            }
            any_in(
                &procs[i].code.body,
                |_| false,
                |x| note(x, &mut todo, &mut calls),
            );
        }
        Some(Parts {
            nodes,
            rows,
            shared: calls.iter().map(|&c| c > 1).collect(),
            depth: 0,
        })
    }

    /// A node the closures hoisted out of the score, read from its local: `None` when it
    /// is not one, `Some(None)` when it is one the word code cannot read.
    pub(super) fn whoisted(&mut self, b: &mut Build, n: &Node) -> Option<Option<R>> {
        let p = b.parts.as_ref()?;
        if p.depth > 0 {
            return None;
        }
        let at = n as *const Node as usize;
        let slot = p.nodes.iter().find(|e| e.0 == at)?.1;
        let Some(k) = K::of(n.ty) else {
            return Some(None);
        };
        Some(b.frame_local(slot, k).map(|reg| R {
            reg,
            k,
            // A set's local may hold an area or none (read as a set).
            exact: k != K::Areas,
        }))
    }

    /// Word code of a decision's `prefer` score that is one integer expression, worked
    /// out option after option while the decision waits (the option in its frame local):
    /// its value returned. It counts nothing, as nothing is counted while scores run, and
    /// reads the parts the closures hoisted (`parts`) from their locals.
    pub(super) fn word_score(&mut self, n: &Node, parts: Parts) -> Option<WordProg> {
        if self.no_direct || self.in_score || self.hoist.is_some() || !self.sunk.is_empty() {
            return None;
        }
        let mut b = Build::quiet(parts);
        let r = self.wnode(&mut b, n)?;
        if r.k != K::Int || !r.exact {
            return None;
        }
        b.code.push(W::Ret(r.reg));
        b.finish()
    }

    /// A modifier list's total (read while nothing is logged, as the closures read it):
    /// the rows whose condition holds summed in the list's order, an overflow giving up
    /// where the stack code fails. Where the closures hoisted the rows that are the same
    /// for every option, their sum is read from its local and the other rows added to it
    /// as the closures add them: a row larger than [`LIMIT`] in size gives up.
    pub(super) fn wmods(&mut self, b: &mut Build, rows: &[(Sym, Node, Option<Node>)]) -> Option<R> {
        // Outside a score a list may be logged row by row (the stack code does that): a
        // loop's code that sums one runs only while the match is not logging.
        b.lists |= !b.quiet;
        let sum = b.reg()?;
        let at = rows.as_ptr() as usize;
        let hoisted = (b.parts.as_ref().filter(|p| p.depth == 0))
            .and_then(|p| p.rows.iter().find(|r| r.0 == at))
            .map(|r| (r.1, r.2.clone()));
        let bounds = match &hoisted {
            Some((slot, _)) => {
                let r = b.frame_local(*slot, K::Int)?;
                b.code.push(W::Copy(sum, r));
                let limit = LIMIT as i64;
                Some((
                    b.konst(limit as u64, K::Int)?,
                    b.konst(-limit as u64, K::Int)?,
                ))
            }
            None => {
                let zero = b.konst(0, K::Int)?;
                b.code.push(W::Copy(sum, zero.reg));
                None
            }
        };
        for (i, (_, value, cond)) in rows.iter().enumerate() {
            if hoisted
                .as_ref()
                .is_some_and(|(_, fixed)| fixed.get(i) == Some(&true))
            {
                continue;
            }
            let skip = match cond {
                Some(c) => {
                    let c = self.woperand(b, c, K::Bool)?;
                    b.code.push(W::JumpIfNot(c.reg, 0));
                    Some(b.code.len() - 1)
                }
                None => None,
            };
            let x = self.woperand(b, value, K::Int)?;
            if let Some((hi, lo)) = bounds {
                for (op, bound) in [(WOp::Gt, hi), (WOp::Lt, lo)] {
                    let past = b.reg()?;
                    b.code.push(W::Bin(op, past, x.reg, bound.reg));
                    b.code.push(W::JumpIfNot(past, 0));
                    let within = b.code.len() - 1;
                    b.code.push(W::GiveUp);
                    let to = b.at()?;
                    b.patch(within, to);
                }
            }
            b.code.push(W::Bin(WOp::Add, sum, sum, x.reg));
            if let Some(at) = skip {
                let to = b.at()?;
                b.patch(at, to);
            }
        }
        Some(R {
            reg: sum,
            k: K::Int,
            exact: true,
        })
    }

    /// An integer hook point, counted as the closures count it (`direct_hook.rs`): its
    /// arguments worked out where the closures bind them (all of them when a condition
    /// reads them; else neither a local nor a role or constant), the dispatch's call
    /// counted as one operation, then each trigger's condition, in order; when one holds,
    /// the code gives up (the dispatch runs as stack code), and when none does the value
    /// is 0. In a score, only a hook that no trigger answers.
    pub(super) fn whook(&mut self, b: &mut Build, h: usize, args: &[Node]) -> Option<R> {
        let rs = self.rs;
        let hook = rs.hooks.get(h)?;
        let tested = !hook.triggers.is_empty();
        if tested && b.quiet {
            return None;
        }
        let mut regs = Vec::with_capacity(args.len());
        for a in args {
            let plain = matches!(
                a.kind,
                NodeKind::Local(_) | NodeKind::Role(_) | NodeKind::Const(_)
            );
            regs.push(if tested || !plain {
                Some(self.wnode(b, a)?)
            } else {
                None
            });
        }
        b.code.push(W::Tick);
        for &ti in &hook.triggers {
            let (cond, slots) = match self.trigger_test(ti)? {
                When::Never(calls) => {
                    b.code.extend(calls.into_iter().map(W::Count));
                    continue;
                }
                When::Test(cond, slots) => (cond, slots),
            };
            let mut scope = vec![None; usize::from(slots)];
            for (s, r) in scope.iter_mut().zip(&regs) {
                *s = *r;
            }
            b.scopes.push(scope);
            let c = self.woperand(b, cond, K::Bool);
            b.scopes.pop();
            let c = c?;
            let holds = b.code.len();
            b.code.push(W::JumpIfNot(c.reg, 0));
            b.code.push(W::GiveUp);
            let to = b.at()?;
            b.patch(holds, to);
        }
        b.konst(0, K::Int)
    }
}
