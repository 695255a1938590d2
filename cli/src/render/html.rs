//! `--report FILE.html`: one self-contained HTML page (no network, no scripts) with
//! hand-written SVG charts: the goals distribution, the figures with their 95% intervals
//! (the balance figures among them), the match length quantiles and the rules coverage.
//! Every number drawn is also written as text in the page.

use std::fmt::Write as _;
use std::path::Path;

use crate::error::CliError;
use crate::stats::{self, Figure, Tally, balance};

const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
];

/// Escapes text for HTML and SVG.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\nbody {{ font-family: sans-serif; margin: 2em; color: #222; }}\ntable {{ border-collapse: collapse; margin: 1em 0; }}\ntd, th {{ border: 1px solid #ccc; padding: 2px 8px; text-align: right; }}\ntd:first-child, th:first-child {{ text-align: left; }}\n.sig {{ color: #b00; font-weight: bold; }}\nsvg text {{ font-family: sans-serif; font-size: 11px; }}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n{}</body>\n</html>\n",
        esc(title),
        esc(title),
        body
    )
}

fn write(path: &Path, html: &str) -> Result<(), CliError> {
    std::fs::write(path, html)
        .map_err(|e| CliError::Failure(format!("cannot write {}: {e}", path.display())))
}

fn fmt(x: Option<f64>, share: bool) -> String {
    match x {
        Some(v) if share => format!("{:.1}%", 100.0 * v),
        Some(v) => format!("{v:.3}"),
        None => "-".into(),
    }
}

/// Bars of the goals distribution, one group per batch.
fn goals_chart(tallies: &[(&str, &Tally)]) -> String {
    let dists: Vec<Vec<Figure>> = tallies
        .iter()
        .map(|(_, t)| stats::goals_distribution(t))
        .collect();
    let buckets = dists.first().map_or(0, Vec::len);
    let top = dists
        .iter()
        .flatten()
        .filter_map(|f| f.ci95[1])
        .fold(0.0_f64, f64::max)
        .max(0.01);
    let (w, h, left, bottom) = (640.0, 260.0, 50.0, 40.0);
    let plot_h = h - bottom - 20.0;
    let group = (w - left - 10.0) / buckets.max(1) as f64;
    let bar = (group - 6.0) / tallies.len().max(1) as f64;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"goals per match distribution\">\n"
    );
    // Axis and grid: every 10% (or 5% when the tallest bar is short).
    let step = if top > 0.3 { 0.1 } else { 0.05 };
    let mut y = 0.0;
    while y <= top + 1e-9 {
        let py = 20.0 + plot_h * (1.0 - y / top);
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" y1=\"{py:.1}\" x2=\"{}\" y2=\"{py:.1}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{:.0}%</text>",
            w - 10.0,
            left - 4.0,
            py + 4.0,
            100.0 * y
        );
        y += step;
    }
    for (bi, (name, _)) in tallies.iter().enumerate() {
        for (g, f) in dists[bi].iter().enumerate() {
            let v = f.value.unwrap_or(0.0);
            let x = left + g as f64 * group + 3.0 + bi as f64 * bar;
            let bh = plot_h * v / top;
            let _ = writeln!(
                s,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"{}\"><title>{}: {} goals {:.2}% ({} matches)</title></rect>",
                20.0 + plot_h - bh,
                bar.max(1.0),
                COLOURS[bi % COLOURS.len()],
                esc(name),
                esc(f.label.trim_end_matches(" goals")),
                100.0 * v,
                f.count.unwrap_or(0)
            );
            // The 95% Wilson interval as an error bar.
            if let [Some(lo), Some(hi)] = f.ci95 {
                let cx = x + bar / 2.0;
                let _ = writeln!(
                    s,
                    "<line x1=\"{cx:.1}\" y1=\"{:.1}\" x2=\"{cx:.1}\" y2=\"{:.1}\" stroke=\"#000\"/>",
                    20.0 + plot_h * (1.0 - lo / top),
                    20.0 + plot_h * (1.0 - hi / top)
                );
            }
        }
    }
    for (g, f) in dists.first().into_iter().flatten().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            left + (g as f64 + 0.5) * group,
            h - bottom + 16.0,
            esc(f.label.trim_end_matches(" goals"))
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">goals in the match (bars: share of matches, lines: 95% Wilson interval)</text>",
        left + (w - left) / 2.0,
        h - 6.0
    );
    s.push_str("</svg>\n");
    s
}

/// Horizontal bars of how often each entry ran (log scale); entries that never ran in red.
fn coverage_chart(t: &Tally) -> String {
    let n = t.coverage.len();
    let (w, row, left) = (760.0, 14.0, 330.0);
    let h = 30.0 + row * n as f64;
    let max = t.coverage.values().copied().max().unwrap_or(1).max(1) as f64;
    let scale = (w - left - 80.0) / (1.0 + max).log10().max(1e-9);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h:.0}\" role=\"img\" aria-label=\"rules coverage\">\n"
    );
    for (i, (label, count)) in t.coverage.iter().enumerate() {
        let y = 20.0 + i as f64 * row;
        let len = (1.0 + *count as f64).log10() * scale;
        let colour = if *count == 0 { "#d62728" } else { "#1f77b4" };
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"{colour}\">{}</text><rect x=\"{left}\" y=\"{:.1}\" width=\"{len:.1}\" height=\"{:.1}\" fill=\"{colour}\"/><text x=\"{:.1}\" y=\"{:.1}\">{count}</text>",
            left - 6.0,
            y + row - 4.0,
            esc(label),
            y + 2.0,
            row - 3.0,
            left + len + 4.0,
            y + row - 4.0
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{left}\" y=\"12\">times run over the batch (log scale); red: never ran</text>"
    );
    s.push_str("</svg>\n");
    s
}

/// The ruleset's breakdown figures (`[figures] NAME = { event, by }`): for each, one bar
/// per value seen (most frequent first in the first batch) and batch, counts over the batch.
fn counted_section(tallies: &[(&str, &Tally)]) -> String {
    let mut names: Vec<&String> = tallies
        .iter()
        .flat_map(|(_, t)| t.counted_by.keys())
        .collect();
    names.sort();
    names.dedup();
    let mut s = String::new();
    for name in names {
        let counts: Vec<Option<&std::collections::BTreeMap<String, u64>>> = tallies
            .iter()
            .map(|(_, t)| t.counted_by.get(name))
            .collect();
        let count = |c: Option<&std::collections::BTreeMap<String, u64>>, v: &String| {
            c.and_then(|c| c.get(v)).copied().unwrap_or(0)
        };
        let mut values: Vec<&String> = counts.iter().flatten().flat_map(|c| c.keys()).collect();
        values.sort();
        values.dedup();
        values.sort_by_key(|v| std::cmp::Reverse(count(counts[0], v)));
        let _ = writeln!(s, "<h3>{}</h3>", esc(&name.replace('_', " ")));
        if values.is_empty() {
            s.push_str("<p>Never happened.</p>\n");
            continue;
        }
        let bars = tallies.len() as f64;
        let (w, bar, left) = (760.0, 11.0, 220.0);
        let row = bar * bars + 4.0;
        let h = 24.0 + row * values.len() as f64;
        let max = counts
            .iter()
            .flatten()
            .flat_map(|c| c.values())
            .copied()
            .max()
            .unwrap_or(1)
            .max(1) as f64;
        let scale = (w - left - 70.0) / max;
        let _ = writeln!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h:.0}\" role=\"img\" aria-label=\"{}\">",
            esc(name)
        );
        for (i, value) in values.iter().enumerate() {
            let y = 18.0 + i as f64 * row;
            let label = if value.is_empty() {
                "(none)"
            } else {
                value.as_str()
            };
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                left - 6.0,
                y + row / 2.0 + 3.0,
                esc(label)
            );
            for (j, c) in counts.iter().enumerate() {
                let n = count(*c, value);
                let by = y + j as f64 * bar;
                let _ = writeln!(
                    s,
                    "<rect x=\"{left}\" y=\"{by:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\">{n}</text>",
                    n as f64 * scale,
                    bar - 2.0,
                    COLOURS[j % COLOURS.len()],
                    left + n as f64 * scale + 4.0,
                    by + bar - 3.0
                );
            }
        }
        let _ = writeln!(s, "<text x=\"{left}\" y=\"11\">times over the batch</text>");
        s.push_str("</svg>\n");
    }
    s
}

fn figures_table(t: &Tally) -> String {
    let mut s = String::from(
        "<table>\n<tr><th>figure</th><th>value</th><th>95% CI</th><th>sd</th><th>n</th></tr>\n",
    );
    for f in stats::figures(t) {
        let share = f.kind == stats::Kind::Share;
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{} – {}</td><td>{}</td><td>{}</td></tr>",
            esc(&f.label),
            fmt(f.value, share),
            fmt(f.ci95[0], share),
            fmt(f.ci95[1], share),
            if share { "-".into() } else { fmt(f.sd, false) },
            f.n
        );
    }
    s.push_str("</table>\n");
    s
}

/// The match length quantiles of each batch, with their 95% intervals.
fn length_table(tallies: &[(&str, &Tally)]) -> String {
    let mut s = String::from(
        "<h2>Match length (turns)</h2>\n<p>Quantiles of the turns per match, all halves, with distribution-free 95% intervals.</p>\n<table>\n<tr><th>ruleset</th>",
    );
    for p in balance::QUANTILES {
        let _ = write!(s, "<th>{}%</th>", (p * 100.0).round());
    }
    s.push_str("</tr>\n");
    let show = |x: Option<u32>| x.map_or_else(|| "-".into(), |v| v.to_string());
    for (name, t) in tallies {
        let _ = write!(s, "<tr><td>{}</td>", esc(name));
        for q in balance::match_length(t) {
            let _ = write!(
                s,
                "<td>{} ({} – {})</td>",
                show(q.turns),
                show(q.ci95[0]),
                show(q.ci95[1])
            );
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table>\n");
    s
}

fn batch_line(t: &Tally) -> String {
    let b = &t.batch;
    format!(
        "<p>Ruleset <b>{}</b> ({}){}, fingerprint {}; {} matches played (seed {}; home {}, away {}){}.</p>\n",
        esc(&b.ruleset),
        esc(&b.title),
        if b.options.is_empty() {
            String::new()
        } else {
            format!(" with the options {}", esc(&b.options.join(", ")))
        },
        esc(&b.fingerprint),
        t.games,
        b.seed,
        esc(&b.home),
        esc(&b.away),
        b.shard_text()
            .map_or_else(String::new, |s| format!(", shard {}", esc(&s)))
    )
}

fn coverage_section(t: &Tally) -> String {
    let never = t.never_fired();
    let mut s = format!(
        "<h2>Rules coverage</h2>\n<p>{} of {} table rows, procedures and triggers ran.</p>\n",
        t.coverage.len() - never.len(),
        t.coverage.len()
    );
    if !never.is_empty() {
        let items: Vec<String> = never
            .iter()
            .map(|n| match t.row_labels.get(*n) {
                Some(words) => format!("<li>{}: {}</li>", esc(n), esc(words)),
                None => format!("<li>{}</li>", esc(n)),
            })
            .collect();
        let _ = writeln!(s, "<p>Never ran:</p>\n<ul>{}</ul>", items.join(""));
    }
    s.push_str(&coverage_chart(t));
    s.push_str(&row_table(t));
    s
}

/// Each table row with the rulebook's words, and how often it ran: a row chosen by a roll
/// (a special event) by its label as well as its roll.
fn row_table(t: &Tally) -> String {
    if t.row_labels.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "<h3>Table rows</h3>\n<table>\n<tr><th>row</th><th>rulebook</th><th>times run</th></tr>\n",
    );
    for (key, count) in &t.coverage {
        if let Some(words) = t.row_labels.get(key) {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{count}</td></tr>",
                esc(key),
                esc(words)
            );
        }
    }
    s.push_str("</table>\n");
    s
}

/// The report of one batch.
pub fn simulation_html(t: &Tally) -> String {
    let mut body = batch_line(t);
    body.push_str("<h2>Goals per match</h2>\n");
    body.push_str(&goals_chart(&[(&t.batch.ruleset, t)]));
    body.push_str("<h2>Figures</h2>\n");
    body.push_str(&figures_table(t));
    body.push_str(&length_table(&[(&t.batch.ruleset, t)]));
    body.push_str(&counted_section(&[(&t.batch.ruleset, t)]));
    body.push_str(&coverage_section(t));
    page(&format!("fuba simulate: {}", t.batch.ruleset), &body)
}

/// Writes the report of one batch.
pub fn write_simulation(path: &Path, t: &Tally) -> Result<(), CliError> {
    write(path, &simulation_html(t))
}

/// One row of a comparison: a figure under each ruleset, and the tests against the first.
pub struct CompareRow<'a> {
    /// The figure under each ruleset.
    pub figures: Vec<&'a Figure>,
    /// Holm-adjusted p-value of each ruleset against the first (None for the first): the
    /// paired test's when the batches pair up.
    pub adjusted: Vec<Option<f64>>,
}

/// Error bars of each figure under each ruleset, one strip per figure on its own scale.
fn compare_chart(names: &[&str], rows: &[CompareRow<'_>]) -> String {
    let (w, strip, left) = (760.0, 16.0 * names.len() as f64 + 10.0, 260.0);
    let h = 30.0 + strip * rows.len() as f64;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h:.0}\" role=\"img\" aria-label=\"figures compared\">\n"
    );
    for (ri, row) in rows.iter().enumerate() {
        let y0 = 20.0 + ri as f64 * strip;
        let lo = row
            .figures
            .iter()
            .filter_map(|f| f.ci95[0])
            .fold(f64::INFINITY, f64::min);
        let hi = row
            .figures
            .iter()
            .filter_map(|f| f.ci95[1])
            .fold(f64::NEG_INFINITY, f64::max);
        let span = if hi > lo { hi - lo } else { 1.0 };
        let x = |v: f64| left + 10.0 + (w - left - 120.0) * (v - lo) / span;
        let sig = row.adjusted.iter().flatten().any(|p| *p < 0.05);
        let _ = writeln!(
            s,
            "<line x1=\"0\" y1=\"{y0:.1}\" x2=\"{w}\" y2=\"{y0:.1}\" stroke=\"#eee\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\"{}>{}{}</text>",
            left - 6.0,
            y0 + strip / 2.0 + 4.0,
            if sig { " fill=\"#b00\"" } else { "" },
            esc(&row.figures[0].label),
            if sig { " *" } else { "" }
        );
        for (bi, f) in row.figures.iter().enumerate() {
            let (Some(v), [Some(a), Some(b)]) = (f.value, f.ci95) else {
                continue;
            };
            let y = y0 + 10.0 + bi as f64 * 16.0;
            let c = COLOURS[bi % COLOURS.len()];
            let _ = writeln!(
                s,
                "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{c}\" stroke-width=\"2\"/><circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"3\" fill=\"{c}\"><title>{}: {v:.4} ({a:.4} to {b:.4})</title></circle><text x=\"{:.1}\" y=\"{:.1}\" fill=\"{c}\">{v:.3}</text>",
                x(a),
                x(b),
                x(v),
                esc(names[bi]),
                x(b) + 6.0,
                y + 4.0
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The report of a comparison.
pub fn comparison_html(
    names: &[&str],
    tallies: &[Tally],
    rows: &[CompareRow<'_>],
    table: &str,
) -> String {
    let mut body = String::new();
    let legend: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            format!(
                "<span style=\"color:{}\">■ {}</span>",
                COLOURS[i % COLOURS.len()],
                esc(n)
            )
        })
        .collect();
    let _ = writeln!(body, "<p>{}</p>", legend.join(" &nbsp; "));
    for t in tallies {
        body.push_str(&batch_line(t));
    }
    body.push_str("<h2>Goals per match</h2>\n");
    let pairs: Vec<(&str, &Tally)> = names.iter().copied().zip(tallies).collect();
    body.push_str(&goals_chart(&pairs));
    body.push_str("<h2>Figures (dot: value, line: 95% interval; * significant after Holm)</h2>\n");
    body.push_str(&compare_chart(names, rows));
    let _ = writeln!(body, "<pre>{}</pre>", esc(table));
    body.push_str(&length_table(&pairs));
    body.push_str(&counted_section(&pairs));
    for (n, t) in names.iter().zip(tallies) {
        let _ = writeln!(body, "<h2>{}</h2>", esc(n));
        body.push_str(&coverage_section(t));
    }
    page(&format!("fuba compare: {}", names.join(" vs ")), &body)
}

/// Writes the report of a comparison.
pub fn write_comparison(
    path: &Path,
    names: &[&str],
    tallies: &[Tally],
    rows: &[CompareRow<'_>],
    table: &str,
) -> Result<(), CliError> {
    write(path, &comparison_html(names, tallies, rows, table))
}
