//! The figures of a tally as CSV (`--format csv`): one line per figure, quantile and
//! breakdown value, with a header line.

use std::io::{self, Write};

use crate::stats::balance;
use crate::stats::{self, Kind, Tally};

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes a tally's figures as CSV.
pub(super) fn write_csv(out: &mut dyn Write, t: &Tally) -> io::Result<()> {
    writeln!(out, "ruleset,id,label,kind,n,value,sd,ci95_low,ci95_high")?;
    let show = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
    for f in stats::figures(t)
        .iter()
        .chain(&stats::goals_distribution(t))
    {
        let kind = match f.kind {
            Kind::Mean => "mean",
            Kind::Share => "share",
            Kind::Ratio => "ratio",
        };
        writeln!(
            out,
            "{},{},{},{kind},{},{},{},{},{}",
            csv_field(&t.batch.ruleset),
            csv_field(&f.id),
            csv_field(&f.label),
            f.n,
            show(f.value),
            show(f.sd),
            show(f.ci95[0]),
            show(f.ci95[1])
        )?;
    }
    // Match length quantiles, with their order-statistic intervals.
    for q in balance::match_length(t) {
        let show = |x: Option<u32>| x.map_or_else(String::new, |v| v.to_string());
        writeln!(
            out,
            "{},{},{},quantile,{},{},,{},{}",
            csv_field(&t.batch.ruleset),
            format_args!("turns_q{}", (q.p * 100.0).round()),
            csv_field(&format!("match length, {} quantile (turns)", q.label())),
            t.games,
            show(q.turns),
            show(q.ci95[0]),
            show(q.ci95[1])
        )?;
    }
    // Breakdown figures: one row per value seen, its total over the batch.
    for (name, counts) in &t.counted_by {
        for (k, n) in counts {
            writeln!(
                out,
                "{},{},{},count,{},{},,,",
                csv_field(&t.batch.ruleset),
                csv_field(&format!("counted_by.{name}.{k}")),
                csv_field(&format!("{name}: {k}")),
                t.games,
                n
            )?;
        }
    }
    Ok(())
}
