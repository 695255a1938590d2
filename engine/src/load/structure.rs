//! The structure of a match: the procedures `[match]` runs (`start`, `half_start`, the
//! stages of a turn, `turn_end`) and `[scenario]` names, each known and without
//! parameters.

use crate::ruleset::diag::{Diagnostic, SourceFile};
use crate::ruleset::model::Ruleset;
use crate::ruleset::raw::RawRuleset;

use super::code::value_span;

/// Resolves the procedures the match runs.
pub(super) fn match_procedures(
    rs: &mut Ruleset,
    raw: &RawRuleset,
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) {
    let m = &raw.match_;
    let proc_ref = |rs: &Ruleset,
                    s: &toml::Spanned<String>,
                    what: &str,
                    errors: &mut Vec<Diagnostic>|
     -> Option<u16> {
        match rs.procedure(s.get_ref()) {
            Some(i) => Some(i),
            None => {
                let names = rs.procedure_names();
                let hint = names
                    .iter()
                    .min_by_key(|n| crate::compile::edit_distance(n, s.get_ref()))
                    .map(|n| format!("did you mean `{n}`?"))
                    .unwrap_or_else(|| "declare it under [procedures.NAME]".into());
                errors.push(
                    Diagnostic::error(format!("{what}: unknown procedure `{}`", s.get_ref()))
                        .at(file, value_span(s))
                        .hint(hint),
                );
                None
            }
        }
    };
    rs.start = m
        .start
        .as_ref()
        .and_then(|s| proc_ref(rs, s, "match.start", errors));
    rs.half_start = m
        .half_start
        .as_ref()
        .and_then(|s| proc_ref(rs, s, "match.half_start", errors));
    rs.turn_end = m
        .turn_end
        .as_ref()
        .and_then(|s| proc_ref(rs, s, "match.turn_end", errors));
    rs.scenario_derive = raw
        .scenario
        .derive
        .as_ref()
        .and_then(|s| proc_ref(rs, s, "scenario.derive", errors));
    rs.scenario_placement = raw.scenario.placement.as_ref().map(|s| s.get_ref().clone());
    for s in &m.turn {
        if let Some(i) = proc_ref(rs, s, "match.turn", errors) {
            rs.stages.push(i);
        }
    }
    if m.turn.is_empty() {
        let at = file.text.find("[match]").map_or((0, 0), |o| (o, o + 7));
        errors.push(
            Diagnostic::error("the turn has no stages")
                .at(file, at)
                .hint("list the stage procedures in [match] turn = [...]"),
        );
    }
    // Stages and match procedures take no parameters.
    for i in rs
        .stages
        .iter()
        .chain(rs.start.iter())
        .chain(rs.half_start.iter())
        .chain(rs.turn_end.iter())
        .chain(rs.scenario_derive.iter())
    {
        let p = &rs.procs[*i as usize];
        if !p.params.is_empty() {
            let span = raw
                .procedures
                .get(&p.name)
                .and_then(|r| r.params.as_ref())
                .map_or((0, 0), value_span);
            errors.push(
                Diagnostic::error(format!(
                    "procedure `{}` is run by the match and must take no parameters",
                    p.name
                ))
                .at(file, span)
                .in_rule(format!("procedures.{}", p.name))
                .hint("stages and the start, half_start and turn_end procedures take no parameters; read what they need from state variables"),
            );
        }
    }
}
