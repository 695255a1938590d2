//! A ruleset's program: the rules lowered into machine code ([`Program`]) once, the first
//! time a match of the ruleset is made, and kept with the ruleset, so that every match of
//! it (thousands in a simulation, on every thread) shares the one program.
//!
//! The ruleset keeps it in a slot that the model fills with nothing and reads nothing from
//! (the model sits below the machine and names none of it); this file alone fills and
//! reads that slot.

use std::sync::{Arc, OnceLock};

use super::machine::Program;
use crate::ruleset::Ruleset;

/// A ruleset compiled for the machine: `use fuba_engine::vm::Compiled` and ask a
/// [`Ruleset`] for its [`Program`].
pub trait Compiled {
    /// The rules compiled into machine code, shared by every match of this ruleset. Built
    /// the first time it is asked for: change nothing in the ruleset's code after that.
    fn program(&self) -> &Program;

    /// Keeps `program` as the ruleset's program in place of the one its rules would be
    /// compiled to (tests that compare two lowerings of the same rules).
    fn set_program(&mut self, program: Program);
}

impl Compiled for Ruleset {
    fn program(&self) -> &Program {
        let kept = self
            .compiled
            .get_or_init(|| Arc::new(super::lower::compile(self)));
        match kept.downcast_ref::<Program>() {
            Some(program) => program,
            None => unreachable!(
                "a ruleset's program slot holds its program: only compiled.rs fills it"
            ),
        }
    }

    fn set_program(&mut self, program: Program) {
        self.compiled = OnceLock::from(Arc::new(program) as Arc<_>);
    }
}
