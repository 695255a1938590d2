//! Issue 18's "done when", end to end: `fuba simulate` of the house rule that adds a 2024
//! skill in one entry lists the skill under "skills played by skill"; `fuba rules check`
//! of a layer with only a trigger naming a skill the edition lacks fails, at the name.

mod common;

use common::{fuba, ok, stderr, stdout};

#[test]
fn simulate_plays_the_skill_a_layer_adds() {
    let out = ok(&fuba(&[
        "simulate",
        "--rules",
        "rulesets/examples/2024-tempo-dictator.toml",
        "--games",
        "20",
        "--seed",
        "1",
        "--option",
        "condition=on",
        "--option",
        "skills=4",
    ]));
    let by_skill = out
        .split_once("skills played by skill:")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no skills by skill:\n{out}"));
    let listed: Vec<&str> = by_skill
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert!(
        listed
            .iter()
            .any(|l| l.trim_start().starts_with("Tempo dictator ")),
        "Tempo dictator is not listed:\n{}",
        listed.join("\n")
    );
}

#[test]
fn rules_check_refuses_a_trigger_naming_an_unknown_skill() {
    // The layer of the loader's test too (tests/collections.rs).
    let path =
        common::workspace().join("tests/fixtures/collections/trigger_only_unknown_skill.toml");
    let p = path.display().to_string();
    let o = fuba(&["rules", "check", &p, "--deny", "warnings"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let text = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        text.contains("`skillset` has no entry \"Tempo dictator\"")
            && text.contains("trigger_only_unknown_skill.toml:8:27"),
        "{text}"
    );
}
