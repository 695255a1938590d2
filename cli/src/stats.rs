//! Tallies of a batch of matches and the figures computed from them.
//!
//! Everything a batch counts is an integer (counts, sums, sums of squares), so tallies
//! added in any order, on any number of threads or machines, are exactly the same; the
//! figures (means, shares, intervals) are computed from the tallies at the end. A tally is
//! written into the JSON output (`tallies`), which is how `fuba merge` adds up shards.
//!
//! For a paired comparison (`fuba compare`) a tally can also keep every match's values by
//! match index ([`Tally::keep_per_match`], [`paired`]); those stay in memory.

use std::collections::{BTreeMap, HashMap};

use fuba_engine::game::{Ending, Outcome};
use fuba_engine::log::value_json;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::vm::Counters;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

pub mod balance;
mod batch;
mod dist;
pub mod paired;

pub use batch::{Batch, options_set};
pub use dist::{holm, t_quantile_975, t_two_sided, z_two_sided};
use paired::PerMatch;

/// The z value of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Goals distribution buckets: 0..=9 and 10 or more.
pub const GOAL_BUCKETS: usize = 11;

/// Count, sum and sum of squares of an integer per match, exactly.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    /// Matches counted.
    pub n: u64,
    /// Sum of the values.
    pub sum: i64,
    /// Sum of their squares.
    pub sumsq: i64,
}

impl Moments {
    /// Adds one match's value.
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += x;
        self.sumsq += x * x;
    }
    /// Adds another tally.
    pub fn merge(&mut self, o: &Moments) {
        self.n += o.n;
        self.sum += o.sum;
        self.sumsq += o.sumsq;
    }
    /// The mean (NaN for no matches).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            self.sum as f64 / self.n as f64
        }
    }
    /// The sample standard deviation.
    pub fn sd(&self) -> f64 {
        if self.n < 2 {
            return f64::NAN;
        }
        let n = i128::from(self.n);
        let (s, q) = (i128::from(self.sum), i128::from(self.sumsq));
        let num = n * q - s * s;
        (num as f64 / (n * (n - 1)) as f64).max(0.0).sqrt()
    }
}

/// A failed match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// Its index in the batch.
    pub index: u64,
    /// Its seed.
    pub seed: u64,
    /// What went wrong.
    pub error: String,
}

/// Everything a batch counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Which batch.
    pub batch: Batch,
    /// Matches played to the end (failed ones are not counted in any figure).
    pub games: u64,
    /// Home wins, away wins, draws.
    pub results: [u64; 3],
    /// Wins, losses and draws of the kick-off team: the team controlling the ball when
    /// the first turn of the match began.
    #[serde(default)]
    pub kickoff_results: [u64; 3],
    /// Matches with 0, 1, ... 9 and 10 or more goals.
    pub goals_hist: Vec<u64>,
    /// Matches by their length in turns (all halves): how many lasted each length seen.
    #[serde(default)]
    pub turns_hist: BTreeMap<u32, u64>,
    /// Per-match engine figures: goals, possession changes, turns and clock per half...
    pub engine: IndexMap<String, Moments>,
    /// Per-match figures of the ruleset's [figures] table.
    pub figures: IndexMap<String, Moments>,
    /// Sum over matches of goals × shots (for the conversion's interval).
    pub goals_x_shots: i64,
    /// Matches stopped by the turn cap.
    pub runaways: u64,
    /// Every table row, procedure and trigger of the ruleset, by label, and how often it
    /// ran over the batch.
    pub coverage: IndexMap<String, u64>,
    /// The rulebook's words of each table row that has them, by coverage label, so a row
    /// chosen by a roll (a special event) is reported by its label as well as its roll.
    #[serde(default)]
    pub row_labels: BTreeMap<String, String>,
    /// Labelled options picked, by `decision: label`.
    pub choices: BTreeMap<String, u64>,
    /// The ruleset's breakdown figures (`[figures] NAME = { event, by }`): for each, how
    /// often each value of the field was seen over the batch.
    #[serde(default)]
    pub counted_by: BTreeMap<String, BTreeMap<String, u64>>,
    /// Failed matches, by index.
    pub failures: Vec<Failure>,
    /// Every match's values by match index, when kept ([`Tally::keep_per_match`]): at
    /// most one row per match of the batch. Kept in memory only, never written.
    #[serde(skip)]
    pub per_match: Option<PerMatch>,
    /// Options picked, by decision and label symbol, until [`Tally::finish`].
    #[serde(skip)]
    arm_syms: HashMap<(u32, u32), u64>,
}

/// Where a result goes in `[won, lost, drawn]`, by the goal difference.
fn result_slot(difference: i64) -> usize {
    match difference.cmp(&0) {
        std::cmp::Ordering::Greater => 0,
        std::cmp::Ordering::Less => 1,
        std::cmp::Ordering::Equal => 2,
    }
}

/// The coverage label of each table row, procedure and trigger, in the order tallied.
pub fn coverage_labels(rs: &Ruleset) -> Vec<String> {
    let mut out = Vec::new();
    for t in &rs.tables {
        for r in &t.rows {
            out.push(format!("tables.{}[{}]", t.name, r.key));
        }
    }
    for p in &rs.procs {
        out.push(format!("procedures.{}", p.name));
    }
    for t in &rs.triggers {
        out.push(format!("triggers.{}", t.name));
    }
    out
}

/// The rulebook's words of each table row that has them, by its coverage label.
pub fn row_labels(rs: &Ruleset) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for t in &rs.tables {
        for r in t.rows.iter().filter(|r| !r.label.is_empty()) {
            out.insert(format!("tables.{}[{}]", t.name, r.key), r.label.clone());
        }
    }
    out
}

impl Tally {
    /// An empty tally of a batch.
    pub fn new(rs: &Ruleset, batch: Batch) -> Self {
        let mut engine = IndexMap::new();
        for k in ["goals", "home_goals", "away_goals", "possession_changes"] {
            engine.insert(k.to_string(), Moments::default());
        }
        for h in 1..=rs.halves {
            for k in ["turns", "minutes", "stoppage"] {
                engine.insert(format!("{k}_half_{h}"), Moments::default());
            }
        }
        for k in [
            "choices",
            "dice",
            "home_advantage",
            "kickoff_advantage",
            "turns",
        ] {
            engine.insert(k.to_string(), Moments::default());
        }
        Tally {
            batch,
            games: 0,
            results: [0; 3],
            kickoff_results: [0; 3],
            goals_hist: vec![0; GOAL_BUCKETS],
            turns_hist: BTreeMap::new(),
            engine,
            figures: rs
                .figures
                .iter()
                .map(|f| (f.name.clone(), Moments::default()))
                .collect(),
            goals_x_shots: 0,
            runaways: 0,
            coverage: coverage_labels(rs).into_iter().map(|l| (l, 0)).collect(),
            row_labels: row_labels(rs),
            choices: BTreeMap::new(),
            counted_by: rs
                .breakdowns
                .iter()
                .map(|b| (b.name.clone(), BTreeMap::new()))
                .collect(),
            failures: Vec::new(),
            per_match: None,
            arm_syms: HashMap::new(),
        }
    }

    /// Keeps every match's values by match index from now on, so that the matches of two
    /// batches played with the same seeds and players can be compared pair by pair.
    pub fn keep_per_match(mut self) -> Self {
        self.per_match = Some(PerMatch::default());
        self
    }

    /// Adds match `index` of the batch, played to the end.
    pub fn add_match(&mut self, rs: &Ruleset, index: u64, o: &Outcome, c: &Counters) {
        self.games += 1;
        let [h, a] = o.score;
        let goals = h + a;
        self.results[result_slot(h - a)] += 1;
        self.goals_hist[(goals.max(0) as usize).min(GOAL_BUCKETS - 1)] += 1;
        // The kick-off team's goals minus the other team's (home's when no turn began).
        let kickoff = if o.first_owner == Some(1) {
            a - h
        } else {
            h - a
        };
        self.kickoff_results[result_slot(kickoff)] += 1;
        let turns: u32 = o.turns.iter().sum();
        *self.turns_hist.entry(turns).or_insert(0) += 1;
        // The match's values, in the order of `engine` then `figures`.
        let mut row = Vec::with_capacity(self.engine.len() + self.figures.len());
        row.extend([goals, h, a, i64::from(c.control_changes)]);
        for half in 0..rs.halves as usize {
            row.push(o.turns.get(half).map_or(0, |t| i64::from(*t)));
            let [start, end] = o.clocks.get(half).copied().unwrap_or_default();
            row.push(end.minute - start.minute + 1 + end.added);
            row.push(end.added);
        }
        row.extend([
            i64::from(c.choices),
            i64::from(c.dice),
            h - a,
            kickoff,
            i64::from(turns),
        ]);
        for ((_, m), x) in self.engine.iter_mut().zip(&row) {
            m.add(*x);
        }
        let mut shots = None;
        let figures = self.figures.iter_mut().zip(&rs.figures).enumerate();
        for (i, ((name, m), f)) in figures {
            let n = i64::from(f.count(i, c));
            m.add(n);
            row.push(n);
            if name == "shots" {
                shots = Some(n);
            }
        }
        if let Some(pm) = &mut self.per_match {
            pm.push(index, row);
        }
        self.goals_x_shots += goals * shots.unwrap_or(0);
        if o.ending == Ending::Runaway {
            self.runaways += 1;
        }
        let counts = c.rows.iter().flatten().chain(&c.procs).chain(&c.triggers);
        for ((_, total), n) in self.coverage.iter_mut().zip(counts) {
            *total += u64::from(*n);
        }
        for (k, n) in &c.arms {
            *self.arm_syms.entry(*k).or_insert(0) += u64::from(*n);
        }
        for (b, seen) in rs.breakdowns.iter().zip(&c.by_field) {
            let counts = self.counted_by.entry(b.name.clone()).or_default();
            for (v, n) in seen {
                let label = match value_json(rs, v) {
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                };
                *counts.entry(label).or_insert(0) += u64::from(*n);
            }
        }
    }

    /// Records a failed match.
    pub fn add_failure(&mut self, index: u64, seed: u64, error: String) {
        self.failures.push(Failure { index, seed, error });
    }

    /// Turns the picked options' symbols into labels; call once all matches are in.
    pub fn finish(&mut self, rs: &Ruleset) {
        for ((kind, label), n) in self.arm_syms.drain() {
            *self
                .choices
                .entry(format!("{}: {}", rs.symbol(kind), rs.symbol(label)))
                .or_insert(0) += n;
        }
        self.failures.sort_by_key(|f| f.index);
        if let Some(pm) = &mut self.per_match {
            pm.sort();
        }
    }

    /// Adds the tally of other matches of the same batch (another worker's share, or
    /// another shard). `shards` are joined when merging shards.
    pub fn absorb(&mut self, o: Tally) {
        self.games += o.games;
        for (a, b) in self.results.iter_mut().zip(o.results) {
            *a += b;
        }
        for (a, b) in self.kickoff_results.iter_mut().zip(o.kickoff_results) {
            *a += b;
        }
        for (a, b) in self.goals_hist.iter_mut().zip(&o.goals_hist) {
            *a += b;
        }
        for (k, n) in o.turns_hist {
            *self.turns_hist.entry(k).or_insert(0) += n;
        }
        // Per-match values stay only when both sides kept them.
        self.per_match = match (self.per_match.take(), o.per_match) {
            (Some(mut a), Some(b)) => {
                a.absorb(b);
                Some(a)
            }
            _ => None,
        };
        for ((_, a), (_, b)) in self.engine.iter_mut().zip(&o.engine) {
            a.merge(b);
        }
        for ((_, a), (_, b)) in self.figures.iter_mut().zip(&o.figures) {
            a.merge(b);
        }
        self.goals_x_shots += o.goals_x_shots;
        self.runaways += o.runaways;
        for ((_, a), (_, b)) in self.coverage.iter_mut().zip(&o.coverage) {
            *a += b;
        }
        for (k, label) in o.row_labels {
            self.row_labels.entry(k).or_insert(label);
        }
        for (k, n) in o.choices {
            *self.choices.entry(k).or_insert(0) += n;
        }
        for (name, counts) in o.counted_by {
            let mine = self.counted_by.entry(name).or_default();
            for (k, n) in counts {
                *mine.entry(k).or_insert(0) += n;
            }
        }
        for (k, n) in o.arm_syms {
            *self.arm_syms.entry(k).or_insert(0) += n;
        }
        self.failures.extend(o.failures);
        self.failures.sort_by_key(|f| f.index);
    }

    /// Merges the tally of another shard of the same batch, checking that it is one.
    pub fn merge_shard(&mut self, o: Tally) -> Result<(), String> {
        let (a, b) = (&self.batch, &o.batch);
        let same = |what: &str, x: &dyn std::fmt::Display, y: &dyn std::fmt::Display| {
            if x.to_string() == y.to_string() {
                Ok(())
            } else {
                Err(format!(
                    "the results are of different batches: {what} {x} and {y}"
                ))
            }
        };
        same("ruleset fingerprint", &a.fingerprint, &b.fingerprint)?;
        same("seed", &a.seed, &b.seed)?;
        same("home player", &a.home, &b.home)?;
        same("away player", &a.away, &b.away)?;
        same("batch size", &a.games, &b.games)?;
        same("shard count", &a.shard_count, &b.shard_count)?;
        if let Some(k) = b.shards.iter().find(|k| a.shards.contains(k)) {
            return Err(format!(
                "shard {k}/{} is in the results twice",
                a.shard_count
            ));
        }
        let keys = |t: &Tally| {
            (
                t.engine.keys().cloned().collect::<Vec<_>>(),
                t.figures.keys().cloned().collect::<Vec<_>>(),
                t.coverage.keys().cloned().collect::<Vec<_>>(),
                t.goals_hist.len(),
            )
        };
        if keys(self) != keys(&o) {
            return Err("the results count different figures (another version of fuba?)".into());
        }
        let mut shards = o.batch.shards.clone();
        self.batch.shards.append(&mut shards);
        self.batch.shards.sort_unstable();
        self.absorb(o);
        Ok(())
    }

    /// The entries of the coverage that never ran.
    pub fn never_fired(&self) -> Vec<&str> {
        self.coverage
            .iter()
            .filter(|(_, n)| **n == 0)
            .map(|(k, _)| k.as_str())
            .collect()
    }
}

// ------------------------------------------------------------------------- figures

/// What kind of figure, and so which interval and test it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A mean per match: t interval, Welch's t test (paired: paired t test).
    Mean,
    /// A share of matches: Wilson interval, two-proportion z test (paired: McNemar's).
    Share,
    /// A ratio of two per-match sums: delta-method interval, z test (paired: z on the
    /// per-match differences of the delta-method terms).
    Ratio,
}

/// One figure with its uncertainty.
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// A stable identifier (`goals`, `home_win`, `turns_half_1`, `figures.shots`).
    pub id: String,
    /// What it is, for people.
    pub label: String,
    /// Mean, share or ratio.
    pub kind: Kind,
    /// Matches it is taken over.
    pub n: u64,
    /// Its value.
    pub value: Option<f64>,
    /// Standard deviation per match (means), or of the indicator (shares).
    pub sd: Option<f64>,
    /// Standard error of the value.
    pub se: Option<f64>,
    /// 95% confidence interval.
    pub ci95: [Option<f64>; 2],
    /// For shares: the count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
}

/// Rounded to 6 decimals, so the text carries no float noise; NaN becomes null.
pub fn num(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 1e6).round() / 1e6)
}

fn mean_figure(id: String, label: String, m: &Moments) -> Figure {
    let (mean, sd) = (m.mean(), m.sd());
    let se = sd / (m.n as f64).sqrt();
    // Student's t for small batches, the normal quantile beyond.
    let q = if m.n >= 2 {
        t_quantile_975((m.n - 1) as f64)
    } else {
        f64::NAN
    };
    Figure {
        id,
        label,
        kind: Kind::Mean,
        n: m.n,
        value: num(mean),
        sd: num(sd),
        se: num(se),
        ci95: [num(mean - q * se), num(mean + q * se)],
        count: None,
    }
}

/// A share `k` of `n` with its Wilson score interval.
pub fn share_figure(id: String, label: String, k: u64, n: u64) -> Figure {
    let p = if n == 0 {
        f64::NAN
    } else {
        k as f64 / n as f64
    };
    let (lo, hi) = wilson(k, n, Z95);
    Figure {
        id,
        label,
        kind: Kind::Share,
        n,
        value: num(p),
        sd: num((p * (1.0 - p)).sqrt()),
        se: num((p * (1.0 - p) / n as f64).sqrt()),
        ci95: [num(lo), num(hi)],
        count: Some(k),
    }
}

/// The Wilson score interval of a share `k` of `n` at quantile `z`.
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (f64::NAN, f64::NAN);
    }
    let (nf, p) = (n as f64, k as f64 / n as f64);
    let z2 = z * z;
    let d = 1.0 + z2 / nf;
    let c = (p + z2 / (2.0 * nf)) / d;
    let h = z / d * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    ((c - h).max(0.0), (c + h).min(1.0))
}

/// A human label for an engine figure id.
fn engine_label(id: &str) -> String {
    if let Some((what, half)) = id.split_once("_half_") {
        let what = match what {
            "turns" => "turns per half",
            "minutes" => "minutes played (stoppage incl.)",
            "stoppage" => "stoppage minutes",
            w => w,
        };
        return format!("{what}, half {half}");
    }
    match id {
        "goals" => "goals per match",
        "home_goals" => "home goals per match",
        "away_goals" => "away goals per match",
        "possession_changes" => "possession changes",
        "choices" => "choices made",
        "dice" => "dice rolled",
        "home_advantage" => "home advantage (goal difference)",
        "kickoff_advantage" => "kick-off advantage (goal difference)",
        "turns" => "match length (turns)",
        other => other,
    }
    .to_string()
}

/// The figures of a tally, in a fixed order: goals, results, the balance figures (home
/// and kick-off advantage, match length), shots and conversion, possession, the
/// ruleset's figures, turns and minutes per half, choices and dice.
pub fn figures(t: &Tally) -> Vec<Figure> {
    let mut out = Vec::new();
    let n = t.games;
    let eng = |k: &str| t.engine.get(k).copied().unwrap_or_default();
    for k in ["goals", "home_goals", "away_goals"] {
        out.push(mean_figure(k.into(), engine_label(k), &eng(k)));
    }
    for (i, (id, label)) in [
        ("home_win", "home wins"),
        ("away_win", "away wins"),
        ("draw", "draws"),
    ]
    .into_iter()
    .enumerate()
    {
        out.push(share_figure(id.into(), label.into(), t.results[i], n));
    }
    out.extend(balance::figures(t));
    if let Some(s) = t.figures.get("shots") {
        out.push(mean_figure(
            "figures.shots".into(),
            "shots per match".into(),
            s,
        ));
        out.push(conversion(t, &eng("goals"), s));
    }
    out.push(mean_figure(
        "possession_changes".into(),
        engine_label("possession_changes"),
        &eng("possession_changes"),
    ));
    for (name, m) in &t.figures {
        if name != "shots" {
            out.push(mean_figure(
                format!("figures.{name}"),
                format!("{} per match", name.replace('_', " ")),
                m,
            ));
        }
    }
    for (k, m) in &t.engine {
        if k.contains("_half_") || k == "choices" || k == "dice" {
            out.push(mean_figure(k.clone(), engine_label(k), m));
        }
    }
    out
}

/// Goals per shot: the ratio of the sums, with a delta-method interval.
fn conversion(t: &Tally, g: &Moments, s: &Moments) -> Figure {
    let n = g.n as f64;
    let r = if s.sum > 0 {
        g.sum as f64 / s.sum as f64
    } else {
        f64::NAN
    };
    // Var(g - r s) per match; its mean is 0 by construction of r.
    let ss = g.sumsq as f64 - 2.0 * r * t.goals_x_shots as f64 + r * r * s.sumsq as f64;
    let var = ss / (n - 1.0);
    let sbar = s.sum as f64 / n;
    let se = (var.max(0.0) / n).sqrt() / sbar;
    Figure {
        id: "conversion".into(),
        label: "conversion (goals per shot)".into(),
        kind: Kind::Ratio,
        n: g.n,
        value: num(r),
        sd: None,
        se: num(se),
        ci95: [num(r - Z95 * se), num(r + Z95 * se)],
        count: None,
    }
}

/// The goals distribution: a share per bucket (the last is "10+").
pub fn goals_distribution(t: &Tally) -> Vec<Figure> {
    t.goals_hist
        .iter()
        .enumerate()
        .map(|(g, k)| {
            let label = if g + 1 == t.goals_hist.len() {
                format!("{g}+")
            } else {
                g.to_string()
            };
            share_figure(
                format!("goals_{label}"),
                format!("{label} goals"),
                *k,
                t.games,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_worked_example() {
        // 81 of 263: 0.2553 to 0.3662 (Wilson 1927, as quoted by Newcombe 1998).
        let (lo, hi) = wilson(81, 263, Z95);
        assert!(
            (lo - 0.2553).abs() < 1e-3 && (hi - 0.3662).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 10, Z95).0, 0.0);
    }

    #[test]
    fn shards_cover_the_batch_once() {
        let mut all: Vec<u64> = (1..=3).flat_map(|k| Batch::indices(10, k, 3)).collect();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
    }
}
