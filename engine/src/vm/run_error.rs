//! What stops a match before its code returns: the end of a turn or half, a scenario's
//! stop, or an error ([`RunError`], of an [`ErrorKind`]).

/// What kind of failure stopped a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A rule did something the engine cannot do (a wrong value, no legal option, a
    /// missing table row, a clock going back...).
    Rule,
    /// A limit of [`Limits`](super::budget::Limits) was reached (a runaway rule).
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
