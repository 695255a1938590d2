//! Operands of a checked type read as that type: a boolean or an integer. The checker
//! gives every condition, operand and argument that wants a boolean or an integer a value
//! of that type (`docs/effect-language.md`, "Types"), so another value here is a bug of the
//! checker: a debug build (every test) stops on it, a release build reads it as false or 0
//! rather than stop a batch.

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

/// Where a boolean is wanted, a value of another type, which no checked program gives
/// (the checker refuses a value of no single type, a `return` of another type than its
/// procedure's, a table whose rows differ in type): a bug of the checker, stopped on in a
/// debug build; false in a release build.
#[cold]
fn not_a_bool(v: &Value) -> bool {
    debug_assert!(
        false,
        "the checker let through {v:?} where a boolean is wanted"
    );
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

/// Where an integer is wanted, a value of another type, which no checked program gives
/// (see [`not_a_bool`]): stopped on in a debug build; in a release build a flag counts 0
/// or 1, anything else 0.
#[cold]
fn not_an_int(v: &Value) -> i64 {
    debug_assert!(
        false,
        "the checker let through {v:?} where an integer is wanted"
    );
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

    /// A debug build stops on a value the checker should have refused.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "the checker let through")]
    fn a_debug_build_stops_on_a_bool_of_another_type() {
        as_bool(&Value::Int(1));
    }

    /// A debug build stops on a value the checker should have refused.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "the checker let through")]
    fn a_debug_build_stops_on_an_int_of_another_type() {
        as_int(&Value::None);
    }

    /// A release build reads it as false or 0 (`cargo test --release`).
    #[test]
    #[cfg(not(debug_assertions))]
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
