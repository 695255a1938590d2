//! The scenario file's parts as written: the position, the run and the expectations.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::Deserialize;

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
