//! Expressions: literals, names, lists, operators, `if`, `match`, `choose`, rolls,
//! hooks and blocks, each checked and typed into an IR [`Node`].

use fuba_grammar::ast::{self, ExprKind, UnOp};

use super::{Compiler, R, closest_name};
use crate::ir::*;
use crate::limits::{COMPILE_STACK_GROWTH, COMPILE_STACK_RED_ZONE};
use crate::value::{Ty, Value};

impl Compiler<'_> {
    /// A node of `kind` written at `span` (typed by [`Compiler::expr`]).
    pub(super) fn node(&self, kind: NodeKind, span: ast::Span) -> Node {
        Node {
            kind,
            loc: self.loc(span),
            ty: Ty::Any,
        }
    }

    /// Compiles an expression; gives the node and its type (kept on the node too).
    pub fn expr(&mut self, e: &ast::Expr) -> R<(Node, Ty)> {
        // Expressions nest, and a call compiles the procedure it names first: the host
        // stack grows on demand at every level, so that no shape of code overflows it
        // (a level's frames are large in a debug build; `limits::COMPILE_STACK_RED_ZONE`).
        let (mut n, t) = stacker::maybe_grow(COMPILE_STACK_RED_ZONE, COMPILE_STACK_GROWTH, || {
            self.expr_untyped(e)
        })?;
        n.ty = t;
        Ok((n, t))
    }

    /// Compiles an expression; gives the node, not yet typed, and its type.
    pub(super) fn expr_untyped(&mut self, e: &ast::Expr) -> R<(Node, Ty)> {
        let sp = e.span;
        Ok(match &e.kind {
            ExprKind::Int(n) => (self.node(NodeKind::Const(Value::Int(*n)), sp), Ty::Int),
            ExprKind::Bool(b) => (self.node(NodeKind::Const(Value::Bool(*b)), sp), Ty::Bool),
            ExprKind::Str(s) => {
                let sym = self.intern(s);
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
                                Pat::Value(Value::Str(self.intern(s)))
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
                let k = self.intern(&kind.value);
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
                        let skip = skip.as_ref().map(|s| self.intern(&s.value));
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
                            let l = self.intern(&arm.label.value);
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
                let label = self.intern(&text);
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
                let n = self.intern(&name.value);
                let mut out = Vec::new();
                for r in rows {
                    let l = self.intern(&r.label.value);
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
}
