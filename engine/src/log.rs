//! The match log: every die, choice and effect as an event (JSON Lines, format in
//! `docs/log-format.md`), and its narration as readable text.

use serde::{Deserialize, Serialize};

use crate::ruleset::Ruleset;
use crate::value::{Team, Value};

/// Version of the log format.
pub const LOG_VERSION: u32 = 1;

/// The first line of a log file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct LogHeader {
    /// Always `fuba-log`.
    pub format: String,
    /// [`LOG_VERSION`].
    pub version: u32,
    /// The ruleset's name.
    pub ruleset: String,
    /// A fingerprint of the ruleset file's content.
    pub fingerprint: String,
    /// The rulebook (edition) the ruleset encodes: its `[meta] source`, which a house rule
    /// inherits from the edition it extends. Empty when the ruleset names none, and in logs
    /// written before the header recorded it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rulebook: String,
    /// The match seed.
    pub seed: u64,
    /// The home agent.
    pub home: String,
    /// The away agent.
    pub away: String,
    /// The match options set to something other than their default, as `NAME=VALUE`
    /// (`--option NAME=VALUE` of `fuba play`; see [`options_set`]), which a replay sets
    /// again. Empty when none was set, and in logs written before the header recorded them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
}

/// The match options of `rs` set to something other than their default, as `name=value`
/// (a flag as `on`/`off`, as the command line takes it), in the ruleset's order.
pub fn options_set(rs: &Ruleset) -> Vec<String> {
    rs.options
        .iter()
        .filter(|o| o.value != o.default)
        .map(|o| {
            let v = match &o.value {
                Value::Bool(b) => (if *b { "on" } else { "off" }).to_string(),
                v => match value_json(rs, v) {
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                },
            };
            format!("{}={v}", o.name)
        })
        .collect()
}

/// One event of a match.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Event {
    /// Position in the log (0-based).
    pub seq: u32,
    /// The half.
    pub half: u32,
    /// Turn within the half (0 before the first turn).
    pub turn: u32,
    /// The minute when the event happened.
    pub minute: i64,
    /// The added minute (stoppage time).
    pub added: i64,
    /// The stage (procedure run by the match) during which it happened.
    pub stage: String,
    /// The rule that produced it: `procedures.NAME`, `tables.NAME[KEY]`, `triggers.NAME`.
    pub rule: String,
    /// The rulebook section of that rule, when the ruleset records one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub section: String,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// One applied or skipped row of a modifier list.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ModRowLog {
    /// The row's label.
    pub label: String,
    /// Whether its condition held.
    pub applied: bool,
    /// What it added (0 when not applied).
    pub value: i64,
}

/// The kinds of event.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// Dice were rolled.
    Roll {
        /// Who rolled.
        team: Option<String>,
        /// What for.
        label: String,
        /// Every die rolled.
        dice: Vec<u8>,
        /// The dice kept.
        kept: Vec<u8>,
    },
    /// An agent chose.
    Choice {
        /// Who chose.
        team: String,
        /// The decision.
        decision: String,
        /// The option taken.
        label: String,
        /// How many options were legal.
        options: usize,
        /// Whether the choice was hidden from the other team.
        secret: bool,
        /// Every legal option's label (recorded only when asked for: scenarios).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        offered: Vec<String>,
    },
    /// A modifier list was summed.
    Modifiers {
        /// Its name.
        name: String,
        /// Every row.
        rows: Vec<ModRowLog>,
        /// The sum.
        total: i64,
    },
    /// A table row was used.
    Table {
        /// The table.
        table: String,
        /// The key looked up.
        key: String,
        /// The row's key as written.
        row: String,
        /// The row's words.
        label: String,
    },
    /// A trigger fired at a hook.
    Trigger {
        /// The trigger.
        trigger: String,
        /// The hook.
        hook: String,
        /// What it added to the hook's value.
        value: i64,
    },
    /// A rule emitted an event.
    Emit {
        /// The event kind.
        kind: String,
        /// Its fields.
        fields: serde_json::Map<String, serde_json::Value>,
    },
    /// A piece moved.
    Move {
        /// Whose.
        team: String,
        /// From.
        from: String,
        /// To.
        to: String,
        /// Whether it is the goalkeeper.
        keeper: bool,
    },
    /// A piece was placed in a setup.
    Place {
        /// Whose.
        team: String,
        /// Where.
        area: String,
        /// Whether it is the goalkeeper.
        keeper: bool,
    },
    /// The team's pieces were taken off for a new setup.
    Clear {
        /// Whose.
        team: String,
    },
    /// A piece left the match.
    Remove {
        /// Whose.
        team: String,
        /// From where.
        area: String,
    },
    /// The ball moved.
    Ball {
        /// Where to.
        area: String,
    },
    /// The ball value changed.
    BallValue {
        /// The new value.
        value: i64,
    },
    /// Ball control changed hands.
    Control {
        /// The new controlling team.
        team: String,
    },
    /// The phasing team changed.
    Phasing {
        /// The new phasing team.
        team: String,
    },
    /// The time marker moved (the event's own `minute`/`added` are the time before).
    Clock {
        /// The new minute.
        to_minute: i64,
        /// The new added minute.
        to_added: i64,
    },
    /// A goal.
    Goal {
        /// The scoring team.
        team: String,
        /// The score after it, home first.
        score: [i64; 2],
    },
    /// A turn began.
    TurnStart,
    /// A half ended.
    HalfEnd {
        /// `rules` (the ruleset ended it) or `runaway` (the turn cap did).
        reason: String,
    },
    /// The match ended.
    MatchEnd {
        /// The final score, home first.
        score: [i64; 2],
    },
}

/// "home" or "away".
pub fn team_name(t: Team) -> &'static str {
    if t == 0 { "home" } else { "away" }
}

/// A value as JSON, with names for areas and teams.
pub fn value_json(rs: &Ruleset, v: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Value::None => J::Null,
        Value::Int(i) => J::from(*i),
        Value::Bool(b) => J::from(*b),
        Value::Str(s) => J::from(rs.symbol(*s)),
        Value::Team(t) => J::from(team_name(*t)),
        Value::Area(a) => J::from(rs.board.name(*a)),
        Value::Areas(s) => J::Array(s.iter().map(|a| J::from(rs.board.name(a))).collect()),
        Value::Dice(d) => J::Array(d.as_slice().iter().map(|x| J::from(*x)).collect()),
        Value::Move(m) => J::from(format!(
            "{}{}->{}",
            if m.keeper { "GK " } else { "" },
            rs.board.name(m.from),
            rs.board.name(m.to)
        )),
        Value::Moves(ms) => J::from(ms.len()),
        Value::List(l) => J::Array(l.iter().map(|x| J::from(*x)).collect()),
    }
}

fn json_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "-".into(),
        serde_json::Value::Array(a) => a.iter().map(json_text).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Fills a narration template: `{field}` is the event's field (`home`/`away`
/// capitalised); `{field?TEXT}` is TEXT when the field is true (a non-zero number, a
/// non-empty text) and nothing otherwise, `{field?TEXT|ELSE}` ELSE otherwise;
/// `{a=b?TEXT|ELSE}` tests whether fields `a` and `b` are equal (or field `a` equals the
/// text `b`). TEXT and ELSE are templates themselves. A name that is no field is left as
/// written.
pub fn fill(template: &str, fields: &serde_json::Map<String, serde_json::Value>) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match closing(after) {
            Some(j) => {
                out.push_str(&placeholder(&after[..j], fields));
                rest = &after[j + 1..];
            }
            None => {
                out.push_str(&rest[i..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where the `}` closing a `{` just before `s` is, braces nested inside counted.
fn closing(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(i),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The text of one `{...}` of a template.
fn placeholder(key: &str, fields: &serde_json::Map<String, serde_json::Value>) -> String {
    if let Some((test, branches)) = key.split_once('?') {
        let (yes, no) = split_top(branches);
        let holds = match test.split_once('=') {
            Some((a, b)) => match (fields.get(a), fields.get(b)) {
                (Some(x), Some(y)) => x == y,
                (Some(x), None) => json_text(x) == b,
                _ => false,
            },
            None => match fields.get(test) {
                Some(serde_json::Value::Bool(b)) => *b,
                Some(serde_json::Value::Number(n)) => n.as_f64() != Some(0.0),
                Some(serde_json::Value::String(s)) => !s.is_empty(),
                Some(serde_json::Value::Null) | None => false,
                Some(_) => true,
            },
        };
        return fill(if holds { yes } else { no }, fields);
    }
    match fields.get(key) {
        Some(serde_json::Value::String(s)) if s == "home" || s == "away" => cap(s),
        Some(v) => json_text(v),
        None => format!("{{{key}}}"),
    }
}

/// `TEXT|ELSE` split at its first `|` outside braces (`ELSE` empty when there is none).
fn split_top(s: &str) -> (&str, &str) {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            '|' if depth == 0 => return (&s[..i], &s[i + 1..]),
            _ => {}
        }
    }
    (s, "")
}

/// The time of an event as players say it: `23'`, `45+2'`.
pub fn time_text(e: &Event) -> String {
    if e.added > 0 {
        format!("{}+{}'", e.minute, e.added)
    } else {
        format!("{}'", e.minute)
    }
}

/// A readable line for an event, or `None` for events only shown when `verbose`.
pub fn narrate(rs: &Ruleset, e: &Event, verbose: bool) -> Option<String> {
    let t = time_text(e);
    let line = match &e.kind {
        EventKind::Emit { kind, fields } => {
            let template = rs.sym(kind).and_then(|k| rs.narration.get(&k));
            match template {
                Some(tpl) => format!("{t} {}", fill(tpl, fields)),
                None if verbose => format!(
                    "{t} {kind}: {}",
                    fields
                        .iter()
                        .map(|(k, v)| format!("{k} {}", json_text(v)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None => return None,
            }
        }
        EventKind::Goal { team, score } => {
            format!("{t} GOAL for {}! {} - {}", cap(team), score[0], score[1])
        }
        EventKind::HalfEnd { reason } => {
            let r = if reason == "runaway" {
                " (turn limit reached)"
            } else {
                ""
            };
            format!("{t} End of half {}{r}", e.half)
        }
        EventKind::MatchEnd { score } => {
            format!("Full time: Home {} - {} Away", score[0], score[1])
        }
        _ if !verbose => return None,
        EventKind::Roll {
            team,
            label,
            dice,
            kept,
        } => {
            let who = team.as_deref().map(cap).unwrap_or_default();
            let d: Vec<String> = dice.iter().map(u8::to_string).collect();
            let k = if kept.len() != dice.len() {
                format!(
                    " (keeps {})",
                    kept.iter()
                        .map(u8::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                String::new()
            };
            format!("{t}   {who} rolls {} for {label}{k}", d.join(", "))
        }
        EventKind::Choice {
            team,
            decision,
            label,
            options,
            secret,
            ..
        } => {
            let shown = if *secret { "(secret)" } else { label.as_str() };
            format!(
                "{t}   {} chooses {decision}: {shown} (of {options})",
                cap(team)
            )
        }
        EventKind::Modifiers { name, rows, total } => {
            let applied: Vec<String> = rows
                .iter()
                .filter(|r| r.applied && r.value != 0)
                .map(|r| format!("{} {:+}", r.label, r.value))
                .collect();
            format!("{t}   {name}: {total:+} [{}]", applied.join("; "))
        }
        EventKind::Table {
            table, row, label, ..
        } => format!("{t}   {table} {row}: {label}"),
        EventKind::Trigger {
            trigger,
            hook,
            value,
        } => format!("{t}   {trigger} at {hook}: {value:+}"),
        EventKind::Move {
            team,
            from,
            to,
            keeper,
        } => {
            let gk = if *keeper { " goalkeeper" } else { "" };
            format!("{t}   {}{gk} {from} -> {to}", cap(team))
        }
        EventKind::Place { team, area, keeper } => {
            let gk = if *keeper { " goalkeeper" } else { "" };
            format!("{t}   {}{gk} placed in {area}", cap(team))
        }
        EventKind::Clear { team } => format!("{t}   {} sets up", cap(team)),
        EventKind::Remove { team, area } => {
            format!("{t}   {} player leaves the match from {area}", cap(team))
        }
        EventKind::Ball { area } => format!("{t}   ball to {area}"),
        EventKind::BallValue { value } => format!("{t}   ball value {value}"),
        EventKind::Control { team } => format!("{t}   {} controls the ball", cap(team)),
        EventKind::Phasing { team } => format!("{t}   {} is the phasing team", cap(team)),
        EventKind::Clock {
            to_minute,
            to_added,
        } => {
            if *to_added > 0 {
                format!("{t}   clock {to_minute}+{to_added}'")
            } else {
                format!("{t}   clock {to_minute}'")
            }
        }
        EventKind::TurnStart => format!("{t} -- turn {} of half {}", e.turn, e.half),
    };
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::fill;

    fn fields(j: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
        j.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_template_reads_fields_and_chooses_text_by_them() {
        let f = fields(serde_json::json!({
            "team": "home", "from": "S_FRONT", "to": "S_FRONT", "slow": false, "n": 0
        }));
        assert_eq!(
            fill("{team} pass {from=to?within {to}|{from} → {to}}", &f),
            "Home pass within S_FRONT"
        );
        assert_eq!(fill("kick{slow?, slow|, quick}", &f), "kick, quick");
        assert_eq!(fill("kick{slow?, slow}", &f), "kick");
        assert_eq!(fill("{n?some|none} {team=home?ours}", &f), "none ours");
        // What is no field stays as written; an unclosed brace too.
        assert_eq!(fill("{nothing} {team", &f), "{nothing} {team");
        let f = fields(serde_json::json!({"from": "A", "to": "B", "slow": true}));
        assert_eq!(
            fill("{from=to?within {to}|{from} → {to}}{slow?!}", &f),
            "A → B!"
        );
    }
}
