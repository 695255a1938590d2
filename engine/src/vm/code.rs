//! The parts of a compiled program: its stack-machine instructions ([`Ins`]), code units,
//! and the sites of its decisions, rolls and emits. The [`Program`](crate::vm::Program)
//! holding them (every procedure, table row, trigger, hook and `prefer` score of a checked
//! ruleset as one flat array of instructions, with the source place of each instruction
//! kept apart in a parallel array, off the hot path) is declared in `machine.rs`; it is
//! built once per ruleset ([`super::Compiled::program`]) and shared, immutable,
//! by every match of that ruleset.

use fuba_grammar::ast::{AssignOp, Keep};

use crate::ir::{Op, Role, Scope};
use crate::prims::Prim;
use crate::value::{Sym, Value};

/// One instruction. Operands are popped from the match's operand stack and results pushed
/// on it; `slot` operands address the running frame's locals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ins {
    /// Push a constant of [`Program::consts`](crate::vm::Program::consts).
    Const(u32),
    /// Push a small integer.
    Int(i32),
    /// Push a boolean.
    Bool(bool),
    /// Push no value.
    Unit,
    /// Push a team role's team.
    Role(Role),
    /// Push a local.
    Local(u16),
    /// Pop into a local.
    Store(u16),
    /// Pop an integer and add it to a local (saturating).
    StoreAdd(u16),
    /// Pop an integer and take it from a local (saturating).
    StoreSub(u16),
    /// `set x = x | e` of move sets: pop `e` and the old `x`, release the local's own
    /// reference, and grow the set in place.
    MovesInto(u16),
    /// `set x = x | moves(t, a, dests)`: pop the team, area and areas and add the moves
    /// to the move set in the local, in place.
    AddMoves(u16),
    /// Pop a move into two locals (its ends).
    LetPair(u16, u16),
    /// Push a state variable of a single-valued scope.
    Var(Scope, u16),
    /// Pop a team, push that team's value of a per-team variable.
    TeamVar(Scope, u16),
    /// Pop a value (and, when the flag is set, the team under it) into a state variable.
    SetVar(Scope, u16, AssignOp, bool),
    /// Pop the primitive's arguments, push its result.
    Prim(Prim),
    /// Count a call of a procedure whose body was inlined.
    CountCall(u16),
    /// Call a code unit of [`Program::units`](crate::vm::Program::units) with its arguments on the stack.
    Call(u32),
    /// Pop a key, look the table's row up and run it.
    Table(u16),
    /// Pop an index and a list, push the element.
    ListIndex,
    /// Pop a move, push one of its ends (`true`: `from`).
    MoveEnd(bool),
    /// Pop a move, push whether it is the goalkeeper's.
    MoveKeeper,
    /// Pop a boolean, push its negation.
    Not,
    /// Pop an integer, push its negation.
    Neg,
    /// Pop two operands, push the result.
    Bin(Op),
    /// Pop a value, push it as a boolean (`true` only for `true`).
    ToBool,
    /// Jump.
    Jump(u32),
    /// Pop a value; jump unless it is `true`.
    JumpIfFalse(u32),
    /// Pop a value; jump if it is `true`.
    JumpIfTrue(u32),
    /// Pop a value.
    Pop,
    /// Pop `n` areas or area sets, push their union.
    AreaList(u16),
    /// Pop `n` integers, push them as a list.
    IntList(u16),
    /// Jump to the target unless the local matches a pattern of the group
    /// ([`Program::pats`](crate::vm::Program::pats)).
    MatchArm(u16, u32, u32),
    /// No arm of a `match` fitted the local: an error.
    NoArm(u16),
    /// Jump to the arm of a `match` whose patterns are all names: the local's arm found in
    /// the table ([`Program::match_tables`](crate::vm::Program::match_tables)) in one look-up, not tested arm by arm.
    MatchJump(u16, u32),
    /// Pop the options and the team; a decision ([`Program::decisions`](crate::vm::Program::decisions)).
    ChooseFrom(u32),
    /// `choose ... from unmoved_moves(set, t)`: pop `t`, the move set and the deciding
    /// team; a decision offering the moves of the set that `t`'s pieces not yet moved can
    /// make (the narrowed set is never made). When the set is a local, it is read in place
    /// from that local (the second operand; [`NO_OPD`]: popped), not pushed.
    ChooseUnmoved(u32, u16),
    /// `unmoved_moves`, `moves_from` or `moves_to` whose move set is frame local `s`, read
    /// there rather than copied onto the stack (the copy and its drop are two atomic
    /// operations on the set's count); pop the other operand, push the value.
    MovesOfLocal(Prim, u16),
    /// Pop one boolean per arm (its guard) and the team; a decision. The picked arm's
    /// index is pushed.
    ChooseArms(u32),
    /// Pop an arm index, jump to that arm's code ([`Program::jumps`](crate::vm::Program::jumps)).
    ArmJump(u32),
    /// A chance event ([`Program::rolls`](crate::vm::Program::rolls)); pops the rolling team when it has one.
    Roll(u32),
    /// Start a modifier list: the total and the log's mark in two locals from the slot.
    ModStart(u16),
    /// One modifier row (label symbol): when applied, pop its integer value.
    ModRow(Sym, u16, bool),
    /// End a modifier list (name symbol): log it, push the total.
    ModEnd(Sym, u16),
    /// Pop a collection to iterate: its state in three locals from the slot.
    IterStart(u16),
    /// Put the next item in the local, or jump to the target when none is left.
    IterNext(u16, u16, u32),
    /// Pop a `repeat` count (checked against the limit): two locals from the slot.
    RepeatStart(u16),
    /// Count one round down, or jump to the target when none is left.
    RepeatNext(u16, u32),
    /// Leave a loop: cut the stack back to the loop's start and jump.
    Break(u16, u32),
    /// Add one to an integer local.
    Incr(u16),
    /// Count a trigger as fired.
    TrigFired(u16),
    /// Pop a trigger's value, add it to the hook's total in the local, log it.
    TrigDone(u16, u16),
    /// Pop the fields of an event ([`Program::emits`](crate::vm::Program::emits)) and log it.
    Emit(u32),
    /// Before the fields of an event that no figure reads them for and that cannot fail
    /// ([`EmitSite::quiet`]): while the match does not log, the event is only counted and
    /// the code goes on at the target (after its `Emit`), its fields not worked out.
    EmitQuiet(u32, u32),
    /// Return the top of the stack from the frame.
    Ret,
    /// Superinstruction: push two locals (skips one).
    Local2(u16, u16),
    /// Superinstruction: pop `x`, push `x op local` (skips one).
    BinL(Op, u16),
    /// Superinstruction: push `local op local` (skips two).
    BinLL(Op, u16, u16),
    /// Superinstruction: jump unless the local is `true` (skips one).
    LocalJumpIfFalse(u16, u32),
    /// Superinstruction: pop into a local, push a local (skips one).
    StoreLocal(u16, u16),
    /// Superinstruction: pop two operands, jump unless `x op y` is `true` (skips one).
    BinJumpIfFalse(Op, u32),
    /// End a `prefer` score: hand the top of the stack to the host.
    EndScore,
    /// A loop that only gathers moves (`Program::moves_loops`), run whole; on to the
    /// target after it, or, when it gives up, the loop's stack code that follows.
    MovesLoop(u32, u32),
    /// Superinstruction: push a local, run a primitive (skips one).
    LocalPrim(u16, Prim),
    /// Superinstruction: push a local and a small integer (skips one).
    LocalInt(u16, i32),
    /// Superinstruction: push a local and a team role's team (skips one).
    LocalRole(u16, Role),
    /// Superinstruction: push a team role's team and a local (skips one).
    RoleLocal(Role, u16),
    /// Superinstruction: count an inlined call, push a local (skips one).
    CountCallLocal(u16, u16),
    /// Superinstruction: pop `x`, push `x op constant` (skips one).
    BinK(Op, u32),
    /// Superinstruction: pop `x`, push `x op team` of a role (skips one).
    BinRole(Op, Role),
    /// Superinstruction: pop `x`, jump unless `x op small integer` is `true` (skips two).
    IntBinJumpIfFalse(Op, i32, u32),
    /// Superinstruction: pop two operands, jump if `x op y` is `true` (skips one).
    BinJumpIfTrue(Op, u32),
    /// Superinstruction: pop a value as a boolean, push it, jump forward (skips one).
    ToBoolJump(u32),
    /// Superinstruction: pop a value, jump (skips one).
    PopJump(u32),
    /// Superinstruction: `Unit`, `Pop`, `Jump(t)` (an `if` statement's value dropped on
    /// its way out): nothing pushed, the jump taken as the `Jump` two ahead takes it.
    UnitPopJump(u32),
    /// Superinstruction: `Unit`, `BinJumpIfFalse(Eq | Ne, t)` (`x == none`, `x != none` as
    /// a condition): pop `x`, jump unless `x` is `none` (`true`) or is not (`false`);
    /// skips two.
    NoneJumpIfFalse(bool, u32),
    /// Superinstruction: run a primitive, drop its value (skips one).
    PrimPop(Prim),
    /// Superinstruction: run a primitive, store its value into a local (skips one).
    PrimStore(Prim, u16),
    /// Superinstruction: pop a value, go to the first target if it is `true`, else to the
    /// second (a boolean value made, jumped with, then branched on: replaces `ToBool`,
    /// `Jump` and the `JumpIfFalse` jumped to).
    Branch(u32, u32),
    /// Superinstruction: pop two operands, go to the first target if `x op y` is `true`,
    /// else to the second (as [`Ins::Branch`], after a `Bin`).
    BinBranch(Op, u32, u32),
    /// Superinstruction: return no value (skips one).
    RetUnit,
    /// Superinstruction: return a boolean (skips one).
    RetBool(bool),
    /// Typed: jump if `local op small integer` (a comparison of integers, read in place).
    JumpIfLK(Op, u16, i32, u32),
    /// Typed: jump if `local op operand` (a comparison of two scalars, read in place; the
    /// operand a local or a team role, [`opd_role`]).
    JumpIfLL(Op, u16, u16, u32),
    /// Typed: a light primitive of one operand (a local or a team role, [`opd_role`]),
    /// read in place; push its result.
    PrimL(Prim, u16),
    /// Typed: a light primitive of two operands, read in place; push its result.
    PrimLL(Prim, u16, u16),
    /// Typed: a light primitive of one or two operands (the second [`NO_OPD`] for one),
    /// read in place, its result stored into the local.
    PrimTo(Prim, u16, u16, u16),
    /// A plain expression evaluated directly (`Program::directs`): its value pushed and
    /// the stack code after this instruction skipped (to the target), or, when the
    /// closures give up, that code run.
    Direct(u16, u32),
    /// A plain condition evaluated directly: jump to the last target when its truth is
    /// the flag, else skip the stack code after this instruction (to the first target);
    /// when the closures give up, that code runs.
    DirectBranch(u16, bool, u32, u32),
    /// A direct expression whose value the stack code stores into a local ([`Ins::Direct`]
    /// and the `Store` its skip lands on): the value stored into the local (the second
    /// operand) and the run goes on at the target, after the `Store`; when the closures give
    /// up, the stack code after this instruction runs, `Store` included.
    DirectTo(u16, u16, u32),
}

/// Typed instructions' operands from this number up are team roles, not locals.
pub const ROLE_OPD: u16 = 0xFFF0;

/// No operand ([`Ins::PrimTo`] of one operand).
pub const NO_OPD: u16 = u16::MAX;

/// A typed instruction's operand for a team role.
pub fn role_opd(r: Role) -> u16 {
    ROLE_OPD + r as u16
}

/// The team role of an operand (`None`: a local).
#[inline(always)]
pub fn opd_role(o: u16) -> Option<Role> {
    Some(match o.checked_sub(ROLE_OPD)? {
        0 => Role::Controlling,
        1 => Role::Passive,
        2 => Role::Phasing,
        _ => Role::NonPhasing,
    })
}

/// How a code unit's frame is entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitKind {
    /// A procedure (counted, remembered when pure).
    Proc(u16),
    /// A table row, a trigger or its condition: a frame of its own rule.
    Rule,
    /// A hook's dispatch over its triggers: no frame of its own for depth or rule.
    Hook,
}

/// One compiled code unit (procedure, table row, trigger, condition, hook dispatch).
#[derive(Debug, Clone)]
pub struct CodeUnit {
    /// First instruction.
    pub entry: u32,
    /// Parameters (the caller pushes them).
    pub params: u16,
    /// Locals, parameters first, hidden loop and modifier locals last.
    pub slots: u16,
    /// The rule it belongs to ([`crate::ruleset::Ruleset::units`]).
    pub rule: u32,
    /// How it is entered.
    pub kind: UnitKind,
    /// Whether its value may be remembered while the state does not change.
    pub pure: bool,
}

/// A `choose` of the rules.
#[derive(Debug, Clone)]
pub struct DecisionSite {
    /// The decision's name.
    pub kind: Sym,
    /// Hidden from the other team.
    pub secret: bool,
    /// `choose ... from`: the label of the `none` option.
    pub skip: Option<Sym>,
    /// Arm labels (`choose { ... }`), in order.
    pub arms: Box<[Sym]>,
    /// `prefer` scores: for `choose ... from`, one entry (the slot the option is bound to
    /// and the score's first instruction); for arms, one per arm (`None`: no score).
    pub prefer: Box<[Option<(u16, u32)>]>,
    /// Whether every score has no effect on the match (scored without a copy of the
    /// state).
    pub pure_prefer: bool,
    /// The parts of the score that do not depend on the option (`choose ... from` with
    /// quiet scores): a hidden local and the direct expression worked out into it once,
    /// before the options are scored (`lower/hoist.rs`).
    pub hoist: Box<[(u16, u16)]>,
    /// Whether the scores are kept from one offer of the decision to the next
    /// (`vm/kept.rs`): `Some` when the score is one direct expression whose closures,
    /// outside the hoisted parts, read nothing of the match but the board, only the
    /// option, the hoisted parts' locals and the frame slots it names, as
    /// `lower/hoist.rs` proves when it lowers the score.
    pub keep: Option<ScoreKey>,
    /// The prompt (`prompt "text {value}"`): empty when the rule gives none.
    pub prompt: Box<[PromptCode]>,
    /// `choose ... from`'s note on each option (`note x => "text {value}"`): the slot the
    /// option is bound to and the text; `None` when the rule gives none.
    pub note: Option<(u16, Box<[PromptCode]>)>,
    /// The score as word code (`choose ... from` with one direct integer score), compiled
    /// to machine code with the others' when a match first asks for scores
    /// ([`Program::score_code`](crate::vm::Program::score_code)).
    pub(crate) word: Option<super::word::WordProg>,
    /// The score as word code that works out the parts the closures hoist itself
    /// (`None`: no part is hoisted, or no such code): compiled instead of
    /// [`DecisionSite::word`] where its machine code calls the match back no more often
    /// ([`super::native_code::ScoreCode::of`]), the closures' parts then worked out only if
    /// the closures score an option.
    pub(crate) word_own: Option<super::word::WordProg>,
}

/// What the kept scores of a decision are compared on ([`DecisionSite::keep`]): the
/// hoisted parts' values, and these.
#[derive(Debug, Clone, Default)]
pub struct ScoreKey {
    /// The frame slots (locals live at the `choose`) the score reads.
    pub reads: Box<[u16]>,
    /// Hoisted parts read only behind others (`g and ... and p`: `p` is read only where
    /// `g` is true): the index in [`DecisionSite::hoist`] of such a part and of a part it
    /// is read behind. Where `g` is false, `p`'s value is not compared.
    pub guards: Box<[(u8, u8)]>,
}

/// One part of a decision's prompt, compiled.
#[derive(Debug, Clone)]
pub enum PromptCode {
    /// Text as written.
    Text(Box<str>),
    /// A value: the first instruction of its code, run in the frame of the `choose` like a
    /// `prefer` score and ended by [`Ins::EndScore`].
    Value(u32),
}

/// A roll of the rules.
#[derive(Debug, Clone, Copy)]
pub struct RollSite {
    /// Dice rolled.
    pub count: u8,
    /// Sides.
    pub sides: u8,
    /// Dice kept.
    pub keep: Option<(Keep, u8)>,
    /// Whether a team rolls (popped).
    pub by: bool,
    /// What for.
    pub label: Sym,
}

/// An `emit` of the rules.
#[derive(Debug, Clone)]
pub struct EmitSite {
    /// The event kind.
    pub kind: Sym,
    /// Field names, in the order their values were pushed.
    pub fields: Box<[Sym]>,
    /// The figures with a test counting events of its kind (`Ruleset::figures`), by index.
    pub tests: Box<[u32]>,
    /// The breakdowns of its kind (`Ruleset::breakdowns`), by index, with the position of
    /// their field among `fields`.
    pub breakdowns: Box<[(u32, u32)]>,
    /// Whether its fields may go unworked while the match does not log
    /// ([`Ins::EmitQuiet`]): no figure tests or breaks them down, and each is a local, a
    /// constant, a role, or a part of a move in a local — the frame slots of those locals,
    /// which must hold moves (else the fields are worked out, and fail as they do).
    pub quiet: Option<Box<[u16]>>,
}

/// The procedures with effects inlined around an instruction (`vm/inline.rs`). An inlined
/// procedure has no frame: its events, errors and call chains take its rule from here, as
/// its frame would give it, and `explain`'s notes its parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleMark {
    /// Their rules ([`crate::ruleset::Ruleset::units`]), outermost first.
    pub rules: Box<[u32]>,
    /// The innermost one and the frame slots holding its parameters.
    pub params: Option<(u16, Box<[u16]>)>,
}

/// How many values an iteration keeps in its hidden locals.
pub const ITER_SLOTS: u16 = 3;
/// How many values a `repeat` keeps in its hidden locals.
pub const REPEAT_SLOTS: u16 = 2;
/// How many values a modifier list keeps in its hidden locals.
pub const MOD_SLOTS: u16 = 2;

/// Where a `match` on names goes for each name its arms name ([`Ins::MatchJump`]): the
/// first arm naming it, as testing the arms in order would find.
#[derive(Debug, Clone, Default)]
pub struct MatchTable {
    /// The names, sorted.
    pub names: Box<[Sym]>,
    /// The arm's code for each name.
    pub targets: Box<[u32]>,
    /// Where any other value goes (an arm matching anything, or the error of no arm).
    pub other: u32,
}

impl MatchTable {
    /// Where the value goes.
    #[inline]
    pub fn target(&self, v: &Value) -> u32 {
        match v {
            Value::Str(s) => self
                .names
                .binary_search(s)
                .map_or(self.other, |i| self.targets[i]),
            _ => self.other,
        }
    }
}
