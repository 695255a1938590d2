//! The kinds of value a direct closure gives ([`Kind`]): integers, flags, teams, areas,
//! area sets, names and moves, each read out of a [`Value`] and made into one.

use crate::board::{AreaId, AreaSet};
use crate::value::{Move, Sym, Team, Value};

/// A team, as a kind of its own (a team and an area are both a byte).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tm(pub Team);

/// An area, as a kind of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ar(pub AreaId);

/// A kind of value a closure gives: read out of a [`Value`] and made into one.
pub(crate) trait Kind: Copy + Send + Sync + 'static {
    /// The value as this kind, `None` when it is another.
    fn of(v: &Value) -> Option<Self>;
    /// The value the stack code would leave.
    fn value(self) -> Value;
}

impl Kind for i64 {
    #[inline(always)]
    fn of(v: &Value) -> Option<Self> {
        match v {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    fn value(self) -> Value {
        Value::Int(self)
    }
}

impl Kind for bool {
    #[inline(always)]
    fn of(v: &Value) -> Option<Self> {
        match v {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    fn value(self) -> Value {
        Value::Bool(self)
    }
}

impl Kind for Tm {
    #[inline(always)]
    fn of(v: &Value) -> Option<Self> {
        match v {
            Value::Team(t) => Some(Tm(*t)),
            _ => None,
        }
    }
    fn value(self) -> Value {
        Value::Team(self.0)
    }
}

impl Kind for Ar {
    #[inline(always)]
    fn of(v: &Value) -> Option<Self> {
        match v {
            Value::Area(a) => Some(Ar(*a)),
            _ => None,
        }
    }
    fn value(self) -> Value {
        Value::Area(self.0)
    }
}

/// An area-set operand as the set operations and the primitives read one: an area set,
/// an area or none.
impl Kind for AreaSet {
    #[inline(always)]
    fn of(v: &Value) -> Option<Self> {
        areas(v)
    }
    fn value(self) -> Value {
        Value::Areas(self)
    }
}

/// A name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Name(pub Sym);

impl Kind for Name {
    #[inline(always)]
    fn of(v: &Value) -> Option<Self> {
        match v {
            Value::Str(s) => Some(Name(*s)),
            _ => None,
        }
    }
    fn value(self) -> Value {
        Value::Str(self.0)
    }
}

impl Kind for Move {
    #[inline(always)]
    fn of(v: &Value) -> Option<Self> {
        match v {
            Value::Move(m) => Some(*m),
            _ => None,
        }
    }
    fn value(self) -> Value {
        Value::Move(self)
    }
}

/// An area set operand: an area set, an area or none (as the full path reads it).
#[inline(always)]
pub(super) fn areas(v: &Value) -> Option<AreaSet> {
    match v {
        Value::Areas(s) => Some(*s),
        Value::Area(a) => Some(AreaSet::one(*a)),
        Value::None => Some(AreaSet::EMPTY),
        _ => None,
    }
}
