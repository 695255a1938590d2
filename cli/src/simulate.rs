//! `fuba simulate`: many matches, figures.
//!
//! Every figure is tallied as integers (sums and sums of squares, counts), so adding up
//! the matches in any order, on any number of threads or machines, gives exactly the same
//! figures (see [`crate::stats`]). A batch can be split into shards (`--shard K/N`) whose
//! JSON results `fuba merge` adds up into the whole batch's.

use clap::Args;

use crate::args::{BatchArgs, CoverageArgs, FiguresOutArgs, JobsArgs, PlayersArgs, RulesetArgs};
use crate::batch::{Plan, Shard, failures, machine_players, play_batch, stop};
use crate::render::{Timing, emit};
use crate::stats::{self, Batch};
use crate::{CliResult, seed_or_clock};

/// Options of `fuba simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub ruleset: RulesetArgs,
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub players: PlayersArgs,
    /// Play only slice K of N of the batch: the matches whose index i has i mod N = K-1.
    /// Give every shard the same --seed and --games; `fuba merge` adds the JSON results up.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub output: FiguresOutArgs,
    #[command(flatten)]
    pub coverage: CoverageArgs,
    #[command(flatten)]
    pub jobs: JobsArgs,
}

/// Runs `fuba simulate`.
pub fn run(a: SimulateArgs) -> CliResult {
    let (players, out) = (&a.players, &a.output);
    machine_players(players.home, players.away)?;
    out.check()?;
    let rs = a.ruleset.load()?;
    let seed = seed_or_clock(a.batch.seed);
    let shard = a.shard.unwrap_or(Shard { k: 1, n: 1 });
    let batch = Batch {
        ruleset: rs.name.clone(),
        title: rs.title.clone(),
        fingerprint: rs.fingerprint.clone(),
        seed,
        home: players.home.label(),
        away: players.away.label(),
        games: a.batch.games,
        shard_count: shard.n,
        shards: vec![shard.k],
        options: crate::stats::options_set(&rs),
    };
    let plan = Plan {
        home: players.home,
        away: players.away,
        jobs: a.jobs.jobs,
        progress: true,
        per_match: false,
    };
    let played = play_batch(&rs, batch, &plan)?;
    if played.stopped {
        return Err(stop::every_match_failed(&played.tally, &a.ruleset.rules));
    }
    let timing = Timing {
        seconds: stats::num(played.seconds),
        matches_per_second: stats::num(played.played as f64 / played.seconds),
        jobs: played.jobs,
    };
    emit(
        &played.tally,
        Some(timing),
        out.format,
        out.out.as_ref(),
        a.coverage.coverage,
    )?;
    if let Some(path) = &out.report {
        crate::render::html::write_simulation(path, &played.tally)?;
    }
    failures(&played.tally, &a.ruleset.rules)
}
