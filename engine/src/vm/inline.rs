//! Which procedures are lowered into their callers instead of being called: small
//! procedures (`adj`, `can_leave`, `twice`, a move made with its event...) whose bodies cost
//! less than a call's frame and memo bookkeeping. An inlined call still counts as a call of
//! its procedure (figures, coverage and the memo's record of calls stay as they were), and
//! an inlined procedure with effects logs its events under its own rule (a rule mark on its
//! instructions, [`super::code::Program::rule_marks`]).

use crate::ir::{Block, Node, NodeKind, Search, Stmt, any_in};
use crate::ruleset::Ruleset;

use super::quiet::Quiet;

/// Largest body (in IR nodes, inlined callees included) that is inlined. A procedure with a
/// loop is never inlined outside scores: it is remembered instead (the memo pays more than
/// the call costs: 2024's `offside_areas` inlined costs 7% more instructions per match).
pub const INLINE_NODES: usize = 64;
/// Largest body with effects (in IR nodes, inlined callees included) that is inlined:
/// such a body saves its frame, and the rule mark that stands for it costs nothing.
pub const INLINE_EFFECT_NODES: usize = 128;
/// Largest body inlined into a `prefer` score, which runs once for every option offered.
pub const INLINE_SCORE_NODES: usize = 320;
/// Largest body (in IR nodes, callees included) inlined into machine code.
pub const INLINE_NATIVE_NODES: usize = 512;

/// What a plan may inline.
#[derive(Clone, Copy)]
pub struct Scope<'q> {
    /// Largest body, in IR nodes with its inlined callees.
    pub limit: usize,
    /// A procedure with a loop is inlined too (into `prefer` scores, where it would
    /// otherwise be remembered).
    pub remembered: bool,
    /// The quiet code of the ruleset, for a plan of `prefer` scores: there nothing is
    /// logged or counted, and a quiet procedure is inlined even when it is not pure, with
    /// its modifier lists and hooks (a modifier list's start-area rows are then worked out
    /// beside the score's other expressions instead of behind a call).
    pub scores: Option<&'q Quiet>,
    /// A procedure with effects (a `set`, an `emit`, a primitive that changes the match, a
    /// `choose`) of at most this many nodes is inlined too, into the stack code: its
    /// instructions carry a rule mark ([`super::code::Program::rule_marks`]) so that its
    /// events, errors and `explain`'s notes name its rule and parameters as its frame did.
    pub effects: Option<usize>,
}

/// For each procedure, whether its calls are inlined under `scope`.
pub fn plan(rs: &Ruleset, scope: Scope<'_>) -> Vec<bool> {
    let mut size: Vec<Option<Option<usize>>> = vec![None; rs.procs.len()];
    (0..rs.procs.len())
        .map(|i| {
            let p = &rs.procs[i];
            (scope.remembered || !has_loop(&p.code.body) || (scope.effects.is_some() && !p.pure))
                && inlined_size(rs, i, &mut size, 0, scope).is_some()
        })
        .collect()
}

/// The inlined size of procedure `i`, or `None` when it is not inlined.
fn inlined_size(
    rs: &Ruleset,
    i: usize,
    memo: &mut Vec<Option<Option<usize>>>,
    depth: usize,
    scope: Scope<'_>,
) -> Option<usize> {
    let scores = scope.scores;
    if let Some(known) = memo[i] {
        return known;
    }
    let p = &rs.procs[i];
    let mut r = None;
    let effects = scope.effects.is_some() && scores.is_none();
    let admitted = p.pure || scores.is_some_and(|q| q.proc(i)) || effects;
    let limit = match scope.effects {
        Some(l) if !p.pure => l,
        _ => scope.limit,
    };
    if admitted && depth < 8 {
        // Mark as not inlined while it is measured: a cycle is never inlined.
        memo[i] = Some(None);
        let mut size = 0;
        let with_effects = effects && !p.pure;
        let refused = (with_effects
            && (breaks_out(&p.code.body) || !returns_by_jumps(&p.code.body)))
            || any_in(
                &p.code.body,
                // Leaving early needs a frame of its own; a body with effects may leave its
                // own loops, and itself by a jump (`breaks_out`, `returns_by_jumps`).
                |s| match s {
                    Stmt::Return(_) | Stmt::Break => !with_effects,
                    Stmt::SetVar(..) | Stmt::Emit(..) => !effects,
                    _ => false,
                },
                |n| {
                    size += 1;
                    let refused = match &n.kind {
                        NodeKind::Call(idx, _) => {
                            match inlined_size(rs, *idx as usize, memo, depth + 1, scope) {
                                Some(s) => {
                                    size += s;
                                    false
                                }
                                // A remembered procedure (pure, with a loop) stays a call inside
                                // the inlined body; any other callee keeps a pure caller a
                                // call. A caller with effects keeps its callees calls: their
                                // frames take the caller's rule mark.
                                None => {
                                    let callee = &rs.procs[*idx as usize];
                                    !(with_effects || callee.pure && has_loop(&callee.code.body))
                                }
                            }
                        }
                        NodeKind::Modifiers { .. } | NodeKind::Hook(..) => {
                            scores.is_none() && !effects
                        }
                        NodeKind::ChooseFrom { .. }
                        | NodeKind::ChooseArms { .. }
                        | NodeKind::Roll { .. }
                        | NodeKind::Table(..) => !effects,
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

/// Whether a `break` in the block may leave it: one outside every loop of the block (a
/// `break` outside a loop leaves its procedure; inlined, it would leave the caller's
/// loop). A loop's body may break; anywhere else a `break` in a nested block counts, even
/// inside a loop there (a conservative answer: the procedure stays a call).
fn breaks_out(b: &Block) -> bool {
    let mut search = Search {
        stmt: &mut |s| matches!(s, Stmt::Break),
        node: &mut |_| false,
    };
    b.stmts.iter().any(|s| match s {
        Stmt::Repeat(n, _, _) | Stmt::For(_, n, _) => search.in_node(n),
        other => search.in_stmt(other),
    })
}

/// Whether every `return` in the block stands where an inlined body can leave by a jump
/// to its end: as a statement of the block, or of the branches of an `if` standing so, not
/// in a loop or among an expression's operands (where the operand stack would hold more
/// than the body's value).
fn returns_by_jumps(b: &Block) -> bool {
    b.stmts.iter().all(|s| match s {
        Stmt::Return(v) => v.as_ref().is_none_or(|n| !returns_in(n)),
        Stmt::Expr(n) => branch_returns_by_jumps(n),
        other => !with_return_search(|r| r.in_stmt(other)),
    })
}

/// [`returns_by_jumps`] for a statement's expression: an `if`'s branches, a block.
fn branch_returns_by_jumps(n: &Node) -> bool {
    match &n.kind {
        NodeKind::If(c, then, other) => {
            !returns_in(c)
                && returns_by_jumps(then)
                && other.as_deref().is_none_or(branch_returns_by_jumps)
        }
        NodeKind::Block(b) => returns_by_jumps(b),
        _ => !returns_in(n),
    }
}

/// Whether a `return` stands anywhere in the node.
fn returns_in(n: &Node) -> bool {
    with_return_search(|r| r.in_node(n))
}

/// Runs `f` with a search for a `return`.
fn with_return_search(f: impl FnOnce(&mut Search<'_>) -> bool) -> bool {
    f(&mut Search {
        stmt: &mut |s| matches!(s, Stmt::Return(_)),
        node: &mut |_| false,
    })
}

/// Whether the code iterates (a `for`, a `repeat` or a quantifier anywhere in it).
pub fn has_loop(b: &Block) -> bool {
    any_in(
        b,
        |s| matches!(s, Stmt::Repeat(..) | Stmt::For(..)),
        |n| matches!(n.kind, NodeKind::Quant(..)),
    )
}
