//! The figures of a tally as JSON (`--format json`): the headline figures by name, every
//! figure with its interval, and the exact tallies that `fuba merge` adds up.

use std::io;

use indexmap::IndexMap;
use serde::Serialize;

use super::Timing;
use crate::stats::balance::{self, Quantile};
use crate::stats::{self, Figure, Tally};

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
    /// The converted figure ([`stats::conversion`]) per match.
    #[serde(rename = "shots_per_match")]
    converted_per_match: Option<Stat>,
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

/// The JSON text of a tally's figures, with the batch's timing when given.
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
        shard: b.shard_text(),
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
        converted_per_match: (t.conversion.as_ref()).and_then(|c| {
            let m = t.figures.get(&c.figure)?;
            stat(&figs, &c.figure_id(), m.sum)
        }),
        conversion: figs
            .iter()
            .find(|f| f.id == stats::conversion::ID)
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
