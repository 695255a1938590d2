//! Checking and compiling effect-language code: names are resolved (locals, constants,
//! state variables, areas, procedures, tables, hooks, primitives), types are checked,
//! and the AST becomes the [`ir`](crate::ir), which [`crate::vm::lower`] compiles for the machine.
//!
//! Procedures are compiled on first use, so a procedure that reaches itself (directly or
//! through others) is found and refused: the language has no recursion.

// A diagnostic is large, but it only travels when a ruleset fails to load, never while a
// match runs: boxing it would cost more code than it saves.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;

use fuba_grammar::ast;

use crate::ir::*;
use crate::ruleset::Ruleset;
use crate::ruleset::diag::Diagnostic;
use crate::value::Ty;

mod binary;
mod call;
mod expr;
mod name;
mod products;
mod prompt;
mod removed;
mod result;
mod stmt;
mod suggest;
mod trigger;

pub(crate) use products::Products;
pub(crate) use suggest::closest_name;
pub use suggest::edit_distance;

/// What a name in scope refers to.
#[derive(Clone, Copy)]
struct Local {
    slot: u16,
    ty: Ty,
}

/// Compiles one code unit. `offset` is where the code text starts in the ruleset file,
/// so spans map to file positions. The ruleset is only read: what compiling adds to it
/// (new symbols, the types of emitted fields) goes into `out`.
pub(crate) struct Compiler<'r> {
    pub rs: &'r Ruleset,
    /// What the compiling adds, for the loader to store.
    pub out: &'r mut Products,
    pub unit: u32,
    pub offset: usize,
    scopes: Vec<HashMap<String, Local>>,
    next_slot: u16,
    max_slot: u16,
    loops: u32,
    /// Procedures being compiled, to find cycles.
    pub resolver: &'r mut dyn ProcResolver,
    /// Every use of an entry a layer removed, in the order met: compiling goes on after
    /// one, so that each use gets its own error (see [`Compiler::finish`]).
    removed_uses: Vec<Diagnostic>,
    /// Each `return` met: where, the type of its value (none for a `return` alone), and
    /// whether it is an integer or nothing (what a trigger may return, see
    /// [`Compiler::trigger_body`]); a procedure's are checked by [`Compiler::valued_body`].
    returned: Vec<(ast::Span, Ty, bool)>,
    /// Whether a value of type `any` met here stands for an error already reported (a use
    /// of a removed entry, a call of a procedure or table that failed to compile): the
    /// code fails to load anyway, and such a value brings no second error.
    after_error: bool,
}

/// A procedure or table a [`ProcResolver`] found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Resolved {
    /// Its index among the ruleset's procedures or tables.
    pub idx: u16,
    /// Its result or value type.
    pub ty: Ty,
    /// Its own code failed to compile: its error is reported, and a use of it brings no
    /// second one.
    pub failed: bool,
}

/// Compiles procedures and tables on demand for the compiler.
pub(crate) trait ProcResolver {
    /// Compiles (if needed) the procedure and gives its index and result type; `Err` with a
    /// diagnostic for a cycle or an error inside it. What compiling adds goes into `out`;
    /// the compiled code stays with the resolver.
    fn procedure(
        &mut self,
        rs: &Ruleset,
        out: &mut Products,
        name: &str,
    ) -> Option<Result<Resolved, Diagnostic>>;
    /// Compiles (if needed) the table and gives its index and value type.
    fn table(
        &mut self,
        rs: &Ruleset,
        out: &mut Products,
        name: &str,
    ) -> Option<Result<Resolved, Diagnostic>>;
    /// Takes an error of the code being compiled beyond the one its compilation returns
    /// (each further use of a removed entry); a resolver that does not collect errors
    /// drops it (the compilation fails all the same).
    fn also_error(&mut self, _d: Diagnostic) {}
}

/// The result of compiling a piece of code: a value, or the diagnostic that stopped it.
type R<T> = Result<T, Diagnostic>;

impl<'r> Compiler<'r> {
    pub fn new(
        rs: &'r Ruleset,
        out: &'r mut Products,
        unit: u32,
        offset: usize,
        resolver: &'r mut dyn ProcResolver,
    ) -> Self {
        Compiler {
            rs,
            out,
            unit,
            offset,
            scopes: vec![HashMap::new()],
            next_slot: 0,
            max_slot: 0,
            loops: 0,
            resolver,
            removed_uses: Vec::new(),
            returned: Vec::new(),
            after_error: false,
        }
    }

    fn loc(&self, span: ast::Span) -> Loc {
        Loc {
            unit: self.unit,
            start: (self.offset + span.start) as u32,
            end: (self.offset + span.end) as u32,
        }
    }

    /// The symbol for a string, interned on top of the ruleset's.
    fn intern(&mut self, s: &str) -> crate::value::Sym {
        self.out.intern(&self.rs.symbols, s)
    }

    fn err(&self, span: ast::Span, msg: impl Into<String>) -> Diagnostic {
        let file = self.rs.file.clone();
        let rule = self.rs.units[self.unit as usize].rule.clone();
        Diagnostic::error(msg)
            .at(&file, (self.offset + span.start, self.offset + span.end))
            .in_rule(rule)
    }

    /// Declares a parameter or local, giving its slot.
    pub fn declare(&mut self, name: &str, ty: Ty) -> u16 {
        let slot = self.next_slot;
        self.next_slot += 1;
        self.max_slot = self.max_slot.max(self.next_slot);
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), Local { slot, ty });
        }
        slot
    }

    fn lookup_local(&self, name: &str) -> Option<Local> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self, saved_slot: u16) {
        self.scopes.pop();
        self.next_slot = saved_slot;
    }

    /// Compiles a body; gives the code and the type of its value.
    pub fn body(&mut self, b: &ast::Block) -> R<(Code, Ty)> {
        let r = self.block_inner(b).map(|(block, ty)| {
            (
                Code {
                    body: block,
                    slots: self.max_slot,
                },
                ty,
            )
        });
        self.finish(r)
    }

    /// Compiles a lone expression (a condition) as code.
    pub fn condition(&mut self, e: &ast::Expr) -> R<Code> {
        let r = self.expr(e).and_then(|n| {
            self.expect(&n.1, Ty::Bool, e.span, "a condition")?;
            Ok(Code {
                body: Block {
                    stmts: vec![Stmt::Expr(n.0)].into_boxed_slice(),
                },
                slots: self.max_slot,
            })
        });
        self.finish(r)
    }

    fn block(&mut self, b: &ast::Block) -> R<(Block, Ty)> {
        let saved = self.next_slot;
        self.push_scope();
        let r = self.block_inner(b);
        self.pop_scope(saved);
        r
    }

    fn block_inner(&mut self, b: &ast::Block) -> R<(Block, Ty)> {
        let mut stmts = Vec::with_capacity(b.stmts.len());
        let mut ty = Ty::None;
        for s in &b.stmts {
            let (st, t) = self.stmt(s)?;
            ty = t;
            stmts.push(st);
        }
        Ok((
            Block {
                stmts: stmts.into_boxed_slice(),
            },
            ty,
        ))
    }

    /// Whether a value of type `got` may stand where `want` is wanted. Stricter than
    /// [`Ty::fits`]: a value of type `any` (`none`, an `if` without `else` or whose
    /// branches differ, a `match` whose arms differ) is no boolean and no integer, so that
    /// every value the machine reads as one (`as_bool` and `as_int` in [`crate::vm`]) is
    /// one. After an error (see `after_error`), a value of type `any` fits everywhere.
    fn fits(&self, got: Ty, want: Ty) -> bool {
        got.fits(want)
            && !(got == Ty::Any && matches!(want, Ty::Bool | Ty::Int) && !self.after_error)
    }

    fn expect(&self, got: &Ty, want: Ty, span: ast::Span, what: &str) -> R<()> {
        if self.fits(*got, want) {
            Ok(())
        } else {
            let got = shown(*got);
            Err(self.err(
                span,
                format!("type error: {what} must be {want}, found {got}"),
            ))
        }
    }
}

/// How a type error names the type of a value it found: `any` is told as what makes one.
pub(crate) fn shown(t: Ty) -> String {
    match t {
        Ty::Any => "a value of no single type (`none`, an `if` without `else`, or branches of different types)".to_string(),
        t => t.to_string(),
    }
}
