//! Operands of a checked type read as that type: a boolean or an integer, and, for the
//! holes the checker leaves, what another value reads as (never a panic).

use crate::value::Value;

/// The value of a bool-typed operand: the boolean ([`not_a_bool`] for anything else, which
/// the checker makes unreachable; off the hot path: the conditional jumps read a boolean).
#[inline]
pub(crate) fn as_bool(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        other => not_a_bool(other),
    }
}

/// Where a boolean is wanted, a value of another type: false. The checker refuses a value
/// of no single type (`none`, an `if` without `else` or whose branches differ) where a
/// boolean is wanted; two holes are left (a procedure's `return` values are not checked
/// against its result type, and a table whose rows differ in type is typed `any`), so a
/// checked program can still reach this, and it must not panic (`docs/effect-language.md`).
#[cold]
fn not_a_bool(_: &Value) -> bool {
    false
}

/// The value of an int-typed operand where the rules add or compare: the integer
/// ([`not_an_int`] for anything else, which the checker makes unreachable).
#[inline]
pub(crate) fn as_int(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        other => not_an_int(other),
    }
}

/// Where an integer is wanted, a value of another type: a flag counts 0 or 1, anything
/// else 0. Reached only through the holes [`not_a_bool`] names (a trigger's value is
/// checked, and nothing there adds 0 before this).
#[cold]
fn not_an_int(v: &Value) -> i64 {
    match v {
        Value::Bool(b) => i64::from(*b),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_of_the_checked_type_read_as_they_are() {
        assert!(as_bool(&Value::Bool(true)));
        assert!(!as_bool(&Value::Bool(false)));
        assert_eq!(as_int(&Value::Int(-3)), -3);
        assert_eq!(as_int(&Value::Int(i64::MAX)), i64::MAX);
    }

    #[test]
    fn a_value_of_another_type_reads_as_false_or_zero_without_a_panic() {
        for v in [Value::None, Value::Team(1), Value::Int(1), Value::Str(3)] {
            assert!(!as_bool(&v), "{v:?}");
        }
        assert_eq!(as_int(&Value::Bool(true)), 1);
        assert_eq!(as_int(&Value::Bool(false)), 0);
        assert_eq!(as_int(&Value::Team(1)), 0);
        assert_eq!(as_int(&Value::None), 0);
    }
}
