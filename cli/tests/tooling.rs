//! End-to-end tests of the rule tooling: `fuba rules check` (lints, --deny warnings),
//! `rules show`, `rules diff`, `rules new` and `fuba explain`.

mod common;

use common::{fuba, json, ok, scratch, stderr, stdout};

const BAD: &str = "tests/fixtures/lints/unused-procedure_bad.toml";
const OK: &str = "tests/fixtures/lints/unused-procedure_ok.toml";

#[test]
fn check_shows_warnings_and_exits_0() {
    let o = fuba(&["rules", "check", BAD]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("1 warning"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("warning[unused-procedure]: procedure `home_bonus` is never run"),
        "{err}"
    );
    assert!(err.contains("unused-procedure_bad.toml:6:1"), "{err}");
    assert!(err.contains("^^^^"), "a marker under the line: {err}");
}

#[test]
fn deny_warnings_makes_warnings_fail() {
    let o = fuba(&["rules", "check", "--deny", "warnings", BAD]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("denied by --deny warnings"));
    let o = fuba(&["rules", "check", "--deny", "warnings", OK]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = fuba(&["rules", "check", "--deny", "errors", OK]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
}

#[test]
fn check_json_lists_warnings_as_data() {
    let o = fuba(&["rules", "check", "--format", "json", BAD]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    let d = &j[0];
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["lint"], "unused-procedure");
    assert_eq!(d["line"], 6);
    assert_eq!(d["column"], 1);
    assert_eq!(d["rule"], "procedures.home_bonus");
    let o = fuba(&[
        "rules", "check", "--format", "json", "--deny", "warnings", BAD,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let o = fuba(&["rules", "check", "--format", "json", OK]);
    assert_eq!(json(&o), serde_json::json!([]));
}

#[test]
fn the_editions_check_clean_under_deny_warnings() {
    let o = fuba(&["rules", "check", "--deny", "warnings", "original", "2015"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

#[test]
fn show_a_table_reads_like_the_rulebook() {
    let o = fuba(&["rules", "show", "original", "--table", "special_event"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!(stdout(&o));
    let o = fuba(&["rules", "show", "original", "--table", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("its tables are: special_event"));
}

#[test]
fn show_lists_constants_procedures_skills_and_options() {
    let o = fuba(&["rules", "show", "original", "--constants"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("show_constants", stdout(&o));
    let o = fuba(&["rules", "show", "original", "--procedures"]);
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["free_kick", "5.1", "t:", "team"]),
        "{out}"
    );
    let o = fuba(&[
        "rules",
        "show",
        "rulesets/examples/home-advantage.toml",
        "--skills",
    ]);
    insta::assert_snapshot!("show_skills", stdout(&o));
    let o = fuba(&["rules", "show", "original", "--options"]);
    assert_eq!(stdout(&o), "original: no match options\n");
    let o = fuba(&[
        "rules",
        "show",
        "original",
        "--constants",
        "--format",
        "json",
    ]);
    let j = json(&o);
    assert_eq!(j[8]["name"], "long_pass_per_area");
    assert_eq!(j[8]["value"], -2);
}

/// `--decisions` lists every decision with the labels a scenario's script answers it with,
/// each decision's word for declining included (issue 14: "done", "no", "no shot"...).
#[test]
fn show_lists_decisions_with_their_labels() {
    let o = fuba(&["rules", "show", "2015", "--decisions"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let line = |name: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no {name:?} in {out}"))
            .to_string()
    };
    assert!(
        line("free movement").ends_with("an area or a move, done (skip)"),
        "{out}"
    );
    assert!(line("goal attempt").ends_with("no shot, shoot"), "{out}");
    let o = fuba(&["rules", "show", "2015", "--decisions", "--format", "json"]);
    let j = json(&o);
    let fm = j
        .as_array()
        .and_then(|a| a.iter().find(|d| d["name"] == "free movement"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(fm["skip"][0], "done");
    assert_eq!(fm["areas_or_moves"], true);
}

#[test]
fn diff_shows_exactly_the_changed_constant_and_the_added_figure() {
    let o = fuba(&[
        "rules",
        "diff",
        "original",
        "rulesets/examples/gentle-long-pass.toml",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!(stdout(&o));
    let o = fuba(&[
        "rules",
        "diff",
        "original",
        "rulesets/examples/gentle-long-pass.toml",
        "--format",
        "json",
    ]);
    let j = json(&o);
    let changes = j["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 2, "{j}");
    assert_eq!(changes[0]["section"], "constants");
    assert_eq!(changes[0]["entry"], "long_pass_per_area");
    assert_eq!(changes[0]["fields"][0]["old"], "-2");
    assert_eq!(changes[0]["fields"][0]["new"], "-1");
    assert_eq!(changes[1]["section"], "figures");
    assert_eq!(changes[1]["entry"], "long_passes");
}

#[test]
fn diff_shows_table_rows_and_procedure_code() {
    let o = fuba(&[
        "rules",
        "diff",
        "original",
        "rulesets/examples/cautious-referee.toml",
    ]);
    insta::assert_snapshot!("diff_table_rows", stdout(&o));
    let o = fuba(&[
        "rules",
        "diff",
        "original",
        "rulesets/examples/keepers-stay-home.toml",
    ]);
    insta::assert_snapshot!("diff_procedure", stdout(&o));
    let o = fuba(&["rules", "diff", "original", "original"]);
    assert!(stdout(&o).contains("no differences in the rules"));
}

#[test]
fn a_new_starter_file_checks_clean_as_printed() {
    for edition in ["original", "2015"] {
        let o = fuba(&["rules", "new", "--extends", edition]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains(&format!("extends = \"{edition}\"")), "{text}");
        for example in ["[constants]", "[tables.", "[procedures.", "remove = ["] {
            assert!(text.contains(&format!("# {example}")), "{example}: {text}");
        }
        let path = scratch("new").join(format!("{edition}-house.toml"));
        std::fs::write(&path, &text).expect("write");
        let p = path.display().to_string();
        let o = fuba(&["rules", "check", "--deny", "warnings", &p]);
        assert_eq!(o.status.code(), Some(0), "{}\n{text}", stderr(&o));
        // Uncommenting the constant example still checks.
        let uncommented = text.replacen("# [constants]\n# ", "[constants]\n", 1);
        std::fs::write(&path, uncommented).expect("write");
        let o = fuba(&["rules", "check", &p]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
}

#[test]
fn the_starter_file_remove_example_works_uncommented() {
    let o = fuba(&["rules", "new", "--extends", "original"]);
    let text = stdout(&o).replacen("# remove = [", "remove = [", 1);
    let path = scratch("new-remove").join("house.toml");
    std::fs::write(&path, &text).expect("write");
    let o = fuba(&["rules", "check", &path.display().to_string()]);
    assert_eq!(o.status.code(), Some(0), "{}\n{text}", stderr(&o));
}

#[test]
fn explain_shows_every_modifier_row_table_entry_and_trigger() {
    let dir = scratch("explain");
    let log = dir.join("m.jsonl").display().to_string();
    let o = fuba(&[
        "play",
        "--rules",
        "rulesets/examples/home-advantage.toml",
        "--seed",
        "3",
        "--log",
        &log,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = fuba(&["explain", &log, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    let events = j["events"].as_array().expect("events");
    let mut lists = 0;
    for e in events.iter().filter(|e| e["event"] == "modifiers") {
        lists += 1;
        assert_eq!(e["rows_sum"], e["total"], "{e}");
        assert!(
            e["rule"]
                .as_str()
                .is_some_and(|r| r.starts_with("procedures."))
        );
    }
    assert!(lists > 10);
    let table = events
        .iter()
        .find(|e| e["event"] == "table")
        .expect("a table entry in seed 3");
    assert!(
        table["rule"]
            .as_str()
            .is_some_and(|r| r.starts_with("tables.special_event["))
    );
    // A goal attempt with the house rule's trigger taken in.
    let shot = events
        .iter()
        .find(|e| {
            e["event"] == "modifiers" && !e["hook_effects"].as_array().is_none_or(Vec::is_empty)
        })
        .expect("a modifier list with a trigger");
    let seq = shot["seq"].as_u64().expect("seq").to_string();
    let o = fuba(&["explain", &log, "--event", &seq]);
    let out = stdout(&o);
    assert!(out.contains("modifiers \"goal attempt\""), "{out}");
    assert!(out.contains("not held"), "{out}");
    assert!(
        out.contains("home_crowd at goal_attempt_modifier: +1"),
        "{out}"
    );
    assert!(
        out.contains("[triggers.home_crowd (section house rule)]"),
        "{out}"
    );
    let o = fuba(&["explain", &log, "--turn", "1", "--half", "1"]);
    assert!(
        stdout(&o).contains("half 1, turn 1, stage"),
        "{}",
        stdout(&o)
    );
    let o = fuba(&["explain", &log, "--event", "999999"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn explain_labels_each_modifier_list_with_its_candidate() {
    // 2024: the pass modifiers of every target are worked out before the choice; each
    // list says which start and target area it was for.
    let o = fuba(&[
        "explain",
        "tests/golden/2024-seed-1.jsonl",
        "--turn",
        "3",
        "--half",
        "1",
    ]);
    let out = ok(&o);
    assert!(
        out.contains("modifiers \"pass\" for s = S_WEST_WING, t = S_BOX, kick = false: total -2"),
        "{out}"
    );
    assert!(!out.contains("note:"), "{out}");
    insta::assert_snapshot!("explain_2024_turn_3_labels", out);
    // The original edition: the control check's lists, labelled too.
    let out = ok(&fuba(&[
        "explain",
        "tests/golden/original-seed-1.jsonl",
        "--turn",
        "3",
        "--half",
        "1",
    ]));
    insta::assert_snapshot!("explain_original_turn_3_labels", out);
    // As data: the candidate of each list, by parameter.
    let j = json(&fuba(&[
        "explain",
        "tests/golden/2024-seed-1.jsonl",
        "--event",
        "196",
        "--format",
        "json",
    ]));
    let list = j["events"]
        .as_array()
        .and_then(|v| v.iter().find(|e| e["event"] == "modifiers"))
        .expect("a modifier list");
    assert_eq!(
        list["candidate"],
        serde_json::json!({"s": "S_WEST_WING", "t": "S_BOX", "kick": "false"})
    );
    assert_eq!(j["note"], serde_json::Value::Null);
}

#[test]
fn explain_without_a_loadable_ruleset_shows_the_lists_unlabelled_with_a_note() {
    let log =
        std::fs::read_to_string(common::workspace().join("tests/golden/original-seed-1.jsonl"))
            .expect("the golden log");
    let log = log.replacen("\"ruleset\":\"original\"", "\"ruleset\":\"lost-house\"", 1);
    let o = common::fuba_with_stdin(&["explain", "-", "--event", "120"], log.as_bytes());
    let out = ok(&o);
    let notes: Vec<&str> = out.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(notes.len(), 1, "{out}");
    assert!(
        notes[0].contains("not labelled with their candidates: the log's ruleset `lost-house` is not a built-in edition"),
        "{out}"
    );
    assert!(
        out.contains("modifiers \"control check\": total +4"),
        "{out}"
    );
    // Replayed under rules that play the match otherwise: labels up to the difference.
    let o = fuba(&[
        "explain",
        "tests/golden/original-seed-1.jsonl",
        "--rules",
        "rulesets/examples/gentle-long-pass.toml",
    ]);
    let out = ok(&o);
    assert!(
        out.contains("are not labelled with their candidates: replayed under `rulesets/examples/gentle-long-pass.toml`, the match differs from the log there"),
        "{out}"
    );
    assert!(out.contains("modifiers \"control check\" for "), "{out}");
}

#[test]
fn diff_summary_lists_names_per_section_without_code() {
    let o = fuba(&["rules", "diff", "original", "2015", "--summary"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    insta::assert_snapshot!("diff_original_2015_summary", out);
    let full = stdout(&fuba(&["rules", "diff", "original", "2015"]));
    assert!(
        out.lines().count() * 4 < full.lines().count(),
        "a summary is much shorter than the full diff"
    );
    assert!(!out.contains("do:") && !out.contains("label:"), "{out}");
    let o = fuba(&[
        "rules",
        "diff",
        "original",
        "2015",
        "--summary",
        "--format",
        "json",
    ]);
    let j = json(&o);
    let constants = j["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .find(|s| s["section"] == "constants")
        .expect("constants differ");
    assert!(
        constants["removed"]
            .as_array()
            .expect("removed")
            .contains(&"long_pass_per_area".into()),
        "{constants}"
    );
}

/// Issue 6: `rules show 2024 --skills`, `--options` and `--table weather` list every skill
/// (A12's five tables), weather (A10) and advanced-rule option of the rulebook.
#[test]
fn show_2024_lists_every_skill_weather_and_option() {
    // Without --verbose: the skills, each with its cost, when it can be played and what it
    // does; no triggers.
    let short = ok(&fuba(&["rules", "show", "2024", "--skills"]));
    assert!(
        short.starts_with("entries of skillset in 2024 (40,"),
        "the skills come first:\n{short}"
    );
    assert!(
        !short.contains("\nhook ") && !short.contains("played by: "),
        "triggers are behind --verbose:\n{short}"
    );
    assert!(
        short.contains("  33. Tackler: group defenders, cost 0,"),
        "{short}"
    );
    assert!(short.ends_with(
        "--verbose: where each is played (triggers, procedures), then every trigger by hook\n"
    ));
    let skills_out = ok(&fuba(&["rules", "show", "2024", "--skills", "--verbose"]));
    // The skills first, then the triggers by hook.
    let catalogue = skills_out
        .strip_prefix("entries of skillset in 2024 (40,")
        .and_then(|c| c.split_once("\ntriggers of 2024 by hook"))
        .map(|(c, _)| c)
        .unwrap_or_else(|| panic!("no skill catalogue of 40 skills:\n{skills_out}"));
    // fuba-2024.txt A12: team skills, goalkeepers, defenders, midfielders, forwards.
    let rulebook = [
        "Trained formation change",
        "Strength in depth",
        "Great condition",
        "Fanatical fans",
        "Trained special event",
        "Gegenpressing",
        "Angry coach",
        "Sweeper keeper",
        "Creative goalkeeper",
        "Shot stopper",
        "Penalty saver",
        "Leading goalkeeper",
        "Advancing goalkeeper",
        "Tackler",
        "Stopper",
        "Skilled full back",
        "Doubling up",
        "Offside trap",
        "Skilled wing back",
        "Fast defender",
        "Catenaccio",
        "Midfield general",
        "Creative midfielder",
        "Midfield pressing",
        "Crossing",
        "Regista",
        "Dribbler",
        "Short passes",
        "Box to box midfielder",
        "Il mediano",
        "Mezzala",
        "Target man",
        "Clinical finisher",
        "Aggressive striker",
        "Goal poacher",
        "Actor",
        "Runner",
        "Seconda punta",
        "Long range shooter",
        "Loose cannon",
    ];
    assert_eq!(rulebook.len(), 40);
    for s in rulebook {
        // Each entry: `N. NAME: fields`, the rulebook's words, then where it is played.
        let at = catalogue
            .find(&format!(". {s}: group "))
            .unwrap_or_else(|| panic!("{s} is not listed:\n{catalogue}"));
        let block = &catalogue[at..];
        assert!(
            block.contains("\n      effect: ") && block.contains("\n      moment: "),
            "{s} without the rulebook's words"
        );
        let played = block
            .lines()
            .find(|l| l.trim_start().starts_with("played by: "))
            .unwrap_or_else(|| panic!("{s}: where it is played is not listed"));
        assert!(
            !played.contains("(played nowhere)"),
            "{s} is played nowhere"
        );
    }
    // Every trigger's condition is on one line.
    assert!(
        skills_out.lines().all(|l| l.is_empty()
            || l.starts_with(' ')
            || l.starts_with("hook ")
            || l.starts_with("triggers of")
            || l.starts_with("entries of")),
        "a condition spills over a line:\n{skills_out}"
    );
    insta::assert_snapshot!("show_2024_skills", skills_out);

    let weather = ok(&fuba(&["rules", "show", "2024", "--table", "weather"]));
    // fuba-2024.txt A10 names six weathers and gives no dice: the table lists them by name,
    // Storm included (it comes only from wind or rain at half time; the kick-off double's
    // reading is the table `weather_double`).
    for w in ["Heat", "Sunshine", "Windy", "Rain", "Cold", "Storm"] {
        assert!(weather.contains(w), "{w} missing:\n{weather}");
    }
    insta::assert_snapshot!("show_2024_weather", weather);

    let options = ok(&fuba(&["rules", "show", "2024", "--options"]));
    for (o, chapter) in [
        ("condition", "A1"),
        ("advanced_formations", "A2"),
        ("substitutions", "A3"),
        ("charge", "A5"),
        ("aggressive_pressing", "A6"),
        ("offside_risk", "A7"),
        ("challenge", "A8"),
        ("slowing_down", "A9"),
        ("weather", "A10"),
        ("var", "A11"),
        ("skills", "A12"),
    ] {
        let line = options
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{o} ")))
            .unwrap_or_else(|| panic!("option {o} missing:\n{options}"));
        assert!(
            line.contains(&format!("{chapter}:")) || line.contains(&format!("{chapter} (")),
            "{o} is not {chapter}: {line}"
        );
    }
    insta::assert_snapshot!("show_2024_options", options);
}

/// An included file is part of the file that includes it, not a ruleset it extends.
#[test]
fn rules_show_tells_included_files_from_extended_rulesets() {
    let o = fuba(&[
        "rules",
        "show",
        "rulesets/examples/2024-var-no-weather.toml",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let line = text
        .lines()
        .find(|l| l.starts_with("layers: "))
        .expect("a layers line");
    assert!(
        line.starts_with(
            "layers: rulesets/examples/2024-var-no-weather.toml extends rulesets/2024.toml (including rulesets/2024/options.toml, "
        ),
        "{line}"
    );
    assert_eq!(line.matches(" extends ").count(), 1, "{line}");
}
