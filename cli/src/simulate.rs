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
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::stats::{self, Batch, Tally};
use crate::{AgentKind, CliError, CliResult, make_agent, seed_or_clock};

mod output;
pub mod stop;

pub use output::shard_text;
use output::{to_json, write_csv, write_table};

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
    /// Every one of the first matches failed, so the batch stopped there
    /// ([`stop::every_match_failed`] tells why).
    pub stopped: bool,
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
    // done. Match j of the shard is match k-1 + j*n of the batch. The first
    // `stop::PROBE` matches are played first: when every one of them fails, the batch
    // stops there (the same matches on any number of threads, so the same decision).
    let start = Instant::now();
    let seed = batch.seed;
    let mut empty = Tally::new(rs, batch);
    if plan.per_match {
        empty = empty.keep_per_match();
    }
    let run = |from: u64, to: u64| {
        let next = AtomicU64::new(from);
        pool.broadcast(|_| {
            let mut acc = empty.clone();
            loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                if j >= to {
                    return acc;
                }
                let index = k - 1 + j * n;
                play_one(rs, plan, seed, index, &mut acc);
                bar.inc(1);
            }
        })
    };
    let probe = total.min(stop::PROBE);
    let mut tally = empty.clone();
    for p in run(0, probe) {
        tally.absorb(p);
    }
    let stopped = tally.games == 0 && probe > 0;
    if !stopped {
        for p in run(probe, total) {
            tally.absorb(p);
        }
    }
    tally.finish(rs);
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    Ok(Played {
        tally,
        seconds,
        jobs,
        played: if stopped { probe } else { total },
        stopped,
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
    crate::outputs::check(&[a.out.as_deref(), a.report.as_deref()])?;
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
        options: crate::stats::options_set(&rs),
    };
    let plan = Plan {
        home: a.home,
        away: a.away,
        jobs: a.jobs,
        progress: true,
        per_match: false,
    };
    let played = play_batch(&rs, batch, &plan)?;
    if played.stopped {
        return Err(stop::every_match_failed(&played.tally, &a.rules));
    }
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
