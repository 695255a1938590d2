//! The walk of the code expander (expand.rs) over statements and expressions: unrolls
//! loops, quantifiers, `match` arms and `choose` options over a collection, and resolves
//! look-ups, fields and per-team state of entries.

// A diagnostic is large, but it only travels while a ruleset loads.
#![allow(clippy::result_large_err)]

use fuba_grammar::ast::*;

use super::collections::Lit;
use super::expand::{Bind, Expander, R, Target, mk};

impl Expander<'_> {
    /// Expands a block.
    pub fn block(&mut self, b: &Block) -> R<Block> {
        let mut stmts = Vec::with_capacity(b.stmts.len());
        for s in &b.stmts {
            self.stmt(s, &mut stmts)?;
        }
        Ok(Block {
            stmts,
            span: b.span,
        })
    }

    pub(super) fn stmt(&mut self, s: &Stmt, out: &mut Vec<Stmt>) -> R<()> {
        let span = s.span;
        let kind = match &s.kind {
            StmtKind::Let { pattern, value } => StmtKind::Let {
                pattern: pattern.clone(),
                value: self.expr(value)?,
            },
            StmtKind::Set {
                name: n,
                field: Some(f),
                index,
                op,
                value,
            } => {
                let Some(t) = self.target(&mk(ExprKind::Name(n.clone()), n.span))? else {
                    return Err(self.err(
                        n.span,
                        format!("`{}` is not an entry of a collection", n.name),
                    ));
                };
                let Some(index) = index else {
                    return Err(self.err(
                        f.span,
                        format!(
                            "write `set {}.{}[team] ...`: a per-team state takes the team",
                            n.name, f.name
                        ),
                    ));
                };
                let value = self.expr(value)?;
                let c = match &t {
                    Target::Known(c, _) | Target::Computed(c, _) => *c,
                };
                if self.colls.list[c].state(&f.name).is_none() {
                    return Err(self.field_error(c, f, true));
                }
                let index = self.expr(index)?;
                let set = |k: usize| Stmt {
                    kind: StmtKind::Set {
                        name: Ident {
                            name: format!("{}_{}", f.name, k + 1),
                            span: f.span,
                        },
                        field: None,
                        index: Some(index.clone()),
                        op: *op,
                        value: value.clone(),
                    },
                    span,
                };
                match t {
                    Target::Known(_, k) => set(k).kind,
                    Target::Computed(_, x) => {
                        let names: Vec<String> = self.colls.list[c]
                            .entries
                            .iter()
                            .map(|e| e.name.clone())
                            .collect();
                        let arms = names
                            .into_iter()
                            .enumerate()
                            .map(|(k, en)| {
                                (
                                    Pattern::Str(en),
                                    mk(
                                        ExprKind::Block(Block {
                                            stmts: vec![set(k)],
                                            span,
                                        }),
                                        span,
                                    ),
                                )
                            })
                            .collect();
                        let m = self.matching(x, arms, Lit::Int(0), span);
                        // The `_` arm does nothing.
                        let m = match m.kind {
                            ExprKind::Match {
                                scrutinee,
                                mut arms,
                            } => {
                                if let Some(last) = arms.last_mut() {
                                    last.value = mk(ExprKind::None, span);
                                }
                                mk(ExprKind::Match { scrutinee, arms }, span)
                            }
                            k => mk(k, span),
                        };
                        StmtKind::Expr(m)
                    }
                }
            }
            StmtKind::Set {
                name: n,
                field: None,
                index,
                op,
                value,
            } => StmtKind::Set {
                name: n.clone(),
                field: None,
                index: match index {
                    Some(i) => Some(self.expr(i)?),
                    None => None,
                },
                op: *op,
                value: self.expr(value)?,
            },
            StmtKind::Repeat { count, body } => StmtKind::Repeat {
                count: self.expr(count)?,
                body: self.block(body)?,
            },
            StmtKind::For {
                var,
                iter,
                filter,
                body,
            } => {
                if let Some(c) = self.collection(iter) {
                    if let Some(at) = loop_break(body) {
                        return Err(self.err(at, "`break` in a loop over a collection: the loop is unrolled entry by entry").hint("compute what you need with `any`, `count` or a `where` filter"));
                    }
                    let unrolled = self.each(c, var, |x, _| {
                        let body = x.block(body)?;
                        Ok(match filter {
                            Some(f) => ExprKind::If {
                                cond: Box::new(x.expr(f)?),
                                then: body,
                                otherwise: None,
                            },
                            None => ExprKind::Block(body),
                        })
                    })?;
                    out.extend(unrolled.into_iter().map(|k| Stmt {
                        kind: StmtKind::Expr(mk(k, span)),
                        span,
                    }));
                    // A loop's value is `none`, also when it ends a body.
                    out.push(Stmt {
                        kind: StmtKind::Expr(mk(ExprKind::None, span)),
                        span,
                    });
                    return Ok(());
                }
                StmtKind::For {
                    var: var.clone(),
                    iter: self.expr(iter)?,
                    filter: match filter {
                        Some(f) => Some(self.expr(f)?),
                        None => None,
                    },
                    body: self.block(body)?,
                }
            }
            StmtKind::Break => StmtKind::Break,
            StmtKind::Return(v) => StmtKind::Return(match v {
                Some(e) => Some(self.expr(e)?),
                None => None,
            }),
            StmtKind::Emit { kind, fields } => StmtKind::Emit {
                kind: kind.clone(),
                fields: fields
                    .iter()
                    .map(|(n, e)| Ok((n.clone(), self.expr(e)?)))
                    .collect::<R<_>>()?,
            },
            StmtKind::Expr(e) => StmtKind::Expr(self.expr(e)?),
        };
        out.push(Stmt { kind, span });
        Ok(())
    }

    /// A prompt or note, its values expanded.
    fn prompt(&mut self, p: &Prompt) -> R<Prompt> {
        Ok(Prompt {
            parts: p
                .parts
                .iter()
                .map(|part| {
                    Ok(match part {
                        PromptPart::Text(t) => PromptPart::Text(t.clone()),
                        PromptPart::Value(v) => PromptPart::Value(Box::new(self.expr(v)?)),
                    })
                })
                .collect::<R<_>>()?,
            span: p.span,
        })
    }

    fn opt(&mut self, e: &Option<Expr>) -> R<Option<Expr>> {
        e.as_ref().map(|e| self.expr(e)).transpose()
    }

    fn boxed(&mut self, e: &Expr) -> R<Box<Expr>> {
        Ok(Box::new(self.expr(e)?))
    }

    /// Expands an expression.
    pub fn expr(&mut self, e: &Expr) -> R<Expr> {
        let span = e.span;
        let kind = match &e.kind {
            ExprKind::Name(id) => match self.bound(&id.name) {
                Some(Bind::Entry(c, k)) => {
                    ExprKind::Str(self.colls.list[c].entries[k].name.clone())
                }
                _ => {
                    if let Some(c) = self.collection(e) {
                        return Err(self.err(span, format!("`{}` is a collection, not a value", id.name)).hint(format!(
                            "iterate it (`for e in {0} {{ ... }}`), look an entry up (`{0}[\"NAME\"]`) or count it (`size({0})`)",
                            self.colls.list[c].name
                        )));
                    }
                    e.kind.clone()
                }
            },
            ExprKind::Index { base, index } => {
                if let ExprKind::Field { base: b2, field } = &base.kind {
                    if let Some(t) = self.target(b2)? {
                        return self.read(t, field, Some(index), span);
                    }
                }
                match self.target(e)? {
                    Some(Target::Known(c, k)) => {
                        ExprKind::Str(self.colls.list[c].entries[k].name.clone())
                    }
                    Some(Target::Computed(_, x)) => return Ok(x),
                    None => ExprKind::Index {
                        base: self.boxed(base)?,
                        index: self.boxed(index)?,
                    },
                }
            }
            ExprKind::Field { base, field } => match self.target(base)? {
                Some(t) => return self.read(t, field, None, span),
                None => ExprKind::Field {
                    base: self.boxed(base)?,
                    field: field.clone(),
                },
            },
            ExprKind::Call { name: n, args } => {
                if n.name == "size" && args.len() == 1 {
                    if let Some(c) = self.collection(&args[0]) {
                        self.colls.iterated.insert(c);
                        return Ok(mk(
                            ExprKind::Int(self.colls.list[c].entries.len() as i64),
                            span,
                        ));
                    }
                }
                if let Some(ps) = self.colls.params_of(&n.name).map(<[_]>::to_vec) {
                    for (a, (_, c)) in args.iter().zip(ps) {
                        if let (ExprKind::Str(s), Some(c)) = (&a.kind, c) {
                            self.entry_named(c, s, a.span)?;
                        }
                    }
                }
                ExprKind::Call {
                    name: n.clone(),
                    args: args.iter().map(|a| self.expr(a)).collect::<R<_>>()?,
                }
            }
            ExprKind::List(items) => {
                ExprKind::List(items.iter().map(|a| self.expr(a)).collect::<R<_>>()?)
            }
            ExprKind::Unary { op, expr } => ExprKind::Unary {
                op: *op,
                expr: self.boxed(expr)?,
            },
            ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary {
                op: *op,
                lhs: self.boxed(lhs)?,
                rhs: self.boxed(rhs)?,
            },
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => ExprKind::If {
                cond: self.boxed(cond)?,
                then: self.block(then)?,
                otherwise: match otherwise {
                    Some(o) => Some(self.boxed(o)?),
                    None => None,
                },
            },
            ExprKind::Match { scrutinee, arms } => {
                let scrutinee = self.boxed(scrutinee)?;
                let mut out = Vec::new();
                for a in arms {
                    match &a.each {
                        Some(each) => {
                            let c = self.collection_named(&each.collection)?;
                            let v = self.each(c, &each.var, |x, k| {
                                Ok(MatchArm {
                                    patterns: vec![Pattern::Str(
                                        x.colls.list[c].entries[k].name.clone(),
                                    )],
                                    value: x.expr(&a.value)?,
                                    span: a.span,
                                    each: None,
                                })
                            })?;
                            out.extend(v);
                        }
                        None => out.push(MatchArm {
                            patterns: a.patterns.clone(),
                            value: self.expr(&a.value)?,
                            span: a.span,
                            each: None,
                        }),
                    }
                }
                ExprKind::Match {
                    scrutinee,
                    arms: out,
                }
            }
            ExprKind::Choose {
                kind,
                by,
                secret,
                prompt,
                options,
            } => ExprKind::Choose {
                kind: kind.clone(),
                by: self.boxed(by)?,
                secret: *secret,
                prompt: match prompt {
                    Some(p) => Some(Box::new(self.prompt(p)?)),
                    None => None,
                },
                options: match options {
                    ChooseOptions::From {
                        options,
                        skip,
                        note,
                        prefer,
                    } => ChooseOptions::From {
                        options: self.boxed(options)?,
                        skip: skip.clone(),
                        note: match note {
                            Some(n) => Some(Box::new((n.0.clone(), self.prompt(&n.1)?))),
                            None => None,
                        },
                        prefer: match prefer {
                            Some((v, p)) => Some((v.clone(), self.boxed(p)?)),
                            None => None,
                        },
                    },
                    ChooseOptions::Arms(arms) => {
                        let mut out = Vec::new();
                        for a in arms {
                            let one = |x: &mut Self, label: StrLit| -> R<ChooseArm> {
                                Ok(ChooseArm {
                                    label,
                                    guard: x.opt(&a.guard)?,
                                    prefer: x.opt(&a.prefer)?,
                                    value: x.expr(&a.value)?,
                                    each: None,
                                })
                            };
                            match &a.each {
                                Some(each) => {
                                    let c = self.collection_named(&each.collection)?;
                                    let v = self.each(c, &each.var, |x, k| {
                                        let label = StrLit {
                                            value: x.colls.list[c].entries[k].name.clone(),
                                            span: a.label.span,
                                        };
                                        one(x, label)
                                    })?;
                                    out.extend(v);
                                }
                                None => out.push(one(self, a.label.clone())?),
                            }
                        }
                        ChooseOptions::Arms(out)
                    }
                },
            },
            ExprKind::Roll {
                count,
                sides,
                keep,
                by,
                label,
            } => ExprKind::Roll {
                count: *count,
                sides: *sides,
                keep: *keep,
                by: match by {
                    Some(b) => Some(self.boxed(b)?),
                    None => None,
                },
                label: label.clone(),
            },
            ExprKind::Modifiers { name: n, rows } => ExprKind::Modifiers {
                name: n.clone(),
                rows: rows
                    .iter()
                    .map(|r| {
                        Ok(ModRow {
                            label: r.label.clone(),
                            value: self.expr(&r.value)?,
                            when: self.opt(&r.when)?,
                        })
                    })
                    .collect::<R<_>>()?,
            },
            ExprKind::Quant {
                quant,
                var,
                iter,
                filter,
            } => {
                if let Some(c) = self.collection(iter) {
                    return self.quantify(*quant, c, var, filter.as_deref(), span);
                }
                ExprKind::Quant {
                    quant: *quant,
                    var: var.clone(),
                    iter: self.boxed(iter)?,
                    filter: match filter {
                        Some(f) => Some(self.boxed(f)?),
                        None => None,
                    },
                }
            }
            ExprKind::Hook { name: n, args } => ExprKind::Hook {
                name: n.clone(),
                args: args.iter().map(|a| self.expr(a)).collect::<R<_>>()?,
            },
            ExprKind::Block(b) => ExprKind::Block(self.block(b)?),
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::None => {
                e.kind.clone()
            }
        };
        Ok(mk(kind, span))
    }

    fn collection_named(&self, id: &Ident) -> R<usize> {
        self.colls.get(&id.name).ok_or_else(|| {
            let names = self.colls.list.iter().map(|c| c.name.as_str());
            let d = self.err(id.span, format!("unknown collection `{}`", id.name));
            match crate::compile::closest_name(&id.name, names) {
                Some(h) => d.hint(format!("did you mean `{h}`?")),
                None => d.hint("declare it under [collections.NAME]"),
            }
        })
    }

    /// `any|all|count e in C where p`, unrolled.
    fn quantify(
        &mut self,
        q: Quant,
        c: usize,
        var: &Ident,
        filter: Option<&Expr>,
        span: Span,
    ) -> R<Expr> {
        let conds = self.each(c, var, |x, _| match filter {
            Some(f) => x.expr(f),
            None => Ok(mk(ExprKind::Bool(true), span)),
        })?;
        let one = |n: i64| Block {
            stmts: vec![Stmt {
                kind: StmtKind::Expr(mk(ExprKind::Int(n), span)),
                span,
            }],
            span,
        };
        let join = |op: BinOp, empty: ExprKind, conds: Vec<Expr>| {
            if conds.is_empty() {
                mk(empty, span)
            } else {
                balanced(op, conds, span)
            }
        };
        Ok(match q {
            Quant::Any => join(BinOp::Or, ExprKind::Bool(false), conds),
            Quant::All => join(BinOp::And, ExprKind::Bool(true), conds),
            Quant::Count => {
                let terms = conds
                    .into_iter()
                    .map(|cond| {
                        mk(
                            ExprKind::If {
                                cond: Box::new(cond),
                                then: one(1),
                                otherwise: Some(Box::new(mk(ExprKind::Block(one(0)), span))),
                            },
                            span,
                        )
                    })
                    .collect();
                join(BinOp::Add, ExprKind::Int(0), terms)
            }
        })
    }
}

/// `a op b op c ...` as a balanced tree (evaluated left to right all the same), so that
/// a long collection does not make a deep tree.
fn balanced(op: BinOp, mut terms: Vec<Expr>, span: Span) -> Expr {
    if terms.len() == 1 {
        return terms.remove(0);
    }
    let right = terms.split_off(terms.len() / 2);
    mk(
        ExprKind::Binary {
            op,
            lhs: Box::new(balanced(op, terms, span)),
            rhs: Box::new(balanced(op, right, span)),
        },
        span,
    )
}

/// The first `break` of a loop body that would leave that loop (not one of a loop
/// inside it).
fn loop_break(b: &Block) -> Option<Span> {
    b.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Break => Some(s.span),
        StmtKind::Repeat { .. } | StmtKind::For { .. } => None,
        StmtKind::Let { value: e, .. } | StmtKind::Set { value: e, .. } | StmtKind::Expr(e) => {
            expr_break(e)
        }
        StmtKind::Return(Some(e)) => expr_break(e),
        _ => None,
    })
}

fn expr_break(e: &Expr) -> Option<Span> {
    match &e.kind {
        ExprKind::Block(b) => loop_break(b),
        ExprKind::If {
            cond,
            then,
            otherwise,
        } => expr_break(cond)
            .or_else(|| loop_break(then))
            .or_else(|| otherwise.as_deref().and_then(expr_break)),
        ExprKind::Match { arms, .. } => arms.iter().find_map(|a| expr_break(&a.value)),
        ExprKind::Choose {
            options: ChooseOptions::Arms(arms),
            ..
        } => arms.iter().find_map(|a| expr_break(&a.value)),
        ExprKind::Binary { lhs, rhs, .. } => expr_break(lhs).or_else(|| expr_break(rhs)),
        ExprKind::Unary { expr, .. } => expr_break(expr),
        _ => None,
    }
}
