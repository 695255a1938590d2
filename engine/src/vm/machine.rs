//! The machine's two halves and what binds them: the compiled [`Program`], shared and
//! immutable, and the [`Match`] value that runs it — the state of the board and the
//! rules' variables, and the machine's own state (frames, operand stack, what the match
//! waits for) next to the counters and the log. Cloning a match copies only these; the
//! program and the ruleset are shared.
//!
//! The two refer to each other: a match runs a program, and the program's direct
//! expressions ([`Direct`]) and move-gathering loops ([`MovesLoop`]) are closures over a
//! match. So their types are declared here, together, over the parts they hold
//! (instructions and sites, `code.rs`; word programs and their machine code; the match's
//! log book, schedule, kept scores, pilot). What runs them is above, in `impl Match`
//! blocks of their own modules (`exec.rs`, `frames.rs`, `direct.rs`, `moves_loop.rs`,
//! `course.rs`, ...), which this module needs no import of.

use std::sync::Arc;

use super::budget::{Counters, Limits};
use super::code::{CodeUnit, DecisionSite, EmitSite, Ins, MatchTable, RollSite, RuleMark};
use super::kinds::{Ar, Kind, Name, Tm};
use super::native_code::{Native, NativeFn, ScoreCode};
use super::outcome::Outcome;
use super::run_error::RunError;
use super::schedule::{Phase, Schedule};
use super::word::WordProg;
use crate::agent::Opt;
use crate::board::AreaSet;
use crate::ir::{Loc, Pat};
use crate::log::{Event, ModRowLog};
use crate::memo::{Memo, Pending};
use crate::ruleset::Ruleset;
use crate::state::{Clock, MatchState};
use crate::value::{Move, MoveSet, Sym, Team, Value};

/// The instruction index of no instruction: an event or error made where no code runs.
pub(crate) const NO_CODE: u32 = u32::MAX;

/// The compiled rules.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// Every instruction.
    pub code: Vec<Ins>,
    /// Where each instruction's node was written.
    pub locs: Vec<Loc>,
    /// Each instruction's rule mark: an index in [`Program::rule_marks`], 0 outside any
    /// procedure with effects inlined into its caller (`vm/inline.rs`).
    pub marks: Vec<u32>,
    /// The procedures with effects inlined around an instruction, by rule mark (mark 0:
    /// none).
    pub rule_marks: Vec<RuleMark>,
    /// Constants.
    pub consts: Vec<Value>,
    /// Code units.
    pub units: Vec<CodeUnit>,
    /// Code unit of each procedure.
    pub procs: Vec<u32>,
    /// Code unit of each table row: `[table][row]`.
    pub rows: Vec<Vec<u32>>,
    /// Code units of each trigger: condition, body.
    pub triggers: Vec<(Option<u32>, u32)>,
    /// Code unit of each hook's dispatch.
    pub hooks: Vec<u32>,
    /// Pattern groups of `match` arms.
    pub pats: Vec<Box<[Pat]>>,
    /// Jump tables of `choose { ... }` arms.
    pub jumps: Vec<Box<[u32]>>,
    /// Jump tables of `match`es on names ([`Ins::MatchJump`]).
    pub match_tables: Vec<MatchTable>,
    /// Decisions.
    pub decisions: Vec<DecisionSite>,
    /// Rolls.
    pub rolls: Vec<RollSite>,
    /// Emits.
    pub emits: Vec<EmitSite>,
    /// Plain expressions evaluated directly ([`Ins::Direct`], [`Ins::DirectBranch`]).
    pub(crate) directs: Vec<Direct>,
    /// The loops that only gather moves ([`Ins::MovesLoop`]).
    pub(crate) moves_loops: Vec<MovesLoop>,
    /// The word programs' machine code ([`super::native`]), shared by the program's
    /// copies.
    pub(crate) native: Option<std::sync::Arc<Native>>,
    /// The scores' machine code, once a match has asked for scores.
    pub(crate) scores: std::sync::OnceLock<Option<std::sync::Arc<ScoreCode>>>,
}

impl Program {
    /// How many plain expressions are worked out directly ([`Ins::Direct`],
    /// [`Ins::DirectBranch`]).
    pub fn direct_count(&self) -> usize {
        self.directs.len()
    }

    /// How many loops run as machine code (none where the machine has no code generator,
    /// or with `FUBA_NO_NATIVE` set when the rules were compiled).
    pub fn native_count(&self) -> usize {
        (self.moves_loops.iter())
            .filter(|l| l.native.is_some() && self.native.is_some())
            .count()
    }

    /// How many decisions' `prefer` scores run as machine code (as for
    /// [`Program::native_count`]; compiled now if no match asked for scores yet). `rs` is
    /// the ruleset the program was compiled from.
    pub fn native_score_count(&self, rs: &crate::ruleset::Ruleset) -> usize {
        self.score_code(rs).map_or(0, |c| c.len())
    }

    /// The scores' machine code, compiled the first time it is asked for.
    pub(crate) fn score_code(&self, rs: &crate::ruleset::Ruleset) -> Option<&ScoreCode> {
        (self.scores)
            .get_or_init(|| ScoreCode::of(self, rs).map(std::sync::Arc::new))
            .as_deref()
    }
}

/// A typed closure: the value of an expression in the frame whose locals start at `base`.
pub(crate) type F<T> = Arc<dyn Fn(&mut Match<'_>, usize) -> Option<T> + Send + Sync>;

/// A statement of a direct block: a local bound (`None`: give up).
pub(crate) type Step = Arc<dyn Fn(&mut Match<'_>, usize) -> Option<()> + Send + Sync>;

/// Where an operand comes from: a local and a constant are read in place, anything else
/// is a closure.
#[derive(Clone)]
pub(crate) enum Src<T: Kind> {
    /// A local of the frame.
    Local(u16),
    /// A constant.
    Const(T),
    /// Worked out.
    Fn(F<T>),
}

/// A plain expression compiled to closures, by the kind of its value.
#[derive(Clone)]
pub(crate) enum Direct {
    /// An integer.
    Int(Src<i64>),
    /// A flag.
    Bool(Src<bool>),
    /// A team.
    Team(Src<Tm>),
    /// An area.
    Area(Src<Ar>),
    /// An area set.
    Areas(Src<AreaSet>),
    /// A name.
    Name(Src<Name>),
    /// A move.
    Move(Src<Move>),
}

impl std::fmt::Debug for Direct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self {
            Direct::Int(_) => "int",
            Direct::Bool(_) => "bool",
            Direct::Team(_) => "team",
            Direct::Area(_) => "area",
            Direct::Areas(_) => "areas",
            Direct::Name(_) => "str",
            Direct::Move(_) => "move",
        };
        write!(f, "Direct({kind})")
    }
}

/// A statement of a loop's body.
#[derive(Clone)]
pub(crate) enum Part {
    /// A `let`: its value into its local.
    Let(Step),
    /// `set ms = ms | moves(team, from, dests)`, `ms` the gathering set of index `acc`.
    Add {
        acc: u8,
        team: Src<Tm>,
        from: Src<Ar>,
        dests: Src<AreaSet>,
    },
    /// `if c { parts }` (no `else`).
    If(Src<bool>, Arc<[Part]>),
}

/// A loop gathering moves, as built by the lowering (`lower/moves_loop.rs`).
#[derive(Clone)]
pub(crate) struct MovesLoop {
    /// The frame slot of the loop's variable.
    pub(crate) var: u16,
    /// The frame slots of the move sets it adds to.
    pub(crate) accs: Box<[u16]>,
    /// The frame slots of the area sets it takes areas out of (`true`) or adds areas to,
    /// numbered after the move sets (machine code only: a loop with one has no closures).
    pub(crate) sets: Box<[(u16, bool)]>,
    /// The areas iterated (in the stack code's order, lowest first) and the body, as
    /// closures; `None` when one of their expressions is not a direct one: the loop then
    /// runs only as machine code, and its stack code runs where there is none.
    pub(crate) closures: Option<(Src<AreaSet>, Arc<[Part]>)>,
    /// The whole loop as word code, as lowered: taken when the rules are compiled to
    /// become [`MovesLoop::native`].
    pub(crate) word: Option<WordProg>,
    /// The whole loop as machine code, run instead of the closures when there is some.
    pub(crate) native: Option<NativeFn>,
    /// Whether its machine code sums a modifier list ([`WordProg::lists`]):
    /// while the match logs, the stack code runs.
    pub(crate) lists: bool,
}

impl std::fmt::Debug for MovesLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MovesLoop(var {}, into {:?})", self.var, self.accs)
    }
}

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
    /// ([`MovesLoop::run`]): a buffer kept from loop to loop.
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
        Self::with_program(rs, super::Compiled::program(rs), seed)
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
}
