//! The figures of a tally: means with Student's t intervals, shares with Wilson
//! intervals, the conversion ratio with a delta-method interval.

use serde::Serialize;

use super::tally::{Moments, Tally};
use super::{Z95, balance, conversion, t_quantile_975};

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

pub(super) fn mean_figure(id: String, label: String, m: &Moments) -> Figure {
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
pub(super) fn engine_label(id: &str) -> String {
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

/// A figure of the ruleset's `[figures]` table: its mean per match.
fn ruleset_figure(name: &str, m: &Moments) -> Figure {
    mean_figure(
        format!("figures.{name}"),
        format!("{} per match", name.replace('_', " ")),
        m,
    )
}

/// The figures of a tally, in a fixed order: goals, results, the balance figures (home
/// and kick-off advantage, match length), the figure the ruleset declares goals a
/// conversion of and that conversion ([`conversion`]), possession, the ruleset's other
/// figures in their order, turns and minutes per half, choices and dice.
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
    let converted =
        (t.conversion.as_ref()).and_then(|c| Some((c, t.figures.get_key_value(&c.figure)?)));
    if let Some((c, (name, s))) = converted {
        out.push(ruleset_figure(name, s));
        out.push(conversion(t, &eng("goals"), s, &c.label));
    }
    out.push(mean_figure(
        "possession_changes".into(),
        engine_label("possession_changes"),
        &eng("possession_changes"),
    ));
    for (name, m) in &t.figures {
        if converted.is_none_or(|(_, (c, _))| c != name) {
            out.push(ruleset_figure(name, m));
        }
    }
    for (k, m) in &t.engine {
        if k.contains("_half_") || k == "choices" || k == "dice" {
            out.push(mean_figure(k.clone(), engine_label(k), m));
        }
    }
    out
}

/// Goals per converted event: the ratio of the sums, with a delta-method interval. `g`
/// is the goals' tally, `s` the converted figure's, `label` the conversion's.
fn conversion(t: &Tally, g: &Moments, s: &Moments, label: &str) -> Figure {
    let n = g.n as f64;
    let r = if s.sum > 0 {
        g.sum as f64 / s.sum as f64
    } else {
        f64::NAN
    };
    // Var(g - r s) per match; its mean is 0 by construction of r.
    let ss = g.sumsq as f64 - 2.0 * r * t.goals_x_converted as f64 + r * r * s.sumsq as f64;
    let var = ss / (n - 1.0);
    let sbar = s.sum as f64 / n;
    let se = (var.max(0.0) / n).sqrt() / sbar;
    Figure {
        id: conversion::ID.into(),
        label: label.into(),
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

    /// The ids of the figures of an empty tally of `rs`.
    fn ids(rs: &fuba_engine::ruleset::Ruleset) -> Vec<(String, String)> {
        let batch = super::super::Batch {
            ruleset: rs.name.clone(),
            title: rs.title.clone(),
            fingerprint: rs.fingerprint.clone(),
            seed: 1,
            home: "random".into(),
            away: "random".into(),
            games: 0,
            shard_count: 1,
            shards: vec![1],
            options: Vec::new(),
        };
        figures(&Tally::new(rs, batch))
            .into_iter()
            .map(|f| (f.id, f.label))
            .collect()
    }

    #[test]
    fn the_conversion_follows_the_figure_the_ruleset_declares_it_of() {
        let e = crate::editions::find("original").expect("a built-in edition");
        let rs = crate::editions::load_edition(e).expect("the edition loads");
        let ids = ids(&rs);
        let at = |id: &str| ids.iter().position(|(i, _)| i == id);
        let conversion = at("conversion").expect("a conversion");
        assert_eq!(ids[conversion].1, "conversion (goals per shot)");
        assert_eq!(at("figures.shots"), Some(conversion - 1));
        assert_eq!(at("possession_changes"), Some(conversion + 1));
        // A house layer that redeclares the figure without `conversion`: no conversion,
        // and the figure is listed with the others, in the ruleset's order.
        let text = "[meta]\nextends = \"original\"\nname = \"house\"\ntitle = \"House\"\n\n\
                    [figures]\nshots = [\"shot\", \"penalty\"]\n";
        let house = fuba_engine::load::load_str_with(
            std::path::Path::new("house.toml"),
            text,
            &crate::editions::lookup,
        )
        .expect("the layer loads");
        let ids = self::ids(&house);
        let at = |id: &str| ids.iter().position(|(i, _)| i == id);
        assert_eq!(at("conversion"), None);
        assert_eq!(
            at("figures.shots"),
            Some(at("possession_changes").unwrap() + 1)
        );
    }

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
}
