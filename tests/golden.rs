//! Golden logs: recorded matches (tests/golden/*.jsonl) replayed under today's rulesets.
//! Any change in how a recorded match plays fails here, naming the first differing event;
//! tests/golden/README.md says how to re-record them after an intended rule change.

use std::path::{Path, PathBuf};

use fuba_engine::load::load_str;
use fuba_engine::log::{Event, EventKind, LogHeader};
use fuba_engine::replay::{Divergence, Verdict, read_log, replay};
use fuba_engine::ruleset::Ruleset;
use fuba_tests::{edition, root, ruleset_path};

fn golden_logs() -> Vec<PathBuf> {
    let dir = root().join("tests/golden");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> (LogHeader, Vec<Event>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_log(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json(e: Option<&Event>) -> String {
    e.map_or_else(
        || "nothing".to_string(),
        |e| serde_json::to_string(e).unwrap_or_default(),
    )
}

fn describe(d: &Divergence) -> String {
    let mut s = format!(
        "first differing event: #{} at half {}, turn {}, minute {}{}, stage `{}`, rule {}\n  expected: {}\n  produced: {}",
        d.index,
        d.half,
        d.turn,
        d.minute,
        if d.added > 0 {
            format!("+{}", d.added)
        } else {
            String::new()
        },
        d.stage,
        d.rule,
        json(d.expected.as_ref()),
        json(d.produced.as_ref()),
    );
    if let Some(m) = &d.message {
        s.push_str(&format!("\n  the replay stopped: {m}"));
    }
    s
}

#[test]
fn every_golden_log_replays_identically() {
    let files = golden_logs();
    assert!(files.len() >= 3, "golden logs are missing: {files:?}");
    let mut failed = Vec::new();
    for f in &files {
        let (header, events) = read(f);
        let rs = edition(&header.ruleset);
        let r = replay(&rs, &header, &events);
        if let Verdict::Diverged(d) = &r.verdict {
            failed.push(format!(
                "{} (rulesets/{}.toml{}) diverged:\n{}",
                f.display(),
                header.ruleset,
                if r.rules_changed {
                    ", changed since it was recorded"
                } else {
                    ""
                },
                describe(d)
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} golden logs no longer replay (if the rules changed on purpose, re-record them: see tests/golden/README.md):\n\n{}",
        failed.len(),
        files.len(),
        failed.join("\n\n")
    );
}

/// The original ruleset with `from` replaced by `to` (each pair once), loaded from memory.
fn edited(edits: &[(&str, &str)]) -> Ruleset {
    let mut text = std::fs::read_to_string(ruleset_path("original")).expect("original.toml");
    for (from, to) in edits {
        assert!(
            text.contains(from),
            "original.toml no longer contains {from:?}"
        );
        text = text.replacen(from, to, 1);
    }
    load_str(Path::new("edited-original.toml"), &text).unwrap_or_else(|e| panic!("{e}"))
}

fn diverged(rs: &Ruleset, log: &str) -> (Box<Divergence>, bool) {
    let (header, events) = read(&root().join("tests/golden").join(log));
    let r = replay(rs, &header, &events);
    match r.verdict {
        Verdict::Diverged(d) => (d, r.rules_changed),
        Verdict::Identical => panic!("the edit did not change the replay of {log}"),
    }
}

#[test]
fn a_changed_constant_diverges_at_the_first_kick_off() {
    let rs = edited(&[("kickoff_ball = 3 ", "kickoff_ball = 4 ")]);
    let (_, events) = read(&root().join("tests/golden/original-seed-1.jsonl"));
    let first = events
        .iter()
        .find(|e| matches!(e.kind, EventKind::BallValue { .. }) && e.rule == "procedures.kickoff")
        .expect("the log has a kick-off");
    let (d, changed) = diverged(&rs, "original-seed-1.jsonl");
    assert!(changed, "the fingerprint tells the rules changed");
    assert_eq!(d.index, first.seq as usize, "{}", describe(&d));
    assert_eq!((d.half, d.turn), (1, 0), "before the first turn");
    assert!(matches!(
        d.expected.as_ref().map(|e| &e.kind),
        Some(EventKind::BallValue { value: 3 })
    ));
    assert!(matches!(
        d.produced.as_ref().map(|e| &e.kind),
        Some(EventKind::BallValue { value: 4 })
    ));
}

#[test]
fn a_changed_table_row_diverges_at_the_turn_it_is_first_used() {
    // Rows 3 and 4 of the special event table trade their numbers.
    let rs = edited(&[
        (
            "\"3\" = { label = \"No moves for the controlling team.\"",
            "\"4\" = { label = \"No moves for the controlling team.\"",
        ),
        (
            "\"4\" = { label = \"No moves for the passive team.\"",
            "\"3\" = { label = \"No moves for the passive team.\"",
        ),
    ]);
    for log in ["original-seed-1.jsonl", "original-seed-3.jsonl"] {
        let (_, events) = read(&root().join("tests/golden").join(log));
        let first = events
            .iter()
            .find(|e| {
                matches!(&e.kind, EventKind::Table { table, row, .. }
                    if table == "special_event" && (row == "3" || row == "4"))
            })
            .unwrap_or_else(|| panic!("{log} rolls no special event 3 or 4"));
        let (d, _) = diverged(&rs, log);
        assert_eq!(d.index, first.seq as usize, "{log}: {}", describe(&d));
        assert_eq!(
            (d.half, d.turn, d.minute),
            (first.half, first.turn, first.minute)
        );
        assert_eq!(d.stage, "control_check");
        assert_eq!(d.expected.as_ref(), Some(first));
        let Some(EventKind::Table { label, .. }) = d.produced.as_ref().map(|e| &e.kind) else {
            panic!(
                "{log}: the produced event is the table row: {}",
                describe(&d)
            );
        };
        assert_ne!(
            Some(label),
            match &first.kind {
                EventKind::Table { label, .. } => Some(label),
                _ => None,
            }
        );
    }
}

#[test]
fn every_golden_log_is_written_back_byte_for_byte() {
    for path in golden_logs() {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let (header, events) = read(&path);
        let mut out = Vec::new();
        fuba_engine::replay::write_log(&header, &events, &mut out)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            String::from_utf8_lossy(&out),
            text,
            "{}: the writer does not give back what the reader read",
            path.display()
        );
    }
}
