//! `[triggers]`: each trigger attached to its hook, its condition and body compiled with
//! the hook's parameters.

// A diagnostic is large, but it only travels while a ruleset loads.
#![allow(clippy::result_large_err)]

use crate::compile::{Compiler, Products};
use crate::ruleset::diag::Diagnostic;
use crate::ruleset::model::{Ruleset, Trigger};
use crate::ruleset::raw::RawRuleset;
use crate::value::Ty;

use super::code::{
    CodeLoad, Resolver, code_offset, expanded_body, expanded_expression, value_span,
};

/// Compiles every trigger and attaches it to its hook.
pub(super) fn build(rs: &mut Ruleset, raw: &RawRuleset, cx: &mut CodeLoad<'_>) {
    let CodeLoad {
        file,
        colls,
        resolver,
        errors,
    } = cx;
    for (name, t) in &raw.triggers {
        let rule = format!("triggers.{name}");
        let Some(h) = rs.hooks.iter().position(|h| h.name == *t.hook.get_ref()) else {
            errors.push(
                Diagnostic::error(format!("trigger `{name}`: unknown hook `{}`", t.hook.get_ref()))
                    .at(file, value_span(&t.hook))
                    .hint("declare the hook under [hooks.NAME] and reach it with `hook NAME(...)` in a procedure"),
            );
            continue;
        };
        let unit = rs.add_unit(rule.clone(), t.section.clone());
        let params = rs.hooks[h].params.clone();
        let when = match &t.when {
            None => None,
            Some(w) => {
                let offset = code_offset(file, w.span());
                let Some(e) = expanded_expression(file, offset, &rule, w.get_ref(), colls, errors)
                else {
                    continue;
                };
                match with_params(rs, resolver, unit, offset, &params, |c| c.condition(&e)) {
                    Ok(code) => Some(code),
                    Err(d) => {
                        errors.push(d);
                        continue;
                    }
                }
            }
        };
        let offset = code_offset(file, t.body.span());
        let Some(b) = expanded_body(file, offset, &rule, t.body.get_ref(), colls, &[], errors)
        else {
            continue;
        };
        let code = match with_params(rs, resolver, unit, offset, &params, |c| c.trigger_body(&b)) {
            Ok((code, _)) => code,
            Err(d) => {
                errors.push(d);
                continue;
            }
        };
        let ti = rs.triggers.len() as u16;
        rs.triggers.push(Trigger {
            name: name.clone(),
            hook: h as u16,
            section: t.section.clone(),
            when,
            code,
            unit,
        });
        rs.hooks[h].triggers.push(ti);
    }
}

/// Compiles a trigger's condition or body with `compile`, the hook's parameters declared,
/// and stores what compiling it added (strings, emitted fields) in the ruleset.
fn with_params<T>(
    rs: &mut Ruleset,
    resolver: &mut Resolver,
    unit: u32,
    offset: usize,
    params: &[(String, Ty)],
    compile: impl FnOnce(&mut Compiler) -> Result<T, Diagnostic>,
) -> Result<T, Diagnostic> {
    let mut out = Products::default();
    let mut c = Compiler::new(rs, &mut out, unit, offset, resolver);
    for (n, ty) in params {
        c.declare(n, *ty);
    }
    let compiled = compile(&mut c);
    out.store(rs);
    compiled
}
