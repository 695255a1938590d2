//! A comparison as CSV (`--format csv`): one line per figure and ruleset pair, with the
//! unpaired and the paired test, then the match length quantiles.

use std::io::{self, Write};

use super::Row;
use crate::stats::Tally;
use crate::stats::balance;

/// Writes the comparison of the batches `tallies` of the rulesets `names` as CSV.
pub(super) fn write_csv(
    w: &mut dyn Write,
    names: &[String],
    tallies: &[Tally],
    rows: &[Row],
) -> io::Result<()> {
    writeln!(
        w,
        "id,label,kind,baseline,ruleset,baseline_value,value,difference,ci95_low,ci95_high,test,p,p_holm,significant,pairs,paired_difference,paired_ci95_low,paired_ci95_high,paired_test,paired_p,paired_p_holm,paired_significant"
    )?;
    let o = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
    for r in rows {
        for (d, v) in r.differences.iter().zip(&r.values[1..]) {
            let paired = d.paired.as_ref().map_or_else(
                || ",,,,,,,".to_string(),
                |p| {
                    format!(
                        "{},{},{},{},{},{},{},{}",
                        p.pairs,
                        o(p.difference),
                        o(p.ci95[0]),
                        o(p.ci95[1]),
                        p.test,
                        o(p.p),
                        o(p.p_holm),
                        p.significant
                    )
                },
            );
            writeln!(
                w,
                "{},\"{}\",{:?},{},{},{},{},{},{},{},{},{},{},{},{paired}",
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
    // Match length quantiles: values and their difference, no test.
    let base = balance::match_length(&tallies[0]);
    for (n, t) in names.iter().zip(tallies).skip(1) {
        for (qa, qb) in base.iter().zip(balance::match_length(t)) {
            let q = |x: Option<u32>| x.map_or_else(String::new, |v| v.to_string());
            let d = qa.turns.zip(qb.turns).map_or_else(String::new, |(x, y)| {
                (i64::from(y) - i64::from(x)).to_string()
            });
            writeln!(
                w,
                "turns_q{},\"match length, {} quantile (turns)\",Quantile,{},{n},{},{},{d},,,,,,,,,,,,,,",
                (qa.p * 100.0).round(),
                qa.label(),
                names[0],
                q(qa.turns),
                q(qb.turns)
            )?;
        }
    }
    Ok(())
}
