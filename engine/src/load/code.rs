//! Code in a ruleset: where a piece of code starts in the file, its parse errors, its
//! parameter lists, and the [`Resolver`] that compiles procedures and tables on first use.

// A diagnostic is large, but it only travels while a ruleset loads.
#![allow(clippy::result_large_err)]

use fuba_grammar::ast;

use crate::compile::{Compiler, ProcResolver, Products, Resolved};
use crate::ir::Code;
use crate::limits::{COMPILE_STACK_GROWTH, COMPILE_STACK_RED_ZONE};
use crate::ruleset::diag::{Diagnostic, SourceFile};
use crate::ruleset::model::Ruleset;
use crate::value::Ty;

use super::collections::Collections;
use super::expand::Expander;

/// Offset of a code string's first character, from the span of its TOML value.
pub(super) fn code_offset(file: &SourceFile, span: std::ops::Range<usize>) -> usize {
    let t = &file.text[span.start.min(file.text.len())..];
    let skip = if t.starts_with("'''") || t.starts_with("\"\"\"") {
        3 + if t[3..].starts_with("\r\n") {
            2
        } else if t[3..].starts_with('\n') {
            1
        } else {
            0
        }
    } else {
        1
    };
    span.start + skip
}

/// The span of a TOML value, as the diagnostics take it.
pub(super) fn value_span<T>(s: &toml::Spanned<T>) -> (usize, usize) {
    (s.span().start, s.span().end)
}

/// A parse error of the code of `rule`, whose text starts at `base` in the file.
pub(super) fn parse_error(
    file: &SourceFile,
    base: usize,
    rule: &str,
    e: fuba_grammar::ParseError,
) -> Diagnostic {
    let s = e.span();
    let d = Diagnostic::error(format!("in rule: {e}"))
        .at(file, (base + s.start, base + s.end.max(s.start + 1)))
        .in_rule(rule);
    match e {
        fuba_grammar::ParseError::TooDeep { .. } => {
            d.hint("split the rule into smaller procedures")
        }
        _ => d.hint("see docs/effect-language.md for the language"),
    }
}

/// A body's text (starting at `offset` in the file) parsed and its collections expanded,
/// `params` the rule's collection-typed parameters; a syntax or expansion error is pushed,
/// located in `rule`, and gives `None`.
pub(super) fn expanded_body(
    file: &SourceFile,
    offset: usize,
    rule: &str,
    text: &str,
    colls: &mut Collections,
    params: &[(String, Option<usize>)],
    errors: &mut Vec<Diagnostic>,
) -> Option<ast::Block> {
    let mut x = Expander::new(colls, file, offset, rule, params);
    let parsed = fuba_grammar::parse_body(text).map(|b| x.body(b));
    expanded(file, offset, rule, parsed, errors)
}

/// An expression's text parsed and expanded as [`expanded_body`] does a body's.
pub(super) fn expanded_expression(
    file: &SourceFile,
    offset: usize,
    rule: &str,
    text: &str,
    colls: &mut Collections,
    errors: &mut Vec<Diagnostic>,
) -> Option<ast::Expr> {
    let mut x = Expander::new(colls, file, offset, rule, &[]);
    let parsed = fuba_grammar::parse_expression(text).map(|e| x.expression(e));
    expanded(file, offset, rule, parsed, errors)
}

/// Code parsed and expanded, or its syntax or expansion error pushed.
fn expanded<T>(
    file: &SourceFile,
    offset: usize,
    rule: &str,
    parsed: Result<Result<T, Diagnostic>, fuba_grammar::ParseError>,
    errors: &mut Vec<Diagnostic>,
) -> Option<T> {
    match parsed {
        Ok(Ok(t)) => Some(t),
        Ok(Err(d)) => {
            errors.push(d);
            None
        }
        Err(e) => {
            errors.push(parse_error(file, offset, rule, e));
            None
        }
    }
}

/// Parsed code waiting to be compiled.
pub(super) struct Pending {
    /// The code, its collections expanded.
    pub body: ast::Block,
    /// Where its text starts in the file.
    pub offset: usize,
    /// Its code unit.
    pub unit: u32,
}

/// How far the compiling of a procedure or a table has come.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// Parsed, not compiled yet.
    Waiting,
    /// Being compiled (reaching it again is a cycle).
    Compiling,
    /// Compiled.
    Done,
    /// Its code has an error.
    Failed,
}

/// What the steps that load code (procedures, tables, triggers) share: the file, the
/// declared collections, the resolver their code waits in, and the errors found.
pub(super) struct CodeLoad<'a> {
    /// The ruleset's file, for places in messages.
    pub file: &'a SourceFile,
    /// The declared collections, whose entries expand in code.
    pub colls: &'a mut Collections,
    /// Where code waits to be compiled.
    pub resolver: &'a mut Resolver,
    /// The errors found so far.
    pub errors: &'a mut Vec<Diagnostic>,
}

/// Compiles procedures and tables on first use, so that a call knows the type of what it
/// calls; finds a procedure or table that reaches itself. It reads the ruleset and keeps
/// what it compiles; [`Resolver::compile_waiting`] stores it in the ruleset.
#[derive(Default)]
pub(super) struct Resolver {
    /// The code of each procedure, until it is compiled.
    procs: Vec<Option<Pending>>,
    /// How far each procedure has come.
    proc_state: Vec<State>,
    /// Each procedure's result type (`any` until it is compiled, and if it fails).
    proc_ret: Vec<Ty>,
    /// Each procedure's compiled code, until it is stored in the ruleset.
    proc_code: Vec<Option<Code>>,
    /// The code of each row of each table, until the table is compiled.
    tables: Vec<Vec<Option<Pending>>>,
    /// How far each table has come.
    table_state: Vec<State>,
    /// Each table's value type (`any` until it is compiled).
    table_ty: Vec<Ty>,
    /// The compiled code of each table's rows (by row), until it is stored in the ruleset.
    row_code: Vec<Vec<(usize, Code)>>,
    /// The errors found while compiling.
    pub errors: Vec<Diagnostic>,
    /// The procedures and tables being compiled, outermost first.
    stack: Vec<String>,
}

impl ProcResolver for Resolver {
    fn procedure(
        &mut self,
        rs: &Ruleset,
        out: &mut Products,
        name: &str,
    ) -> Option<Result<Resolved, Diagnostic>> {
        let idx = rs.procedure(name)? as usize;
        let found = |ty, failed| Resolved {
            idx: idx as u16,
            ty,
            failed,
        };
        Some(match self.proc_state[idx] {
            State::Done => Ok(found(self.proc_ret[idx], false)),
            State::Failed => Ok(found(Ty::Any, true)),
            State::Compiling => Err(Diagnostic::error(format!(
                "procedure `{name}` reaches itself ({} -> {name}); the language has no recursion",
                self.stack.join(" -> ")
            ))),
            State::Waiting => {
                self.compile_proc(rs, out, idx);
                let failed = matches!(self.proc_state[idx], State::Failed);
                Ok(found(self.proc_ret[idx], failed))
            }
        })
    }

    fn table(
        &mut self,
        rs: &Ruleset,
        out: &mut Products,
        name: &str,
    ) -> Option<Result<Resolved, Diagnostic>> {
        let idx = rs.table(name)? as usize;
        let found = |ty, failed| Resolved {
            idx: idx as u16,
            ty,
            failed,
        };
        Some(match self.table_state[idx] {
            State::Done => Ok(found(self.table_ty[idx], false)),
            State::Failed => Ok(found(self.table_ty[idx], true)),
            State::Compiling => Err(Diagnostic::error(format!(
                "table `{name}` reaches itself ({} -> {name})",
                self.stack.join(" -> ")
            ))),
            State::Waiting => {
                self.compile_table(rs, out, idx);
                let failed = matches!(self.table_state[idx], State::Failed);
                Ok(found(self.table_ty[idx], failed))
            }
        })
    }

    fn also_error(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }
}

impl Resolver {
    /// Takes a procedure's code (`None` when it could not be parsed) to compile on first use.
    pub(super) fn add_procedure(&mut self, code: Option<Pending>) {
        self.proc_state.push(if code.is_some() {
            State::Waiting
        } else {
            State::Failed
        });
        self.procs.push(code);
        self.proc_ret.push(Ty::Any);
        self.proc_code.push(None);
    }

    /// Takes the code of a table's rows (`None` for a row that could not be parsed) to
    /// compile on first use.
    pub(super) fn add_table(&mut self, rows: Vec<Option<Pending>>) {
        self.table_state.push(State::Waiting);
        self.tables.push(rows);
        self.table_ty.push(Ty::Any);
        self.row_code.push(Vec::new());
    }

    /// Compiles procedure `idx`.
    fn compile_proc(&mut self, rs: &Ruleset, out: &mut Products, idx: usize) {
        let Some(p) = self.procs[idx].take() else {
            return;
        };
        self.proc_state[idx] = State::Compiling;
        self.stack.push(rs.procs[idx].name.clone());
        let params = rs.procs[idx].params.clone();
        let name = rs.procs[idx].name.clone();
        // A procedure compiles the procedures it calls first, so compiling nests as deep as
        // the longest chain of calls: grow the host stack on demand.
        let result = stacker::maybe_grow(COMPILE_STACK_RED_ZONE, COMPILE_STACK_GROWTH, || {
            let mut c = Compiler::new(rs, out, p.unit, p.offset, self);
            for (n, t) in &params {
                c.declare(n, *t);
            }
            c.valued_body(&p.body, &format!("procedure `{name}`"))
        });
        self.stack.pop();
        match result {
            Ok((code, ty)) => {
                self.proc_code[idx] = Some(code);
                self.proc_ret[idx] = ty;
                self.proc_state[idx] = State::Done;
            }
            Err(d) => {
                self.errors.push(d);
                self.proc_state[idx] = State::Failed;
            }
        }
    }

    /// Compiles table `idx`, every row.
    fn compile_table(&mut self, rs: &Ruleset, out: &mut Products, idx: usize) {
        self.table_state[idx] = State::Compiling;
        self.stack.push(format!("tables.{}", rs.tables[idx].name));
        let rows = std::mem::take(&mut self.tables[idx]);
        // The type of the first row compiled, and its key.
        let mut ty: Option<(Ty, String)> = None;
        let mut failed = false;
        for (ri, p) in rows.into_iter().enumerate() {
            let Some(p) = p else { continue };
            let what = format!(
                "row `{}` of table `{}`",
                rs.tables[idx].rows[ri].key, rs.tables[idx].name
            );
            let result = stacker::maybe_grow(COMPILE_STACK_RED_ZONE, COMPILE_STACK_GROWTH, || {
                Compiler::new(rs, out, p.unit, p.offset, self).valued_body(&p.body, &what)
            });
            match result {
                Ok((code, t)) => {
                    self.row_code[idx].push((ri, code));
                    // A row of no single type (an `if` whose branches differ) makes the
                    // table's value one too; two rows of different types are an error.
                    match &mut ty {
                        None => ty = Some((t, rs.tables[idx].rows[ri].key.clone())),
                        Some((x, _)) if *x == Ty::Any || t == Ty::Any => *x = Ty::Any,
                        Some((x, first)) if *x != t && !failed => {
                            let d = row_type_error(rs, idx, ri, &p, t, *x, first);
                            self.errors.push(d);
                            failed = true;
                        }
                        Some(_) => {}
                    }
                }
                Err(d) => {
                    self.errors.push(d);
                    failed = true;
                }
            }
        }
        self.stack.pop();
        // A table whose rows differ is typed as its first row: a use of it brings no
        // second error.
        self.table_ty[idx] = ty.map_or(Ty::None, |(t, _)| t);
        self.table_state[idx] = if failed { State::Failed } else { State::Done };
    }

    /// Compiles every procedure and table not reached yet (and those they reach), and
    /// stores them and what their compiling adds in `rs`.
    pub(super) fn compile_waiting(&mut self, rs: &mut Ruleset) {
        let mut out = Products::default();
        for i in 0..rs.procs.len() {
            if self.proc_state[i] == State::Waiting {
                self.compile_proc(rs, &mut out, i);
            }
        }
        for i in 0..rs.tables.len() {
            if self.table_state[i] == State::Waiting {
                self.compile_table(rs, &mut out, i);
            }
        }
        out.store(rs);
        self.store(rs);
    }

    /// Stores the procedures and tables compiled so far in `rs`: their code and types.
    fn store(&mut self, rs: &mut Ruleset) {
        for (i, p) in rs.procs.iter_mut().enumerate() {
            if let Some(code) = self.proc_code[i].take() {
                p.code = code;
            }
            p.ret = self.proc_ret[i];
        }
        for (i, t) in rs.tables.iter_mut().enumerate() {
            for (ri, code) in self.row_code[i].drain(..) {
                t.rows[ri].code = code;
            }
            if self.table_state[i] != State::Waiting {
                t.ty = self.table_ty[i];
            }
        }
    }
}

/// The error for row `ri` of table `idx` (its code `p`), whose value is of type `t` where
/// the rows before it, from row `first`, give values of type `want`: located at the row's
/// last statement, where its value comes from.
fn row_type_error(
    rs: &Ruleset,
    idx: usize,
    ri: usize,
    p: &Pending,
    t: Ty,
    want: Ty,
    first: &str,
) -> Diagnostic {
    let table = &rs.tables[idx];
    let span = p.body.stmts.last().map_or(p.body.span, |s| s.span);
    Diagnostic::error(format!(
        "type error: row `{}` of table `{}` gives {}, but the rows before it (from row `{first}`) give {want}",
        table.rows[ri].key,
        table.name,
        crate::compile::shown(t)
    ))
    .at(&rs.file, (p.offset + span.start, p.offset + span.end))
    .in_rule(rs.units[p.unit as usize].rule.clone())
    .hint("every row of a table gives a value of one type")
}

/// A parameter list (`team: team, n: int`) of `rule`: names and types.
pub(super) fn parse_param_list(
    file: &SourceFile,
    s: &toml::Spanned<String>,
    rule: &str,
    errors: &mut Vec<Diagnostic>,
    colls: &Collections,
) -> Vec<(String, Ty)> {
    let offset = code_offset(file, s.span());
    match fuba_grammar::parse_params(s.get_ref()) {
        Ok(ps) => ps
            .into_iter()
            .map(|p| match Ty::from_name(&p.ty.name)
                // An entry of a collection is its name.
                .or_else(|| colls.get(&p.ty.name).map(|_| Ty::Str))
            {
                Some(t) => (p.name.name, t),
                None => {
                    errors.push(
                        Diagnostic::error(format!("unknown type `{}`", p.ty.name))
                            .at(file, (offset + p.ty.span.start, offset + p.ty.span.end))
                            .in_rule(rule)
                            .hint("types are int, bool, str, team, area, areas, dice, move, moves, list"),
                    );
                    // Keep the parameter (of any type) so its uses raise no further errors.
                    (p.name.name, Ty::Any)
                }
            })
            .collect(),
        Err(e) => {
            errors.push(parse_error(file, offset, rule, e));
            Vec::new()
        }
    }
}
