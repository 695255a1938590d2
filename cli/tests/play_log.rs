//! `fuba play --log` streams the log and bounds it (issue 15, item 1): a ruleset that
//! passes `rules check` and emits 262,144 events a turn stops at the bound on events per
//! turn with an error naming the rule, instead of holding every event in memory.

mod common;

use common::{fuba, ok, scratch, stderr};

const FLOOD: &str = r#"[meta]
extends = "original"
name = "flood"

[match]
turn = ["flood", "target_area", "dice_rolling", "time", "control_check", "ball_movement", "goal_attempt", "player_movements"]

[procedures.flood]
do = '''
repeat 64 {
  repeat 64 {
    repeat 64 {
      emit "ripple" { team: ct }
    }
  }
}
'''
"#;

#[test]
fn a_flood_of_events_stops_at_the_bound_naming_the_rule() {
    let dir = scratch("flood");
    let rules = dir.join("flood.toml");
    std::fs::write(&rules, FLOOD).expect("write");
    let rules = rules.to_str().expect("a UTF-8 path");
    let out = ok(&fuba(&["rules", "check", rules]));
    assert!(out.starts_with("ok: "), "{out}");

    let log = dir.join("flood.jsonl");
    let log_arg = log.to_str().expect("a UTF-8 path");
    let o = fuba(&["play", "--rules", rules, "--seed", "1", "--log", log_arg]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(
            "stopped: event limit reached: procedures.flood would record more than 10000 \
             events in one turn (events_per_turn; a runaway rule?)"
        ),
        "{err}"
    );
    assert!(err.contains("flood.toml:"), "{err}");
    assert!(err.contains("= in: procedures.flood"), "{err}");
    // What was recorded up to the bound is in the file, numbered without a gap.
    let text = std::fs::read_to_string(&log).expect("the log");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("\"format\":\"fuba-log\""), "{}", lines[0]);
    assert!(
        lines.len() > 10_000 && lines.len() < 10_100,
        "{} lines",
        lines.len()
    );
    for (i, l) in lines[1..].iter().enumerate() {
        assert!(
            l.starts_with(&format!("{{\"seq\":{i},")),
            "line {}: {l}",
            i + 2
        );
    }
}
