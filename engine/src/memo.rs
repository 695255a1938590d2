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

/// Look-ups a procedure may miss, none found, before a match stops remembering it: a
/// procedure called once per state (a team's move set, worked out once per movement)
/// pays a look-up and a stored entry per call and never gets them back.
pub const PROBE: u8 = 16;

/// A procedure's look-ups have found a value: it is remembered for the rest of the match.
const PROVEN: u8 = u8::MAX;

/// One remembered value. Arguments and calls are ranges of the memo's arenas.
struct Entry {
    proc: u16,
    args: Range<u32>,
    value: Value,
    calls: Range<u32>,
    /// The previous entry with the same key (`NONE`: none).
    next: u32,
}

/// Where a memo stood ([`Memo::mark`]).
pub(crate) struct MemoMark {
    version: u64,
    entries: usize,
    args: usize,
    calls: usize,
    trace: usize,
    trust: Vec<u8>,
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
    /// Per procedure: how many more look-ups it may miss before it is no longer
    /// remembered ([`PROBE`] at first, [`PROVEN`] once one found a value, 0: given up).
    trust: Vec<u8>,
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
            trust: Vec::new(),
        }
    }
}

impl Memo {
    /// An empty memo, on or off like this one and remembering the same procedures (for a
    /// copy of a match).
    pub fn fresh(&self) -> Memo {
        Memo {
            on: self.on,
            trust: self.trust.clone(),
            ..Memo::default()
        }
    }

    /// Whether calls of `proc` are looked up and their values remembered: the memo is on
    /// and the procedure's look-ups have not all missed ([`PROBE`]). A call not remembered
    /// is noted with [`Memo::note_call`] instead, like an inlined one.
    #[inline]
    pub fn wants(&self, proc: u16) -> bool {
        self.on && self.trust.get(proc as usize).is_none_or(|&t| t != 0)
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
        let Some(e) = self.find(proc, args) else {
            self.missed(proc);
            return None;
        };
        *self.trust_of(proc) = PROVEN;
        let e = &self.entries[e as usize];
        let calls = &self.calls[e.calls.start as usize..e.calls.end as usize];
        if self.computing > 0 {
            self.trace.extend_from_slice(calls);
        }
        Some((e.value.clone(), calls))
    }

    /// The entry of `proc` for `args`, if any.
    fn find(&self, proc: u16, args: &[Value]) -> Option<u32> {
        let mut i = *self.index.get(&key(proc, args))?;
        loop {
            let e = &self.entries[i as usize];
            if e.proc == proc && self.args[e.args.start as usize..e.args.end as usize] == *args {
                return Some(i);
            }
            if e.next == NONE {
                return None;
            }
            i = e.next;
        }
    }

    /// A look-up of `proc` found nothing: one fewer it may miss, unless one has found a
    /// value.
    fn missed(&mut self, proc: u16) {
        let t = self.trust_of(proc);
        if *t != PROVEN {
            *t = t.saturating_sub(1);
        }
    }

    /// How many more look-ups `proc` may miss ([`Memo::trust`]).
    fn trust_of(&mut self, proc: u16) -> &mut u8 {
        let p = proc as usize;
        if self.trust.len() <= p {
            self.trust.resize(p + 1, PROBE);
        }
        &mut self.trust[p]
    }

    /// Notes a call of `proc` made without a look-up (its body inlined into the caller, or
    /// a procedure no longer remembered): a computation under way records it.
    #[inline]
    pub fn note_call(&mut self, proc: u16) {
        if self.computing > 0 {
            self.trace.push(proc);
        }
    }

    /// [`Memo::note_call`] of each procedure, in order.
    #[inline]
    pub fn note_calls(&mut self, procs: &[u16]) {
        if self.computing > 0 {
            self.trace.extend_from_slice(procs);
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

    /// Where the memo stands, to come back to with [`Memo::back_to`].
    pub(crate) fn mark(&self) -> MemoMark {
        MemoMark {
            version: self.version,
            entries: self.entries.len(),
            args: self.args.len(),
            calls: self.calls.len(),
            trace: self.trace.len(),
            trust: self.trust.clone(),
        }
    }

    /// Forgets what was looked up, remembered and noted since `mark` (code that gave up:
    /// its stack code then does the same again). Computations started since must have
    /// ended.
    pub(crate) fn back_to(&mut self, mark: MemoMark) {
        if self.version == mark.version {
            for i in (mark.entries..self.entries.len()).rev() {
                let e = &self.entries[i];
                let k = key(
                    e.proc,
                    &self.args[e.args.start as usize..e.args.end as usize],
                );
                match e.next {
                    NONE => self.index.remove(&k),
                    next => self.index.insert(k, next),
                };
            }
            self.entries.truncate(mark.entries);
            self.args.truncate(mark.args);
            self.calls.truncate(mark.calls);
        } else {
            // A look-up since found a newer state and dropped the older entries, as the
            // next one will: what was remembered after it goes too.
            self.entries.clear();
            self.index.clear();
            self.args.clear();
            self.calls.clear();
        }
        self.trace.truncate(mark.trace);
        self.trust = mark.trust;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{AreaId, AreaSet};
    use crate::value::MoveSet;

    /// Computes `proc` for `args` at `version` (after a look-up that missed).
    fn compute(m: &mut Memo, version: u64, proc: u16, args: &[Value], value: Value) {
        let p = m.begin(proc, args);
        m.store(p, version, &value);
    }

    #[test]
    fn a_procedure_whose_look_ups_all_miss_is_given_up() {
        let mut m = Memo::default();
        let args = [Value::Team(0)];
        for version in 0..u64::from(PROBE) {
            assert!(m.wants(3), "given up after {version} misses");
            assert!(m.lookup(version, 3, &args).is_none());
            compute(&mut m, version, 3, &args, Value::Int(1));
        }
        assert!(!m.wants(3));
        // Other procedures are still remembered; a copy of the match gives up the same ones.
        assert!(m.wants(4));
        assert!(!m.fresh().wants(3));
    }

    #[test]
    fn a_procedure_found_once_stays_remembered() {
        let mut m = Memo::default();
        let args = [Value::Area(5)];
        assert!(m.lookup(0, 1, &args).is_none());
        compute(&mut m, 0, 1, &args, Value::Int(7));
        let (v, calls) = m.lookup(0, 1, &args).expect("remembered");
        assert_eq!((v, calls), (Value::Int(7), &[1u16][..]));
        for version in 1..=u64::from(PROBE) * 2 {
            assert!(m.lookup(version, 1, &args).is_none());
            compute(&mut m, version, 1, &args, Value::Int(7));
        }
        assert!(m.wants(1));
    }

    #[test]
    fn a_memo_turned_off_wants_nothing() {
        let m = Memo {
            on: false,
            ..Memo::default()
        };
        assert!(!m.wants(0));
    }

    #[test]
    fn a_value_is_remembered_for_its_procedure_and_arguments_only() {
        let mut m = Memo::default();
        compute(&mut m, 0, 1, &[Value::Team(0)], Value::Int(10));
        compute(&mut m, 0, 1, &[Value::Team(1)], Value::Int(11));
        compute(&mut m, 0, 2, &[Value::Team(0)], Value::Int(20));
        let found = |m: &mut Memo, proc, args: &[Value]| m.lookup(0, proc, args).map(|f| f.0);
        assert_eq!(found(&mut m, 1, &[Value::Team(0)]), Some(Value::Int(10)));
        assert_eq!(found(&mut m, 1, &[Value::Team(1)]), Some(Value::Int(11)));
        assert_eq!(found(&mut m, 2, &[Value::Team(0)]), Some(Value::Int(20)));
        assert_eq!(found(&mut m, 2, &[Value::Team(1)]), None);
        // The same payload of another kind is another argument.
        assert_eq!(found(&mut m, 1, &[Value::Int(0)]), None);
        assert_eq!(found(&mut m, 1, &[]), None);
    }

    #[test]
    fn a_new_state_version_forgets_every_value() {
        let mut m = Memo::default();
        let args = [Value::Area(2)];
        compute(&mut m, 0, 1, &args, Value::Int(7));
        assert!(m.lookup(0, 1, &args).is_some());
        assert!(m.lookup(1, 1, &args).is_none());
        // Back at the old version number, the entries are gone all the same.
        assert!(m.lookup(0, 1, &args).is_none());
    }

    #[test]
    fn a_value_computed_while_the_state_changed_is_not_remembered() {
        let mut m = Memo::default();
        let args = [Value::Bool(true)];
        assert!(m.lookup(0, 1, &args).is_none());
        let p = m.begin(1, &args);
        m.store(p, 1, &Value::Int(3));
        assert!(m.lookup(0, 1, &args).is_none());
    }

    #[test]
    fn an_abandoned_computation_leaves_nothing() {
        let mut m = Memo::default();
        let args = [Value::Int(4)];
        let p = m.begin(1, &args);
        m.abandon(p);
        assert!(m.lookup(0, 1, &args).is_none());
        // Nothing is still being computed: a later call is not traced.
        m.note_call(9);
        compute(&mut m, 0, 2, &[], Value::Int(0));
        assert_eq!(m.lookup(0, 2, &[]).unwrap().1, [2]);
    }

    #[test]
    fn a_remembered_value_reports_every_procedure_its_computation_called() {
        let mut m = Memo::default();
        let p1 = m.begin(1, &[]);
        m.note_call(5);
        let p2 = m.begin(2, &[]);
        m.note_calls(&[6, 6]);
        m.store(p2, 0, &Value::Int(2));
        m.store(p1, 0, &Value::Int(1));
        assert_eq!(m.lookup(0, 1, &[]).unwrap().1, [1, 5, 2, 6, 6]);
        assert_eq!(m.lookup(0, 2, &[]).unwrap().1, [2, 6, 6]);
        // A value reused inside another computation counts its calls there too.
        let p3 = m.begin(3, &[]);
        assert!(m.lookup(0, 2, &[]).is_some());
        m.store(p3, 0, &Value::Int(3));
        assert_eq!(m.lookup(0, 3, &[]).unwrap().1, [3, 2, 6, 6]);
        // Outside any computation, nothing is traced.
        m.note_call(8);
        assert_eq!(m.lookup(0, 1, &[]).unwrap().1, [1, 5, 2, 6, 6]);
    }

    #[test]
    fn going_back_to_a_mark_forgets_what_came_after() {
        let mut m = Memo::default();
        let (a, b) = ([Value::Team(0)], [Value::Team(1)]);
        compute(&mut m, 0, 1, &a, Value::Int(1));
        let mark = m.mark();
        compute(&mut m, 0, 1, &b, Value::Int(2));
        // Same key as an entry kept: the index must point back at the kept one.
        compute(&mut m, 0, 1, &a, Value::Int(3));
        assert_eq!(m.lookup(0, 1, &a).unwrap().0, Value::Int(3));
        m.back_to(mark);
        assert_eq!(m.lookup(0, 1, &a).unwrap().0, Value::Int(1));
        assert!(m.lookup(0, 1, &b).is_none());
    }

    #[test]
    fn going_back_past_a_new_version_forgets_everything() {
        let mut m = Memo::default();
        let a = [Value::Team(0)];
        compute(&mut m, 0, 1, &a, Value::Int(1));
        let mark = m.mark();
        assert!(m.lookup(1, 2, &a).is_none());
        compute(&mut m, 1, 2, &a, Value::Int(2));
        m.back_to(mark);
        assert!(m.lookup(1, 2, &a).is_none());
        assert!(m.lookup(0, 1, &a).is_none());
    }

    #[test]
    fn going_back_restores_what_procedures_may_still_miss() {
        let mut m = Memo::default();
        let mark = m.mark();
        for version in 0..u64::from(PROBE) {
            assert!(m.lookup(version, 3, &[]).is_none());
        }
        assert!(!m.wants(3));
        m.back_to(mark);
        assert!(m.wants(3));
    }

    #[test]
    fn equal_values_mix_alike_and_kinds_apart() {
        let moves = |to: AreaId| {
            let mut s = MoveSet::default();
            s.field[1] = AreaSet::one(to);
            Value::Moves(std::sync::Arc::new(s))
        };
        assert_eq!(mix_value(0, &moves(2)), mix_value(0, &moves(2)));
        assert_ne!(mix_value(0, &moves(2)), mix_value(0, &moves(3)));
        let list = |v: Vec<i64>| Value::List(std::sync::Arc::new(v));
        assert_eq!(
            mix_value(0, &list(vec![1, 2])),
            mix_value(0, &list(vec![1, 2]))
        );
        assert_ne!(
            mix_value(0, &list(vec![1, 2])),
            mix_value(0, &list(vec![2, 1]))
        );
        let kinds = [
            Value::Int(1),
            Value::Bool(true),
            Value::Str(1),
            Value::Team(1),
            Value::Area(1),
            Value::Areas(AreaSet(1)),
        ];
        for (i, x) in kinds.iter().enumerate() {
            for y in &kinds[i + 1..] {
                assert_ne!(mix_value(0, x), mix_value(0, y), "{x:?} and {y:?}");
            }
        }
    }

    #[test]
    fn the_index_uses_a_mixed_key_as_it_is() {
        let mut h = KeyHasher::default();
        h.write_u64(0xDEAD_BEEF);
        assert_eq!(h.finish(), 0xDEAD_BEEF);
        let mut h = KeyHasher::default();
        h.write(&[1, 2]);
        assert_eq!(h.finish(), mix(mix(0, 1), 2));
    }
}
