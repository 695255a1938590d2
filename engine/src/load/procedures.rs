//! `[procedures]`: each procedure declared, its body parsed and expanded; compiled later,
//! on first use, by the [`Resolver`].

use crate::ir::Code;
use crate::ruleset::model::{Procedure, Ruleset};
use crate::ruleset::raw::RawRuleset;
use crate::value::Ty;

use super::code::{CodeLoad, Pending, code_offset, expanded_body, parse_param_list};

/// Declares every procedure, its code waiting in `resolver`.
pub(super) fn declare(rs: &mut Ruleset, raw: &RawRuleset, cx: &mut CodeLoad<'_>) {
    let CodeLoad {
        file,
        colls,
        resolver,
        errors,
    } = cx;
    for (name, p) in &raw.procedures {
        let rule = format!("procedures.{name}");
        let params = match &p.params {
            None => Vec::new(),
            Some(s) => parse_param_list(file, s, &rule, errors, colls),
        };
        let unit = rs.add_unit(rule.clone(), p.section.clone());
        let offset = code_offset(file, p.body.span());
        let typed = colls.params_of(name).map(<[_]>::to_vec).unwrap_or_default();
        let pending = expanded_body(file, offset, &rule, p.body.get_ref(), colls, &typed, errors)
            .map(|body| Pending { body, offset, unit });
        resolver.add_procedure(pending);
        rs.procs.push(Procedure {
            name: name.clone(),
            section: p.section.clone(),
            params,
            ret: Ty::Any,
            code: Code::default(),
            unit,
            pure: false,
        });
    }
}
