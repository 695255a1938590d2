//! The distributions the figures' intervals and tests need: Student's t, the normal, and
//! Holm's adjustment of p-values. Written out here (no statistics crate): ln Γ by Lanczos,
//! the regularized incomplete beta by Lentz's continued fraction, erfc by a Chebyshev fit.

use super::Z95;

/// ln Γ(x), Lanczos approximation (g = 7, n = 9), |error| < 1e-14 for x > 0.
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularized incomplete beta function I_x(a, b) (continued fraction, Lentz).
pub fn inc_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x > (a + 1.0) / (a + b + 2.0) {
        return 1.0 - inc_beta(b, a, 1.0 - x);
    }
    let tiny = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < tiny {
        d = tiny;
    }
    d = 1.0 / d;
    let mut f = d;
    for m in 1..300 {
        let m = f64::from(m);
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        for num in [even, odd] {
            d = 1.0 + num * d;
            if d.abs() < tiny {
                d = tiny;
            }
            c = 1.0 + num / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            f *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    front * f / a
}

/// The two-sided p-value of Student's t with `df` degrees of freedom.
pub fn t_two_sided(t: f64, df: f64) -> f64 {
    if !t.is_finite() || !df.is_finite() || df <= 0.0 {
        return if t.is_infinite() { 0.0 } else { f64::NAN };
    }
    inc_beta(df / 2.0, 0.5, df / (df + t * t))
}

/// The two-sided p-value of a standard normal z.
pub fn z_two_sided(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    erfc(z.abs() / std::f64::consts::SQRT_2)
}

/// erfc(x) for x ≥ 0 (Numerical Recipes' Chebyshev fit; relative error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (bisection on the CDF).
pub fn t_quantile_975(df: f64) -> f64 {
    if df > 1e6 {
        return Z95;
    }
    let (mut lo, mut hi) = (0.0, 1000.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if t_two_sided(mid, df) > 0.05 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
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
    fn holm_adjusts_step_down() {
        let a = holm(&[0.01, 0.04, 0.03, f64::NAN]);
        assert!((a[0] - 0.03).abs() < 1e-12);
        assert!((a[2] - 0.06).abs() < 1e-12);
        assert!((a[1] - 0.06).abs() < 1e-12);
        assert!(a[3].is_nan());
    }
}
