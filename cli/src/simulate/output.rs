//! What `fuba simulate` prints: the figures of a tally as a text table, CSV or JSON.

use std::io::{self, Write};

use indexmap::IndexMap;
use serde::Serialize;

use super::Timing;
use crate::stats::balance::{self, Quantile};
use crate::stats::{self, Batch, Figure, Kind, Tally};

/// The JSON report (`--format json`); fields print in this order.
#[derive(Serialize)]
struct Report<'r> {
    schema: u32,
    ruleset: &'r str,
    title: &'r str,
    /// The match options set to other than their default (`NAME=VALUE`): the title names
    /// the ruleset's own defaults only.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    options: &'r [String],
    fingerprint: &'r str,
    seed: u64,
    seeds: &'static str,
    home: &'r str,
    away: &'r str,
    /// Matches played to the end (this shard, or the merged shards).
    games: u64,
    failed: usize,
    batch_games: u64,
    shard: Option<String>,
    goals_per_match: Stat,
    home_goals_per_match: Stat,
    away_goals_per_match: Stat,
    results: Results,
    balance: Balance,
    shots_per_match: Option<Stat>,
    conversion: Option<f64>,
    figures_per_match: IndexMap<&'r str, Stat>,
    turns_per_half: Vec<Stat>,
    runaways: u64,
    figures: Vec<Figure>,
    goals_distribution: Vec<Figure>,
    coverage: Coverage<'r>,
    tallies: &'r Tally,
    timing: Option<Timing>,
}

#[derive(Serialize)]
struct Coverage<'r> {
    entries: usize,
    fired: usize,
    never_fired: Vec<&'r str>,
}

#[derive(Serialize)]
struct Stat {
    mean: Option<f64>,
    sd: Option<f64>,
    ci95: [Option<f64>; 2],
    total: i64,
}

/// The balance figures (see [`crate::stats::balance`]).
#[derive(Serialize)]
struct Balance {
    /// Home goals minus away goals per match.
    home_advantage: Stat,
    /// Who the kick-off team is.
    kickoff_team: &'static str,
    /// Kick-off team's goals minus the other team's per match.
    kickoff_advantage: Stat,
    /// Share of matches the kick-off team won.
    kickoff_win: Share,
    /// Share of matches the kick-off team lost.
    kickoff_loss: Share,
    /// Turns per match (all halves).
    match_length: Length,
}

#[derive(Serialize)]
struct Share {
    count: u64,
    share: Option<f64>,
    ci95: [Option<f64>; 2],
}

#[derive(Serialize)]
struct Length {
    #[serde(flatten)]
    mean: Stat,
    quantiles: Vec<Quantile>,
}

fn share_of(figs: &[Figure], id: &str) -> Option<Share> {
    figs.iter().find(|f| f.id == id).map(|f| Share {
        count: f.count.unwrap_or(0),
        share: f.value,
        ci95: f.ci95,
    })
}

#[derive(Serialize)]
struct Results {
    home_wins: u64,
    away_wins: u64,
    draws: u64,
    home_share: Option<f64>,
    away_share: Option<f64>,
    draw_share: Option<f64>,
}

fn stat(figs: &[Figure], id: &str, total: i64) -> Option<Stat> {
    figs.iter().find(|f| f.id == id).map(|f| Stat {
        mean: f.value,
        sd: f.sd,
        ci95: f.ci95,
        total,
    })
}

/// The shard(s) a tally holds, as text (`2/4`, `1,3/4`), or None for a whole batch.
pub fn shard_text(b: &Batch) -> Option<String> {
    if b.shard_count == 1 || b.shards.len() as u64 == b.shard_count {
        return None;
    }
    let ks: Vec<String> = b.shards.iter().map(u64::to_string).collect();
    Some(format!("{}/{}", ks.join(","), b.shard_count))
}

pub(super) fn to_json(t: &Tally, timing: Option<Timing>) -> io::Result<String> {
    let figs = stats::figures(t);
    let b = &t.batch;
    let total = |k: &str| t.engine.get(k).map_or(0, |m| m.sum);
    let share = |i: usize| stats::num(t.results[i] as f64 / t.games as f64);
    let report = Report {
        schema: 1,
        ruleset: &b.ruleset,
        title: &b.title,
        options: &b.options,
        fingerprint: &b.fingerprint,
        seed: b.seed,
        seeds: "match i: splitmix64(splitmix64(seed) XOR i); shard K/N: the matches with i mod N = K-1",
        home: &b.home,
        away: &b.away,
        games: t.games,
        failed: t.failures.len(),
        batch_games: b.games,
        shard: shard_text(b),
        goals_per_match: stat(&figs, "goals", total("goals")).expect("goals"),
        home_goals_per_match: stat(&figs, "home_goals", total("home_goals")).expect("goals"),
        away_goals_per_match: stat(&figs, "away_goals", total("away_goals")).expect("goals"),
        results: Results {
            home_wins: t.results[0],
            away_wins: t.results[1],
            draws: t.results[2],
            home_share: share(0),
            away_share: share(1),
            draw_share: share(2),
        },
        balance: Balance {
            home_advantage: stat(&figs, "home_advantage", total("home_advantage"))
                .expect("home advantage"),
            kickoff_team: "the team controlling the ball when the first turn of the match began",
            kickoff_advantage: stat(&figs, "kickoff_advantage", total("kickoff_advantage"))
                .expect("kick-off advantage"),
            kickoff_win: share_of(&figs, "kickoff_win").expect("kick-off wins"),
            kickoff_loss: share_of(&figs, "kickoff_loss").expect("kick-off losses"),
            match_length: Length {
                mean: stat(&figs, "turns", total("turns")).expect("turns"),
                quantiles: balance::match_length(t),
            },
        },
        shots_per_match: t
            .figures
            .get("shots")
            .and_then(|m| stat(&figs, "figures.shots", m.sum)),
        conversion: figs
            .iter()
            .find(|f| f.id == "conversion")
            .and_then(|f| f.value),
        figures_per_match: t
            .figures
            .iter()
            .filter_map(|(name, m)| {
                Some((
                    name.as_str(),
                    stat(&figs, &format!("figures.{name}"), m.sum)?,
                ))
            })
            .collect(),
        turns_per_half: t
            .engine
            .iter()
            .filter(|(k, _)| k.starts_with("turns_half_"))
            .filter_map(|(k, m)| stat(&figs, k, m.sum))
            .collect(),
        runaways: t.runaways,
        goals_distribution: stats::goals_distribution(t),
        figures: figs,
        coverage: Coverage {
            entries: t.coverage.len(),
            fired: t.coverage.values().filter(|n| **n > 0).count(),
            never_fired: t.never_fired(),
        },
        tallies: t,
        timing,
    };
    serde_json::to_string_pretty(&report).map_err(io::Error::other)
}

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
    let shard = shard_text(b).map_or_else(String::new, |s| {
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

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
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

pub(super) fn write_csv(out: &mut dyn Write, t: &Tally) -> io::Result<()> {
    writeln!(out, "ruleset,id,label,kind,n,value,sd,ci95_low,ci95_high")?;
    let show = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
    for f in stats::figures(t)
        .iter()
        .chain(&stats::goals_distribution(t))
    {
        let kind = match f.kind {
            Kind::Mean => "mean",
            Kind::Share => "share",
            Kind::Ratio => "ratio",
        };
        writeln!(
            out,
            "{},{},{},{kind},{},{},{},{},{}",
            csv_field(&t.batch.ruleset),
            csv_field(&f.id),
            csv_field(&f.label),
            f.n,
            show(f.value),
            show(f.sd),
            show(f.ci95[0]),
            show(f.ci95[1])
        )?;
    }
    // Match length quantiles, with their order-statistic intervals.
    for q in balance::match_length(t) {
        let show = |x: Option<u32>| x.map_or_else(String::new, |v| v.to_string());
        writeln!(
            out,
            "{},{},{},quantile,{},{},,{},{}",
            csv_field(&t.batch.ruleset),
            format_args!("turns_q{}", (q.p * 100.0).round()),
            csv_field(&format!("match length, {} quantile (turns)", q.label())),
            t.games,
            show(q.turns),
            show(q.ci95[0]),
            show(q.ci95[1])
        )?;
    }
    // Breakdown figures: one row per value seen, its total over the batch.
    for (name, counts) in &t.counted_by {
        for (k, n) in counts {
            writeln!(
                out,
                "{},{},{},count,{},{},,,",
                csv_field(&t.batch.ruleset),
                csv_field(&format!("counted_by.{name}.{k}")),
                csv_field(&format!("{name}: {k}")),
                t.games,
                n
            )?;
        }
    }
    Ok(())
}
