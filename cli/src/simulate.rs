//! `fuba simulate`: many matches, figures.
//!
//! Every figure is tallied as integers (sums and sums of squares, counts), so adding up
//! the matches in any order, on any number of threads or machines, gives exactly the same
//! figures (see [`crate::stats`]). A batch can be split into shards (`--shard K/N`) whose
//! JSON results `fuba merge` adds up into the whole batch's.

use std::path::PathBuf;

use clap::Args;

use crate::batch::{Plan, Shard, failures, machine_players, play_batch, stop};
use crate::render::{StatsFormat, Timing, emit};
use crate::stats::{self, Batch};
use crate::{AgentKind, CliResult, seed_or_clock};

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
        crate::render::html::write_simulation(path, &played.tally)?;
    }
    failures(&played.tally, &a.rules)
}
