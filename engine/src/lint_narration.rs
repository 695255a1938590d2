//! The `unused-narration` lint: a `[narration]` key that no rule emits. Narration is the
//! text of the events rules write with `emit "kind" { ... }`; the engine's own events
//! (goals, the end of a half, ...) have their own words, so a key that names neither an
//! emitted kind is never shown (`half_end = "..."` is not the engine's end of a half).

use std::collections::HashSet;

use crate::ir::{Code, Stmt};
use crate::ir_walk::{Item, walk_code};
use crate::ruleset::Ruleset;
use crate::ruleset::diag::Diagnostic;
use crate::ruleset::raw::RawRuleset;

/// Warnings for the narration keys no `emit` of the ruleset writes.
pub fn unused_narration(rs: &Ruleset, raw: &RawRuleset) -> Vec<Diagnostic> {
    let mut units: Vec<&Code> = rs.procs.iter().map(|p| &p.code).collect();
    units.extend(
        rs.tables
            .iter()
            .flat_map(|t| t.rows.iter().map(|r| &r.code)),
    );
    units.extend(
        rs.triggers
            .iter()
            .flat_map(|t| t.when.iter().chain([&t.code])),
    );
    let mut emitted = HashSet::new();
    for c in units {
        walk_code(c, &mut |item| {
            if let Item::Stmt(Stmt::Emit(kind, _)) = item {
                emitted.insert(rs.symbol(*kind).to_string());
            }
        });
    }
    let mut out = Vec::new();
    for (kind, text) in &raw.narration {
        if emitted.contains(kind) {
            continue;
        }
        let names = emitted.iter().map(String::as_str);
        let d = Diagnostic::warning(
            "unused-narration",
            format!("narration `{kind}` is never shown: no rule emits \"{kind}\""),
        )
        .at(&rs.file, (text.span().start, text.span().end))
        .in_rule(format!("narration.{kind}"));
        out.push(match crate::compile::closest_name(kind, names) {
            Some(h) => d.hint(format!("did you mean `{h}`?")),
            None => d.hint("a narration key is the kind of an `emit \"kind\" { ... }` of some rule; the engine's own events (goal, half end, ...) have fixed words"),
        });
    }
    out
}
