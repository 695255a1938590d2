//! End-to-end tests of the `fuba` binary.

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{fuba, fuba_with_stdin, json, scratch, stderr, stdout, workspace};

fn original() -> String {
    std::fs::read_to_string(workspace().join("rulesets/original.toml")).expect("original.toml")
}

/// A copy of the original ruleset with one edit, written to a scratch file.
fn edited_copy(name: &str, from: &str, to: &str) -> PathBuf {
    let text = original();
    assert!(
        text.contains(from),
        "original.toml no longer contains {from:?}"
    );
    let path = scratch(name).join(format!("{name}.toml"));
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write copy");
    path
}

#[test]
fn play_prints_the_narration_and_a_final_score() {
    let o = fuba(&["play", "--rules", "original", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("Final score: Home "), "last line: {last}");
    assert!(last.contains(" Away"), "last line: {last}");
    assert!(out.lines().count() > 10, "a narration is expected:\n{out}");
}

#[test]
fn play_is_reproducible_from_the_seed() {
    let a = fuba(&["play", "--seed", "7", "--verbose"]);
    let b = fuba(&["play", "--seed", "7", "--verbose"]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(stdout(&a), stdout(&b));
    let c = fuba(&["play", "--seed", "8", "--verbose"]);
    assert_ne!(stdout(&a), stdout(&c), "another seed, another match");
}

#[test]
fn play_without_a_seed_prints_the_seed_on_stderr() {
    let o = fuba(&["play"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).lines().any(|l| l.starts_with("seed: ")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn play_log_is_json_lines_with_a_header() {
    let path = scratch("log").join("match.jsonl");
    let p = path.to_string_lossy().into_owned();
    let o = fuba(&["play", "--seed", "2", "--log", &p]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).expect("log written");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines[0]["format"], "fuba-log");
    assert_eq!(lines[0]["seed"], 2);
    assert!(lines.len() > 100);
    assert_eq!(
        lines.last().map(|l| l["event"].clone()),
        Some("match_end".into())
    );

    // `--log -` puts the same log on stdout.
    let o = fuba(&["play", "--seed", "2", "--log", "-"]);
    assert_eq!(stdout(&o), text);
}

#[test]
fn a_human_player_reads_stdin_and_may_quit() {
    let o = fuba_with_stdin(
        &["play", "--seed", "1", "--home", "human"],
        b"nonsense\n42\n1\nq\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("is not an option"), "{err}");
    assert!(err.contains("the home player quit"), "{err}");
    assert!(err.contains("Home to choose: formation"), "{err}");
}

#[test]
fn rules_check_accepts_the_original() {
    let o = fuba(&["rules", "check", "rulesets/original.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "ok: rulesets/original.toml (ruleset original)"
    );
}

#[test]
fn a_misspelled_area_is_reported_with_its_place() {
    let path = edited_copy(
        "misspelled",
        r#"set_ball(only(mark("centre", t)))"#,
        "set_ball(CENTER)",
    );
    let p = path.to_string_lossy().into_owned();
    let line = original()
        .lines()
        .position(|l| l.contains(r#"set_ball(only(mark("centre", t)))"#))
        .map(|i| i + 1)
        .unwrap_or_default();

    let o = fuba(&["rules", "check", &p]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(&format!("{p}:{line}:10")), "{err}");
    assert!(err.contains("CENTRE"), "a hint is expected: {err}");

    let o = fuba(&["rules", "check", "--format", "json", &p]);
    assert_eq!(o.status.code(), Some(1));
    let diags = json(&o);
    assert_eq!(diags[0]["line"], line);
    assert_eq!(diags[0]["severity"], "error");

    let o = fuba(&["play", "--rules", &p, "--seed", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&format!("{p}:{line}:10")));
}

#[test]
fn simulate_json_does_not_depend_on_the_thread_count() {
    let run = |jobs: &str| {
        let o = fuba(&[
            "simulate", "--rules", "original", "--games", "50", "--seed", "3", "--format", "json",
            "--jobs", jobs,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let mut v = json(&o);
        assert_eq!(v["schema"], 1);
        assert_eq!(v["games"], 50);
        v.as_object_mut().map(|m| m.remove("timing"));
        v
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert!(one["goals_per_match"]["mean"].is_number());
    assert!(one["figures_per_match"]["shots"]["mean"].is_number());
}

#[test]
fn simulate_table_names_its_figures() {
    let o = fuba(&["simulate", "--games", "10", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "games played       10",
        "goals per match",
        "shots per match",
        "conversion",
        "turns per half",
        "matches per second",
    ] {
        assert!(out.contains(want), "{want:?} missing:\n{out}");
    }
}

#[test]
fn a_changed_number_changes_the_figures() {
    let path = edited_copy("kickoff2", "kickoff_ball = 3 ", "kickoff_ball = 2 ");
    let p = path.to_string_lossy().into_owned();
    let o = fuba(&["rules", "check", &p]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("ok: "));

    let goals = |rules: &str| {
        let o = fuba(&[
            "simulate", "--rules", rules, "--games", "200", "--seed", "5", "--format", "json",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        json(&o)["goals_per_match"]["mean"].clone()
    };
    assert_ne!(goals("original"), goals(&p));
}

#[test]
fn help_documents_every_subcommand_and_the_exit_codes() {
    let o = fuba(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for want in [
        "play",
        "simulate",
        "rules",
        "completions",
        "replay",
        "scenario",
        "Exit codes",
        "Examples",
    ] {
        assert!(out.contains(want), "{want:?} missing:\n{out}");
    }
    for sub in [
        &["play", "--help"][..],
        &["simulate", "--help"],
        &["rules", "check", "--help"],
        &["rules", "primitives", "--help"],
        &["completions", "--help"],
        &["replay", "--help"],
        &["scenario", "--help"],
    ] {
        let o = fuba(sub);
        assert_eq!(o.status.code(), Some(0), "{sub:?}");
        assert!(stdout(&o).contains("Examples:"), "{sub:?}");
    }
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(fuba(&["kick"]).status.code(), Some(2));
    assert_eq!(
        fuba(&["play", "--seed", "minus one"]).status.code(),
        Some(2)
    );
    let o = fuba(&["play", "--rules", "orignal"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("original"),
        "the editions are listed: {}",
        stderr(&o)
    );
    assert_eq!(
        fuba(&["simulate", "--home", "human", "--games", "1"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn primitives_and_completions_print() {
    let o = fuba(&["rules", "primitives"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("<!-- Generated by `fuba rules primitives`"));
    assert!(out.contains("| `ball_area` |"));
    let o = fuba(&["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("fuba"));
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuba"))
        .args(["play", "--seed", "1", "--verbose"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fuba");
    let mut first = [0u8; 16];
    let mut out = child.stdout.take().expect("stdout");
    out.read_exact(&mut first).expect("some output");
    drop(out); // like `fuba play | head -c 16`
    let o = child.wait_with_output().expect("wait");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(0), "{err}");
}

#[test]
fn the_heuristic_player_plays() {
    let o = fuba(&[
        "simulate",
        "--games",
        "10",
        "--seed",
        "1",
        "--home",
        "heuristic",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["home"], "heuristic");
    assert_eq!(v["games"], 10);
    let o = fuba(&[
        "play",
        "--seed",
        "1",
        "--home",
        "heuristic",
        "--away",
        "heuristic",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn narration_is_live_when_a_human_plays() {
    // stdout and stderr share one file, so the order in it is the order of writing.
    let dir = scratch("live");
    let both = dir.join("both.txt");
    let file = std::fs::File::create(&both).expect("create");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuba"))
        .args(["play", "--seed", "1", "--home", "human"])
        .current_dir(workspace())
        .env_remove("FUBA_RULES")
        .stdin(Stdio::piped())
        .stdout(file.try_clone().expect("clone"))
        .stderr(file)
        .spawn()
        .expect("run fuba");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all("1\n".repeat(40).as_bytes()).expect("write");
    }
    let status = child.wait().expect("wait");
    assert_eq!(
        status.code(),
        Some(1),
        "the player quits at the end of input"
    );
    let text = std::fs::read_to_string(&both).expect("read");
    let kickoff = text.find("kicks off").expect("the kick-off is narrated");
    assert!(
        text[kickoff..].contains("to choose:"),
        "the narration comes between the prompts, not after the match:\n{text}"
    );
    let line = text[..kickoff]
        .rsplit(['\n', ':'])
        .next()
        .unwrap_or_default()
        .to_string()
        + "kicks off";
    assert_eq!(
        text.matches(&line).count(),
        1,
        "{line:?} narrated once:\n{text}"
    );
}

/// A log of `fuba play --seed 5` in a scratch directory.
fn recorded(name: &str) -> String {
    let path = scratch(name).join("m.jsonl");
    let p = path.to_string_lossy().into_owned();
    let o = fuba(&["play", "--seed", "5", "--log", &p]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    p
}

#[test]
fn replay_of_an_unchanged_match_is_identical() {
    let log = recorded("replay-same");
    let o = fuba(&["replay", &log]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("identical: "), "{out}");
    assert!(out.contains("events, final score Home "), "{out}");
    assert!(!out.contains("rules changed"), "{out}");
}

#[test]
fn replay_under_an_edited_ruleset_shows_the_first_divergence() {
    let log = recorded("replay-edit");
    let copy = edited_copy("replay-edit", "kickoff_ball = 3 ", "kickoff_ball = 4 ");
    let copy = copy.to_string_lossy().into_owned();
    let o = fuba(&["replay", &log, "--rules", &copy]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "rules changed since the log was recorded",
        "diverged at event ",
        "half 1, before the first turn, 1'",
        "stage:    half_start",
        "rule:     procedures.kickoff",
        "expected: 1' ball value 3",
        "produced: 1' ball value 4",
        "\"event\":\"ball_value\",\"value\":3}",
    ] {
        assert!(out.contains(want), "{want:?} missing:\n{out}");
    }

    let o = fuba(&["replay", &log, "--rules", &copy, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert_eq!(v["identical"], false);
    assert_eq!(v["rules_changed"], true);
    let d = &v["divergence"];
    assert_eq!(d["turn"], 0);
    assert_eq!(d["stage"], "half_start");
    assert_eq!(d["expected"]["value"], 3);
    assert_eq!(d["produced"]["value"], 4);
}

#[test]
fn replay_reads_stdin_and_names_a_bad_line() {
    let log = recorded("replay-stdin");
    let text = std::fs::read_to_string(&log).expect("log");
    let run =
        |input: String| fuba_with_stdin(&["replay", "-", "--format", "json"], input.as_bytes());
    let o = run(text.clone());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["identical"], true);

    let mut lines: Vec<&str> = text.lines().collect();
    lines[2] = "{\"seq\": oops";
    let o = run(lines.join("\n"));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("line 3: not an event"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn replay_needs_rules_when_the_log_is_not_of_an_edition() {
    let log = recorded("replay-house");
    let text = std::fs::read_to_string(&log).expect("log");
    let house = text.replacen("\"ruleset\":\"original\"", "\"ruleset\":\"house\"", 1);
    assert_ne!(house, text);
    std::fs::write(&log, house).expect("write");
    let o = fuba(&["replay", &log]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("`house`, which is not a built-in edition"),
        "{err}"
    );
    assert!(err.contains("--rules"), "{err}");
    // With the rules given it replays.
    let o = fuba(&["replay", &log, "--rules", "original"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn the_scenarios_pass() {
    let o = fuba(&["scenario", "tests/scenarios"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.lines().any(|l| l.starts_with("PASS ")), "{out}");
    assert!(out.contains(" 0 failed, 0 could not run"), "{out}");
}

fn control_check_scenario(name: &str, edit: (&str, &str)) -> String {
    let text =
        std::fs::read_to_string(workspace().join("tests/scenarios/original/control_check_1.toml"))
            .expect("scenario");
    assert!(
        text.contains(edit.0),
        "the scenario no longer has {:?}",
        edit.0
    );
    let path = scratch(name).join(format!("{name}.toml"));
    std::fs::write(&path, text.replacen(edit.0, edit.1, 1)).expect("write");
    path.to_string_lossy().into_owned()
}

#[test]
fn a_wrong_expectation_fails_with_expected_and_got() {
    let f = control_check_scenario(
        "wrong",
        (
            "event_fields = { pass = { value = 5,",
            "event_fields = { pass = { value = 6,",
        ),
    );
    let o = fuba(&["scenario", &f]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("FAIL Control check (1)"), "{out}");
    assert!(out.contains(&format!("({f})")), "{out}");
    assert!(
        out.contains("    event \"pass\" field value: expected 6, got 5"),
        "{out}"
    );
    assert!(out.contains("what ran:"), "{out}");
    assert!(out.contains("1 failed"), "{out}");
}

#[test]
fn an_impossible_position_is_refused() {
    let f = control_check_scenario(
        "twelve",
        ("S_FRONT = 2, CENTRE = 4", "S_FRONT = 3, CENTRE = 4"),
    );
    let o = fuba(&["scenario", &f]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("ERROR Control check (1)"), "{out}");
    assert!(
        out.contains("position.home: 11 field pieces (sent off included), but a team has 10"),
        "{out}"
    );
    assert!(out.contains("1 could not run"), "{out}");
}
