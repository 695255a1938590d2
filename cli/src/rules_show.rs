//! `fuba rules show`: a ruleset's tables and lists as aligned text (or JSON).

use std::io::{self, BufWriter, Write};

use fuba_engine::log::value_json;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::ruleset::diag::shown;
use serde_json::{Value as J, json};

use crate::{CliError, CliResult, Format};

/// What `rules show` shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    /// An overview: meta, layers, match settings, the names of everything.
    Overview,
    /// One table, row by row.
    Table(String),
    /// Constants with their values.
    Constants,
    /// Procedures with section and parameters.
    Procedures,
    /// The entries of each declared collection (skills) with their fields and the rulebook's
    /// words; `verbose`: also the triggers and procedures that play each skill, then every
    /// trigger grouped by hook (shown anyway when there is no collection).
    Skills {
        /// Where each entry is played, and the triggers by hook.
        verbose: bool,
    },
    /// Match options.
    Options,
    /// Decisions with their labels.
    Decisions,
}

/// Pads the columns of `rows` to a common width (the last column is not padded).
fn aligned(rows: &[Vec<String>], indent: &str) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::from(indent);
        for (c, cell) in r.iter().enumerate() {
            if c + 1 == r.len() {
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(widths[c] - cell.chars().count() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn params_text(ps: &[(String, fuba_engine::value::Ty)]) -> String {
    ps.iter()
        .map(|(n, t)| format!("{n}: {t}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn value_text(rs: &Ruleset, v: &fuba_engine::value::Value) -> String {
    match value_json(rs, v) {
        J::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

/// A condition written over several lines, as one line.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The ruleset's catalogues: the entries of each declared collection
/// (`[collections.NAME]`), in order. Empty when the ruleset declares none.
fn catalogues(rs: &Ruleset) -> Vec<(String, Vec<String>)> {
    rs.raw
        .collections
        .keys()
        .map(|c| {
            let entries = rs
                .raw
                .entries
                .get(c)
                .map(|es| es.keys().cloned().collect())
                .unwrap_or_default();
            (c.clone(), entries)
        })
        .collect()
}

/// The field values of entry `name` of collection `coll`, in the declared order, a field
/// the entry leaves out with its declared default: what the entry is (a skill's group and
/// cost), beside where it is played.
fn entry_fields(rs: &Ruleset, coll: &str, name: &str) -> Vec<(String, serde_json::Value)> {
    let Some(decl) = rs.raw.collections.get(coll) else {
        return Vec::new();
    };
    let entry = rs.raw.entries.get(coll).and_then(|es| es.get(name));
    decl.fields
        .iter()
        .filter_map(|(field, ty)| {
            let given = entry
                .and_then(|e| e.get_ref().get(field))
                .map(|v| v.get_ref());
            let value = given.or_else(|| ty.get_ref().get("default"))?;
            let json = match value {
                toml::Value::Integer(n) => json!(n),
                toml::Value::Boolean(b) => json!(b),
                toml::Value::String(s) => json!(s),
                other => json!(other.to_string()),
            };
            Some((field.clone(), json))
        })
        .collect()
}

/// `text` wrapped at `width` columns, every line after `indent`.
fn wrapped(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > width {
            out.push_str(&format!("{indent}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&format!("{indent}{line}\n"));
    }
    out
}

/// Where a skill is played: the triggers (with their hook) and the procedures whose code
/// names it as a string. A skill played from a procedure, or from a trigger whose
/// condition calls a helper, is found too; procedures that name most of the catalogue
/// (the catalogue itself, the choice of skills) are left out.
fn where_played(
    rs: &Ruleset,
    name: &str,
    catalogue: &[String],
) -> (Vec<(String, String)>, Vec<String>) {
    let quoted = format!("{name:?}");
    let names = |code: &str| code.contains(&quoted);
    let triggers = rs
        .raw
        .triggers
        .iter()
        .filter(|(_, tr)| {
            names(tr.body.get_ref()) || tr.when.as_ref().is_some_and(|w| names(w.get_ref()))
        })
        .map(|(n, tr)| (n.clone(), tr.hook.get_ref().clone()))
        .collect();
    let procs = rs
        .raw
        .procedures
        .iter()
        .filter(|(_, p)| {
            let code = p.body.get_ref();
            names(code)
                && catalogue
                    .iter()
                    .filter(|c| code.contains(&format!("{c:?}")))
                    .count()
                    * 2
                    <= catalogue.len()
        })
        .map(|(n, _)| n.clone())
        .collect();
    (triggers, procs)
}

/// The ruleset's layers, top first: each file it stacks by `extends`, with the files it
/// includes in brackets (an included file is part of the file that names it, not a
/// ruleset it extends).
fn layers_text(rs: &Ruleset) -> String {
    let layers = &rs.file.layers;
    let text = |i: usize| {
        let end = layers.get(i + 1).map_or(rs.file.text.len(), |l| l.1);
        rs.file.text.get(layers[i].1..end).unwrap_or_default()
    };
    // The files each layer includes, as the loader finds them (next to the includer).
    let includes = |i: usize| -> Vec<std::path::PathBuf> {
        let head: Option<fuba_engine::ruleset::raw::RawHead> = toml::from_str(text(i)).ok();
        let dir = std::path::PathBuf::from(shown(&layers[i].0))
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
        head.map(|h| {
            h.meta
                .include
                .iter()
                .map(|f| dir.join(f.get_ref()))
                .collect()
        })
        .unwrap_or_default()
    };
    let included: Vec<std::path::PathBuf> = (0..layers.len()).flat_map(includes).collect();
    let mut out = Vec::new();
    for i in (0..layers.len()).rev() {
        let name = std::path::PathBuf::from(shown(&layers[i].0));
        if included.contains(&name) {
            continue;
        }
        let mine = includes(i);
        let mut s = name.display().to_string();
        if !mine.is_empty() {
            let names: Vec<String> = mine.iter().map(|p| p.display().to_string()).collect();
            s.push_str(&format!(" (including {})", names.join(", ")));
        }
        out.push(s);
    }
    out.join(" extends ")
}

/// The text and JSON of `what`; `Err` for a table that does not exist.
fn render(rs: &Ruleset, what: &What) -> Result<(String, J), CliError> {
    let mut t = String::new();
    let j = match what {
        What::Overview => {
            t.push_str(&format!("{} — {}\n", rs.name, rs.title));
            if !rs.source.is_empty() {
                t.push_str(&format!("rulebook: {}\n", rs.source));
            }
            t.push_str(&format!("layers: {}\n", layers_text(rs)));
            let layers: Vec<String> = rs.file.layers.iter().rev().map(|(p, _)| shown(p)).collect();
            let stage = |i: &u16| rs.procs[*i as usize].name.clone();
            let stages: Vec<String> = rs.stages.iter().map(stage).collect();
            t.push_str(&format!(
                "match: {} halves, at most {} turns a half, {} pieces a team, ball values {} to {}\n",
                rs.halves, rs.max_turns_per_half, rs.pieces, rs.ball_values.0, rs.ball_values.1
            ));
            t.push_str(&format!("turn: {}\n", stages.join(" → ")));
            let tables: Vec<String> = rs
                .tables
                .iter()
                .map(|x| format!("{} ({}, {} rows)", x.name, x.domain.name(), x.rows.len()))
                .collect();
            t.push_str(&format!(
                "\ntables ({}): {}\n",
                tables.len(),
                tables.join(", ")
            ));
            t.push_str(&format!(
                "constants: {}, procedures: {}, hooks: {}, triggers: {}, state variables: {}\n",
                rs.constants.len(),
                rs.procs.len(),
                rs.hooks.len(),
                rs.triggers.len(),
                rs.var_names().count()
            ));
            t.push_str("\nmore: --table NAME, --constants, --procedures, --skills, --options\n");
            json!({
                "name": rs.name, "title": rs.title, "source": rs.source, "layers": layers,
                "halves": rs.halves, "max_turns_per_half": rs.max_turns_per_half,
                "pieces": rs.pieces, "ball_values": [rs.ball_values.0, rs.ball_values.1],
                "turn": stages,
                "tables": rs.tables.iter().map(|x| json!({"name": x.name, "dice": x.domain.name(), "rows": x.rows.len()})).collect::<Vec<_>>(),
                "constants": rs.constants.len(), "procedures": rs.procs.len(),
                "hooks": rs.hooks.len(), "triggers": rs.triggers.len(),
            })
        }
        What::Table(name) => {
            let Some(ti) = rs.table(name) else {
                let names: Vec<&str> = rs.tables.iter().map(|x| x.name.as_str()).collect();
                return Err(CliError::Usage(format!(
                    "the ruleset `{}` has no table `{name}`; its tables are: {}",
                    rs.name,
                    if names.is_empty() {
                        "(none)".to_string()
                    } else {
                        names.join(", ")
                    }
                )));
            };
            let table = &rs.tables[ti as usize];
            let section = if table.section.is_empty() {
                String::new()
            } else {
                format!(", section {}", table.section)
            };
            t.push_str(&format!(
                "{} ({}{section})\n\n",
                table.name,
                table.domain.name().to_uppercase()
            ));
            let mut rows = vec![vec!["roll".to_string(), "result".to_string()]];
            rows.push(vec!["----".to_string(), "------".to_string()]);
            for r in &table.rows {
                let label = if r.label.is_empty() {
                    "(no label)".to_string()
                } else {
                    r.label.clone()
                };
                rows.push(vec![r.key.clone(), label]);
            }
            t.push_str(&aligned(&rows, "  "));
            json!({
                "table": table.name, "dice": table.domain.name(), "section": table.section,
                "rows": table.rows.iter().map(|r| json!({"key": r.key, "label": r.label})).collect::<Vec<_>>(),
            })
        }
        What::Constants => {
            let rows: Vec<Vec<String>> = rs
                .constants
                .iter()
                .map(|(n, v, ty)| vec![n.clone(), value_text(rs, v), ty.to_string()])
                .collect();
            t.push_str(&format!("constants of {} ({})\n\n", rs.name, rows.len()));
            t.push_str(&aligned(&rows, "  "));
            J::Array(
                rs.constants
                    .iter()
                    .map(|(n, v, ty)| json!({"name": n, "value": value_json(rs, v), "type": ty.to_string()}))
                    .collect(),
            )
        }
        What::Procedures => {
            let mut rows = vec![vec![
                "procedure".to_string(),
                "section".to_string(),
                "parameters".to_string(),
            ]];
            for p in &rs.procs {
                rows.push(vec![
                    p.name.clone(),
                    if p.section.is_empty() {
                        "-".into()
                    } else {
                        p.section.clone()
                    },
                    if p.params.is_empty() {
                        "-".into()
                    } else {
                        params_text(&p.params)
                    },
                ]);
            }
            t.push_str(&format!(
                "procedures of {} ({})\n\n",
                rs.name,
                rs.procs.len()
            ));
            t.push_str(&aligned(&rows, "  "));
            J::Array(
                rs.procs
                    .iter()
                    .map(|p| json!({"name": p.name, "section": p.section, "params": p.params.iter().map(|(n, ty)| json!({"name": n, "type": ty.to_string()})).collect::<Vec<_>>()}))
                    .collect(),
            )
        }
        What::Decisions => {
            let all = fuba_engine::scenario::decision_labels(rs);
            t.push_str(&format!(
                "decisions of {} ({}): the labels a scenario's script answers each with\n\n",
                rs.name,
                all.len()
            ));
            let rows: Vec<Vec<String>> = all
                .iter()
                .map(|d| {
                    let mut labels: Vec<String> = d.arms.clone();
                    if d.board {
                        labels.insert(0, "an area or a move".into());
                    }
                    labels.extend(d.skip.iter().map(|s| format!("{s} (skip)")));
                    vec![d.name.clone(), labels.join(", ")]
                })
                .collect();
            t.push_str(&aligned(&rows, "  "));
            J::Array(
                all.iter()
                    .map(|d| json!({"name": d.name, "labels": d.arms, "skip": d.skip, "areas_or_moves": d.board}))
                    .collect(),
            )
        }
        What::Skills { verbose } => {
            let mut triggers = String::new();
            triggers.push_str(&format!(
                "triggers of {} by hook ({} hook{}, {} trigger{})\n",
                rs.name,
                rs.hooks.len(),
                if rs.hooks.len() == 1 { "" } else { "s" },
                rs.triggers.len(),
                if rs.triggers.len() == 1 { "" } else { "s" },
            ));
            let mut hooks = Vec::new();
            for h in &rs.hooks {
                triggers.push_str(&format!("\nhook {}({})\n", h.name, params_text(&h.params)));
                let mut rows = Vec::new();
                let mut trig = Vec::new();
                for &ti in &h.triggers {
                    let tr = &rs.triggers[ti as usize];
                    let when = rs
                        .raw
                        .triggers
                        .get(&tr.name)
                        .and_then(|r| r.when.as_ref())
                        .map(|w| one_line(w.get_ref()));
                    rows.push(vec![
                        tr.name.clone(),
                        if tr.section.is_empty() {
                            "-".into()
                        } else {
                            tr.section.clone()
                        },
                        when.as_ref()
                            .map_or_else(|| "always".to_string(), |w| format!("when {w}")),
                    ]);
                    trig.push(json!({"name": tr.name, "section": tr.section, "when": when}));
                }
                if rows.is_empty() {
                    triggers.push_str("  (no triggers)\n");
                } else {
                    triggers.push_str(&aligned(&rows, "  "));
                }
                hooks.push(
                    json!({"hook": h.name, "params": params_text(&h.params), "triggers": trig}),
                );
            }
            let mut catalogue = Vec::new();
            for (coll, skills) in catalogues(rs) {
                t.push_str(&format!(
                    "{}entries of {coll} in {} ({}, numbered in declaration order)\n",
                    if t.is_empty() { "" } else { "\n" },
                    rs.name,
                    skills.len()
                ));
                for (i, name) in skills.iter().enumerate() {
                    let (triggers, procs) = where_played(rs, name, &skills);
                    let mut at: Vec<String> = triggers
                        .iter()
                        .map(|(tr, hook)| format!("trigger {tr} ({hook})"))
                        .collect();
                    at.extend(procs.iter().map(|p| format!("procedure {p}")));
                    let fields = entry_fields(rs, &coll, name);
                    // Short values on the entry's line; long text (the rulebook's words)
                    // each on lines of its own below it.
                    let (mut short, mut long) = (Vec::new(), Vec::new());
                    for (k, v) in &fields {
                        match v {
                            serde_json::Value::String(s) if s.chars().count() > 24 => {
                                long.push((k, s))
                            }
                            serde_json::Value::String(s) if s.is_empty() => {}
                            serde_json::Value::String(s) => short.push(format!("{k} {s}")),
                            v => short.push(format!("{k} {v}")),
                        }
                    }
                    t.push_str(&format!("  {:>2}. {name}", i + 1));
                    if !short.is_empty() {
                        t.push_str(&format!(": {}", short.join(", ")));
                    }
                    t.push('\n');
                    for (k, text) in long {
                        t.push_str(&wrapped(&format!("{k}: {text}"), "      ", 92));
                    }
                    let played = if at.is_empty() {
                        "(played nowhere)".to_string()
                    } else {
                        at.join(", ")
                    };
                    if *verbose {
                        t.push_str(&wrapped(&format!("played by: {played}"), "      ", 92));
                    }
                    catalogue.push(json!({
                        "collection": coll,
                        "number": i + 1,
                        "skill": name,
                        "fields": fields.iter().cloned().collect::<serde_json::Map<String, serde_json::Value>>(),
                        "triggers": triggers.iter().map(|(tr, hook)| json!({"trigger": tr, "hook": hook})).collect::<Vec<_>>(),
                        "procedures": procs,
                    }));
                }
            }
            if *verbose || catalogue.is_empty() {
                if !t.is_empty() {
                    t.push('\n');
                }
                t.push_str(&triggers);
            } else {
                t.push_str(
                    "\n--verbose: where each is played (triggers, procedures), then every trigger by hook\n",
                );
            }
            json!({"hooks": hooks, "skills": catalogue})
        }
        What::Options => {
            use fuba_engine::value::Value;
            let show = |v: &Value| match v {
                Value::Int(i) => i.to_string(),
                Value::Bool(true) => "on".to_string(),
                Value::Bool(false) => "off".to_string(),
                Value::Str(s) => rs.symbol(*s).to_string(),
                _ => String::new(),
            };
            if rs.options.is_empty() {
                t.push_str(&format!("{}: no match options\n", rs.name));
            }
            let mut rows = vec![vec![
                "option".to_string(),
                "default".to_string(),
                "values".to_string(),
                "what it does".to_string(),
            ]];
            let mut opts = Vec::new();
            for o in &rs.options {
                let values = match (o.ty, o.range) {
                    (_, Some((lo, hi))) => format!("{lo} to {hi}"),
                    (fuba_engine::value::Ty::Bool, _) => "on, off".to_string(),
                    (ty, None) => format!("any {ty}"),
                };
                rows.push(vec![
                    o.name.clone(),
                    show(&o.default),
                    values,
                    o.doc.clone(),
                ]);
                let (min, max) = o.range.unzip();
                opts.push(json!({"name": o.name, "default": show(&o.default), "value": show(&o.value), "min": min, "max": max, "doc": o.doc}));
            }
            if !rs.options.is_empty() {
                t.push_str(&aligned(&rows, "  "));
            }
            J::Array(opts)
        }
    };
    Ok((t, j))
}

/// Runs `fuba rules show`.
pub fn run(rules: &str, what: &What, format: Format) -> CliResult {
    let rs = crate::load_rules(rules)?;
    let (text, j) = render(&rs, what)?;
    let mut out = BufWriter::new(io::stdout().lock());
    match format {
        Format::Table => out.write_all(text.as_bytes())?,
        Format::Json => {
            let s = serde_json::to_string_pretty(&j).map_err(io::Error::other)?;
            writeln!(out, "{s}")?;
        }
    }
    out.flush()?;
    Ok(())
}
