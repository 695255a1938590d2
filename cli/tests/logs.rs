//! `fuba replay` on logs that are not what they seem (issue 15, item 6): a log with only
//! its header, a log with lines out of order, a log recorded under another ruleset.

mod common;

use common::{fuba, json, ok, scratch, stderr, stdout};

/// The log of `fuba play --rules RULES --seed 5`, written to a scratch file; its path and
/// text.
fn recorded(name: &str, rules: &str) -> (String, String) {
    let path = scratch(name).join("m.jsonl");
    let p = path.to_string_lossy().into_owned();
    ok(&fuba(&[
        "play", "--rules", rules, "--seed", "5", "--log", &p,
    ]));
    let text = std::fs::read_to_string(&path).expect("the log");
    (p, text)
}

#[test]
fn a_log_with_only_its_header_has_no_events() {
    let (path, text) = recorded("header-only", "original");
    let header = text.lines().next().expect("a header line");
    std::fs::write(&path, format!("{header}\n")).expect("write");
    let o = fuba(&["replay", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("m.jsonl: the log has no events: only its header (line 1)"),
        "{err}"
    );
    assert!(!stdout(&o).contains("identical"), "{}", stdout(&o));
}

#[test]
fn two_swapped_lines_are_a_damaged_log_not_a_rule_difference() {
    let (path, text) = recorded("swapped", "original");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.swap(20, 21);
    std::fs::write(&path, lines.join("\n")).expect("write");
    let o = fuba(&["replay", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("line 21: the log is damaged: event seq 20 where seq 19 was expected"),
        "{err}"
    );
    assert!(!stdout(&o).contains("diverged"), "{}", stdout(&o));
}

#[test]
fn a_log_of_another_ruleset_names_the_recording_and_the_replaying_ruleset() {
    let (path, _) = recorded("other-rules", "2015");
    let o = fuba(&["replay", &path, "--rules", "original"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "note: the log was recorded under ruleset `2015` (rulebook fuba-2015.txt) and is \
             replayed under ruleset `original` (rulebook fuba-original.txt)\n"
        ),
        "{out}"
    );
    let o = fuba(&["replay", &path, "--rules", "original", "--format", "json"]);
    let v = json(&o);
    assert_eq!(v["recorded_ruleset"], "2015");
    assert_eq!(v["recorded_rulebook"], "fuba-2015.txt");
    assert_eq!(v["ruleset"], "original");
    assert_eq!(v["rulebook"], "fuba-original.txt");
    assert!(
        v["note"].as_str().is_some_and(|n| n.contains("`2015`")),
        "{v}"
    );
    // Its own ruleset replays it without a note.
    let out = ok(&fuba(&["replay", &path]));
    assert!(out.starts_with("identical: "), "{out}");
}
