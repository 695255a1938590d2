//! Calls and look-ups: arguments checked against parameters, procedures (compiled on
//! demand by the resolver), primitives, table look-ups, per-team variables and list
//! indexing.

use fuba_grammar::ast::{self, ExprKind};

use super::{Compiler, R, Resolved, closest_name, shown};
use crate::ir::*;
use crate::prims::Prim;
use crate::value::{Ty, Value};

impl Compiler<'_> {
    /// The arguments of a call of `what`, each checked against its parameter's type.
    pub(super) fn args(
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
            if !self.fits(t, *want) {
                return Err(self.err(
                    a.span,
                    format!(
                        "type error: argument {} of `{what}` must be {want}, found {}",
                        i + 1,
                        shown(t)
                    ),
                ));
            }
            out.push(n);
        }
        Ok(out.into_boxed_slice())
    }

    /// A call: of a procedure (compiled on demand), else of a primitive.
    pub(super) fn call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        sp: ast::Span,
    ) -> R<(Node, Ty)> {
        let resolved = self.resolver.procedure(self.rs, self.out, &name.name);
        if let Some(r) = resolved {
            let Resolved {
                idx,
                ty: ret,
                failed,
            } = r.map_err(|d| {
                if d.span.is_some() {
                    d
                } else {
                    self.err(name.span, d.message.clone())
                }
            })?;
            self.after_error |= failed;
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
                    let key = self.out.name(&self.rs.symbols, *s).to_string();
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

    /// `base[index]`: a table look-up, a per-team variable, or an entry of a list.
    pub(super) fn index(
        &mut self,
        base: &ast::Expr,
        index: &ast::Expr,
        sp: ast::Span,
    ) -> R<(Node, Ty)> {
        if let ExprKind::Name(id) = &base.kind {
            if self.lookup_local(&id.name).is_none() {
                let resolved = self.resolver.table(self.rs, self.out, &id.name);
                if let Some(r) = resolved {
                    let Resolved { idx: t, ty, failed } = r?;
                    self.after_error |= failed;
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
}
