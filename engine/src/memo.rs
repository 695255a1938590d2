//! Values of pure procedures (see [`crate::purity`]) remembered while the match state does
//! not change. The interpreter bumps a state version on every change; the memo drops its
//! entries when it sees a new version.
//!
//! Reusing a value must leave the coverage figures as if the procedure had run, so each
//! entry keeps the procedures its computation called (itself first), and a reuse reports
//! them again ([`Memo::lookup`]).

use std::ops::Range;

use crate::value::Value;

/// One remembered value. Arguments and calls are ranges of the memo's arenas.
struct Entry {
    proc: u16,
    args: Range<u32>,
    value: Value,
    calls: Range<u32>,
}

/// A started computation, to finish with [`Memo::store`] or [`Memo::abandon`].
pub struct Pending {
    proc: u16,
    args: Range<u32>,
    trace_start: usize,
}

/// The remembered values of one match.
pub struct Memo {
    /// Whether values are remembered at all.
    pub on: bool,
    /// The state version the entries belong to.
    version: u64,
    entries: Vec<Entry>,
    args: Vec<Value>,
    calls: Vec<u16>,
    /// Procedures called while a pure procedure's value is being computed.
    trace: Vec<u16>,
    /// Pure procedures being computed (nested).
    computing: u32,
}

impl Default for Memo {
    fn default() -> Self {
        Memo {
            on: true,
            version: 0,
            entries: Vec::new(),
            args: Vec::new(),
            calls: Vec::new(),
            trace: Vec::new(),
            computing: 0,
        }
    }
}

impl Memo {
    /// The value of `proc` for `args` at state `version`, if remembered, and the
    /// procedures to count again for it. A call made while another pure procedure is being
    /// computed is also noted for that computation.
    #[inline]
    pub fn lookup(&mut self, version: u64, proc: u16, args: &[Value]) -> Option<(Value, &[u16])> {
        if self.version != version {
            self.version = version;
            self.entries.clear();
            self.args.clear();
            self.calls.clear();
        }
        let e = self.entries.iter().find(|e| {
            e.proc == proc && self.args[e.args.start as usize..e.args.end as usize] == *args
        })?;
        let calls = &self.calls[e.calls.start as usize..e.calls.end as usize];
        if self.computing > 0 {
            self.trace.extend_from_slice(calls);
        }
        Some((e.value.clone(), calls))
    }

    /// Starts computing `proc` for `args` (after a [`Memo::lookup`] that missed).
    #[inline]
    pub fn begin(&mut self, proc: u16, args: &[Value]) -> Pending {
        let a0 = self.args.len() as u32;
        self.args.extend_from_slice(args);
        let trace_start = self.trace.len();
        self.trace.push(proc);
        self.computing += 1;
        Pending {
            proc,
            args: a0..self.args.len() as u32,
            trace_start,
        }
    }

    /// Finishes a computation with its value, remembered if the state is still `version`.
    #[inline]
    pub fn store(&mut self, p: Pending, version: u64, value: &Value) {
        if self.version == version {
            let c0 = self.calls.len() as u32;
            self.calls.extend_from_slice(&self.trace[p.trace_start..]);
            self.entries.push(Entry {
                proc: p.proc,
                args: p.args,
                value: value.clone(),
                calls: c0..self.calls.len() as u32,
            });
        }
        self.end();
    }

    /// Finishes a computation that failed: nothing is remembered.
    pub fn abandon(&mut self, _p: Pending) {
        self.end();
    }

    fn end(&mut self) {
        self.computing -= 1;
        if self.computing == 0 {
            self.trace.clear();
        }
    }
}
