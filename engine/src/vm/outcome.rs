//! What a match gives when it ends ([`Outcome`]: the score, the turns, how it ended),
//! made by the match value's schedule and read by every driver ([`crate::game`] re-exports
//! it where its users find it).

use crate::state::Clock;

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// All halves were played.
    FullTime,
    /// A half hit the turn cap (`match.max_turns_per_half`).
    Runaway,
}

/// The result of a match.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Goals, home first.
    pub score: [i64; 2],
    /// Turns played in each half.
    pub turns: Vec<u32>,
    /// How it ended.
    pub ending: Ending,
    /// The clock when each half's turns began (after its start procedure) and when the
    /// half ended, stoppage included.
    pub clocks: Vec<[Clock; 2]>,
    /// The team controlling the ball when the first turn began (None when no turn was
    /// played: a scenario's procedures, or a turn cap of 0).
    pub first_owner: Option<crate::value::Team>,
}
