//! Every limit on what fuba reads, loads and runs, in one place, on in every build: the
//! defaults of the limits on running rules ([`crate::vm::Limits`], which a match may be
//! given others) are the constants below; the parser's are in `grammar/src/limits.rs`
//! (the grammar crate stands below the engine), re-exported here; the board's largest
//! number of areas is [`crate::board::MAX_AREAS`]. `docs/limits.md` lists them
//! all, and `tests/limits.rs` checks that page against these values.

pub use fuba_grammar::limits::{MAX_CODE_BYTES, MAX_NESTING, MAX_TREE_DEPTH};

/// Largest ruleset file (a layer or an included fragment), in bytes: 1 MiB, about
/// fifteen times the largest edition file.
pub const MAX_RULESET_FILE_BYTES: u64 = 1 << 20;

/// Largest ruleset, every layer and included file together, in bytes: 4 MiB.
pub const MAX_RULESET_BYTES: u64 = 4 << 20;

/// Largest scenario file, in bytes: 1 MiB.
pub const MAX_SCENARIO_BYTES: u64 = 1 << 20;

/// Largest match log read (`fuba replay`, `fuba explain`), in bytes: 64 MiB, about ninety
/// times the log of a whole 2024 match.
pub const MAX_LOG_BYTES: u64 = 64 << 20;

/// Largest batch result read by `fuba merge` (`fuba simulate --format json`), in bytes:
/// 64 MiB.
pub const MAX_RESULT_BYTES: u64 = 64 << 20;

/// Most rulesets stacked by `extends`, the edition at the bottom included: an edition and
/// seven house rules on it.
pub const MAX_LAYERS: usize = 8;

/// Most files included (`[meta] include`) by the layers of a ruleset, together.
pub const MAX_INCLUDES: usize = 32;

/// Most halves a match may have (`[match] halves`, at least 1).
pub const MAX_HALVES: i64 = 10;

/// Largest cap on turns per half (`[match] max_turns_per_half`, at least 1).
pub const MAX_TURNS_PER_HALF: i64 = 100_000;

/// Most pieces per team, goalkeeper included (`[match] pieces`, at least 1).
pub const MAX_PIECES: i64 = 16;

/// Operations per stage: calls, table rows and rounds of loops.
pub const OPS_PER_STAGE: u64 = 1_000_000;

/// Largest `repeat` count.
pub const MAX_REPEAT: i64 = 64;

/// Deepest nesting of procedure calls, table rows and triggers.
pub const MAX_CALL_DEPTH: u32 = 32;

/// Most events a turn may record when the match is logged (a normal turn records a few
/// dozen, the largest seen about 200).
pub const EVENTS_PER_TURN: u32 = 10_000;

/// Most events a match may record when it is logged (a normal match records about 3,000);
/// keeps a log within [`MAX_LOG_BYTES`].
pub const EVENTS_PER_MATCH: u32 = 200_000;
