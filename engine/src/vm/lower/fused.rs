//! Fused closures for frequent shapes of direct expressions (`lower/direct.rs`): an area
//! in the areas closer to a goal than another (`x in closer(a, t)`), and a comparison of
//! two distances. One closure reads every operand, in the order the stack code
//! evaluates them, and works the whole shape out; the value is the same as the closures
//! of its parts would give.

use std::sync::Arc;

use super::super::kinds::{Ar, Tm};
use super::super::machine::{Direct, Src};
use super::Lower;
use super::built::{Built, built};
use super::direct_ops::{area, team};
use crate::ir::*;
use crate::prims::Prim;
use crate::state::MatchState;

/// The arguments of a call of primitive `p` with two.
fn two(n: &Node, p: Prim) -> Option<(&Node, &Node)> {
    match &n.kind {
        NodeKind::Prim(q, args) if *q == p => match &args[..] {
            [a, b] => Some((a, b)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `a op b` is a shape with a fused closure.
pub(super) fn shape(op: Op, a: &Node, b: &Node) -> bool {
    match op {
        Op::InAreas => two(b, Prim::Closer).is_some(),
        Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            two(a, Prim::Distance).is_some() && two(b, Prim::Distance).is_some()
        }
        _ => false,
    }
}

impl Lower<'_> {
    /// The fused closure of `a op b`, a [`shape`] (`None`: not plain).
    pub(super) fn fused(&mut self, op: Op, a: &Node, b: &Node) -> Option<Built> {
        if op == Op::InAreas {
            let (c, t) = two(b, Prim::Closer)?;
            let x = self.direct(a)?;
            let c = self.direct(c)?;
            let t = self.direct(t)?;
            let k = x.k + c.k + t.k + 2;
            let (x, c, t) = (area(x.d)?, area(c.d)?, team(t.d)?);
            let f = Arc::new(move |m: &mut crate::vm::Match<'_>, base| {
                let Ar(x) = x.get(m, base)?;
                let Ar(c) = c.get(m, base)?;
                let Tm(t) = t.get(m, base)?;
                Some(m.rs.board.closer(c, MatchState::side(t)).has(x))
            });
            return built(Direct::Bool(Src::Fn(f)), k);
        }
        let (p, q) = two(a, Prim::Distance)?;
        let (r, s) = two(b, Prim::Distance)?;
        let (p, q) = (self.direct(p)?, self.direct(q)?);
        let (r, s) = (self.direct(r)?, self.direct(s)?);
        let k = p.k + q.k + r.k + s.k + 3;
        let (p, q, r, s) = (area(p.d)?, area(q.d)?, area(r.d)?, area(s.d)?);
        let cmp: fn(u8, u8) -> bool = match op {
            Op::Lt => |x, y| x < y,
            Op::Le => |x, y| x <= y,
            Op::Gt => |x, y| x > y,
            _ => |x, y| x >= y,
        };
        let f = Arc::new(move |m: &mut crate::vm::Match<'_>, base| {
            let Ar(p) = p.get(m, base)?;
            let Ar(q) = q.get(m, base)?;
            let Ar(r) = r.get(m, base)?;
            let Ar(s) = s.get(m, base)?;
            let board = &m.rs.board;
            Some(cmp(board.distance(p, q), board.distance(r, s)))
        });
        built(Direct::Bool(Src::Fn(f)), k)
    }
}
