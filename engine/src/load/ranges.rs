//! Ranges checked when a ruleset loads: the numbers of `[match]`, within the limits of
//! [`crate::limits`] and consistent with each other, and the range each integer match
//! option declares (`min`, `max`), with the values set for a match. Every error is
//! located at the number concerned.

use toml::Spanned;

use crate::limits::{DEFAULT_TURNS_PER_HALF, MAX_HALVES, MAX_PIECES, MAX_TURNS_PER_HALF};
use crate::ruleset::diag::{Diagnostic, SourceFile};
use crate::ruleset::raw::{RawMatch, RawOption};
use crate::value::{Ty, Value};

/// The numbers of `[match]`, checked (an error leaves a usable value, so the rest of the
/// ruleset is still checked).
pub(super) struct MatchNumbers {
    /// Halves.
    pub halves: u32,
    /// Cap on turns per half.
    pub max_turns_per_half: u32,
    /// Pieces per team.
    pub pieces: u8,
    /// Lowest and highest ball value.
    pub ball_values: (i64, i64),
    /// Cap on pieces counted in an area (0: none).
    pub count_cap: i64,
}

/// The span of a value, as the diagnostics take it.
fn span_of<T>(s: &Spanned<T>) -> (usize, usize) {
    (s.span().start, s.span().end)
}

/// `[match] key`, or `default` when not given; an error when outside `lo..=hi`.
fn within(
    key: &str,
    v: Option<&Spanned<i64>>,
    default: i64,
    (lo, hi, limit): (i64, i64, &str),
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) -> i64 {
    let Some(s) = v else { return default };
    let n = *s.get_ref();
    if !(lo..=hi).contains(&n) {
        let d = Diagnostic::error(format!("match.{key} must be {lo} to {hi}, found {n}"))
            .at(file, span_of(s));
        errors.push(if limit.is_empty() {
            d
        } else {
            d.hint(format!("{hi} is `{limit}` in engine/src/limits.rs"))
        });
    }
    n.clamp(lo, hi)
}

/// Checks the numbers of `[match]`.
pub(super) fn match_numbers(
    m: &RawMatch,
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) -> MatchNumbers {
    let halves = within(
        "halves",
        m.halves.as_ref(),
        2,
        (1, MAX_HALVES, "MAX_HALVES"),
        file,
        errors,
    );
    let turns = within(
        "max_turns_per_half",
        m.max_turns_per_half.as_ref(),
        DEFAULT_TURNS_PER_HALF,
        (1, MAX_TURNS_PER_HALF, "MAX_TURNS_PER_HALF"),
        file,
        errors,
    );
    let pieces = within(
        "pieces",
        m.pieces.as_ref(),
        11,
        (1, MAX_PIECES, "MAX_PIECES"),
        file,
        errors,
    );
    let mut ball_values = (1, 6);
    if let Some(s) = &m.ball_values {
        let [lo, hi] = *s.get_ref();
        if lo > hi {
            errors.push(
                Diagnostic::error(format!(
                    "match.ball_values is [lowest, highest]: found [{lo}, {hi}], the lowest above the highest"
                ))
                .at(file, span_of(s))
                .hint(format!("write [{hi}, {lo}]")),
            );
        }
        ball_values = (lo.min(hi), lo.max(hi));
    }
    let count_cap = match &m.count_cap {
        Some(s) if !(0..=pieces).contains(s.get_ref()) => {
            errors.push(
                Diagnostic::error(format!(
                    "match.count_cap must be 0 (no cap) to match.pieces ({pieces}), found {}",
                    s.get_ref()
                ))
                .at(file, span_of(s)),
            );
            0
        }
        Some(s) => *s.get_ref(),
        None => 0,
    };
    super::needs::check(m, (halves, turns, pieces, count_cap), file, errors);
    super::needs::check_ball_values(m, ball_values, file, errors);
    MatchNumbers {
        halves: halves as u32,
        max_turns_per_half: turns as u32,
        pieces: pieces as u8,
        ball_values,
        count_cap,
    }
}

/// The range an option declares: required of an integer option, refused on any other;
/// its default must lie in it.
pub(super) fn option_range(
    name: &str,
    o: &RawOption,
    ty: Ty,
    default: &Value,
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) -> Option<(i64, i64)> {
    if ty != Ty::Int {
        for s in [&o.min, &o.max].into_iter().flatten() {
            errors.push(
                Diagnostic::error(format!(
                    "option `{name}`: only an integer option has a range (`min`, `max`)"
                ))
                .at(file, span_of(s)),
            );
        }
        return None;
    }
    let (Some(min), Some(max)) = (&o.min, &o.max) else {
        errors.push(
            Diagnostic::error(format!(
                "option `{name}` is an integer: give its range with `min` and `max`"
            ))
            .at(file, span_of(&o.default))
            .hint("for example `min = 0` and `max = 6` under the option's `default`"),
        );
        return None;
    };
    let (lo, hi) = (*min.get_ref(), *max.get_ref());
    if lo > hi {
        errors.push(
            Diagnostic::error(format!(
                "option `{name}`: `min` ({lo}) is above `max` ({hi})"
            ))
            .at(file, span_of(min)),
        );
        return None;
    }
    if let Value::Int(d) = default {
        if !(lo..=hi).contains(d) {
            errors.push(
                Diagnostic::error(format!(
                    "option `{name}`: the default {d} is outside its range, {lo} to {hi}"
                ))
                .at(file, span_of(&o.default)),
            );
            return None;
        }
    }
    Some((lo, hi))
}

/// An error when the value set for option `name` lies outside its range; located at the
/// option's declaration.
pub(super) fn check_set(
    name: &str,
    value: &Value,
    range: Option<(i64, i64)>,
    o: &RawOption,
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) {
    if let (Value::Int(v), Some((lo, hi))) = (value, range) {
        if !(lo..=hi).contains(v) {
            errors.push(
                Diagnostic::error(format!("option `{name}={v}`: `{name}` takes {lo} to {hi}"))
                    .at(file, span_of(&o.default))
                    .hint(o.doc.clone()),
            );
        }
    }
}
