//! Broken rulesets: what the loader says and where it points, and rules that run away.
//!
//! Every file in `fixtures/broken/` is a small layer that `extends` `rulesets/original.toml`
//! and breaks one thing (its first lines say what). Each file's diagnostics, rendered as a user
//! sees them, are a snapshot; the path shown is the fixture's file name, and every
//! diagnostic points into that file, not into the edition below it.

use std::path::Path;

use fuba_engine::load::{load_file, load_str};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::ruleset::diag::LoadErrors;
use fuba_engine::vm::RunError;
use fuba_tests::{Agents, original_text, seeded_match};

/// Loads a ruleset's text under a short name, so messages do not hold a machine's path.
fn load_named(name: &str, text: &str) -> Result<Ruleset, LoadErrors> {
    load_str(Path::new(name), text)
}

#[test]
fn broken_rulesets() {
    insta::glob!("fixtures/broken/*.toml", |path| {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a file name");
        let errors = match load_file(path) {
            Ok(_) => panic!("{name} loaded, but it is meant to fail"),
            Err(e) => e,
        };
        assert!(!errors.0.is_empty(), "{name}: an error without diagnostics");
        let here = path.display().to_string();
        for d in &errors.0 {
            let loc = d.location().unwrap_or_default();
            assert!(
                loc.starts_with(&format!("{here}:")),
                "{name}: a diagnostic without a place in the layer: {d}"
            );
        }
        // The fixture's folder left out, so messages do not hold a machine's path.
        let folder = path.parent().expect("a folder").display().to_string();
        insta::assert_snapshot!(errors.to_string().replace(&format!("{folder}/"), ""));
    });
}

#[test]
fn there_are_enough_broken_fixtures() {
    let dir = fuba_tests::root().join("tests/fixtures/broken");
    let n = std::fs::read_dir(&dir)
        .expect("fixtures/broken exists")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "toml"))
        })
        .count();
    assert!(n >= 12, "only {n} broken rulesets in {}", dir.display());
}

/// The original edition with the body of the `dice_rolling` stage replaced.
fn with_dice_rolling(body: &str) -> String {
    let text = original_text();
    let header = "[procedures.dice_rolling]\n";
    let start = text
        .find(header)
        .expect("original.toml has a dice_rolling stage");
    let do_at = start
        + text[start..]
            .find("do = '''\n")
            .expect("dice_rolling has a do")
        + "do = '''\n".len();
    let end = do_at + text[do_at..].find("'''").expect("the do string ends");
    format!("{}{body}\n{}", &text[..do_at], &text[end..])
}

/// The start of the `dice_rolling` stage: the initial values are rolled as usual.
const ROLL_INITIAL: &str = r#"set initial[ct] = roll d6 by ct as "initial value"
set initial[pt] = roll d6 by pt as "initial value""#;

/// The original edition, loaded as `name`, with a `dice_rolling` stage that rolls the
/// initial values and then runs `then`.
fn rolling_then(name: &str, then: &str) -> Result<Ruleset, LoadErrors> {
    load_named(name, &with_dice_rolling(&format!("{ROLL_INITIAL}\n{then}")))
}

/// Plays a seeded match with random agents, the log off.
fn run(rs: &Ruleset, seed: u64) -> Result<(), RunError> {
    seeded_match(rs, seed, Agents::Random).play().map(|_| ())
}

#[test]
fn a_runaway_stage_hits_the_operation_budget() {
    let then = "repeat 64 {
  repeat 64 {
    repeat 64 {
      repeat 64 {
        set used_moves[ct] = used_moves[ct] + 1
      }
    }
  }
}";
    let rs = rolling_then("runaway.toml", then)
        .unwrap_or_else(|e| panic!("the runaway ruleset does not load:\n{e}"));
    let started = std::time::Instant::now();
    let err = run(&rs, 1)
        .err()
        .unwrap_or_else(|| panic!("a stage doing 64^4 iterations finished within the budget"));
    assert!(
        started.elapsed().as_secs() < 30,
        "the budget took {:?} to stop the rule",
        started.elapsed()
    );
    assert!(err.message.contains("operation budget"), "{err}");
    assert_eq!(err.rule, "procedures.dice_rolling", "{err}");
    assert!(err.place.starts_with("runaway.toml:"), "{err}");
    assert_eq!(err.kind, fuba_engine::vm::ErrorKind::Limit, "{err}");
    assert_eq!(
        err.chain.last().map(String::as_str),
        Some("procedures.dice_rolling"),
        "the call chain ends in the rule that ran away: {:?}",
        err.chain
    );
    insta::assert_snapshot!(err.to_string());
}

/// The same budget where the innermost loop's body ends in `if` statements testing a value
/// against `none` (the machine fuses `x == none` with its branch, and an `if` statement's
/// dropped value with the jump back): the error names the same place, the loop's end, as
/// the unfused instructions did (the snapshot was taken before the fusion).
#[test]
fn a_runaway_loop_of_none_tests_stops_where_it_did() {
    let then = "let m = none
repeat 64 {
  repeat 64 {
    repeat 64 {
      repeat 64 {
        if m != none { set used_moves[ct] = 0 }
        if m == none { set used_moves[ct] = used_moves[ct] + 1 }
      }
    }
  }
}";
    let rs = rolling_then("runaway-none.toml", then)
        .unwrap_or_else(|e| panic!("the runaway ruleset does not load:\n{e}"));
    let err = run(&rs, 1)
        .err()
        .unwrap_or_else(|| panic!("a stage doing 64^4 iterations finished within the budget"));
    assert!(err.message.contains("operation budget"), "{err}");
    insta::assert_snapshot!(err.to_string());
}

#[test]
fn a_repeat_over_the_limit_is_an_error() {
    let then = "repeat 1000 {\n  set used_moves[ct] = 0\n}";
    let rs = rolling_then("repeat-1000.toml", then)
        .unwrap_or_else(|e| panic!("the ruleset does not load:\n{e}"));
    let err = run(&rs, 1)
        .err()
        .unwrap_or_else(|| panic!("`repeat 1000` ran"));
    assert!(err.message.contains("repeat 1000"), "{err}");
    assert!(err.message.contains("limit of 64"), "{err}");
    assert_eq!(err.rule, "procedures.dice_rolling", "{err}");
    insta::assert_snapshot!(err.to_string());
}

#[test]
fn repeat_at_the_limit_runs() {
    let then = "repeat 64 {\n  set used_moves[ct] = 0\n}";
    let rs = rolling_then("repeat-64.toml", then)
        .unwrap_or_else(|e| panic!("the ruleset does not load:\n{e}"));
    if let Err(e) = run(&rs, 1) {
        panic!("`repeat 64` is within the limit, yet: {e}");
    }
}

/// A table key naming one result twice is refused with a message, not a crash (found by
/// the random damage of `tests/mutations.rs`).
#[test]
fn a_table_key_naming_a_result_twice_is_refused() {
    let text = r#"
[meta]
extends = "original.toml"

[tables.twice]
section = "test"
dice = "d6"
[tables.twice.rows]
"3,3" = { label = "three", do = "1" }
"1..2,4..6" = { label = "others", do = "2" }
"#;
    let err = match load_named(
        &fuba_tests::ruleset_path("twice").display().to_string(),
        text,
    ) {
        Ok(_) => panic!("a key naming 3 twice was accepted"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("table `twice`: key `3,3` covers a result twice"),
        "{err}"
    );
}
