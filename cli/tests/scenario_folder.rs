//! `fuba scenario DIR`: files in a scenario folder that are not scenarios (a ruleset copied
//! beside the scenarios that use it) are skipped with a note, not reported as scenarios
//! that could not run; located errors name the line and column.

mod common;

use common::{fuba, scratch, stdout, workspace};

#[test]
fn a_ruleset_beside_its_scenarios_is_skipped_with_a_note() {
    let dir = scratch("scenario-folder");
    let rules = workspace().join("rulesets/examples/gentle-long-pass.toml");
    let text = std::fs::read_to_string(&rules).expect("example ruleset");
    std::fs::write(dir.join("house.toml"), text).expect("write ruleset");
    let scenario =
        std::fs::read_to_string(workspace().join("tests/scenarios/original/control_check_1.toml"))
            .expect("scenario");
    std::fs::write(
        dir.join("check.toml"),
        scenario.replace("rules = \"original\"", "rules = \"house.toml\""),
    )
    .expect("write scenario");
    let o = fuba(&["scenario", &dir.display().to_string()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let house = dir.join("house.toml");
    assert!(
        out.contains(&format!(
            "SKIP {}: a ruleset ([meta]), not a scenario",
            house.display()
        )),
        "{out}"
    );
    assert!(
        out.contains("1 scenario: 1 passed, 0 failed, 0 could not run (1 other file skipped)"),
        "{out}"
    );
    // Named on its own, the ruleset is not skipped: it is refused as a scenario.
    let o = fuba(&["scenario", &house.display().to_string()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
}

#[test]
fn a_misspelt_name_is_shown_at_its_line_and_column() {
    let dir = scratch("scenario-located");
    let scenario =
        std::fs::read_to_string(workspace().join("tests/scenarios/original/control_check_1.toml"))
            .expect("scenario");
    let f = dir.join("misspelt.toml");
    std::fs::write(
        &f,
        scenario.replace(
            "modifiers = { \"control check\" = 1 }",
            "modifiers = { \"control chek\" = 1 }",
        ),
    )
    .expect("write scenario");
    let o = fuba(&["scenario", &f.display().to_string()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("expect.modifiers: the rules compute no modifier list `control chek`; did you mean `control check`?"),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.contains("control chek"))
        .unwrap_or_default();
    assert!(
        line.trim_start().starts_with(|c: char| c.is_ascii_digit()),
        "{line}"
    );
}
