//! Statements: `let`, assignments to locals and state variables, `repeat`, `for`,
//! `break`, `return`, `emit`, and expressions used as statements.

use fuba_grammar::ast::{self, StmtKind};

use super::{Compiler, R, closest_name, shown};
use crate::ir::*;
use crate::value::Ty;

impl Compiler<'_> {
    /// Compiles a statement; gives it and the type of its value (an expression's, else
    /// none).
    pub(super) fn stmt(&mut self, s: &ast::Stmt) -> R<(Stmt, Ty)> {
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
                    if !(self.fits(vty, want) || l.ty == Ty::Moves && vty == Ty::Moves) {
                        return Err(self.err(
                            value.span,
                            format!(
                                "type error: `{}` holds {}, found {}",
                                name.name,
                                l.ty,
                                shown(vty)
                            ),
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
                if !self.fits(vty, want) {
                    return Err(self.err(
                        value.span,
                        format!(
                            "type error: `{}` holds {ty}, found {}",
                            name.name,
                            shown(vty)
                        ),
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
                        filtered = filtered_body(p, body);
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
                Some(e) => {
                    let (n, t) = self.expr(e)?;
                    self.returned
                        .push((e.span, t, super::trigger::int_or_nothing(&n)));
                    (Stmt::Return(Some(n)), Ty::None)
                }
                None => {
                    self.returned.push((s.span, Ty::None, true));
                    (Stmt::Return(None), Ty::None)
                }
            },
            StmtKind::Emit { kind, fields } => {
                let k = self.intern(&kind.value);
                let mut fs = Vec::new();
                for (name, e) in fields {
                    let f = self.intern(&name.name);
                    let (n, ty) = self.expr(e)?;
                    self.out.emit_field(self.rs, (k, f), ty);
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

    /// The type of the elements a `for` loop walks over a value of type `t`.
    pub(super) fn element_type(&self, t: Ty, span: ast::Span) -> R<Ty> {
        Ok(match t {
            Ty::Areas | Ty::Area => Ty::Area,
            Ty::Dice | Ty::List => Ty::Int,
            Ty::Moves => Ty::Move,
            Ty::Any => Ty::Any,
            _ => return Err(self.err(span, format!("type error: cannot iterate over {t}"))),
        })
    }
}

/// `for p in c where f { body }` as `for p in c { if f { body } }`: the body of a loop with a
/// filter.
fn filtered_body(f: &ast::Expr, body: &ast::Block) -> ast::Block {
    let span = body.span;
    let test = ast::ExprKind::If {
        cond: Box::new(f.clone()),
        then: body.clone(),
        otherwise: None,
    };
    ast::Block {
        stmts: vec![ast::Stmt {
            kind: StmtKind::Expr(ast::Expr { kind: test, span }),
            span,
        }],
        span,
    }
}
