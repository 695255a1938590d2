//! The balance figures of `fuba simulate`, and `fuba compare`'s paired differences: each
//! match under one ruleset has a twin (same seed, same players) under the other, and the
//! per-match differences of twins give far tighter intervals than tests treating the
//! batches as independent; and `fuba compare --option` setting a match option on every
//! ruleset compared.

mod common;

use common::{fuba, ok};
use serde_json::Value;

const WING: &str = "rulesets/examples/wing-goals-count-two.toml";

fn figure<'v>(v: &'v Value, id: &str) -> &'v Value {
    v["figures"]
        .as_array()
        .expect("figures")
        .iter()
        .find(|f| f["id"] == id)
        .unwrap_or_else(|| panic!("no figure {id}"))
}

fn interval(x: &Value) -> (f64, f64) {
    (
        x["ci95"][0].as_f64().expect("low"),
        x["ci95"][1].as_f64().expect("high"),
    )
}

/// A goal from a wing counts two: with heuristic players, who do not play for it, twins
/// differ only by the wing goals, so the paired interval of the goals per match is far
/// narrower than Welch's, and excludes the zero that Welch's still holds.
#[test]
fn a_wing_goal_counting_two_is_seen_through_the_pairing() {
    let games = "200";
    let o = ok(&fuba(&[
        "compare",
        "original",
        WING,
        "--games",
        games,
        "--seed",
        "1",
        "--home",
        "heuristic",
        "--away",
        "heuristic",
        "--format",
        "json",
    ]));
    let v: Value = serde_json::from_str(&o).expect("JSON");
    assert_eq!(v["paired"], true);
    assert_eq!(v["twins"], serde_json::json!([200]));
    let goals = figure(&v, "goals");
    let d = &goals["differences"][0];
    let paired = &d["paired"];
    assert_eq!(d["test"], "welch t");
    assert_eq!(paired["test"], "paired t");
    assert_eq!(paired["pairs"], 200);
    let (welch_lo, welch_hi) = interval(d);
    let (lo, hi) = interval(paired);
    let diff = paired["difference"].as_f64().expect("difference");
    eprintln!(
        "goals per match {diff:+.3}: paired ±{:.3}, Welch ±{:.3}",
        (hi - lo) / 2.0,
        (welch_hi - welch_lo) / 2.0
    );
    // No match failed: the mean per-match difference is the difference of the means.
    assert!((diff - d["difference"].as_f64().expect("d")).abs() < 1e-9);
    assert!(diff > 0.0, "wing goals count two: more goals");
    assert!(
        hi - lo < (welch_hi - welch_lo) / 3.0,
        "paired {lo}..{hi}, Welch {welch_lo}..{welch_hi}"
    );
    assert!(lo > 0.0, "the paired interval excludes 0: {lo}..{hi}");
    assert!(welch_lo < 0.0 && 0.0 < welch_hi, "Welch's holds 0");
    assert_eq!(paired["significant"], true);
    assert_eq!(d["significant"], false);
    // The house rule's own figure (`wing_shots`) is counted under the edition too.
    let wing = figure(&v, "figures.wing_shots");
    let values = wing["values"].as_array().expect("values");
    assert_eq!(values.len(), 2, "{wing}");
    assert!(
        values[0]["value"].as_f64().is_some_and(|x| x > 0.0),
        "{wing}"
    );
    assert_eq!(values[0]["value"], values[1]["value"], "{wing}");
    // Only the score changed: the twins played the same shots, turns and dice.
    for id in [
        "figures.shots",
        "figures.wing_shots",
        "turns",
        "dice",
        "possession_changes",
    ] {
        let p = &figure(&v, id)["differences"][0]["paired"];
        assert_eq!(p["difference"], 0.0, "{id}: {p}");
        assert_eq!(interval(p), (0.0, 0.0), "{id}");
    }
    // Conversion: more goals from the same shots.
    let conv = &figure(&v, "conversion")["differences"][0]["paired"];
    assert_eq!(conv["test"], "paired z (delta method)");
    assert!(interval(conv).0 > 0.0, "{conv}");
}

/// Nothing changed (the edition against its own file): every twin plays the same match,
/// so every paired difference is exactly 0 with a zero-width interval, and neither the
/// paired nor the unpaired tests flag anything.
#[test]
fn nothing_changed_and_both_tests_agree() {
    let args = [
        "compare",
        "original",
        "rulesets/original.toml",
        "--games",
        "150",
        "--seed",
        "9",
    ];
    let v: Value = serde_json::from_str(&ok(&fuba(&[&args[..], &["--format", "json"]].concat())))
        .expect("JSON");
    assert_eq!(v["paired"], true);
    let figs = v["figures"].as_array().expect("figures");
    assert!(figs.len() > 20);
    for f in figs {
        let d = &f["differences"][0];
        let p = &d["paired"];
        assert_eq!(p["pairs"], 150, "{f}");
        assert_eq!(p["difference"], 0.0, "{f}");
        assert_eq!(interval(p), (0.0, 0.0), "{f}");
        assert_eq!(p["significant"], false, "{f}");
        // The engine's counters are not tested: no adjusted p.
        let holm = if f["tested"] == true {
            1.0.into()
        } else {
            Value::Null
        };
        assert_eq!(p["p_holm"], holm, "{f}");
        assert_eq!(d["difference"], 0.0, "{f}");
        assert_eq!(d["significant"], false, "{f}");
        let (lo, hi) = interval(d);
        assert!(lo <= 0.0 && 0.0 <= hi, "{f}");
    }
    let text = ok(&fuba(&args));
    assert!(text.contains("\npaired: match i is played with the same seed"));
    assert!(text.contains("(all 150 matches have their twin)"), "{text}");
    assert!(
        text.contains(
            "0 significant differences after Holm's correction (paired tests; unpaired: 0)"
        ),
        "{text}"
    );
    assert!(text.contains("match length quantiles (turns; 95% CI)"));
    let csv = ok(&fuba(&[&args[..], &["--format", "csv"]].concat()));
    let header = csv.lines().next().expect("header");
    assert!(header.ends_with(",pairs,paired_difference,paired_ci95_low,paired_ci95_high,paired_test,paired_p,paired_p_holm,paired_significant"));
    let goals = csv
        .lines()
        .find(|l| l.starts_with("goals,"))
        .expect("goals row");
    assert!(goals.ends_with(",150,0,0,0,paired t,1,1,false"), "{goals}");
}

/// `fuba simulate` prints home advantage, the kick-off team's advantage and the match
/// length, each with its interval, in every format, and they add up with the other
/// figures.
#[test]
fn simulate_prints_the_balance_figures_with_intervals() {
    let args = ["simulate", "--games", "80", "--seed", "4"];
    let text = ok(&fuba(&args));
    for label in [
        "home advantage (goal difference)",
        "kick-off advantage (goal difference)",
        "kick-off team wins",
        "kick-off team loses",
        "match length (turns)",
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no {label}:\n{text}"));
        assert!(line.contains("(95% CI "), "{line}");
    }
    let q = text
        .lines()
        .find(|l| l.starts_with("match length quantiles"))
        .expect("quantiles");
    for p in ["10%: ", "25%: ", "50%: ", "75%: ", "90%: "] {
        assert!(q.contains(p), "{q}");
    }

    let v: Value = serde_json::from_str(&ok(&fuba(&[&args[..], &["--format", "json"]].concat())))
        .expect("JSON");
    let b = &v["balance"];
    let mean = |x: &Value| x["mean"].as_f64().expect("mean");
    for x in [
        &b["home_advantage"],
        &b["kickoff_advantage"],
        &b["match_length"],
    ] {
        let (lo, hi) = interval(x);
        assert!(lo < mean(x) && mean(x) < hi, "{x}");
    }
    // Home advantage: home goals minus away goals, match by match.
    let goals = |k: &str| v[k]["total"].as_i64().expect("total");
    assert_eq!(
        b["home_advantage"]["total"].as_i64(),
        Some(goals("home_goals_per_match") - goals("away_goals_per_match"))
    );
    // The kick-off team wins, loses or draws; its draws are the match's draws.
    let count = |k: &str| b[k]["count"].as_u64().expect("count");
    assert_eq!(
        count("kickoff_win")
            + count("kickoff_loss")
            + v["results"]["draws"].as_u64().expect("draws"),
        80
    );
    // Match length: the turns of both halves.
    let halves: f64 = v["turns_per_half"]
        .as_array()
        .expect("halves")
        .iter()
        .map(mean)
        .sum();
    assert!((mean(&b["match_length"]) - halves).abs() < 1e-6);
    let qs = b["match_length"]["quantiles"]
        .as_array()
        .expect("quantiles");
    let turns: Vec<u64> = qs
        .iter()
        .map(|q| q["turns"].as_u64().expect("turns"))
        .collect();
    assert!(turns.windows(2).all(|w| w[0] <= w[1]), "{turns:?}");
    for q in qs {
        let t = q["turns"].as_u64().expect("turns");
        assert!(q["ci95"][0].as_u64() <= Some(t) && Some(t) <= q["ci95"][1].as_u64());
    }

    let csv = ok(&fuba(&[&args[..], &["--format", "csv"]].concat()));
    for id in [
        "home_advantage",
        "kickoff_advantage",
        "kickoff_win",
        "turns",
        "turns_q50",
    ] {
        assert!(
            csv.lines()
                .any(|l| l.starts_with(&format!("original,{id},"))),
            "{id} missing from the CSV"
        );
    }
}

/// A batch with options set says which, in its header and its JSON: the 2024 ruleset's
/// title says "basic rules", which is not what was played.
#[test]
fn simulate_and_compare_name_the_options_set() {
    let with_options = |more: &[&str]| {
        let base = [
            "simulate",
            "--rules",
            "2024",
            "--option",
            "skills=4",
            "--option",
            "condition=on",
            "--seed",
            "1",
        ];
        ok(&fuba(&[&base[..], more].concat()))
    };
    let o = with_options(&["--games", "4"]);
    assert!(
        o.contains("options set        condition=on, skills=4 (every other option at its default)"),
        "{o}"
    );
    // The JSON too, at its top as well as in the tallies.
    let o = with_options(&["--games", "2", "--format", "json"]);
    let v: Value = serde_json::from_str(&o).expect("JSON");
    assert_eq!(
        v["options"],
        serde_json::json!(["condition=on", "skills=4"])
    );
    let o = ok(&fuba(&[
        "simulate", "--rules", "2024", "--games", "2", "--seed", "1",
    ]));
    assert!(!o.contains("options set"), "{o}");
    let o = ok(&fuba(&[
        "compare",
        "2024",
        "2024",
        "--option",
        "weather=on",
        "--games",
        "4",
        "--seed",
        "1",
        "--format",
        "json",
    ]));
    let v: Value = serde_json::from_str(&o).expect("JSON");
    assert_eq!(
        v["tallies"][0]["batch"]["options"],
        serde_json::json!(["weather=on"]),
        "{}",
        v["tallies"][0]["batch"]
    );
}

/// `fuba compare --option` sets the match option for every ruleset compared: with the
/// skills on, both sides play skills; an option a ruleset lacks is an error naming it.
#[test]
fn compare_sets_match_options_on_every_ruleset() {
    let house = common::workspace()
        .join("rulesets/examples/2024-var-no-weather.toml")
        .to_string_lossy()
        .into_owned();
    let o = ok(&fuba(&[
        "compare",
        "2024",
        &house,
        "--option",
        "skills=4",
        "--option",
        "condition=on",
        "--games",
        "20",
        "--seed",
        "3",
        "--format",
        "json",
    ]));
    let v: Value = serde_json::from_str(&o).expect("JSON");
    let skills = v["figures"]
        .as_array()
        .expect("figures")
        .iter()
        .find(|f| f["id"] == "figures.skills_played")
        .expect("skills played figure");
    for side in skills["values"].as_array().expect("values") {
        assert!(side["value"].as_f64().expect("value") > 0.0, "{side}");
    }
    let bad = fuba(&[
        "compare", "original", "2015", "--option", "skills=4", "--games", "5",
    ]);
    assert!(!bad.status.success());
    assert!(
        common::stderr(&bad).contains("unknown match option `skills`"),
        "{}",
        common::stderr(&bad)
    );
}
