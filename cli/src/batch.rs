//! The batch runner: plays the matches of a batch (or of one of its shards) on a thread
//! pool and adds them up into a [`Tally`].
//!
//! Match i (0-based) of a batch with seed S is played with the seed
//! splitmix64(splitmix64(S) XOR i) ([`match_seed`]); each worker takes the next match
//! until the batch is done, so the tally does not depend on the number of threads.

use std::io::{self, IsTerminal};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use fuba_engine::dice::{SeededDice, splitmix64};
use fuba_engine::game::Game;
use fuba_engine::ruleset::Ruleset;
use indicatif::{ProgressBar, ProgressStyle};

use crate::agents::{AgentKind, make_agent};
use crate::error::{CliError, CliResult};
use crate::stats::{Batch, Tally};

pub mod stop;

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
