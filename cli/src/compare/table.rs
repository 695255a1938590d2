//! What `fuba compare` prints as text: the figures side by side, each difference with its
//! paired interval and test, and the unpaired ones for reference.

use std::fmt::Write as _;
use std::path::Path;

use super::{Difference, Row, pairing};
use crate::stats::balance;
use crate::stats::{Kind, Tally};

/// A short name for a ruleset argument: the edition name or the file's stem.
pub(super) fn short_name(arg: &str) -> String {
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

/// Half the width of an interval, as `±x` (`±x.xxpp` for shares).
fn half_width(ci: [Option<f64>; 2], kind: Kind) -> String {
    match ci {
        [Some(lo), Some(hi)] if kind == Kind::Share => format!("±{:.2}pp", 50.0 * (hi - lo)),
        [Some(lo), Some(hi)] => format!("±{:.3}", (hi - lo) / 2.0),
        _ => "-".into(),
    }
}

/// An adjusted p-value, then ` *` when significant (two spaces when not, so columns
/// stay aligned).
fn p_cell(p: Option<f64>, significant: bool) -> String {
    format!(
        "{}{}",
        p.map_or_else(|| "-".into(), |p| format!("{p:.4}")),
        if significant { " *" } else { "  " }
    )
}

/// The comparison as text. When every batch pairs with the first (same seeds and
/// players, per-match values kept), the differences shown are the paired ones, with the
/// unpaired interval's half-width and adjusted p beside them.
pub(super) fn table(names: &[String], tallies: &[Tally], rows: &[Row]) -> String {
    let mut s = String::new();
    let b = &tallies[0].batch;
    let _ = writeln!(
        s,
        "{} matches per ruleset, seed {} (the same match seeds under each); home {}, away {}",
        b.games, b.seed, b.home, b.away
    );
    for (name, t) in names.iter().zip(tallies) {
        if !t.batch.options.is_empty() {
            let _ = writeln!(s, "{name}: options set {}", t.batch.options.join(", "));
        }
    }
    let tests = rows
        .iter()
        .filter(|r| r.tested)
        .map(|r| r.differences.len())
        .sum::<usize>();
    let pairing = pairing(tallies);
    let paired = pairing.iter().all(Result::is_ok)
        && rows
            .iter()
            .flat_map(|r| &r.differences)
            .all(|d| d.paired.is_some());
    if paired {
        let twins: Vec<u64> = pairing
            .iter()
            .filter_map(|p| p.as_ref().ok().copied())
            .collect();
        let twins = if twins.iter().all(|t| *t == b.games) {
            format!("all {} matches have their twin", b.games)
        } else {
            let each: Vec<String> = twins
                .iter()
                .zip(&names[1..])
                .map(|(t, n)| format!("{n} {t}"))
                .collect();
            format!(
                "twins of {} matches: {}; a match that failed under either ruleset has none",
                b.games,
                each.join(", ")
            )
        };
        let _ = writeln!(
            s,
            "paired: match i is played with the same seed and players under each ruleset, so every difference is taken match by match between the twins ({twins})"
        );
        let _ = writeln!(
            s,
            "tests: paired t (means), McNemar's z (shares), z on paired delta-method terms (conversion); p adjusted by Holm over all {tests} tests; * = adjusted p < 0.05"
        );
        let _ = writeln!(
            s,
            "unpaired: the batches as independent samples (Welch's t, two-proportion z, delta-method z), for reference: the 95% interval's half-width and p (Holm)"
        );
    } else {
        if let Some(Err(why)) = pairing.iter().find(|p| p.is_err()) {
            let _ = writeln!(s, "not paired: {why}");
        }
        let _ = writeln!(
            s,
            "tests: Welch's t (means), two-proportion z (shares), z on delta-method errors (conversion); p adjusted by Holm over all {tests} tests; * = adjusted p < 0.05"
        );
    }
    let lw = rows.iter().map(|r| r.label.len()).max().unwrap_or(0).max(6);
    let cw = names.iter().map(String::len).max().unwrap_or(0).max(9);
    let what = if paired { ", paired" } else { "" };
    let heads: Vec<String> = names[1..]
        .iter()
        .map(|n| format!("{n} - {}{what} (95% CI)", names[0]))
        .collect();
    let dw = heads.iter().map(String::len).max().unwrap_or(0).max(30);
    let _ = write!(s, "{:lw$}", "figure");
    for n in names {
        let _ = write!(s, "  {n:>cw$}");
    }
    for head in &heads {
        let _ = write!(s, "  {head:>dw$}  {:>10}", "p (Holm)  ");
        if paired {
            let _ = write!(s, "  {:>10}  {:>10}", "unpaired", "p (Holm)  ");
        }
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    for r in rows {
        let _ = write!(s, "{:lw$}", r.label);
        for v in &r.values {
            let _ = write!(s, "  {:>cw$}", show(v.value, r.kind));
        }
        for d in &r.differences {
            let (diff, ci) = match (&d.paired, paired) {
                (Some(p), true) => (p.difference, p.ci95),
                _ => (d.difference, d.ci95),
            };
            let (p, sig) = if paired {
                d.reported()
            } else {
                (d.p_holm, d.significant)
            };
            let cell = format!(
                "{} ({} to {})",
                signed(diff, r.kind),
                signed(ci[0], r.kind),
                signed(ci[1], r.kind)
            );
            let _ = write!(s, "  {cell:>dw$}  {:>10}", p_cell(p, sig));
            if paired {
                let _ = write!(
                    s,
                    "  {:>10}  {:>10}",
                    half_width(d.ci95, r.kind),
                    p_cell(d.p_holm, d.significant)
                );
            }
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
    }
    let counters: Vec<&str> = rows
        .iter()
        .filter(|r| !r.tested)
        .map(|r| r.label.as_str())
        .collect();
    if !counters.is_empty() {
        let _ = writeln!(
            s,
            "not tested (p \"-\"): {}, the engine's own counters, which any change of play moves",
            counters.join(", ")
        );
    }
    let _ = writeln!(s, "figures that are zero under every ruleset are left out");
    let _ = writeln!(s, "match length quantiles (turns; 95% CI)");
    for (n, t) in names.iter().zip(tallies) {
        let q = balance::quantiles_text(&balance::match_length(t));
        let _ = writeln!(s, "  {n:cw$}  {q}");
    }
    let count = |f: &dyn Fn(&Difference) -> bool| {
        rows.iter()
            .flat_map(|r| &r.differences)
            .filter(|d| f(d))
            .count()
    };
    let sig = count(&|d| {
        if paired {
            d.reported().1
        } else {
            d.significant
        }
    });
    let _ = write!(
        s,
        "{sig} significant difference{} after Holm's correction",
        if sig == 1 { "" } else { "s" }
    );
    if paired {
        let unpaired = count(&|d| d.significant);
        let _ = write!(s, " (paired tests; unpaired: {unpaired})");
    }
    s.push('\n');
    s
}
