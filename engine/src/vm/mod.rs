//! The rules machine: a checked ruleset is lowered once into a [`Program`] of stack-machine
//! instructions, and a [`Match`] runs it. The match is a value: its frames, operand stack
//! and locals live in it, not on the host's call stack, so it can stop wherever the rules
//! ask for a decision or a roll, be cloned there, and go on from either copy.
//!
//! ```text
//! ruleset file --load/check--> IR (ir.rs) --lower/--> Program (machine.rs, shared)
//!                                                          |
//!                         Match (machine.rs: state, frames, stack, counters, log)
//!                           advance() -> Decision | Chance | Boundary | End
//!                           choose(i) / roll(dice) / clone()
//! ```
//!
//! The modules stand in layers, each importing only those below it: values and data
//! (`budget.rs`, `run_error.rs`, `checked.rs`, `kinds.rs`, `word.rs`, `native_code.rs`,
//! `found.rs`, `logbook.rs`, `kept.rs`, `pilot.rs`, `schedule.rs`, `outcome.rs`), then
//! the instructions (`code.rs`), then the program and the match that runs it
//! (`machine.rs`), then what runs on a match (`impl Match` blocks: `exec.rs`, `frames.rs`,
//! `direct.rs`, `course.rs`, `answers.rs`, the primitives, ...), and the lowering
//! (`lower/`) on top.

mod answers;
mod binop;
mod budget;
mod call_pure;
mod checked;
pub mod code;
mod compiled;
mod course;
mod direct;
mod exec;
mod fold;
mod found;
mod frames;
mod fuse;
mod inline;
mod kept;
mod kept_scores;
mod kinds;
mod light;
mod logbook;
pub mod lower;
mod machine;
mod moves_loop;
mod native;
mod native_code;
pub mod notes;
mod noting;
pub mod observe;
mod offer;
mod operands;
pub mod outcome;
pub(crate) mod pilot;
mod piloting;
mod prims;
mod prims_moves;
mod prims_pieces;
mod prompt;
mod quiet;
mod recording;
mod run_error;
mod schedule;
mod seldom;
mod typed;
#[cfg(feature = "vm-profile")]
pub mod vmprof;
mod word;

pub use budget::{Counters, Limits};
pub use compiled::Compiled;
pub(crate) use fold::reads_the_match;
pub use machine::{Match, Program};
pub use run_error::{ErrorKind, RunError};
pub use schedule::{Chance, Schedule, Status};
