//! `fuba simulate`: many matches, figures.
//!
//! Every figure is tallied as integers (sums and sums of squares, counts), so adding up
//! the matches in any order, on any number of threads or machines, gives exactly the same
//! figures (see [`crate::stats`]). A batch can be split into shards (`--shard K/N`) whose
//! JSON results `fuba merge` adds up into the whole batch's.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::{Args, ValueEnum};
use fuba_engine::dice::{SeededDice, splitmix64};
use fuba_engine::game::Game;
use fuba_engine::ruleset::Ruleset;
use indexmap::IndexMap;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::stats::balance::{self, Quantile};
use crate::stats::{self, Batch, Figure, Kind, Tally};
use crate::{AgentKind, CliError, CliResult, make_agent, seed_or_clock};

/// `--format` of the figure commands.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum StatsFormat {
    /// Text for people.
    #[default]
    Table,
    /// JSON for programs (with "schema": 1 and the exact tallies `fuba merge` adds up).
    Json,
    /// One line per figure, comma-separated, with a header line.
    Csv,
}

/// `--shard K/N`: the K-th (1-based) of N slices of the batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, 1-based.
    pub k: u64,
    /// How many slices.
    pub n: u64,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("`{s}` is not a shard: write K/N with 1 <= K <= N, e.g. 2/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

/// Options of `fuba simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// The ruleset: a built-in edition name (original, 2015, 2024) or the path of a ruleset file.
    #[arg(
        long,
        short,
        value_name = "EDITION|PATH",
        default_value = "original",
        env = "FUBA_RULES"
    )]
    pub rules: String,
    /// Set a match option of the ruleset (`fuba rules show RULES --options` lists them);
    /// repeatable: `--option weather=off --option skills=4`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// How many matches to play (the whole batch, when split into shards).
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1000)]
    pub games: u64,
    /// The batch seed S; match i is played with seed splitmix64(splitmix64(S) XOR i).
    /// Default: from the clock, printed to stderr.
    #[arg(long, short, value_name = "S")]
    pub seed: Option<u64>,
    /// Who plays the home team: random, heuristic, human (play only), or
    /// mcts[:PASSES | :MSms][:random] (search; docs/agents.md).
    #[arg(long, value_name = "AGENT", default_value = "random")]
    pub home: AgentKind,
    /// Who plays the away team: random, heuristic, human (play only), or
    /// mcts[:PASSES | :MSms][:random] (search; docs/agents.md).
    #[arg(long, value_name = "AGENT", default_value = "random")]
    pub away: AgentKind,
    /// Play only slice K of N of the batch: the matches whose index i has i mod N = K-1.
    /// Give every shard the same --seed and --games; `fuba merge` adds the JSON results up.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// How to print the figures.
    #[arg(long, short, value_enum, default_value_t = StatsFormat::Table)]
    pub format: StatsFormat,
    /// Write the figures to FILE instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write a self-contained HTML page with charts (goals, figures, rules coverage).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// List how often every table row, procedure, trigger and option ran (table format).
    #[arg(long)]
    pub coverage: bool,
    /// Threads to play on. Default: one per CPU. The figures do not depend on it.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

/// The seed of match `index` of a batch with seed `batch`.
pub fn match_seed(batch: u64, index: u64) -> u64 {
    splitmix64(splitmix64(batch) ^ index)
}

/// How a batch is played.
pub struct Plan {
    /// Home and away agents.
    pub home: AgentKind,
    /// The away agent.
    pub away: AgentKind,
    /// Worker threads (None: one per CPU).
    pub jobs: Option<u16>,
    /// Show a progress bar on a terminal.
    pub progress: bool,
    /// Keep every match's values by match index (for a paired comparison).
    pub per_match: bool,
}

/// A played batch: the tally, the seconds it took and on how many threads.
pub struct Played {
    /// The tally.
    pub tally: Tally,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Threads used.
    pub jobs: usize,
    /// Matches played (this shard).
    pub played: u64,
}

/// Plays the matches of `batch` (its shards) on a thread pool.
pub fn play_batch(rs: &Ruleset, batch: Batch, plan: &Plan) -> Result<Played, CliError> {
    crate::agents::prepare(rs, &[plan.home, plan.away]);
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(j) = plan.jobs {
        pool = pool.num_threads(usize::from(j));
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the worker threads: {e}")))?;
    let jobs = pool.current_num_threads();
    let (k, n) = (batch.shards[0], batch.shard_count);
    let total = Batch::indices(batch.games, k, n).count() as u64;

    let bar = if plan.progress && io::stderr().is_terminal() {
        let b = ProgressBar::new(total);
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} matches ({per_sec}, {eta} left)",
        ) {
            b.set_style(style);
        }
        b
    } else {
        ProgressBar::hidden()
    };

    // The ruleset is shared by every worker; each takes the next match until the batch is
    // done. Match j of the shard is match k-1 + j*n of the batch.
    let next = AtomicU64::new(0);
    let start = Instant::now();
    let seed = batch.seed;
    let mut empty = Tally::new(rs, batch);
    if plan.per_match {
        empty = empty.keep_per_match();
    }
    let parts = pool.broadcast(|_| {
        let mut acc = empty.clone();
        loop {
            let j = next.fetch_add(1, Ordering::Relaxed);
            if j >= total {
                return acc;
            }
            let index = k - 1 + j * n;
            play_one(rs, plan, seed, index, &mut acc);
            bar.inc(1);
        }
    });
    let mut tally = empty;
    for p in parts {
        tally.absorb(p);
    }
    tally.finish(rs);
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    Ok(Played {
        tally,
        seconds,
        jobs,
        played: total,
    })
}

/// Plays match `index` of the batch and adds it to `acc`.
fn play_one(rs: &Ruleset, plan: &Plan, batch: u64, index: u64, acc: &mut Tally) {
    let seed = match_seed(batch, index);
    let home = make_agent(plan.home, rs, seed, 0);
    let away = make_agent(plan.away, rs, seed, 1);
    let mut m = Game::new(rs, seed, Box::new(SeededDice::new(seed)), home, away);
    match m.play() {
        Ok(o) => acc.add_match(rs, index, &o, &m.m.counters),
        Err(e) => acc.add_failure(index, seed, e.to_string()),
    }
}

/// Checks that neither player is a human.
pub fn machine_players(home: AgentKind, away: AgentKind) -> CliResult {
    if home == AgentKind::Human || away == AgentKind::Human {
        return Err(CliError::Usage(
            "simulate plays without anyone at the terminal: use random, heuristic or mcts players (`fuba play` takes human)".into(),
        ));
    }
    Ok(())
}

/// Runs `fuba simulate`.
pub fn run(a: SimulateArgs) -> CliResult {
    machine_players(a.home, a.away)?;
    let rs = crate::editions::load_rules_with(&a.rules, &a.options)?;
    let seed = seed_or_clock(a.seed);
    let shard = a.shard.unwrap_or(Shard { k: 1, n: 1 });
    let batch = Batch {
        ruleset: rs.name.clone(),
        title: rs.title.clone(),
        fingerprint: rs.fingerprint.clone(),
        seed,
        home: a.home.label(),
        away: a.away.label(),
        games: a.games,
        shard_count: shard.n,
        shards: vec![shard.k],
    };
    let plan = Plan {
        home: a.home,
        away: a.away,
        jobs: a.jobs,
        progress: true,
        per_match: false,
    };
    let played = play_batch(&rs, batch, &plan)?;
    let timing = Timing {
        seconds: stats::num(played.seconds),
        matches_per_second: stats::num(played.played as f64 / played.seconds),
        jobs: played.jobs,
    };
    emit(
        &played.tally,
        Some(timing),
        a.format,
        a.out.as_ref(),
        a.coverage,
    )?;
    if let Some(path) = &a.report {
        crate::report::write_simulation(path, &played.tally)?;
    }
    failures(&played.tally, &a.rules)
}

/// Reports failed matches on stderr; an error when there were any.
pub fn failures(t: &Tally, rules: &str) -> CliResult {
    if t.failures.is_empty() {
        return Ok(());
    }
    for f in &t.failures {
        note!(
            "error: match {} (seed {}; replay with `fuba play --rules {rules} --seed {}`) failed: {}",
            f.index,
            f.seed,
            f.seed,
            f.error
        );
    }
    Err(CliError::Failure(format!(
        "{} of {} matches failed",
        t.failures.len(),
        t.games + t.failures.len() as u64
    )))
}

/// Opens `--out FILE` or stdout.
pub fn output(out: Option<&PathBuf>) -> Result<Box<dyn Write>, CliError> {
    Ok(match out {
        Some(p) => Box::new(BufWriter::new(std::fs::File::create(p).map_err(|e| {
            CliError::Failure(format!("cannot write {}: {e}", p.display()))
        })?)),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    })
}

/// Writes a tally's figures in the chosen format.
pub fn emit(
    t: &Tally,
    timing: Option<Timing>,
    format: StatsFormat,
    out: Option<&PathBuf>,
    coverage: bool,
) -> CliResult {
    let mut w = output(out)?;
    match format {
        StatsFormat::Json => {
            let text = to_json(t, timing)?;
            writeln!(w, "{text}")?;
        }
        StatsFormat::Csv => write_csv(&mut w, t)?,
        StatsFormat::Table => write_table(&mut w, t, timing.as_ref(), coverage)?,
    }
    w.flush()?;
    Ok(())
}

/// How long a batch took.
#[derive(Serialize, Clone, Debug)]
pub struct Timing {
    /// Wall-clock seconds.
    pub seconds: Option<f64>,
    /// Matches per second.
    pub matches_per_second: Option<f64>,
    /// Threads.
    pub jobs: usize,
}

/// The JSON report (`--format json`); fields print in this order.
#[derive(Serialize)]
struct Report<'r> {
    schema: u32,
    ruleset: &'r str,
    title: &'r str,
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

fn to_json(t: &Tally, timing: Option<Timing>) -> io::Result<String> {
    let figs = stats::figures(t);
    let b = &t.batch;
    let total = |k: &str| t.engine.get(k).map_or(0, |m| m.sum);
    let share = |i: usize| stats::num(t.results[i] as f64 / t.games as f64);
    let report = Report {
        schema: 1,
        ruleset: &b.ruleset,
        title: &b.title,
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

fn write_table(
    out: &mut dyn Write,
    t: &Tally,
    timing: Option<&Timing>,
    full_coverage: bool,
) -> io::Result<()> {
    let b = &t.batch;
    writeln!(out, "ruleset            {} ({})", b.ruleset, b.title)?;
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

fn write_csv(out: &mut dyn Write, t: &Tally) -> io::Result<()> {
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
