//! Runs every scenario under tests/scenarios/ (format: docs/scenarios.md).

use std::path::{Path, PathBuf};

use fuba_engine::load::load_str_options;
use fuba_engine::scenario::Scenario;
use fuba_tests::{root, ruleset_path};

fn scenario_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            scenario_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "toml")
            && Scenario::not_a_scenario(&p).is_none()
        {
            out.push(p);
        }
    }
}

/// Runs one scenario and records its failures.
fn report(s: &Scenario, f: &Path, rs: &fuba_engine::ruleset::Ruleset, failed: &mut Vec<String>) {
    match s.run(rs) {
        Ok(r) if r.passed() => {}
        Ok(r) => failed.push(format!(
            "{} ({}):\n  {}\n  narration:\n    {}",
            f.display(),
            r.name,
            r.failures.join("\n  "),
            r.narration.join("\n    ")
        )),
        Err(e) => failed.push(format!("{e}")),
    }
}

#[test]
fn every_scenario_passes() {
    let mut files = Vec::new();
    scenario_files(&root().join("tests/scenarios"), &mut files);
    assert!(!files.is_empty(), "no scenarios found");
    let mut failed = Vec::new();
    // Each ruleset (with its options) is loaded once.
    let mut loaded: std::collections::HashMap<String, fuba_engine::ruleset::Ruleset> =
        Default::default();
    for f in &files {
        let s = match Scenario::load(f) {
            Ok(s) => s,
            Err(e) => {
                failed.push(format!("{e}"));
                continue;
            }
        };
        let rules_path = s.rules_path().unwrap_or_else(|| ruleset_path(&s.rules));
        let key = format!("{} {:?}", rules_path.display(), s.option_pairs());
        if let Some(rs) = loaded.get(&key) {
            report(&s, f, rs, &mut failed);
            continue;
        }
        let text = match std::fs::read_to_string(&rules_path) {
            Ok(t) => t,
            Err(e) => {
                failed.push(format!(
                    "{}: cannot read {}: {e}",
                    f.display(),
                    rules_path.display()
                ));
                continue;
            }
        };
        let rs = match load_str_options(&rules_path, &text, &|_| None, &s.option_pairs()) {
            Ok(r) => r,
            Err(e) => {
                failed.push(format!("{}: rules do not load:\n{e}", f.display()));
                continue;
            }
        };
        report(&s, f, &rs, &mut failed);
        loaded.insert(key, rs);
    }
    assert!(
        failed.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failed.len(),
        files.len(),
        failed.join("\n\n")
    );
}

/// Loads a scenario and its ruleset (an edition name or a path) and runs it.
fn load_and_run(f: &Path) -> Result<fuba_engine::scenario::Report, String> {
    let s = Scenario::load(f).map_err(|e| e.to_string())?;
    let rules_path = s.rules_path().unwrap_or_else(|| ruleset_path(&s.rules));
    let text = std::fs::read_to_string(&rules_path).map_err(|e| e.to_string())?;
    let rs = match load_str_options(&rules_path, &text, &|_| None, &s.option_pairs()) {
        Ok(rs) => rs,
        Err(e) => {
            // A misspelt option: shown where the scenario writes it.
            let plain = load_str_options(&rules_path, &text, &|_| None, &[]);
            return Err(match plain.map(|rs| s.check_options(&rs)) {
                Ok(Err(located)) => located.to_string(),
                _ => e.to_string(),
            });
        }
    };
    s.run(&rs).map_err(|e| e.to_string())
}

/// Every name a scenario uses is checked before the run: a misspelt one, in any kind of
/// key, is an error at its line and column with the closest known name.
#[test]
fn misspelt_names_are_located_errors() {
    insta::glob!("fixtures/scenario_names/*.toml", |path| {
        let message = match load_and_run(path) {
            Ok(r) => panic!(
                "{} ran ({} failures) instead of being refused",
                path.display(),
                r.failures.len()
            ),
            Err(e) => e,
        };
        let file = path
            .file_name()
            .map_or(String::new(), |f| f.display().to_string());
        let shown = message.replace(&path.display().to_string(), &file);
        assert!(
            shown.starts_with(&format!("{file}:"))
                && shown[file.len() + 1..].starts_with(|c: char| c.is_ascii_digit()),
            "not located: {shown}"
        );
        insta::assert_snapshot!(shown);
    });
}

/// Loads a ruleset file.
fn ruleset_at(path: &Path) -> fuba_engine::ruleset::Ruleset {
    let text = std::fs::read_to_string(path).expect("ruleset file");
    load_str_options(path, &text, &|_| None, &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// Each new expectation form catches a deliberately broken rule: the scenario passes under
/// its edition and fails, with the failure of that form, under a layer that breaks one rule.
#[test]
fn new_forms_catch_broken_rules() {
    let dir = root().join("tests/fixtures/scenario_forms");
    let cases = [
        (
            "offered_moves.toml",
            "broken_moves_twice.toml",
            "offered \"move\" to away (4th): expected not to include [\"S_FRONT->CENTRE\", \"S_FRONT->S_WEST_WING\", \"S_FRONT->S_EAST_WING\"]",
        ),
        (
            "moved_first.toml",
            "broken_quick_order.toml",
            "moved first: expected away, got home",
        ),
        (
            "match_over.toml",
            "broken_three_halves.toml",
            "match over: expected true, got false",
        ),
        (
            "completed.toml",
            "broken_time_ends_turn.toml",
            "completed: expected every listed procedure to run; the run ended in `time` (procedure 1 of 2): a rule ended the turn; not run: control_check",
        ),
        (
            "passes.toml",
            "broken_pass_modifier.toml",
            "modifiers \"pass\" after \"target area\": expected 1, got 2",
        ),
        (
            "passes.toml",
            "broken_pass_modifier.toml",
            "event \"pass\" (1st) field ball: expected 4, got 5",
        ),
        (
            "passes.toml",
            "broken_pass_modifier.toml",
            "event \"pass\": none of them held: event \"pass\" (1st) field ball: expected 4, got 5; event \"pass\" (2nd) field",
        ),
    ];
    for (scenario, broken, failure) in cases {
        let s = Scenario::load(&dir.join(scenario)).unwrap_or_else(|e| panic!("{e}"));
        let good = ruleset_at(&s.rules_path().expect("a path"));
        let r = s.run(&good).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.passed(), "{scenario}: {:?}", r.failures);
        let r = s
            .run(&ruleset_at(&dir.join(broken)))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            r.failures.iter().any(|f| f.starts_with(failure)),
            "{scenario} under {broken}: no failure starting {failure:?} in {:#?}",
            r.failures
        );
    }
}

/// `every` holds only when each decision or event holds, and names the one that did not;
/// `nth` beyond the last is a failure that says how many there were.
#[test]
fn every_and_nth_name_the_one_that_failed() {
    let dir = root().join("tests/fixtures/scenario_forms");
    let text = std::fs::read_to_string(dir.join("passes.toml")).expect("fixture");
    let text = text.replace(
        "{ every = true, fields = { team = \"away\" } }",
        "{ every = true, fields = { result = \"supportive\" } }, { nth = 3, fields = { team = \"away\" } }",
    );
    let path = dir.join("every_nth.tmp.toml");
    std::fs::write(&path, text).expect("write");
    let s = Scenario::load(&path);
    let _ = std::fs::remove_file(&path);
    let s = s.unwrap_or_else(|e| panic!("{e}"));
    let r = s
        .run(&ruleset_at(&s.rules_path().expect("a path")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        r.failures,
        [
            "event \"pass\" (2nd) field result: expected \"supportive\", got \"creative\"",
            "event \"pass\": no 3rd, only 2",
        ]
    );
}

/// A run that starts after the stages that set the turn's state (the areas occupied at the
/// start of the turn, the modifier area) is refused when its position does not give that
/// state, naming each variable and the procedures that would have set it; and a position
/// the rules cannot derive from without asking a team or rolling (their `[scenario]
/// derive`) is refused at its `[position]`.
#[test]
fn positions_without_the_turn_state_they_need_are_refused() {
    insta::glob!("fixtures/scenario_positions/*.toml", |path| {
        let message = match load_and_run(path) {
            Ok(r) => panic!(
                "{} ran ({:?}) instead of being refused",
                path.display(),
                r.failures
            ),
            Err(e) => e,
        };
        let file = path
            .file_name()
            .map_or(String::new(), |f| f.display().to_string());
        insta::assert_snapshot!(message.replace(&path.display().to_string(), &file));
    });
}

/// Runs a fixture of `tests/fixtures/scenario_scripts/` under its ruleset.
fn script_fixture(name: &str) -> fuba_engine::scenario::Report {
    load_and_run(&root().join("tests/fixtures/scenario_scripts").join(name))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A decision with a single legal option takes its label when the script gives it (here
/// the free movement's "done"), and runs without it as well.
#[test]
fn a_single_legal_option_takes_its_label_but_never_needs_it() {
    let given = script_fixture("single_option_label.toml");
    assert!(given.passed(), "{:?}", given.failures);
    let s = Scenario::load(&root().join("tests/scenarios/original/empty_area.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let r = s
        .run(&ruleset_at(&ruleset_path("original")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(r.passed(), "{:?}", r.failures);
}

/// A script error names the team, which of its choices it is, the decision and the legal
/// labels.
#[test]
fn script_errors_name_the_team_and_the_choice() {
    let r = script_fixture("label_not_legal.toml");
    assert!(
        r.failures.iter().any(|f| f.starts_with(
            "the rules stopped with an error: home's choice 3 (\"done\") is not legal for \"movement option\"; legal: \"defence movement\", \"midfield movement\", \"forward movement\""
        )),
        "{:#?}",
        r.failures
    );
    let r = script_fixture("script_runs_out.toml");
    assert!(
        r.failures.iter().any(|f| f.starts_with(
            "the rules stopped with an error: home's script has no choice left for \"move\" (it gave 3 labels); legal: "
        )),
        "{:#?}",
        r.failures
    );
}

/// The default `modifiers` check counts the lists of what was played, not the lists the
/// rules compute together to offer a decision (the pass to every target weighed for a
/// second action): the scenario passes with the pass played (+1) and fails, saying what
/// was left out, with the last list computed (+2), which the default checked before.
#[test]
fn the_default_modifier_list_is_the_one_played() {
    let path = root().join("tests/scenarios/2024/modifiers_of_the_pass_played.toml");
    let text = std::fs::read_to_string(&path).expect("scenario");
    let s = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let rs = ruleset_at(&ruleset_path("2024"));
    let r = s.run(&rs).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.passed(), "{:#?}", r.failures);
    let text = text.replace("modifiers = { pass = 1 }", "modifiers = { pass = 2 }");
    let tmp = root().join("tests/fixtures/scenario_forms/last_list.tmp.toml");
    std::fs::write(
        &tmp,
        text.replace(
            "rules = \"2024\"",
            "rules = \"../../../rulesets/2024.toml\"",
        ),
    )
    .expect("write");
    let s = Scenario::load(&tmp);
    let _ = std::fs::remove_file(&tmp);
    let r = s
        .unwrap_or_else(|e| panic!("{e}"))
        .run(&rs)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        r.failures,
        [
            "modifiers \"pass\": expected 2, got 1 (the one list of what was played; 24 others of that name were computed together to offer a decision; `{ total = 2, after = \"DECISION\" }` checks the first list after a decision)"
        ]
    );
}

/// A placement given as a position that the setup cannot end with stops the run, naming
/// the team, the placement, what is short and the legal areas: a piece the rules would
/// put where the setup forbids (a second player in the opponent's penalty area at a
/// penalty kick), and a placement of fewer pieces than the setup places.
#[test]
fn placements_that_cannot_be_kept_are_named() {
    let cases = [
        (
            "placement_not_legal.toml",
            "the rules stopped with an error: home's placement { N_BOX = 2, N_FRONT = 3, CENTRE = 3, S_FRONT = 2 } cannot be kept: \"setup\" asks for one more piece, and the areas that lack pieces, N_BOX (1 of 2), are not legal; legal: \"S_BOX\", ",
        ),
        (
            "placement_short.toml",
            "the rules stopped with an error: home's placement { N_FRONT = 4, N_WEST_WING = 1, N_EAST_WING = 1, CENTRE = 2, S_FRONT = 1 } cannot be kept: \"setup\" asks for one more piece, and every area has its pieces (the placement gives fewer than the setup places); legal: ",
        ),
    ];
    for (file, failure) in cases {
        let r = script_fixture(file);
        assert!(
            r.failures.iter().any(|f| f.starts_with(failure)),
            "{file}: no failure starting {failure:?} in {:#?}",
            r.failures
        );
    }
}

/// A run `until` the end of the match that is stopped before it fails when it says it
/// must get there, naming where it stopped; the same run to its end passes (and the match
/// is over).
#[test]
fn a_run_until_the_end_of_the_match_must_reach_it() {
    let path = root().join("tests/scenarios/original/match_end.toml");
    let rs = ruleset_at(&ruleset_path("original"));
    let s = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let r = s.run(&rs).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.passed(), "{:#?}", r.failures);
    let text = std::fs::read_to_string(&path).expect("scenario");
    let text = text.replace("dice = [3, 2]", "dice = [6, 1]\nstop_at = \"pass\"");
    let text = format!(
        "{}[expect]\ncompleted = true\n",
        &text[..text.find("[expect]").expect("expect")]
    );
    let tmp = root().join("tests/fixtures/scenario_forms/not_the_end.tmp.toml");
    std::fs::write(&tmp, text).expect("write");
    let s = Scenario::load(&tmp);
    let _ = std::fs::remove_file(&tmp);
    let r = s
        .unwrap_or_else(|e| panic!("{e}"))
        .run(&rs)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        r.failures,
        [
            "completed: expected the run to reach the end of the match, it stopped at half 2 90+3 (stop_at)"
        ]
    );
}
