//! Binary operations on values: the plain operands' fast path, the full one, and the union
//! of move sets in place.

use std::sync::Arc;

use super::checked::as_int;
use super::machine::Match;
use super::run_error::Halt;
use crate::board::AreaSet;
use crate::ir::Op;
use crate::value::{MoveSet, Value};

impl Match<'_> {
    /// A binary operation.
    pub(crate) fn binop(&self, op: Op, x: Value, y: Value, at: u32) -> Result<Value, Halt> {
        let ovf = || self.error(at, "integer overflow");
        let set = |v: &Value| match v {
            Value::Areas(s) => *s,
            Value::Area(a) => AreaSet::one(*a),
            _ => AreaSet::EMPTY,
        };
        Ok(match op {
            Op::Add => Value::Int(as_int(&x).checked_add(as_int(&y)).ok_or_else(ovf)?),
            Op::Sub => Value::Int(as_int(&x).checked_sub(as_int(&y)).ok_or_else(ovf)?),
            Op::Mul => Value::Int(as_int(&x).checked_mul(as_int(&y)).ok_or_else(ovf)?),
            Op::Div | Op::Rem => {
                let (a, b) = (as_int(&x), as_int(&y));
                if b == 0 {
                    return Err(self.error(at, "division by zero"));
                }
                Value::Int(
                    if op == Op::Div {
                        a.checked_div(b)
                    } else {
                        a.checked_rem(b)
                    }
                    .ok_or_else(ovf)?,
                )
            }
            Op::Union => Value::Areas(set(&x).union(set(&y))),
            Op::Inter => Value::Areas(set(&x).inter(set(&y))),
            Op::Diff => Value::Areas(set(&x).minus(set(&y))),
            Op::MovesUnion => moves_union(x, y),
            Op::Eq | Op::Ne => {
                let eq = match (&x, &y) {
                    (Value::Area(a), Value::Areas(s)) | (Value::Areas(s), Value::Area(a)) => {
                        AreaSet::one(*a) == *s
                    }
                    _ => x == y,
                };
                Value::Bool(if op == Op::Eq { eq } else { !eq })
            }
            Op::Lt => Value::Bool(as_int(&x) < as_int(&y)),
            Op::Le => Value::Bool(as_int(&x) <= as_int(&y)),
            Op::Gt => Value::Bool(as_int(&x) > as_int(&y)),
            Op::Ge => Value::Bool(as_int(&x) >= as_int(&y)),
            Op::InAreas => Value::Bool(matches!(x, Value::Area(a) if set(&y).has(a))),
            Op::InList => {
                Value::Bool(matches!((&x, &y), (Value::Int(i), Value::List(l)) if l.contains(i)))
            }
            Op::InDice => Value::Bool(
                matches!((&x, &y), (Value::Int(i), Value::Dice(d)) if d.as_slice().iter().any(|v| i64::from(*v) == *i)),
            ),
            Op::InMoves => {
                Value::Bool(matches!((&x, &y), (Value::Move(m), Value::Moves(s)) if s.has(*m)))
            }
        })
    }
}

/// A binary operation on plain operands without copying them: integers, flags, teams,
/// areas and area sets (`None`: use [`Match::binop`]).
#[inline(always)]
pub(super) fn fast_bin(op: Op, x: &Value, y: &Value) -> Option<Value> {
    Some(match (x, y) {
        (Value::Int(a), Value::Int(b)) => match op {
            Op::Add => Value::Int(a.checked_add(*b)?),
            Op::Sub => Value::Int(a.checked_sub(*b)?),
            Op::Mul => Value::Int(a.checked_mul(*b)?),
            Op::Eq => Value::Bool(a == b),
            Op::Ne => Value::Bool(a != b),
            Op::Lt => Value::Bool(a < b),
            Op::Le => Value::Bool(a <= b),
            Op::Gt => Value::Bool(a > b),
            Op::Ge => Value::Bool(a >= b),
            _ => return None,
        },
        (Value::Areas(a), Value::Areas(b)) => match op {
            Op::Union => Value::Areas(a.union(*b)),
            Op::Inter => Value::Areas(a.inter(*b)),
            Op::Diff => Value::Areas(a.minus(*b)),
            Op::Eq => Value::Bool(a == b),
            Op::Ne => Value::Bool(a != b),
            _ => return None,
        },
        (Value::Area(a), Value::Areas(b)) if op == Op::InAreas => Value::Bool(b.has(*a)),
        (Value::Area(a), Value::Area(b)) => match op {
            Op::Eq => Value::Bool(a == b),
            Op::Ne => Value::Bool(a != b),
            _ => return None,
        },
        (Value::Team(a), Value::Team(b)) => match op {
            Op::Eq => Value::Bool(a == b),
            Op::Ne => Value::Bool(a != b),
            _ => return None,
        },
        (Value::Str(a), Value::Str(b)) => match op {
            Op::Eq => Value::Bool(a == b),
            Op::Ne => Value::Bool(a != b),
            _ => return None,
        },
        _ => return None,
    })
}

/// The union of two move sets, in place when no one else holds the left one.
pub(super) fn moves_union(x: Value, y: Value) -> Value {
    match (x, y) {
        (Value::Moves(mut a), Value::Moves(b)) => {
            Arc::make_mut(&mut a).union_with(&b);
            Value::Moves(a)
        }
        (Value::Moves(a), _) | (_, Value::Moves(a)) => Value::Moves(a),
        _ => Value::Moves(Arc::new(MoveSet::default())),
    }
}
