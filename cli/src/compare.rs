//! `fuba compare A B [C...]`: the same seeds under each ruleset, the figures side by side.
//!
//! Each ruleset plays the batch with the same match seeds and the same players. Every
//! figure of the first ruleset is set against the same figure of each other one: the
//! difference, its 95% interval and a two-sided test.
//!
//! **Paired** (what `fuba compare` reports): match `i` is played with the same seed and
//! players under each ruleset, so each match has a twin under the other ruleset and the
//! difference is taken twin by twin ([`crate::stats::paired`]): the paired t test for
//! means, McNemar's test for shares, a z test on the paired delta-method terms for the
//! conversion. Where the rulesets agree the twins play alike, so these are far tighter
//! than tests treating the batches as independent.
//!
//! **Unpaired**, always computed too (and the only ones for batches that do not pair:
//! other seeds or players, or tallies without per-match values). Means: Welch's t test
//! (unequal variances, Welch–Satterthwaite degrees of freedom). Shares: the
//! two-proportion z test (pooled standard error for the test, unpooled for the interval).
//! Ratios (conversion): a z test on the delta-method standard errors.
//!
//! The p-values of all figures (and all pairs) are adjusted together with Holm's
//! step-down method, the paired and the unpaired tests each on their own; `*` marks an
//! adjusted p-value below 0.05.

use clap::Args;
use fuba_engine::ruleset::Ruleset;
use serde::Serialize;

use crate::args::{BatchArgs, FiguresOutArgs, JobsArgs, PlayersArgs};
use crate::batch::{self, Plan};
use crate::render::{self, StatsFormat};
use crate::stats::paired::{Paired, Twins};
use crate::stats::{self, Batch, Figure, Kind, Tally};
use crate::{CliError, CliResult, seed_or_clock};

mod csv;
mod json;
mod table;

use table::{short_name, table};

/// Options of `fuba compare`.
#[derive(Args, Debug)]
#[command(mut_arg("games", |a| a.help("Matches per ruleset").default_value("2000")))]
#[command(mut_arg("seed", |a| a.help("The batch seed (the same for every ruleset). Default: from the clock")))]
#[command(mut_arg("format", |a| a.help("How to print the comparison (csv: one line per figure and ruleset pair)")))]
#[command(mut_arg("out", |a| a.help("Write the comparison to FILE instead of stdout")))]
#[command(mut_arg("report", |a| a.help("Also write a self-contained HTML page with charts")))]
#[command(mut_arg("jobs", |a| a.help("Threads to play on. Default: one per CPU")))]
pub struct CompareArgs {
    /// Two or more rulesets: built-in edition names or ruleset files. The first is the
    /// baseline the others are compared with.
    #[arg(required = true, num_args = 2.., value_name = "EDITION|PATH")]
    pub rules: Vec<String>,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// Set a match option for every ruleset compared (each must have it); repeatable:
    /// `--option skills=4 --option condition=on`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    #[command(flatten)]
    pub players: PlayersArgs,
    #[command(flatten)]
    pub output: FiguresOutArgs,
    #[command(flatten)]
    pub jobs: JobsArgs,
}

/// A figure of one ruleset against the baseline. The fields are the unpaired test's;
/// `paired` holds the paired one when the batches pair up.
#[derive(Serialize, Debug, Clone)]
pub struct Difference {
    /// The ruleset compared with the baseline.
    pub ruleset: String,
    /// Its value minus the baseline's.
    pub difference: Option<f64>,
    /// 95% interval of the difference (unpaired).
    pub ci95: [Option<f64>; 2],
    /// The unpaired test used.
    pub test: &'static str,
    /// The test statistic.
    pub statistic: Option<f64>,
    /// Two-sided p-value.
    pub p: Option<f64>,
    /// Holm-adjusted over every figure and pair.
    pub p_holm: Option<f64>,
    /// Adjusted p below 0.05.
    pub significant: bool,
    /// The difference taken twin by twin, when the batches pair up (same seeds and
    /// players) and the figure has per-match values.
    pub paired: Option<Paired>,
}

impl Difference {
    /// The reported test's adjusted p-value and significance: the paired test's when
    /// there is one.
    pub fn reported(&self) -> (Option<f64>, bool) {
        match &self.paired {
            Some(p) => (p.p_holm, p.significant),
            None => (self.p_holm, self.significant),
        }
    }
}

/// One figure compared across the rulesets.
#[derive(Serialize, Debug)]
pub struct Row {
    /// The figure's id.
    pub id: String,
    /// Its label.
    pub label: String,
    /// Mean, share or ratio.
    pub kind: Kind,
    /// The figure under each ruleset.
    pub values: Vec<Figure>,
    /// Each other ruleset against the first.
    pub differences: Vec<Difference>,
    /// Whether its differences are tested (and counted in Holm's correction): not for
    /// the engine's own counters ([`ENGINE_COUNTERS`]), which any change of play moves.
    pub tested: bool,
}

/// Figures that count the engine's work (choices asked, dice rolled), not an outcome of
/// the game: shown side by side, never tested nor marked as an effect of a rule.
pub const ENGINE_COUNTERS: [&str; 2] = ["choices", "dice"];

/// The test of figure `b` against `a`: difference, interval, statistic, p.
pub fn test(a: &Figure, b: &Figure) -> (&'static str, f64, [f64; 2], f64, f64) {
    let (va, vb) = (a.value.unwrap_or(f64::NAN), b.value.unwrap_or(f64::NAN));
    let d = vb - va;
    let (na, nb) = (a.n as f64, b.n as f64);
    match a.kind {
        Kind::Mean => {
            let (sa, sb) = (a.sd.unwrap_or(0.0), b.sd.unwrap_or(0.0));
            let (ea, eb) = (sa * sa / na, sb * sb / nb);
            let se = (ea + eb).sqrt();
            if se == 0.0 {
                let p = if d == 0.0 { 1.0 } else { 0.0 };
                return ("welch t", d, [d, d], 0.0, p);
            }
            let df = (ea + eb).powi(2) / (ea * ea / (na - 1.0) + eb * eb / (nb - 1.0));
            let t = d / se;
            let q = stats::t_quantile_975(df);
            (
                "welch t",
                d,
                [d - q * se, d + q * se],
                t,
                stats::t_two_sided(t, df),
            )
        }
        Kind::Share => {
            let (ka, kb) = (a.count.unwrap_or(0) as f64, b.count.unwrap_or(0) as f64);
            let pooled = (ka + kb) / (na + nb);
            let se0 = (pooled * (1.0 - pooled) * (1.0 / na + 1.0 / nb)).sqrt();
            let se = (va * (1.0 - va) / na + vb * (1.0 - vb) / nb).sqrt();
            let ci = [d - stats::Z95 * se, d + stats::Z95 * se];
            if se0 == 0.0 {
                return ("two-proportion z", d, ci, 0.0, 1.0);
            }
            let z = d / se0;
            ("two-proportion z", d, ci, z, stats::z_two_sided(z))
        }
        Kind::Ratio => {
            let se = (a.se.unwrap_or(0.0).powi(2) + b.se.unwrap_or(0.0).powi(2)).sqrt();
            let ci = [d - stats::Z95 * se, d + stats::Z95 * se];
            if se == 0.0 {
                return (
                    "z (delta method)",
                    d,
                    ci,
                    0.0,
                    if d == 0.0 { 1.0 } else { 0.0 },
                );
            }
            let z = d / se;
            ("z (delta method)", d, ci, z, stats::z_two_sided(z))
        }
    }
}

/// How the batches pair with the first: for each other batch, its twins' count, or why
/// it does not pair.
pub fn pairing(tallies: &[Tally]) -> Vec<Result<u64, String>> {
    tallies
        .iter()
        .skip(1)
        .map(|b| Twins::new(&tallies[0], b).map(|t| t.pairs()))
        .collect()
}

/// Compares tallies: every figure of the first against the same figure of each other,
/// unpaired, and paired when the batches pair up.
pub fn compare(names: &[String], tallies: &[Tally]) -> Vec<Row> {
    let figs: Vec<Vec<Figure>> = tallies.iter().map(stats::figures).collect();
    let twins: Vec<Option<Twins<'_>>> = tallies
        .iter()
        .skip(1)
        .map(|b| Twins::new(&tallies[0], b).ok())
        .collect();
    let mut rows = Vec::new();
    for base in &figs[0] {
        let values: Vec<Figure> = figs
            .iter()
            .filter_map(|fs| fs.iter().find(|f| f.id == base.id).cloned())
            .collect();
        if values.len() != figs.len() {
            continue; // a figure only some rulesets have
        }
        if values.iter().all(|v| v.value.is_none_or(|x| x == 0.0)) {
            continue; // zero everywhere: nothing to compare, and no test to correct for
        }
        let tested = !ENGINE_COUNTERS.contains(&base.id.as_str());
        let differences = values[1..]
            .iter()
            .zip(&names[1..])
            .zip(&twins)
            .map(|((b, name), twins)| {
                let (test, d, ci, stat, p) = test(base, b);
                Difference {
                    ruleset: name.clone(),
                    difference: stats::num(d),
                    ci95: [stats::num(ci[0]), stats::num(ci[1])],
                    test,
                    statistic: stats::num(stat),
                    p: stats::num(p),
                    p_holm: None,
                    significant: false,
                    paired: twins.as_ref().and_then(|t| t.test(&base.id, base.kind)),
                }
            })
            .collect();
        rows.push(Row {
            id: base.id.clone(),
            label: base.label.clone(),
            kind: base.kind,
            values,
            differences,
            tested,
        });
    }
    let ps: Vec<f64> = rows
        .iter()
        .filter(|r| r.tested)
        .flat_map(|r| r.differences.iter().map(|d| d.p.unwrap_or(f64::NAN)))
        .collect();
    let adjusted = stats::holm(&ps);
    let mut it = adjusted.into_iter();
    for r in rows.iter_mut().filter(|r| r.tested) {
        for d in &mut r.differences {
            let p = it.next().unwrap_or(f64::NAN);
            d.p_holm = stats::num(p);
            d.significant = p < 0.05;
        }
    }
    // The paired tests, adjusted together on their own.
    let ps: Vec<f64> = rows
        .iter()
        .filter(|r| r.tested)
        .flat_map(|r| &r.differences)
        .filter_map(|d| d.paired.as_ref())
        .map(|p| p.p.unwrap_or(f64::NAN))
        .collect();
    let mut it = stats::holm(&ps).into_iter();
    for p in rows
        .iter_mut()
        .filter(|r| r.tested)
        .flat_map(|r| &mut r.differences)
        .filter_map(|d| d.paired.as_mut())
    {
        let adjusted = it.next().unwrap_or(f64::NAN);
        p.p_holm = stats::num(adjusted);
        p.significant = adjusted < 0.05;
    }
    rows
}

/// Counts every figure any of the rulesets declares under each of them: a figure a house
/// rule adds to see what it changes (`long_passes = { event = "pass", where = ... }`) is
/// then counted under the ruleset it is compared with too.
fn share_figures(rulesets: &mut [Ruleset]) -> CliResult {
    for i in 0..rulesets.len() {
        for j in 0..rulesets.len() {
            if i == j {
                continue;
            }
            let (to, from) = if i < j {
                let (a, b) = rulesets.split_at_mut(j);
                (&mut a[i], &b[0])
            } else {
                let (a, b) = rulesets.split_at_mut(i);
                (&mut b[0], &a[j])
            };
            to.adopt_figures(from).map_err(|d| {
                let hint = d.hint.map(|h| format!(" ({h})")).unwrap_or_default();
                CliError::Failure(format!("{}{hint}", d.message))
            })?;
        }
    }
    Ok(())
}

/// Runs `fuba compare`.
pub fn run(a: CompareArgs) -> CliResult {
    batch::machine_players(a.players.home, a.players.away)?;
    a.output.check()?;
    let mut rulesets = a
        .rules
        .iter()
        .map(|r| crate::editions::load_rules_with(r, &a.options))
        .collect::<Result<Vec<_>, _>>()?;
    share_figures(&mut rulesets)?;
    let seed = seed_or_clock(a.batch.seed);
    let mut names: Vec<String> = a.rules.iter().map(|r| short_name(r)).collect();
    // Two files with the same stem: fall back to the arguments as given.
    if (1..names.len()).any(|i| names[..i].contains(&names[i])) {
        names = a.rules.clone();
    }
    let plan = Plan {
        home: a.players.home,
        away: a.players.away,
        jobs: a.jobs.jobs,
        progress: true,
        per_match: true,
    };
    let mut tallies = Vec::new();
    for ((rs, name), rules) in rulesets.iter().zip(&names).zip(&a.rules) {
        let batch = Batch {
            ruleset: rs.name.clone(),
            title: rs.title.clone(),
            fingerprint: rs.fingerprint.clone(),
            seed,
            home: a.players.home.label(),
            away: a.players.away.label(),
            games: a.batch.games,
            shard_count: 1,
            shards: vec![1],
            options: crate::stats::options_set(rs),
        };
        let played = batch::play_batch(rs, batch, &plan)?;
        if played.stopped {
            return Err(batch::stop::every_match_failed(&played.tally, rules));
        }
        batch::failures(&played.tally, name).or_else(|e| match e {
            // Failed matches are reported; the comparison of the others still prints.
            CliError::Failure(m) => {
                note!("warning: {name}: {m}");
                Ok(())
            }
            other => Err(other),
        })?;
        tallies.push(played.tally);
    }
    let rows = compare(&names, &tallies);
    let text = table(&names, &tallies, &rows);
    let mut w = render::output(a.output.out.as_ref())?;
    match a.output.format {
        StatsFormat::Table => write!(w, "{text}")?,
        StatsFormat::Json => {
            let text = json::to_json(&names, &tallies, &rows, a.batch.games, seed)?;
            writeln!(w, "{text}")?;
        }
        StatsFormat::Csv => csv::write_csv(&mut w, &names, &tallies, &rows)?,
    }
    w.flush()?;
    if let Some(path) = &a.output.report {
        let rrows: Vec<render::html::CompareRow<'_>> = rows
            .iter()
            .map(|r| render::html::CompareRow {
                figures: r.values.iter().collect(),
                adjusted: std::iter::once(None)
                    .chain(r.differences.iter().map(|d| d.reported().0))
                    .collect(),
            })
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        render::html::write_comparison(path, &refs, &tallies, &rrows, &text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AgentKind;

    fn batch(rs: &fuba_engine::ruleset::Ruleset, seed: u64, per_match: bool) -> Tally {
        let b = Batch {
            ruleset: rs.name.clone(),
            title: rs.title.clone(),
            fingerprint: rs.fingerprint.clone(),
            seed,
            home: "random".into(),
            away: "random".into(),
            games: 12,
            shard_count: 1,
            shards: vec![1],
            options: Vec::new(),
        };
        let plan = Plan {
            home: AgentKind::Random,
            away: AgentKind::Random,
            jobs: Some(1),
            progress: false,
            per_match,
        };
        batch::play_batch(rs, b, &plan).expect("played").tally
    }

    /// Batches that do not pair (per-match values not kept, other seeds) are compared as
    /// independent samples only; twins are compared match by match.
    #[test]
    fn unpaired_batches_fall_back_to_the_unpaired_tests() {
        let rs = crate::editions::load_rules_with("original", &[]).expect("original");
        let names = vec!["a".to_string(), "b".to_string()];
        let twins = [batch(&rs, 1, true), batch(&rs, 1, true)];
        let rows = compare(&names, &twins);
        assert!(rows.iter().all(|r| r.differences[0].paired.is_some()));
        assert!(table(&names, &twins, &rows).contains("\npaired: "));

        for (other, why) in [
            (batch(&rs, 1, false), "the per-match values were not kept"),
            (batch(&rs, 2, true), "different seeds: 1 and 2"),
        ] {
            let pair = [twins[0].clone(), other];
            let rows = compare(&names, &pair);
            assert!(rows.iter().all(|r| r.differences[0].paired.is_none()));
            let goals = &rows[0].differences[0];
            assert_eq!((goals.test, goals.reported().0), ("welch t", goals.p_holm));
            let text = table(&names, &pair, &rows);
            assert!(text.contains(&format!("not paired: {why}")), "{text}");
            assert!(text.contains("tests: Welch's t"), "{text}");
        }
    }
}
