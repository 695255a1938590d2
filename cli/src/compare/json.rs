//! A comparison as JSON (`--format json`): the rulesets, how the batches pair, the tests
//! used, every figure with its differences, the match length quantiles and the tallies.

use std::io;

use serde::Serialize;

use super::{Row, pairing};
use crate::stats::Tally;
use crate::stats::balance::{self, Quantile};

#[derive(Serialize)]
struct Json<'a> {
    schema: u32,
    rulesets: &'a [String],
    games: u64,
    seed: u64,
    home: &'a str,
    away: &'a str,
    /// Whether every batch pairs with the first (then each difference has `paired`).
    paired: bool,
    /// For each ruleset after the first: its twins with the first (matches played to
    /// the end under both), or null when it does not pair.
    twins: Vec<Option<u64>>,
    tests: Tests,
    figures: &'a [Row],
    match_length: Vec<Length<'a>>,
    tallies: &'a [Tally],
}

#[derive(Serialize)]
struct Length<'a> {
    ruleset: &'a str,
    quantiles: Vec<Quantile>,
}

#[derive(Serialize)]
struct Tests {
    mean: &'static str,
    share: &'static str,
    ratio: &'static str,
    paired_mean: &'static str,
    paired_share: &'static str,
    paired_ratio: &'static str,
    correction: &'static str,
    alpha: f64,
}

/// The JSON text of a comparison of the batches `tallies` of the rulesets `names`.
pub(super) fn to_json(
    names: &[String],
    tallies: &[Tally],
    rows: &[Row],
    games: u64,
    seed: u64,
) -> io::Result<String> {
    let pairing = pairing(tallies);
    let b = &tallies[0].batch;
    let j = Json {
        schema: 1,
        rulesets: names,
        games,
        seed,
        home: &b.home,
        away: &b.away,
        paired: pairing.iter().all(Result::is_ok),
        twins: pairing.iter().map(|p| p.as_ref().ok().copied()).collect(),
        tests: Tests {
            mean: "Welch's t test (unequal variances), two-sided",
            share: "two-proportion z test (pooled), two-sided; interval: unpooled",
            ratio: "z test on delta-method standard errors, two-sided",
            paired_mean: "paired t test on the per-match differences of twins, two-sided",
            paired_share: "McNemar's z test (no continuity correction), two-sided; interval: normal, on the per-match differences",
            paired_ratio: "z test on the per-match differences of the twins' delta-method terms, two-sided",
            correction: "Holm over every figure and ruleset pair",
            alpha: 0.05,
        },
        figures: rows,
        match_length: names
            .iter()
            .zip(tallies)
            .map(|(n, t)| Length {
                ruleset: n,
                quantiles: balance::match_length(t),
            })
            .collect(),
        tallies,
    };
    serde_json::to_string_pretty(&j).map_err(io::Error::other)
}
