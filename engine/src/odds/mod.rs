//! Exact odds from a position, for any ruleset: every chance outcome is enumerated, never
//! sampled.
//!
//! A [`Position`] is a match value set up from a scenario (its position, and its run cut
//! as a [`Cut`] says: at a stage or the turn's end, [`Until`]). [`enumerate`] walks it
//! depth first: at a roll it goes on from a copy of the match for every outcome of the
//! dice (each with its exact probability, from [`crate::vm::Chance::outcomes`]); at a
//! decision it takes the scenario's scripted choice for that team when the script has one
//! that is legal there, and otherwise leaves it to a [`Policy`] whose choice is itself a
//! probability distribution (uniform over the legal options, or uniform over those with
//! the best `prefer` score), so the result stays exact. A path ends where the run ends, or
//! at the first decision or roll after an event of a kind the cut stops at; the state it
//! ends in is summed up as a [`Leaf`] (who controls the ball, its area and value, the
//! goals, the ruleset's `[figures]` counted on the way, the state variables asked for) and
//! identical leaves are merged, their probabilities added as exact fractions ([`Frac`]).
//! The walk is bounded: more than [`Settings::max_nodes`] branches is an error
//! ([`OddsError::TooLarge`]), never a run without end. [`sample`] plays one path the same
//! way with seeded dice: the Monte Carlo check of the enumeration.
//!
//! Nothing here knows an edition: stages, rolls, decisions and figures are the ruleset's.
//! The format and the policies are described in `docs/odds.md`.

mod frac;
mod sample;
mod walk;

pub use frac::Frac;
pub use sample::sample;
pub use walk::enumerate;

use std::fmt;

use crate::log::value_json;
use crate::ruleset::Ruleset;
use crate::scenario::{Scenario, ScenarioError};
use crate::value::{Team, Value};
use crate::vm::{Match, RunError, Schedule};

/// The default bound on the branches of one enumeration (each outcome of a roll and each
/// option a policy may take counts one): a few seconds in a release build (about 4 µs a
/// branch), ten times that in a debug build.
pub const MAX_NODES: u64 = 1_000_000;

pub use crate::scenario::Policy;

/// Where the enumeration stops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Until {
    /// Where the scenario's run ends.
    RunEnd,
    /// When this stage (or procedure of the run) has finished: the run is cut after it.
    Stage(String),
    /// When the turn ends: the run goes on to the turn's last stage (the turn-end
    /// procedure, which settles things between turns, is not run).
    TurnEnd,
}

impl Until {
    /// Reads `turn-end` or a stage name.
    pub fn parse(s: &str) -> Until {
        match s {
            "turn-end" => Until::TurnEnd,
            _ => Until::Stage(s.to_string()),
        }
    }
}

impl fmt::Display for Until {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Until::RunEnd => write!(f, "the end of the scenario's run"),
            Until::Stage(s) => write!(f, "the end of {s}"),
            Until::TurnEnd => write!(f, "the end of the turn"),
        }
    }
}

/// How an enumeration runs.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Who answers decisions the script does not.
    pub policy: Policy,
    /// The most branches to walk before giving up with [`OddsError::TooLarge`].
    pub max_nodes: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            policy: Policy::Heuristic,
            max_nodes: MAX_NODES,
        }
    }
}

/// Why the odds could not be worked out.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OddsError {
    /// The scenario cannot be set up.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// The cut asked for does not fit the scenario or the rules: a stage the run does not
    /// reach, an event kind no rule emits, a variable the rules do not have.
    #[error("{0}")]
    Setup(String),
    /// The walk went past its bound.
    #[error(
        "more than {limit} branches to enumerate from this position; stop earlier (an earlier stage, fewer decisions left to a policy)"
    )]
    TooLarge {
        /// The bound ([`Settings::max_nodes`]).
        limit: u64,
    },
    /// A rule failed on one of the branches.
    #[error("{error}\n  on the branch: {path}")]
    Rule {
        /// The error.
        error: Box<RunError>,
        /// The dice and choices that lead to it.
        path: String,
    },
    /// A decision the script does not answer, with no policy to answer it.
    #[error("{message}\n  on the branch: {path}")]
    Script {
        /// What is missing.
        message: String,
        /// The dice and choices that lead to it.
        path: String,
    },
}

/// What the run ends in, summed up: the key identical paths are merged by.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Leaf {
    /// The team with the ball.
    pub controlling: Team,
    /// The ball's area, by name.
    pub ball_area: String,
    /// The ball value.
    pub ball_value: i64,
    /// Goals scored during the run, home first.
    pub goals: [i64; 2],
    /// The ruleset's figures (`[figures]`) counted during the run, in the ruleset's order,
    /// those not seen left out: a figure of event kinds by its name, a figure that breaks a
    /// kind down by a field as `NAME[VALUE]`.
    pub events: Vec<(String, u32)>,
    /// The values of the state variables asked for, as `(name, value)`: a per-team
    /// variable as `home VALUE, away VALUE`.
    pub vars: Vec<(String, String)>,
    /// The event kind the path stopped at, when it ended at a stop event rather than at
    /// the end of the run.
    pub stop: Option<String>,
}

/// Each of the ruleset's figures as counted in `m` so far.
fn figure_counts(m: &Match<'_>) -> Vec<u32> {
    let figures = m.rs.figures.iter().enumerate();
    figures.map(|(i, f)| f.count(i, &m.counters)).collect()
}

/// What a position's counts were before the run, to tell what the run added.
#[derive(Debug, Clone)]
pub struct Before {
    score: [i64; 2],
    emits: Vec<u32>,
    /// Each figure's count ([`crate::ruleset::Figure::count`]).
    figures: Vec<u32>,
    by_field: Vec<Vec<(Value, u32)>>,
}

impl Before {
    /// The counts of `m` now.
    pub fn of(m: &Match<'_>) -> Before {
        Before {
            score: m.st.score,
            emits: m.counters.emits.clone(),
            figures: figure_counts(m),
            by_field: m.counters.by_field.clone(),
        }
    }

    /// The first of `stops` that happened since these counts, if any.
    pub fn stopped(&self, m: &Match<'_>, stops: &[Stop]) -> Option<usize> {
        stops.iter().position(|s| match s.sym {
            None => m.st.score != self.score,
            Some(k) => {
                let k = k as usize;
                m.counters.emits.get(k).copied().unwrap_or(0)
                    > self.emits.get(k).copied().unwrap_or(0)
            }
        })
    }

    /// The leaf `m` ends in, counted from these counts (`stop`: the stop event it ended
    /// at, if any; `vars`: the state variables to read).
    pub fn leaf(&self, m: &Match<'_>, stop: Option<&Stop>, vars: &[Watch]) -> Leaf {
        let rs = m.rs;
        let mut events = Vec::new();
        for ((f, now), before) in rs.figures.iter().zip(figure_counts(m)).zip(&self.figures) {
            let n = now.saturating_sub(*before);
            if n > 0 {
                events.push((f.name.clone(), n));
            }
        }
        for (i, b) in rs.breakdowns.iter().enumerate() {
            let was = self.by_field.get(i);
            for (v, n) in m.counters.by_field.get(i).into_iter().flatten() {
                let before = was
                    .and_then(|w| w.iter().find(|(x, _)| x == v))
                    .map_or(0, |x| x.1);
                if *n > before {
                    let shown = match value_json(rs, v) {
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    };
                    events.push((format!("{}[{shown}]", b.name), n - before));
                }
            }
        }
        Leaf {
            controlling: m.st.ball_owner,
            ball_area: rs.board.name(m.st.ball_area).to_string(),
            ball_value: m.st.ball_value,
            goals: [m.st.score[0] - self.score[0], m.st.score[1] - self.score[1]],
            events,
            vars: vars.iter().map(|w| (w.name.clone(), w.read(m))).collect(),
            stop: match stop {
                Some(s) => Some(s.kind.clone()),
                None if m.stopped => m.stop_at.map(|k| rs.symbol(k).to_string()),
                None => None,
            },
        }
    }
}

/// A state variable whose value at the end is part of each outcome.
#[derive(Debug, Clone)]
pub struct Watch {
    /// Its name.
    pub name: String,
    var: crate::ir::VarRef,
}

impl Watch {
    /// Finds the variable `name` of the rules.
    fn new(rs: &Ruleset, name: &str) -> Result<Watch, OddsError> {
        match rs.var(name) {
            Some((var, _)) => Ok(Watch {
                name: name.to_string(),
                var,
            }),
            None => Err(OddsError::Setup(format!(
                "variable `{name}`: the rules have no state variable of that name"
            ))),
        }
    }

    /// Its value in `m`, as text.
    fn read(&self, m: &Match<'_>) -> String {
        use crate::ir::Scope;
        let st = &m.st;
        let i = usize::from(self.var.idx);
        let show = |v: Option<&Value>| match v.map(|v| value_json(m.rs, v)) {
            Some(serde_json::Value::String(s)) => s,
            Some(other) => other.to_string(),
            None => "?".into(),
        };
        let pair = |v: Option<&[Value; 2]>| match v {
            Some([h, a]) => format!("home {}, away {}", show(Some(h)), show(Some(a))),
            None => "?".into(),
        };
        match self.var.scope {
            Scope::Match => show(st.vars_match.get(i)),
            Scope::Turn => show(st.vars_turn.get(i)),
            Scope::Team => pair(st.vars_team.get(i)),
            Scope::TeamTurn => pair(st.vars_team_turn.get(i)),
        }
    }
}

/// An event kind that ends a path.
#[derive(Debug, Clone)]
pub struct Stop {
    /// The kind, as written.
    pub kind: String,
    /// Its symbol; `None` for `goal` (a change of the score).
    pub sym: Option<crate::value::Sym>,
}

/// A match set up at a scenario's position, its run cut at the stop asked for.
pub struct Position<'r> {
    /// The match, not started.
    pub m: Match<'r>,
    /// Each team's scripted choices (labels, in order), home first.
    pub scripts: [Vec<String>; 2],
    /// The counts before the run.
    pub before: Before,
    /// What runs: the procedures in order, or `N turns`.
    pub plan: String,
    /// Event kinds at which a path ends.
    pub stops: Vec<Stop>,
    /// State variables read into each outcome.
    pub vars: Vec<Watch>,
    /// How many scripted dice the scenario gives (not used: every roll is enumerated).
    pub ignored_dice: usize,
}

/// What to enumerate from a position, besides its policy: where the run is cut, the
/// events that end a path, and the state variables each outcome reads.
#[derive(Debug, Clone, Default)]
pub struct Cut {
    /// Where the run is cut.
    pub until: Option<Until>,
    /// Event kinds (an `emit` kind, or `goal`) at whose first event a path ends.
    pub stops: Vec<String>,
    /// State variables whose values at the end are part of each outcome.
    pub vars: Vec<String>,
}

/// Sets a scenario's position up under `rs` (a copy of the rules the scenario is to run
/// under: the strings it names are interned in it), with its run cut as `cut` says.
pub fn position<'r>(
    sc: &Scenario,
    rs: &'r mut Ruleset,
    cut: &Cut,
) -> Result<Position<'r>, OddsError> {
    let stops = cut
        .stops
        .iter()
        .map(|k| stop(rs, k))
        .collect::<Result<Vec<_>, _>>()?;
    let vars = cut
        .vars
        .iter()
        .map(|v| Watch::new(rs, v))
        .collect::<Result<Vec<_>, _>>()?;
    let until = cut.until.clone().unwrap_or(Until::RunEnd);
    let mut m = sc.start(rs)?;
    let rs = m.rs;
    let name = |p: u16| rs.procs[p as usize].name.as_str();
    let stages = || rs.stages.iter().map(|s| name(*s)).collect::<Vec<_>>();
    let plan = sc.plan(rs)?;
    let cut = match (&plan, &until) {
        (_, Until::RunEnd) => plan.clone(),
        (Schedule::Procs(list), Until::Stage(s)) => {
            // Cut after the stage; or, past the run's last stage, go on to it.
            let last = list
                .last()
                .and_then(|p| rs.stages.iter().position(|x| x == p));
            let later = rs.stages.iter().position(|p| name(*p) == s);
            match (list.iter().position(|p| name(*p) == s), last, later) {
                (Some(i), _, _) => Schedule::Procs(list[..=i].to_vec()),
                (None, Some(j), Some(k)) if k > j => {
                    let mut list = list.clone();
                    list.extend_from_slice(&rs.stages[j + 1..=k]);
                    Schedule::Procs(list)
                }
                _ => {
                    let runs: Vec<&str> = list.iter().map(|p| name(*p)).collect();
                    return Err(OddsError::Setup(format!(
                        "--until {s}: the scenario's run ({}) neither runs `{s}` nor reaches it later in the turn (the stages are {})",
                        runs.join(", "),
                        stages().join(", ")
                    )));
                }
            }
        }
        (Schedule::Procs(list), Until::TurnEnd) => {
            let last = list
                .last()
                .and_then(|p| rs.stages.iter().position(|s| s == p));
            let Some(j) = last else {
                return Err(OddsError::Setup(format!(
                    "--until turn-end: the scenario's run does not end in a stage of the turn ({})",
                    stages().join(", ")
                )));
            };
            let mut list = list.clone();
            list.extend_from_slice(&rs.stages[j + 1..]);
            Schedule::Procs(list)
        }
        (Schedule::Turns(_), Until::Stage(s)) => {
            let Some(i) = rs.stages.iter().position(|p| name(*p) == s) else {
                return Err(OddsError::Setup(format!(
                    "--until {s}: `{s}` is not a stage; the stages are {}",
                    stages().join(", ")
                )));
            };
            m.st.reset_turn_vars(rs);
            Schedule::Procs(rs.stages[..=i].to_vec())
        }
        (Schedule::Turns(_), Until::TurnEnd) => {
            m.st.reset_turn_vars(rs);
            Schedule::Procs(rs.stages.clone())
        }
        (other, _) => {
            return Err(OddsError::Setup(format!(
                "--until: the scenario's run ({other:?}) cannot be cut"
            )));
        }
    };
    let plan_text = match &cut {
        Schedule::Procs(list) => list.iter().map(|p| name(*p)).collect::<Vec<_>>().join(", "),
        Schedule::Turns(n) => format!("{n} turn{}", if *n == 1 { "" } else { "s" }),
        other => format!("{other:?}"),
    };
    m.set_schedule(cut);
    let script = |t: &str| sc.run.choices.get(t).cloned().unwrap_or_default();
    Ok(Position {
        before: Before::of(&m),
        m,
        scripts: [script("home"), script("away")],
        plan: plan_text,
        stops,
        vars,
        ignored_dice: sc.run.dice.len(),
    })
}

/// An event kind to stop at, checked against the rules: some rule must be able to emit it.
fn stop(rs: &Ruleset, kind: &str) -> Result<Stop, OddsError> {
    if kind == "goal" {
        return Ok(Stop {
            kind: kind.into(),
            sym: None,
        });
    }
    if let Some(sym) = rs.sym(kind) {
        return Ok(Stop {
            kind: kind.into(),
            sym: Some(sym),
        });
    }
    let mut known: Vec<&str> = rs.narration.keys().map(|k| rs.symbol(*k)).collect();
    known.sort_by_key(|k| crate::edit_distance(k, kind));
    Err(OddsError::Setup(format!(
        "stop at `{kind}`: no rule emits an event of that kind{}",
        known
            .first()
            .map_or_else(String::new, |k| format!(" (did you mean `{k}`?)"))
    )))
}

/// The exact distribution of what a run ends in.
#[derive(Debug, Clone)]
pub struct Distribution {
    /// Every distinct leaf with its probability, most likely first (then by leaf).
    pub outcomes: Vec<(Leaf, Frac)>,
    /// Branches walked (outcomes of rolls and options of policy decisions).
    pub nodes: u64,
    /// Paths walked to the end of the run.
    pub paths: u64,
    /// Decisions answered by the script (counted on every path through them).
    pub scripted: u64,
    /// Decisions answered by the policy.
    pub by_policy: u64,
    /// Decisions with several options to which the policy gave more than one.
    pub split: u64,
}

impl Distribution {
    /// The sum of every outcome's probability (1, when nothing was lost).
    pub fn total(&self) -> Frac {
        self.outcomes
            .iter()
            .fold(Frac::zero(), |acc, (_, p)| acc.add(p))
    }

    /// The distribution of one feature of the leaves, in the feature's order.
    pub fn marginal<K: Ord>(&self, key: impl Fn(&Leaf) -> K) -> Vec<(K, Frac)> {
        let mut m: std::collections::BTreeMap<K, Frac> = std::collections::BTreeMap::new();
        for (leaf, p) in &self.outcomes {
            let e = m.entry(key(leaf)).or_insert_with(Frac::zero);
            *e = e.add(p);
        }
        m.into_iter().collect()
    }

    /// For each event name seen: the chance it happens at least once, and its expected
    /// count, in the order first seen in the ruleset's figures.
    pub fn events(&self, rs: &Ruleset) -> Vec<(String, Frac, Frac)> {
        let mut names: Vec<String> = Vec::new();
        for (leaf, _) in &self.outcomes {
            for (n, _) in &leaf.events {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        let rank = |n: &str| {
            let base = n.split('[').next().unwrap_or(n);
            rs.figures
                .iter()
                .position(|f| f.name == base)
                .or_else(|| {
                    rs.breakdowns
                        .iter()
                        .position(|b| b.name == base)
                        .map(|i| i + rs.figures.len())
                })
                .unwrap_or(usize::MAX)
        };
        names.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
        names
            .into_iter()
            .map(|n| {
                let mut any = Frac::zero();
                let mut mean = Frac::zero();
                for (leaf, p) in &self.outcomes {
                    if let Some((_, k)) = leaf.events.iter().find(|e| e.0 == n) {
                        any = any.add(p);
                        mean = mean.add(&p.times(u64::from(*k)));
                    }
                }
                (n, any, mean)
            })
            .collect()
    }
}
