//! Paired comparison of two batches played with the same match seeds and players.
//!
//! `fuba compare` plays match `i` of the batch under each ruleset with the same seed and
//! the same players: the two matches are twins. Where the rulesets agree, twins play alike
//! (the same dice and choices, as long as nothing the rules changed was reached), so a
//! figure's difference taken match by match varies far less than the figure itself, and a
//! test on those per-match differences is much tighter than one treating the two batches
//! as independent samples. Twins may still drift apart once a changed rule is reached
//! (other dice follow, players choose otherwise): the pairing stays valid, it only helps
//! less.
//!
//! The tests, on the `n` per-match differences `d_i` (twins both played to the end):
//!
//! - means: the paired t test, `mean(d) / (sd(d) / √n)` with `n − 1` degrees of freedom;
//!   interval `mean(d) ± t · sd(d)/√n`;
//! - shares: McNemar's test, `z = (b − c) / √(b + c)` where `b` and `c` count the twins
//!   where only the second or only the first has the event; interval: the difference of
//!   shares ± z times the standard error of the per-match differences;
//! - ratios (conversion): a z test on the per-match differences of the delta-method
//!   terms `(g_i − r·s_i) / mean(s)`.

use std::cmp::Ordering;

use serde::Serialize;

use super::{Kind, Tally, Z95, conversion, num, t_quantile_975, t_two_sided, z_two_sided};

/// Every match's values by match index: one row per match played to the end, the values
/// in the order of the tally's `engine` figures then its ruleset `figures`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PerMatch {
    rows: Vec<(u64, Box<[i64]>)>,
}

impl PerMatch {
    /// Adds the row of match `index`.
    pub fn push(&mut self, index: u64, row: Vec<i64>) {
        self.rows.push((index, row.into_boxed_slice()));
    }

    /// Adds the rows of other matches of the batch.
    pub fn absorb(&mut self, o: PerMatch) {
        self.rows.extend(o.rows);
    }

    /// Puts the rows in match order.
    pub fn sort(&mut self) {
        self.rows.sort_by_key(|r| r.0);
    }
}

/// A figure's difference between two batches, taken twin by twin.
#[derive(Debug, Clone, Serialize)]
pub struct Paired {
    /// Twins compared (matches played to the end under both rulesets).
    pub pairs: u64,
    /// The mean per-match difference (second minus first).
    pub difference: Option<f64>,
    /// Standard deviation of the per-match differences (of the delta-method terms' for a
    /// ratio).
    pub sd: Option<f64>,
    /// 95% interval of the difference.
    pub ci95: [Option<f64>; 2],
    /// The test used.
    pub test: &'static str,
    /// The test statistic.
    pub statistic: Option<f64>,
    /// Two-sided p-value.
    pub p: Option<f64>,
    /// Holm-adjusted over every paired test of the comparison.
    pub p_holm: Option<f64>,
    /// Adjusted p below 0.05.
    pub significant: bool,
}

/// Why two batches do not pair match by match, or None when they do: both kept their
/// per-match values, and they share seed, players and batch (size and shards).
pub fn unpaired_reason(a: &Tally, b: &Tally) -> Option<String> {
    if a.per_match.is_none() || b.per_match.is_none() {
        return Some("the per-match values were not kept".into());
    }
    let (x, y) = (&a.batch, &b.batch);
    let differ = |what: &str, p: &dyn std::fmt::Display, q: &dyn std::fmt::Display| {
        (p.to_string() != q.to_string()).then(|| format!("different {what}: {p} and {q}"))
    };
    differ("seeds", &x.seed, &y.seed)
        .or_else(|| differ("home players", &x.home, &y.home))
        .or_else(|| differ("away players", &x.away, &y.away))
        .or_else(|| differ("batch sizes", &x.games, &y.games))
        .or_else(|| differ("shard counts", &x.shard_count, &y.shard_count))
        .or_else(|| (x.shards != y.shards).then(|| "different shards".to_string()))
}

/// Where a figure's per-match value is in a row.
#[derive(Debug, Clone, Copy)]
enum Col {
    /// The value itself.
    Value(usize),
    /// 1 when the value's sign is this, else 0 (a share: won, lost, drawn).
    Sign(usize, Ordering),
}

impl Col {
    fn get(self, row: &[i64]) -> Option<i64> {
        match self {
            Col::Value(i) => row.get(i).copied(),
            Col::Sign(i, o) => row.get(i).map(|x| i64::from(x.cmp(&0) == o)),
        }
    }
}

/// The column of figure `id` (as [`super::figures`] names it) in a tally's rows.
fn column(t: &Tally, id: &str) -> Option<Col> {
    let pos = |k: &str| t.engine.get_index_of(k);
    let sign = |k: &str, o| pos(k).map(|i| Col::Sign(i, o));
    match id {
        "home_win" => sign("home_advantage", Ordering::Greater),
        "away_win" => sign("home_advantage", Ordering::Less),
        "draw" => sign("home_advantage", Ordering::Equal),
        "kickoff_win" => sign("kickoff_advantage", Ordering::Greater),
        "kickoff_loss" => sign("kickoff_advantage", Ordering::Less),
        _ => match id.strip_prefix("figures.") {
            Some(name) => t
                .figures
                .get_index_of(name)
                .map(|i| Col::Value(t.engine.len() + i)),
            None => pos(id).map(Col::Value),
        },
    }
}

/// The twins of two batches: the rows of the matches both played to the end.
pub struct Twins<'a> {
    a: &'a Tally,
    b: &'a Tally,
    rows: Vec<(&'a [i64], &'a [i64])>,
}

impl<'a> Twins<'a> {
    /// Pairs the matches of `b` with those of `a`; an error says why they do not pair.
    pub fn new(a: &'a Tally, b: &'a Tally) -> Result<Self, String> {
        if let Some(why) = unpaired_reason(a, b) {
            return Err(why);
        }
        let sorted = |t: &'a Tally| {
            let mut r: Vec<&'a (u64, Box<[i64]>)> = t
                .per_match
                .as_ref()
                .map(|p| p.rows.iter().collect())
                .unwrap_or_default();
            r.sort_by_key(|r| r.0);
            r
        };
        let (ra, rb) = (sorted(a), sorted(b));
        let (mut i, mut j) = (0, 0);
        let mut rows = Vec::with_capacity(ra.len().min(rb.len()));
        while i < ra.len() && j < rb.len() {
            match ra[i].0.cmp(&rb[j].0) {
                Ordering::Less => i += 1,
                Ordering::Greater => j += 1,
                Ordering::Equal => {
                    rows.push((&*ra[i].1, &*rb[j].1));
                    i += 1;
                    j += 1;
                }
            }
        }
        Ok(Twins { a, b, rows })
    }

    /// How many twins.
    pub fn pairs(&self) -> u64 {
        self.rows.len() as u64
    }

    /// The per-match values of figure `id` in each batch, twin by twin.
    fn values(&self, id: &str) -> Option<(Vec<i64>, Vec<i64>)> {
        self.values_of(id, id)
    }

    /// The per-match values of figure `a` in the first batch and `b` in the second, twin
    /// by twin.
    fn values_of(&self, a: &str, b: &str) -> Option<(Vec<i64>, Vec<i64>)> {
        let (ca, cb) = (column(self.a, a)?, column(self.b, b)?);
        self.rows
            .iter()
            .map(|(ra, rb)| Some((ca.get(ra)?, cb.get(rb)?)))
            .collect::<Option<Vec<_>>>()
            .map(|v| v.into_iter().unzip())
    }

    /// The paired test of figure `id` of kind `kind`; None when the figure has no
    /// per-match values.
    pub fn test(&self, id: &str, kind: Kind) -> Option<Paired> {
        match kind {
            Kind::Mean => {
                let (a, b) = self.values(id)?;
                Some(mean_test(&differences(&a, &b)))
            }
            Kind::Share => {
                let (a, b) = self.values(id)?;
                Some(share_test(&differences(&a, &b)))
            }
            Kind::Ratio if id == conversion::ID => {
                let (ga, gb) = self.values("goals")?;
                let (ca, cb) = (self.a.conversion.as_ref()?, self.b.conversion.as_ref()?);
                let (sa, sb) = self.values_of(&ca.figure_id(), &cb.figure_id())?;
                Some(ratio_test(&ga, &sa, &gb, &sb))
            }
            Kind::Ratio => None,
        }
    }
}

fn differences(a: &[i64], b: &[i64]) -> Vec<i64> {
    a.iter().zip(b).map(|(x, y)| y - x).collect()
}

/// A paired result with nothing known but the count.
fn unknown(pairs: u64, test: &'static str) -> Paired {
    Paired {
        pairs,
        difference: None,
        sd: None,
        ci95: [None, None],
        test,
        statistic: None,
        p: None,
        p_holm: None,
        significant: false,
    }
}

/// The paired t test of per-match differences.
pub fn mean_test(d: &[i64]) -> Paired {
    const TEST: &str = "paired t";
    let n = d.len() as u64;
    if n < 2 {
        return unknown(n, TEST);
    }
    let (s, q) = d.iter().fold((0i128, 0i128), |(s, q), x| {
        (s + i128::from(*x), q + i128::from(*x) * i128::from(*x))
    });
    let nn = i128::from(n);
    let mean = s as f64 / n as f64;
    let sd = (((nn * q - s * s) as f64) / ((nn * (nn - 1)) as f64))
        .max(0.0)
        .sqrt();
    let se = sd / (n as f64).sqrt();
    let (ci, stat, p) = if se == 0.0 {
        // Every twin differs by the same amount: no doubt left.
        ([mean, mean], 0.0, if mean == 0.0 { 1.0 } else { 0.0 })
    } else {
        let df = (n - 1) as f64;
        let t = mean / se;
        let h = t_quantile_975(df) * se;
        ([mean - h, mean + h], t, t_two_sided(t, df))
    };
    Paired {
        pairs: n,
        difference: num(mean),
        sd: num(sd),
        ci95: [num(ci[0]), num(ci[1])],
        test: TEST,
        statistic: num(stat),
        p: num(p),
        p_holm: None,
        significant: false,
    }
}

/// McNemar's test of per-match differences of an event's indicator (each -1, 0 or 1).
pub fn share_test(d: &[i64]) -> Paired {
    const TEST: &str = "mcnemar z";
    let n = d.len() as u64;
    if n == 0 {
        return unknown(n, TEST);
    }
    let gained = d.iter().filter(|x| **x > 0).count() as f64;
    let lost = d.iter().filter(|x| **x < 0).count() as f64;
    let nf = n as f64;
    let mean = (gained - lost) / nf;
    let var = ((gained + lost) / nf - mean * mean).max(0.0);
    let se = (var / nf).sqrt();
    let (stat, p) = if gained + lost == 0.0 {
        (0.0, 1.0)
    } else {
        let z = (gained - lost) / (gained + lost).sqrt();
        (z, z_two_sided(z))
    };
    Paired {
        pairs: n,
        difference: num(mean),
        sd: num(var.sqrt()),
        ci95: [num(mean - Z95 * se), num(mean + Z95 * se)],
        test: TEST,
        statistic: num(stat),
        p: num(p),
        p_holm: None,
        significant: false,
    }
}

/// The paired test of a ratio of sums (goals per shot): `ga`, `sa` the first batch's
/// per-match numerators and denominators, `gb`, `sb` the second's, twin by twin.
pub fn ratio_test(ga: &[i64], sa: &[i64], gb: &[i64], sb: &[i64]) -> Paired {
    const TEST: &str = "paired z (delta method)";
    let n = ga.len().min(sa.len()).min(gb.len()).min(sb.len());
    let sum = |v: &[i64]| v[..n].iter().sum::<i64>() as f64;
    let (sum_sa, sum_sb) = (sum(sa), sum(sb));
    if n < 2 || sum_sa == 0.0 || sum_sb == 0.0 {
        return unknown(n as u64, TEST);
    }
    let nf = n as f64;
    let (ra, rb) = (sum(ga) / sum_sa, sum(gb) / sum_sb);
    let (mean_sa, mean_sb) = (sum_sa / nf, sum_sb / nf);
    // Each twin's delta-method term under b minus under a; their mean is 0 by construction.
    let ss: f64 = (0..n)
        .map(|i| {
            let ua = (ga[i] as f64 - ra * sa[i] as f64) / mean_sa;
            let ub = (gb[i] as f64 - rb * sb[i] as f64) / mean_sb;
            (ub - ua).powi(2)
        })
        .sum();
    let sd = (ss / (nf - 1.0)).sqrt();
    let se = sd / nf.sqrt();
    let d = rb - ra;
    let (stat, p) = if se == 0.0 {
        (0.0, if d == 0.0 { 1.0 } else { 0.0 })
    } else {
        let z = d / se;
        (z, z_two_sided(z))
    };
    Paired {
        pairs: n as u64,
        difference: num(d),
        sd: num(sd),
        ci95: [num(d - Z95 * se), num(d + Z95 * se)],
        test: TEST,
        statistic: num(stat),
        p: num(p),
        p_holm: None,
        significant: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_change_is_exactly_zero() {
        let m = mean_test(&[0; 50]);
        assert_eq!(m.difference, Some(0.0));
        assert_eq!(m.ci95, [Some(0.0), Some(0.0)]);
        assert_eq!(m.p, Some(1.0));
        let s = share_test(&[0; 50]);
        assert_eq!(
            (s.difference, s.ci95, s.p),
            (Some(0.0), [Some(0.0); 2], Some(1.0))
        );
        let g = [1, 0, 2, 0, 1];
        let sh = [3, 1, 4, 2, 2];
        let r = ratio_test(&g, &sh, &g, &sh);
        assert_eq!(
            (r.difference, r.ci95, r.p),
            (Some(0.0), [Some(0.0); 2], Some(1.0))
        );
    }

    #[test]
    fn the_paired_t_test_matches_a_worked_example() {
        // Differences 1, 2, 3, 4, 5: mean 3, sd √2.5, t = 3 / (√2.5/√5) = 4.2426, 4 df:
        // p = 0.0132, interval 3 ± 2.7764·0.7071 = 1.0367 to 4.9633.
        let m = mean_test(&[1, 2, 3, 4, 5]);
        assert_eq!(m.difference, Some(3.0));
        assert!((m.statistic.expect("t") - 4.242_641).abs() < 1e-5);
        assert!((m.p.expect("p") - 0.013_2).abs() < 1e-3, "{m:?}");
        assert!((m.ci95[0].expect("low") - 1.036_7).abs() < 1e-3);
        assert!((m.ci95[1].expect("high") - 4.963_3).abs() < 1e-3);
        // Too few twins: no interval, no panic.
        assert_eq!(mean_test(&[2]).p, None);
    }

    #[test]
    fn mcnemar_counts_only_the_discordant_twins() {
        // 10 twins gained the event, 2 lost it, 88 unchanged: z = 8/√12 = 2.309.
        let mut d = vec![1; 10];
        d.extend([-1, -1]);
        d.extend([0; 88]);
        let s = share_test(&d);
        assert!((s.difference.expect("d") - 0.08).abs() < 1e-12);
        assert!((s.statistic.expect("z") - 2.309_401).abs() < 1e-5);
        assert!((s.p.expect("p") - 0.020_9).abs() < 1e-3);
        let [lo, hi] = s.ci95;
        assert!(lo.expect("low") > 0.0 && hi.expect("high") < 0.16);
    }
}
