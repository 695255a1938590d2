//! Entering and leaving code units (frames, the call depth, the memo of pure
//! procedures), the rules being run, and the errors and events they make.

use super::code::UnitKind;
use super::machine::{Frame, Match, NO_CODE, Wait};
use super::run_error::{ErrorKind, Halt, RunError};
use crate::log::EventKind;
use crate::value::{Team, Value};

impl Match<'_> {
    // ------------------------------------------------------------------ errors, log

    /// The rules being run at instruction `at` ([`NO_CODE`]: none), outermost first: those
    /// of the frames entered by a call (a hook's dispatch and a `prefer` score have none of
    /// their own) and of the procedures with effects inlined around each call and around
    /// `at` (their rule marks), for the log and messages.
    pub(super) fn rule_chain(&self, at: u32) -> impl DoubleEndedIterator<Item = u32> + '_ {
        let units = &self.prog.units;
        let marked = |mark: u32| -> &[u32] {
            (self.prog.rule_marks.get(mark as usize)).map_or(&[], |m| &m.rules[..])
        };
        let here = self.mark_at(at);
        self.frames
            .iter()
            .flat_map(move |f| {
                let own = f.nested.then(|| units[f.unit as usize].rule);
                marked(f.mark).iter().copied().chain(own)
            })
            .chain(marked(here).iter().copied())
    }

    fn current_rule(&self, at: u32) -> String {
        self.rule_chain(at)
            .next_back()
            .and_then(|u| self.rs.units.get(u as usize))
            .map_or_else(|| "match".to_string(), |u| u.rule.clone())
    }

    /// An error at instruction `at`.
    #[cold]
    #[inline(never)]
    pub(crate) fn error(&self, at: u32, message: impl Into<String>) -> Halt {
        let loc = self.prog.locs.get(at as usize).copied().unwrap_or_default();
        let rule = self
            .rs
            .units
            .get(loc.unit as usize)
            .map_or_else(|| self.current_rule(at), |u| u.rule.clone());
        Halt::Error(Box::new(RunError {
            kind: ErrorKind::Rule,
            message: message.into(),
            rule,
            place: self.rs.place(loc.start),
            chain: self
                .rule_chain(at)
                .filter_map(|u| self.rs.units.get(u as usize))
                .map(|u| u.rule.clone())
                .collect(),
        }))
    }

    /// Whether events are recorded now.
    #[inline]
    pub(crate) fn logging(&self) -> bool {
        self.log.is_some() && !self.scoring
    }

    /// Records an event when logging, as made by the innermost rule running where no code
    /// runs (the course of the match, a driver).
    pub fn emit_event(&mut self, kind: EventKind) {
        self.emit_event_at(NO_CODE, kind);
    }

    /// Records an event when logging, as made by the innermost rule running at
    /// instruction `at` (an inlined procedure's, by its rule mark).
    pub(crate) fn emit_event_at(&mut self, at: u32, kind: EventKind) {
        if !self.logging() {
            return;
        }
        let rule = self.rule_chain(at).next_back();
        self.record(rule, kind);
    }

    /// Records an event when logging, as made by the given rule (bounded: `logbook.rs`).
    pub(crate) fn emit_event_by(&mut self, rule: Option<u32>, kind: EventKind) {
        if !self.logging() {
            return;
        }
        self.record(rule, kind);
    }

    // ------------------------------------------------------------------ frames

    /// Grows the operand stack to `len` with empty slots (a frame's locals), in line: a
    /// call of `Vec::resize_with` cost about 115 host instructions a frame.
    #[inline]
    fn open_slots(&mut self, len: usize) {
        let extra = len.saturating_sub(self.stack.len());
        self.stack.extend((0..extra).map(|_| Value::None));
    }

    /// Enters code unit `u` whose arguments are on the stack; `ret` is where to go after.
    /// A pure procedure whose value is remembered is not entered: its value is pushed.
    pub(crate) fn enter(&mut self, u: u32, ret: u32, at: u32) -> Result<(), Halt> {
        let prog = self.prog;
        let unit = &prog.units[u as usize];
        let base = self.stack.len() - unit.params as usize;
        let mut memo = 0;
        match unit.kind {
            UnitKind::Proc(p) => {
                if unit.pure && self.memo.wants(p) {
                    if let Some((v, calls)) = self.memo.lookup(self.version, p, &self.stack[base..])
                    {
                        if self.counting {
                            for &c in calls {
                                self.counters.procs[c as usize] += 1;
                            }
                        }
                        self.stack.truncate(base);
                        self.stack.push(v);
                        self.pc = ret;
                        return Ok(());
                    }
                    let pend = self.memo.begin(p, &self.stack[base..]);
                    self.pending.push(pend);
                    memo = self.pending.len() as u32;
                } else if unit.pure {
                    self.memo.note_call(p);
                }
                if self.counting {
                    self.counters.procs[p as usize] += 1;
                }
            }
            UnitKind::Rule => {}
            UnitKind::Hook => {
                self.open_slots(base + unit.slots as usize);
                self.frames.push(Frame {
                    ret,
                    base: base as u32,
                    unit: u,
                    memo: 0,
                    score: false,
                    nested: false,
                    mark: self.mark_at(at),
                });
                self.pc = unit.entry;
                return Ok(());
            }
        }
        if self.depth >= self.limits.max_call_depth {
            return Err(self.too_deep(at));
        }
        self.open_slots(base + unit.slots as usize);
        self.depth += 1;
        self.frames.push(Frame {
            ret,
            base: base as u32,
            unit: u,
            memo,
            score: false,
            nested: true,
            mark: self.mark_at(at),
        });
        self.pc = unit.entry;
        Ok(())
    }

    /// The rule mark of instruction `at` (0 past the code).
    #[inline]
    pub(super) fn mark_at(&self, at: u32) -> u32 {
        self.prog.marks.get(at as usize).copied().unwrap_or(0)
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self, at: u32) -> Halt {
        let chain: Vec<&str> = self
            .rule_chain(at)
            .filter_map(|u| self.rs.units.get(u as usize))
            .map(|u| u.rule.as_str())
            .collect();
        self.error(
            at,
            format!(
                "calls nested deeper than {}: {}",
                self.limits.max_call_depth,
                chain.join(" -> ")
            ),
        )
        .of_kind(ErrorKind::Limit)
    }

    /// Leaves the innermost frame with its value; returns whether it was entered from the
    /// host (its value is then the result of the run).
    #[inline]
    pub(crate) fn leave(&mut self, v: Value) -> Option<Value> {
        let Some(f) = self.frames.pop() else {
            return Some(v);
        };
        if f.score {
            return Some(v);
        }
        self.stack.truncate(f.base as usize);
        if f.nested {
            self.depth -= 1;
        }
        if f.memo != 0 {
            if let Some(p) = self.pending.pop() {
                self.memo.store(p, self.version, &v);
            }
        }
        if f.ret == u32::MAX {
            return Some(v);
        }
        self.pc = f.ret;
        self.stack.push(v);
        None
    }

    /// Drops every frame (the turn or half ended, or the run failed).
    pub(crate) fn unwind(&mut self) {
        for p in self.pending.drain(..) {
            self.memo.abandon(p);
        }
        self.frames.clear();
        self.stack.clear();
        self.mod_rows.clear();
        self.depth = 0;
        self.wait = Wait::Run;
    }

    /// Starts running procedure `idx` from the host, with arguments.
    pub(crate) fn start_proc(&mut self, idx: u16, args: Vec<Value>) -> Result<(), Halt> {
        self.touch();
        self.stack.extend(args);
        let u = self.prog.procs[idx as usize];
        self.enter(u, u32::MAX, self.prog.units[u as usize].entry)
    }

    /// The team's role value.
    #[inline]
    pub(crate) fn role(&self, r: crate::ir::Role) -> Team {
        use crate::ir::Role;
        match r {
            Role::Controlling => self.st.ball_owner,
            Role::Passive => 1 - self.st.ball_owner,
            Role::Phasing => self.st.phasing,
            Role::NonPhasing => 1 - self.st.phasing,
        }
    }
}
