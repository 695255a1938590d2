//! Randomly damaged rulesets: byte flips, deleted, swapped and duplicated lines, changed
//! numbers in each edition's file go through the loader (`fuba rules check`) and, when
//! they load, a short match with random choices and dice. Nothing may panic or hang, and
//! memory stays within the engine's limits: a broken ruleset is a diagnostic or a run
//! error, never a crash.
//!
//! Each case is a proptest case: a failure prints the mutation and its seed, and proptest
//! keeps it in `tests/mutations.proptest-regressions` (commit it) to be tried first from
//! then on. The
//! suite runs `FUBA_MUTATIONS` cases per edition: 24 by default (a debug build, the
//! README's `cargo test --workspace`), 300 in CI's release run (`.ci/run`); for a longer
//! hunt, in a release build:
//!
//! ```sh
//! FUBA_MUTATIONS=20000 cargo test --release -p fuba-tests --test mutations
//! ```

use std::path::Path;

use fuba_engine::load::load_str;
use fuba_tests::short_match;
use proptest::prelude::*;

/// One way to damage a file.
#[derive(Debug, Clone)]
enum Mutation {
    /// Flip the bits of `mask` in the byte at (the fraction of the file) `at`.
    FlipByte { at: f64, mask: u8 },
    /// Delete the line at `at`.
    DeleteLine { at: f64 },
    /// Swap the lines at `a` and `b`.
    SwapLines { a: f64, b: f64 },
    /// Write the line at `at` twice.
    DuplicateLine { at: f64 },
    /// Replace the `nth` number (modulo how many there are) by `value`.
    ChangeNumber { nth: usize, value: i64 },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let frac = 0.0..1.0f64;
    let values = prop_oneof![
        Just(0i64),
        Just(-1),
        Just(1),
        Just(7),
        Just(99),
        Just(100_000),
        Just(i64::from(i32::MAX)),
        -50i64..50,
    ];
    prop_oneof![
        (frac.clone(), 1u8..=255).prop_map(|(at, mask)| Mutation::FlipByte { at, mask }),
        frac.clone().prop_map(|at| Mutation::DeleteLine { at }),
        (frac.clone(), frac.clone()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
        frac.clone().prop_map(|at| Mutation::DuplicateLine { at }),
        (any::<usize>(), values).prop_map(|(nth, value)| Mutation::ChangeNumber { nth, value }),
    ]
}

fn index(len: usize, at: f64) -> usize {
    ((len as f64 * at) as usize).min(len.saturating_sub(1))
}

/// `text` damaged by `m`.
fn apply(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    match m {
        Mutation::FlipByte { at, mask } => {
            let mut bytes = text.as_bytes().to_vec();
            let i = index(bytes.len(), *at);
            bytes[i] ^= mask;
            // A file that is no longer UTF-8 is refused with its byte offset; the text
            // loaded here must be a `str`, so keep the damage valid UTF-8.
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        Mutation::DeleteLine { at } => {
            lines.remove(index(lines.len(), *at));
        }
        Mutation::SwapLines { a, b } => {
            let (i, j) = (index(lines.len(), *a), index(lines.len(), *b));
            lines.swap(i, j);
        }
        Mutation::DuplicateLine { at } => {
            let i = index(lines.len(), *at);
            lines.insert(i, lines[i]);
        }
        Mutation::ChangeNumber { nth, value } => {
            let spans: Vec<(usize, usize)> = number_spans(text);
            if spans.is_empty() {
                return text.to_string();
            }
            let (s, e) = spans[nth % spans.len()];
            return format!("{}{value}{}", &text[..s], &text[e..]);
        }
    }
    lines.join("\n")
}

/// Where the integers of `text` are.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit()
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric() && b[i - 1] != b'_')
        {
            let s = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

fn cases() -> u32 {
    std::env::var("FUBA_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24)
}

/// The text of `edition`'s file, read once.
fn text(edition: &str) -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static TEXTS: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    let mut texts = TEXTS
        .get_or_init(Default::default)
        .lock()
        .expect("not poisoned");
    texts.entry(edition.to_string()).or_insert_with(|| {
        let path = fuba_tests::ruleset_path(edition);
        let t = std::fs::read_to_string(&path).expect("the edition's file");
        Box::leak(t.into_boxed_str())
    })
}

/// Damages `edition`'s file with `m`, loads it and, when it loads, plays a short match.
fn survive(edition: &str, m: &Mutation, seed: u64) {
    let damaged = apply(text(edition), m);
    // Loaded where the edition lies, so its includes are found.
    let path = fuba_tests::ruleset_path(edition);
    if let Ok(rs) = load_str(Path::new(&path), &damaged) {
        short_match(&rs, seed, 3_000);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn damaged_original_rulesets_never_crash(m in mutation(), seed in any::<u64>()) {
        survive("original", &m, seed);
    }

    #[test]
    fn damaged_2015_rulesets_never_crash(m in mutation(), seed in any::<u64>()) {
        survive("2015", &m, seed);
    }

    #[test]
    fn damaged_2024_rulesets_never_crash(m in mutation(), seed in any::<u64>()) {
        survive("2024", &m, seed);
    }
}
