//! A batch whose first matches all fail stops there, with one error: a ruleset that
//! cannot play a match (a rule error on every seed) is not worth a table of dashes, a
//! "never ran" list and a copy of the same error per match.

use crate::error::CliError;
use crate::stats::Tally;

/// How many matches of a batch (of its shard) are played before the rest: when every one
/// of them fails, the batch stops.
pub const PROBE: u64 = 10;

/// The error of a batch that stopped because its first matches all failed: the first
/// failure (the lowest match index) with its seed and how to replay it, and how many of
/// the others stopped with the same error.
pub fn every_match_failed(t: &Tally, rules: &str) -> CliError {
    let Some(first) = t.failures.iter().min_by_key(|f| f.index) else {
        return CliError::Failure("the batch stopped before any match was played".into());
    };
    let n = t.failures.len();
    let same = t.failures.iter().filter(|f| f.error == first.error).count();
    let others = match n - same {
        0 if n == 1 => String::new(),
        0 => format!(" (the other {} stopped with the same error)", n - 1),
        d => format!(
            " ({} of the others stopped with the same error, {d} with other errors)",
            same - 1
        ),
    };
    let (lead, rest) = first
        .error
        .split_once('\n')
        .map_or((first.error.as_str(), ""), |(a, b)| (a, b));
    let rest = if rest.is_empty() {
        String::new()
    } else {
        format!("\n{rest}")
    };
    let what = if n == 1 && t.batch.games == 1 {
        "the match failed".to_string()
    } else if n as u64 >= t.batch.games {
        format!("all {n} matches failed")
    } else {
        format!("the first {n} matches all failed, so the batch stopped")
    };
    CliError::Failure(format!(
        "{rules}: {what}{others}; match {} (seed {}) failed: {lead}{rest}\n  \
         = help: replay it with `fuba play --rules {rules} --seed {}`",
        first.index, first.seed, first.seed
    ))
}
