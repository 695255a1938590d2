//! The match value: the state of the board and the rules' variables, and the machine's own
//! state — frames, operand stack, what the match waits for — next to the counters and the
//! log. Cloning it copies only these; the program and the ruleset are shared.

use std::sync::Arc;

use super::budget::{Counters, Limits};
use super::code::{Program, UnitKind};
use super::outcome::Outcome;
use super::run_error::{ErrorKind, Halt, RunError};
use super::schedule::{Phase, Schedule};
use crate::agent::Opt;
use crate::log::{Event, EventKind, ModRowLog};
use crate::memo::{Memo, Pending};
use crate::ruleset::Ruleset;
use crate::state::{Clock, MatchState};
use crate::value::{MoveSet, Sym, Team, Value};

/// The instruction index of no instruction: an event or error made where no code runs.
pub(crate) const NO_CODE: u32 = u32::MAX;

/// One active code unit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    /// Where to go on return (`u32::MAX`: back to the host).
    pub ret: u32,
    /// First local on the operand stack.
    pub base: u32,
    /// The code unit.
    pub unit: u32,
    /// A pure procedure's remembered computation ([`Match::pending`] index + 1), or 0.
    pub memo: u32,
    /// A `prefer` score run in its enclosing frame.
    pub score: bool,
    /// Whether entering it went one call deeper and pushed its rule (not a hook's
    /// dispatch).
    pub nested: bool,
    /// The rule mark of the instruction that called it ([`Program::rule_marks`]): the
    /// procedures with effects inlined around the call, whose rules come before its own.
    pub mark: u32,
}

/// What the match waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wait {
    /// Nothing: it can run.
    Run,
    /// A decision of a team at a `choose` site (instruction index).
    Decision { site: u32, team: Team, at: u32 },
    /// Dice at a roll site (instruction index).
    Chance {
        site: u32,
        team: Option<Team>,
        at: u32,
    },
}

/// A match: rules (shared), state, the machine running the rules, counters and log.
///
/// Step it with [`Match::advance`] and answer what it waits for with [`Match::choose`] or
/// [`Match::roll`]; [`crate::game::Game`] does so with agents and dice.
pub struct Match<'a> {
    /// The rules.
    pub rs: &'a Ruleset,
    pub(crate) prog: &'a Program,
    /// The state of the board and the rules' variables.
    pub st: MatchState,
    /// The seed (for the log header).
    pub seed: u64,
    /// Limits.
    pub limits: Limits,
    /// Counts for figures and coverage.
    pub counters: Counters,
    /// The events, when logging.
    pub log: Option<Vec<Event>>,
    /// What the log has recorded: numbering and bounds (`logbook.rs`).
    pub(crate) book: super::logbook::LogBook,
    /// The stage being run (a procedure index), for the log.
    pub stage: Option<u16>,
    /// Stop when an event of this kind is emitted (scenarios).
    pub stop_at: Option<Sym>,
    /// Whether `stop_at` was reached.
    pub stopped: bool,
    /// Whether a scenario's run ended the half.
    pub half_ended: bool,
    /// How many procedures of a scenario's list ([`super::schedule::Schedule::Procs`]) ran to their
    /// end.
    pub procs_done: u32,
    /// Record every legal option's label in choice events (scenarios).
    pub record_options: bool,
    /// Ask the agent even when a decision has a single legal option (scenarios: a script
    /// may give its label).
    pub ask_single: bool,
    /// Report a [`super::schedule::Status::Boundary`] after every stage (invariant checks).
    pub pause_at_stages: bool,
    pub(crate) stack: Vec<Value>,
    pub(crate) frames: Vec<Frame>,
    pub(crate) pc: u32,
    pub(crate) depth: u32,
    pub(crate) ops: u64,
    pub(crate) opts: Vec<Opt>,
    /// A move set no value holds any more (a set offered, or added to another), filled
    /// again for the next one instead of allocating ([`Match::new_moves`]).
    pub(crate) spare: Option<Arc<MoveSet>>,
    pub(crate) wait: Wait,
    /// Off while `prefer` scores are worked out: nothing counted.
    pub(crate) counting: bool,
    /// On while `prefer` scores are worked out: no dice, no choices.
    pub(crate) scoring: bool,
    pub(crate) mod_rows: Vec<ModRowLog>,
    /// Inlined procedures called by the direct expression being worked out
    /// ([`super::direct`]): counted when it gives its value, dropped when it gives up.
    pub(crate) direct_calls: Vec<u16>,
    /// Moves found by a loop's machine code, added to their sets when it has run
    /// ([`super::moves_loop::MovesLoop::run`]): a buffer kept from loop to loop.
    pub(crate) found: Vec<super::found::Found>,
    /// The words a score's machine code reads, kept from offer to offer (taken while an
    /// offer is scored; a copy of the match starts without one).
    pub(crate) score_buf: Option<Box<super::native_code::ScoreBuf>>,
    /// Whether the waiting decision's score's hoisted parts are still to be worked out
    /// before its closures score an option ([`Match::hoist_due`]).
    pub(crate) unhoisted: bool,
    /// Whether direct expressions are worked out directly (off: their stack code runs).
    pub(crate) direct: bool,
    /// Whether loops that have machine code run it ([`Match::set_native`]).
    pub(crate) native: bool,
    pub(crate) memo: Memo,
    /// `prefer` scores kept from one offer of a decision to the next (`kept.rs`).
    pub(crate) kept: super::kept::Kept,
    pub(crate) pending: Vec<Pending>,
    /// Goes up whenever the state may have changed: remembered values are dropped then.
    pub(crate) version: u64,
    pub(crate) schedule: Arc<Schedule>,
    pub(crate) phase: Phase,
    pub(crate) turns: Vec<u32>,
    pub(crate) clocks: Vec<[Clock; 2]>,
    pub(crate) begun: Clock,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) failed: Option<RunError>,
    /// A procedure of the course was started from the host and has not returned.
    pub(crate) running_root: bool,
    /// A half hit the turn cap.
    pub(crate) runaway: bool,
    /// The team controlling the ball when the first turn began.
    pub(crate) first_owner: Option<Team>,
    /// The agents and dice a driver lent the match while it runs it: asked inside the
    /// machine instead of pausing ([`super::pilot`]). A copy has none.
    pub(crate) pilot: Option<Box<super::pilot::Pilot<'a>>>,
}

impl Clone for Match<'_> {
    /// A copy that goes on independently. Remembered values of pure procedures are not
    /// copied (they would only be recomputed).
    fn clone(&self) -> Self {
        self.copy(true)
    }
}

impl Match<'_> {
    /// A copy to look ahead with: like [`Clone::clone`], but the copy does not log (a
    /// search never reads the log, and copying a long one would make every copy slow).
    /// The copy plays exactly as the original would: logging changes no rule.
    pub fn fork(&self) -> Self {
        self.copy(false)
    }

    fn copy(&self, with_log: bool) -> Self {
        Match {
            rs: self.rs,
            prog: self.prog,
            st: self.st.clone(),
            seed: self.seed,
            limits: self.limits,
            counters: self.counters.clone(),
            log: if with_log { self.log.clone() } else { None },
            book: if with_log {
                self.book.clone()
            } else {
                Default::default()
            },
            stage: self.stage,
            stop_at: self.stop_at,
            stopped: self.stopped,
            half_ended: self.half_ended,
            procs_done: self.procs_done,
            record_options: self.record_options,
            ask_single: self.ask_single,
            pause_at_stages: self.pause_at_stages,
            stack: self.stack.clone(),
            frames: self.frames.clone(),
            pc: self.pc,
            depth: self.depth,
            ops: self.ops,
            opts: self.opts.clone(),
            spare: None,
            wait: self.wait,
            counting: self.counting,
            scoring: self.scoring,
            mod_rows: self.mod_rows.clone(),
            direct_calls: Vec::new(),
            found: Vec::new(),
            score_buf: None,
            unhoisted: self.unhoisted,
            direct: self.direct,
            native: self.native,
            memo: self.memo.fresh(),
            kept: super::kept::Kept::fresh(self.kept.on),
            pending: Vec::new(),
            version: self.version,
            schedule: self.schedule.clone(),
            phase: self.phase,
            turns: self.turns.clone(),
            clocks: self.clocks.clone(),
            begun: self.begun,
            outcome: self.outcome.clone(),
            failed: self.failed.clone(),
            running_root: self.running_root,
            runaway: self.runaway,
            first_owner: self.first_owner,
            pilot: None,
        }
    }
}

impl<'a> Match<'a> {
    /// A match about to start under `rs`, with `seed` for the log header.
    pub fn new(rs: &'a Ruleset, seed: u64) -> Self {
        Self::with_program(rs, rs.program(), seed)
    }

    /// A match running `prog` (the lowering uses one with no code to work out constant
    /// expressions with the primitives themselves).
    pub(crate) fn with_program(rs: &'a Ruleset, prog: &'a Program, seed: u64) -> Self {
        Match {
            rs,
            prog,
            st: MatchState::new(rs),
            seed,
            limits: Limits::default(),
            counters: Counters::new(rs),
            log: None,
            book: Default::default(),
            stage: None,
            stop_at: None,
            stopped: false,
            half_ended: false,
            procs_done: 0,
            record_options: false,
            ask_single: false,
            pause_at_stages: false,
            stack: Vec::with_capacity(256),
            frames: Vec::with_capacity(32),
            pc: 0,
            depth: 0,
            ops: 0,
            opts: Vec::with_capacity(64),
            spare: None,
            wait: Wait::Run,
            counting: true,
            scoring: false,
            mod_rows: Vec::new(),
            direct_calls: Vec::new(),
            found: Vec::new(),
            score_buf: None,
            unhoisted: false,
            direct: true,
            native: true,
            memo: Memo::default(),
            kept: super::kept::Kept::fresh(true),
            pending: Vec::new(),
            version: 0,
            schedule: Arc::new(Schedule::Match),
            phase: Phase::Begin,
            turns: Vec::new(),
            clocks: Vec::new(),
            begun: Clock::default(),
            outcome: None,
            failed: None,
            running_root: false,
            runaway: false,
            first_owner: None,
            pilot: None,
        }
    }

    /// Turns on the event log.
    pub fn with_log(mut self) -> Self {
        self.log = Some(Vec::new());
        self
    }

    /// The events so far (empty when not logging).
    pub fn events(&self) -> &[Event] {
        self.log.as_deref().unwrap_or(&[])
    }

    /// Whether values of pure procedures are remembered while the state does not change
    /// (on by default; the match is the same either way, only faster).
    pub fn set_memoize(&mut self, on: bool) {
        self.memo.on = on;
    }

    /// Whether plain expressions are worked out directly, by the closures the lowering
    /// built for them (on by default), or by their stack code (the reference the tests
    /// compare with: the match is the same either way, only slower).
    pub fn set_direct(&mut self, on: bool) {
        self.direct = on;
    }

    /// Whether the loops compiled to machine code run it (on by default; `vm/native.rs`)
    /// or their closures (the match is the same either way, only slower).
    pub fn set_native(&mut self, on: bool) {
        self.native = on;
    }

    /// Whether the `prefer` scores of a decision whose scores the lowering proved to depend
    /// only on the option and a few values are kept from one offer to the next (on by
    /// default; the scores, and so the match, are the same either way, only faster).
    pub fn set_keep_scores(&mut self, on: bool) {
        self.kept.on = on;
    }

    /// Adds the operations of the stage to the counters and starts a new budget.
    pub fn reset_budget(&mut self) {
        self.counters.ops += self.ops;
        self.ops = 0;
    }

    /// A move set value: the spare set filled again when there is one, else a new one.
    #[inline]
    pub(crate) fn new_moves(&mut self, ms: MoveSet) -> Value {
        if let Some(mut a) = self.spare.take() {
            if let Some(m) = Arc::get_mut(&mut a) {
                *m = ms;
                return Value::Moves(a);
            }
        }
        Value::Moves(Arc::new(ms))
    }

    /// Keeps a move set no one else holds as the spare ([`Match::new_moves`]). A set
    /// still held elsewhere is told by its count alone, read plainly: `Arc::get_mut`'s
    /// test is an atomic operation.
    #[inline]
    pub(crate) fn recycle(&mut self, v: Value) {
        if let Value::Moves(mut a) = v {
            if Arc::strong_count(&a) == 1 && Arc::get_mut(&mut a).is_some() {
                self.spare = Some(a);
            }
        }
    }

    /// Notes that the state may have changed: remembered values are stale.
    #[inline]
    pub(crate) fn touch(&mut self) {
        self.version += 1;
    }

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
