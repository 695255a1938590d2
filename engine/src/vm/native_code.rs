//! Machine code as the program holds it: the code of its word programs ([`Native`]),
//! each program's function in it ([`NativeFn`]) and the leaves it calls back for, the
//! scores' code ([`ScoreCode`]), and the words a score's code reads ([`ScoreBuf`]).
//! Compiling it is `native.rs` and `native/score.rs`, and so is running it.

use fuba_native::Code;

use super::word::K;
use crate::board::MAX_AREAS;
use crate::ir::{Role, Scope};
use crate::prims::Prim;

/// Most inputs a program may read; a program reading more stays word code.
pub(crate) const MAX_INPUTS: usize = 32;

/// A leaf a program calls back for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Leaf {
    /// A primitive worked out on words ([`super::word::word_signature`]).
    Prim(Prim),
    /// Any other primitive without an effect, worked out on its values: the operands'
    /// kinds and the value's.
    Values(Prim, [K; 5], K),
    /// A state variable read as a word of the kind.
    Var(Scope, u16, K),
    /// A pure procedure run by the match (`Match::call_pure`), by its index.
    Call(u16),
}

/// What a program reads before it runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Input {
    /// A frame local, as a word of the kind.
    Local(u16, K),
    /// A role's team.
    Role(Role),
    /// A primitive of no operands (as [`super::word::word_signature`] gives it), in a score's code
    /// (`Once::Inputs`, `native.rs`). It and a state variable are read once before the program
    /// runs, not called back for each time the code reads them: nothing changes the match
    /// while a program runs.
    Prim(Prim),
    /// A state variable of a single-valued scope, as a word of the kind.
    Var(Scope, u16, K),
}

/// A word program's machine code: its number in [`Native`], its inputs, and whether it
/// reads the pieces' counts per area in place ([`Op::CountIn`](fuba_native::Op::CountIn)).
#[derive(Clone, Debug)]
pub(crate) struct NativeFn {
    pub(crate) id: usize,
    pub(crate) inputs: Box<[Input]>,
    pub(crate) counts: bool,
}

/// The machine code of a program's word programs, and the leaves they call back for.
pub(crate) struct Native {
    pub(crate) code: Code,
    pub(crate) leaves: Vec<Leaf>,
}

impl std::fmt::Debug for Native {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Native({} functions)", self.code.len())
    }
}

/// The machine code of the decisions' `prefer` scores (by decision site), compiled the
/// first time a match of the program asks for scores (`Program::score_code`): matches
/// of agents that never do (random ones) pay nothing for it.
#[derive(Debug)]
pub(crate) struct ScoreCode {
    pub(crate) native: Native,
    pub(crate) fns: Vec<Option<NativeFn>>,
    /// By decision site: its machine code reads none of the parts the closures hoist out
    /// of its score (it works them out itself), so they are worked out only if the
    /// closures are to score an option (`Match::hoist_due`).
    pub(crate) own_parts: Vec<bool>,
}

/// Most inputs of a score that read the option: one per kind it is read as (an area as
/// an area and as a set, a move as a move).
pub(crate) const MAX_VARY: usize = 2;

/// Options scored by one call of the machine code, at most (an offer has fewer, mostly).
/// 32 since the code runs the rows in a loop of its own: 10 k fewer instructions a
/// heuristic match of the original edition than 16.
pub(crate) const ROWS: usize = 32;

/// The words a score's machine code reads: its inputs and the pieces' counts, read once
/// per offer. A match keeps one from offer to offer (`Match::score_buf`): made and moved
/// with every offer, its 320 bytes cost a heuristic match of the original edition about
/// 50 k instructions in `memset` and `memcpy`. Nothing in it outlives an offer.
pub(crate) struct ScoreBuf {
    pub(crate) words: [u64; MAX_INPUTS],
    pub(crate) counts: [u8; 2 * MAX_AREAS],
    /// The option words of the options scored in one call, and their scores: only the
    /// first rows of a call are written and read, so they are not cleared between calls
    /// (two arrays cleared for every call cost a heuristic original match about 20 k
    /// instructions).
    pub(crate) rows: [u64; ROWS * MAX_VARY],
    pub(crate) out: [i64; ROWS],
}

impl Default for ScoreBuf {
    fn default() -> Self {
        ScoreBuf {
            words: [0; MAX_INPUTS],
            counts: [0; 2 * MAX_AREAS],
            rows: [0; ROWS * MAX_VARY],
            out: [0; ROWS],
        }
    }
}
