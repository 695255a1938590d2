//! A pure procedure called from machine code ([`super::word::W::Call`]: 2024's
//! remembered `offside_areas` in the loops that gather a reaction's or a sprint's moves).
//! The stack machine runs it to its end in frames above the caller's, exactly as the
//! stack code's `Call` would: one operation counted for the call, the memo asked first,
//! the procedure's own rounds counted where it runs. A procedure that fails gives up the
//! code that called it, whose stack code then runs and fails the same way.
//!
//! What such calls counted and remembered (the procedures called, the memo's entries,
//! its look-ups and its trace of a computation under way) is taken back when the calling
//! code gives up, so that its stack code runs from the same match: the operations
//! counted, which depend on what the memo finds, come out the same too.

use super::exec::Exit;
use super::machine::{Match, Wait};
use crate::memo::MemoMark;
use crate::value::Value;

/// What calls made from machine code counted, taken back when the code gives up.
pub(crate) struct CallUndo {
    /// The procedures' call counts before the first call (when counting).
    procs: Option<Vec<u32>>,
    /// Where the memo stood.
    memo: MemoMark,
    /// Where the machine stood.
    at: Nest,
}

/// Where the machine stands before a call from machine code: what the call's frames may
/// leave behind when it fails (or, caught by the native crate, panics).
#[derive(Clone, Copy)]
struct Nest {
    pc: u32,
    wait: Wait,
    depth: u32,
    sp: usize,
    frames: usize,
    pending: usize,
    rows: usize,
}

impl Match<'_> {
    /// What the calls about to be made will change, to take back with
    /// [`Match::take_back_calls`].
    pub(crate) fn call_undo(&self) -> CallUndo {
        CallUndo {
            procs: self.counting.then(|| self.counters.procs.clone()),
            memo: self.memo.mark(),
            at: self.nest(),
        }
    }

    /// Takes back what calls made since `undo` counted and left.
    #[cold]
    pub(crate) fn take_back_calls(&mut self, undo: CallUndo) {
        self.unnest(undo.at);
        if let Some(procs) = undo.procs {
            self.counters.procs = procs;
        }
        self.memo.back_to(undo.memo);
    }

    fn nest(&self) -> Nest {
        Nest {
            pc: self.pc,
            wait: self.wait,
            depth: self.depth,
            sp: self.stack.len(),
            frames: self.frames.len(),
            pending: self.pending.len(),
            rows: self.mod_rows.len(),
        }
    }

    /// Back to `n`: the frames, operand values and computations above it dropped.
    fn unnest(&mut self, n: Nest) {
        for p in self.pending.drain(n.pending.min(self.pending.len())..) {
            self.memo.abandon(p);
        }
        self.frames.truncate(n.frames);
        self.mod_rows.truncate(n.rows);
        self.stack.truncate(n.sp);
        (self.pc, self.wait, self.depth) = (n.pc, n.wait, n.depth);
    }

    /// Runs pure procedure `idx` with `args` to its end, as the stack code's call of it
    /// does; `None` when it fails (its frames gone, nothing else changed but what it
    /// counted and what the memo remembered).
    pub(crate) fn call_pure(
        &mut self,
        idx: u16,
        args: impl Iterator<Item = Value>,
    ) -> Option<Value> {
        let u = *self.prog.procs.get(usize::from(idx))?;
        let at = self.prog.units[u as usize].entry;
        let before = self.nest();
        // The calling code's counted calls are its own: they are counted when it ends.
        let outer = std::mem::take(&mut self.direct_calls);
        self.stack.extend(args);
        let run = self.tick(at).and_then(|()| self.enter(u, u32::MAX, at));
        let v = match run.and_then(|()| {
            if self.frames.len() == before.frames {
                // The memo's value, pushed in place of a frame.
                Ok(Exit::Returned(self.pop()))
            } else {
                self.run()
            }
        }) {
            // Its frame left, its arguments gone with it.
            Ok(Exit::Returned(v)) => {
                (self.pc, self.wait) = (before.pc, before.wait);
                Some(v)
            }
            // A pure procedure never waits; it fails, or its budget is spent.
            Ok(Exit::Suspended) | Err(_) => {
                self.unnest(before);
                None
            }
        };
        self.direct_calls = outer;
        v
    }
}
