//! Expectations on what the log of the run shows: the options a decision offered, the
//! fields of events, the totals of modifier lists, who moved first.

use crate::log::{Event, EventKind};

use super::spec::{EventFieldsSpec, ModifiersSpec, OfferedSpec, Which};

/// The items `which` picks among `all`, not empty (the default picks the last one when
/// `default_last` is set, else the first); `Err` when the nth is not there.
fn pick<T: Clone>(
    all: &[T],
    which: Which,
    default_last: bool,
    what: &str,
) -> Result<Vec<T>, String> {
    Ok(match which {
        Which::Default if default_last => all.last().cloned().into_iter().collect(),
        Which::Default => all.first().cloned().into_iter().collect(),
        Which::Nth(n) => match all.get(n - 1) {
            Some(x) => vec![x.clone()],
            None => return Err(format!("{what}: no {}, only {}", ordinal(n), all.len())),
        },
        Which::Every | Which::Any => all.to_vec(),
    })
}

/// `1st`, `2nd`, `3rd`, `4th`...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// How one decision or event of those picked is named in a failure.
fn which_one(which: Which, i: usize, count: usize) -> String {
    match which {
        Which::Nth(n) => format!(" ({})", ordinal(n)),
        Which::Every | Which::Any if count > 1 => format!(" ({})", ordinal(i + 1)),
        _ => String::new(),
    }
}

/// Applies a check to each picked item: with [`Which::Any`] one success is enough.
fn judge(which: Which, results: Vec<Result<(), String>>, what: &str, out: &mut Vec<String>) {
    if which == Which::Any {
        if !results.iter().any(Result::is_ok) {
            let why: Vec<String> = results.into_iter().filter_map(Result::err).collect();
            out.push(format!("{what}: none of them held: {}", why.join("; ")));
        }
    } else {
        out.extend(results.into_iter().filter_map(Result::err));
    }
}

/// `offered "KIND"`: the legal options of the decisions picked.
pub(super) fn offered(events: &[Event], kind: &str, spec: &OfferedSpec, out: &mut Vec<String>) {
    let team = spec.team.as_deref();
    let what = match team {
        Some(t) => format!("offered \"{kind}\" to {t}"),
        None => format!("offered \"{kind}\""),
    };
    let all: Vec<Vec<String>> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Choice {
                decision,
                offered,
                team: t,
                ..
            } if decision == kind && team.is_none_or(|want| want == t) => Some(offered.clone()),
            _ => None,
        })
        .collect();
    if all.is_empty() {
        out.push(format!("{what}: no such decision was made"));
        return;
    }
    let picked = match pick(&all, spec.which, false, &what) {
        Ok(p) => p,
        Err(e) => return out.push(e),
    };
    let n = picked.len();
    let results = picked
        .into_iter()
        .enumerate()
        .map(|(i, mut have)| {
            have.sort();
            let here = format!("{what}{}", which_one(spec.which, i, n));
            let mut why = Vec::new();
            if let Some(want) = &spec.exactly {
                let mut want = want.clone();
                want.sort();
                if have != want {
                    why.push(format!("{here}: expected {want:?}, got {have:?}"));
                }
            }
            let missing: Vec<&String> =
                spec.includes.iter().filter(|l| !have.contains(l)).collect();
            if !missing.is_empty() {
                why.push(format!(
                    "{here}: expected to include {missing:?}, got {have:?}"
                ));
            }
            let present: Vec<&String> = spec.excludes.iter().filter(|l| have.contains(l)).collect();
            if !present.is_empty() {
                why.push(format!(
                    "{here}: expected not to include {present:?}, got {have:?}"
                ));
            }
            if why.is_empty() {
                Ok(())
            } else {
                Err(why.join("; "))
            }
        })
        .collect();
    judge(spec.which, results, &what, out);
}

/// A TOML value as the JSON of an event field.
fn as_json(v: &toml::Value) -> serde_json::Value {
    match v {
        toml::Value::Integer(i) => serde_json::Value::from(*i),
        toml::Value::Boolean(b) => serde_json::Value::from(*b),
        toml::Value::String(s) => serde_json::Value::from(s.clone()),
        other => serde_json::Value::from(other.to_string()),
    }
}

/// `event_fields "KIND"`: the fields of the events picked.
pub(super) fn event_fields(
    events: &[Event],
    kind: &str,
    spec: &EventFieldsSpec,
    out: &mut Vec<String>,
) {
    let what = format!("event \"{kind}\"");
    let all: Vec<&serde_json::Map<String, serde_json::Value>> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Emit { kind: k, fields } if k == kind => Some(fields),
            _ => None,
        })
        .collect();
    if all.is_empty() {
        out.push(format!("{what}: expected with fields, did not happen"));
        return;
    }
    let picked = match pick(&all, spec.which, true, &what) {
        Ok(p) => p,
        Err(e) => return out.push(e),
    };
    let n = picked.len();
    let results = picked
        .into_iter()
        .enumerate()
        .map(|(i, have)| {
            let why: Vec<String> = spec
                .fields
                .iter()
                .filter_map(|(f, want)| {
                    let want = as_json(want);
                    let got = have.get(f).cloned().unwrap_or(serde_json::Value::Null);
                    (want != got).then(|| {
                        format!(
                            "{what}{} field {f}: expected {want}, got {got}",
                            which_one(spec.which, i, n)
                        )
                    })
                })
                .collect();
            if why.is_empty() {
                Ok(())
            } else {
                Err(why.join("; "))
            }
        })
        .collect();
    judge(spec.which, results, &what, out);
}

/// `modifiers "NAME"`: the totals of the lists picked.
pub(super) fn modifiers(events: &[Event], name: &str, spec: &ModifiersSpec, out: &mut Vec<String>) {
    let what = match &spec.after {
        Some(d) => format!("modifiers \"{name}\" after \"{d}\""),
        None => format!("modifiers \"{name}\""),
    };
    let start = match &spec.after {
        None => 0,
        Some(d) => match events
            .iter()
            .position(|e| matches!(&e.kind, EventKind::Choice { decision, .. } if decision == d))
        {
            Some(i) => i + 1,
            None => {
                out.push(format!(
                    "{what}: expected {}, no \"{d}\" decision was made",
                    spec.total
                ));
                return;
            }
        },
    };
    let lists: Vec<(i64, bool)> = events[start..]
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::Modifiers { name: n, total, .. } if n == name => {
                Some((*total, !offer_list(&events[start..], i, name)))
            }
            _ => None,
        })
        .collect();
    if lists.is_empty() {
        out.push(format!("{what}: expected {}, never computed", spec.total));
        return;
    }
    // Without `after`: the lists of what was played (every list when none stands alone).
    let played: Vec<i64> = lists.iter().filter(|l| l.1).map(|l| l.0).collect();
    let all: Vec<i64> = if spec.after.is_none() && !played.is_empty() {
        played
    } else {
        lists.iter().map(|l| l.0).collect()
    };
    let picked = match pick(&all, spec.which, spec.after.is_none(), &what) {
        Ok(p) => p,
        Err(e) => return out.push(e),
    };
    let n = picked.len();
    let results = picked
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            if t == spec.total {
                Ok(())
            } else {
                Err(format!(
                    "{what}{}: expected {}, got {t}{}",
                    which_one(spec.which, i, n),
                    spec.total,
                    last_of_many(lists.len(), all.len(), spec)
                ))
            }
        })
        .collect();
    judge(spec.which, results, &what, out);
}

/// Whether the list of `name` at `events[i]` is one of several computed together to offer
/// a decision (the pass value of every candidate target, before the target is chosen): a
/// list of the same name is computed just before or just after it, with nothing but other
/// modifier lists and triggers between. A list of what is played is computed on its own
/// (then rolled against, or applied).
fn offer_list(events: &[Event], i: usize, name: &str) -> bool {
    let same = |e: &Event| match &e.kind {
        EventKind::Modifiers { name: n, .. } if n == name => Some(true),
        EventKind::Modifiers { .. } | EventKind::Trigger { .. } => None,
        _ => Some(false),
    };
    let before = events[..i].iter().rev().find_map(same);
    let after = events[i + 1..].iter().find_map(same);
    before == Some(true) || after == Some(true)
}

/// For a failing default check among several lists of the name: how many there were, and
/// that lists computed together to offer a decision were left out.
fn last_of_many(lists: usize, played: usize, spec: &ModifiersSpec) -> String {
    if spec.which != Which::Default || spec.after.is_some() || lists < 2 {
        return String::new();
    }
    if played < lists {
        let of_played = if played == 1 {
            "the one list of what was played".to_string()
        } else {
            format!("the last of the {played} lists of what was played")
        };
        format!(
            " ({of_played}; {} others of that name were computed together to offer a decision; \
             `{{ total = {}, after = \"DECISION\" }}` checks the first list after a decision)",
            lists - played,
            spec.total
        )
    } else {
        format!(
            " (the last of {lists} lists of that name; `{{ total = {}, after = \"DECISION\" }}` \
             checks the first list after a decision)",
            spec.total
        )
    }
}

/// The team whose piece moved first in the run (not a setup's placement).
pub(super) fn moved_first(events: &[Event]) -> Option<&str> {
    events.iter().find_map(|e| match &e.kind {
        EventKind::Move { team, .. } => Some(team.as_str()),
        _ => None,
    })
}
