//! `fuba simulate`: many matches, figures.
//!
//! Every figure is summed as integers (sums and sums of squares), so adding up the matches
//! in any order, on any number of threads, gives exactly the same figures. Failed matches
//! are sorted by index before they are reported.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::Args;
use fuba_engine::dice::{SeededDice, splitmix64};
use fuba_engine::game::{Ending, Match};
use fuba_engine::interp::RunError;
use fuba_engine::ruleset::Ruleset;
use indexmap::IndexMap;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::{AgentKind, CliError, CliResult, Format, load_rules, make_agent, seed_or_clock};

/// Options of `fuba simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// The ruleset: a built-in edition name (original) or the path of a ruleset file.
    #[arg(
        long,
        short,
        value_name = "EDITION|PATH",
        default_value = "original",
        env = "FUBA_RULES"
    )]
    pub rules: String,
    /// How many matches to play.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1000)]
    pub games: u64,
    /// The batch seed S; match i is played with seed splitmix64(splitmix64(S) XOR i).
    /// Default: from the clock, printed to stderr.
    #[arg(long, short, value_name = "S")]
    pub seed: Option<u64>,
    /// Who plays the home team (random or heuristic).
    #[arg(long, value_enum, value_name = "AGENT", default_value = "random")]
    pub home: AgentKind,
    /// Who plays the away team (random or heuristic).
    #[arg(long, value_enum, value_name = "AGENT", default_value = "random")]
    pub away: AgentKind,
    /// How to print the figures: `table` for people, `json` (with "schema": 1) for programs.
    #[arg(long, short, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Threads to play on. Default: one per CPU. The figures do not depend on it.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

/// The seed of match `index` of a batch with seed `batch`.
pub fn match_seed(batch: u64, index: u64) -> u64 {
    splitmix64(splitmix64(batch) ^ index)
}

/// Count, sum and sum of squares of an integer per match, exactly.
#[derive(Debug, Clone, Copy, Default)]
struct Moments {
    n: u64,
    sum: i128,
    sumsq: i128,
}

impl Moments {
    fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += i128::from(x);
        self.sumsq += i128::from(x) * i128::from(x);
    }
    fn merge(&mut self, o: &Moments) {
        self.n += o.n;
        self.sum += o.sum;
        self.sumsq += o.sumsq;
    }
    fn mean(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            self.sum as f64 / self.n as f64
        }
    }
    /// Sample standard deviation.
    fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = i128::from(self.n);
        let num = n * self.sumsq - self.sum * self.sum;
        (num as f64 / (n * (n - 1)) as f64).max(0.0).sqrt()
    }
    /// Half the width of the 95% confidence interval of the mean.
    fn ci95(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            1.96 * self.sd() / (self.n as f64).sqrt()
        }
    }
}

/// Figures over a batch of matches.
#[derive(Debug, Clone, Default)]
struct Acc {
    goals: Moments,
    home_goals: Moments,
    away_goals: Moments,
    home_wins: u64,
    away_wins: u64,
    draws: u64,
    /// Per figure of the ruleset, in its order.
    figures: Vec<Moments>,
    /// Turns per half, by half.
    turns: Vec<Moments>,
    runaways: u64,
    /// Failed matches: index, seed, error.
    errors: Vec<(u64, u64, RunError)>,
}

impl Acc {
    fn new(figures: usize) -> Self {
        Acc {
            figures: vec![Moments::default(); figures],
            ..Acc::default()
        }
    }

    fn merge(mut self, o: Acc) -> Acc {
        self.goals.merge(&o.goals);
        self.home_goals.merge(&o.home_goals);
        self.away_goals.merge(&o.away_goals);
        self.home_wins += o.home_wins;
        self.away_wins += o.away_wins;
        self.draws += o.draws;
        for (a, b) in self.figures.iter_mut().zip(&o.figures) {
            a.merge(b);
        }
        if self.turns.len() < o.turns.len() {
            self.turns.resize(o.turns.len(), Moments::default());
        }
        for (a, b) in self.turns.iter_mut().zip(&o.turns) {
            a.merge(b);
        }
        self.runaways += o.runaways;
        self.errors.extend(o.errors);
        self
    }

    fn games(&self) -> u64 {
        self.goals.n
    }
}

/// Plays match `index` of the batch and adds it to `acc`.
fn play_one(rs: &Ruleset, a: &SimulateArgs, batch: u64, index: u64, mut acc: Acc) -> Acc {
    let seed = match_seed(batch, index);
    let home = make_agent(a.home, seed, 0);
    let away = make_agent(a.away, seed, 1);
    let mut m = Match::new(rs, seed, Box::new(SeededDice::new(seed)), home, away);
    match m.play() {
        Ok(o) => {
            let [h, w] = o.score;
            acc.goals.add(h + w);
            acc.home_goals.add(h);
            acc.away_goals.add(w);
            match h.cmp(&w) {
                std::cmp::Ordering::Greater => acc.home_wins += 1,
                std::cmp::Ordering::Less => acc.away_wins += 1,
                std::cmp::Ordering::Equal => acc.draws += 1,
            }
            let emits = &m.interp.counters.emits;
            for (f, (_, kinds)) in acc.figures.iter_mut().zip(&rs.figures) {
                let n: i64 = kinds
                    .iter()
                    .map(|k| i64::from(emits.get(*k as usize).copied().unwrap_or(0)))
                    .sum();
                f.add(n);
            }
            if acc.turns.len() < o.turns.len() {
                acc.turns.resize(o.turns.len(), Moments::default());
            }
            for (t, n) in acc.turns.iter_mut().zip(&o.turns) {
                t.add(i64::from(*n));
            }
            if o.ending == Ending::Runaway {
                acc.runaways += 1;
            }
        }
        Err(e) => acc.errors.push((index, seed, e)),
    }
    acc
}

fn share(k: u64, n: u64) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        k as f64 / n as f64
    }
}

/// Runs `fuba simulate`.
pub fn run(a: SimulateArgs) -> CliResult {
    if a.home == AgentKind::Human || a.away == AgentKind::Human {
        return Err(CliError::Usage(
            "simulate plays without anyone at the terminal: use random or heuristic players (`fuba play` takes human)".into(),
        ));
    }
    let rs = load_rules(&a.rules)?;
    let batch = seed_or_clock(a.seed);
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(j) = a.jobs {
        pool = pool.num_threads(usize::from(j));
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the worker threads: {e}")))?;
    let jobs = pool.current_num_threads();

    let bar = if io::stderr().is_terminal() {
        let b = ProgressBar::new(a.games);
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} matches ({per_sec}, {eta} left)",
        ) {
            b.set_style(style);
        }
        b
    } else {
        ProgressBar::hidden()
    };

    // The ruleset is shared by every worker; each takes the next match index until the
    // batch is done.
    let nfig = rs.figures.len();
    let next = AtomicU64::new(0);
    let start = Instant::now();
    let shared = &rs;
    let parts = pool.broadcast(|_| {
        let mut acc = Acc::new(nfig);
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= a.games {
                return acc;
            }
            acc = play_one(shared, &a, batch, i, acc);
            bar.inc(1);
        }
    });
    let mut acc = Acc::new(nfig);
    for p in parts {
        acc = acc.merge(p);
    }
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    acc.errors.sort_by_key(|e| e.0);

    let mut out = BufWriter::new(io::stdout().lock());
    match a.format {
        Format::Json => {
            let text = to_json(&rs, &a, batch, &acc, seconds, jobs)?;
            writeln!(out, "{text}")?;
        }
        Format::Table => write_table(&mut out, &rs, &a, batch, &acc, seconds, jobs)?,
    }
    out.flush()?;

    if acc.errors.is_empty() {
        return Ok(());
    }
    for (i, seed, e) in &acc.errors {
        note!(
            "error: match {i} (seed {seed}; replay with `fuba play --rules {} --seed {seed}`) failed: {e}",
            a.rules
        );
    }
    Err(CliError::Failure(format!(
        "{} of {} matches failed",
        acc.errors.len(),
        a.games
    )))
}

fn shots_index(rs: &Ruleset) -> Option<usize> {
    rs.figures.iter().position(|(name, _)| name == "shots")
}

fn conversion(acc: &Acc, shots: Option<usize>) -> Option<f64> {
    let s = acc.figures.get(shots?)?.sum;
    (s > 0).then(|| acc.goals.sum as f64 / s as f64)
}

/// The JSON report (`--format json`); fields print in this order.
#[derive(Serialize)]
struct Report<'r> {
    schema: u32,
    ruleset: &'r str,
    fingerprint: &'r str,
    seed: u64,
    seeds: &'static str,
    home: &'static str,
    away: &'static str,
    games: u64,
    failed: usize,
    goals_per_match: Stat,
    home_goals_per_match: Stat,
    away_goals_per_match: Stat,
    results: Results,
    shots_per_match: Option<Stat>,
    conversion: Option<f64>,
    figures_per_match: IndexMap<&'r str, Stat>,
    turns_per_half: Vec<Stat>,
    runaways: u64,
    timing: Timing,
}

#[derive(Serialize)]
struct Stat {
    mean: Option<f64>,
    sd: Option<f64>,
    ci95: [Option<f64>; 2],
    total: i64,
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

#[derive(Serialize)]
struct Timing {
    seconds: Option<f64>,
    matches_per_second: Option<f64>,
    jobs: usize,
}

impl Moments {
    fn stat(&self) -> Stat {
        let (m, h) = (self.mean(), self.ci95());
        Stat {
            mean: num(m),
            sd: num(self.sd()),
            ci95: [num(m - h), num(m + h)],
            total: self.sum as i64,
        }
    }
}

/// Rounded to 6 decimals, so the text carries no float noise; NaN becomes null.
fn num(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 1e6).round() / 1e6)
}

fn to_json(
    rs: &Ruleset,
    a: &SimulateArgs,
    batch: u64,
    acc: &Acc,
    seconds: f64,
    jobs: usize,
) -> io::Result<String> {
    let n = acc.games();
    let shots = shots_index(rs);
    let report = Report {
        schema: 1,
        ruleset: &rs.name,
        fingerprint: &rs.fingerprint,
        seed: batch,
        seeds: "match i: splitmix64(splitmix64(seed) XOR i)",
        home: a.home.label(),
        away: a.away.label(),
        games: n,
        failed: acc.errors.len(),
        goals_per_match: acc.goals.stat(),
        home_goals_per_match: acc.home_goals.stat(),
        away_goals_per_match: acc.away_goals.stat(),
        results: Results {
            home_wins: acc.home_wins,
            away_wins: acc.away_wins,
            draws: acc.draws,
            home_share: num(share(acc.home_wins, n)),
            away_share: num(share(acc.away_wins, n)),
            draw_share: num(share(acc.draws, n)),
        },
        shots_per_match: shots.and_then(|i| acc.figures.get(i)).map(Moments::stat),
        conversion: conversion(acc, shots).and_then(num),
        figures_per_match: rs
            .figures
            .iter()
            .zip(&acc.figures)
            .map(|((name, _), m)| (name.as_str(), m.stat()))
            .collect(),
        turns_per_half: acc.turns.iter().map(Moments::stat).collect(),
        runaways: acc.runaways,
        timing: Timing {
            seconds: num(seconds),
            matches_per_second: num(a.games as f64 / seconds),
            jobs,
        },
    };
    serde_json::to_string_pretty(&report).map_err(io::Error::other)
}

fn interval(m: &Moments) -> String {
    let (mean, h) = (m.mean(), m.ci95());
    format!(
        "{mean:.3} ± {h:.3}  (95% CI {:.3} to {:.3})",
        mean - h,
        mean + h
    )
}

fn write_table(
    out: &mut dyn Write,
    rs: &Ruleset,
    a: &SimulateArgs,
    batch: u64,
    acc: &Acc,
    seconds: f64,
    jobs: usize,
) -> io::Result<()> {
    let n = acc.games();
    let pct = |k: u64| format!("{:5.1}%", 100.0 * share(k, n));
    writeln!(out, "ruleset            {} ({})", rs.name, rs.title)?;
    writeln!(
        out,
        "games played       {n} (seed {batch}; home {}, away {})",
        a.home.label(),
        a.away.label()
    )?;
    if !acc.errors.is_empty() {
        writeln!(out, "games failed       {}", acc.errors.len())?;
    }
    writeln!(out, "goals per match    {}", interval(&acc.goals))?;
    writeln!(
        out,
        "  home / away      {:.3} / {:.3}",
        acc.home_goals.mean(),
        acc.away_goals.mean()
    )?;
    writeln!(
        out,
        "results            home wins {}  away wins {}  draws {}",
        pct(acc.home_wins),
        pct(acc.away_wins),
        pct(acc.draws)
    )?;
    let shots = shots_index(rs);
    if let Some(m) = shots.and_then(|i| acc.figures.get(i)) {
        writeln!(out, "shots per match    {}", interval(m))?;
        match conversion(acc, shots) {
            Some(c) => writeln!(
                out,
                "conversion         {:.1}% of shots are goals",
                100.0 * c
            )?,
            None => writeln!(out, "conversion         - (no shots)")?,
        }
    }
    let others: Vec<_> = rs
        .figures
        .iter()
        .zip(&acc.figures)
        .enumerate()
        .filter(|(i, _)| Some(*i) != shots)
        .collect();
    if !others.is_empty() {
        writeln!(out, "per match:")?;
        let w = others
            .iter()
            .map(|(_, ((name, _), _))| name.len())
            .max()
            .unwrap_or(0)
            .max(16);
        for (_, ((name, _), m)) in others {
            writeln!(out, "  {name:w$} {:.3} ± {:.3}", m.mean(), m.ci95())?;
        }
    }
    let turns: Vec<String> = acc
        .turns
        .iter()
        .enumerate()
        .map(|(i, m)| format!("half {}: {:.1}", i + 1, m.mean()))
        .collect();
    writeln!(out, "turns per half     {}", turns.join(", "))?;
    writeln!(
        out,
        "turn cap reached   {} match{}",
        acc.runaways,
        if acc.runaways == 1 { "" } else { "es" }
    )?;
    writeln!(
        out,
        "time               {seconds:.2} s, {:.0} matches per second ({jobs} thread{})",
        a.games as f64 / seconds,
        if jobs == 1 { "" } else { "s" }
    )?;
    Ok(())
}
