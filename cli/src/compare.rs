//! `fuba compare A B [C...]`: the same seeds under each ruleset, the figures side by side.
//!
//! Each ruleset plays the batch with the same match seeds and the same players. Every
//! figure of the first ruleset is set against the same figure of each other one: the
//! difference, its 95% interval and a two-sided test. Means: Welch's t test (unequal
//! variances, Welch–Satterthwaite degrees of freedom). Shares: the two-proportion z test
//! (pooled standard error for the test, unpooled for the interval). Ratios (conversion):
//! a z test on the delta-method standard errors. The p-values of all figures (and all
//! pairs) are adjusted together with Holm's step-down method; `*` marks an adjusted
//! p-value below 0.05. The batches are treated as independent samples: that is
//! conservative, since the shared seeds make the rulesets' results positively correlated.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use crate::simulate::{self, Plan, StatsFormat};
use crate::stats::{self, Batch, Figure, Kind, Tally};
use crate::{AgentKind, CliError, CliResult, seed_or_clock};

/// Options of `fuba compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Two or more rulesets: built-in edition names or ruleset files. The first is the
    /// baseline the others are compared with.
    #[arg(required = true, num_args = 2.., value_name = "EDITION|PATH")]
    pub rules: Vec<String>,
    /// Matches per ruleset.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 2000)]
    pub games: u64,
    /// Set a match option for every ruleset compared (each must have it); repeatable:
    /// `--option skills=4 --option condition=on`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The batch seed (the same for every ruleset). Default: from the clock.
    #[arg(long, short, value_name = "S")]
    pub seed: Option<u64>,
    /// Who plays the home team: random, heuristic, human (play only), or
    /// mcts[:PASSES | :MSms] (search; docs/agents.md).
    #[arg(long, value_name = "AGENT", default_value = "random")]
    pub home: AgentKind,
    /// Who plays the away team: random, heuristic, human (play only), or
    /// mcts[:PASSES | :MSms] (search; docs/agents.md).
    #[arg(long, value_name = "AGENT", default_value = "random")]
    pub away: AgentKind,
    /// How to print the comparison (csv: one line per figure and ruleset pair).
    #[arg(long, short, value_enum, default_value_t = StatsFormat::Table)]
    pub format: StatsFormat,
    /// Write the comparison to FILE instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write a self-contained HTML page with charts.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Threads to play on. Default: one per CPU.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

/// A figure of one ruleset against the baseline.
#[derive(Serialize, Debug, Clone)]
pub struct Difference {
    /// The ruleset compared with the baseline.
    pub ruleset: String,
    /// Its value minus the baseline's.
    pub difference: Option<f64>,
    /// 95% interval of the difference.
    pub ci95: [Option<f64>; 2],
    /// The test used.
    pub test: &'static str,
    /// The test statistic.
    pub statistic: Option<f64>,
    /// Two-sided p-value.
    pub p: Option<f64>,
    /// Holm-adjusted over every figure and pair.
    pub p_holm: Option<f64>,
    /// Adjusted p below 0.05.
    pub significant: bool,
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
}

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

/// Compares tallies: every figure of the first against the same figure of each other.
pub fn compare(names: &[String], tallies: &[Tally]) -> Vec<Row> {
    let figs: Vec<Vec<Figure>> = tallies.iter().map(stats::figures).collect();
    let mut rows = Vec::new();
    for base in &figs[0] {
        let values: Vec<Figure> = figs
            .iter()
            .filter_map(|fs| fs.iter().find(|f| f.id == base.id).cloned())
            .collect();
        if values.len() != figs.len() {
            continue; // a figure only some rulesets have
        }
        let differences = values[1..]
            .iter()
            .zip(&names[1..])
            .map(|(b, name)| {
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
                }
            })
            .collect();
        rows.push(Row {
            id: base.id.clone(),
            label: base.label.clone(),
            kind: base.kind,
            values,
            differences,
        });
    }
    let ps: Vec<f64> = rows
        .iter()
        .flat_map(|r| r.differences.iter().map(|d| d.p.unwrap_or(f64::NAN)))
        .collect();
    let adjusted = stats::holm(&ps);
    let mut it = adjusted.into_iter();
    for r in &mut rows {
        for d in &mut r.differences {
            let p = it.next().unwrap_or(f64::NAN);
            d.p_holm = stats::num(p);
            d.significant = p < 0.05;
        }
    }
    rows
}

/// A short name for a ruleset argument: the edition name or the file's stem.
fn short_name(arg: &str) -> String {
    Path::new(arg)
        .file_stem()
        .map_or_else(|| arg.to_string(), |s| s.to_string_lossy().into_owned())
}

fn show(x: Option<f64>, kind: Kind) -> String {
    match x {
        Some(v) if kind == Kind::Share => format!("{:.2}%", 100.0 * v),
        Some(v) => format!("{v:.3}"),
        None => "-".into(),
    }
}

fn signed(x: Option<f64>, kind: Kind) -> String {
    match x {
        Some(v) if kind == Kind::Share => format!("{:+.2}pp", 100.0 * v),
        Some(v) => format!("{v:+.3}"),
        None => "-".into(),
    }
}

/// The comparison as text.
pub fn table(names: &[String], tallies: &[Tally], rows: &[Row]) -> String {
    let mut s = String::new();
    let b = &tallies[0].batch;
    let _ = writeln!(
        s,
        "{} matches per ruleset, seed {} (the same match seeds under each); home {}, away {}",
        b.games, b.seed, b.home, b.away
    );
    let _ = writeln!(
        s,
        "tests: Welch's t (means), two-proportion z (shares), z on delta-method errors (conversion); p adjusted by Holm over all {} tests; * = adjusted p < 0.05",
        rows.iter().map(|r| r.differences.len()).sum::<usize>()
    );
    let lw = rows.iter().map(|r| r.label.len()).max().unwrap_or(0).max(6);
    let cw = names.iter().map(String::len).max().unwrap_or(0).max(9);
    let _ = write!(s, "{:lw$}", "figure");
    for n in names {
        let _ = write!(s, "  {n:>cw$}");
    }
    for n in &names[1..] {
        let _ = write!(
            s,
            "  {:>30}  {:>8}",
            format!("{n} - {} (95% CI)", names[0]),
            "p (Holm)"
        );
    }
    s.push('\n');
    for r in rows {
        let _ = write!(s, "{:lw$}", r.label);
        for v in &r.values {
            let _ = write!(s, "  {:>cw$}", show(v.value, r.kind));
        }
        for d in &r.differences {
            let diff = format!(
                "{} ({} to {})",
                signed(d.difference, r.kind),
                signed(d.ci95[0], r.kind),
                signed(d.ci95[1], r.kind)
            );
            let p = d.p_holm.map_or_else(|| "-".into(), |p| format!("{p:.4}"));
            let _ = write!(
                s,
                "  {diff:>30}  {p:>8}{}",
                if d.significant { " *" } else { "" }
            );
        }
        s.push('\n');
    }
    let sig = rows
        .iter()
        .flat_map(|r| &r.differences)
        .filter(|d| d.significant)
        .count();
    let _ = writeln!(
        s,
        "{sig} significant difference{} after Holm's correction",
        if sig == 1 { "" } else { "s" }
    );
    s
}

#[derive(Serialize)]
struct Json<'a> {
    schema: u32,
    rulesets: &'a [String],
    games: u64,
    seed: u64,
    home: &'a str,
    away: &'a str,
    tests: Tests,
    figures: &'a [Row],
    tallies: &'a [Tally],
}

#[derive(Serialize)]
struct Tests {
    mean: &'static str,
    share: &'static str,
    ratio: &'static str,
    correction: &'static str,
    alpha: f64,
}

/// Runs `fuba compare`.
pub fn run(a: CompareArgs) -> CliResult {
    simulate::machine_players(a.home, a.away)?;
    let rulesets = a
        .rules
        .iter()
        .map(|r| crate::editions::load_rules_with(r, &a.options))
        .collect::<Result<Vec<_>, _>>()?;
    let seed = seed_or_clock(a.seed);
    let mut names: Vec<String> = a.rules.iter().map(|r| short_name(r)).collect();
    // Two files with the same stem: fall back to the arguments as given.
    if (1..names.len()).any(|i| names[..i].contains(&names[i])) {
        names = a.rules.clone();
    }
    let plan = Plan {
        home: a.home,
        away: a.away,
        jobs: a.jobs,
        progress: true,
    };
    let mut tallies = Vec::new();
    for (rs, name) in rulesets.iter().zip(&names) {
        let batch = Batch {
            ruleset: rs.name.clone(),
            title: rs.title.clone(),
            fingerprint: rs.fingerprint.clone(),
            seed,
            home: a.home.label().into(),
            away: a.away.label().into(),
            games: a.games,
            shard_count: 1,
            shards: vec![1],
        };
        let played = simulate::play_batch(rs, batch, &plan)?;
        simulate::failures(&played.tally, name).or_else(|e| match e {
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
    let mut w = simulate::output(a.out.as_ref())?;
    match a.format {
        StatsFormat::Table => write!(w, "{text}")?,
        StatsFormat::Json => {
            let b = &tallies[0].batch;
            let j = Json {
                schema: 1,
                rulesets: &names,
                games: a.games,
                seed,
                home: &b.home,
                away: &b.away,
                tests: Tests {
                    mean: "Welch's t test (unequal variances), two-sided",
                    share: "two-proportion z test (pooled), two-sided; interval: unpooled",
                    ratio: "z test on delta-method standard errors, two-sided",
                    correction: "Holm over every figure and ruleset pair",
                    alpha: 0.05,
                },
                figures: &rows,
                tallies: &tallies,
            };
            let text = serde_json::to_string_pretty(&j).map_err(std::io::Error::other)?;
            writeln!(w, "{text}")?;
        }
        StatsFormat::Csv => {
            writeln!(
                w,
                "id,label,kind,baseline,ruleset,baseline_value,value,difference,ci95_low,ci95_high,test,p,p_holm,significant"
            )?;
            let o = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
            for r in &rows {
                for (d, v) in r.differences.iter().zip(&r.values[1..]) {
                    writeln!(
                        w,
                        "{},\"{}\",{:?},{},{},{},{},{},{},{},{},{},{},{}",
                        r.id,
                        r.label,
                        r.kind,
                        names[0],
                        d.ruleset,
                        o(r.values[0].value),
                        o(v.value),
                        o(d.difference),
                        o(d.ci95[0]),
                        o(d.ci95[1]),
                        d.test,
                        o(d.p),
                        o(d.p_holm),
                        d.significant
                    )?;
                }
            }
        }
    }
    w.flush()?;
    if let Some(path) = &a.report {
        let rrows: Vec<crate::report::CompareRow<'_>> = rows
            .iter()
            .map(|r| crate::report::CompareRow {
                figures: r.values.iter().collect(),
                adjusted: std::iter::once(None)
                    .chain(r.differences.iter().map(|d| d.p_holm))
                    .collect(),
            })
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        crate::report::write_comparison(path, &refs, &tallies, &rrows, &text)?;
    }
    Ok(())
}
