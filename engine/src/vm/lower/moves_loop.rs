//! Lowering of a loop that only gathers moves ([`crate::vm::moves_loop`]): `for a in
//! areas { ... }` whose body is made only of `let`s, `if c { ... }` without `else`, and
//! `set ms = ms | moves(t, from, dests)` into move-set locals (or `set s = s - x`, `set
//! s = s | x` into area-set locals: machine code only) that nothing else in the body
//! reads, every expression in it a direct one ([`super::direct`]) or the whole loop word
//! code ([`super::word`], for machine code). Any other loop is stack code only.

use std::sync::Arc;

use super::Lower;
use super::direct_ops::{area, areas, flag, team};
use crate::ir::{Block, Node, NodeKind, Op, Stmt, any_in_node};
use crate::prims::Prim;
use crate::value::Ty;
use crate::vm::machine::{MovesLoop, Part};

impl Lower<'_> {
    /// The loop `for var in over { body }` as a [`MovesLoop`] of the program (its index),
    /// or `None` when it does not have that shape.
    pub(super) fn moves_loop(&mut self, var: u16, over: &Node, body: &Block) -> Option<u32> {
        if self.no_direct || self.in_score || over.ty != Ty::Areas {
            return None;
        }
        let mut found = Vec::new();
        gathered(body, &mut found)?;
        // The move sets first, then the area sets: the word code numbers them so.
        found.sort_by_key(|g| g.1 != Gather::Moves);
        let moves = found.iter().take_while(|g| g.1 == Gather::Moves).count();
        let accs: Vec<u16> = found.iter().map(|g| g.0).collect();
        if accs.is_empty() || accs.len() > usize::from(u8::MAX) || accs.contains(&var) {
            return None;
        }
        // Nothing in the loop but the additions themselves reads a gathering set, and
        // nothing binds one: they change only after the last round. The areas iterated
        // are worked out before the first round: they may read an area set gathered into.
        let reads = |n: &Node| reads_any(&accs, n);
        if reads_any(&accs[..moves], over) || !parts_read_none(body, &accs, &reads) {
            return None;
        }
        let word = self.word_loop(var, over, body, &accs);
        // A loop that gathers into an area set has machine code only; one whose closures
        // cannot be made may still have it (its word code asks the match for any primitive
        // without an effect: 2015's `slide`).
        let closures = if moves < accs.len() {
            None
        } else {
            let over_d = self.direct(over).and_then(|b| areas(b.d));
            self.gathering = true;
            let body = over_d.as_ref().and_then(|_| self.parts(body, &accs));
            self.gathering = false;
            over_d.zip(body)
        };
        if closures.is_none() && word.is_none() {
            return None;
        }
        let (gathered_moves, sets) = found.split_at(moves);
        let l = MovesLoop {
            var: self.slot(var),
            accs: gathered_moves.iter().map(|g| self.slot(g.0)).collect(),
            sets: (sets.iter())
                .map(|g| (self.slot(g.0), g.1 == Gather::Minus))
                .collect(),
            closures,
            lists: word.as_ref().is_some_and(|w| w.lists),
            word,
            native: None,
        };
        let i = u32::try_from(self.p.moves_loops.len()).ok()?;
        self.p.moves_loops.push(l);
        Some(i)
    }

    fn parts(&mut self, b: &Block, accs: &[u16]) -> Option<Arc<[Part]>> {
        let mut parts = Vec::with_capacity(b.stmts.len());
        for s in b.stmts.iter() {
            parts.push(match s {
                Stmt::Let(slot, n) => Part::Let(self.bind(self.slot(*slot), n)?.0),
                Stmt::SetLocal(acc, _, n) => {
                    let (t, from, dests) = added(*acc, n)?;
                    let acc = accs.iter().position(|a| a == acc)?;
                    Part::Add {
                        acc: u8::try_from(acc).ok()?,
                        team: team(self.direct(t)?.d)?,
                        from: area(self.direct(from)?.d)?,
                        dests: areas(self.direct(dests)?.d)?,
                    }
                }
                Stmt::Expr(Node {
                    kind: NodeKind::If(c, inner, None),
                    ..
                }) => Part::If(flag(self.direct(c)?.d)?, self.parts(inner, accs)?),
                _ => return None,
            });
        }
        Some(parts.into())
    }
}

/// The operands of `set acc = acc | moves(t, from, dests)`.
fn added(acc: u16, n: &Node) -> Option<(&Node, &Node, &Node)> {
    let NodeKind::Bin(Op::MovesUnion, a, b) = &n.kind else {
        return None;
    };
    if !matches!(a.kind, NodeKind::Local(x) if x == acc) {
        return None;
    }
    match &b.kind {
        NodeKind::Prim(Prim::Moves, args) => match &args[..] {
            [t, from, dests] => Some((t, from, dests)),
            _ => None,
        },
        _ => None,
    }
}

/// What a loop's `set` does to the local it gathers into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Gather {
    /// `set ms = ms | moves(t, from, dests)`.
    Moves,
    /// `set s = s - x` (an area set; `x` an area or a set).
    Minus,
    /// `set s = s | x`.
    Plus,
}

/// What `set acc = n` gathers, and the operand it gathers (`n` itself for moves).
pub(super) fn gathering(acc: u16, n: &Node) -> Option<(Gather, &Node)> {
    if added(acc, n).is_some() {
        return Some((Gather::Moves, n));
    }
    let NodeKind::Bin(op @ (Op::Diff | Op::Union), a, x) = &n.kind else {
        return None;
    };
    if !matches!(a.kind, NodeKind::Local(l) if l == acc) || a.ty != Ty::Areas || n.ty != Ty::Areas {
        return None;
    }
    let g = if *op == Op::Diff {
        Gather::Minus
    } else {
        Gather::Plus
    };
    Some((g, x))
}

/// The locals the body gathers into and how, or `None` when it holds another kind of
/// statement (or gathers into one local two ways).
fn gathered(b: &Block, found: &mut Vec<(u16, Gather)>) -> Option<()> {
    for s in b.stmts.iter() {
        match s {
            Stmt::Let(..) => {}
            Stmt::SetLocal(acc, fuba_grammar::ast::AssignOp::Assign, n) => {
                let (g, _) = gathering(*acc, n)?;
                match found.iter().find(|f| f.0 == *acc) {
                    Some(f) if f.1 != g => return None,
                    Some(_) => {}
                    None => found.push((*acc, g)),
                }
            }
            Stmt::Expr(Node {
                kind: NodeKind::If(_, inner, None),
                ..
            }) => gathered(inner, found)?,
            _ => return None,
        }
    }
    Some(())
}

/// Whether `n` reads or binds one of the locals `of`.
fn reads_any(of: &[u16], n: &Node) -> bool {
    any_in_node(
        n,
        |s| matches!(s, Stmt::Let(x, _) | Stmt::SetLocal(x, _, _) if of.contains(x)),
        |n| matches!(n.kind, NodeKind::Local(x) if of.contains(&x)),
    )
}

/// Whether no part of the body reads a gathering set, the additions' own `acc |` aside.
fn parts_read_none(b: &Block, accs: &[u16], reads: &impl Fn(&Node) -> bool) -> bool {
    b.stmts.iter().all(|s| match s {
        Stmt::Let(x, n) => !accs.contains(x) && !reads(n),
        Stmt::SetLocal(acc, _, n) => match added(*acc, n) {
            Some((t, from, dests)) => !reads(t) && !reads(from) && !reads(dests),
            None => gathering(*acc, n).is_some_and(|(_, x)| !reads(x)),
        },
        Stmt::Expr(Node {
            kind: NodeKind::If(c, inner, None),
            ..
        }) => !reads(c) && parts_read_none(inner, accs, reads),
        _ => false,
    })
}
