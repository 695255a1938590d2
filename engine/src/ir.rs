//! The compiled form of effect-language code: names resolved to slots and indices,
//! operators to typed operations, primitives to [`Prim`]. Built by [`crate::compile`],
//! lowered by [`crate::vm::lower`] into the machine's code.

use crate::prims::Prim;
use crate::value::{Sym, Value};
use fuba_grammar::ast::{AssignOp, Keep, Quant};

/// Where a node was written: the code unit and a byte range in the ruleset file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Loc {
    /// Index of the code unit (see [`crate::ruleset::Ruleset::units`]).
    pub unit: u32,
    /// Byte offset in the ruleset file.
    pub start: u32,
    /// Byte offset in the ruleset file.
    pub end: u32,
}

/// A compiled piece of code: a body and the number of local slots it needs.
#[derive(Debug, Clone, Default)]
pub struct Code {
    /// The statements.
    pub body: Block,
    /// Local slots, parameters first.
    pub slots: u16,
}

/// A block of statements.
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// The statements.
    pub stmts: Box<[Stmt]>,
}

/// Scope of a state variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// One value for the match.
    Match,
    /// One value per team.
    Team,
    /// One value, reset every turn.
    Turn,
    /// One value per team, reset every turn.
    TeamTurn,
}

/// A state variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VarRef {
    /// Its scope.
    pub scope: Scope,
    /// Index within the scope.
    pub idx: u16,
}

/// Team roles resolved at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The team controlling the ball.
    Controlling,
    /// The other team.
    Passive,
    /// The team whose turn it is (alternating-turn editions).
    Phasing,
    /// The other team.
    NonPhasing,
}

/// A statement.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// Bind a local.
    Let(u16, Node),
    /// Bind the two ends of a move.
    LetPair(u16, u16, Node),
    /// Assign a local.
    SetLocal(u16, AssignOp, Node),
    /// Assign a state variable (with a team index for per-team scopes).
    SetVar(VarRef, Option<Node>, AssignOp, Node, Loc),
    /// Repeat a block.
    Repeat(Node, Block, Loc),
    /// Iterate a collection.
    For(u16, Node, Block),
    /// Leave the innermost loop.
    Break,
    /// Leave the procedure.
    Return(Option<Node>),
    /// Log an event.
    Emit(Sym, Box<[(Sym, Node)]>),
    /// Evaluate.
    Expr(Node),
}

/// Typed binary operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Integer `+`.
    Add,
    /// Integer `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
    /// Area-set union.
    Union,
    /// Area-set intersection.
    Inter,
    /// Area-set difference.
    Diff,
    /// Move-set union.
    MovesUnion,
    /// Equality of any values.
    Eq,
    /// Inequality.
    Ne,
    /// `<` on integers.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// Area in an area set.
    InAreas,
    /// Integer in a list.
    InList,
    /// Integer among dice.
    InDice,
    /// Move in a move set.
    InMoves,
}

/// A resolved `match` pattern.
#[derive(Debug, Clone, PartialEq)]
pub enum Pat {
    /// Anything.
    Any,
    /// An integer range, both ends included.
    Range(i64, i64),
    /// A value compared with `==`.
    Value(Value),
}

/// One labelled option of a choice.
#[derive(Debug, Clone)]
pub struct Arm {
    /// The label.
    pub label: Sym,
    /// When it is legal.
    pub guard: Option<Node>,
    /// A bot's score for it.
    pub prefer: Option<Node>,
    /// Its value.
    pub value: Node,
}

/// An expression node.
#[derive(Debug, Clone)]
pub struct Node {
    /// What it is.
    pub kind: NodeKind,
    /// Where it was written.
    pub loc: Loc,
}

/// Kinds of expression node.
#[derive(Debug, Clone)]
pub enum NodeKind {
    /// A constant.
    Const(Value),
    /// A local slot.
    Local(u16),
    /// A state variable of a single-valued scope.
    Var(VarRef),
    /// A per-team state variable.
    TeamVar(VarRef, Box<Node>),
    /// A team role.
    Role(Role),
    /// An engine primitive.
    Prim(Prim, Box<[Node]>),
    /// A procedure of the ruleset.
    Call(u16, Box<[Node]>),
    /// A table look-up.
    Table(u16, Box<Node>),
    /// A list element (0-based).
    ListIndex(Box<Node>, Box<Node>),
    /// `m.from`, `m.to` of a move.
    MoveEnd(Box<Node>, bool),
    /// `m.keeper`.
    MoveKeeper(Box<Node>),
    /// `not`.
    Not(Box<Node>),
    /// Unary `-`.
    Neg(Box<Node>),
    /// Short-circuit `and`.
    And(Box<Node>, Box<Node>),
    /// Short-circuit `or`.
    Or(Box<Node>, Box<Node>),
    /// A binary operation.
    Bin(Op, Box<Node>, Box<Node>),
    /// A list or area-set literal built at run time.
    AreaList(Box<[Node]>),
    /// A list of integers built at run time.
    IntList(Box<[Node]>),
    /// `if`.
    If(Box<Node>, Block, Option<Box<Node>>),
    /// `match`.
    Match(Box<Node>, Box<[(Box<[Pat]>, Node)]>),
    /// `choose ... from`.
    ChooseFrom {
        /// Decision name.
        kind: Sym,
        /// Deciding team.
        by: Box<Node>,
        /// Hidden from the other team.
        secret: bool,
        /// Area set or move set.
        options: Box<Node>,
        /// Label of the `none` option.
        skip: Option<Sym>,
        /// A bot's score for each option: the slot the option is bound to, the score.
        prefer: Option<(u16, Box<Node>)>,
    },
    /// `choose { arms }`.
    ChooseArms {
        /// Decision name.
        kind: Sym,
        /// Deciding team.
        by: Box<Node>,
        /// Hidden from the other team.
        secret: bool,
        /// The options.
        arms: Box<[Arm]>,
    },
    /// A roll.
    Roll {
        /// Dice rolled.
        count: u8,
        /// Sides.
        sides: u8,
        /// Dice kept.
        keep: Option<(Keep, u8)>,
        /// Who rolls.
        by: Option<Box<Node>>,
        /// What for.
        label: Sym,
    },
    /// A modifier list.
    Modifiers {
        /// Its name.
        name: Sym,
        /// Label, value, condition.
        rows: Box<[(Sym, Node, Option<Node>)]>,
    },
    /// A quantifier over a collection.
    Quant(Quant, u16, Box<Node>, Option<Box<Node>>),
    /// A hook point.
    Hook(u16, Box<[Node]>),
    /// A block.
    Block(Block),
}
