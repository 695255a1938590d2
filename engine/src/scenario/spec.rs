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
    /// Run whole turns until the half ends (`"half end"`) or, through every half time,
    /// until the match ends (`"match end"`); with `turns`, at most that many turns.
    pub until: Option<String>,
    /// Stop at the first event of this kind (an `emit` kind or `goal`).
    pub stop_at: Option<String>,
    /// Dice, in order.
    #[serde(default)]
    pub dice: Vec<u8>,
    /// Choices by label, per team.
    #[serde(default)]
    pub choices: BTreeMap<String, Vec<String>>,
    /// Each setup's placement, per team, as a position: field pieces per area the setup
    /// ends with (the rules' placement decision is answered from it).
    #[serde(default)]
    pub placements: BTreeMap<String, IndexMap<String, u8>>,
}

/// How exact odds are worked out from a scenario's position ([`crate::odds`],
/// `docs/odds.md`); the command line's flags win over these.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OddsSpec {
    /// Where to stop: a stage name or `turn-end` (default: where the run ends).
    pub until: Option<String>,
    /// Who decides what the script does not.
    pub policy: Option<Policy>,
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
    /// Totals of modifier lists, by name: the last one computed, or the one a
    /// [`ModifiersSpec`] picks.
    #[serde(default)]
    pub modifiers: IndexMap<String, ModifiersSpec>,
    /// Fields of an event of a kind (the last one, or the ones an [`EventFieldsSpec`]
    /// picks, or a list of such checks): `{ "pass" = { result = "kept" } }`.
    #[serde(default)]
    pub event_fields: IndexMap<String, EventFieldsChecks>,
    /// Number of choices the given team made.
    #[serde(default)]
    pub choices_made: BTreeMap<String, usize>,
    /// Whether every scripted die and choice must have been used (default true).
    pub all_used: Option<bool>,
    /// The legal options of a decision of a kind: `{ "target area" = ["A", "B"] }` (the
    /// first decision, compared as sets), an [`OfferedSpec`], or a list of them.
    #[serde(default)]
    pub offered: IndexMap<String, OfferedChecks>,
    /// The team whose piece moved first (a move, not a setup's placement).
    pub moved_first: Option<String>,
    /// Whether the match is over (its last half ended) when the run ends.
    pub match_over: Option<bool>,
    /// Whether the run reached the end of its list: every procedure (or stage) it lists ran,
    /// none left out because an earlier one ended the turn or half or reached `stop_at`.
    pub completed: Option<bool>,
    /// The run must stop with an error whose message contains this text (an illegal
    /// scripted choice, for instance).
    pub error: Option<String>,
}

/// Which of the decisions or events of a kind an expectation looks at.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Which {
    /// The kind's default: the first decision, the last event or list.
    #[default]
    Default,
    /// The nth (1-based).
    Nth(usize),
    /// Every one of them (and at least one).
    Every,
    /// At least one of them.
    Any,
}

/// What `offered` checks of a decision's legal options.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct OfferedSpec {
    /// Exactly these labels (as a set).
    pub exactly: Option<Vec<String>>,
    /// At least these labels.
    pub includes: Vec<String>,
    /// None of these labels.
    pub excludes: Vec<String>,
    /// Only the decisions of this team.
    pub team: Option<String>,
    /// Which decision.
    pub which: Which,
}

/// The checks of one decision kind's options: a list of labels (one exact check), a table
/// (one [`OfferedSpec`]) or a list of tables.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OfferedChecks(pub Vec<OfferedSpec>);

impl<'de> Deserialize<'de> for OfferedChecks {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let v = toml::Value::deserialize(d)?;
        let specs = match v {
            toml::Value::Array(items) if items.iter().all(toml::Value::is_table) => {
                if items.is_empty() {
                    // `[]`: nothing offered at all (an exact check).
                    vec![OfferedSpec {
                        exactly: Some(Vec::new()),
                        ..OfferedSpec::default()
                    }]
                } else {
                    items
                        .into_iter()
                        .map(OfferedSpec::from_value)
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(D::Error::custom)?
                }
            }
            other => vec![OfferedSpec::from_value(other).map_err(D::Error::custom)?],
        };
        Ok(OfferedChecks(specs))
    }
}

/// What `event_fields` checks of events of a kind.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct EventFieldsSpec {
    /// The fields and their values.
    pub fields: IndexMap<String, toml::Value>,
    /// Which event (default: the last).
    pub which: Which,
}

/// What `modifiers` checks of the lists of a name.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ModifiersSpec {
    /// The expected total.
    pub total: i64,
    /// Only lists computed after the first decision of this name was made: the list of
    /// what was played, not the lists computed to offer the options.
    pub after: Option<String>,
    /// Which list (default: the last; with `after`, the first after it).
    pub which: Which,
}

/// The keys of a table form, checked: an unknown key is an error naming the closest one.
fn table_keys(t: &toml::Table, known: &[&str]) -> Result<(), String> {
    for k in t.keys() {
        if !known.contains(&k.as_str()) {
            return Err(format!(
                "unknown key `{k}`, expected one of {}{}",
                known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                super::names::hint(k, known.iter().copied())
            ));
        }
    }
    Ok(())
}

/// `nth`, `every` and `any` of a table form (at most one of them).
fn which(t: &toml::Table) -> Result<Which, String> {
    let flag = |k: &str| match t.get(k) {
        None => Ok(false),
        Some(toml::Value::Boolean(b)) => Ok(*b),
        Some(v) => Err(format!("`{k}` is true or false, not {v}")),
    };
    let nth = match t.get("nth") {
        None => None,
        Some(toml::Value::Integer(n)) if *n >= 1 => Some(*n as usize),
        Some(v) => return Err(format!("`nth` counts from 1, not {v}")),
    };
    match (nth, flag("every")?, flag("any")?) {
        (None, false, false) => Ok(Which::Default),
        (Some(n), false, false) => Ok(Which::Nth(n)),
        (None, true, false) => Ok(Which::Every),
        (None, false, true) => Ok(Which::Any),
        _ => Err("give at most one of `nth`, `every` and `any`".into()),
    }
}

fn labels(t: &toml::Table, k: &str) -> Result<Option<Vec<String>>, String> {
    match t.get(k) {
        None => Ok(None),
        Some(toml::Value::Array(items)) => items
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("`{k}` lists labels (strings), not {x}"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(v) => Err(format!("`{k}` is a list of labels, not {v}")),
    }
}

impl OfferedSpec {
    /// One check from its TOML: a list of labels (exactly these) or a table.
    fn from_value(v: toml::Value) -> Result<OfferedSpec, String> {
        let t = match v {
            toml::Value::Array(_) => {
                let t = toml::Table::from_iter([("exactly".to_string(), v)]);
                return Ok(OfferedSpec {
                    exactly: labels(&t, "exactly")?,
                    ..OfferedSpec::default()
                });
            }
            toml::Value::Table(t) => t,
            other => {
                return Err(format!(
                    "a list of labels or a table (`exactly`, `includes`, `excludes`, `team`, \
                     `nth`, `every`, `any`), not {other}"
                ));
            }
        };
        let go = || -> Result<OfferedSpec, String> {
            table_keys(
                &t,
                &[
                    "exactly", "includes", "excludes", "team", "nth", "every", "any",
                ],
            )?;
            let team = match t.get("team") {
                None => None,
                Some(toml::Value::String(s)) => Some(s.clone()),
                Some(v) => return Err(format!("`team` is \"home\" or \"away\", not {v}")),
            };
            Ok(OfferedSpec {
                exactly: labels(&t, "exactly")?,
                includes: labels(&t, "includes")?.unwrap_or_default(),
                excludes: labels(&t, "excludes")?.unwrap_or_default(),
                team,
                which: which(&t)?,
            })
        };
        go()
    }
}

/// The checks of one event kind's fields: a table (one [`EventFieldsSpec`]) or a list of
/// them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EventFieldsChecks(pub Vec<EventFieldsSpec>);

impl EventFieldsSpec {
    /// One check from its table: `{ fields = { ... }, nth = 2 }` picks the event; any other
    /// table is the fields of the last one.
    fn from_table(t: toml::Table) -> Result<EventFieldsSpec, String> {
        let Some(toml::Value::Table(fields)) = t.get("fields") else {
            return Ok(EventFieldsSpec {
                fields: t.into_iter().collect(),
                which: Which::Default,
            });
        };
        table_keys(&t, &["fields", "nth", "every", "any"])?;
        Ok(EventFieldsSpec {
            fields: fields.clone().into_iter().collect(),
            which: which(&t)?,
        })
    }
}

impl<'de> Deserialize<'de> for EventFieldsChecks {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let specs = match toml::Value::deserialize(d)? {
            toml::Value::Table(t) => {
                vec![EventFieldsSpec::from_table(t).map_err(D::Error::custom)?]
            }
            toml::Value::Array(items) => items
                .into_iter()
                .map(|v| match v {
                    toml::Value::Table(t) => EventFieldsSpec::from_table(t),
                    other => Err(format!("a table of fields, not {other}")),
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(D::Error::custom)?,
            other => {
                return Err(D::Error::custom(format!(
                    "a table of fields or a list of them, not {other}"
                )));
            }
        };
        Ok(EventFieldsChecks(specs))
    }
}

impl<'de> Deserialize<'de> for ModifiersSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let t = match toml::Value::deserialize(d)? {
            toml::Value::Integer(total) => {
                return Ok(ModifiersSpec {
                    total,
                    ..ModifiersSpec::default()
                });
            }
            toml::Value::Table(t) => t,
            other => {
                return Err(D::Error::custom(format!(
                    "a total or a table (`total`, `after`, `nth`, `every`, `any`), not {other}"
                )));
            }
        };
        let go = || -> Result<ModifiersSpec, String> {
            table_keys(&t, &["total", "after", "nth", "every", "any"])?;
            let Some(toml::Value::Integer(total)) = t.get("total") else {
                return Err("`total` (an integer) is missing".into());
            };
            let after = match t.get("after") {
                None => None,
                Some(toml::Value::String(s)) => Some(s.clone()),
                Some(v) => return Err(format!("`after` names a decision, not {v}")),
            };
            Ok(ModifiersSpec {
                total: *total,
                after,
                which: which(&t)?,
            })
        };
        go().map_err(D::Error::custom)
    }
}

/// Who answers the decisions the scenario does not script when exact odds are worked out
/// ([`crate::odds`], which re-exports it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// Nobody: a decision the script does not answer is an error.
    Scripted,
    /// Each legal option with equal probability (the random agent's choice, exactly).
    Random,
    /// The options with the best `prefer` score, ties with equal probability; every option
    /// alike when the rule gives no scores (the heuristic agent's choice, exactly).
    Heuristic,
}

impl Policy {
    /// The policy's name, as the command line writes it.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Scripted => "scripted",
            Policy::Random => "random",
            Policy::Heuristic => "heuristic",
        }
    }
}
