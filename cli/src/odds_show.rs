//! The output of `fuba odds`: the dice tables and each position's exact distribution, as
//! text, JSON or CSV. Every probability is written as a fraction (`num/den`, reduced) and
//! as a decimal.

use std::io::{self, Write};
use std::path::PathBuf;

use fuba_engine::log::team_name;
use fuba_engine::odds::{Frac, Leaf, Until};
use serde_json::{Value, json};

use super::{Done, TableOdds, Worked, tables_text};
use crate::render::StatsFormat;

/// What `fuba odds RULES` prints before the positions: the ruleset's name and title, its
/// dice tables, and the folders searched for positions.
pub type Header = (String, String, Vec<TableOdds>, Vec<PathBuf>);

/// Outcomes listed in the text output (JSON and CSV list them all).
const SHOWN_OUTCOMES: usize = 20;

/// Writes everything in the chosen format.
pub fn write(
    w: &mut dyn Write,
    format: StatsFormat,
    header: Option<&Header>,
    worked: &[Worked],
) -> io::Result<()> {
    match format {
        StatsFormat::Table => text(w, header, worked),
        StatsFormat::Json => {
            let v = to_json(header, worked);
            let s = serde_json::to_string_pretty(&v).map_err(io::Error::other)?;
            writeln!(w, "{s}")
        }
        StatsFormat::Csv => csv(w, header, worked),
    }
}

fn goals(l: &Leaf) -> String {
    format!("{}-{}", l.goals[0], l.goals[1])
}

fn events(l: &Leaf) -> String {
    let mut v: Vec<String> = l.vars.iter().map(|(n, x)| format!("{n}={x}")).collect();
    v.extend(l.events.iter().map(|(n, k)| {
        if *k == 1 {
            n.clone()
        } else {
            format!("{n} x{k}")
        }
    }));
    if let Some(s) = &l.stop {
        v.push(format!("(stopped at {s})"));
    }
    if v.is_empty() {
        return "-".into();
    }
    v.join(", ")
}

/// The marginal distributions shown for a position: a title and (value, chance) rows.
/// One marginal distribution: its title, its key (JSON and CSV; a variable's is
/// `var:NAME`), and (value, chance) rows.
struct Marginal {
    title: String,
    key: String,
    rows: Vec<(String, Frac)>,
}

/// The marginal distributions shown for a position.
fn marginals(d: &Done) -> Vec<Marginal> {
    let dist = &d.dist;
    let named = |title: &str, key: &str, rows: Vec<(String, Frac)>| Marginal {
        title: title.into(),
        key: key.into(),
        rows,
    };
    let mut out = vec![
        named(
            "controlling team",
            "controlling",
            dist.marginal(|l| l.controlling)
                .into_iter()
                .map(|(t, p)| (team_name(t).to_string(), p))
                .collect(),
        ),
        named(
            "ball area",
            "ball_area",
            by_chance(dist.marginal(|l| l.ball_area.clone())),
        ),
        named(
            "ball value",
            "ball_value",
            dist.marginal(|l| l.ball_value)
                .into_iter()
                .map(|(v, p)| (v.to_string(), p))
                .collect(),
        ),
        named("goals (home-away)", "goals", dist.marginal(goals)),
    ];
    let names: Vec<String> = dist
        .outcomes
        .first()
        .map(|o| o.0.vars.iter().map(|v| v.0.clone()).collect())
        .unwrap_or_default();
    for (i, n) in names.iter().enumerate() {
        let rows = dist.marginal(|l| l.vars.get(i).map(|v| v.1.clone()).unwrap_or_default());
        out.push(named(&format!("variable {n}"), &format!("var:{n}"), rows));
    }
    out
}

/// Most likely first.
fn by_chance(mut v: Vec<(String, Frac)>) -> Vec<(String, Frac)> {
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

fn dec(p: &Frac) -> String {
    format!("{:.4}", p.value())
}

fn text(w: &mut dyn Write, header: Option<&Header>, worked: &[Worked]) -> io::Result<()> {
    if let Some((name, title, tabs, dirs)) = header {
        writeln!(
            w,
            "Exact odds for {name} ({title}), by enumerating the dice.\n"
        )?;
        write!(w, "{}", tables_text(tabs))?;
        if worked.is_empty() {
            let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            writeln!(
                w,
                "No canonical positions: no scenario files in {}. Give one with --scenario FILE.",
                if looked.is_empty() {
                    "any folder".to_string()
                } else {
                    looked.join(", ")
                }
            )?;
        }
    }
    for (i, wk) in worked.iter().enumerate() {
        if i > 0 || header.is_some() {
            writeln!(w)?;
        }
        position_text(w, wk)?;
    }
    Ok(())
}

fn position_text(w: &mut dyn Write, wk: &Worked) -> io::Result<()> {
    writeln!(w, "position: {} ({})", wk.scenario.name, wk.file.display())?;
    if wk.scenario.rules != wk.ruleset {
        writeln!(
            w,
            "  written for {}, run under {}",
            wk.scenario.rules, wk.ruleset
        )?;
    }
    let d = match &wk.result {
        Ok(d) => d,
        Err(e) => {
            writeln!(w, "  error: {e}")?;
            return Ok(());
        }
    };
    let dist = &d.dist;
    writeln!(w, "  runs {}", d.plan)?;
    if !wk.plan.cut.stops.is_empty() {
        writeln!(
            w,
            "  a path also ends at the first {}",
            wk.plan.cut.stops.join(", ")
        )?;
    }
    let mut decided = format!(
        "  decisions on the paths: {} by the script, {} by the {} policy",
        dist.scripted,
        dist.by_policy,
        wk.plan.policy.name()
    );
    if d.ignored_dice > 0 {
        decided.push_str(&format!(
            "; the scenario's {} scripted dice are not used",
            d.ignored_dice
        ));
    }
    writeln!(w, "{decided}")?;
    let total = dist.total();
    writeln!(
        w,
        "  {} branches, {} paths, {} outcomes; exact fractions, summing to {total}",
        dist.nodes,
        dist.paths,
        dist.outcomes.len()
    )?;
    for Marginal { title, rows, .. } in marginals(d) {
        let width = rows
            .iter()
            .map(|r| r.1.to_string().len())
            .max()
            .unwrap_or(1);
        writeln!(w, "\n  {title}")?;
        for (v, p) in rows {
            writeln!(w, "    {v:<16} {:>width$}  {}", p.to_string(), dec(&p))?;
        }
    }
    writeln!(
        w,
        "\n  events (the ruleset's figures): chance of at least one; expected number"
    )?;
    if d.events.is_empty() {
        writeln!(w, "    none")?;
    }
    let width = d
        .events
        .iter()
        .map(|e| e.1.to_string().len())
        .max()
        .unwrap_or(1);
    for (n, any, mean) in &d.events {
        writeln!(
            w,
            "    {n:<22} {:>width$}  {}   expected {} ({})",
            any.to_string(),
            dec(any),
            mean,
            dec(mean)
        )?;
    }
    writeln!(
        w,
        "\n  outcomes, most likely first: chance; controlling team, ball area and value, goals, events"
    )?;
    let shown = &dist.outcomes[..dist.outcomes.len().min(SHOWN_OUTCOMES)];
    let width = shown
        .iter()
        .map(|o| o.1.to_string().len())
        .max()
        .unwrap_or(1);
    let area = shown.iter().map(|o| o.0.ball_area.len()).max().unwrap_or(1);
    for (l, p) in shown {
        writeln!(
            w,
            "    {:>width$}  {}  {:<4} {:<area$} {}  {}  {}",
            p.to_string(),
            dec(p),
            team_name(l.controlling),
            l.ball_area,
            l.ball_value,
            goals(l),
            events(l)
        )?;
    }
    if dist.outcomes.len() > shown.len() {
        writeln!(
            w,
            "    ... {} more (--format csv or --format json lists them all)",
            dist.outcomes.len() - shown.len()
        )?;
    }
    Ok(())
}

fn chance(p: &Frac) -> Value {
    json!({ "chance": p.to_string(), "p": p.value() })
}

fn to_json(header: Option<&Header>, worked: &[Worked]) -> Value {
    let positions: Vec<Value> = worked
        .iter()
        .map(|wk| {
            let mut v = json!({
                "file": wk.file.display().to_string(),
                "name": wk.scenario.name,
                "written_for": wk.scenario.rules,
                "ruleset": wk.ruleset,
                "until": wk.plan.cut.until.clone().unwrap_or(Until::RunEnd).to_string(),
                "stop_at": wk.plan.cut.stops,
                "vars": wk.plan.cut.vars,
                "policy": wk.plan.policy.name(),
            });
            let fields = match &wk.result {
                Err(e) => json!({ "error": e }),
                Ok(d) => {
                    let dist = &d.dist;
                    let mut m = serde_json::Map::new();
                    m.insert("runs".into(), json!(d.plan));
                    m.insert("ignored_dice".into(), json!(d.ignored_dice));
                    m.insert("branches".into(), json!(dist.nodes));
                    m.insert("paths".into(), json!(dist.paths));
                    m.insert("scripted_decisions".into(), json!(dist.scripted));
                    m.insert("policy_decisions".into(), json!(dist.by_policy));
                    m.insert("total".into(), json!(dist.total().to_string()));
                    let mut vars = serde_json::Map::new();
                    for Marginal { key, rows, .. } in marginals(d) {
                        let rows: Vec<Value> = rows
                            .into_iter()
                            .map(|(value, p)| {
                                let mut c = chance(&p);
                                c["value"] = json!(value);
                                c
                            })
                            .collect();
                        match key.strip_prefix("var:") {
                            Some(name) => {
                                vars.insert(name.to_string(), json!(rows));
                            }
                            None => {
                                m.insert(key, json!(rows));
                            }
                        }
                    }
                    m.insert("variables".into(), Value::Object(vars));
                    let evs: Vec<Value> = d
                        .events
                        .iter()
                        .map(|(n, any, mean)| {
                            json!({
                                "event": n,
                                "at_least_once": any.to_string(),
                                "p": any.value(),
                                "expected": mean.to_string(),
                                "mean": mean.value(),
                            })
                        })
                        .collect();
                    m.insert("events".into(), json!(evs));
                    let outs: Vec<Value> = dist
                        .outcomes
                        .iter()
                        .map(|(l, p)| {
                            let mut c = chance(p);
                            c["controlling"] = json!(team_name(l.controlling));
                            c["ball_area"] = json!(l.ball_area);
                            c["ball_value"] = json!(l.ball_value);
                            c["goals"] = json!(l.goals);
                            let ev: serde_json::Map<String, Value> = l
                                .events
                                .iter()
                                .map(|(n, k)| (n.clone(), json!(k)))
                                .collect();
                            c["events"] = Value::Object(ev);
                            c["stopped_at"] = json!(l.stop);
                            let vars: serde_json::Map<String, Value> =
                                l.vars.iter().map(|(n, x)| (n.clone(), json!(x))).collect();
                            c["vars"] = Value::Object(vars);
                            c
                        })
                        .collect();
                    m.insert("outcomes".into(), json!(outs));
                    Value::Object(m)
                }
            };
            if let (Value::Object(v), Value::Object(f)) = (&mut v, fields) {
                v.extend(f);
            }
            v
        })
        .collect();
    let mut root = json!({
        "schema": 2,
        "method": "exact enumeration of every outcome of the dice",
        "positions": positions,
    });
    if let Some((name, _, tabs, dirs)) = header {
        root["ruleset"] = json!(name);
        root["tables"] = serde_json::to_value(tabs).unwrap_or(Value::Null);
        root["position_folders"] = json!(
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
        );
    } else if let Some(wk) = worked.first() {
        root["ruleset"] = json!(wk.ruleset);
    }
    root
}

/// A CSV field, quoted when it needs to be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(w: &mut dyn Write, header: Option<&Header>, worked: &[Worked]) -> io::Result<()> {
    writeln!(w, "position,what,key,num,den,p")?;
    if let Some((_, _, tabs, _)) = header {
        for t in tabs {
            for r in &t.rows {
                writeln!(
                    w,
                    ",{},{},{},{},{}",
                    field(&format!("tables.{}", t.table)),
                    field(&r.key),
                    r.chance.num,
                    r.chance.den,
                    r.p
                )?;
            }
        }
    }
    for wk in worked {
        let Ok(d) = &wk.result else { continue };
        let pos = field(&wk.file.display().to_string());
        let mut line = |what: &str, key: &str, p: &Frac| {
            writeln!(
                w,
                "{pos},{what},{},{},{},{}",
                field(key),
                p.numerator(),
                p.denominator(),
                p.value()
            )
        };
        for Marginal { key, rows, .. } in marginals(d) {
            for (v, p) in rows {
                line(&key, &v, &p)?;
            }
        }
        for (n, any, mean) in &d.events {
            line("event_at_least_once", n, any)?;
            line("event_expected", n, mean)?;
        }
        for (l, p) in &d.dist.outcomes {
            let key = format!(
                "{} {} {} {} {}",
                team_name(l.controlling),
                l.ball_area,
                l.ball_value,
                goals(l),
                events(l).replace(", ", ";")
            );
            line("outcome", &key, p)?;
        }
    }
    Ok(())
}
