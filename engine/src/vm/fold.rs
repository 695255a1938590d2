//! Constant folding: an expression that depends only on constants (match options
//! included), the board and the arguments of an inlined call that are themselves constant
//! is worked out once, when the rules are compiled, by the primitives themselves. A rule
//! switched off by an option (`skills > 0 and ...` with `skills = 0`) then costs nothing.
//!
//! A folded expression still counts the procedures it calls: [`Fold::value`] returns them,
//! and the lowering emits a count for each, so coverage and figures are unchanged.

use super::checked::as_bool;
use super::machine::{Match, Program};
use crate::board::AreaSet;
use crate::ir::{Loc, Node, NodeKind, Op, Stmt, any_in_node};
use crate::prims::Prim;
use crate::ruleset::Ruleset;
use crate::value::Value;

/// What folding needs to know of the ruleset and the lowering.
pub(super) struct Fold<'r> {
    /// The rules.
    pub rs: &'r Ruleset,
    /// Procedures whose calls are inlined.
    pub inline: &'r [bool],
}

impl Fold<'_> {
    /// The node's value when it can be known now, with the procedures it counts as called;
    /// `env` holds the known values of the locals (an inlined body's arguments).
    pub fn value(&self, n: &Node, env: &[Option<Value>], calls: &mut Vec<u16>) -> Option<Value> {
        let empty = Program::default();
        let mut on = On::Lazy(self.rs, &empty, None);
        self.value_in(&mut on, n, env, calls)
    }

    /// [`Fold::value`], working the primitives out on `m`'s operand stack (left as found):
    /// a running match evaluates a figure's test this way ([`Match::figure_test`]).
    pub fn value_on(
        &self,
        m: &mut Match<'_>,
        n: &Node,
        env: &[Option<Value>],
        calls: &mut Vec<u16>,
    ) -> Option<Value> {
        self.value_in(&mut On::Live(m), n, env, calls)
    }

    fn value_in(
        &self,
        m: &mut On<'_, '_>,
        n: &Node,
        env: &[Option<Value>],
        calls: &mut Vec<u16>,
    ) -> Option<Value> {
        match &n.kind {
            NodeKind::Const(v) => Some(v.clone()),
            NodeKind::Local(s) => env.get(*s as usize).cloned().flatten(),
            NodeKind::Prim(p, args) if constant_prim(*p) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args.iter() {
                    vals.push(self.value_in(m, a, env, calls)?);
                }
                let m = m.get();
                let depth = m.stack.len();
                m.stack.extend(vals);
                let ok = m.prim(*p, 0).is_ok() && m.stack.len() == depth + 1;
                let v = if ok { m.stack.pop() } else { None };
                m.stack.truncate(depth);
                v
            }
            NodeKind::Bin(op, a, b) if !matches!(op, Op::MovesUnion) => {
                let x = self.value_in(m, a, env, calls)?;
                let y = self.value_in(m, b, env, calls)?;
                m.get().binop(*op, x, y, 0).ok()
            }
            NodeKind::Not(x) => Some(Value::Bool(!as_bool(&self.value_in(m, x, env, calls)?))),
            NodeKind::Neg(x) => match self.value_in(m, x, env, calls)? {
                Value::Int(i) => i.checked_neg().map(Value::Int),
                _ => None,
            },
            NodeKind::And(a, b) | NodeKind::Or(a, b) => {
                let and = matches!(n.kind, NodeKind::And(..));
                // The second operand is not evaluated when the first decides.
                let Some(first) = self.value_in(m, a, env, calls) else {
                    // The first unknown: the second decides alone when it is the deciding
                    // value (`false` for `and`, `true` for `or`), the first cannot fail
                    // and the second counts no call (it would be counted only sometimes).
                    if !cannot_fail(a) {
                        return None;
                    }
                    let mut inner = Vec::new();
                    let second = as_bool(&self.value_in(m, b, env, &mut inner)?);
                    return (inner.is_empty() && second != and).then_some(Value::Bool(second));
                };
                let first = as_bool(&first);
                if first != and {
                    return Some(Value::Bool(first));
                }
                Some(Value::Bool(as_bool(&self.value_in(m, b, env, calls)?)))
            }
            NodeKind::AreaList(items) => {
                let mut set = AreaSet::EMPTY;
                for i in items.iter() {
                    set = set.union(match self.value_in(m, i, env, calls)? {
                        Value::Area(a) => AreaSet::one(a),
                        Value::Areas(s) => s,
                        Value::None => AreaSet::EMPTY,
                        _ => return None,
                    });
                }
                Some(Value::Areas(set))
            }
            NodeKind::IntList(items) => {
                let mut list = Vec::with_capacity(items.len());
                for i in items.iter() {
                    match self.value_in(m, i, env, calls)? {
                        Value::Int(x) => list.push(x),
                        _ => return None,
                    }
                }
                Some(Value::List(list.into()))
            }
            NodeKind::Call(idx, args) if self.foldable_call(*idx as usize) => {
                let p = &self.rs.procs[*idx as usize];
                let [Stmt::Expr(body)] = &p.code.body.stmts[..] else {
                    return None;
                };
                let _nested = if self.inline.get(*idx as usize) == Some(&true) {
                    None
                } else {
                    Some(Nested::enter()?)
                };
                // Arguments are evaluated before the call: each must be known, or have no
                // effect and count no call, for the call to be left out.
                let mut inner = vec![None; p.code.slots as usize];
                let mut counted = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    let mut c = Vec::new();
                    match self.value_in(m, a, env, &mut c) {
                        Some(v) => {
                            inner[i] = Some(v);
                            counted.extend(c);
                        }
                        None if silent(a) => {}
                        None => return None,
                    }
                }
                counted.push(*idx);
                let v = self.value_in(m, body, &inner, &mut counted)?;
                calls.extend(counted);
                Some(v)
            }
            _ => None,
        }
    }
}

/// The match the primitives and operators are worked out on: the running one, or one made
/// only when a primitive or an operator is first worked out. Making a match costs more
/// than folding: made for every expression tried, it was 137 M of the 141 M instructions
/// folding took when the 2024 rules were compiled, though most expressions fold nowhere.
enum On<'m, 'a> {
    /// A running match.
    Live(&'m mut Match<'a>),
    /// A match of no program, made when first needed.
    Lazy(&'a Ruleset, &'a Program, Option<Box<Match<'a>>>),
}

impl<'a> On<'_, 'a> {
    fn get(&mut self) -> &mut Match<'a> {
        match self {
            On::Live(m) => m,
            On::Lazy(rs, prog, m) => {
                m.get_or_insert_with(|| Box::new(Match::with_program(rs, prog, 0)))
            }
        }
    }
}

impl Fold<'_> {
    /// Whether a call of procedure `i` may be worked out now: inlined, or pure with a body
    /// of one expression and no loop (its value then stands for the call, which counts as
    /// made, as an inlined call's does): a skill's test `skills > 0 and ...` with no skills.
    fn foldable_call(&self, i: usize) -> bool {
        // An inlined procedure with effects is never worked out at compile time.
        let p = &self.rs.procs[i];
        if self.inline.get(i) == Some(&true) {
            return p.pure;
        }
        p.pure && p.code.body.stmts.len() == 1 && !super::inline::has_loop(&p.code.body)
    }
}

/// The deepest nesting of calls that are not inlined worked out at once (inlined ones are
/// bounded by [`super::inline`]): one, so that a chain of calls is still made, and bounded
/// by the call depth, where it runs (`max_call_depth`), as before.
const MAX_FOLD_DEPTH: u32 = 1;

thread_local! {
    /// How deep the calls being worked out are nested (on this thread).
    static FOLD_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// One more call being worked out, while it lives (`None`: too deep).
struct Nested;

impl Nested {
    fn enter() -> Option<Nested> {
        FOLD_DEPTH.with(|d| {
            (d.get() < MAX_FOLD_DEPTH).then(|| {
                d.set(d.get() + 1);
                Nested
            })
        })
    }
}

impl Drop for Nested {
    fn drop(&mut self) {
        FOLD_DEPTH.with(|d| d.set(d.get() - 1));
    }
}

/// Where the first part of `n` is that [`Fold::value`] cannot work out from the locals,
/// the constants and the board alone (a state variable, a call, a primitive that reads the
/// match), if any. Procedure calls are never inlined here.
pub(crate) fn reads_the_match(n: &Node) -> Option<Loc> {
    let mut found = None;
    any_in_node(
        n,
        |_| true,
        |x| {
            let ok = match &x.kind {
                NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Not(_) => true,
                NodeKind::AreaList(_) | NodeKind::IntList(_) => true,
                NodeKind::And(..) | NodeKind::Or(..) => true,
                NodeKind::Bin(op, ..) => !matches!(op, Op::MovesUnion),
                NodeKind::Prim(p, _) => constant_prim(*p),
                _ => false,
            };
            if !ok && found.is_none() {
                found = Some(x.loc);
            }
            !ok
        },
    );
    found
}

/// Whether evaluating the node has no effect, logs nothing and counts no procedure call.
fn silent(n: &Node) -> bool {
    !any_in_node(
        n,
        |_| true,
        |n| match &n.kind {
            NodeKind::Prim(p, _) => p.has_effect(),
            NodeKind::Const(_)
            | NodeKind::Local(_)
            | NodeKind::Var(_)
            | NodeKind::Role(_)
            | NodeKind::TeamVar(..)
            | NodeKind::MoveEnd(..)
            | NodeKind::MoveKeeper(_)
            | NodeKind::Not(_)
            | NodeKind::Neg(_)
            | NodeKind::ListIndex(..)
            | NodeKind::And(..)
            | NodeKind::Or(..)
            | NodeKind::Bin(..) => false,
            _ => true,
        },
    )
}

/// Whether evaluating the node can neither fail nor have an effect nor count a call: flags
/// and comparisons of locals, constants, roles and state variables.
fn cannot_fail(n: &Node) -> bool {
    !any_in_node(
        n,
        |_| true,
        |n| match &n.kind {
            NodeKind::Const(_)
            | NodeKind::Local(_)
            | NodeKind::Var(_)
            | NodeKind::Role(_)
            | NodeKind::Not(_)
            | NodeKind::And(..)
            | NodeKind::Or(..) => false,
            NodeKind::Bin(op, ..) => !matches!(
                op,
                Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::InAreas
            ),
            _ => true,
        },
    )
}

/// Primitives whose value depends only on their arguments and the board.
pub(crate) fn constant_prim(p: Prim) -> bool {
    use Prim::*;
    matches!(
        p,
        Other
            | IsHome
            | AllAreas
            | Adjacent
            | Forward
            | Backward
            | Sideways
            | Diagonal
            | Direction
            | Between
            | Distance
            | Closer
            | Behind
            | Reaching
            | SameLevel
            | EntirelyInHalf
            | PartlyInHalf
            | HalfAreas
            | GoalLineAreas
            | OwnGoalLine
            | Mark
            | Number
            | HasNumber
            | Zone
            | Min
            | Max
            | Abs
            | Clamp
    )
}
