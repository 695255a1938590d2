//! Word code: a loop gathering moves ([`super::moves_loop`]) as a short program of a
//! register machine whose registers are machine words — integers, flags, teams, areas,
//! area sets, names and moves, each one `u64` — built by `lower/word.rs` from the loop's
//! checked code. It is the step between the IR and machine code: `native.rs` translates
//! it into `fuba-native`'s form and compiles it; nothing interprets it.
//!
//! Its meaning is the closures' (and the stack code's) for the plain case; wherever they
//! would do anything else — a frame local or a state variable of another kind than the
//! checker found, an overflow, a division by zero, a goalkeeper off the board, no arm of
//! a `match` fitting — the program gives up (`None`) and the stack code runs. It reads
//! the frame's locals and the match, and changes nothing but the calls it notes
//! (`Match::direct_calls`, counted as the closures' are), the moves it finds, and what
//! the pure procedures it calls count and remember (taken back when it gives up).

use crate::board::AreaSet;
use crate::ir::{Role, Scope};
use crate::prims::Prim;
use crate::value::{Move, Sym, Ty, Value};

/// Registers of one program (a register is a `u8`; the machine code has 256 variables):
/// the lowering refuses a program that needs more. 2024's pass targets' loop with every
/// advanced rule, its pass modifiers and the triggers of `pass_value_modifier` inlined,
/// needs more than 128.
pub(crate) const REGS: usize = 255;

/// The kind of a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum K {
    /// An integer.
    Int,
    /// A flag (0 or 1).
    Bool,
    /// A team.
    Team,
    /// An area.
    Area,
    /// An area set; as an operand an area is read as the set of it, and no value as the
    /// empty set (as the stack code reads them).
    Areas,
    /// A name.
    Name,
    /// A move (`from | to << 8 | keeper << 16`).
    Move,
}

impl K {
    /// The word kind of a checked type (`None`: not a word).
    pub(crate) fn of(ty: Ty) -> Option<K> {
        Some(match ty {
            Ty::Int => K::Int,
            Ty::Bool => K::Bool,
            Ty::Team => K::Team,
            Ty::Area => K::Area,
            Ty::Areas => K::Areas,
            Ty::Str => K::Name,
            Ty::Move => K::Move,
            _ => return None,
        })
    }
}

/// A word operation of two operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    Union,
    Inter,
    Diff,
    /// An area (first) in an area set.
    In,
    Max,
    Min,
}

/// One instruction; `u8` operands are registers, `u16` ones jump targets or indices.
#[derive(Clone, Copy, Debug)]
pub(crate) enum W {
    /// A constant of [`WordProg::consts`].
    Const(u8, u16),
    /// A local of the frame, read as a word of the kind.
    Local(u8, u16, K),
    /// A team role's team.
    Role(u8, Role),
    /// A state variable of a single-valued scope.
    Var(u8, Scope, u16, K),
    /// A per-team state variable, of the team in the last register.
    TeamVar(u8, Scope, u16, K, u8),
    /// `not`.
    Not(u8, u8),
    /// Integer negation.
    Neg(u8, u8),
    /// Two operands.
    Bin(WOp, u8, u8, u8),
    /// A copy.
    Copy(u8, u8),
    /// An area as the set of it.
    ToSet(u8, u8),
    /// A primitive of up to five operands: those [`word_signature`] knows worked out on
    /// words, any other without an effect through its `Value`s.
    Prim(Prim, u8, [u8; 5]),
    /// A move's end (`true`: `from`).
    MoveEnd(u8, u8, bool),
    /// Whether a move is the goalkeeper's.
    MoveKeeper(u8, u8),
    /// Jump.
    Jump(u16),
    /// Jump when the flag is false.
    JumpIfNot(u8, u16),
    /// Jump unless the name is one of [`WordProg::names`] from the index, so many.
    UnlessName(u8, u16, u8, u16),
    /// A call of an inlined procedure, to be counted.
    Count(u16),
    /// A call of a pure procedure that is not inlined (its index, up to five argument
    /// registers, each a word of its parameter's kind): the match runs it to its end on
    /// the stack machine, or its memo gives the value, counted as its call is
    /// ([`Match::call_pure`]).
    Call(u8, u16, [u8; 5]),
    /// One operation counted against the stage's budget (a hook's dispatch the code
    /// stands for, as the closures count it).
    Tick,
    /// The next area of the set in the second register into the first, taken out of the
    /// set; jump when none is left (and count a loop's round, as the stack code does).
    NextArea(u8, u8, u16),
    /// `moves(team, from, dests)` found for gathering set `acc`: team, from, dests.
    AddMoves(u8, [u8; 3]),
    /// The stack code has to run.
    GiveUp,
    /// The program's value.
    Ret(u8),
}

/// A word program.
#[derive(Clone, Debug, Default)]
pub(crate) struct WordProg {
    pub(crate) code: Box<[W]>,
    pub(crate) consts: Box<[u64]>,
    pub(crate) names: Box<[Sym]>,
    /// Whether a loop's code sums a modifier list: it runs only while the match is not
    /// logging (a logged list records its rows, which the stack code does).
    pub(crate) lists: bool,
}

/// A value as a word of kind `k`, `None` when it is of another kind.
#[inline]
pub(crate) fn value_word(v: &Value, k: K) -> Option<u64> {
    Some(match (k, v) {
        (K::Int, Value::Int(i)) => *i as u64,
        (K::Bool, Value::Bool(b)) => u64::from(*b),
        (K::Team, Value::Team(t)) => u64::from(*t),
        (K::Area, Value::Area(a)) => u64::from(*a),
        (K::Areas, Value::Areas(s)) => u64::from(s.0),
        (K::Areas, Value::Area(a)) => u64::from(AreaSet::one(*a).0),
        (K::Areas, Value::None) => 0,
        (K::Name, Value::Str(s)) => u64::from(*s),
        (K::Move, Value::Move(m)) => move_word(*m),
        _ => return None,
    })
}

/// A move as a word.
pub(crate) fn move_word(m: Move) -> u64 {
    u64::from(m.from) | u64::from(m.to) << 8 | u64::from(m.keeper) << 16
}

/// A word of kind `k` as a value.
pub(crate) fn value(w: u64, k: K) -> Value {
    match k {
        K::Int => Value::Int(w as i64),
        K::Bool => Value::Bool(w != 0),
        K::Team => Value::Team(w as u8),
        K::Area => Value::Area(w as u8),
        K::Areas => Value::Areas(AreaSet(w as u32)),
        K::Name => Value::Str(w as Sym),
        K::Move => Value::Move(Move {
            from: w as u8,
            to: (w >> 8) as u8,
            keeper: (w >> 16) & 1 != 0,
        }),
    }
}

/// The kinds of the operands and of the value of a primitive that word code works out on
/// words ([`prim`], each as the closures do, `lower/direct_ops.rs`); `None` for any other.
pub(crate) fn word_signature(p: Prim) -> Option<(&'static [K], K)> {
    use K::*;
    Some(match p {
        Prim::BallArea => (&[], Area),
        Prim::BallValue => (&[], Int),
        Prim::Other => (&[Team], Team),
        Prim::Adjacent => (&[Areas], Areas),
        Prim::SameLevel => (&[Area], Areas),
        Prim::FieldAreas | Prim::Unmoved | Prim::OwnGoalLine | Prim::HalfAreas => (&[Team], Areas),
        Prim::Occupied => (&[Team], Areas),
        Prim::KeeperArea => (&[Team], Area),
        Prim::Count | Prim::CountField => (&[Team, Areas], Int),
        Prim::Forward | Prim::Backward | Prim::Behind => (&[Areas, Team], Areas),
        Prim::Closer => (&[Area, Team], Areas),
        Prim::Distance | Prim::Between => (&[Area, Area], Int),
        Prim::EntirelyInHalf | Prim::PartlyInHalf => (&[Area, Team], Bool),
        Prim::Size => (&[Areas], Int),
        Prim::Clamp => (&[Int, Int, Int], Int),
        Prim::Abs => (&[Int], Int),
        Prim::GoalLineAreas => (&[], Areas),
        Prim::KeeperMoved | Prim::IsHome => (&[Team], Bool),
        _ => return None,
    })
}
