//! `fuba explain LOG`: how every roll and computed value of a logged match came about:
//! each modifier list row by row (whether its condition held, what it added, the total),
//! the table entry chosen, the triggers that fired, each with its rule and section.
//! Each modifier list is labelled with the candidate it was computed for, found by
//! replaying the match (`candidates.rs`).

mod candidates;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::Args;
use fuba_engine::files::{FileKind, read_from, read_text};
use fuba_engine::log::{Event, EventKind, time_text};
use fuba_engine::replay::read_log;
use serde_json::{Value as J, json};

use crate::{CliError, CliResult, Format};
use candidates::Candidates;

/// `fuba explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// A log written by `fuba play --log` (JSON Lines); `-` reads stdin.
    #[arg(value_name = "LOG")]
    log: PathBuf,
    /// Explain one event (its `seq`) and the rolls, tables, triggers and modifiers of the
    /// same stage that led to it.
    #[arg(long, value_name = "N", conflicts_with = "turn")]
    event: Option<u32>,
    /// Explain one turn (in every half, or in --half).
    #[arg(long, value_name = "T")]
    turn: Option<u32>,
    /// With --turn: only this half.
    #[arg(long, value_name = "H", requires = "turn")]
    half: Option<u32>,
    /// The ruleset to replay the log under, to label each modifier list with the candidate
    /// it was computed for: a built-in edition name or the path of a ruleset file.
    /// Default: the edition named in the log's header.
    #[arg(long, short, value_name = "EDITION|PATH")]
    rules: Option<String>,
    /// `table`: readable text; `json`: the same as data.
    #[arg(long, short, value_enum, default_value_t = Format::Table)]
    format: Format,
}

/// Whether an event is part of how a value came about.
fn explains(e: &Event) -> bool {
    matches!(
        e.kind,
        EventKind::Roll { .. }
            | EventKind::Modifiers { .. }
            | EventKind::Table { .. }
            | EventKind::Trigger { .. }
            | EventKind::Emit { .. }
    )
}

fn rule_text(e: &Event) -> String {
    if e.section.is_empty() {
        e.rule.clone()
    } else {
        format!("{} (section {})", e.rule, e.section)
    }
}

fn field_text(v: &J) -> String {
    match v {
        J::String(s) => s.clone(),
        J::Null => "-".into(),
        J::Array(a) => a.iter().map(field_text).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// The triggers that fired in the same stage after the previous modifier list, up to `i`:
/// the hook effects a modifier list's rows took in.
fn triggers_before(events: &[Event], i: usize) -> Vec<&Event> {
    let e = &events[i];
    let mut out = Vec::new();
    for p in events[..i].iter().rev() {
        if p.half != e.half || p.turn != e.turn || p.stage != e.stage {
            break;
        }
        match p.kind {
            EventKind::Modifiers { .. } => break,
            EventKind::Trigger { .. } => out.push(p),
            _ => {}
        }
    }
    out.reverse();
    out
}

fn text_of(events: &[Event], i: usize, cands: &Candidates, out: &mut String) {
    let e = &events[i];
    let head = format!("#{:<5} {:<7}", e.seq, time_text(e));
    match &e.kind {
        EventKind::Roll {
            team,
            label,
            dice,
            kept,
        } => {
            let who = team.as_deref().unwrap_or("the match");
            let d: Vec<String> = dice.iter().map(u8::to_string).collect();
            let k = if kept.len() != dice.len() {
                let k: Vec<String> = kept.iter().map(u8::to_string).collect();
                format!(" (keeps {})", k.join(", "))
            } else {
                String::new()
            };
            out.push_str(&format!(
                "{head} roll: {who} rolls {} for \"{label}\"{k}   [{}]\n",
                d.join(", "),
                rule_text(e)
            ));
        }
        EventKind::Modifiers { name, rows, total } => {
            out.push_str(&format!(
                "{head} modifiers \"{name}\"{}: total {total:+}   [{}]\n",
                candidates::label(cands.by_seq.get(&e.seq)),
                rule_text(e)
            ));
            let w = rows
                .iter()
                .map(|r| r.label.chars().count())
                .max()
                .unwrap_or(0);
            for r in rows {
                let held = if r.applied { "held    " } else { "not held" };
                let v = if r.applied {
                    format!("{:+}", r.value)
                } else {
                    String::new()
                };
                let line = format!("{:indent$}{:<w$}  {held}  {v}", "", r.label, indent = 16);
                out.push_str(line.trim_end());
                out.push('\n');
            }
            let sum: i64 = rows.iter().filter(|r| r.applied).map(|r| r.value).sum();
            let check = if sum == *total {
                String::new()
            } else {
                format!("   (the rows add up to {sum:+})")
            };
            out.push_str(&format!(
                "{:16}{:<w$}            {total:+}{check}\n",
                "", "total"
            ));
            let trig = triggers_before(events, i);
            if !trig.is_empty() {
                out.push_str(&format!("{:16}hook effects taken in:\n", ""));
                for t in trig {
                    if let EventKind::Trigger {
                        trigger,
                        hook,
                        value,
                    } = &t.kind
                    {
                        out.push_str(&format!(
                            "{:18}{trigger} at {hook}: {value:+}   [#{} {}]\n",
                            "",
                            t.seq,
                            rule_text(t)
                        ));
                    }
                }
            }
        }
        EventKind::Table {
            table,
            key,
            row,
            label,
        } => {
            out.push_str(&format!(
                "{head} table {table}[{key}]: row \"{row}\": {label}   [{}]\n",
                rule_text(e)
            ));
        }
        EventKind::Trigger {
            trigger,
            hook,
            value,
        } => {
            out.push_str(&format!(
                "{head} trigger {trigger} fired at hook {hook}: {value:+}   [{}]\n",
                rule_text(e)
            ));
        }
        EventKind::Emit { kind, fields } => {
            let f: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{k} {}", field_text(v)))
                .collect();
            out.push_str(&format!(
                "{head} {kind}: {}   [{}]\n",
                f.join(", "),
                rule_text(e)
            ));
        }
        _ => {}
    }
}

fn json_of(events: &[Event], i: usize, cands: &Candidates) -> J {
    let e = &events[i];
    let mut j = serde_json::to_value(e).unwrap_or(J::Null);
    if let EventKind::Modifiers { rows, .. } = &e.kind {
        let sum: i64 = rows.iter().filter(|r| r.applied).map(|r| r.value).sum();
        j["rows_sum"] = J::from(sum);
        if let Some(args) = cands.by_seq.get(&e.seq) {
            j["candidate"] = args
                .iter()
                .map(|(n, v)| (n.clone(), J::from(v.as_str())))
                .collect::<serde_json::Map<_, _>>()
                .into();
        }
        j["hook_effects"] = J::Array(
            triggers_before(events, i)
                .into_iter()
                .map(|t| serde_json::to_value(t).unwrap_or(J::Null))
                .collect(),
        );
    }
    j
}

/// Runs `fuba explain`.
pub fn run(a: ExplainArgs) -> CliResult {
    let text = if a.log.as_os_str() == "-" {
        read_from(io::stdin().lock(), FileKind::Log)
            .map_err(|e| CliError::Failure(format!("cannot read the log from stdin: {e}")))?
    } else {
        read_text(&a.log, FileKind::Log).map_err(|e| {
            CliError::Failure(format!("cannot read the log `{}`: {e}", a.log.display()))
        })?
    };
    let (header, events) = read_log(&text).map_err(CliError::Failure)?;
    // The events to explain, grouped by turn.
    let picked: Vec<usize> = match (a.event, a.turn) {
        (Some(n), _) => {
            let Some(i) = events.iter().position(|e| e.seq == n) else {
                return Err(CliError::Usage(format!(
                    "the log has no event {n} (it holds events 0 to {})",
                    events.len().saturating_sub(1)
                )));
            };
            let e = &events[i];
            let mut from = i;
            while from > 0 {
                let p = &events[from - 1];
                if p.half != e.half || p.turn != e.turn || p.stage != e.stage {
                    break;
                }
                from -= 1;
            }
            (from..=i)
                .filter(|&k| k == i || explains(&events[k]))
                .collect()
        }
        (None, Some(t)) => {
            let v: Vec<usize> = (0..events.len())
                .filter(|&k| {
                    let e = &events[k];
                    e.turn == t && a.half.is_none_or(|h| e.half == h) && explains(e)
                })
                .collect();
            if v.is_empty() {
                return Err(CliError::Usage(format!(
                    "the log has no turn {t}{}",
                    a.half.map_or_else(String::new, |h| format!(" in half {h}"))
                )));
            }
            v
        }
        (None, None) => (0..events.len())
            .filter(|&k| explains(&events[k]))
            .collect(),
    };
    let cands = candidates::find(a.rules.as_deref(), &header, &events);
    let mut out = BufWriter::new(io::stdout().lock());
    match a.format {
        Format::Table => {
            let mut s = format!(
                "match of {} (seed {}, home {}, away {}): {} events\n",
                header.ruleset,
                header.seed,
                header.home,
                header.away,
                events.len()
            );
            if let Some(n) = &cands.note {
                s.push_str(&format!("note: {n}\n"));
            }
            let mut last: Option<(u32, u32, &str)> = None;
            for &i in &picked {
                let e = &events[i];
                let here = (e.half, e.turn, e.stage.as_str());
                if last != Some(here) {
                    let turn = if e.turn == 0 {
                        "before the first turn".to_string()
                    } else {
                        format!("turn {}", e.turn)
                    };
                    s.push_str(&format!("\nhalf {}, {turn}, stage {}\n", e.half, e.stage));
                    last = Some(here);
                }
                text_of(&events, i, &cands, &mut s);
            }
            out.write_all(s.as_bytes())?;
        }
        Format::Json => {
            let v: Vec<J> = picked
                .iter()
                .map(|&i| json_of(&events, i, &cands))
                .collect();
            let s = serde_json::to_string_pretty(
                &json!({"header": header, "note": cands.note, "events": v}),
            )
            .map_err(io::Error::other)?;
            writeln!(out, "{s}")?;
        }
    }
    out.flush()?;
    Ok(())
}
