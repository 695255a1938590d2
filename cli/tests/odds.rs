//! Exact odds (`fuba odds`, `fuba_engine::odds`): the enumeration against Monte Carlo
//! frequencies on the canonical positions of every edition, exactness, the command's
//! output and its errors.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::{fuba, ok, stderr, workspace};
use fuba_engine::load::load_file;
use fuba_engine::odds::{self, Cut, Leaf, Policy, Settings, Until};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::scenario::Scenario;
use serde_json::Value;

fn rules(edition: &str) -> Ruleset {
    let p = workspace().join(format!("rulesets/{edition}.toml"));
    load_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The canonical positions of an edition: `rulesets/EDITION/odds/*.toml`.
fn positions(edition: &str) -> Vec<PathBuf> {
    let dir = workspace().join(format!("rulesets/{edition}/odds"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no positions in {}", dir.display());
    files
}

/// The position's own stops and variables.
fn cut_of(sc: &Scenario) -> Cut {
    Cut {
        until: sc.odds.until.as_deref().map(Until::parse),
        stops: sc.odds.stop_at.clone(),
        vars: sc.odds.vars.clone(),
    }
}

/// The two-sided normal quantile for a tail of `alpha`, by bisection.
fn z_for(alpha: f64) -> f64 {
    let tail = |z: f64| 0.5 * erfc(z / std::f64::consts::SQRT_2);
    let (mut lo, mut hi) = (0.0, 10.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if 2.0 * tail(mid) > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The complementary error function (Numerical Recipes' `erfcc` fit, relative error
/// below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// Wilson's interval for `k` of `n` at `z`.
fn wilson(k: f64, n: f64, z: f64) -> (f64, f64) {
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z / d * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (c - h, c + h)
}

/// One position under one policy: its exact distribution and `n` sampled outcomes.
struct Trial {
    what: String,
    exact: Vec<(Leaf, f64)>,
    seen: HashMap<Leaf, u32>,
    n: u32,
}

fn trial(rs: &Ruleset, file: &Path, policy: Policy, n: u32) -> Trial {
    let sc = Scenario::load(file).unwrap_or_else(|e| panic!("{e}"));
    let mut copy = rs.clone();
    let pos = odds::position(&sc, &mut copy, &cut_of(&sc)).unwrap_or_else(|e| panic!("{e}"));
    let settings = Settings {
        policy,
        ..Settings::default()
    };
    let d = odds::enumerate(&pos, &settings).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    assert_eq!(
        d.total(),
        odds::Frac::one(),
        "{}: the probabilities sum to 1",
        file.display()
    );
    let mut seen = HashMap::new();
    for seed in 0..u64::from(n) {
        let leaf = odds::sample(&pos, policy, seed).unwrap_or_else(|e| panic!("{e}"));
        *seen.entry(leaf).or_insert(0) += 1;
    }
    Trial {
        what: format!("{} ({})", file.display(), policy.name()),
        exact: d
            .outcomes
            .iter()
            .map(|(l, p)| (l.clone(), p.value()))
            .collect(),
        seen,
        n,
    }
}

/// Every outcome's frequency lies in its interval, the intervals Bonferroni-corrected so
/// that all of them together hold with 99% probability, and nothing is seen that the
/// enumeration gives probability 0.
fn agree(trials: &[Trial]) {
    let comparisons: usize = trials.iter().map(|t| t.exact.len()).sum();
    let z = z_for(0.01 / comparisons as f64);
    let mut bad = Vec::new();
    for t in trials {
        for leaf in t.seen.keys() {
            if !t.exact.iter().any(|(l, _)| l == leaf) {
                bad.push(format!(
                    "{}: sampled {leaf:?}, which has no probability",
                    t.what
                ));
            }
        }
        for (leaf, p) in &t.exact {
            let k = f64::from(t.seen.get(leaf).copied().unwrap_or(0));
            let (lo, hi) = wilson(k, f64::from(t.n), z);
            if !(lo..=hi).contains(p) {
                bad.push(format!(
                    "{}: {leaf:?} seen {k} of {} times, exact {p:.5} outside {lo:.5}..{hi:.5}",
                    t.what, t.n
                ));
            }
        }
    }
    assert!(bad.is_empty(), "z = {z:.2}\n{}", bad.join("\n"));
}

/// Samples per position and policy.
const SAMPLES: u32 = 4000;

fn edition_agrees(edition: &str, random_too: &[&str]) {
    let rs = rules(edition);
    let mut trials = Vec::new();
    for f in positions(edition) {
        trials.push(trial(&rs, &f, Policy::Heuristic, SAMPLES));
        let name = f.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if random_too.contains(&name) {
            trials.push(trial(&rs, &f, Policy::Random, SAMPLES));
        }
    }
    agree(&trials);
}

#[test]
fn the_first_edition_s_odds_agree_with_sampling() {
    edition_agrees(
        "original",
        &["through_ball", "into_the_box", "build_up", "long_ball"],
    );
}

#[test]
fn the_second_edition_s_odds_agree_with_sampling() {
    edition_agrees("2015", &["through_ball", "shot_from_the_box"]);
}

#[test]
fn the_third_edition_s_odds_agree_with_sampling() {
    edition_agrees("2024", &["momentum", "shot"]);
}

#[test]
fn the_check_finds_a_wrong_probability() {
    // The same comparison, fed a distribution with one outcome's chance halved and the
    // rest moved to another, must fail: the test has the power to see an error.
    let rs = rules("original");
    let f = workspace().join("rulesets/original/odds/through_ball.toml");
    let mut t = trial(&rs, &f, Policy::Heuristic, SAMPLES);
    t.exact.sort_by(|a, b| b.1.total_cmp(&a.1));
    let half = t.exact[0].1 / 2.0;
    t.exact[0].1 -= half;
    t.exact[1].1 += half;
    let caught = std::panic::catch_unwind(|| agree(&[t]));
    assert!(caught.is_err(), "a wrong distribution passed the check");
}

#[test]
fn a_position_s_odds_are_exact_fractions() {
    let v: Value = serde_json::from_str(&ok(&fuba(&[
        "odds",
        "original",
        "--scenario",
        "rulesets/original/odds/through_ball.toml",
        "--format",
        "json",
    ])))
    .expect("JSON");
    let p = &v["positions"][0];
    assert_eq!(p["total"], "1");
    // The initial die less one against ball value 3: 5 or 6 keep the ball; a 4 is a
    // special event, after which 3 to 6 leave the ball with home.
    let home = p["controlling"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["value"] == "home")
        .expect("home");
    assert_eq!(home["chance"], "4/9");
    let free = p["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["event"] == "free_kicks")
        .expect("free kicks");
    assert_eq!(free["at_least_once"], "1/9");
}

#[test]
fn odds_of_a_position_snapshot() {
    let o = fuba(&[
        "odds",
        "original",
        "--scenario",
        "rulesets/original/odds/into_the_box.toml",
    ]);
    insta::assert_snapshot!(ok(&o));
}

#[test]
fn the_canonical_positions_come_with_the_ruleset_and_its_house_rules() {
    for edition in ["original", "2015", "2024"] {
        let text = ok(&fuba(&["odds", edition]));
        let n = positions(edition).len();
        assert_eq!(text.matches("\nposition: ").count(), n, "{text}");
        assert_eq!(text.matches("summing to 1\n").count(), n, "{text}");
    }
    // A house rule with no positions of its own gets those of the edition it extends, run
    // under its own rules.
    let text = ok(&fuba(&["odds", "rulesets/examples/cautious-referee.toml"]));
    assert!(
        text.contains("rulesets/original/odds/through_ball.toml"),
        "{text}"
    );
    assert!(text.contains("written for original, run under"), "{text}");
}

#[test]
fn policies_stops_and_variables_from_the_command_line() {
    let file = "rulesets/2024/odds/momentum.toml";
    // An unknown variable is an error, named.
    let o = fuba(&["odds", "--scenario", file, "--var", "nonsense"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("variable `nonsense`: the rules have no state variable"),
        "{}",
        stderr(&o)
    );
    let csv = ok(&fuba(&["odds", "--scenario", file, "--format", "csv"]));
    assert!(csv.starts_with("position,what,key,num,den,p\n"), "{csv}");
    assert!(csv.contains(",var:actions,3,"), "{csv}");
    // Scripted only: the goal attempt's decision after the shot is not scripted.
    let o = fuba(&[
        "odds",
        "2024",
        "--scenario",
        "rulesets/2024/odds/one_action.toml",
        "--policy",
        "scripted",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("the script has no choice left for \"action\""),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("--policy random or --policy heuristic"));
}

#[test]
fn too_many_outcomes_is_a_clear_error() {
    let o = fuba(&[
        "odds",
        "--scenario",
        "rulesets/original/odds/build_up.toml",
        "--policy",
        "random",
        "--max-nodes",
        "500",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("more than 500 outcomes to enumerate from this position; stop earlier with --until STAGE"),
        "{e}"
    );
    let o = fuba(&[
        "odds",
        "--scenario",
        "rulesets/original/odds/build_up.toml",
        "--until",
        "kickoff",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--until kickoff"), "{}", stderr(&o));
    let o = fuba(&[
        "odds",
        "--scenario",
        "rulesets/original/odds/build_up.toml",
        "--stop-at",
        "free kik",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("did you mean `free kick`?"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn until_cuts_the_run() {
    let at = |file: &str, until: &str| -> Value {
        serde_json::from_str(&ok(&fuba(&[
            "odds",
            "--scenario",
            file,
            "--until",
            until,
            "--format",
            "json",
        ])))
        .expect("JSON")
    };
    let v = at("rulesets/original/odds/through_ball.toml", "dice_rolling");
    assert_eq!(v["positions"][0]["runs"], "target_area, dice_rolling");
    assert_eq!(v["positions"][0]["controlling"][0]["chance"], "1");
    let v = at("rulesets/2015/odds/shot_from_the_box.toml", "turn-end");
    assert_eq!(v["positions"][0]["runs"], "team_stage_a, team_stage_b");
    assert_eq!(v["positions"][0]["total"], "1");
}
