//! The abstract syntax tree of the effect language.
//!
//! Every node carries a [`Span`]: byte offsets into the text that was parsed. Spans are
//! location metadata only; they never take part in equality, so a tree parsed from the
//! printer's output compares equal to the tree it was printed from.

use std::fmt;

/// A byte range `start..end` in the parsed text.
#[derive(Clone, Copy, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

impl PartialEq for Span {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for Span {}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A name with its place in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// A sequence of statements. Its value is that of its last statement when that statement
/// is an expression, otherwise `none`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The statements, in order.
    pub stmts: Vec<Stmt>,
    /// The whole block.
    pub span: Span,
}

/// One parameter of a procedure or hook: `name: type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Parameter name.
    pub name: Ident,
    /// Type name (`int`, `bool`, `str`, `team`, `area`, `areas`, `dice`, `move`, `list`).
    pub ty: Ident,
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    /// What the statement is.
    pub kind: StmtKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// `let x = e` or `let (a, b) = e`.
    Let {
        /// The names bound.
        pattern: LetPattern,
        /// The value.
        value: Expr,
    },
    /// `set name[index] op value`.
    Set {
        /// The state variable.
        name: Ident,
        /// `set e.field[...]`: a per-team state of a collection's entry `e`.
        field: Option<Ident>,
        /// The team index of a per-team variable.
        index: Option<Expr>,
        /// `=`, `+=` or `-=`.
        op: AssignOp,
        /// The value.
        value: Expr,
    },
    /// `repeat n { ... }`.
    Repeat {
        /// How many times.
        count: Expr,
        /// What to repeat.
        body: Block,
    },
    /// `for x in collection { ... }`.
    For {
        /// The loop variable.
        var: Ident,
        /// The collection.
        iter: Expr,
        /// `where p`: only the elements for which `p` holds.
        filter: Option<Expr>,
        /// The loop body.
        body: Block,
    },
    /// `break`.
    Break,
    /// `return` or `return e`.
    Return(Option<Expr>),
    /// `emit "kind" { field: e, ... }`.
    Emit {
        /// The event kind.
        kind: StrLit,
        /// Named fields.
        fields: Vec<(Ident, Expr)>,
    },
    /// An expression evaluated for its effect or value.
    Expr(Expr),
}

/// The left side of a `let`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LetPattern {
    /// `let x = ...`.
    Name(Ident),
    /// `let (a, b) = ...`, destructuring a move.
    Pair(Ident, Ident),
}

/// Assignment operators of `set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`.
    Assign,
    /// `+=`.
    Add,
    /// `-=`.
    Sub,
}

/// A string literal with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrLit {
    /// The string's value (escapes resolved).
    pub value: String,
    /// Where it was written, quotes included.
    pub span: Span,
}

/// An expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `in`
    In,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `|`
    Union,
    /// `&`
    Intersect,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

impl BinOp {
    /// How the operator is written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Union => "|",
            BinOp::Intersect => "&",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }

    /// Binding strength: a higher number binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::In => 4,
            BinOp::Add | BinOp::Sub | BinOp::Union | BinOp::Intersect => 5,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 6,
        }
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `not`
    Not,
    /// `-`
    Neg,
    /// `+` (no effect; lets modifier rows read `+1`)
    Plus,
}

/// Which dice a roll keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// `keep highest n`.
    Highest,
    /// `keep lowest n`.
    Lowest,
}

/// Quantifiers over a collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    /// `count x in c where p`: how many elements satisfy `p`.
    Count,
    /// `any x in c where p`.
    Any,
    /// `all x in c where p`.
    All,
}

/// A pattern of a `match` arm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// `_`.
    Wildcard,
    /// An integer.
    Int(i64),
    /// `lo..hi`, both included.
    Range(i64, i64),
    /// A string.
    Str(String),
    /// `true` or `false`.
    Bool(bool),
}

/// One arm of a `match`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchArm {
    /// Alternatives (`1 | 6`).
    pub patterns: Vec<Pattern>,
    /// The arm's value.
    pub value: Expr,
    /// Where the arm was written.
    pub span: Span,
    /// `for e in collection => value`: one arm per entry, matching its name (the
    /// patterns are then empty).
    pub each: Option<Each>,
}

/// `for var in collection` at the head of a `match` arm or a `choose` option: one arm or
/// option per entry of a declared collection, expanded when the ruleset is loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Each {
    /// The name bound to each entry.
    pub var: Ident,
    /// The collection.
    pub collection: Ident,
}

/// One labelled option of a `choose { ... }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChooseArm {
    /// The option's label.
    pub label: StrLit,
    /// When the option is legal (always, if absent).
    pub guard: Option<Expr>,
    /// How much a bot likes the option (`prefer e`); 0 if absent.
    pub prefer: Option<Expr>,
    /// The option's value.
    pub value: Expr,
    /// `for e in collection ...`: one option per entry, labelled with its name (the
    /// label is then empty).
    pub each: Option<Each>,
}

/// A decision's prompt, `prompt "place your {role}: {left} of {total} left"`: text and
/// values, shown to a human player when the decision is asked (never logged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// The text and the values, in order.
    pub parts: Vec<PromptPart>,
    /// Where it was written, quotes included.
    pub span: Span,
}

/// One part of a [`Prompt`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptPart {
    /// Text as written (escapes resolved: `{{` is `{`, `\"` is `"`).
    Text(String),
    /// `{expr}`: a value in scope where the choice is made.
    Value(Box<Expr>),
}

/// What a choice picks from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChooseOptions {
    /// `from collection [skip "label"]`: an area set or a move set.
    From {
        /// The options.
        options: Box<Expr>,
        /// The label of an extra option that gives `none`.
        skip: Option<StrLit>,
        /// What a human player is told about each option: `note x => "text {value}"`
        /// (never logged).
        note: Option<Box<(Ident, Prompt)>>,
        /// How much a bot likes each option: `prefer x => score`.
        prefer: Option<(Ident, Box<Expr>)>,
    },
    /// `{ "label" [when guard] => value, ... }`.
    Arms(Vec<ChooseArm>),
}

/// One row of a modifier list: `"label": value [when condition]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModRow {
    /// The row's label (for `explain`).
    pub label: StrLit,
    /// What the row adds.
    pub value: Expr,
    /// When the row applies (always, if absent).
    pub when: Option<Expr>,
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A string literal.
    Str(String),
    /// `none`.
    None,
    /// A name: local, parameter, constant, state variable, area or built-in value.
    Name(Ident),
    /// `[a, b, ...]`: an area set or a list.
    List(Vec<Expr>),
    /// `name(args)`: a procedure of the ruleset or an engine primitive.
    Call {
        /// The callee.
        name: Ident,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `base[index]`: a table look-up, a per-team variable, a list element.
    Index {
        /// What is indexed.
        base: Box<Expr>,
        /// The key.
        index: Box<Expr>,
    },
    /// `base.field`.
    Field {
        /// The value.
        base: Box<Expr>,
        /// The field name.
        field: Ident,
    },
    /// A unary operation.
    Unary {
        /// The operator.
        op: UnOp,
        /// The operand.
        expr: Box<Expr>,
    },
    /// A binary operation.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `if c { ... } else ...`.
    If {
        /// Condition.
        cond: Box<Expr>,
        /// Then branch.
        then: Block,
        /// Else branch: a block or another `if`.
        otherwise: Option<Box<Expr>>,
    },
    /// `match e { arms }`.
    Match {
        /// The value matched.
        scrutinee: Box<Expr>,
        /// The arms, tried in order.
        arms: Vec<MatchArm>,
    },
    /// `choose "kind" by team [secret] ...`.
    Choose {
        /// The decision's name, shown to agents and logged.
        kind: StrLit,
        /// The team whose agent decides.
        by: Box<Expr>,
        /// Hidden from the other team until revealed.
        secret: bool,
        /// What a human player is told is being decided (`prompt "..."`); never logged.
        prompt: Option<Box<Prompt>>,
        /// The options.
        options: ChooseOptions,
    },
    /// `roll NdS [keep highest|lowest k] [by team] [as "label"]`.
    Roll {
        /// Number of dice.
        count: u32,
        /// Sides per die.
        sides: u32,
        /// Which dice are kept.
        keep: Option<(Keep, u32)>,
        /// The team rolling.
        by: Option<Box<Expr>>,
        /// What the roll is for.
        label: Option<StrLit>,
    },
    /// `modifiers "name" { rows }`.
    Modifiers {
        /// The list's name.
        name: StrLit,
        /// The rows.
        rows: Vec<ModRow>,
    },
    /// `count|any|all x in c [where p]`.
    Quant {
        /// Which quantifier.
        quant: Quant,
        /// Bound variable.
        var: Ident,
        /// The collection.
        iter: Box<Expr>,
        /// The predicate (true if absent).
        filter: Option<Box<Expr>>,
    },
    /// `hook name(args)`.
    Hook {
        /// The hook point.
        name: Ident,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `{ ... }`.
    Block(Block),
}
