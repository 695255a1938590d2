//! The code expander: rewrites every use of a declared collection (collections.rs) into
//! code the compiler already knows, before it is compiled.
//!
//! - `C["Name"]` (or `C[3]`, a position from 1) is the entry's name, a string; an unknown
//!   name is a located error with "did you mean". A computed `C[i]` is a `match` of `i`
//!   over the positions (`""` outside).
//! - `e.field` of a known entry is the field's value; `e.name`, `e.index` its name and
//!   position. `e.key[team]` (and `set e.key[team] = v`) is the team state variable
//!   `key_I` of entry `I`.
//! - For an entry known only when the match runs (a parameter of type `C`), the same
//!   reads are `match`es over the entry names.
//! - `for e in C [where p] { ... }`, `any|all|count e in C [where p]`, and the arms
//!   `for e in C => ...` of a `match` or `choose` are unrolled, entry by entry.
//! - `size(C)` is the number of entries; a string literal given to a parameter of type
//!   `C` must name an entry.

// A diagnostic is large, but it only travels while a ruleset loads.
#![allow(clippy::result_large_err)]

use fuba_grammar::ast::*;

use super::collections::{Collections, FieldTy, Lit};
use crate::ruleset::diag::{Diagnostic, SourceFile};

pub(super) type R<T> = Result<T, Diagnostic>;

/// What a name stands for while expanding.
#[derive(Clone, Copy)]
pub(super) enum Bind {
    /// An entry known now: (collection, entry).
    Entry(usize, usize),
    /// An entry of a collection known only when the match runs (a string).
    Dynamic(usize),
}

/// An entry some expression designates.
pub(super) enum Target {
    /// An entry known now: (collection, entry).
    Known(usize, usize),
    /// An entry of a collection, the value of an expression when the match runs.
    Computed(usize, Expr),
}

pub(super) fn mk(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

pub(super) fn lit(l: &Lit, span: Span) -> Expr {
    mk(
        match l {
            Lit::Int(i) => ExprKind::Int(*i),
            Lit::Str(s) => ExprKind::Str(s.clone()),
            Lit::Bool(b) => ExprKind::Bool(*b),
        },
        span,
    )
}

pub(super) fn name(n: &str, span: Span) -> Expr {
    mk(
        ExprKind::Name(Ident {
            name: n.to_string(),
            span,
        }),
        span,
    )
}

/// Expands the code of one rule. `params` are the rule's parameters typed by a
/// collection.
pub struct Expander<'a> {
    pub(super) colls: &'a mut Collections,
    file: &'a SourceFile,
    offset: usize,
    rule: String,
    pub(super) env: Vec<(String, Bind)>,
}

impl<'a> Expander<'a> {
    /// An expander for code at `offset` of `file`, in rule `rule`; the parameters named
    /// in `params` with a collection hold entries of it.
    pub fn new(
        colls: &'a mut Collections,
        file: &'a SourceFile,
        offset: usize,
        rule: &str,
        params: &[(String, Option<usize>)],
    ) -> Self {
        let env = params
            .iter()
            .filter_map(|(n, c)| c.map(|c| (n.clone(), Bind::Dynamic(c))))
            .collect();
        Expander {
            colls,
            file,
            offset,
            rule: rule.to_string(),
            env,
        }
    }

    /// A parsed body, expanded (unchanged when the ruleset declares no collection).
    pub fn body(&mut self, b: Block) -> R<Block> {
        if self.colls.list.is_empty() {
            return Ok(b);
        }
        self.block(&b)
    }

    /// A parsed expression (a trigger's `when`), expanded.
    pub fn expression(&mut self, e: Expr) -> R<Expr> {
        if self.colls.list.is_empty() {
            return Ok(e);
        }
        self.expr(&e)
    }

    pub(super) fn err(&self, span: Span, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(msg)
            .at(
                self.file,
                (self.offset + span.start, self.offset + span.end),
            )
            .in_rule(self.rule.clone())
    }

    pub(super) fn bound(&self, n: &str) -> Option<Bind> {
        self.env.iter().rev().find(|(m, _)| m == n).map(|(_, b)| *b)
    }

    /// The collection a bare name stands for (not shadowed by an entry's name).
    pub(super) fn collection(&self, e: &Expr) -> Option<usize> {
        match &e.kind {
            ExprKind::Name(id) if self.bound(&id.name).is_none() => self.colls.get(&id.name),
            _ => None,
        }
    }

    /// The entry of `c` a string names, or a located error with "did you mean".
    pub(super) fn entry_named(&mut self, c: usize, s: &str, span: Span) -> R<usize> {
        let col = &self.colls.list[c];
        match col.entry(s) {
            Some(i) => {
                self.colls.named.insert((c, i));
                Ok(i)
            }
            None => {
                let names = col.entries.iter().map(|e| e.name.as_str());
                let d = self.err(span, format!("`{}` has no entry \"{s}\"", col.name));
                Err(match crate::compile::closest_name(s, names) {
                    Some(h) => d.hint(format!("did you mean \"{h}\"?")),
                    None => d.hint(format!(
                        "an entry is declared with [entries.{}.\"{s}\"] and its fields ({})",
                        col.name,
                        col.fields
                            .iter()
                            .map(|(n, _)| n.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                })
            }
        }
    }

    /// The entry an expression designates, if it designates one.
    pub(super) fn target(&mut self, e: &Expr) -> R<Option<Target>> {
        match &e.kind {
            ExprKind::Name(id) => Ok(match self.bound(&id.name) {
                Some(Bind::Entry(c, i)) => Some(Target::Known(c, i)),
                Some(Bind::Dynamic(c)) => Some(Target::Computed(c, e.clone())),
                None => None,
            }),
            ExprKind::Index { base, index } => {
                let Some(c) = self.collection(base) else {
                    return Ok(None);
                };
                match &index.kind {
                    ExprKind::Str(s) => {
                        Ok(Some(Target::Known(c, self.entry_named(c, s, index.span)?)))
                    }
                    ExprKind::Int(n) => {
                        let len = self.colls.list[c].entries.len();
                        if *n < 1 || *n as usize > len {
                            return Err(self.err(
                                index.span,
                                format!("`{}` has entries 1 to {len}", self.colls.list[c].name),
                            ));
                        }
                        self.colls.named.insert((c, *n as usize - 1));
                        Ok(Some(Target::Known(c, *n as usize - 1)))
                    }
                    _ => {
                        self.colls.iterated.insert(c);
                        let i = self.expr(index)?;
                        let arms = self.colls.list[c]
                            .entries
                            .iter()
                            .enumerate()
                            .map(|(k, en)| {
                                (
                                    Pattern::Int(k as i64 + 1),
                                    mk(ExprKind::Str(en.name.clone()), e.span),
                                )
                            })
                            .collect();
                        Ok(Some(Target::Computed(
                            c,
                            self.matching(i, arms, Lit::Str(String::new()), e.span),
                        )))
                    }
                }
            }
            _ => Ok(None),
        }
    }

    /// `match x { p1 => v1, ..., _ => otherwise }`.
    pub(super) fn matching(
        &self,
        x: Expr,
        arms: Vec<(Pattern, Expr)>,
        otherwise: Lit,
        span: Span,
    ) -> Expr {
        let mut v: Vec<MatchArm> = arms
            .into_iter()
            .map(|(p, value)| MatchArm {
                patterns: vec![p],
                value,
                span,
                each: None,
            })
            .collect();
        v.push(MatchArm {
            patterns: vec![Pattern::Wildcard],
            value: lit(&otherwise, span),
            span,
            each: None,
        });
        mk(
            ExprKind::Match {
                scrutinee: Box::new(x),
                arms: v,
            },
            span,
        )
    }

    /// The value of `t.f`, or of `t.f[index]` for a per-team state.
    pub(super) fn read(
        &mut self,
        t: Target,
        f: &Ident,
        index: Option<&Expr>,
        span: Span,
    ) -> R<Expr> {
        let c = match &t {
            Target::Known(c, _) | Target::Computed(c, _) => *c,
        };
        let index = match index {
            Some(i) => Some(self.expr(i)?),
            None => None,
        };
        // Borrowed, not cloned: a collection of 41 entries copied for every field read
        // was a third of loading the 2024 rules with skills.
        let col = &self.colls.list[c];
        let per_entry = |k: usize| -> R<Expr> {
            let en = &col.entries[k];
            Ok(match (f.name.as_str(), &index) {
                ("name", None) => mk(ExprKind::Str(en.name.clone()), span),
                ("index", None) => mk(ExprKind::Int(k as i64 + 1), span),
                (key, Some(i)) if col.state(key).is_some() => mk(
                    ExprKind::Index {
                        base: Box::new(name(&format!("{key}_{}", k + 1), f.span)),
                        index: Box::new(i.clone()),
                    },
                    span,
                ),
                // (A value missing from a malformed entry is an error already.)
                (key, None) if col.field(key).is_some() => match en.values.get(key) {
                    Some(v) => lit(v, span),
                    None => lit(&Lit::zero(col.field(key).unwrap_or(FieldTy::Int)), span),
                },
                _ => return Err(self.field_error(c, f, index.is_some())),
            })
        };
        match t {
            Target::Known(_, k) => per_entry(k),
            Target::Computed(_, x) => {
                if f.name == "name" && index.is_none() {
                    return Ok(x);
                }
                let mut arms = Vec::new();
                for k in 0..col.entries.len() {
                    arms.push((Pattern::Str(col.entries[k].name.clone()), per_entry(k)?));
                }
                let otherwise = match (f.name.as_str(), &index) {
                    ("index", None) => Lit::Int(0),
                    (key, Some(_)) if col.state(key).is_some() => {
                        col.state(key).cloned().unwrap_or(Lit::Int(0))
                    }
                    (key, None) if col.field(key).is_some() => {
                        Lit::zero(col.field(key).unwrap_or(FieldTy::Int))
                    }
                    _ => return Err(self.field_error(c, f, index.is_some())),
                };
                Ok(self.matching(x, arms, otherwise, span))
            }
        }
    }

    pub(super) fn field_error(&self, c: usize, f: &Ident, indexed: bool) -> Diagnostic {
        let col = &self.colls.list[c];
        if col.state(&f.name).is_some() && !indexed {
            return self.err(
                f.span,
                format!("`{}` is held per team: write `.{}[team]`", f.name, f.name),
            );
        }
        let names: Vec<&str> = ["name", "index"]
            .into_iter()
            .chain(col.fields.iter().map(|(n, _)| n.as_str()))
            .chain(col.team_state.iter().map(|(n, _)| n.as_str()))
            .collect();
        let d = self.err(
            f.span,
            format!("an entry of `{}` has no `{}`", col.name, f.name),
        );
        match crate::compile::closest_name(&f.name, names.iter().copied()) {
            Some(h) => d.hint(format!("did you mean `{h}`?")),
            None => d.hint(format!(
                "it has {}",
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// Runs `f` with `var` bound to each entry of `c` in turn.
    pub(super) fn each<T>(
        &mut self,
        c: usize,
        var: &Ident,
        mut f: impl FnMut(&mut Self, usize) -> R<T>,
    ) -> R<Vec<T>> {
        self.colls.iterated.insert(c);
        let n = self.colls.list[c].entries.len();
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            self.env.push((var.name.clone(), Bind::Entry(c, k)));
            let r = f(self, k);
            self.env.pop();
            out.push(r?);
        }
        Ok(out)
    }
}
