//! A scenario for the viewer: its position, its run, and each expectation marked held or
//! failed.
//!
//! Each expectation (a key of the scenario's `[expect]`) is checked on its own: the
//! scenario is run once with no expectation (what fails then is the run itself: a rule
//! error, stages not reached) and once with each key alone, and what fails beyond the
//! run's own failures is that key's.

use std::path::Path;

use fuba_engine::ruleset::Ruleset;
use fuba_engine::scenario::{Expect, Scenario};
use serde::Serialize;

use super::Film;
use crate::CliError;

/// One expectation of a scenario and what came of it.
#[derive(Serialize, Debug)]
pub struct Check {
    /// The expectation as written: `ball_area = "S_BOX"`.
    pub what: String,
    /// Whether it held.
    pub held: bool,
    /// What failed, when it did not.
    pub failures: Vec<String>,
}

fn error(s: &Scenario, e: impl std::fmt::Display) -> CliError {
    CliError::Failure(format!("{}: {e}", s.path.display()))
}

fn scenario_error(e: fuba_engine::scenario::ScenarioError) -> CliError {
    CliError::Failure(e.to_string())
}

/// The failures of `s` run under `rs` with only `expect`.
fn failures_with(s: &Scenario, rs: &Ruleset, expect: Expect) -> Result<Vec<String>, CliError> {
    let mut one = s.clone();
    one.expect = expect;
    let report = one.run(rs).map_err(scenario_error)?;
    Ok(report.failures)
}

/// The film and the checks of the scenario at `path`.
pub fn film(path: &Path) -> Result<(Ruleset, Film, Vec<Check>), CliError> {
    let s = Scenario::load(path).map_err(scenario_error)?;
    let mut rules = crate::scenario::Rules::default();
    let rs = rules.get(&s).map_err(CliError::Failure)?.clone();
    let (report, (events, states)) = s.run_with_states(&rs).map_err(scenario_error)?;
    // Each key of [expect] alone, against the run with none.
    let text = std::fs::read_to_string(path).map_err(|e| error(&s, e))?;
    let table: toml::Table = toml::from_str(&text).map_err(|e| error(&s, e))?;
    let base = failures_with(&s, &rs, Expect::default())?;
    let mut checks = Vec::new();
    if let Some(toml::Value::Table(expect)) = table.get("expect") {
        for (key, value) in expect {
            let mut one = toml::Table::new();
            one.insert(key.clone(), value.clone());
            let alone: Expect = toml::Value::Table(one)
                .try_into()
                .map_err(|e| error(&s, e))?;
            let failed: Vec<String> = failures_with(&s, &rs, alone)?
                .into_iter()
                .filter(|f| !base.contains(f))
                .collect();
            checks.push(Check {
                what: format!("{key} = {value}"),
                held: failed.is_empty(),
                failures: failed,
            });
        }
    }
    checks.push(Check {
        what: "the run ends as the scenario says (no rule error, every stage listed reached)"
            .into(),
        held: base.is_empty(),
        failures: base,
    });
    let verdict = if report.passed() { "passed" } else { "FAILED" };
    let about = format!("scenario {} · {} · {verdict}", path.display(), rs.name);
    let mut film = Film::new(&rs, s.name.clone(), about, &events, &states);
    // The first step shows the position as the scenario sets it, before anything ran.
    film.steps.insert(
        0,
        super::Step {
            text: "The scenario's position, before the run".into(),
            time: film
                .positions
                .first()
                .map(|p| p.clock.clone())
                .unwrap_or_default(),
            rule: String::new(),
            section: s.source.clone(),
            stage: "position".into(),
            dice: String::new(),
            position: 0,
        },
    );
    Ok((rs, film, checks))
}
