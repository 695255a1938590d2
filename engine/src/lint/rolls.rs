//! What dice can show, for the lints that compare a roll with a number: the range of a
//! die expression, the locals that hold one roll's result, and comparisons read as
//! always true or always false.

use std::collections::HashMap;

use crate::ir::{Code, Node, NodeKind, Op, Stmt};
use crate::ir_walk::{Item, walk_code};
use crate::prims::Prim;

/// The values a die expression shows: `roll d6` 1 to 6, `sum(roll 2d6)` 2 to 12.
pub(super) fn roll_range(n: &Node, locals: &HashMap<u16, (i64, i64)>) -> Option<(i64, i64)> {
    match &n.kind {
        NodeKind::Roll {
            count, sides, keep, ..
        } => {
            let kept = keep.map_or(*count, |k| k.1);
            (kept == 1).then_some((1, i64::from(*sides)))
        }
        NodeKind::Prim(Prim::Sum, args) => match args.first().map(|a| &a.kind) {
            Some(NodeKind::Roll {
                count, sides, keep, ..
            }) => {
                let kept = i64::from(keep.map_or(*count, |k| k.1));
                Some((kept, kept * i64::from(*sides)))
            }
            _ => None,
        },
        NodeKind::Local(s) => locals.get(s).copied(),
        _ => None,
    }
}

/// Locals of a piece of code that only ever hold one roll's result: bound once by `let`
/// to a roll (every binding of the slot the same kind of roll) and never set.
pub(super) fn roll_locals(c: &Code) -> HashMap<u16, (i64, i64)> {
    let mut bound: HashMap<u16, Option<(i64, i64)>> = HashMap::new();
    let empty = HashMap::new();
    let spoil = |slot: u16, r: Option<(i64, i64)>, bound: &mut HashMap<_, _>| {
        let e = bound.entry(slot).or_insert(r);
        if *e != r {
            *e = None;
        }
    };
    walk_code(c, &mut |it| match it {
        Item::Stmt(Stmt::Let(s, n)) => spoil(*s, roll_range(n, &empty), &mut bound),
        Item::Stmt(Stmt::LetPair(a, b, _)) => {
            spoil(*a, None, &mut bound);
            spoil(*b, None, &mut bound);
        }
        Item::Stmt(Stmt::SetLocal(s, _, _) | Stmt::For(s, _, _)) => spoil(*s, None, &mut bound),
        Item::Node(Node {
            kind: NodeKind::Quant(_, s, _, _),
            ..
        })
        | Item::Node(Node {
            kind:
                NodeKind::ChooseFrom {
                    prefer: Some((s, _)),
                    ..
                },
            ..
        }) => spoil(*s, None, &mut bound),
        _ => {}
    });
    bound
        .into_iter()
        .filter_map(|(s, r)| r.map(|r| (s, r)))
        .collect()
}

/// A range of die results as text: `2 to 12`.
pub(super) fn dice_text(r: (i64, i64)) -> String {
    format!("{} to {}", r.0, r.1)
}

/// `a < b` read from the other side.
pub(super) fn flip(op: Op) -> Op {
    match op {
        Op::Lt => Op::Gt,
        Op::Gt => Op::Lt,
        Op::Le => Op::Ge,
        Op::Ge => Op::Le,
        o => o,
    }
}

/// Whether `roll OP v` is always true (else always false), for a comparison found constant.
pub(super) fn always(op: Op, v: i64, (lo, hi): (i64, i64)) -> &'static str {
    let t = match op {
        Op::Eq => false,
        Op::Ne => true,
        Op::Gt => v < lo,
        Op::Ge => v <= lo,
        Op::Lt => v > hi,
        Op::Le => v >= hi,
        _ => false,
    };
    if t { "true" } else { "false" }
}
