//! Which procedures are lowered into their callers instead of being called: small pure
//! procedures (`adj`, `can_leave`, `twice`...) whose bodies cost less than a call's frame
//! and memo bookkeeping. An inlined call still counts as a call of its procedure (figures,
//! coverage and the memo's record of calls stay as they were).

use crate::ir::{Block, NodeKind, Stmt, any_in};
use crate::ruleset::Ruleset;

use super::quiet::Quiet;

/// Largest body (in IR nodes, inlined callees included) that is inlined. A procedure with a
/// loop is never inlined outside scores: it is remembered instead (the memo pays more than
/// the call costs: 2024's `offside_areas` inlined costs 7% more instructions per match).
pub const INLINE_NODES: usize = 64;
/// Largest body inlined into a `prefer` score, which runs once for every option offered.
pub const INLINE_SCORE_NODES: usize = 320;
/// Largest body (in IR nodes, callees included) inlined into machine code.
pub const INLINE_NATIVE_NODES: usize = 512;

/// For each procedure, whether its calls are inlined, for bodies of at most `limit` nodes;
/// with `remembered`, a procedure with a loop is inlined too (into `prefer` scores).
///
/// With `scores` (the quiet code of the ruleset), the plan is for `prefer` scores, where
/// nothing is logged or counted: a quiet procedure is inlined there even when it is not
/// pure, and its modifier lists and hooks with it (a modifier list's start-area rows are
/// then worked out beside the score's other expressions instead of behind a call).
pub fn plan(rs: &Ruleset, limit: usize, remembered: bool, scores: Option<&Quiet>) -> Vec<bool> {
    let mut size: Vec<Option<Option<usize>>> = vec![None; rs.procs.len()];
    (0..rs.procs.len())
        .map(|i| {
            (remembered || !has_loop(&rs.procs[i].code.body))
                && inlined_size(rs, i, &mut size, 0, limit, scores).is_some()
        })
        .collect()
}

/// The inlined size of procedure `i`, or `None` when it is not inlined.
fn inlined_size(
    rs: &Ruleset,
    i: usize,
    memo: &mut Vec<Option<Option<usize>>>,
    depth: usize,
    limit: usize,
    scores: Option<&Quiet>,
) -> Option<usize> {
    if let Some(known) = memo[i] {
        return known;
    }
    let p = &rs.procs[i];
    let mut r = None;
    let admitted = p.pure || scores.is_some_and(|q| q.proc(i));
    if admitted && depth < 8 {
        // Mark as not inlined while it is measured: a cycle is never inlined.
        memo[i] = Some(None);
        let mut size = 0;
        let refused = any_in(
            &p.code.body,
            // Leaving early needs a frame of its own.
            |s| {
                matches!(
                    s,
                    Stmt::Break | Stmt::Return(_) | Stmt::SetVar(..) | Stmt::Emit(..)
                )
            },
            |n| {
                size += 1;
                let refused = match &n.kind {
                    NodeKind::Call(idx, _) => {
                        match inlined_size(rs, *idx as usize, memo, depth + 1, limit, scores) {
                            Some(s) => {
                                size += s;
                                false
                            }
                            // A remembered procedure (pure, with a loop) stays a call inside
                            // the inlined body; any other callee keeps the caller a call.
                            None => {
                                let callee = &rs.procs[*idx as usize];
                                !(callee.pure && has_loop(&callee.code.body))
                            }
                        }
                    }
                    NodeKind::Modifiers { .. } | NodeKind::Hook(..) => scores.is_none(),
                    NodeKind::Table(..)
                    | NodeKind::ChooseFrom { .. }
                    | NodeKind::ChooseArms { .. }
                    | NodeKind::Roll { .. } => true,
                    _ => false,
                };
                refused || size > limit
            },
        );
        if !refused && size <= limit {
            r = Some(size);
        }
    }
    memo[i] = Some(r);
    r
}

/// Whether the code iterates (a `for`, a `repeat` or a quantifier anywhere in it).
pub fn has_loop(b: &Block) -> bool {
    any_in(
        b,
        |s| matches!(s, Stmt::Repeat(..) | Stmt::For(..)),
        |n| matches!(n.kind, NodeKind::Quant(..)),
    )
}
