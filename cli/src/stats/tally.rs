//! What a batch counts: every match's results, engine figures, the ruleset's figures,
//! coverage and choices, as integers that add up exactly in any order.

use std::collections::{BTreeMap, HashMap};

use fuba_engine::game::{Ending, Outcome};
use fuba_engine::log::value_json;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::vm::Counters;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::GOAL_BUCKETS;
use super::batch::Batch;
use super::conversion::Conversion;
use super::paired::PerMatch;

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
    /// Sum over matches of goals × the converted figure (for the conversion's interval,
    /// [`super::conversion`]); 0 when no figure converts. The key is the one results have
    /// always been written with.
    #[serde(rename = "goals_x_shots")]
    pub goals_x_converted: i64,
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
    /// Which figure converts into goals, if one does: the ruleset's declaration, or what
    /// a result read back lists ([`Conversion::from_listed`]). Not written in the tallies.
    #[serde(skip)]
    pub conversion: Option<Conversion>,
    /// Every match's values by match index, when kept ([`Tally::keep_per_match`]): at
    /// most one row per match of the batch. Kept in memory only, never written.
    #[serde(skip)]
    pub per_match: Option<PerMatch>,
    /// Options picked, by decision and label symbol, until [`Tally::finish`].
    #[serde(skip)]
    arm_syms: HashMap<(u32, u32), u64>,
    /// The place, among the counters tallied, of the procedure a scenario's runner calls
    /// to derive a position (`[scenario] derive`): never part of a match, so left out of
    /// the coverage.
    #[serde(skip)]
    outside_match: Option<usize>,
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
        let rows: usize = rs.tables.iter().map(|t| t.rows.len()).sum();
        let outside_match = rs.scenario_derive.map(|p| rows + usize::from(p));
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
            goals_x_converted: 0,
            runaways: 0,
            coverage: coverage_labels(rs)
                .into_iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != outside_match)
                .map(|(_, l)| (l, 0))
                .collect(),
            row_labels: row_labels(rs),
            choices: BTreeMap::new(),
            counted_by: rs
                .breakdowns
                .iter()
                .map(|b| (b.name.clone(), BTreeMap::new()))
                .collect(),
            failures: Vec::new(),
            conversion: Conversion::of(rs),
            per_match: None,
            arm_syms: HashMap::new(),
            outside_match,
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
        let mut converted = None;
        let figures = self.figures.iter_mut().zip(&rs.figures).enumerate();
        for (i, ((_, m), f)) in figures {
            let n = i64::from(f.count(i, c));
            m.add(n);
            row.push(n);
            if f.conversion.is_some() {
                converted = Some(n);
            }
        }
        if let Some(pm) = &mut self.per_match {
            pm.push(index, row);
        }
        self.goals_x_converted += goals * converted.unwrap_or(0);
        if o.ending == Ending::Runaway {
            self.runaways += 1;
        }
        let outside = self.outside_match;
        let counts = (c.rows.iter().flatten().chain(&c.procs).chain(&c.triggers))
            .enumerate()
            .filter(|(i, _)| Some(*i) != outside)
            .map(|(_, n)| n);
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
        self.goals_x_converted += o.goals_x_converted;
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
        if self.conversion.is_none() {
            self.conversion.clone_from(&o.conversion);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_batch_once() {
        let mut all: Vec<u64> = (1..=3).flat_map(|k| Batch::indices(10, k, 3)).collect();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
    }
}
