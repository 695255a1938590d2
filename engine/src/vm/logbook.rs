//! What the log has recorded so far ([`LogBook`]), kept beside it in the match; the
//! recording itself and its bounds are `recording.rs`.

use super::run_error::RunError;

/// What the log has recorded so far, kept beside it.
#[derive(Debug, Clone, Default)]
pub(crate) struct LogBook {
    /// Events recorded since the match began: the next event's `seq`.
    pub(super) recorded: u64,
    /// The `seq` of the current turn's first event.
    pub(super) turn_first: u64,
    /// The bound crossed, once it is: the error the match stops with.
    pub(super) over: Option<Box<RunError>>,
    /// The arguments of each modifier list recorded, when asked for (`notes.rs`).
    pub(super) notes: Option<Vec<super::notes::ModifierArgs>>,
}
