//! Scenarios: a position pinned down, scripted dice and choices, a stretch of the turn to
//! run, and expectations on the state and the events (format: `docs/scenarios.md`).
//!
//! A scenario names its rules; the caller loads them (an edition name means nothing to
//! the engine) and hands them to [`Scenario::run`].

mod call;
mod check;
mod course;
mod derive;
mod ending;
mod expect;
mod expect_log;
mod names;
mod placement;
mod position;
mod requires;
mod run;
pub use run::Kept;
mod script;
mod spans;
mod spec;

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Deserialize;

use crate::ruleset::{Ruleset, SymbolsOver};
use crate::value::Value;
use crate::vm::{Match, Schedule};

pub use spec::{
    BallSpec, ClockSpec, EventFieldsChecks, EventFieldsSpec, Expect, ModifiersSpec, OddsSpec,
    OfferedChecks, OfferedSpec, Policy, Position, Run, TeamPosition, Which,
};

/// A decision of the rules and the labels a scenario's script answers it with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionLabels {
    /// The decision's name (`choose "NAME" ...`).
    pub name: String,
    /// The labels of its `choose { ... }` arms, sorted.
    pub arms: Vec<String>,
    /// The label of its `skip` option, for a choice among areas or moves (`done`).
    pub skip: Vec<String>,
    /// Whether it chooses among areas or moves (`choose ... from`): an area (`CENTRE`) or
    /// a move (`A->B`, `GK A->B`) is a label too.
    pub board: bool,
}

/// Every decision of `rs` with its labels, by name: what `fuba rules show --decisions`
/// lists, so a script writer sees each decision's word for declining (`done`, `no`,
/// `none`, `stay`...).
pub fn decision_labels(rs: &Ruleset) -> Vec<DecisionLabels> {
    let names = names::Names::of(rs);
    names
        .decisions
        .iter()
        .map(|(name, labels)| {
            let skip: Vec<String> = names
                .skips
                .get(name)
                .map(|s| s.iter().cloned().collect())
                .unwrap_or_default();
            DecisionLabels {
                name: name.clone(),
                arms: labels
                    .iter()
                    .filter(|l| !skip.contains(l))
                    .cloned()
                    .collect(),
                skip,
                board: names.open.contains(name),
            }
        })
        .collect()
}

/// A scenario file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// What it shows.
    pub name: String,
    /// Edition name or ruleset path (relative to the scenario file).
    pub rules: String,
    /// Match options of the rules: `{ weather = false, skills = 4 }`.
    #[serde(default)]
    pub options: IndexMap<String, toml::Value>,
    /// Where the situation comes from (rulebook section, example).
    #[serde(default)]
    pub source: String,
    /// The position before running.
    #[serde(default)]
    pub position: Position,
    /// What to run.
    #[serde(default)]
    pub run: Run,
    /// What must hold afterwards.
    #[serde(default)]
    pub expect: Expect,
    /// How `fuba odds` enumerates from this position (ignored when the scenario is run).
    #[serde(default)]
    pub odds: OddsSpec,
    /// The file it was read from (set by [`Scenario::load`]).
    #[serde(skip)]
    pub path: PathBuf,
    /// The file's text, to locate what is wrong in it (set by [`Scenario::load`]).
    #[serde(skip)]
    spans: spans::Spans,
}

/// Why a scenario could not run (as opposed to running and failing its expectations).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}{}: {message}", at.map_or(String::new(), |(l, c)| format!(":{l}:{c}")))]
pub struct ScenarioError {
    /// The scenario file.
    pub path: String,
    /// Where in it, when known: line and column (1-based).
    pub at: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
}

impl ScenarioError {
    /// The message with its line and column in front, when known: `12:5: ...`.
    pub fn located(&self) -> String {
        match self.at {
            Some((l, c)) => format!("{l}:{c}: {}", self.message),
            None => self.message.clone(),
        }
    }
}

/// The result of running a scenario.
#[derive(Debug, Clone)]
pub struct Report {
    /// The scenario's name.
    pub name: String,
    /// Expectations that failed: what was expected and what happened.
    pub failures: Vec<String>,
    /// The narration of what ran (verbose).
    pub narration: Vec<String>,
}

impl Report {
    /// Whether every expectation held.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

impl Scenario {
    /// Reads a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let err = |at, message: String| ScenarioError {
            path: path.display().to_string(),
            at,
            message,
        };
        let text = crate::files::read_text(path, crate::files::FileKind::Scenario)
            .map_err(|e| err(None, format!("cannot read: {e}")))?;
        let spans = spans::Spans::new(&text);
        let mut s: Scenario = toml::from_str(&text).map_err(|e| {
            let at = e.span().map(|sp| spans.line_col(sp.start));
            err(at, names::unknown_key_hint(e.message().trim()))
        })?;
        s.path = path.to_path_buf();
        s.spans = spans;
        Ok(s)
    }

    /// Why the TOML file at `path` is not a scenario, when it is not one: a TOML table
    /// with neither `name` nor `rules` at its top (a ruleset copied beside the scenarios
    /// that use it, say). `None` for a scenario, and for a file that cannot be read or
    /// parsed (loading it reports why).
    pub fn not_a_scenario(path: &Path) -> Option<String> {
        let text = crate::files::read_text(path, crate::files::FileKind::Scenario).ok()?;
        let table: toml::Table = toml::from_str(&text).ok()?;
        if table.contains_key("name") || table.contains_key("rules") {
            return None;
        }
        Some(if table.contains_key("meta") {
            "a ruleset ([meta]), not a scenario".to_string()
        } else {
            "not a scenario (no `name` or `rules`)".to_string()
        })
    }

    /// Checks the names in the scenario's `options` against the match options of `rs` (the
    /// rules loaded without them, when loading with them failed): an unknown one is an
    /// error at its line and column, with the closest option.
    pub fn check_options(&self, rs: &Ruleset) -> Result<(), ScenarioError> {
        self.check_option_names(rs)
    }

    /// Checks every name the scenario uses (event kinds and fields, variables, procedures,
    /// stages, decisions and their labels, modifier lists, areas, teams) against `rs`: an
    /// unknown one is an error at its line and column, with the closest known name.
    pub fn check(&self, rs: &Ruleset) -> Result<(), ScenarioError> {
        self.check_names(rs, &names::Names::of(rs))?;
        self.check_placements(rs)
    }

    /// The match options as `(name, value)` pairs, as `--option NAME=VALUE` gives them.
    pub fn option_pairs(&self) -> Vec<(String, String)> {
        self.options
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    toml::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (k.clone(), v)
            })
            .collect()
    }

    /// The ruleset file the scenario names, when it names a path (relative to the file).
    pub fn rules_path(&self) -> Option<PathBuf> {
        let r = &self.rules;
        (r.ends_with(".toml") || r.contains('/'))
            .then(|| self.path.parent().unwrap_or(Path::new(".")).join(r))
    }

    pub(crate) fn err(&self, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            path: self.path.display().to_string(),
            at: None,
            message: message.into(),
        }
    }

    /// What the scenario's run runs: its procedures, its stages from `run.from` to
    /// `run.to`, or `run.turns` whole turns.
    pub fn plan(&self, rs: &Ruleset) -> Result<Schedule, ScenarioError> {
        if self.run.until.is_some() {
            return Ok(Schedule::Turns(if self.run.turns > 0 {
                self.run.turns
            } else {
                u32::MAX
            }));
        }
        if self.run.turns > 0 {
            return Ok(Schedule::Turns(self.run.turns));
        }
        let mut plan: Vec<u16> = Vec::new();
        if !self.run.procedures.is_empty() {
            for p in &self.run.procedures {
                let (name, args) = call::split_call(p).map_err(|e| self.err(e))?;
                let idx = rs.procedure(name).ok_or_else(|| {
                    self.err(format!(
                        "run.procedures: the rules have no procedure `{name}`"
                    ))
                })?;
                // A call with arguments is run after the list (`Scenario::tail_call`).
                if args.is_none_or(|a| a.is_empty()) {
                    plan.push(idx);
                }
            }
        } else {
            let pos = |name: &Option<String>,
                       default: usize,
                       what: &str|
             -> Result<usize, ScenarioError> {
                match name {
                    None => Ok(default),
                    Some(n) => rs
                        .stages
                        .iter()
                        .position(|s| rs.procs[*s as usize].name == *n)
                        .ok_or_else(|| {
                            self.err(format!(
                                "{what}: `{n}` is not a stage; the stages are {}",
                                rs.stages
                                    .iter()
                                    .map(|s| rs.procs[*s as usize].name.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ))
                        }),
                }
            };
            let a = pos(&self.run.from, 0, "run.from")?;
            let b = pos(&self.run.to, rs.stages.len().saturating_sub(1), "run.to")?;
            plan.extend(rs.stages[a..=b.max(a)].iter().copied());
        }
        Ok(Schedule::Procs(plan))
    }

    /// The procedures the run lists, the tail call included: what the run may run, for
    /// the turn state it needs and for saying where it was cut short.
    pub(super) fn listed(&self, plan: &Schedule, tail: Option<&(u16, Vec<Value>)>) -> Schedule {
        match (plan, tail) {
            (Schedule::Procs(l), Some((p, _))) => {
                Schedule::Procs(l.iter().copied().chain([*p]).collect())
            }
            _ => plan.clone(),
        }
    }

    /// A match at the scenario's position with its run set as the schedule, not started:
    /// for a driver that steps it itself (exact odds). `rs` is the scenario's ruleset;
    /// the strings the scenario names are interned in it first. The scenario's dice and
    /// choices are not used (the driver answers the match), nor is anything logged.
    pub fn start<'r>(&self, rs: &'r mut Ruleset) -> Result<Match<'r>, ScenarioError> {
        self.check(rs)?;
        for k in self.run.choices.keys() {
            self.team(k, "run.choices")?;
        }
        let mut syms = SymbolsOver::new(&rs.symbols);
        let sets = self.resolve_vars(rs, &mut syms)?;
        let tail = self.tail_call(rs, &mut syms)?;
        let stop = self.run.stop_at.as_ref().map(|k| syms.intern(k));
        let added = syms.added().to_vec();
        for s in &added {
            rs.intern(s);
        }
        let rs: &'r Ruleset = rs;
        let plan = self.plan(rs)?;
        self.check_required(rs, &self.listed(&plan, tail.as_ref()))?;
        if tail.is_some() && !matches!(&plan, Schedule::Procs(l) if l.is_empty()) {
            return Err(self.err(
                "run.procedures: exact odds follow one schedule: a call with arguments \
                 (`name(home)`) can be enumerated alone, not after other procedures",
            ));
        }
        let plan = match tail {
            Some((p, args)) => Schedule::Call(p, args),
            None => plan,
        };
        let mut m = Match::new(rs, 0);
        self.set_position(rs, &mut m.st, sets)?;
        self.derive(rs, &mut m.st)?;
        m.stop_at = stop;
        m.set_schedule(plan);
        Ok(m)
    }
}
