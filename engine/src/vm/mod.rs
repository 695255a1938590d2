//! The rules machine: a checked ruleset is lowered once into a [`Program`] of stack-machine
//! instructions, and a [`Match`] runs it. The match is a value: its frames, operand stack
//! and locals live in it, not on the host's call stack, so it can stop wherever the rules
//! ask for a decision or a roll, be cloned there, and go on from either copy.
//!
//! ```text
//! ruleset file --load/check--> IR (ir.rs) --lower.rs--> Program (code.rs, shared)
//!                                                          |
//!                         Match (machine.rs: state, frames, stack, counters, log)
//!                           advance() -> Decision | Chance | Boundary | End
//!                           choose(i) / roll(dice) / clone()
//! ```

mod answers;
mod binop;
mod call_pure;
pub mod code;
mod compiled;
mod direct;
mod exec;
mod fold;
mod fuse;
mod inline;
mod kept;
mod light;
mod logbook;
pub mod lower;
mod machine;
mod moves_loop;
mod native;
pub mod notes;
pub mod observe;
mod offer;
mod operands;
pub mod outcome;
pub(crate) mod pilot;
mod prims;
mod prims_moves;
mod prims_pieces;
mod prompt;
mod quiet;
mod schedule;
mod seldom;
mod typed;
#[cfg(feature = "vm-profile")]
pub mod vmprof;
mod word;

use rustc_hash::FxHashMap;

pub use code::Program;
pub use compiled::Compiled;
pub(crate) use fold::reads_the_match;
pub use machine::Match;
pub use schedule::{Chance, Schedule, Status};

use crate::ruleset::Ruleset;
use crate::value::{Sym, Value};

/// Limits on running rules, per match (a test may set others); the defaults are the
/// constants of [`crate::limits`].
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Operations per stage: calls, table rows and rounds of loops (straight-line code is
    /// bounded by the program's size, so these bound a stage's work).
    pub ops_per_stage: u64,
    /// Largest `repeat` count.
    pub max_repeat: i64,
    /// Deepest nesting of procedure calls and hooks.
    pub max_call_depth: u32,
    /// Most events a turn may record, when the match is logged (the set-up before the
    /// first turn counts as a turn). A normal turn records a few dozen, the largest seen
    /// about 200.
    pub events_per_turn: u32,
    /// Most events a match may record, when it is logged: a normal match records about
    /// 3,000. The bound keeps a log within what `fuba replay` reads
    /// ([`crate::limits::MAX_LOG_BYTES`]).
    pub events_per_match: u32,
}

impl Default for Limits {
    fn default() -> Self {
        use crate::limits as l;
        Limits {
            ops_per_stage: l::OPS_PER_STAGE,
            max_repeat: l::MAX_REPEAT,
            max_call_depth: l::MAX_CALL_DEPTH,
            events_per_turn: l::EVENTS_PER_TURN,
            events_per_match: l::EVENTS_PER_MATCH,
        }
    }
}

/// What kind of failure stopped a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A rule did something the engine cannot do (a wrong value, no legal option, a
    /// missing table row, a clock going back...).
    Rule,
    /// A limit of [`Limits`] was reached (a runaway rule).
    Limit,
    /// The answer to a decision or a roll was not usable (a script ran out, an agent
    /// picked an option that does not exist).
    Input,
    /// A check of the host (an invariant observer) failed.
    Host,
}

/// A rule failed while running: what, where (rule and `file:line:col`), and the rules
/// that were running, outermost first. Rendered at the edge (its `Display`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}\n  --> {place} (in {rule})")]
pub struct RunError {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// What went wrong.
    pub message: String,
    /// The rule running.
    pub rule: String,
    /// `file:line:col` of the code running.
    pub place: String,
    /// The rules being run when it happened, outermost first (the call chain).
    pub chain: Vec<String>,
}

impl RunError {
    /// An error of the host, with no place in the rules.
    pub fn host(kind: ErrorKind, message: impl Into<String>) -> RunError {
        RunError {
            kind,
            message: message.into(),
            rule: "match".into(),
            place: String::new(),
            chain: Vec::new(),
        }
    }
}

/// Why running stopped before the code unit returned.
#[derive(Debug)]
pub(crate) enum Halt {
    /// `end_turn()`.
    EndTurn,
    /// `end_half()`.
    EndHalf,
    /// A scenario's `stop_at` event happened.
    Stop,
    /// An error (boxed: keeps every result small).
    Error(Box<RunError>),
}

impl Halt {
    /// The same error, of another kind.
    pub(crate) fn of_kind(self, kind: ErrorKind) -> Halt {
        match self {
            Halt::Error(mut e) => {
                e.kind = kind;
                Halt::Error(e)
            }
            other => other,
        }
    }
}

/// Counts kept for every match, logged or not (figures and rules coverage).
#[derive(Debug, Clone, Default)]
pub struct Counters {
    /// Emitted events by kind symbol.
    pub emits: Vec<u32>,
    /// Table rows used: `[table][row]`.
    pub rows: Vec<Vec<u32>>,
    /// Triggers fired.
    pub triggers: Vec<u32>,
    /// Procedures called.
    pub procs: Vec<u32>,
    /// Choices made.
    pub choices: u32,
    /// Dice rolled.
    pub dice: u32,
    /// Operations run (calls, table rows, rounds of loops; see [`Limits::ops_per_stage`]).
    pub ops: u64,
    /// Times the ball changed hands (`give_ball` to the other team).
    pub control_changes: u32,
    /// Labelled options picked, by decision name and label symbol (a map with a fast,
    /// fixed hash: counted at every labelled choice, a per-process keyed SipHash cost more).
    pub arms: FxHashMap<(Sym, Sym), u32>,
    /// For each of the ruleset's breakdown figures ([`Ruleset::breakdowns`]): the field
    /// values seen and how often.
    pub by_field: Vec<Vec<(Value, u32)>>,
    /// For each of the ruleset's figures with a `where` test ([`Ruleset::figures`]): the
    /// events that passed it (0 for the others; see [`crate::ruleset::Figure::count`]).
    pub tested: Vec<u32>,
}

impl Counters {
    /// Zero counts for a ruleset.
    pub fn new(rs: &Ruleset) -> Self {
        Counters {
            emits: vec![0; rs.symbols.len()],
            rows: rs.tables.iter().map(|t| vec![0; t.rows.len()]).collect(),
            triggers: vec![0; rs.triggers.len()],
            procs: vec![0; rs.procs.len()],
            choices: 0,
            dice: 0,
            ops: 0,
            control_changes: 0,
            arms: FxHashMap::default(),
            by_field: vec![Vec::new(); rs.breakdowns.len()],
            tested: vec![0; rs.figures.len()],
        }
    }
}

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
