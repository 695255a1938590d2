//! `[match.needs.KEY]`: what a ruleset's rules need of a number of `[match]`, with the
//! reason. A layer that sets the number outside is refused when the ruleset loads, with
//! an error at the number it set and the reason, rather than passing the check and
//! failing every match. The engine knows nothing of why: the edition's file says.
//!
//! ```toml
//! [match.needs.pieces]
//! at_least = 3
//! why = "3.3.1: a kick-off places two players in the centre circle besides the goalkeeper"
//!
//! [match.needs.ball_values]
//! covers = [1, 6]
//! why = "4.5.1: the new ball value is a die roll, 1 to 6"
//! ```

use toml::Spanned;

use crate::ruleset::diag::{Diagnostic, SourceFile};
use crate::ruleset::raw::{RawMatch, RawNeed};

/// The integer keys of `[match]` a need may bound.
const NUMBERS: [&str; 4] = ["halves", "max_turns_per_half", "pieces", "count_cap"];

fn span_of<T>(s: &Spanned<T>) -> (usize, usize) {
    (s.span().start, s.span().end)
}

/// `FILE:LINE:COL` of an offset.
fn place(file: &SourceFile, offset: usize) -> String {
    let (l, c) = file.line_col(offset);
    format!("{}:{l}:{c}", file.shown_at(offset))
}

/// The error for `[match] key` outside what `need` allows: at the number when a layer
/// set it, else at the need.
fn refuse(
    key: &str,
    what: String,
    at: Option<(usize, usize)>,
    need: &RawNeed,
    file: &SourceFile,
) -> Diagnostic {
    let declared = place(file, need.why.span().start);
    Diagnostic::error(format!(
        "match.{key} {what}: these rules need {}",
        need.why.get_ref()
    ))
    .at(file, at.unwrap_or_else(|| span_of(&need.why)))
    .hint(format!(
        "the need is declared in [match.needs.{key}] at {declared}; a layer that rewrites the rules concerned may replace it"
    ))
}

/// Checks the integer numbers of `[match]` (`halves`, `max_turns_per_half`, `pieces`,
/// `count_cap`, as checked by `ranges.rs`) against the needs declared, and the needs
/// themselves.
pub(super) fn check(
    m: &RawMatch,
    (halves, turns, pieces, count_cap): (i64, i64, i64, i64),
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) {
    for (key, need) in &m.needs {
        if need.why.get_ref().trim().is_empty() {
            errors.push(
                Diagnostic::error(format!("[match.needs.{key}] gives no reason"))
                    .at(file, span_of(&need.why))
                    .hint("`why` is what a designer reads when a layer breaks the need: the rule and what it does with the number"),
            );
        }
        let (value, given) = match key.as_str() {
            "halves" => (halves, m.halves.as_ref()),
            "max_turns_per_half" => (turns, m.max_turns_per_half.as_ref()),
            "pieces" => (pieces, m.pieces.as_ref()),
            "count_cap" => (count_cap, m.count_cap.as_ref()),
            "ball_values" => {
                if need.at_least.is_some() || need.at_most.is_some() || need.covers.is_none() {
                    errors.push(
                        Diagnostic::error("[match.needs.ball_values] takes `covers = [low, high]`, the values the rules may give the ball")
                            .at(file, span_of(&need.why)),
                    );
                }
                continue;
            }
            _ => {
                errors.push(
                    Diagnostic::error(format!(
                        "[match.needs.{key}]: `{key}` is not a number of [match]"
                    ))
                    .at(file, span_of(&need.why))
                    .hint(format!(
                        "a need bounds one of {}, or ball_values",
                        NUMBERS.join(", ")
                    )),
                );
                continue;
            }
        };
        if need.covers.is_some() {
            errors.push(
                Diagnostic::error(format!(
                    "[match.needs.{key}]: `covers` is for ball_values; bound a number with `at_least` and `at_most`"
                ))
                .at(file, span_of(&need.why)),
            );
        }
        let at = given.map(span_of);
        if let Some(lo) = &need.at_least {
            if value < *lo.get_ref() {
                let what = format!("= {value} is below {}", lo.get_ref());
                errors.push(refuse(key, what, at, need, file));
            }
        }
        if let Some(hi) = &need.at_most {
            if value > *hi.get_ref() {
                let what = format!("= {value} is above {}", hi.get_ref());
                errors.push(refuse(key, what, at, need, file));
            }
        }
    }
}

/// Checks `[match] ball_values` against `[match.needs.ball_values] covers`.
pub(super) fn check_ball_values(
    m: &RawMatch,
    (lo, hi): (i64, i64),
    file: &SourceFile,
    errors: &mut Vec<Diagnostic>,
) {
    let Some(need) = m.needs.get("ball_values") else {
        return;
    };
    let Some(covers) = &need.covers else { return };
    let [a, b] = *covers.get_ref();
    if lo > a.min(b) || hi < a.max(b) {
        let what = format!("= [{lo}, {hi}] does not include {a} to {b}");
        let at = m.ball_values.as_ref().map(span_of);
        errors.push(refuse("ball_values", what, at, need, file));
    }
}
