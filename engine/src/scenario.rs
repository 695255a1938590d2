//! Scenarios: a position pinned down, scripted dice and choices, a stretch of the turn to
//! run, and expectations on the state and the events (format: `docs/scenarios.md`).
//!
//! A scenario names its rules; the caller loads them (an edition name means nothing to
//! the engine) and hands them to [`Scenario::run`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Deserialize;

use crate::agent::ScriptedAgent;
use crate::board::AreaId;
use crate::dice::ScriptedDice;
use crate::game::Game;
use crate::ir::Scope;
use crate::log::{EventKind, value_json};
use crate::ruleset::Ruleset;
use crate::state::GONE;
use crate::state::MatchState;
use crate::value::{Team, Ty, Value};
use crate::vm::{Match, Schedule};

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
}

/// The pieces of one team.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamPosition {
    /// The goalkeeper's area.
    pub keeper: Option<String>,
    /// Field pieces by area.
    #[serde(default)]
    pub pieces: IndexMap<String, u8>,
    /// Field pieces already sent off.
    #[serde(default)]
    pub sent_off: u8,
}

/// The ball.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BallSpec {
    /// Its area.
    pub area: String,
    /// Its value.
    pub value: i64,
}

/// The clock.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// The half.
    #[serde(default = "one")]
    pub half: u32,
    /// The minute.
    pub minute: i64,
    /// The added minute.
    #[serde(default)]
    pub added: i64,
}

fn one() -> u32 {
    1
}

/// A position.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// `"home"` or `"away"`.
    pub controlling: Option<String>,
    /// The phasing team, for alternating-turn editions.
    pub phasing: Option<String>,
    /// The ball.
    pub ball: Option<BallSpec>,
    /// The clock.
    pub clock: Option<ClockSpec>,
    /// The score, home first.
    pub score: Option<[i64; 2]>,
    /// Home pieces.
    #[serde(default)]
    pub home: TeamPosition,
    /// Away pieces.
    #[serde(default)]
    pub away: TeamPosition,
    /// State variables: a value, or `{ home = ..., away = ... }` for per-team ones.
    #[serde(default)]
    pub vars: IndexMap<String, toml::Value>,
}

/// What to run.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// The first stage to run (a stage procedure name); the turn's first if absent.
    pub from: Option<String>,
    /// The last stage to run; the turn's last if absent.
    pub to: Option<String>,
    /// Run these procedures in order instead of stages.
    #[serde(default)]
    pub procedures: Vec<String>,
    /// Run whole turns (with the turn-end procedure) instead; 0 = use from/to.
    #[serde(default)]
    pub turns: u32,
    /// Stop at the first event of this kind (an `emit` kind or `goal`).
    pub stop_at: Option<String>,
    /// Dice, in order.
    #[serde(default)]
    pub dice: Vec<u8>,
    /// Choices by label, per team.
    #[serde(default)]
    pub choices: BTreeMap<String, Vec<String>>,
}

/// How exact odds are worked out from a scenario's position ([`crate::odds`],
/// `docs/odds.md`); the command line's flags win over these.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OddsSpec {
    /// Where to stop: a stage name or `turn-end` (default: where the run ends).
    pub until: Option<String>,
    /// Who decides what the script does not.
    pub policy: Option<crate::odds::Policy>,
    /// A path also ends at the first event of one of these kinds (an `emit` kind or
    /// `goal`): a set piece's setup, for instance, need not be enumerated.
    #[serde(default)]
    pub stop_at: Vec<String>,
    /// State variables whose values at the end are part of each outcome (`actions`).
    #[serde(default)]
    pub vars: Vec<String>,
}

/// What must hold afterwards.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The ball.
    pub ball: Option<BallSpec>,
    /// The ball value only.
    pub ball_value: Option<i64>,
    /// The ball area only.
    pub ball_area: Option<String>,
    /// The controlling team.
    pub controlling: Option<String>,
    /// The score, home first.
    pub score: Option<[i64; 2]>,
    /// The clock.
    pub clock: Option<ClockSpec>,
    /// Whether the half (or match) ended.
    pub half_ended: Option<bool>,
    /// Pieces per area (goalkeeper included), per team.
    #[serde(default)]
    pub pieces: BTreeMap<String, IndexMap<String, u8>>,
    /// State variables.
    #[serde(default)]
    pub vars: IndexMap<String, toml::Value>,
    /// Event kinds that must occur (an `emit` kind, `goal`, or `table:NAME[ROW]`).
    #[serde(default)]
    pub events: Vec<String>,
    /// Event kinds that must not occur.
    #[serde(default)]
    pub no_events: Vec<String>,
    /// Totals of modifier lists, by name (the last one computed).
    #[serde(default)]
    pub modifiers: IndexMap<String, i64>,
    /// Fields of the last event of a kind: `{ "pass" = { result = "kept" } }`.
    #[serde(default)]
    pub event_fields: IndexMap<String, IndexMap<String, toml::Value>>,
    /// Number of choices the given team made.
    #[serde(default)]
    pub choices_made: BTreeMap<String, usize>,
    /// Whether every scripted die and choice must have been used (default true).
    pub all_used: Option<bool>,
    /// The legal options of the first decision of a kind: `{ "target area" = ["A", "B"] }`
    /// (compared as sets).
    #[serde(default)]
    pub offered: IndexMap<String, Vec<String>>,
    /// The run must stop with an error whose message contains this text (an illegal
    /// scripted choice, for instance).
    pub error: Option<String>,
}

/// Why a scenario could not run (as opposed to running and failing its expectations).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ScenarioError {
    /// The scenario file.
    pub path: String,
    /// What is wrong.
    pub message: String,
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

/// A state variable the position sets: scope, index, team (per-team ones), value.
type VarSet = (Scope, u16, Option<Team>, Value);

fn team_of(s: &str) -> Option<Team> {
    match s {
        "home" => Some(0),
        "away" => Some(1),
        _ => None,
    }
}

impl Scenario {
    /// Reads a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let err = |message: String| ScenarioError {
            path: path.display().to_string(),
            message,
        };
        let text = crate::files::read_text(path, crate::files::FileKind::Scenario)
            .map_err(|e| err(format!("cannot read: {e}")))?;
        let mut s: Scenario = toml::from_str(&text).map_err(|e| {
            let (l, c) = e.span().map_or((0, 0), |sp| {
                let before = &text[..sp.start.min(text.len())];
                (
                    before.matches('\n').count() + 1,
                    sp.start - before.rfind('\n').map_or(0, |i| i + 1) + 1,
                )
            });
            err(format!("{l}:{c}: {}", e.message().trim()))
        })?;
        s.path = path.to_path_buf();
        Ok(s)
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

    fn err(&self, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            path: self.path.display().to_string(),
            message: message.into(),
        }
    }

    fn area(&self, rs: &Ruleset, name: &str, what: &str) -> Result<AreaId, ScenarioError> {
        rs.board.find(name).ok_or_else(|| {
            self.err(format!(
                "{what}: unknown area `{name}` (the board has {})",
                rs.board
                    .areas
                    .iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    }

    fn team(&self, name: &str, what: &str) -> Result<Team, ScenarioError> {
        team_of(name)
            .ok_or_else(|| self.err(format!("{what}: `{name}` is not \"home\" or \"away\"")))
    }

    fn value(
        &self,
        rs: &mut Ruleset,
        ty: Ty,
        v: &toml::Value,
        what: &str,
    ) -> Result<Value, ScenarioError> {
        let bad = || self.err(format!("{what}: {v} is not a {ty}"));
        Ok(match (ty, v) {
            (Ty::Int, toml::Value::Integer(i)) => Value::Int(*i),
            (Ty::Bool, toml::Value::Boolean(b)) => Value::Bool(*b),
            (Ty::Str, toml::Value::String(s)) => Value::Str(rs.intern(s)),
            (Ty::Team, toml::Value::String(s)) => Value::Team(self.team(s, what)?),
            (Ty::Area, toml::Value::String(s)) => Value::Area(self.area(rs, s, what)?),
            (Ty::Areas, toml::Value::Array(items)) => {
                let mut set = crate::board::AreaSet::EMPTY;
                for it in items {
                    set.insert(self.area(rs, it.as_str().ok_or_else(bad)?, what)?);
                }
                Value::Areas(set)
            }
            (Ty::List, toml::Value::Array(items)) => Value::List(
                items
                    .iter()
                    .map(|x| x.as_integer().ok_or_else(bad))
                    .collect::<Result<Vec<_>, _>>()?
                    .into(),
            ),
            _ => return Err(bad()),
        })
    }

    /// The state variables the position sets, resolved (strings interned in `rs`).
    fn resolve_vars(&self, rs: &mut Ruleset) -> Result<Vec<VarSet>, ScenarioError> {
        let mut sets: Vec<VarSet> = Vec::new();
        for (name, v) in &self.position.vars {
            let (var, ty) = rs.var(name).ok_or_else(|| {
                self.err(format!(
                    "position.vars: the rules have no state variable `{name}`"
                ))
            })?;
            match (var.scope, v) {
                (Scope::Team | Scope::TeamTurn, toml::Value::Table(t)) => {
                    for (team, x) in t {
                        let tm = self.team(team, &format!("position.vars.{name}"))?;
                        let val = self.value(rs, ty, x, &format!("position.vars.{name}.{team}"))?;
                        sets.push((var.scope, var.idx, Some(tm), val));
                    }
                }
                (Scope::Team | Scope::TeamTurn, _) => {
                    return Err(self.err(format!(
                        "position.vars.{name} is held per team: write {{ home = ..., away = ... }}"
                    )));
                }
                (_, x) => {
                    let val = self.value(rs, ty, x, &format!("position.vars.{name}"))?;
                    sets.push((var.scope, var.idx, None, val));
                }
            }
        }
        Ok(sets)
    }

    /// Writes the position into a new match's state (checked: impossible positions are
    /// refused), then the state variables.
    fn set_position(
        &self,
        rs: &Ruleset,
        st: &mut MatchState,
        sets: Vec<VarSet>,
    ) -> Result<(), ScenarioError> {
        for (t, tp) in [(0u8, &self.position.home), (1u8, &self.position.away)] {
            let team_name = if t == 0 { "home" } else { "away" };
            let field: u32 =
                tp.pieces.values().map(|n| u32::from(*n)).sum::<u32>() + u32::from(tp.sent_off);
            let max = u32::from(rs.pieces) - 1;
            if field > max {
                return Err(self.err(format!("position.{team_name}: {field} field pieces (sent off included), but a team has {max}")));
            }
            if tp.keeper.is_none() && !tp.pieces.is_empty() {
                return Err(self.err(format!(
                    "position.{team_name}: the goalkeeper's area is missing (keeper = \"AREA\")"
                )));
            }
            if let Some(k) = &tp.keeper {
                let a = self.area(rs, k, &format!("position.{team_name}.keeper"))?;
                st.put(t, 0, a);
            }
            let mut i = 1;
            for (area, n) in &tp.pieces {
                let a = self.area(rs, area, &format!("position.{team_name}.pieces"))?;
                for _ in 0..*n {
                    st.put(t, i, a);
                    i += 1;
                }
            }
            for _ in 0..tp.sent_off {
                st.put(t, i, GONE);
                i += 1;
            }
            // Pieces not placed stay off the board only if the position gave none at all.
            if tp.keeper.is_some() && i < rs.pieces as usize {
                {
                    return Err(self.err(format!(
                        "position.{team_name}: {} field pieces placed and {} sent off; a team has {} (place them all)",
                        field - u32::from(tp.sent_off),
                        tp.sent_off,
                        max
                    )));
                }
            }
        }
        if let Some(c) = &self.position.controlling {
            st.ball_owner = self.team(c, "position.controlling")?;
        }
        if let Some(p) = &self.position.phasing {
            st.phasing = self.team(p, "position.phasing")?;
        }
        if let Some(b) = &self.position.ball {
            st.ball_area = self.area(rs, &b.area, "position.ball.area")?;
            let (lo, hi) = rs.ball_values;
            if b.value < lo || b.value > hi {
                return Err(self.err(format!(
                    "position.ball.value: {} is outside {lo}..{hi}",
                    b.value
                )));
            }
            st.ball_value = b.value;
        }
        if let Some(c) = &self.position.clock {
            if c.half == 0 || c.half > rs.halves {
                return Err(self.err(format!(
                    "position.clock.half: {} (the rules have {} halves)",
                    c.half, rs.halves
                )));
            }
            st.clock.half = c.half;
            st.clock.minute = c.minute;
            st.clock.added = c.added;
        }
        if let Some(s) = self.position.score {
            st.score = s;
        }
        st.turn = 1;
        st.reset_turn_vars(rs);
        for (scope, idx, team, val) in sets {
            let i = idx as usize;
            let t = team.unwrap_or(0) as usize;
            match scope {
                Scope::Match => st.vars_match[i] = val,
                Scope::Team => st.vars_team[i][t] = val,
                Scope::Turn => st.vars_turn[i] = val,
                Scope::TeamTurn => st.vars_team_turn[i][t] = val,
            }
        }

        Ok(())
    }

    /// What the scenario's run runs: its procedures, its stages from `run.from` to
    /// `run.to`, or `run.turns` whole turns.
    pub fn plan(&self, rs: &Ruleset) -> Result<Schedule, ScenarioError> {
        if self.run.turns > 0 {
            return Ok(Schedule::Turns(self.run.turns));
        }
        let mut plan: Vec<u16> = Vec::new();
        if !self.run.procedures.is_empty() {
            for p in &self.run.procedures {
                plan.push(rs.procedure(p).ok_or_else(|| {
                    self.err(format!("run.procedures: the rules have no procedure `{p}`"))
                })?);
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
            let b = pos(&self.run.to, rs.stages.len() - 1, "run.to")?;
            plan.extend(rs.stages[a..=b.max(a)].iter().copied());
        }
        Ok(Schedule::Procs(plan))
    }

    /// A match at the scenario's position with its run set as the schedule, not started:
    /// for a driver that steps it itself (exact odds). `rs` is the scenario's ruleset;
    /// the strings the scenario names are interned in it first. The scenario's dice and
    /// choices are not used (the driver answers the match), nor is anything logged.
    pub fn start<'r>(&self, rs: &'r mut Ruleset) -> Result<Match<'r>, ScenarioError> {
        for k in self.run.choices.keys() {
            self.team(k, "run.choices")?;
        }
        let sets = self.resolve_vars(rs)?;
        let stop = self.run.stop_at.as_ref().map(|k| rs.intern(k));
        let rs: &'r Ruleset = rs;
        let mut m = Match::new(rs, 0);
        self.set_position(rs, &mut m.st, sets)?;
        m.stop_at = stop;
        m.set_schedule(self.plan(rs)?);
        Ok(m)
    }

    /// Checks the position and runs the scenario under `rules`.
    pub fn run(&self, rules: &Ruleset) -> Result<Report, ScenarioError> {
        // Strings named by the scenario are interned in a copy of the rules.
        let mut rs = rules.clone();
        let dice = ScriptedDice::new(self.run.dice.iter().copied());
        let script =
            |t: &str| ScriptedAgent::new(self.run.choices.get(t).cloned().unwrap_or_default());
        for k in self.run.choices.keys() {
            self.team(k, "run.choices")?;
        }
        // Resolve vars before the match borrows the rules.
        let sets = self.resolve_vars(&mut rs)?;
        let expect_vars: Vec<(String, Scope, u16, Option<Team>, Value)> = {
            let mut out = Vec::new();
            for (name, v) in &self.expect.vars {
                let (var, ty) = rs.var(name).ok_or_else(|| {
                    self.err(format!(
                        "expect.vars: the rules have no state variable `{name}`"
                    ))
                })?;
                match (var.scope, v) {
                    (Scope::Team | Scope::TeamTurn, toml::Value::Table(t)) => {
                        for (team, x) in t {
                            let tm = self.team(team, &format!("expect.vars.{name}"))?;
                            let val =
                                self.value(&mut rs, ty, x, &format!("expect.vars.{name}.{team}"))?;
                            out.push((
                                format!("{name}[{team}]"),
                                var.scope,
                                var.idx,
                                Some(tm),
                                val,
                            ));
                        }
                    }
                    (_, x) => {
                        let val = self.value(&mut rs, ty, x, &format!("expect.vars.{name}"))?;
                        out.push((name.clone(), var.scope, var.idx, None, val));
                    }
                }
            }
            out
        };
        let stop_sym = self.run.stop_at.as_ref().map(|k| rs.intern(k));
        let rs = &rs;
        let mut m = Game::new(
            rs,
            0,
            Box::new(dice),
            Box::new(script("home")),
            Box::new(script("away")),
        )
        .with_log();
        // `expect.offered` compares the options of a decision: the log must keep them.
        m.m.record_options = true;

        // ---- the position
        self.set_position(rs, &mut m.m.st, sets)?;

        // ---- what to run
        m.m.stop_at = stop_sym;
        m.m.set_schedule(self.plan(rs)?);
        let run_error = m.run(&mut |_, _| Ok(())).err().map(|e| e.to_string());
        let half_ended = m.m.half_ended;
        let narration: Vec<String> = m
            .events()
            .iter()
            .filter_map(|e| crate::log::narrate(rs, e, true))
            .collect();
        let mut failures = Vec::new();
        match (&self.expect.error, run_error) {
            (None, Some(e)) => failures.push(format!("the rules stopped with an error: {e}")),
            (Some(want), Some(e)) if !e.contains(want.as_str()) => failures.push(format!(
                "error: expected one containing \"{want}\", got: {e}"
            )),
            (Some(want), None) => failures.push(format!(
                "error: expected one containing \"{want}\", the run ended without error"
            )),
            _ => {}
        }
        for (kind, want) in &self.expect.offered {
            let first = m.events().iter().find_map(|e| match &e.kind {
                EventKind::Choice {
                    decision, offered, ..
                } if decision == kind => Some(offered.clone()),
                _ => None,
            });
            match first {
                None => failures.push(format!("offered \"{kind}\": no such decision was made")),
                Some(mut have) => {
                    let mut want = want.clone();
                    have.sort();
                    want.sort();
                    if have != want {
                        failures.push(format!(
                            "offered \"{kind}\": expected {want:?}, got {have:?}"
                        ));
                    }
                }
            }
        }

        // ---- expectations
        let st = &m.m.st;
        let x = &self.expect;
        fn check_in(failures: &mut Vec<String>, what: &str, expected: String, actual: String) {
            if expected != actual {
                failures.push(format!("{what}: expected {expected}, got {actual}"));
            }
        }
        macro_rules! check {
            ($what:expr, $e:expr, $a:expr) => {
                check_in(&mut failures, $what, $e, $a)
            };
        }
        if let Some(b) = &x.ball {
            check!(
                "ball.area",
                b.area.clone(),
                rs.board.name(st.ball_area).to_string()
            );
            check!("ball.value", b.value.to_string(), st.ball_value.to_string());
        }
        if let Some(v) = x.ball_value {
            check!("ball value", v.to_string(), st.ball_value.to_string());
        }
        if let Some(a) = &x.ball_area {
            check!(
                "ball area",
                a.clone(),
                rs.board.name(st.ball_area).to_string()
            );
        }
        if let Some(c) = &x.controlling {
            check!(
                "controlling team",
                c.clone(),
                crate::log::team_name(st.ball_owner).to_string()
            );
        }
        if let Some(s) = x.score {
            check!(
                "score",
                format!("{} - {}", s[0], s[1]),
                format!("{} - {}", st.score[0], st.score[1])
            );
        }
        if let Some(c) = &x.clock {
            check!(
                "clock",
                format!("half {} {}+{}", c.half, c.minute, c.added),
                format!(
                    "half {} {}+{}",
                    st.clock.half, st.clock.minute, st.clock.added
                )
            );
        }
        if let Some(h) = x.half_ended {
            check!("half ended", h.to_string(), half_ended.to_string());
        }
        for (team, areas) in &x.pieces {
            let t = self.team(team, "expect.pieces")?;
            for (area, n) in areas {
                let a = self.area(rs, area, "expect.pieces")?;
                let have = st.pieces[t as usize].count[a as usize];
                check!(
                    &format!("{team} pieces in {area}"),
                    n.to_string(),
                    have.to_string()
                );
            }
        }
        for (name, scope, idx, team, val) in &expect_vars {
            let i = *idx as usize;
            let t = team.unwrap_or(0) as usize;
            let have = match scope {
                Scope::Match => &st.vars_match[i],
                Scope::Team => &st.vars_team[i][t],
                Scope::Turn => &st.vars_turn[i],
                Scope::TeamTurn => &st.vars_team_turn[i][t],
            };
            check!(
                &format!("variable {name}"),
                value_json(rs, val).to_string(),
                value_json(rs, have).to_string()
            );
        }
        let kinds: Vec<String> = m
            .events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Emit { kind, .. } => Some(kind.clone()),
                EventKind::Goal { .. } => Some("goal".into()),
                EventKind::Table { table, row, .. } => Some(format!("table:{table}[{row}]")),
                _ => None,
            })
            .collect();
        for k in &x.events {
            if !kinds.contains(k) {
                failures.push(format!(
                    "event \"{k}\": expected, did not happen (events: {})",
                    kinds.join(", ")
                ));
            }
        }
        for k in &x.no_events {
            if kinds.contains(k) {
                failures.push(format!("event \"{k}\": happened, expected not to"));
            }
        }
        for (name, total) in &x.modifiers {
            let last = m.events().iter().rev().find_map(|e| match &e.kind {
                EventKind::Modifiers { name: n, total, .. } if n == name => Some(*total),
                _ => None,
            });
            match last {
                Some(t) => check!(
                    &format!("modifiers \"{name}\""),
                    total.to_string(),
                    t.to_string()
                ),
                None => failures.push(format!(
                    "modifiers \"{name}\": expected {total}, never computed"
                )),
            }
        }
        for (kind, fields) in &x.event_fields {
            let last = m.events().iter().rev().find_map(|e| match &e.kind {
                EventKind::Emit { kind: k, fields } if k == kind => Some(fields.clone()),
                _ => None,
            });
            let Some(have) = last else {
                failures.push(format!(
                    "event \"{kind}\": expected with fields, did not happen"
                ));
                continue;
            };
            for (f, want) in fields {
                let want_json = match want {
                    toml::Value::Integer(i) => serde_json::Value::from(*i),
                    toml::Value::Boolean(b) => serde_json::Value::from(*b),
                    toml::Value::String(s) => serde_json::Value::from(s.clone()),
                    other => serde_json::Value::from(other.to_string()),
                };
                let got = have.get(f).cloned().unwrap_or(serde_json::Value::Null);
                check!(
                    &format!("event \"{kind}\" field {f}"),
                    want_json.to_string(),
                    got.to_string()
                );
            }
        }
        for (team, n) in &x.choices_made {
            let made = m
                .events()
                .iter()
                .filter(|e| matches!(&e.kind, EventKind::Choice { team: t, options, .. } if t == team && *options > 1))
                .count();
            check!(
                &format!("choices made by {team}"),
                n.to_string(),
                made.to_string()
            );
        }
        if x.all_used.unwrap_or(x.error.is_none()) {
            // The scripted dice and agents report what is left through the log: count used.
            let used_dice: usize = m
                .events()
                .iter()
                .map(|e| match &e.kind {
                    EventKind::Roll { dice, .. } => dice.len(),
                    _ => 0,
                })
                .sum();
            if used_dice < self.run.dice.len() {
                failures.push(format!(
                    "scripted dice: {} given, {used_dice} used (the rules rolled fewer dice than the script)",
                    self.run.dice.len()
                ));
            }
            for (team, labels) in &self.run.choices {
                let made = m
                    .events()
                    .iter()
                    .filter(|e| matches!(&e.kind, EventKind::Choice { team: t, options, .. } if t == team && *options > 1))
                    .count();
                if made < labels.len() {
                    failures.push(format!(
                        "scripted choices for {team}: {} given, {made} used",
                        labels.len()
                    ));
                }
            }
        }
        Ok(Report {
            name: self.name.clone(),
            failures,
            narration,
        })
    }
}
