//! Values of pure procedures (see [`crate::purity`]) remembered while the match state does
//! not change. The machine ([`crate::vm`]) bumps a state version on every change; the memo drops its
//! entries when it sees a new version.
//!
//! Reusing a value must leave the coverage figures as if the procedure had run, so each
//! entry keeps the procedures its computation called (itself first), and a reuse reports
//! them again ([`Memo::lookup`]).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

use crate::value::Value;

/// No entry.
const NONE: u32 = u32::MAX;

/// One remembered value. Arguments and calls are ranges of the memo's arenas.
struct Entry {
    proc: u16,
    args: Range<u32>,
    value: Value,
    calls: Range<u32>,
    /// The previous entry with the same key (`NONE`: none).
    next: u32,
}

/// A started computation, to finish with [`Memo::store`] or [`Memo::abandon`].
pub struct Pending {
    proc: u16,
    key: u64,
    args: Range<u32>,
    trace_start: usize,
}

/// The index's keys are already mixed ([`key`]): the map uses them as they are (the
/// kept `prefer` scores' index too, `vm/kept.rs`).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = mix(self.0, u64::from(*b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// One step of the keys' hash: a word mixed into it.
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// A key of a procedure and its arguments: equal arguments give equal keys (entries are
/// still compared in full, so a collision costs only time).
fn key(proc: u16, args: &[Value]) -> u64 {
    args.iter().fold(u64::from(proc), mix_value)
}

/// A value mixed into a hash: its kind, then its contents (equal values, equal hashes).
pub(crate) fn mix_value(h: u64, v: &Value) -> u64 {
    match v {
        Value::None => mix(h, 0),
        Value::Int(i) => mix(mix(h, 1), *i as u64),
        Value::Bool(b) => mix(mix(h, 2), u64::from(*b)),
        Value::Str(s) => mix(mix(h, 3), u64::from(*s)),
        Value::Team(t) => mix(mix(h, 4), u64::from(*t)),
        Value::Area(a) => mix(mix(h, 5), u64::from(*a)),
        Value::Areas(s) => mix(mix(h, 6), u64::from(s.0)),
        Value::Dice(d) => d
            .as_slice()
            .iter()
            .fold(mix(h, 7), |h, x| mix(h, u64::from(*x))),
        Value::Move(m) => mix(
            mix(h, 8),
            u64::from(m.from) | u64::from(m.to) << 8 | u64::from(m.keeper) << 16,
        ),
        Value::Moves(m) => {
            let k = m
                .keeper
                .map_or(0, |(a, s)| u64::from(a) << 32 | u64::from(s.0));
            m.field
                .iter()
                .fold(mix(mix(h, 9), k), |h, s| mix(h, u64::from(s.0)))
        }
        Value::List(l) => l.iter().fold(mix(h, 10), |h, x| mix(h, *x as u64)),
    }
}

/// The remembered values of one match.
pub struct Memo {
    /// Whether values are remembered at all.
    pub on: bool,
    /// The state version the entries belong to.
    version: u64,
    entries: Vec<Entry>,
    /// The latest entry of each key.
    index: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
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
            index: HashMap::default(),
            args: Vec::new(),
            calls: Vec::new(),
            trace: Vec::new(),
            computing: 0,
        }
    }
}

impl Memo {
    /// An empty memo, on or off like this one (for a copy of a match).
    pub fn fresh(&self) -> Memo {
        Memo {
            on: self.on,
            ..Memo::default()
        }
    }

    /// The value of `proc` for `args` at state `version`, if remembered, and the
    /// procedures to count again for it. A call made while another pure procedure is being
    /// computed is also noted for that computation.
    #[inline]
    pub fn lookup(&mut self, version: u64, proc: u16, args: &[Value]) -> Option<(Value, &[u16])> {
        if self.version != version {
            self.version = version;
            self.entries.clear();
            self.index.clear();
            self.args.clear();
            self.calls.clear();
        }
        let mut i = *self.index.get(&key(proc, args))?;
        let e = loop {
            let e = &self.entries[i as usize];
            if e.proc == proc && self.args[e.args.start as usize..e.args.end as usize] == *args {
                break e;
            }
            if e.next == NONE {
                return None;
            }
            i = e.next;
        };
        let calls = &self.calls[e.calls.start as usize..e.calls.end as usize];
        if self.computing > 0 {
            self.trace.extend_from_slice(calls);
        }
        Some((e.value.clone(), calls))
    }

    /// Notes a call of `proc` made without a look-up (its body inlined into the caller):
    /// a computation under way records it.
    #[inline]
    pub fn note_call(&mut self, proc: u16) {
        if self.computing > 0 {
            self.trace.push(proc);
        }
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
            key: key(proc, args),
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
            let next = self
                .index
                .insert(p.key, self.entries.len() as u32)
                .unwrap_or(NONE);
            self.entries.push(Entry {
                proc: p.proc,
                args: p.args,
                value: value.clone(),
                calls: c0..self.calls.len() as u32,
                next,
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
