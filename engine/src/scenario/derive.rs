//! What follows from a position: the rules' `[scenario] derive` procedure, run on the
//! position as placed, before the run (a 2015 or 2024 team placed without a formation is
//! given one there). What it changes is narrated, so nothing is derived silently.

use crate::log::{team_name, value_json};
use crate::ruleset::Ruleset;
use crate::state::MatchState;
use crate::value::Value;
use crate::vm::{Match, Schedule, Status};

use super::spans::Step::Key;
use super::{Scenario, ScenarioError};

/// Every state variable with its value: `(name, value)`, per-team ones as `name[team]`.
fn var_values(rs: &Ruleset, st: &MatchState) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (scope, decls) in rs.vars.iter().enumerate() {
        for (i, d) in decls.iter().enumerate() {
            match scope {
                0 => out.push((d.name.clone(), st.vars_match[i].clone())),
                2 => out.push((d.name.clone(), st.vars_turn[i].clone())),
                _ => {
                    let per_team = if scope == 1 {
                        &st.vars_team[i]
                    } else {
                        &st.vars_team_turn[i]
                    };
                    for (t, v) in per_team.iter().enumerate() {
                        out.push((format!("{}[{}]", d.name, team_name(t as u8)), v.clone()));
                    }
                }
            }
        }
    }
    out
}

impl Scenario {
    /// Runs the rules' `[scenario] derive` procedure on the placed position `st` and keeps
    /// what it sets. Returns the narration of what it changed (nothing when the rules
    /// declare no such procedure, or it changed nothing). The procedure may neither ask a
    /// team nor roll: a position's consequences are not left to chance.
    pub(super) fn derive(
        &self,
        rs: &Ruleset,
        st: &mut MatchState,
    ) -> Result<Option<String>, ScenarioError> {
        let Some(p) = rs.scenario_derive else {
            return Ok(None);
        };
        let name = &rs.procs[p as usize].name;
        // At the position, or the file's start when it gives none.
        let refuse = |message: String| self.err_at(&[Key("position")], true, message);
        let mut m = Match::new(rs, 0);
        m.st = st.clone();
        m.set_schedule(Schedule::Procs(vec![p]));
        loop {
            match m.advance() {
                Ok(Status::End) => break,
                Ok(Status::Boundary) => {}
                Ok(Status::Decision | Status::Chance) => {
                    return Err(refuse(format!(
                        "position: the rules' `{name}` (their [scenario] derive) asks a team \
                         or rolls dice on this position; what follows from a position must \
                         be derived without either"
                    )));
                }
                Err(e) => {
                    return Err(refuse(format!(
                        "position: the rules' `{name}` (their [scenario] derive) failed on \
                         this position: {e}"
                    )));
                }
            }
        }
        let before = var_values(rs, st);
        let after = var_values(rs, &m.st);
        let changed: Vec<String> = before
            .iter()
            .zip(&after)
            .filter(|(b, a)| b.1 != a.1)
            .map(|(_, (n, v))| format!("{n} = {}", value_json(rs, v)))
            .collect();
        *st = m.st;
        Ok((!changed.is_empty()).then(|| {
            format!(
                "(derived from the position by {name}: {})",
                changed.join(", ")
            )
        }))
    }
}
