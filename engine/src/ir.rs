//! The compiled form of effect-language code: names resolved to slots and indices,
//! operators to typed operations, primitives to [`Prim`]. Built by [`crate::compile`],
//! lowered by [`crate::vm::lower`] into the machine's code.

use crate::prims::Prim;
use crate::value::{Sym, Ty, Value};
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

/// One part of a decision's prompt (`choose ... prompt "text {value}"`): text, or a value
/// worked out when a driver asks for the prompt ([`crate::vm::Match::prompt`]).
#[derive(Clone, Debug)]
pub enum PromptSeg {
    /// Text as written.
    Text(Box<str>),
    /// A value in scope where the choice is made.
    Value(Node),
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
    /// Its type as the checker found it ([`Ty::Any`] where it could not know): lets the
    /// lowering pick typed instructions.
    pub ty: Ty,
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
        /// What a human player is told is being decided (never logged).
        prompt: Option<Box<[PromptSeg]>>,
        /// What a human player is told about each option: the slot the option is bound
        /// to, the text (never logged).
        note: Option<(u16, Box<[PromptSeg]>)>,
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
        /// What a human player is told is being decided (never logged).
        prompt: Option<Box<[PromptSeg]>>,
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

/// Searches code for a statement or node that satisfies a predicate, at any depth: through
/// nested blocks and expressions, not into called procedures. The walkers of the IR
/// (purity, quietness, inlining, lowering) are this search with their own predicates.
pub struct Search<'p> {
    /// Whether a statement is what is sought (its own parts are searched too).
    pub stmt: &'p mut dyn FnMut(&Stmt) -> bool,
    /// Whether a node is what is sought (its own parts are searched too).
    pub node: &'p mut dyn FnMut(&Node) -> bool,
}

impl Search<'_> {
    /// Whether the block holds what is sought.
    pub fn block(&mut self, b: &Block) -> bool {
        b.stmts.iter().any(|s| self.in_stmt(s))
    }

    /// Whether the statement is, or holds, what is sought.
    pub fn in_stmt(&mut self, s: &Stmt) -> bool {
        if (self.stmt)(s) {
            return true;
        }
        match s {
            Stmt::Let(_, n) | Stmt::LetPair(_, _, n) | Stmt::SetLocal(_, _, n) | Stmt::Expr(n) => {
                self.in_node(n)
            }
            Stmt::SetVar(_, t, _, n, _) => {
                t.as_ref().is_some_and(|t| self.in_node(t)) || self.in_node(n)
            }
            Stmt::Repeat(n, b, _) | Stmt::For(_, n, b) => self.in_node(n) || self.block(b),
            Stmt::Return(n) => n.as_ref().is_some_and(|n| self.in_node(n)),
            Stmt::Emit(_, fields) => fields.iter().any(|(_, n)| self.in_node(n)),
            Stmt::Break => false,
        }
    }

    fn nodes(&mut self, ns: &[Node]) -> bool {
        ns.iter().any(|n| self.in_node(n))
    }

    fn in_prompt(&mut self, p: Option<&[PromptSeg]>) -> bool {
        p.unwrap_or_default().iter().any(|s| match s {
            PromptSeg::Value(n) => self.in_node(n),
            PromptSeg::Text(_) => false,
        })
    }

    /// Whether the node is, or holds, what is sought.
    pub fn in_node(&mut self, n: &Node) -> bool {
        if (self.node)(n) {
            return true;
        }
        match &n.kind {
            NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Var(_) | NodeKind::Role(_) => false,
            NodeKind::TeamVar(_, x)
            | NodeKind::Table(_, x)
            | NodeKind::MoveEnd(x, _)
            | NodeKind::MoveKeeper(x)
            | NodeKind::Not(x)
            | NodeKind::Neg(x) => self.in_node(x),
            NodeKind::Prim(_, xs)
            | NodeKind::Call(_, xs)
            | NodeKind::Hook(_, xs)
            | NodeKind::AreaList(xs)
            | NodeKind::IntList(xs) => self.nodes(xs),
            NodeKind::ListIndex(a, b)
            | NodeKind::And(a, b)
            | NodeKind::Or(a, b)
            | NodeKind::Bin(_, a, b) => self.in_node(a) || self.in_node(b),
            NodeKind::If(c, then, other) => {
                self.in_node(c)
                    || self.block(then)
                    || other.as_ref().is_some_and(|o| self.in_node(o))
            }
            NodeKind::Match(s, arms) => {
                self.in_node(s) || arms.iter().any(|(_, v)| self.in_node(v))
            }
            NodeKind::ChooseFrom {
                by,
                options,
                prefer,
                prompt,
                note,
                ..
            } => {
                self.in_node(by)
                    || self.in_node(options)
                    || prefer.as_ref().is_some_and(|(_, p)| self.in_node(p))
                    || self.in_prompt(prompt.as_deref())
                    || self.in_prompt(note.as_ref().map(|(_, n)| &n[..]))
            }
            NodeKind::ChooseArms {
                by, arms, prompt, ..
            } => {
                self.in_prompt(prompt.as_deref())
                    || self.in_node(by)
                    || arms.iter().any(|a| {
                        a.guard.as_ref().is_some_and(|g| self.in_node(g))
                            || a.prefer.as_ref().is_some_and(|p| self.in_node(p))
                            || self.in_node(&a.value)
                    })
            }
            NodeKind::Roll { by, .. } => by.as_ref().is_some_and(|b| self.in_node(b)),
            NodeKind::Modifiers { rows, .. } => rows
                .iter()
                .any(|(_, v, c)| self.in_node(v) || c.as_ref().is_some_and(|c| self.in_node(c))),
            NodeKind::Quant(_, _, coll, filter) => {
                self.in_node(coll) || filter.as_ref().is_some_and(|f| self.in_node(f))
            }
            NodeKind::Block(b) => self.block(b),
        }
    }
}

/// Whether any statement or node of the block, at any depth, satisfies a predicate.
pub fn any_in(
    b: &Block,
    mut stmt: impl FnMut(&Stmt) -> bool,
    mut node: impl FnMut(&Node) -> bool,
) -> bool {
    Search {
        stmt: &mut stmt,
        node: &mut node,
    }
    .block(b)
}

/// Whether the node, or any statement or node inside it, satisfies a predicate.
pub fn any_in_node(
    n: &Node,
    mut stmt: impl FnMut(&Stmt) -> bool,
    mut node: impl FnMut(&Node) -> bool,
) -> bool {
    Search {
        stmt: &mut stmt,
        node: &mut node,
    }
    .in_node(n)
}
