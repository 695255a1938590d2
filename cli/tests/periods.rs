//! Structural numbers of `[match]` end to end: a match of three periods plays to the end
//! in every edition (the clock runs on across the periods, kick-offs alternate), and a
//! batch whose every match fails stops early with one error and its seed.

mod common;

use common::{fuba, json, stderr, stdout};

/// `fuba simulate` of `games` matches of the ruleset at `rules`, as JSON, after checking
/// that every one was played.
fn simulate_all(rules: &str, games: u64) -> serde_json::Value {
    let games = games.to_string();
    let o = fuba(&[
        "simulate", "--rules", rules, "--games", &games, "--seed", "7", "--format", "json",
        "--jobs", "1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{rules}: {}", stderr(&o));
    json(&o)
}

/// Three periods of the edition: every match is played, each period has its turns, and the
/// third period's minutes follow the second's.
fn three_periods(edition: &str) {
    let rules = format!("tests/fixtures/periods/three_halves_{edition}.toml");
    let check = fuba(&["rules", "check", "--deny", "warnings", &rules]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    let v = simulate_all(&rules, 30);
    assert_eq!(v["games"], 30, "{v}");
    assert_eq!(v["failed"], 0, "{v}");
    let halves = v["turns_per_half"].as_array().expect("turns per half");
    assert_eq!(halves.len(), 3, "{edition}: {halves:?}");
    for h in halves {
        assert!(h["mean"].as_f64().expect("mean") > 10.0, "{edition}: {h}");
    }
    // Each period lasts its 45 minutes and some stoppage time, never a negative length.
    let engine = &v["tallies"]["engine"];
    for h in 1..=3 {
        let minutes = engine[format!("minutes_half_{h}")]["sum"]
            .as_i64()
            .expect("minutes");
        assert!(
            minutes >= 30 * 45,
            "{edition}, half {h}: {minutes} minutes in 30 matches"
        );
    }
}

#[test]
fn a_three_period_original_match_plays_to_the_end() {
    three_periods("original");
}

#[test]
fn a_three_period_2015_match_plays_to_the_end() {
    three_periods("2015");
}

#[test]
fn a_three_period_2024_match_plays_to_the_end() {
    three_periods("2024");
}

#[test]
fn kick_offs_alternate_and_the_clock_runs_on_across_three_periods() {
    let dir = common::scratch("periods");
    let log = dir.join("three.jsonl");
    let log = log.to_string_lossy();
    let o = fuba(&[
        "play",
        "--rules",
        "tests/fixtures/periods/three_halves_original.toml",
        "--seed",
        "3",
        "--log",
        &log,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&*log).expect("log");
    let events: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    // The kick-off that starts each period (stage half_start), by period.
    let starts: Vec<(i64, String, i64)> = events
        .iter()
        .filter(|e| e["kind"] == "kick-off" && e["stage"] == "half_start")
        .map(|e| {
            (
                e["half"].as_i64().expect("half"),
                e["fields"]["team"].as_str().expect("team").to_string(),
                e["minute"].as_i64().expect("minute"),
            )
        })
        .collect();
    assert_eq!(starts.len(), 3, "{starts:?}");
    assert_eq!(
        starts.iter().map(|s| (s.0, s.2)).collect::<Vec<_>>(),
        [(1, 1), (2, 46), (3, 91)]
    );
    assert_ne!(starts[0].1, starts[1].1, "{starts:?}");
    assert_eq!(starts[0].1, starts[2].1, "{starts:?}");
    assert_eq!(
        events.iter().filter(|e| e["event"] == "half_end").count(),
        3
    );
}

#[test]
fn a_batch_whose_every_match_fails_stops_early_with_one_error() {
    let rules = "tests/fixtures/periods/every_match_fails.toml";
    let o = fuba(&[
        "simulate", "--rules", rules, "--games", "500", "--seed", "1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "", "no table of figures");
    let err = stderr(&o);
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    insta::assert_snapshot!("every_match_fails_simulate", err);

    let o = fuba(&[
        "compare", "original", rules, "--games", "500", "--seed", "1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "", "no comparison");
    let err = stderr(&o);
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    insta::assert_snapshot!("every_match_fails_compare", err);
}
