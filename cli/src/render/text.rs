//! The figures of a tally as a text table for people (`--format table`): one line per
//! figure with its interval, the breakdowns, the coverage and the timing.

use std::io::{self, Write};

use super::Timing;
use crate::stats::balance;
use crate::stats::{self, Figure, Kind, Tally};

/// `value ± half-width` and the interval, for a figure.
pub fn describe(f: &Figure) -> String {
    let pct = f.kind == Kind::Share;
    let show = |x: Option<f64>| match x {
        Some(v) if pct => format!("{:.1}%", 100.0 * v),
        Some(v) => format!("{v:.3}"),
        None => "-".into(),
    };
    let sd = match (f.kind, f.sd) {
        (Kind::Mean, Some(sd)) => format!("  sd {sd:.3}"),
        _ => String::new(),
    };
    format!(
        "{}  (95% CI {} to {}){sd}",
        show(f.value),
        show(f.ci95[0]),
        show(f.ci95[1])
    )
}

/// Writes a tally's figures as text; `full_coverage` lists every coverage count and
/// the options picked.
pub(super) fn write_table(
    out: &mut dyn Write,
    t: &Tally,
    timing: Option<&Timing>,
    full_coverage: bool,
) -> io::Result<()> {
    let b = &t.batch;
    writeln!(out, "ruleset            {} ({})", b.ruleset, b.title)?;
    if !b.options.is_empty() {
        writeln!(
            out,
            "options set        {} (every other option at its default)",
            b.options.join(", ")
        )?;
    }
    let shard = b.shard_text().map_or_else(String::new, |s| {
        format!("; shard {s} of a batch of {}", b.games)
    });
    writeln!(
        out,
        "games played       {} (seed {}; home {}, away {}{shard})",
        t.games, b.seed, b.home, b.away
    )?;
    if !t.failures.is_empty() {
        writeln!(out, "games failed       {}", t.failures.len())?;
    }
    if t.games == 0 {
        // No figures to show: a table of dashes would say nothing.
        let why = if !t.failures.is_empty() {
            "every match stopped with a rule error"
        } else if shard.is_empty() {
            "the batch is empty"
        } else {
            "this shard holds none of the batch's matches"
        };
        return writeln!(out, "no match was played ({why}): there are no figures");
    }
    let figs = stats::figures(t);
    let w = figs
        .iter()
        .map(|f| f.label.len())
        .max()
        .unwrap_or(0)
        .max(18);
    for f in &figs {
        writeln!(out, "{:w$} {}", f.label, describe(f))?;
        if f.id == "turns" {
            let q = balance::quantiles_text(&balance::match_length(t));
            writeln!(out, "{:w$} {q}", "match length quantiles")?;
        }
    }
    let dist = stats::goals_distribution(t);
    let cells: Vec<String> = dist
        .iter()
        .map(|f| {
            format!(
                "{}: {:.1}%",
                f.label.trim_end_matches(" goals"),
                100.0 * f.value.unwrap_or(0.0)
            )
        })
        .collect();
    writeln!(out, "{:w$} {}", "goals distribution", cells.join("  "))?;
    for (name, counts) in &t.counted_by {
        write_counted(out, name, counts, t.games)?;
    }
    writeln!(
        out,
        "{:w$} {} match{}",
        "turn cap reached",
        t.runaways,
        if t.runaways == 1 { "" } else { "es" }
    )?;
    let never = t.never_fired();
    writeln!(
        out,
        "{:w$} {} of {} table rows, procedures and triggers ran",
        "rules coverage",
        t.coverage.len() - never.len(),
        t.coverage.len()
    )?;
    if !never.is_empty() {
        writeln!(out, "  never ran: {}", never.join(", "))?;
    }
    if full_coverage {
        let cw = t.coverage.keys().map(String::len).max().unwrap_or(0);
        for (k, n) in &t.coverage {
            writeln!(out, "  {k:cw$} {n}")?;
        }
        writeln!(out, "options picked:")?;
        let cw = t.choices.keys().map(String::len).max().unwrap_or(0);
        for (k, n) in &t.choices {
            writeln!(out, "  {k:cw$} {n}")?;
        }
    }
    if let Some(tm) = timing {
        writeln!(
            out,
            "{:w$} {:.2} s, {:.0} matches per second ({} thread{})",
            "time",
            tm.seconds.unwrap_or(0.0),
            tm.matches_per_second.unwrap_or(0.0),
            tm.jobs,
            if tm.jobs == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}

/// A breakdown figure: its name, then each value seen with its count over the batch and
/// per match, most frequent first (an empty value shows as `(none)`).
fn write_counted(
    out: &mut dyn Write,
    name: &str,
    counts: &std::collections::BTreeMap<String, u64>,
    games: u64,
) -> io::Result<()> {
    let mut rows: Vec<(&String, &u64)> = counts.iter().collect();
    rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let title = name.replace('_', " ");
    if rows.is_empty() {
        return writeln!(out, "{title}: never");
    }
    writeln!(out, "{title}:")?;
    let kw = rows.iter().map(|(k, _)| k.len().max(6)).max().unwrap_or(6);
    for (k, n) in rows {
        let k = if k.is_empty() { "(none)" } else { k.as_str() };
        let per = *n as f64 / games.max(1) as f64;
        writeln!(out, "  {k:kw$} {n:>7}  ({per:.3} per match)")?;
    }
    Ok(())
}
