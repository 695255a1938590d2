//! Batches at scale: shards and merge, output formats, figures with intervals, rules
//! coverage, comparison with tests, exact odds and the HTML report.

mod common;

use std::path::Path;

use common::{fuba, ok, scratch};
use serde_json::Value;

fn json_file(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("JSON")
}

/// A layered ruleset over the original edition that sets the given constants.
fn layer(dir: &Path, name: &str, constants: &str) -> String {
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(
        &p,
        format!("[meta]\nextends = \"original\"\nname = \"{name}\"\n\n[constants]\n{constants}\n"),
    )
    .expect("write layer");
    p.to_string_lossy().into_owned()
}

/// The result without what may differ between a whole batch and merged shards.
fn comparable(mut v: Value) -> Value {
    let m = v.as_object_mut().expect("object");
    m.remove("timing");
    m["tallies"]
        .as_object_mut()
        .expect("tallies")
        .remove("batch");
    v
}

#[test]
fn merged_shards_equal_the_whole_batch() {
    let dir = scratch("shards");
    let out = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let base = [
        "simulate", "--games", "45", "--seed", "11", "--format", "json",
    ];
    let whole = out("whole.json");
    ok(&fuba(
        &[&base[..], &["--out", &whole, "--jobs", "2"]].concat(),
    ));
    let mut shards = Vec::new();
    for k in 1..=3 {
        let f = out(&format!("s{k}.json"));
        let shard = format!("{k}/3");
        ok(&fuba(
            &[&base[..], &["--shard", &shard, "--out", &f, "--jobs", "1"]].concat(),
        ));
        let v = json_file(Path::new(&f));
        assert_eq!(v["games"], 15, "shard {shard} plays every third match");
        assert_eq!(v["shard"], shard.as_str());
        shards.push(f);
    }
    // Shards in any order.
    let merged = out("merged.json");
    ok(&fuba(&[
        "merge", &shards[2], &shards[0], &shards[1], "--format", "json", "--out", &merged,
    ]));
    let (w, m) = (json_file(Path::new(&whole)), json_file(Path::new(&merged)));
    assert_eq!(m["games"], 45);
    assert!(m["shard"].is_null());
    assert_eq!(comparable(w), comparable(m));

    // A shard twice, or a shard of another batch, is refused.
    let o = fuba(&["merge", &shards[0], &shards[0]]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("twice"));
    let other = out("other.json");
    ok(&fuba(&[
        "simulate", "--games", "45", "--seed", "12", "--format", "json", "--shard", "2/3", "--out",
        &other,
    ]));
    let o = fuba(&["merge", &shards[0], &other]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("seed"));
    // A missing shard is said.
    let o = fuba(&["merge", &shards[0], &shards[1]]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("3/3"));
    assert_eq!(
        fuba(&["simulate", "--shard", "4/3"]).status.code(),
        Some(2),
        "a shard beyond the count is a usage error"
    );
}

#[test]
fn figures_carry_intervals_in_every_format() {
    let o = ok(&fuba(&[
        "simulate", "--games", "40", "--seed", "2", "--format", "json",
    ]));
    let v: Value = serde_json::from_str(&o).expect("JSON");
    let figs = v["figures"].as_array().expect("figures");
    let find = |id: &str| {
        figs.iter()
            .find(|f| f["id"] == id)
            .unwrap_or_else(|| panic!("no figure {id}"))
    };
    for id in [
        "goals",
        "home_win",
        "away_win",
        "draw",
        "figures.shots",
        "conversion",
        "possession_changes",
        "turns_half_1",
        "minutes_half_2",
        "stoppage_half_1",
        "figures.yellow_cards",
        "figures.free_kicks",
    ] {
        let f = find(id);
        let (lo, val, hi) = (
            f["ci95"][0].as_f64().expect("low"),
            f["value"].as_f64().expect("value"),
            f["ci95"][1].as_f64().expect("high"),
        );
        assert!(lo <= val && val <= hi, "{id}: {lo} {val} {hi}");
    }
    assert_eq!(find("home_win")["kind"], "share");
    assert!(find("goals")["sd"].as_f64().expect("sd") > 0.0);
    // Wilson: a share's interval stays inside 0..1.
    assert!(find("draw")["ci95"][0].as_f64().expect("low") >= 0.0);
    let dist = v["goals_distribution"].as_array().expect("distribution");
    assert_eq!(dist.len(), 11);
    assert_eq!(dist[10]["label"], "10+ goals");
    let total: u64 = dist
        .iter()
        .map(|f| f["count"].as_u64().expect("count"))
        .sum();
    assert_eq!(total, 40);
    // Possession changes really are counted.
    assert!(find("possession_changes")["value"].as_f64().expect("value") > 1.0);

    let csv = ok(&fuba(&[
        "simulate", "--games", "10", "--seed", "2", "--format", "csv",
    ]));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("ruleset,id,label,kind,n,value,sd,ci95_low,ci95_high")
    );
    assert!(lines.any(|l| l.starts_with("original,goals,goals per match,mean,10,")));
}

/// Every special-event entry fires and every movement option is chosen. The issue asks
/// for 20,000 matches; the debug build plays about 100 a second per core, so this test
/// plays 400 and shows with exact odds that 400 is plenty: each special event rolls one
/// of six equally likely entries, so the chance that some entry never fires in K events
/// is at most 6·(5/6)^K, and the random player picks each of the three movement options
/// with chance 1/3, so some option is never picked in M choices with chance at most
/// 3·(2/3)^M. `.ci/run` plays the full 20,000 in a release build.
fn coverage_of(games: &str) {
    let o = ok(&fuba(&[
        "simulate", "--games", games, "--seed", "20000", "--format", "json",
    ]));
    let v: Value = serde_json::from_str(&o).expect("JSON");
    let cov = v["tallies"]["coverage"].as_object().expect("coverage");
    let mut events = 0;
    for k in 1..=6 {
        let n = cov[&format!("tables.special_event[{k}]")]
            .as_u64()
            .expect("count");
        assert!(n > 0, "special event {k} never fired");
        events += n;
    }
    let choices = v["tallies"]["choices"].as_object().expect("choices");
    let mut moves = 0;
    for option in ["defence movement", "midfield movement", "forward movement"] {
        let n = choices[&format!("movement option: {option}")]
            .as_u64()
            .unwrap_or(0);
        assert!(n > 0, "{option} never chosen");
        moves += n;
    }
    let miss_event = 6.0 * (5.0f64 / 6.0).powi(events as i32);
    let miss_move = 3.0 * (2.0f64 / 3.0).powi(moves as i32);
    assert!(
        miss_event < 1e-12 && miss_move < 1e-12,
        "{events} events, {moves} movement choices"
    );
    // Every table row, stage and set-piece procedure of the edition ran; only the bot's
    // preference scores (used by the heuristic player alone) did not. The procedure that
    // derives a scenario's position (`[scenario] derive`) is never part of a match and is
    // not in the coverage.
    let never: Vec<&str> = v["coverage"]["never_fired"]
        .as_array()
        .expect("never")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        never.iter().all(|n| n.ends_with("_preference")),
        "never ran: {never:?}"
    );
}

#[test]
fn every_special_event_and_movement_option_fires() {
    coverage_of("400");
}

/// The full 20,000 matches the issue asks for. Too slow for a debug build, so `.ci/run`
/// runs it in a release build with `FUBA_FULL_COVERAGE=1`; without the variable the
/// 400-match test above stands in for it.
#[test]
fn every_special_event_and_movement_option_fires_in_20000_matches() {
    if std::env::var_os("FUBA_FULL_COVERAGE").is_none() {
        eprintln!("set FUBA_FULL_COVERAGE=1 (in a release build) to play the 20,000 matches");
        return;
    }
    coverage_of("20000");
}

#[test]
fn simulated_table_frequencies_agree_with_the_exact_odds() {
    let odds: Value =
        serde_json::from_str(&ok(&fuba(&["odds", "original", "--format", "json"]))).expect("JSON");
    let sim: Value = serde_json::from_str(&ok(&fuba(&[
        "simulate", "--games", "300", "--seed", "8", "--format", "json",
    ])))
    .expect("JSON");
    let cov = sim["tallies"]["coverage"].as_object().expect("coverage");
    let mut checked = 0;
    for t in odds["tables"].as_array().expect("tables") {
        let name = t["table"].as_str().expect("name");
        let counts: Vec<(f64, f64)> = t["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                let key = r["key"].as_str().expect("key");
                let n = cov[&format!("tables.{name}[{key}]")]
                    .as_f64()
                    .expect("count");
                (n, r["p"].as_f64().expect("p"))
            })
            .collect();
        let total: f64 = counts.iter().map(|c| c.0).sum();
        for (n, p) in counts {
            // 99.9% Wilson interval of the observed share must hold the exact chance.
            let z = 3.2905_f64;
            let ph = n / total;
            let d = 1.0 + z * z / total;
            let c = (ph + z * z / (2.0 * total)) / d;
            let h = z / d * (ph * (1.0 - ph) / total + z * z / (4.0 * total * total)).sqrt();
            assert!(
                (c - h..=c + h).contains(&p),
                "{name}: {n} of {total} against {p}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 6, "the special-event table's six rows");
}

#[test]
fn odds_are_exact() {
    let v: Value =
        serde_json::from_str(&ok(&fuba(&["odds", "original", "--format", "json"]))).expect("JSON");
    let table = &v["tables"][0];
    assert_eq!(table["table"], "special_event");
    assert_eq!(table["dice"], "d6");
    for r in table["rows"].as_array().expect("rows") {
        assert_eq!(r["chance"], serde_json::json!({"num": 1, "den": 6}));
    }
    // The canonical positions, enumerated: every distribution sums to exactly 1, and no
    // hand-written grid is left.
    let positions = v["positions"].as_array().expect("positions");
    assert!(positions.len() >= 3, "{positions:?}");
    for p in positions {
        assert_eq!(p["total"], "1", "{}", p["file"]);
    }
    assert!(v.get("control_check").is_none() && v.get("goal_attempt").is_none());
    let text = ok(&fuba(&["odds", "original"]));
    assert!(text.contains("1/36"));
    assert!(text.contains("summing to 1"));
}

#[test]
fn an_identical_copy_shows_no_significant_difference() {
    let dir = scratch("compare");
    let same = layer(&dir, "same", "kickoff_ball = 3");
    let short = layer(&dir, "short", "stoppage_squares = 1");
    let o = ok(&fuba(&[
        "compare", "original", &same, &short, "--games", "120", "--seed", "4", "--format", "json",
    ]));
    let v: Value = serde_json::from_str(&o).expect("JSON");
    assert_eq!(
        v["tests"]["correction"],
        "Holm over every figure and ruleset pair"
    );
    let figs = v["figures"].as_array().expect("figures");
    assert!(figs.len() > 10);
    for f in figs {
        let same = &f["differences"][0];
        assert_eq!(same["ruleset"], "same");
        assert_eq!(same["significant"], false, "{f}");
        match f["id"].as_str() {
            // The engine's counters are shown, not tested.
            Some("choices" | "dice") => {
                assert_eq!(f["tested"], false, "{f}");
                assert!(same["p_holm"].is_null(), "{f}");
            }
            _ => assert!(same["p_holm"].as_f64().expect("p") >= 0.05),
        }
        // No figure is zero under every ruleset.
        let values = f["values"].as_array().expect("values");
        assert!(
            values.iter().any(|v| v["value"].as_f64() != Some(0.0)),
            "{f}"
        );
    }
    let stoppage = figs
        .iter()
        .find(|f| f["id"] == "stoppage_half_1")
        .expect("stoppage");
    assert_eq!(stoppage["differences"][1]["test"], "welch t");
    assert_eq!(
        stoppage["differences"][1]["significant"], true,
        "one stoppage square instead of five: {stoppage}"
    );
    let win = figs.iter().find(|f| f["id"] == "home_win").expect("wins");
    assert_eq!(win["differences"][0]["test"], "two-proportion z");

    let report = dir.join("compare.html");
    let text = ok(&fuba(&[
        "compare",
        "original",
        &same,
        "--games",
        "30",
        "--seed",
        "4",
        "--report",
        &report.to_string_lossy(),
    ]));
    assert!(
        text.contains("0 significant differences after Holm's correction"),
        "{text}"
    );
    let html = std::fs::read_to_string(&report).expect("report");
    assert!(html.contains("<svg") && html.contains("fuba compare: original vs same"));
}

#[test]
fn the_report_is_one_self_contained_page_with_the_run_s_numbers() {
    let dir = scratch("report");
    let report = dir.join("r.html");
    let json = dir.join("r.json");
    ok(&fuba(&[
        "simulate",
        "--games",
        "30",
        "--seed",
        "6",
        "--format",
        "json",
        "--out",
        &json.to_string_lossy(),
        "--report",
        &report.to_string_lossy(),
    ]));
    let html = std::fs::read_to_string(&report).expect("report");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    for banned in ["<script", "src=", "href=", "@import", "url("] {
        assert!(!html.contains(banned), "{banned} in the report");
    }
    assert_eq!(html.matches("<svg").count(), html.matches("</svg>").count());
    assert!(html.matches("<svg").count() >= 2);
    let v = json_file(&json);
    // The goals chart's bars carry the counts of the run; the table its figures.
    for f in v["goals_distribution"].as_array().expect("distribution") {
        let label = f["label"]
            .as_str()
            .expect("label")
            .trim_end_matches(" goals");
        let count = f["count"].as_u64().expect("count");
        assert!(
            html.contains(&format!(" {label} goals "))
                && html.contains(&format!("({count} matches)")),
            "{label}: {count}"
        );
    }
    let mean = v["goals_per_match"]["mean"].as_f64().expect("mean");
    assert!(html.contains(&format!("{mean:.3}")));
    assert!(html.contains("tables.special_event[1]"));
    // A row chosen by a roll is reported by the rulebook's words as well as its roll.
    assert!(
        html.contains(
            "<tr><td>tables.special_event[2]</td><td>Free kick for the passive team.</td><td>"
        ),
        "special event 2 without its label"
    );
}

/// Breakdown figures (`[figures] NAME = { event, by }`) count each value of an event's
/// field over the batch: with the skills and weather on, which skill was played and which
/// weather drawn. Their counts add up to the per-match figures counting the same events,
/// they are in every format, and shards merge them exactly.
#[test]
fn skills_played_and_weather_drawn_are_counted_by_name() {
    let args = [
        "simulate",
        "--rules",
        "2024",
        "--option",
        "condition=on",
        "--option",
        "skills=6",
        "--option",
        "weather=on",
        "--games",
        "40",
        "--seed",
        "5",
    ];
    let v: Value = serde_json::from_str(&ok(&fuba(&[&args[..], &["--format", "json"]].concat())))
        .expect("JSON");
    let counted = &v["tallies"]["counted_by"];
    let total = |figure: &str| {
        v["tallies"]["figures"][figure]["sum"]
            .as_i64()
            .expect("sum")
    };
    for (by, figure) in [
        ("skills_played_by_skill", "skills_played"),
        ("weather_by_kind", "weather"),
    ] {
        let counts = counted[by].as_object().unwrap_or_else(|| panic!("no {by}"));
        let sum: i64 = counts.values().map(|n| n.as_i64().expect("count")).sum();
        assert_eq!(sum, total(figure), "{by} adds up to {figure}");
        assert!(sum > 0, "{by}: nothing counted in 40 matches");
    }
    // Skill names, not symbols or indices.
    let skills = counted["skills_played_by_skill"]
        .as_object()
        .expect("skills");
    assert!(
        skills
            .keys()
            .all(|k| k.chars().next().is_some_and(char::is_uppercase)),
        "{skills:?}"
    );

    let table = ok(&fuba(&args));
    assert!(table.contains("skills played by skill:\n"), "{table}");
    // The HTML report draws them, with the run's counts.
    let dir = scratch("counted_by_report");
    let page = dir.join("report.html");
    let page_s = page.to_string_lossy().into_owned();
    ok(&fuba(&[&args[..], &["--report", &page_s]].concat()));
    let html = std::fs::read_to_string(&page).expect("report");
    assert!(
        html.contains("<h3>skills played by skill</h3>"),
        "no breakdown chart"
    );
    for (skill, n) in skills {
        let bar = format!(">{}</text>", n.as_u64().expect("count"));
        assert!(
            html.contains(&format!(">{skill}</text>")) && html.contains(&bar),
            "{skill}"
        );
    }
    let csv = ok(&fuba(&[&args[..], &["--format", "csv"]].concat()));
    assert!(
        csv.lines()
            .any(|l| l.starts_with("2024,counted_by.weather_by_kind.")),
        "{csv}"
    );

    // Two shards merged count the same as the whole batch.
    let dir = scratch("counted_by_shards");
    let mut parts = Vec::new();
    for k in ["1/2", "2/2"] {
        let out = dir.join(format!("shard{}.json", &k[..1]));
        let out_s = out.to_string_lossy().into_owned();
        ok(&fuba(
            &[
                &args[..],
                &["--shard", k, "--format", "json", "--out", &out_s],
            ]
            .concat(),
        ));
        parts.push(out_s);
    }
    let merged: Value = serde_json::from_str(&ok(&fuba(&[
        "merge", &parts[0], &parts[1], "--format", "json",
    ])))
    .expect("JSON");
    assert_eq!(merged["tallies"]["counted_by"], *counted);
}

/// Plays a batch and asserts that no match stopped with a rule error (a rule asking for
/// a choice with no legal option, a missing board number, a runaway stage...).
fn plays_without_a_rule_error(rules: &str, options: &[&str], games: u64, agents: &str) {
    let games = games.to_string();
    let mut args = vec![
        "simulate", "--rules", rules, "--games", &games, "--seed", "31", "--home", agents,
        "--away", "random", "--format", "json",
    ];
    for o in options {
        args.extend(["--option", o]);
    }
    let out = fuba(&args);
    let v: Value = serde_json::from_str(&common::stdout(&out)).expect("JSON");
    assert_eq!(
        v["failed"],
        0,
        "{rules} {options:?} ({agents}): {}",
        common::stderr(&out)
    );
}

/// Every edition, every 2024 option alone and all together, random and heuristic home
/// players: no match stops with a rule error. Rare failures (one match in thousands) were
/// found this way; `.ci/run` plays about 30,000 matches in a release build
/// (`FUBA_FULL_COVERAGE=1`), a debug build a few per case. `FUBA_SWEEP_SCALE=K` plays K
/// times as many (25: 100,000 random matches of each edition; docs/limits.md).
#[test]
fn every_edition_and_option_plays_without_a_rule_error() {
    let full = std::env::var_os("FUBA_FULL_COVERAGE").is_some();
    let scale: u64 = std::env::var("FUBA_SWEEP_SCALE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let n = |games: u64| if full { games * scale } else { 4 };
    let all = [
        "condition=on",
        "advanced_formations=on",
        "substitutions=on",
        "charge=on",
        "aggressive_pressing=on",
        "offside_risk=on",
        "challenge=on",
        "slowing_down=on",
        "weather=on",
        "var=on",
        "skills=6",
    ];
    for rules in ["original", "2015", "2024"] {
        plays_without_a_rule_error(rules, &[], n(4000), "random");
        plays_without_a_rule_error(rules, &[], n(1000), "heuristic");
    }
    plays_without_a_rule_error("2024", &all, n(6000), "random");
    plays_without_a_rule_error("2024", &all, n(1000), "heuristic");
    for option in all {
        // The options that act through condition points get them.
        let with = [option, "condition=on"];
        plays_without_a_rule_error("2024", &with, n(800), "random");
    }
}
