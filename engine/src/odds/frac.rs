//! Exact probabilities of any size: a numerator of unbounded size over a denominator kept
//! as its prime factors, always reduced.
//!
//! Every denominator the enumeration meets is a product of the dice's sides and of the
//! numbers of options a policy splits between, so it is kept as `(prime, exponent)` pairs:
//! multiplying adds exponents, adding brings both to the larger exponent of each prime,
//! and reducing divides the numerator by those primes while it can. A path through a long
//! reroll loop (thirty sixes in a row) is still exact; the numbers only grow with the depth
//! of the tree walked, which the enumeration's bound keeps finite.

use std::cmp::Ordering;
use std::fmt;

/// An unsigned integer of any size: 32-bit limbs, least significant first, no leading
/// zero limbs (zero is no limbs).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(x: u64) -> Big {
        let mut b = Big(vec![x as u32, (x >> 32) as u32]);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn mul_small(&self, k: u64) -> Big {
        let mut out = Vec::with_capacity(self.0.len() + 2);
        let mut carry = 0u128;
        for &l in &self.0 {
            let x = u128::from(l) * u128::from(k) + carry;
            out.push(x as u32);
            carry = x >> 32;
        }
        out.push(carry as u32);
        out.push((carry >> 32) as u32);
        let mut b = Big(out);
        b.trim();
        b
    }

    fn mul(&self, o: &Big) -> Big {
        if self.is_zero() || o.is_zero() {
            return Big::default();
        }
        let mut out = vec![0u32; self.0.len() + o.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                let x = u64::from(a) * u64::from(b) + u64::from(out[i + j]) + carry;
                out[i + j] = x as u32;
                carry = x >> 32;
            }
            out[i + o.0.len()] = carry as u32;
        }
        let mut b = Big(out);
        b.trim();
        b
    }

    fn add(&self, o: &Big) -> Big {
        let n = self.0.len().max(o.0.len());
        let mut out = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let x = u64::from(self.0.get(i).copied().unwrap_or(0))
                + u64::from(o.0.get(i).copied().unwrap_or(0))
                + carry;
            out.push(x as u32);
            carry = x >> 32;
        }
        out.push(carry as u32);
        let mut b = Big(out);
        b.trim();
        b
    }

    /// The quotient and remainder by `k` (> 0).
    fn divrem_small(&self, k: u64) -> (Big, u64) {
        let k = u128::from(k.max(1));
        let mut out = vec![0u32; self.0.len()];
        let mut rem = 0u128;
        for i in (0..self.0.len()).rev() {
            let x = (rem << 32) | u128::from(self.0[i]);
            out[i] = (x / k) as u32;
            rem = x % k;
        }
        let mut b = Big(out);
        b.trim();
        (b, rem as u64)
    }

    fn cmp(&self, o: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }

    /// `(m, e)` with the value about `m · 2^e`, `m` below 2^64.
    fn approx(&self) -> (f64, i32) {
        let n = self.0.len();
        if n <= 2 {
            let lo = self.0.first().copied().map_or(0, u64::from);
            let hi = self.0.get(1).copied().map_or(0, u64::from);
            return (((hi << 32) | lo) as f64, 0);
        }
        let top = (u64::from(self.0[n - 1]) << 32) | u64::from(self.0[n - 2]);
        (top as f64, 32 * (n as i32 - 2))
    }

    fn decimal(&self) -> String {
        if self.is_zero() {
            return "0".into();
        }
        let mut parts = Vec::new();
        let mut x = self.clone();
        while !x.is_zero() {
            let (q, r) = x.divrem_small(1_000_000_000);
            parts.push(r);
            x = q;
        }
        let mut s = parts.pop().map_or_else(String::new, |p| p.to_string());
        for p in parts.iter().rev() {
            s.push_str(&format!("{p:09}"));
        }
        s
    }
}

/// An exact probability (a non-negative rational), always reduced, so equal values are
/// equal as data.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Frac {
    num: Big,
    /// The denominator's prime factors, smallest first, exponents above 0.
    den: Vec<(u64, u32)>,
}

/// Trial division goes this far; a cofactor left above it (no denominator the
/// enumeration builds has one: they are products of dice sides and option counts) is kept
/// as one factor, which leaves values exact but may leave equal values unequal as data.
const TRIAL: u64 = 1 << 20;

/// The prime factors of `n`.
fn factor(mut n: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut p = 2u64;
    while p <= TRIAL && p * p <= n {
        let mut e = 0;
        while n % p == 0 {
            n /= p;
            e += 1;
        }
        if e > 0 {
            out.push((p, e));
        }
        p += if p == 2 { 1 } else { 2 };
    }
    if n > 1 {
        out.push((n, 1));
    }
    out
}

impl Frac {
    /// 0.
    pub fn zero() -> Frac {
        Frac {
            num: Big::default(),
            den: Vec::new(),
        }
    }

    /// 1.
    pub fn one() -> Frac {
        Frac::new(1, 1)
    }

    /// `num / den`, reduced (a 0 denominator is read as 1).
    pub fn new(num: u64, den: u64) -> Frac {
        let mut f = Frac {
            num: Big::from_u64(num),
            den: factor(den.max(1)),
        };
        f.reduce();
        f
    }

    /// Divides the numerator by the denominator's primes while it can.
    fn reduce(&mut self) {
        if self.num.is_zero() {
            self.den.clear();
            return;
        }
        for (p, e) in &mut self.den {
            while *e > 0 {
                let (q, r) = self.num.divrem_small(*p);
                if r != 0 {
                    break;
                }
                self.num = q;
                *e -= 1;
            }
        }
        self.den.retain(|(_, e)| *e > 0);
    }

    /// The denominator as a number.
    fn den_big(&self) -> Big {
        let mut d = Big::from_u64(1);
        for (p, e) in &self.den {
            for _ in 0..*e {
                d = d.mul_small(*p);
            }
        }
        d
    }

    /// The product.
    pub fn mul(&self, o: &Frac) -> Frac {
        let mut den = self.den.clone();
        for &(p, e) in &o.den {
            match den.binary_search_by_key(&p, |x| x.0) {
                Ok(i) => den[i].1 += e,
                Err(i) => den.insert(i, (p, e)),
            }
        }
        let mut f = Frac {
            num: self.num.mul(&o.num),
            den,
        };
        f.reduce();
        f
    }

    /// The product with a whole number.
    pub fn times(&self, k: u64) -> Frac {
        let mut f = Frac {
            num: self.num.mul_small(k),
            den: self.den.clone(),
        };
        f.reduce();
        f
    }

    /// The sum.
    pub fn add(&self, o: &Frac) -> Frac {
        // Each numerator times the primes its denominator lacks of the common one.
        let mut den: Vec<(u64, u32)> = Vec::with_capacity(self.den.len() + o.den.len());
        let (mut a, mut b) = (self.num.clone(), o.num.clone());
        let (mut i, mut j) = (0, 0);
        let raise = |x: &mut Big, p: u64, by: u32| {
            for _ in 0..by {
                *x = x.mul_small(p);
            }
        };
        while i < self.den.len() || j < o.den.len() {
            let x = self.den.get(i).copied();
            let y = o.den.get(j).copied();
            match (x, y) {
                (Some((p, e)), Some((q, f))) if p == q => {
                    raise(&mut a, p, e.max(f) - e);
                    raise(&mut b, p, e.max(f) - f);
                    den.push((p, e.max(f)));
                    i += 1;
                    j += 1;
                }
                (Some((p, e)), Some((q, _))) if p < q => {
                    raise(&mut b, p, e);
                    den.push((p, e));
                    i += 1;
                }
                (Some((p, e)), None) => {
                    raise(&mut b, p, e);
                    den.push((p, e));
                    i += 1;
                }
                (_, Some((q, f))) => {
                    raise(&mut a, q, f);
                    den.push((q, f));
                    j += 1;
                }
                (None, None) => break,
            }
        }
        let mut f = Frac {
            num: a.add(&b),
            den,
        };
        f.reduce();
        f
    }

    /// The numerator, in decimal.
    pub fn numerator(&self) -> String {
        self.num.decimal()
    }

    /// The denominator, in decimal.
    pub fn denominator(&self) -> String {
        self.den_big().decimal()
    }

    /// As a float (for printing and for tests; never used for the exact part).
    pub fn value(&self) -> f64 {
        let (n, en) = self.num.approx();
        let (d, ed) = self.den_big().approx();
        n / d * 2f64.powi(en - ed)
    }

    /// Whether it is 0.
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }
}

impl PartialOrd for Frac {
    fn partial_cmp(&self, o: &Frac) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Frac {
    /// Compared exactly, by cross products.
    fn cmp(&self, o: &Frac) -> Ordering {
        self.num.mul(&o.den_big()).cmp(&o.num.mul(&self.den_big()))
    }
}

impl fmt::Display for Frac {
    /// `0`, `1`, or `num/den`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den.is_empty() {
            write!(f, "{}", self.num.decimal())
        } else {
            write!(f, "{}/{}", self.num.decimal(), self.den_big().decimal())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_products_stay_reduced() {
        let sixth = Frac::new(1, 6);
        let mut s = Frac::zero();
        for _ in 0..6 {
            s = s.add(&sixth);
        }
        assert_eq!(s, Frac::one());
        assert_eq!(Frac::new(2, 3).mul(&Frac::new(3, 4)), Frac::new(1, 2));
        assert_eq!(Frac::new(4, 8).to_string(), "1/2");
        assert_eq!(Frac::new(1, 6).add(&Frac::new(1, 10)).to_string(), "4/15");
        assert!(Frac::new(1, 3) < Frac::new(1, 2));
        assert_eq!(Frac::new(0, 5), Frac::zero());
        assert_eq!(Frac::new(1, 7).times(14).to_string(), "2");
    }

    #[test]
    fn long_paths_stay_exact() {
        // Forty sixes in a row, and the rest of the mass: the sum is exactly 1.
        let sixth = Frac::new(1, 6);
        let mut p = Frac::one();
        for _ in 0..40 {
            p = p.mul(&sixth);
        }
        assert_eq!(p.denominator(), "13367494538843734067838845976576");
        let rest = Frac::new(1, 1).add(&Frac::zero());
        let mut missing = Frac::zero();
        let mut q = Frac::one();
        for _ in 0..40 {
            missing = missing.add(&q.mul(&Frac::new(5, 6)));
            q = q.mul(&sixth);
        }
        assert_eq!(missing.add(&p), rest);
        assert!((p.value() - 6f64.powi(-40)).abs() < 1e-40);
        assert!((Frac::new(1, 3).value() - 1.0 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn big_numbers_print_in_decimal() {
        let b = Big::from_u64(u64::MAX).mul(&Big::from_u64(u64::MAX));
        assert_eq!(b.decimal(), "340282366920938463426481119284349108225");
        assert_eq!(factor(360), vec![(2, 3), (3, 2), (5, 1)]);
        assert_eq!(factor(97), vec![(97, 1)]);
    }
}
