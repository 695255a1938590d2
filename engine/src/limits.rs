//! Every limit on what fuba reads, loads and runs, in one place, on in every build: the
//! defaults of the limits on running rules ([`crate::vm::Limits`], which a match may be
//! given others) are the constants below; the parser's are in `grammar/src/limits.rs`
//! (the grammar crate stands below the engine), re-exported here; the board's largest
//! number of areas is [`crate::board::MAX_AREAS`]. `docs/limits.md` lists them
//! all, and `tests/limits.rs` checks that page against these values; the tests below
//! check every other page that states a limit.

pub use fuba_grammar::limits::{MAX_CODE_BYTES, MAX_NESTING, MAX_TREE_DEPTH};

/// Largest ruleset file (a layer or an included fragment), in bytes: 1 MiB, about
/// fifteen times the largest edition file.
pub const MAX_RULESET_FILE_BYTES: u64 = 1 << 20;

/// Largest ruleset, every layer and included file together, in bytes: 4 MiB.
pub const MAX_RULESET_BYTES: u64 = 4 << 20;

/// Largest scenario file, in bytes: 1 MiB.
pub const MAX_SCENARIO_BYTES: u64 = 1 << 20;

/// Largest match log read (`fuba replay`, `fuba explain`), in bytes: 64 MiB, about ninety
/// times the log of a whole 2024 match.
pub const MAX_LOG_BYTES: u64 = 64 << 20;

/// Largest batch result read by `fuba merge` (`fuba simulate --format json`), in bytes:
/// 64 MiB.
pub const MAX_RESULT_BYTES: u64 = 64 << 20;

/// Most rulesets stacked by `extends`, the edition at the bottom included: an edition and
/// seven house rules on it.
pub const MAX_LAYERS: usize = 8;

/// Most files included (`[meta] include`) by the layers of a ruleset, together.
pub const MAX_INCLUDES: usize = 32;

/// Most halves a match may have (`[match] halves`, at least 1).
pub const MAX_HALVES: i64 = 10;

/// Largest cap on turns per half (`[match] max_turns_per_half`, at least 1).
pub const MAX_TURNS_PER_HALF: i64 = 100_000;

/// Most pieces per team, goalkeeper included (`[match] pieces`, at least 1).
pub const MAX_PIECES: i64 = 16;

/// The cap on turns per half of a ruleset that gives none (`[match] max_turns_per_half`).
pub const DEFAULT_TURNS_PER_HALF: i64 = 500;

/// Host stack left when compiling a piece of code grows the stack: 256 KiB. The loader
/// compiles the procedures a procedure calls before it, so compiling nests as deep as
/// the longest chain of calls, and expressions nest within each; the stack is checked at
/// every procedure, table row and expression, so one level's frames (large in a debug
/// build) always fit in this zone.
pub const COMPILE_STACK_RED_ZONE: usize = 256 * 1024;

/// Host stack added each time compiling grows the stack: 4 MiB.
pub const COMPILE_STACK_GROWTH: usize = 4 * 1024 * 1024;

/// Operations per stage: calls, table rows and rounds of loops.
pub const OPS_PER_STAGE: u64 = 1_000_000;

/// Largest `repeat` count.
pub const MAX_REPEAT: i64 = 64;

/// Deepest nesting of procedure calls, table rows and triggers.
pub const MAX_CALL_DEPTH: u32 = 32;

/// Most events a turn may record when the match is logged (a normal turn records a few
/// dozen, the largest seen about 200).
pub const EVENTS_PER_TURN: u32 = 10_000;

/// Most events a match may record when it is logged (a normal match records about 3,000);
/// keeps a log within [`MAX_LOG_BYTES`].
pub const EVENTS_PER_MATCH: u32 = 200_000;

#[cfg(test)]
mod tests {
    //! Every page of the documentation that states a limit states the code's: a limit
    //! changed here and not there fails. (`docs/limits.md`, the table of them all, is
    //! checked row by row by `tests/limits.rs`.)

    use super::*;
    use crate::files::size_text;
    use crate::vm::Limits;

    /// A page of `docs/`, its lines joined and its spaces collapsed, so that a phrase
    /// matches wherever the page wraps it.
    fn page(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../docs")
            .join(name);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// A count as the pages write it: `100,000`.
    fn count(n: u64) -> String {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    }

    /// Fails unless `docs/NAME` says each of `phrases`.
    fn says(name: &str, phrases: &[String]) {
        let text = page(name);
        for p in phrases {
            assert!(
                text.contains(p.as_str()),
                "docs/{name} does not say `{p}`: a limit in engine/src/limits.rs changed and the page did not, or the page was reworded"
            );
        }
    }

    #[test]
    fn the_pages_that_state_a_limit_state_the_codes() {
        let run = Limits::default();
        assert_eq!(
            (run.ops_per_stage, run.max_repeat, run.max_call_depth),
            (OPS_PER_STAGE, MAX_REPEAT, MAX_CALL_DEPTH)
        );
        assert_eq!(
            (run.events_per_turn, run.events_per_match),
            (EVENTS_PER_TURN, EVENTS_PER_MATCH)
        );
        let ops = count(OPS_PER_STAGE);
        let turn_events = count(u64::from(EVENTS_PER_TURN));
        let match_events = count(u64::from(EVENTS_PER_MATCH));
        says(
            "effect-language.md",
            &[
                format!("at most the limit `max_repeat` ({MAX_REPEAT})"),
                format!("| open brackets (`(`, `[`, `{{` not yet closed) | {MAX_NESTING} |"),
                format!(
                    "| depth of the syntax tree (each operator of a chain, `else if`, `not`, block, bracket) | {MAX_TREE_DEPTH} |"
                ),
                format!("| `repeat` count | {MAX_REPEAT} |"),
                format!("| procedure call depth (including hooks) | {MAX_CALL_DEPTH} |"),
                format!("| operations per stage | {ops} |"),
                format!("| turns per half | {DEFAULT_TURNS_PER_HALF} |"),
            ],
        );
        says(
            "architecture.md",
            &[
                format!("(`ops_per_stage`, {ops};"),
                format!("the largest `repeat` count ({MAX_REPEAT})"),
                format!("calls, table rows and triggers ({MAX_CALL_DEPTH};"),
                format!("(`events_per_turn`, {turn_events})"),
                format!("(`events_per_match`, {match_events})"),
            ],
        );
        says(
            "log-format.md",
            &[format!(
                "at most {match_events} events, at most {turn_events} in one turn"
            )],
        );
        says(
            "house-rules.md",
            &[format!("(at most {MAX_LAYERS} layers)")],
        );
        says(
            "ruleset-format.md",
            &[
                format!(
                    "a regular file of at most {}, and a ruleset with all its layers and included files at most {}",
                    size_text(MAX_RULESET_FILE_BYTES),
                    size_text(MAX_RULESET_BYTES)
                ),
                format!("up to {MAX_LAYERS} rulesets"),
                format!("most {MAX_INCLUDES} included files, `MAX_INCLUDES`"),
                format!("(1 to {} areas)", crate::board::MAX_AREAS),
                format!("0 or more than {} areas", crate::board::MAX_AREAS),
                format!(
                    "brackets nested deeper than {MAX_NESTING} and syntax trees deeper than {MAX_TREE_DEPTH}"
                ),
                format!("1 to {MAX_HALVES} (`MAX_HALVES`)"),
                format!("| `max_turns_per_half` | integer | {DEFAULT_TURNS_PER_HALF} |"),
                format!(
                    "1 to {} (`MAX_TURNS_PER_HALF`)",
                    count(MAX_TURNS_PER_HALF as u64)
                ),
                format!("1 to {MAX_PIECES} (`MAX_PIECES`)"),
            ],
        );
        says(
            "limits.md",
            &[
                format!("brackets nest deeper than {MAX_NESTING} levels"),
                format!("code nests deeper than {MAX_TREE_DEPTH} levels of the syntax tree"),
                format!("more than {EVENTS_PER_TURN} events in one turn"),
                format!("{match_events} events make a log"),
                format!(
                    "can emit {MAX_REPEAT} × {MAX_REPEAT} × {MAX_REPEAT} = {} events in a turn",
                    count((MAX_REPEAT * MAX_REPEAT * MAX_REPEAT) as u64)
                ),
                format!("| {DEFAULT_TURNS_PER_HALF} | `DEFAULT_TURNS_PER_HALF` |"),
                format!(
                    "less than {} is left",
                    size_text(COMPILE_STACK_RED_ZONE as u64)
                ),
                format!("grows by {}", size_text(COMPILE_STACK_GROWTH as u64)),
            ],
        );
    }
}
