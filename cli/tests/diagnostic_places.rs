//! Diagnostics name files a designer can open: an error in a built-in edition points at
//! the edition's file in the repository (`rulesets/2015.toml`) or the file it includes
//! (`rulesets/2024/skills.toml`), and every use of an entry a layer removed gets its
//! own located error.

mod common;

use common::{fuba, scratch, stderr};

/// `fuba rules check` of a layer over `edition` that removes `entries`; its stderr.
fn check_removal(edition: &str, entries: &str) -> String {
    let dir = scratch("places");
    let p = dir.join(format!("removes-{edition}.toml"));
    std::fs::write(
        &p,
        format!("remove = [{entries}]\n\n[meta]\nextends = \"{edition}\"\nname = \"removes\"\n"),
    )
    .expect("write layer");
    let o = fuba(&["rules", "check", &p.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    stderr(&o)
}

/// The places (`FILE:LINE:COL`) the errors point at, in order.
fn places(err: &str) -> Vec<String> {
    err.lines()
        .filter_map(|l| l.trim_start().strip_prefix("--> "))
        .map(str::to_string)
        .collect()
}

#[test]
fn an_error_in_a_built_in_edition_names_its_file() {
    let err = check_removal("2015", "\"constants.half_minutes\"");
    let at = places(&err);
    // Used twice: where each half starts and in the time stage.
    assert_eq!(at.len(), 2, "{err}");
    for p in &at {
        assert!(p.starts_with("rulesets/2015.toml:"), "{err}");
    }
    assert!(!err.contains("<2015>"), "{err}");
    // The file named is the one in the repository: the line shown is its line.
    let file = std::fs::read_to_string(common::workspace().join("rulesets/2015.toml"))
        .expect("read the edition");
    let line: usize = at[0]
        .split(':')
        .nth(1)
        .expect("line")
        .parse()
        .expect("a number");
    let text = file.lines().nth(line - 1).expect("the line");
    assert!(text.contains("half_minutes"), "{text}");
    assert!(err.contains(text), "{err}");
}

#[test]
fn every_use_of_a_removed_procedure_is_reported_in_the_file_that_holds_it() {
    let err = check_removal("2024", "\"procedures.twice\"");
    let at = places(&err);
    // `twice` is used twice in the edition's control check modifiers, in the offside
    // risk rule (an included file) and in skills: every use, in its own file.
    assert!(at.len() >= 3, "{err}");
    assert_eq!(
        err.matches("procedure `twice` was removed by a layer but is still used here")
            .count(),
        at.len(),
        "{err}"
    );
    let in_file = |f: &str| at.iter().filter(|p| p.starts_with(f)).count();
    assert_eq!(in_file("rulesets/2024.toml:"), 2, "{err}");
    assert_eq!(in_file("rulesets/2024/offside_risk.toml:"), 1, "{err}");
    assert!(!err.contains("<2024"), "{err}");
}
