//! The distributions the figures' intervals and tests need: Student's t and the normal,
//! from the `statrs` crate, and Holm's adjustment of p-values.
//!
//! `statrs` is the maintained statistics crate of the Rust ecosystem (distributions,
//! special functions, no unsafe code); with its default features off it brings only
//! `approx` and `num-traits`. Its Student's t quantile inverts the incomplete beta with too
//! little precision for large degrees of freedom (5e-5 off at 200 000), so
//! [`t_quantile_975`] polishes it with Newton steps on the crate's own CDF.

use statrs::distribution::{Continuous, ContinuousCDF, Normal, StudentsT};

use super::Z95;

/// Student's t with `df` degrees of freedom, centred and unscaled (`None` unless df > 0).
fn students_t(df: f64) -> Option<StudentsT> {
    StudentsT::new(0.0, 1.0, df).ok()
}

/// The two-sided p-value of Student's t with `df` degrees of freedom.
pub fn t_two_sided(t: f64, df: f64) -> f64 {
    if !t.is_finite() || !df.is_finite() || df <= 0.0 {
        return if t.is_infinite() { 0.0 } else { f64::NAN };
    }
    students_t(df).map_or(f64::NAN, |d| 2.0 * d.sf(t.abs()))
}

/// The two-sided p-value of a standard normal z.
pub fn z_two_sided(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    2.0 * Normal::standard().sf(z.abs())
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom: the crate's quantile,
/// then Newton steps on its CDF until they no longer move it (at most eight).
pub fn t_quantile_975(df: f64) -> f64 {
    if df > 1e6 {
        return Z95;
    }
    let Some(d) = students_t(df) else {
        return f64::NAN;
    };
    let mut q = d.inverse_cdf(0.975);
    for _ in 0..8 {
        let step = (d.cdf(q) - 0.975) / d.pdf(q);
        q -= step;
        if step.abs() <= 1e-15 * q.abs() {
            break;
        }
    }
    q
}

/// Holm's step-down adjustment of p-values (NaN stays NaN and is not counted).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..p.len()).filter(|i| p[*i].is_finite()).collect();
    idx.sort_by(|a, b| p[*a].total_cmp(&p[*b]));
    let m = idx.len();
    let mut out = vec![f64::NAN; p.len()];
    let mut run: f64 = 0.0;
    for (rank, i) in idx.into_iter().enumerate() {
        run = run.max(((m - rank) as f64 * p[i]).min(1.0));
        out[i] = run;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn student_t_matches_tables() {
        // t(0.975) for 1, 10 and 100 degrees of freedom.
        assert!((t_quantile_975(1.0) - 12.706_2).abs() < 1e-3);
        assert!((t_quantile_975(10.0) - 2.228_1).abs() < 1e-3);
        assert!((t_quantile_975(100.0) - 1.984_0).abs() < 1e-3);
        assert!((z_two_sided(1.959_964) - 0.05).abs() < 1e-6);
        assert!((t_two_sided(2.0, 5.0) - 0.101_9).abs() < 1e-3);
    }

    #[test]
    fn student_t_quantile_is_exact_for_large_degrees_of_freedom() {
        // The 97.5% point of t(200 000), from its Cornish-Fisher expansion (to 1e-11):
        // z + (z^3 + z) / 4v + (5z^5 + 16z^3 + 3z) / 96v^2.
        assert!((t_quantile_975(200_000.0) - 1.959_975_845_967).abs() < 1e-9);
        for df in [1.0, 7.0, 99.0, 5_000.0, 50_000.0, 999_999.0] {
            let p = t_two_sided(t_quantile_975(df), df);
            assert!((p - 0.05).abs() < 1e-11, "df {df}: p {p}");
        }
    }

    #[test]
    fn holm_adjusts_step_down() {
        let a = holm(&[0.01, 0.04, 0.03, f64::NAN]);
        assert!((a[0] - 0.03).abs() < 1e-12);
        assert!((a[2] - 0.06).abs() < 1e-12);
        assert!((a[1] - 0.06).abs() < 1e-12);
        assert!(a[3].is_nan());
    }
}
