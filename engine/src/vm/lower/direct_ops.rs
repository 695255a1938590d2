//! The closures of direct expressions' leaves, operators and light primitives
//! ([`crate::vm::direct`]), as the stack code works each out: used by the lowering's
//! builder (`lower/direct.rs`).

use std::sync::Arc;

use super::super::kinds::{Ar, Kind, Name, Tm};
use super::super::machine::{Direct, F, Src};
use crate::board::{AreaSet, Direction};
use crate::ir::*;
use crate::prims::Prim;
use crate::state::{GONE, MatchState};
use crate::value::{Ty, Value};

/// A closure of one operand.
pub(super) fn un<A: Kind, R: Kind>(
    a: Src<A>,
    f: impl Fn(&crate::vm::Match<'_>, A) -> Option<R> + Send + Sync + 'static,
) -> Src<R> {
    Src::Fn(Arc::new(move |m, base| {
        let x = a.get(m, base)?;
        f(m, x)
    }))
}

/// A closure of two operands.
pub(super) fn bin<A: Kind, B: Kind, R: Kind>(
    a: Src<A>,
    b: Src<B>,
    f: impl Fn(&crate::vm::Match<'_>, A, B) -> Option<R> + Send + Sync + 'static,
) -> Src<R> {
    Src::Fn(Arc::new(move |m, base| {
        let x = a.get(m, base)?;
        let y = b.get(m, base)?;
        f(m, x, y)
    }))
}

pub(super) fn int(d: Direct) -> Option<Src<i64>> {
    match d {
        Direct::Int(s) => Some(s),
        _ => None,
    }
}

pub(super) fn flag(d: Direct) -> Option<Src<bool>> {
    match d {
        Direct::Bool(s) => Some(s),
        _ => None,
    }
}

pub(super) fn team(d: Direct) -> Option<Src<Tm>> {
    match d {
        Direct::Team(s) => Some(s),
        _ => None,
    }
}

pub(super) fn name(d: Direct) -> Option<Src<Name>> {
    match d {
        Direct::Name(s) => Some(s),
        _ => None,
    }
}

pub(super) fn area(d: Direct) -> Option<Src<Ar>> {
    match d {
        Direct::Area(s) => Some(s),
        _ => None,
    }
}

/// An area-set operand: an area set, or an area read as the set of it.
pub(super) fn areas(d: Direct) -> Option<Src<AreaSet>> {
    Some(match d {
        Direct::Areas(s) => s,
        Direct::Area(Src::Local(l)) => Src::Local(l),
        Direct::Area(Src::Const(Ar(a))) => Src::Const(AreaSet::one(a)),
        Direct::Area(Src::Fn(f)) => {
            let f: F<Ar> = f;
            Src::Fn(Arc::new(move |m, base| Some(AreaSet::one(f(m, base)?.0))))
        }
        _ => return None,
    })
}

/// A value read out of the match.
pub(super) fn read<T: Kind>(
    get: impl Fn(&crate::vm::Match<'_>, usize) -> Option<T> + Send + Sync + 'static,
) -> Src<T> {
    Src::Fn(Arc::new(move |m, base| get(m, base)))
}

/// A direct expression of type `ty` whose value is read by `get` (a state variable).
pub(super) fn typed_read(
    ty: Ty,
    get: impl Fn(&mut crate::vm::Match<'_>, usize) -> Option<Value> + Send + Sync + Clone + 'static,
) -> Option<Direct> {
    fn k<T: Kind>(
        get: impl Fn(&mut crate::vm::Match<'_>, usize) -> Option<Value> + Send + Sync + 'static,
    ) -> Src<T> {
        Src::Fn(Arc::new(move |m, base| T::of(&get(m, base)?)))
    }
    Some(match ty {
        Ty::Int => Direct::Int(k(get)),
        Ty::Bool => Direct::Bool(k(get)),
        Ty::Team => Direct::Team(k(get)),
        Ty::Area => Direct::Area(k(get)),
        Ty::Areas => Direct::Areas(k(get)),
        Ty::Str => Direct::Name(k(get)),
        Ty::Move => Direct::Move(k(get)),
        _ => return None,
    })
}

/// A direct expression of type `ty` reading a state variable (of `team`'s, for a per-team
/// scope) in place: no copy of the value made to be read.
pub(super) fn typed_var(ty: Ty, scope: Scope, idx: u16, team: Option<Src<Tm>>) -> Option<Direct> {
    fn k<T: Kind>(scope: Scope, idx: u16, team: Option<Src<Tm>>) -> Src<T> {
        Src::Fn(Arc::new(move |m, base| {
            let t = match &team {
                Some(s) => s.get(m, base)?.0,
                None => 0,
            };
            T::of(m.var_at(scope, idx, t)?)
        }))
    }
    Some(match ty {
        Ty::Int => Direct::Int(k(scope, idx, team)),
        Ty::Bool => Direct::Bool(k(scope, idx, team)),
        Ty::Team => Direct::Team(k(scope, idx, team)),
        Ty::Area => Direct::Area(k(scope, idx, team)),
        Ty::Areas => Direct::Areas(k(scope, idx, team)),
        Ty::Str => Direct::Name(k(scope, idx, team)),
        Ty::Move => Direct::Move(k(scope, idx, team)),
        _ => return None,
    })
}

/// A constant of a plain kind.
pub(super) fn konst(v: &Value, ty: Ty) -> Option<Direct> {
    Some(match v {
        Value::Int(i) => Direct::Int(Src::Const(*i)),
        Value::Bool(b) => Direct::Bool(Src::Const(*b)),
        Value::Team(t) => Direct::Team(Src::Const(Tm(*t))),
        Value::Area(a) => Direct::Area(Src::Const(Ar(*a))),
        Value::Areas(s) => Direct::Areas(Src::Const(*s)),
        Value::Str(s) => Direct::Name(Src::Const(Name(*s))),
        Value::Move(m) => Direct::Move(Src::Const(*m)),
        Value::None if ty == Ty::Areas => Direct::Areas(Src::Const(AreaSet::EMPTY)),
        _ => return None,
    })
}

/// An equality of two operands of one kind.
fn eq<T: Kind + PartialEq>(a: Src<T>, b: Src<T>, ne: bool) -> Direct {
    Direct::Bool(if ne {
        bin(a, b, |_, x, y| Some(x != y))
    } else {
        bin(a, b, |_, x, y| Some(x == y))
    })
}

/// A binary operation of plain operands, as [`crate::vm::binop`] works it out.
pub(super) fn binary(op: Op, a: Direct, b: Direct) -> Option<Direct> {
    Some(match op {
        Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Rem => {
            let (a, b) = (int(a)?, int(b)?);
            Direct::Int(match op {
                Op::Add => bin(a, b, |_, x: i64, y| x.checked_add(y)),
                Op::Sub => bin(a, b, |_, x: i64, y| x.checked_sub(y)),
                Op::Mul => bin(a, b, |_, x: i64, y| x.checked_mul(y)),
                Op::Div => bin(a, b, |_, x: i64, y| x.checked_div(y)),
                _ => bin(a, b, |_, x: i64, y| x.checked_rem(y)),
            })
        }
        Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            let (a, b) = (int(a)?, int(b)?);
            Direct::Bool(match op {
                Op::Lt => bin(a, b, |_, x: i64, y: i64| Some(x < y)),
                Op::Le => bin(a, b, |_, x: i64, y: i64| Some(x <= y)),
                Op::Gt => bin(a, b, |_, x: i64, y: i64| Some(x > y)),
                _ => bin(a, b, |_, x: i64, y: i64| Some(x >= y)),
            })
        }
        Op::Union | Op::Inter | Op::Diff => {
            let (a, b) = (areas(a)?, areas(b)?);
            Direct::Areas(match op {
                Op::Union => bin(a, b, |_, x: AreaSet, y| Some(x.union(y))),
                Op::Inter => bin(a, b, |_, x: AreaSet, y| Some(x.inter(y))),
                _ => bin(a, b, |_, x: AreaSet, y| Some(x.minus(y))),
            })
        }
        Op::InAreas => {
            let (a, b) = (area(a)?, areas(b)?);
            Direct::Bool(bin(a, b, |_, x: Ar, y: AreaSet| Some(y.has(x.0))))
        }
        // Equality of two operands of one kind read strictly (an area and an area set
        // compare by a rule of their own: left to the stack code).
        Op::Eq | Op::Ne => {
            let ne = op == Op::Ne;
            match (a, b) {
                (Direct::Int(a), Direct::Int(b)) => eq(a, b, ne),
                (Direct::Bool(a), Direct::Bool(b)) => eq(a, b, ne),
                (Direct::Team(a), Direct::Team(b)) => eq(a, b, ne),
                (Direct::Area(a), Direct::Area(b)) => eq(a, b, ne),
                (Direct::Name(a), Direct::Name(b)) => eq(a, b, ne),
                _ => return None,
            }
        }
        Op::MovesUnion | Op::InList | Op::InDice | Op::InMoves => return None,
    })
}

/// A light primitive ([`crate::vm::light`]) of plain operands.
pub(super) fn prim(p: Prim, args: Vec<Direct>, ty: Ty) -> Option<Direct> {
    typed_prim(p, args.clone()).or_else(|| light(p, args, ty))
}

/// Any other light primitive ([`crate::vm::light`]): its operands made values and handed
/// to it; its value taken only when it is of the node's kind exactly.
fn light(p: Prim, args: Vec<Direct>, ty: Ty) -> Option<Direct> {
    if !super::super::light::is_light(p) || args.len() > 2 {
        return None;
    }
    let args: Arc<[Direct]> = args.into();
    typed_read(ty, move |m, base| {
        let mut vals: [Value; 2] = Default::default();
        for (v, a) in vals.iter_mut().zip(args.iter()) {
            *v = a.value(m, base)?;
        }
        let [x, y] = &vals;
        let v = match args.len() {
            0 => m.light_with(p, None, None),
            1 => m.light_with(p, None, Some(x)),
            _ => m.light_with(p, Some(x), Some(y)),
        }?;
        // An area where an area set was expected would be read as one: not exact.
        (ty != Ty::Areas || matches!(v, Value::Areas(_))).then_some(v)
    })
}

/// A light primitive worked out on typed operands.
fn typed_prim(p: Prim, args: Vec<Direct>) -> Option<Direct> {
    let side = MatchState::side;
    let mut it = args.into_iter();
    let mut next = || it.next();
    Some(match p {
        Prim::BallArea => Direct::Area(read(|m, _| Some(Ar(m.st.ball_area)))),
        Prim::BallValue => Direct::Int(read(|m, _| Some(m.st.ball_value))),
        Prim::Other => Direct::Team(un(team(next()?)?, |_, t: Tm| Some(Tm(1 - t.0)))),
        Prim::Adjacent => {
            Direct::Areas(un(areas(next()?)?, |m, s| Some(m.rs.board.adjacent_set(s))))
        }
        Prim::SameLevel => Direct::Areas(un(area(next()?)?, |m, a: Ar| {
            Some(m.rs.board.same_level(a.0))
        })),
        Prim::FieldAreas | Prim::Unmoved => {
            let unmoved = p == Prim::Unmoved;
            Direct::Areas(un(team(next()?)?, move |m, t: Tm| {
                Some(m.st.pieces[t.0 as usize].field_areas(unmoved))
            }))
        }
        Prim::KeeperArea => Direct::Area(un(team(next()?)?, |m, t: Tm| {
            match m.st.pieces[t.0 as usize].at[0] {
                a if a < GONE => Some(Ar(a)),
                _ => None,
            }
        })),
        Prim::Count | Prim::CountField => {
            let field = p == Prim::CountField;
            let (t, s) = (team(next()?)?, areas(next()?)?);
            Direct::Int(bin(t, s, move |m, t: Tm, s| {
                Some(m.count_in(t.0, s, field))
            }))
        }
        Prim::Forward | Prim::Backward => {
            let d = if p == Prim::Forward {
                Direction::Forward
            } else {
                Direction::Backward
            };
            let (s, t) = (areas(next()?)?, team(next()?)?);
            Direct::Areas(bin(s, t, move |m, s, t: Tm| {
                Some(m.rs.board.step(s, d, side(t.0)))
            }))
        }
        Prim::Behind => {
            let (s, t) = (areas(next()?)?, team(next()?)?);
            Direct::Areas(bin(s, t, move |m, s, t: Tm| {
                Some(m.rs.board.behind(s, side(t.0)))
            }))
        }
        Prim::Closer => {
            let (a, t) = (area(next()?)?, team(next()?)?);
            Direct::Areas(bin(a, t, move |m, a: Ar, t: Tm| {
                Some(m.rs.board.closer(a.0, side(t.0)))
            }))
        }
        Prim::Distance => {
            let (a, b) = (area(next()?)?, area(next()?)?);
            Direct::Int(bin(a, b, |m, a: Ar, b: Ar| {
                Some(i64::from(m.rs.board.distance(a.0, b.0)))
            }))
        }
        Prim::EntirelyInHalf | Prim::PartlyInHalf => {
            let entirely = p == Prim::EntirelyInHalf;
            let (a, t) = (area(next()?)?, team(next()?)?);
            Direct::Bool(bin(a, t, move |m, a: Ar, t: Tm| {
                let board = &m.rs.board;
                Some(if entirely {
                    board.entirely_in_half(a.0, side(t.0))
                } else {
                    board.partly_in_half(a.0, side(t.0))
                })
            }))
        }
        // The size of an area set (an area is a set of one, as the stack code reads it).
        Prim::Size => Direct::Int(un(areas(next()?)?, |_, s: AreaSet| {
            Some(i64::from(s.len()))
        })),
        Prim::Between => {
            let (a, b) = (area(next()?)?, area(next()?)?);
            Direct::Int(bin(a, b, |m, a: Ar, b: Ar| {
                Some(m.rs.board.between(a.0, b.0))
            }))
        }
        // Not light (three operands), but plain: a score's `clamp(x, 0, 6)` keeps the
        // whole score direct.
        Prim::Clamp => {
            let (v, lo, hi) = (int(next()?)?, int(next()?)?, int(next()?)?);
            Direct::Int(Src::Fn(Arc::new(move |m, base| {
                let v = v.get(m, base)?;
                let lo = lo.get(m, base)?;
                let hi = hi.get(m, base)?;
                Some(v.max(lo).min(hi))
            })))
        }
        Prim::Max | Prim::Min => {
            let (a, b) = (int(next()?)?, int(next()?)?);
            Direct::Int(if p == Prim::Max {
                bin(a, b, |_, x: i64, y: i64| Some(x.max(y)))
            } else {
                bin(a, b, |_, x: i64, y: i64| Some(x.min(y)))
            })
        }
        _ => return typed_prim_more(p, it),
    })
}

/// The other light primitives of typed operands (after [`typed_prim`]'s), each as
/// [`crate::vm::light`] works it out (the generic path turns every operand into a [`Value`] and the result back: about
/// 190 host instructions a call in the original edition, which runs 600 a match).
fn typed_prim_more(p: Prim, mut it: std::vec::IntoIter<Direct>) -> Option<Direct> {
    let side = MatchState::side;
    let mut next = || it.next();
    Some(match p {
        Prim::NthLowest => {
            let (t, n) = (team(next()?)?, int(next()?)?);
            Direct::Area(bin(t, n, |m, t: Tm, n: i64| {
                Some(Ar(m.st.lowest(&m.rs.board, t.0, n.max(0) as usize)?))
            }))
        }
        Prim::GoalLineAreas => Direct::Areas(read(|m, _| Some(m.rs.board.goal_line_areas(None)))),
        Prim::OwnGoalLine | Prim::HalfAreas => {
            let own = p == Prim::OwnGoalLine;
            Direct::Areas(un(team(next()?)?, move |m, t: Tm| {
                let b = &m.rs.board;
                Some(if own {
                    b.goal_line_areas(Some(side(t.0)))
                } else {
                    b.half_areas(side(t.0))
                })
            }))
        }
        Prim::Only => Direct::Area(un(areas(next()?)?, |_, s: AreaSet| {
            (s.len() == 1).then(|| Ar(s.0.trailing_zeros() as u8))
        })),
        // A per-area number of the board, for the team attacking from its own half; an
        // area the number is not given for gives up (the stack code names the error).
        Prim::Number | Prim::HasNumber => {
            let has = p == Prim::HasNumber;
            let (n, a, t) = (name(next()?)?, area(next()?)?, team(next()?)?);
            let number = move |m: &mut crate::vm::Match<'_>, base: usize| {
                let (n, a, t) = (n.get(m, base)?, a.get(m, base)?, t.get(m, base)?);
                Some(m.rs.board.number(m.rs.symbol(n.0), a.0, side(t.0)))
            };
            if has {
                Direct::Bool(Src::Fn(Arc::new(move |m, base| {
                    Some(number(m, base)?.is_some())
                })))
            } else {
                Direct::Int(Src::Fn(Arc::new(move |m, base| number(m, base)?)))
            }
        }
        Prim::Abs => Direct::Int(un(int(next()?)?, |_, i: i64| Some(i.saturating_abs()))),
        Prim::Minute => Direct::Int(read(|m, _| Some(m.st.clock.minute))),
        Prim::Added => Direct::Int(read(|m, _| Some(m.st.clock.added))),
        Prim::Half => Direct::Int(read(|m, _| Some(i64::from(m.st.clock.half)))),
        Prim::Turn => Direct::Int(read(|m, _| Some(i64::from(m.st.turn)))),
        Prim::Occupied => Direct::Areas(un(team(next()?)?, move |m, t: Tm| {
            Some(m.st.pieces.get(t.0 as usize)?.occupied())
        })),
        Prim::KeeperMoved => Direct::Bool(un(team(next()?)?, move |m, t: Tm| {
            Some(m.st.pieces.get(t.0 as usize)?.moved & 1 != 0)
        })),
        Prim::OnBoard => Direct::Int(un(team(next()?)?, move |m, t: Tm| {
            Some(m.st.pieces.get(t.0 as usize)?.on_board() as i64)
        })),
        Prim::IsHome => Direct::Bool(un(team(next()?)?, |_, t: Tm| Some(t.0 == 0))),
        Prim::Score => Direct::Int(un(team(next()?)?, |m, t: Tm| {
            m.st.score.get(t.0 as usize).copied()
        })),
        Prim::Reaching => {
            let (a, t) = (area(next()?)?, team(next()?)?);
            Direct::Areas(bin(a, t, move |m, a: Ar, t: Tm| {
                Some(m.rs.board.reaching(a.0, side(t.0)))
            }))
        }
        Prim::Mark => {
            let (name, t) = (name(next()?)?, team(next()?)?);
            Direct::Areas(bin(name, t, move |m, s: Name, t: Tm| {
                let rs = m.rs;
                let sets = rs
                    .lookups
                    .mark(s.0)
                    .or_else(|| rs.board.marks.get(rs.symbol(s.0)))?;
                Some(sets[side(t.0).index()])
            }))
        }
        _ => return None,
    })
}
