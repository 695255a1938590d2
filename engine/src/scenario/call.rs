//! Procedures with arguments in `run.procedures`: `name(home)`, `name(away, N_FRONT)`. A call is written as the procedure's name and its arguments
//! in brackets, each as TOML of the parameter's type or a bare word (a team, an area, a
//! string); it may only be the last procedure listed (what a run does after a procedure
//! that may end the turn is known only for procedures without arguments).

use crate::ruleset::{Ruleset, SymbolsOver};
use crate::value::{Ty, Value};

use super::spans::Step::{Index, Key};
use super::{Scenario, ScenarioError};

/// A listed procedure split into its name and the arguments written (none for a bare
/// name). `Err` with what is wrong for an unbalanced bracket.
pub(super) fn split_call(s: &str) -> Result<(&str, Option<Vec<&str>>), String> {
    let s = s.trim();
    let Some(open) = s.find('(') else {
        return Ok((s, None));
    };
    let Some(inner) = s[open + 1..].strip_suffix(')') else {
        return Err(format!("`{s}`: a call ends with `)`: `name(arg, ...)`"));
    };
    let mut args = Vec::new();
    let (mut depth, mut from) = (0i32, 0usize);
    for (i, c) in inner.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                args.push(inner[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    if !inner[from..].trim().is_empty() || !args.is_empty() {
        args.push(inner[from..].trim());
    }
    Ok((s[..open].trim(), Some(args)))
}

/// An argument as a TOML value: TOML when it parses as one (`3`, `true`, `"a word"`,
/// `["N_FRONT", "CENTRE"]`), otherwise the bare word as a string (`home`, `N_FRONT`).
fn arg_value(a: &str) -> toml::Value {
    toml::from_str::<toml::Table>(&format!("v = {a}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(a.to_string()))
}

/// How a parameter's argument is written, for messages.
fn example(ty: Ty) -> &'static str {
    match ty {
        Ty::Team => "home",
        Ty::Area => "N_FRONT",
        Ty::Int => "3",
        Ty::Bool => "true",
        Ty::Str => "\"a word\"",
        Ty::Areas => "[N_FRONT, CENTRE]",
        Ty::List => "[4, 4, 2]",
        _ => "...",
    }
}

impl Scenario {
    /// Checks `run.procedures`: each a procedure of the rules, called with as many
    /// arguments as it has parameters, each of its parameter's type; a call with arguments
    /// only last. An error is located at the procedure's entry.
    pub(super) fn check_procedures(&self, rs: &Ruleset) -> Result<(), ScenarioError> {
        let n = self.run.procedures.len();
        for (i, p) in self.run.procedures.iter().enumerate() {
            let path = [Key("run"), Key("procedures"), Index(i)];
            let at = |m: String| self.err_at(&path, false, format!("run.procedures: {m}"));
            let (name, args) = split_call(p).map_err(at)?;
            let Some(idx) = rs.procedure(name) else {
                let all = rs.procs.iter().map(|p| p.name.as_str());
                return Err(at(format!(
                    "the rules have no procedure `{name}`{}",
                    super::names::hint(name, all)
                )));
            };
            let params = &rs.procs[idx as usize].params;
            let written = args.as_deref().unwrap_or_default();
            if written.len() != params.len() {
                let sig: Vec<String> = params.iter().map(|(n, t)| format!("{n}: {t}")).collect();
                let eg: Vec<&str> = params.iter().map(|(_, t)| example(*t)).collect();
                return Err(at(if params.is_empty() {
                    format!(
                        "`{name}` takes no arguments ({} given); write `{name}`",
                        written.len()
                    )
                } else {
                    format!(
                        "`{name}` takes {} argument{} ({}), {} given; write them in brackets: \
                         `{name}({})`",
                        params.len(),
                        if params.len() == 1 { "" } else { "s" },
                        sig.join(", "),
                        written.len(),
                        eg.join(", ")
                    )
                }));
            }
            if !params.is_empty() && i + 1 < n {
                return Err(at(format!(
                    "`{p}` takes arguments, so it must be the last procedure listed (a run \
                     goes on after a procedure without arguments only)"
                )));
            }
            // The types, with strings interned over the rules' (for real at the run).
            let mut scratch = SymbolsOver::new(&rs.symbols);
            for (a, (pn, ty)) in written.iter().zip(params) {
                self.value(
                    rs,
                    &mut scratch,
                    *ty,
                    &arg_value(a),
                    &format!("{name}({pn})"),
                )
                .map_err(|e| at(e.message))?;
            }
        }
        Ok(())
    }

    /// The last listed procedure when it is called with arguments: its index and the
    /// argument values (strings interned in `syms`). Checked by
    /// [`Scenario::check_procedures`].
    pub(super) fn tail_call(
        &self,
        rs: &Ruleset,
        syms: &mut SymbolsOver<'_>,
    ) -> Result<Option<(u16, Vec<Value>)>, ScenarioError> {
        let Some(last) = self.run.procedures.last() else {
            return Ok(None);
        };
        let (name, Some(args)) = split_call(last).map_err(|e| self.err(e))? else {
            return Ok(None);
        };
        let Some(idx) = rs.procedure(name) else {
            return Err(self.err(format!("run.procedures: no procedure `{name}`")));
        };
        let params = rs.procs[idx as usize].params.clone();
        if params.is_empty() {
            return Ok(None);
        }
        let mut values = Vec::new();
        for (a, (pn, ty)) in args.iter().zip(&params) {
            values.push(self.value(rs, syms, *ty, &arg_value(a), &format!("{name}({pn})"))?);
        }
        Ok(Some((idx, values)))
    }
}
