//! The model of a loaded ruleset: the [`Ruleset`] and what it holds (procedures, tables,
//! hooks and triggers, options, figures, state variables), plain data that nothing
//! changes once the ruleset is loaded, and that the loader ([`crate::load`]) fills in.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::diag::{Diagnostic, SourceFile};
use super::lookups::Lookups;
use super::raw::RawRuleset;
use super::symbols::Symbols;
use crate::board::Board;
use crate::ir::{Code, Scope, VarRef};
use crate::value::{Sym, Ty, Value};

/// What a code unit is, for messages: `procedures.control_check`, `tables.special_event[3]`.
#[derive(Debug, Clone)]
pub struct Unit {
    /// The rule's path in the ruleset.
    pub rule: String,
    /// The rulebook section, when the ruleset records one.
    pub section: String,
}

/// A procedure.
#[derive(Debug, Clone)]
pub struct Procedure {
    /// Its name.
    pub name: String,
    /// Rulebook section.
    pub section: String,
    /// Parameter names and types.
    pub params: Vec<(String, Ty)>,
    /// Type of its value.
    pub ret: Ty,
    /// Compiled body.
    pub code: Code,
    /// Code unit index.
    pub unit: u32,
    /// Whether its value depends only on its arguments and the state and running it changes
    /// nothing (see [`crate::purity`]): the machine reuses its values while the state
    /// does not change.
    pub pure: bool,
}

/// The key domain of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// One die: keys 1 to 6.
    D6,
    /// Sum of two dice: keys 2 to 12.
    TwoD6,
    /// An ordered pair of dice: keys `a-b`.
    D66,
    /// Strings.
    Labels,
}

impl Domain {
    /// The type of a key.
    pub fn key_type(self) -> Ty {
        match self {
            Domain::D6 | Domain::TwoD6 => Ty::Int,
            Domain::D66 => Ty::Dice,
            Domain::Labels => Ty::Str,
        }
    }
    /// The name used in ruleset files.
    pub fn name(self) -> &'static str {
        match self {
            Domain::D6 => "d6",
            Domain::TwoD6 => "2d6",
            Domain::D66 => "d66",
            Domain::Labels => "labels",
        }
    }
}

/// One row of a table.
#[derive(Debug, Clone)]
pub struct Row {
    /// The key as written (`"2..4"`).
    pub key: String,
    /// The rulebook's words.
    pub label: String,
    /// Compiled body.
    pub code: Code,
    /// Code unit index.
    pub unit: u32,
}

/// A table keyed by dice or labels.
#[derive(Debug, Clone)]
pub struct Table {
    /// Its name.
    pub name: String,
    /// Rulebook section.
    pub section: String,
    /// Key domain.
    pub domain: Domain,
    /// Rows.
    pub rows: Vec<Row>,
    /// For dice domains: row index by key slot (d6: 0..6, 2d6: 0..11, d66: 0..36).
    pub slots: Vec<u16>,
    /// For labels: row index by label symbol.
    pub labels: HashMap<Sym, u16>,
    /// Type of the rows' values.
    pub ty: Ty,
}

/// A hook point.
#[derive(Debug, Clone)]
pub struct Hook {
    /// Its name.
    pub name: String,
    /// Parameters.
    pub params: Vec<(String, Ty)>,
    /// Triggers attached, in declaration order.
    pub triggers: Vec<u16>,
}

/// A rule attached to a hook.
#[derive(Debug, Clone)]
pub struct Trigger {
    /// Its name.
    pub name: String,
    /// The hook.
    pub hook: u16,
    /// Rulebook section.
    pub section: String,
    /// When it fires.
    pub when: Option<Code>,
    /// What it does.
    pub code: Code,
    /// Code unit index.
    pub unit: u32,
}

/// A match option: a constant the player may set for a match.
#[derive(Debug, Clone)]
pub struct MatchOption {
    /// Its name.
    pub name: String,
    /// What it does.
    pub doc: String,
    /// The value when nothing is set.
    pub default: Value,
    /// The value for this match.
    pub value: Value,
    /// Its type.
    pub ty: Ty,
    /// The lowest and highest value of an integer option (`min`, `max`).
    pub range: Option<(i64, i64)>,
}

/// A figure counting events per match (`[figures] NAME = [...]` or `{ event, where }`).
#[derive(Debug, Clone)]
pub struct Figure {
    /// The figure's name.
    pub name: String,
    /// The event kinds counted.
    pub kinds: Vec<Sym>,
    /// Only the events passing this test count (then `kinds` has one kind).
    pub test: Option<FigureTest>,
    /// Goals are a conversion of this figure's events, when the ruleset declares so
    /// (`conversion = "goals per shot"` on the figure): the label of goals per event. At
    /// most one figure of a ruleset has one.
    pub conversion: Option<String>,
}

/// A figure counting the events of one kind by the value of one of their fields (which
/// skill was played, which weather drawn).
#[derive(Debug, Clone)]
pub struct Breakdown {
    /// The figure's name.
    pub name: String,
    /// The event kind.
    pub kind: Sym,
    /// The field.
    pub field: Sym,
    /// Only the events passing this test count.
    pub test: Option<FigureTest>,
}

/// A figure's `where`: a condition over an event's fields, the constants and the board,
/// worked out when the event is emitted ([`crate::load::figures`]).
#[derive(Debug, Clone)]
pub struct FigureTest {
    /// The condition as written.
    pub source: String,
    /// The checked condition; local slot `i` is the field `fields[i]`.
    pub cond: crate::ir::Node,
    /// The event field each local slot holds.
    pub fields: Vec<Sym>,
}

/// A declared state variable.
#[derive(Debug, Clone)]
pub struct VarDecl {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// Initial value (and value after each reset for turn scopes).
    pub init: Value,
}

/// A loaded, checked ruleset.
#[derive(Debug, Clone)]
pub struct Ruleset {
    /// Short name (`original`).
    pub name: String,
    /// Title.
    pub title: String,
    /// The rulebook it encodes.
    pub source: String,
    /// The file it was loaded from.
    pub file: SourceFile,
    /// A fingerprint of the file's content (FNV-1a, hex).
    pub fingerprint: String,
    /// The board.
    pub board: Board,
    /// Interned strings.
    pub symbols: Symbols,
    /// Constants (match options included, with their value for this match).
    pub constants: Vec<(String, Value, Ty)>,
    /// Match options.
    pub options: Vec<MatchOption>,
    /// State variables by scope: match, team, turn, team_turn.
    pub vars: [Vec<VarDecl>; 4],
    /// Procedures.
    pub procs: Vec<Procedure>,
    /// Tables.
    pub tables: Vec<Table>,
    /// Hooks.
    pub hooks: Vec<Hook>,
    /// Triggers.
    pub triggers: Vec<Trigger>,
    /// Code units, for messages.
    pub units: Vec<Unit>,
    /// Number of halves.
    pub halves: u32,
    /// Cap on turns per half.
    pub max_turns_per_half: u32,
    /// Procedure run before the first half.
    pub start: Option<u16>,
    /// Procedure run at the start of each half.
    pub half_start: Option<u16>,
    /// Stages of a turn.
    pub stages: Vec<u16>,
    /// Procedure run at the end of each turn.
    pub turn_end: Option<u16>,
    /// Procedure a scenario's runner calls after placing a position (`[scenario] derive`).
    pub scenario_derive: Option<u16>,
    /// The decision that places a piece during a setup (`[scenario] placement`).
    pub scenario_placement: Option<String>,
    /// Lowest and highest ball value.
    pub ball_values: (i64, i64),
    /// Pieces per team, goalkeeper included.
    pub pieces: u8,
    /// Cap on pieces counted in an area (0: none).
    pub count_cap: i64,
    /// Narration templates by event kind symbol.
    pub narration: HashMap<Sym, String>,
    /// Figures counted per match.
    pub figures: Vec<Figure>,
    /// Figures that count one event kind by the value of one of its fields.
    pub breakdowns: Vec<Breakdown>,
    /// The type of each field of each event kind the rules emit (the first emit of the
    /// kind that sets the field decides), by (kind, field).
    pub emit_fields: HashMap<(Sym, Sym), Ty>,
    /// Entries a layer removed (`procedures.NAME`...), with where it said so.
    pub removed: HashMap<String, (usize, usize)>,
    /// The ruleset as written, every layer merged (spans are offsets into `file`): what
    /// the lints point into and what `fuba rules diff` compares.
    pub raw: Arc<RawRuleset>,
    /// Warnings of the lints ([`crate::lint`]): the ruleset works, but something in it is
    /// likely a mistake (a procedure nothing runs, an option never offered, ...).
    pub warnings: Vec<Diagnostic>,
    /// Zones, directions and marks by symbol, for the machine.
    pub lookups: Lookups,
    /// What the machine compiles the rules into, built on first use and kept here, shared
    /// with the ruleset's clones. The model does not know what it holds: the machine owns
    /// it, fills it and reads it (`crate::vm::Compiled`).
    pub(crate) compiled: OnceLock<Arc<dyn Any + Send + Sync>>,
}

impl Ruleset {
    /// Adds a code unit (`rule` with its rulebook `section`) for messages; its number.
    pub fn add_unit(&mut self, rule: String, section: String) -> u32 {
        self.units.push(Unit { rule, section });
        self.units.len() as u32 - 1
    }

    /// The symbol for a string, interning it.
    pub fn intern(&mut self, s: &str) -> Sym {
        self.symbols.intern(s)
    }

    /// The symbol for a string, if it was interned.
    pub fn sym(&self, s: &str) -> Option<Sym> {
        self.symbols.get(s)
    }

    /// The string of a symbol.
    pub fn symbol(&self, s: Sym) -> &str {
        self.symbols.name(s)
    }

    /// A constant by name.
    pub fn constant(&self, name: &str) -> Option<(Value, Ty)> {
        self.constants
            .iter()
            .find(|c| c.0 == name)
            .map(|c| (c.1.clone(), c.2))
    }

    /// A state variable by name.
    pub fn var(&self, name: &str) -> Option<(VarRef, Ty)> {
        for (si, scope) in [Scope::Match, Scope::Team, Scope::Turn, Scope::TeamTurn]
            .into_iter()
            .enumerate()
        {
            if let Some(i) = self.vars[si].iter().position(|v| v.name == name) {
                return Some((
                    VarRef {
                        scope,
                        idx: i as u16,
                    },
                    self.vars[si][i].ty,
                ));
            }
        }
        None
    }

    /// Names of all state variables.
    pub fn var_names(&self) -> impl Iterator<Item = &str> {
        self.vars.iter().flatten().map(|v| v.name.as_str())
    }

    /// Names of all procedures (compiled or declared).
    pub fn procedure_names(&self) -> Vec<String> {
        self.procs.iter().map(|p| p.name.clone()).collect()
    }

    /// A procedure index by name.
    pub fn procedure(&self, name: &str) -> Option<u16> {
        self.procs
            .iter()
            .position(|p| p.name == name)
            .map(|i| i as u16)
    }

    /// A table index by name.
    pub fn table(&self, name: &str) -> Option<u16> {
        self.tables
            .iter()
            .position(|t| t.name == name)
            .map(|i| i as u16)
    }

    /// The line and column of a byte offset in the ruleset file, as `path:line:col`.
    pub fn place(&self, offset: u32) -> String {
        let (l, c) = self.file.line_col(offset as usize);
        format!("{}:{l}:{c}", self.file.shown_at(offset as usize))
    }
}

/// A ruleset is plain data: one loaded copy can be shared by the threads of a batch.
#[allow(dead_code)]
fn assert_shareable() {
    fn is<T: Send + Sync>() {}
    is::<Ruleset>();
}
