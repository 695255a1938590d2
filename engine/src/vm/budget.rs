//! What a match may do ([`Limits`]) and what it did ([`Counters`]).

use rustc_hash::FxHashMap;

use crate::ruleset::Ruleset;
use crate::value::{Sym, Value};

/// Limits on running rules, per match (a test may set others); the defaults are the
/// constants of [`crate::limits`].
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Operations per stage: calls, table rows and rounds of loops (straight-line code is
    /// bounded by the program's size, so these bound a stage's work).
    pub ops_per_stage: u64,
    /// Largest `repeat` count.
    pub max_repeat: i64,
    /// Deepest nesting of procedure calls and hooks.
    pub max_call_depth: u32,
    /// Most events a turn may record, when the match is logged (the set-up before the
    /// first turn counts as a turn). A normal turn records a few dozen, the largest seen
    /// about 200.
    pub events_per_turn: u32,
    /// Most events a match may record, when it is logged: a normal match records about
    /// 3,000. The bound keeps a log within what `fuba replay` reads
    /// ([`crate::limits::MAX_LOG_BYTES`]).
    pub events_per_match: u32,
}

impl Default for Limits {
    fn default() -> Self {
        use crate::limits as l;
        Limits {
            ops_per_stage: l::OPS_PER_STAGE,
            max_repeat: l::MAX_REPEAT,
            max_call_depth: l::MAX_CALL_DEPTH,
            events_per_turn: l::EVENTS_PER_TURN,
            events_per_match: l::EVENTS_PER_MATCH,
        }
    }
}

/// Counts kept for every match, logged or not (figures and rules coverage).
#[derive(Debug, Clone, Default)]
pub struct Counters {
    /// Emitted events by kind symbol.
    pub emits: Vec<u32>,
    /// Table rows used: `[table][row]`.
    pub rows: Vec<Vec<u32>>,
    /// Triggers fired.
    pub triggers: Vec<u32>,
    /// Procedures called.
    pub procs: Vec<u32>,
    /// Choices made.
    pub choices: u32,
    /// Dice rolled.
    pub dice: u32,
    /// Operations run (calls, table rows, rounds of loops; see [`Limits::ops_per_stage`]).
    pub ops: u64,
    /// Times the ball changed hands (`give_ball` to the other team).
    pub control_changes: u32,
    /// Labelled options picked, by decision name and label symbol (a map with a fast,
    /// fixed hash: counted at every labelled choice, a per-process keyed SipHash cost more).
    pub arms: FxHashMap<(Sym, Sym), u32>,
    /// For each of the ruleset's breakdown figures ([`Ruleset::breakdowns`]): the field
    /// values seen and how often.
    pub by_field: Vec<Vec<(Value, u32)>>,
    /// For each of the ruleset's figures with a `where` test ([`Ruleset::figures`]): the
    /// events that passed it (0 for the others; see [`crate::ruleset::Figure::count`]).
    pub tested: Vec<u32>,
}

impl Counters {
    /// Zero counts for a ruleset.
    pub fn new(rs: &Ruleset) -> Self {
        Counters {
            emits: vec![0; rs.symbols.len()],
            rows: rs.tables.iter().map(|t| vec![0; t.rows.len()]).collect(),
            triggers: vec![0; rs.triggers.len()],
            procs: vec![0; rs.procs.len()],
            choices: 0,
            dice: 0,
            ops: 0,
            control_changes: 0,
            arms: FxHashMap::default(),
            by_field: vec![Vec::new(); rs.breakdowns.len()],
            tested: vec![0; rs.figures.len()],
        }
    }
}
