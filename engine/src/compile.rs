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

use fuba_grammar::ast::{self, BinOp, ExprKind, StmtKind, UnOp};

use crate::ir::*;
use crate::prims::Prim;
use crate::ruleset::Ruleset;
use crate::ruleset::diag::Diagnostic;
use crate::value::{Ty, Value};

mod prompt;
mod removed;

/// What a name in scope refers to.
#[derive(Clone, Copy)]
struct Local {
    slot: u16,
    ty: Ty,
}

/// Compiles one code unit. `offset` is where the code text starts in the ruleset file,
/// so spans map to file positions.
pub(crate) struct Compiler<'r> {
    pub rs: &'r mut Ruleset,
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
}

/// Compiles procedures and tables on demand for the compiler.
pub(crate) trait ProcResolver {
    /// Compiles (if needed) the procedure and gives its index and result type; `Err` with a
    /// diagnostic for a cycle or an error inside it.
    fn procedure(&mut self, rs: &mut Ruleset, name: &str) -> Option<Result<(u16, Ty), Diagnostic>>;
    /// Compiles (if needed) the table and gives its index and value type.
    fn table(&mut self, rs: &mut Ruleset, name: &str) -> Option<Result<(u16, Ty), Diagnostic>>;
    /// Takes an error of the code being compiled beyond the one its compilation returns
    /// (each further use of a removed entry); a resolver that does not collect errors
    /// drops it (the compilation fails all the same).
    fn also_error(&mut self, _d: Diagnostic) {}
}

type R<T> = Result<T, Diagnostic>;

pub(crate) fn closest_name<'a>(
    want: &str,
    names: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    names
        .map(|n| (edit_distance(want, n), n))
        .filter(|(d, n)| *d <= 2.max(want.len() / 3) && *d < n.len())
        .min()
        .map(|(_, n)| n)
}

/// Levenshtein distance, for "did you mean" hints.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

impl<'r> Compiler<'r> {
    pub fn new(
        rs: &'r mut Ruleset,
        unit: u32,
        offset: usize,
        resolver: &'r mut dyn ProcResolver,
    ) -> Self {
        Compiler {
            rs,
            unit,
            offset,
            scopes: vec![HashMap::new()],
            next_slot: 0,
            max_slot: 0,
            loops: 0,
            resolver,
            removed_uses: Vec::new(),
        }
    }

    fn loc(&self, span: ast::Span) -> Loc {
        Loc {
            unit: self.unit,
            start: (self.offset + span.start) as u32,
            end: (self.offset + span.end) as u32,
        }
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

    fn expect(&self, got: &Ty, want: Ty, span: ast::Span, what: &str) -> R<()> {
        if got.fits(want) {
            Ok(())
        } else {
            Err(self.err(
                span,
                format!("type error: {what} must be {want}, found {got}"),
            ))
        }
    }

    fn stmt(&mut self, s: &ast::Stmt) -> R<(Stmt, Ty)> {
        Ok(match &s.kind {
            StmtKind::Let { pattern, value } => {
                let (n, ty) = self.expr(value)?;
                match pattern {
                    ast::LetPattern::Name(id) => {
                        let slot = self.declare(&id.name, ty);
                        (Stmt::Let(slot, n), Ty::None)
                    }
                    ast::LetPattern::Pair(a, b) => {
                        self.expect(&ty, Ty::Move, value.span, "the value of `let (a, b)`")?;
                        let sa = self.declare(&a.name, Ty::Area);
                        let sb = self.declare(&b.name, Ty::Area);
                        (Stmt::LetPair(sa, sb, n), Ty::None)
                    }
                }
            }
            StmtKind::Set {
                name,
                field,
                index,
                op,
                value,
            } => {
                if let Some(f) = field {
                    return Err(self.err(
                        f.span,
                        format!("`{}` is not an entry of a collection", name.name),
                    ));
                }
                let (v, vty) = self.expr(value)?;
                if !matches!(op, ast::AssignOp::Assign) {
                    self.expect(&vty, Ty::Int, value.span, "the value added or taken")?;
                }
                if let Some(l) = self.lookup_local(&name.name) {
                    if index.is_some() {
                        return Err(self.err(
                            name.span,
                            format!("`{}` is a local, not a per-team variable", name.name),
                        ));
                    }
                    let want = if matches!(op, ast::AssignOp::Assign) {
                        l.ty
                    } else {
                        Ty::Int
                    };
                    if !(vty.fits(want) || l.ty == Ty::Moves && vty == Ty::Moves) {
                        return Err(self.err(
                            value.span,
                            format!("type error: `{}` holds {}, found {vty}", name.name, l.ty),
                        ));
                    }
                    return Ok((Stmt::SetLocal(l.slot, *op, v), Ty::None));
                }
                let Some((var, ty)) = self.rs.var(&name.name) else {
                    let hint = closest_name(&name.name, self.rs.var_names());
                    let mut d = self.err(name.span, format!("unknown variable `{}`", name.name));
                    d = match hint {
                        Some(h) => d.hint(format!("did you mean `{h}`?")),
                        None => d.hint("state variables are declared under [state.match], [state.team], [state.turn] or [state.team_turn]"),
                    };
                    return Err(d);
                };
                let per_team = matches!(var.scope, Scope::Team | Scope::TeamTurn);
                let idx = match (per_team, index) {
                    (true, Some(i)) => {
                        let (n, t) = self.expr(i)?;
                        self.expect(&t, Ty::Team, i.span, "the index of a per-team variable")?;
                        Some(n)
                    }
                    (false, None) => None,
                    (true, None) => {
                        return Err(self.err(
                            name.span,
                            format!(
                                "`{}` is held per team: write `{}[team]`",
                                name.name, name.name
                            ),
                        ));
                    }
                    (false, Some(i)) => {
                        return Err(
                            self.err(i.span, format!("`{}` is not held per team", name.name))
                        );
                    }
                };
                let want = if matches!(op, ast::AssignOp::Assign) {
                    ty
                } else {
                    Ty::Int
                };
                if !vty.fits(want) {
                    return Err(self.err(
                        value.span,
                        format!("type error: `{}` holds {ty}, found {vty}", name.name),
                    ));
                }
                (Stmt::SetVar(var, idx, *op, v, self.loc(s.span)), Ty::None)
            }
            StmtKind::Repeat { count, body } => {
                let (n, t) = self.expr(count)?;
                self.expect(&t, Ty::Int, count.span, "the count of `repeat`")?;
                self.loops += 1;
                let (b, _) = self.block(body)?;
                self.loops -= 1;
                (Stmt::Repeat(n, b, self.loc(count.span)), Ty::None)
            }
            StmtKind::For {
                var,
                iter,
                filter,
                body,
            } => {
                // `for x in c where p { ... }` is `for x in c { if p { ... } }`.
                let filtered;
                let body = match filter {
                    None => body,
                    Some(p) => {
                        filtered = crate::ruleset::expand::filtered(p, body);
                        &filtered
                    }
                };
                let (n, t) = self.expr(iter)?;
                let elem = self.element_type(t, iter.span)?;
                let saved = self.next_slot;
                self.push_scope();
                let slot = self.declare(&var.name, elem);
                self.loops += 1;
                let (b, _) = self.block(body)?;
                self.loops -= 1;
                self.pop_scope(saved);
                (Stmt::For(slot, n, b), Ty::None)
            }
            StmtKind::Break => {
                if self.loops == 0 {
                    return Err(self.err(s.span, "`break` outside `repeat` or `for`"));
                }
                (Stmt::Break, Ty::None)
            }
            StmtKind::Return(v) => match v {
                Some(e) => (Stmt::Return(Some(self.expr(e)?.0)), Ty::None),
                None => (Stmt::Return(None), Ty::None),
            },
            StmtKind::Emit { kind, fields } => {
                let k = self.rs.intern(&kind.value);
                let mut fs = Vec::new();
                for (name, e) in fields {
                    let f = self.rs.intern(&name.name);
                    let (n, ty) = self.expr(e)?;
                    self.rs.emit_fields.entry((k, f)).or_insert(ty);
                    fs.push((f, n));
                }
                (Stmt::Emit(k, fs.into_boxed_slice()), Ty::None)
            }
            StmtKind::Expr(e) => {
                let (n, t) = self.expr(e)?;
                (Stmt::Expr(n), t)
            }
        })
    }

    fn element_type(&self, t: Ty, span: ast::Span) -> R<Ty> {
        Ok(match t {
            Ty::Areas | Ty::Area => Ty::Area,
            Ty::Dice | Ty::List => Ty::Int,
            Ty::Moves => Ty::Move,
            Ty::Any => Ty::Any,
            _ => return Err(self.err(span, format!("type error: cannot iterate over {t}"))),
        })
    }

    fn node(&self, kind: NodeKind, span: ast::Span) -> Node {
        Node {
            kind,
            loc: self.loc(span),
            ty: Ty::Any,
        }
    }

    /// Compiles an expression; gives the node and its type (kept on the node too).
    pub fn expr(&mut self, e: &ast::Expr) -> R<(Node, Ty)> {
        let (mut n, t) = self.expr_untyped(e)?;
        n.ty = t;
        Ok((n, t))
    }

    fn expr_untyped(&mut self, e: &ast::Expr) -> R<(Node, Ty)> {
        let sp = e.span;
        Ok(match &e.kind {
            ExprKind::Int(n) => (self.node(NodeKind::Const(Value::Int(*n)), sp), Ty::Int),
            ExprKind::Bool(b) => (self.node(NodeKind::Const(Value::Bool(*b)), sp), Ty::Bool),
            ExprKind::Str(s) => {
                let sym = self.rs.intern(s);
                (self.node(NodeKind::Const(Value::Str(sym)), sp), Ty::Str)
            }
            ExprKind::None => (self.node(NodeKind::Const(Value::None), sp), Ty::Any),
            ExprKind::Name(id) => self.name(id)?,
            ExprKind::List(items) => {
                let mut nodes = Vec::new();
                let mut elem = Ty::Any;
                for it in items {
                    let (n, t) = self.expr(it)?;
                    let t = if t == Ty::Areas { Ty::Area } else { t };
                    if elem == Ty::Any {
                        elem = t;
                    } else if !t.fits(elem) {
                        return Err(self.err(it.span, format!("type error: a list holds areas or integers, not both ({elem} and {t})")));
                    }
                    nodes.push(n);
                }
                match elem {
                    Ty::Int => (
                        self.node(NodeKind::IntList(nodes.into_boxed_slice()), sp),
                        Ty::List,
                    ),
                    Ty::Area | Ty::Any => (
                        self.node(NodeKind::AreaList(nodes.into_boxed_slice()), sp),
                        Ty::Areas,
                    ),
                    other => {
                        return Err(self.err(
                            sp,
                            format!("type error: a list holds areas or integers, not {other}"),
                        ));
                    }
                }
            }
            ExprKind::Call { name, args } => self.call(name, args, sp)?,
            ExprKind::Index { base, index } => self.index(base, index, sp)?,
            ExprKind::Field { base, field } => {
                let (b, t) = self.expr(base)?;
                self.expect(&t, Ty::Move, base.span, "the value before `.`")?;
                match field.name.as_str() {
                    "from" => (
                        self.node(NodeKind::MoveEnd(Box::new(b), true), sp),
                        Ty::Area,
                    ),
                    "to" => (
                        self.node(NodeKind::MoveEnd(Box::new(b), false), sp),
                        Ty::Area,
                    ),
                    "keeper" => (self.node(NodeKind::MoveKeeper(Box::new(b)), sp), Ty::Bool),
                    other => {
                        return Err(self.err(
                            field.span,
                            format!("a move has fields `from`, `to` and `keeper`, not `{other}`"),
                        ));
                    }
                }
            }
            ExprKind::Unary { op, expr } => {
                let (n, t) = self.expr(expr)?;
                match op {
                    UnOp::Not => {
                        self.expect(&t, Ty::Bool, expr.span, "the operand of `not`")?;
                        (self.node(NodeKind::Not(Box::new(n)), sp), Ty::Bool)
                    }
                    UnOp::Neg => {
                        self.expect(&t, Ty::Int, expr.span, "the operand of `-`")?;
                        (self.node(NodeKind::Neg(Box::new(n)), sp), Ty::Int)
                    }
                    UnOp::Plus => {
                        self.expect(&t, Ty::Int, expr.span, "the operand of `+`")?;
                        (n, Ty::Int)
                    }
                }
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, sp)?,
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                let (c, ct) = self.expr(cond)?;
                self.expect(&ct, Ty::Bool, cond.span, "the condition of `if`")?;
                let (t, tt) = self.block(then)?;
                let (o, ot) = match otherwise {
                    Some(o) => {
                        let (n, t) = self.expr(o)?;
                        (Some(Box::new(n)), t)
                    }
                    None => (None, Ty::None),
                };
                let ty = match (tt, ot) {
                    (a, b) if a == b => a,
                    (Ty::Area, Ty::Areas) | (Ty::Areas, Ty::Area) => Ty::Areas,
                    _ => Ty::Any,
                };
                (self.node(NodeKind::If(Box::new(c), t, o), sp), ty)
            }
            ExprKind::Match { scrutinee, arms } => {
                let (s, st) = self.expr(scrutinee)?;
                let mut out = Vec::new();
                let mut ty: Option<Ty> = None;
                for arm in arms {
                    let mut pats = Vec::new();
                    for p in &arm.patterns {
                        pats.push(match p {
                            ast::Pattern::Wildcard => Pat::Any,
                            ast::Pattern::Int(n) => {
                                self.expect(
                                    &st,
                                    Ty::Int,
                                    arm.span,
                                    "a value matched against an integer",
                                )?;
                                Pat::Range(*n, *n)
                            }
                            ast::Pattern::Range(a, b) => {
                                self.expect(
                                    &st,
                                    Ty::Int,
                                    arm.span,
                                    "a value matched against a range",
                                )?;
                                Pat::Range(*a, *b)
                            }
                            ast::Pattern::Str(s) => {
                                self.expect(
                                    &st,
                                    Ty::Str,
                                    arm.span,
                                    "a value matched against a string",
                                )?;
                                Pat::Value(Value::Str(self.rs.intern(s)))
                            }
                            ast::Pattern::Bool(b) => {
                                self.expect(
                                    &st,
                                    Ty::Bool,
                                    arm.span,
                                    "a value matched against a boolean",
                                )?;
                                Pat::Value(Value::Bool(*b))
                            }
                        });
                    }
                    let (v, vt) = self.expr(&arm.value)?;
                    ty = Some(match ty {
                        None => vt,
                        Some(t) if t == vt => t,
                        Some(_) => Ty::Any,
                    });
                    out.push((pats.into_boxed_slice(), v));
                }
                (
                    self.node(NodeKind::Match(Box::new(s), out.into_boxed_slice()), sp),
                    ty.unwrap_or(Ty::None),
                )
            }
            ExprKind::Choose {
                kind,
                by,
                secret,
                prompt,
                options,
            } => {
                let k = self.rs.intern(&kind.value);
                let (b, bt) = self.expr(by)?;
                self.expect(&bt, Ty::Team, by.span, "the team after `by`")?;
                let prompt = self.prompt(prompt.as_deref())?;
                match options {
                    ast::ChooseOptions::From {
                        options,
                        skip,
                        note,
                        prefer,
                    } => {
                        let (o, ot) = self.expr(options)?;
                        let ty = match ot {
                            Ty::Areas | Ty::Area => Ty::Area,
                            Ty::Moves => Ty::Move,
                            Ty::Any => Ty::Any,
                            _ => return Err(self.err(
                                options.span,
                                format!(
                                    "type error: `choose ... from` takes areas or moves, found {ot}"
                                ),
                            )),
                        };
                        let skip = skip.as_ref().map(|s| self.rs.intern(&s.value));
                        let prefer = match prefer {
                            Some((var, score)) => {
                                let saved = self.next_slot;
                                self.push_scope();
                                let slot = self.declare(&var.name, ty);
                                let (n, st) = self.expr(score)?;
                                self.expect(&st, Ty::Int, score.span, "a `prefer` score")?;
                                self.pop_scope(saved);
                                Some((slot, Box::new(n)))
                            }
                            None => None,
                        };
                        let note = self.note(note.as_deref(), ty)?;
                        let ty = if skip.is_some() { Ty::Any } else { ty };
                        (
                            self.node(
                                NodeKind::ChooseFrom {
                                    kind: k,
                                    by: Box::new(b),
                                    secret: *secret,
                                    options: Box::new(o),
                                    skip,
                                    prefer,
                                    prompt,
                                    note,
                                },
                                sp,
                            ),
                            ty,
                        )
                    }
                    ast::ChooseOptions::Arms(arms) => {
                        let mut out = Vec::new();
                        let mut ty: Option<Ty> = None;
                        let mut seen = std::collections::HashSet::new();
                        for arm in arms {
                            if !seen.insert(arm.label.value.clone()) {
                                return Err(self.err(
                                    arm.label.span,
                                    format!("option `{}` is offered twice", arm.label.value),
                                ));
                            }
                            let l = self.rs.intern(&arm.label.value);
                            let g = match &arm.guard {
                                Some(g) => {
                                    let (n, t) = self.expr(g)?;
                                    self.expect(
                                        &t,
                                        Ty::Bool,
                                        g.span,
                                        "the condition of an option",
                                    )?;
                                    Some(n)
                                }
                                None => None,
                            };
                            let p = match &arm.prefer {
                                Some(p) => {
                                    let (n, t) = self.expr(p)?;
                                    self.expect(&t, Ty::Int, p.span, "a `prefer` score")?;
                                    Some(n)
                                }
                                None => None,
                            };
                            let (v, vt) = self.expr(&arm.value)?;
                            ty = Some(match ty {
                                None => vt,
                                Some(t) if t == vt => t,
                                Some(_) => Ty::Any,
                            });
                            out.push(Arm {
                                label: l,
                                guard: g,
                                prefer: p,
                                value: v,
                            });
                        }
                        if out.is_empty() {
                            return Err(self.err(sp, "a choice needs at least one option"));
                        }
                        (
                            self.node(
                                NodeKind::ChooseArms {
                                    kind: k,
                                    by: Box::new(b),
                                    secret: *secret,
                                    arms: out.into_boxed_slice(),
                                    prompt,
                                },
                                sp,
                            ),
                            ty.unwrap_or(Ty::None),
                        )
                    }
                }
            }
            ExprKind::Roll {
                count,
                sides,
                keep,
                by,
                label,
            } => {
                let by = match by {
                    Some(b) => {
                        let (n, t) = self.expr(b)?;
                        self.expect(&t, Ty::Team, b.span, "the team after `by`")?;
                        Some(Box::new(n))
                    }
                    None => None,
                };
                let text = match label {
                    Some(l) => l.value.clone(),
                    None => {
                        let rule = &self.rs.units[self.unit as usize].rule;
                        format!(
                            "{}d{} in {}",
                            if *count == 1 {
                                String::new()
                            } else {
                                count.to_string()
                            },
                            sides,
                            rule
                        )
                    }
                };
                let label = self.rs.intern(&text);
                let kept = keep.map_or(*count, |(_, k)| k);
                let ty = if kept == 1 { Ty::Int } else { Ty::Dice };
                (
                    self.node(
                        NodeKind::Roll {
                            count: *count as u8,
                            sides: *sides as u8,
                            keep: keep.map(|(k, n)| (k, n as u8)),
                            by,
                            label,
                        },
                        sp,
                    ),
                    ty,
                )
            }
            ExprKind::Modifiers { name, rows } => {
                let n = self.rs.intern(&name.value);
                let mut out = Vec::new();
                for r in rows {
                    let l = self.rs.intern(&r.label.value);
                    let (v, vt) = self.expr(&r.value)?;
                    self.expect(&vt, Ty::Int, r.value.span, "a modifier")?;
                    let w = match &r.when {
                        Some(w) => {
                            let (c, t) = self.expr(w)?;
                            self.expect(&t, Ty::Bool, w.span, "the condition of a modifier row")?;
                            Some(c)
                        }
                        None => None,
                    };
                    out.push((l, v, w));
                }
                (
                    self.node(
                        NodeKind::Modifiers {
                            name: n,
                            rows: out.into_boxed_slice(),
                        },
                        sp,
                    ),
                    Ty::Int,
                )
            }
            ExprKind::Quant {
                quant,
                var,
                iter,
                filter,
            } => {
                let (it, t) = self.expr(iter)?;
                let elem = self.element_type(t, iter.span)?;
                let saved = self.next_slot;
                self.push_scope();
                let slot = self.declare(&var.name, elem);
                let f = match filter {
                    Some(f) => {
                        let (n, ft) = self.expr(f)?;
                        self.expect(&ft, Ty::Bool, f.span, "the condition after `where`")?;
                        Some(Box::new(n))
                    }
                    None => None,
                };
                self.pop_scope(saved);
                let ty = if matches!(quant, ast::Quant::Count) {
                    Ty::Int
                } else {
                    Ty::Bool
                };
                (
                    self.node(NodeKind::Quant(*quant, slot, Box::new(it), f), sp),
                    ty,
                )
            }
            ExprKind::Hook { name, args } => {
                if let Some(h) = self.removed_hint(&format!("hooks.{}", name.name)) {
                    let d = self
                        .err(
                            name.span,
                            format!(
                                "hook `{}` was removed by a layer but is still reached here",
                                name.name
                            ),
                        )
                        .hint(h);
                    return Ok(self.removed_use(d, args, sp));
                }
                let Some(h) = self.rs.hooks.iter().position(|h| h.name == name.name) else {
                    let hint =
                        closest_name(&name.name, self.rs.hooks.iter().map(|h| h.name.as_str()));
                    let d = self.err(name.span, format!("unknown hook `{}`", name.name));
                    return Err(match hint {
                        Some(h) => d.hint(format!("did you mean `{h}`?")),
                        None => d.hint("hooks are declared under [hooks.NAME]"),
                    });
                };
                let params: Vec<Ty> = self.rs.hooks[h].params.iter().map(|p| p.1).collect();
                let args = self.args(&name.name, &params, args, sp)?;
                (self.node(NodeKind::Hook(h as u16, args), sp), Ty::Int)
            }
            ExprKind::Block(b) => {
                let (blk, t) = self.block(b)?;
                (self.node(NodeKind::Block(blk), sp), t)
            }
        })
    }

    fn args(
        &mut self,
        what: &str,
        params: &[Ty],
        args: &[ast::Expr],
        sp: ast::Span,
    ) -> R<Box<[Node]>> {
        if params.len() != args.len() {
            return Err(self.err(
                sp,
                format!(
                    "`{what}` takes {} argument{}, found {}",
                    params.len(),
                    if params.len() == 1 { "" } else { "s" },
                    args.len()
                ),
            ));
        }
        let mut out = Vec::new();
        for (i, (a, want)) in args.iter().zip(params).enumerate() {
            let (n, t) = self.expr(a)?;
            if !t.fits(*want) {
                return Err(self.err(
                    a.span,
                    format!(
                        "type error: argument {} of `{what}` must be {want}, found {t}",
                        i + 1
                    ),
                ));
            }
            out.push(n);
        }
        Ok(out.into_boxed_slice())
    }

    fn name(&mut self, id: &ast::Ident) -> R<(Node, Ty)> {
        let sp = id.span;
        let n = id.name.as_str();
        if let Some(l) = self.lookup_local(n) {
            return Ok((self.node(NodeKind::Local(l.slot), sp), l.ty));
        }
        if let Some((v, t)) = self.rs.constant(n) {
            return Ok((self.node(NodeKind::Const(v), sp), t));
        }
        if let Some((var, t)) = self.rs.var(n) {
            if matches!(var.scope, Scope::Team | Scope::TeamTurn) {
                return Err(self.err(sp, format!("`{n}` is held per team: write `{n}[team]`")));
            }
            return Ok((self.node(NodeKind::Var(var), sp), t));
        }
        if let Some(a) = self.rs.board.find(n) {
            return Ok((self.node(NodeKind::Const(Value::Area(a)), sp), Ty::Area));
        }
        let role = match n {
            "ct" => Some(NodeKind::Role(Role::Controlling)),
            "pt" => Some(NodeKind::Role(Role::Passive)),
            "phasing" => Some(NodeKind::Role(Role::Phasing)),
            "nonphasing" => Some(NodeKind::Role(Role::NonPhasing)),
            "home" => Some(NodeKind::Const(Value::Team(0))),
            "away" => Some(NodeKind::Const(Value::Team(1))),
            _ => None,
        };
        if let Some(k) = role {
            return Ok((self.node(k, sp), Ty::Team));
        }
        for key in [format!("tables.{n}"), format!("constants.{n}")] {
            if let Some(h) = self.removed_hint(&key) {
                let d = self
                    .err(
                        sp,
                        format!("`{n}` was removed by a layer but is still used here"),
                    )
                    .hint(h);
                return Ok(self.removed_use(d, &[], sp));
            }
        }
        let mut known: Vec<String> = self.scopes.iter().flat_map(|s| s.keys().cloned()).collect();
        known.extend(self.rs.constants.iter().map(|c| c.0.clone()));
        known.extend(self.rs.var_names().map(str::to_string));
        known.extend(self.rs.board.areas.iter().map(|a| a.name.clone()));
        known.extend(self.rs.tables.iter().map(|t| t.name.clone()));
        let hint = closest_name(n, known.iter().map(String::as_str)).map(str::to_string);
        let looks_like_area = n
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
        let msg = if looks_like_area {
            format!("unknown area `{n}`")
        } else {
            format!("unknown name `{n}`")
        };
        let d = self.err(sp, msg);
        Err(match hint {
            Some(h) => d.hint(format!("did you mean `{h}`?")),
            None if looks_like_area => d.hint(format!(
                "the board's areas are: {}",
                self.rs.board.areas.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ")
            )),
            None => d.hint("a name is a local (`let`), a parameter, a constant, a state variable, an area, or ct/pt/phasing/nonphasing/home/away"),
        })
    }

    fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], sp: ast::Span) -> R<(Node, Ty)> {
        let resolved = {
            let rs: &mut Ruleset = self.rs;
            self.resolver.procedure(rs, &name.name)
        };
        if let Some(r) = resolved {
            let (idx, ret) = r.map_err(|d| {
                if d.span.is_some() {
                    d
                } else {
                    self.err(name.span, d.message.clone())
                }
            })?;
            let params: Vec<Ty> = self.rs.procs[idx as usize]
                .params
                .iter()
                .map(|p| p.1)
                .collect();
            let args = self.args(&name.name, &params, args, sp)?;
            return Ok((self.node(NodeKind::Call(idx, args), sp), ret));
        }
        if let Some(p) = Prim::by_name(&name.name) {
            let args = self.args(&name.name, p.params(), args, sp)?;
            // Check string arguments that name board data, now rather than mid-match.
            if matches!(p, Prim::Mark | Prim::Number | Prim::HasNumber) {
                if let NodeKind::Const(Value::Str(s)) = &args[0].kind {
                    let key = self.rs.symbol(*s).to_string();
                    let ok = match p {
                        Prim::Mark => self.rs.board.marks.contains_key(&key),
                        _ => self.rs.board.numbers.contains_key(&key),
                    };
                    if !ok {
                        let what = if p == Prim::Mark { "mark" } else { "number" };
                        return Err(self
                            .err(sp, format!("the board has no {what} `{key}`"))
                            .hint(format!("declare it under [board.{what}s]")));
                    }
                }
            }
            return Ok((self.node(NodeKind::Prim(p, args), sp), p.ret()));
        }
        if let Some(h) = self.removed_hint(&format!("procedures.{}", name.name)) {
            let d = self
                .err(
                    name.span,
                    format!(
                        "procedure `{}` was removed by a layer but is still used here",
                        name.name
                    ),
                )
                .hint(h);
            return Ok(self.removed_use(d, args, sp));
        }
        let mut known: Vec<&str> = Prim::all().iter().map(|p| p.name()).collect();
        let procs: Vec<String> = self.rs.procedure_names();
        known.extend(procs.iter().map(String::as_str));
        let hint = closest_name(&name.name, known.into_iter()).map(str::to_string);
        let d = self.err(
            name.span,
            format!("unknown procedure or primitive `{}`", name.name),
        );
        Err(match hint {
            Some(h) => d.hint(format!("did you mean `{h}`?")),
            None => d.hint("see docs/primitives.md for the engine's primitives"),
        })
    }

    fn index(&mut self, base: &ast::Expr, index: &ast::Expr, sp: ast::Span) -> R<(Node, Ty)> {
        if let ExprKind::Name(id) = &base.kind {
            if self.lookup_local(&id.name).is_none() {
                let resolved = {
                    let rs: &mut Ruleset = self.rs;
                    self.resolver.table(rs, &id.name)
                };
                if let Some(r) = resolved {
                    let (t, ty) = r?;
                    let (k, kt) = self.expr(index)?;
                    let want = self.rs.tables[t as usize].domain.key_type();
                    self.expect(&kt, want, index.span, "the key of this table")?;
                    return Ok((self.node(NodeKind::Table(t, Box::new(k)), sp), ty));
                }
                if let Some((var, t)) = self.rs.var(&id.name) {
                    if matches!(var.scope, Scope::Team | Scope::TeamTurn) {
                        let (k, kt) = self.expr(index)?;
                        self.expect(
                            &kt,
                            Ty::Team,
                            index.span,
                            "the index of a per-team variable",
                        )?;
                        return Ok((self.node(NodeKind::TeamVar(var, Box::new(k)), sp), t));
                    }
                }
            }
        }
        let (b, bt) = self.expr(base)?;
        let (k, kt) = self.expr(index)?;
        self.expect(&bt, Ty::List, base.span, "the value indexed")?;
        self.expect(&kt, Ty::Int, index.span, "a list index")?;
        Ok((
            self.node(NodeKind::ListIndex(Box::new(b), Box::new(k)), sp),
            Ty::Int,
        ))
    }

    fn binary(
        &mut self,
        op: BinOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        sp: ast::Span,
    ) -> R<(Node, Ty)> {
        let (l, lt) = self.expr(lhs)?;
        let (r, rt) = self.expr(rhs)?;
        let bad = |c: &Self| {
            c.err(
                sp,
                format!("type error: `{}` cannot combine {lt} and {rt}", op.symbol()),
            )
        };
        let areaish = |t: Ty| matches!(t, Ty::Area | Ty::Areas | Ty::Any);
        let (o, ty) = match op {
            BinOp::And | BinOp::Or => {
                self.expect(&lt, Ty::Bool, lhs.span, "an operand of `and`/`or`")?;
                self.expect(&rt, Ty::Bool, rhs.span, "an operand of `and`/`or`")?;
                let k = if op == BinOp::And {
                    NodeKind::And(Box::new(l), Box::new(r))
                } else {
                    NodeKind::Or(Box::new(l), Box::new(r))
                };
                return Ok((self.node(k, sp), Ty::Bool));
            }
            BinOp::Add | BinOp::Sub
                if lt == Ty::Int && rt.fits(Ty::Int) || rt == Ty::Int && lt == Ty::Any =>
            {
                (if op == BinOp::Add { Op::Add } else { Op::Sub }, Ty::Int)
            }
            BinOp::Add | BinOp::Union if lt == Ty::Moves && rt.fits(Ty::Moves) => {
                (Op::MovesUnion, Ty::Moves)
            }
            BinOp::Add | BinOp::Union
                if areaish(lt) && areaish(rt) && (lt != Ty::Any || rt != Ty::Any) =>
            {
                (Op::Union, Ty::Areas)
            }
            BinOp::Sub if areaish(lt) && areaish(rt) => (Op::Diff, Ty::Areas),
            BinOp::Intersect if areaish(lt) && areaish(rt) => (Op::Inter, Ty::Areas),
            BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::Add | BinOp::Sub
                if lt.fits(Ty::Int) && rt.fits(Ty::Int) =>
            {
                (
                    match op {
                        BinOp::Mul => Op::Mul,
                        BinOp::Div => Op::Div,
                        BinOp::Rem => Op::Rem,
                        BinOp::Add => Op::Add,
                        _ => Op::Sub,
                    },
                    Ty::Int,
                )
            }
            BinOp::Eq | BinOp::Ne => {
                let comparable =
                    lt == rt || lt == Ty::Any || rt == Ty::Any || (areaish(lt) && areaish(rt));
                if !comparable {
                    return Err(bad(self));
                }
                (if op == BinOp::Eq { Op::Eq } else { Op::Ne }, Ty::Bool)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
                if lt.fits(Ty::Int) && rt.fits(Ty::Int) =>
            {
                (
                    match op {
                        BinOp::Lt => Op::Lt,
                        BinOp::Le => Op::Le,
                        BinOp::Gt => Op::Gt,
                        _ => Op::Ge,
                    },
                    Ty::Bool,
                )
            }
            BinOp::In => match (lt, rt) {
                (Ty::Area | Ty::Any, Ty::Areas | Ty::Area) => (Op::InAreas, Ty::Bool),
                (Ty::Int | Ty::Any, Ty::List) => (Op::InList, Ty::Bool),
                (Ty::Int | Ty::Any, Ty::Dice) => (Op::InDice, Ty::Bool),
                (Ty::Move | Ty::Any, Ty::Moves) => (Op::InMoves, Ty::Bool),
                _ => return Err(bad(self)),
            },
            _ => return Err(bad(self)),
        };
        Ok((
            self.node(NodeKind::Bin(o, Box::new(l), Box::new(r)), sp),
            ty,
        ))
    }
}
