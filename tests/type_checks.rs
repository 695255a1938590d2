//! Type errors the checker gives so that the machine never reads a value of the wrong type:
//! a value of no single type (`none`, an `if` without `else` or whose branches differ) is
//! neither a boolean nor an integer, and a trigger's value (added to its hook's total) is
//! an integer or nothing. Each error is located in the file; the messages are snapshots.

use fuba_engine::load::load_str;
use fuba_tests::{root, ruleset_path};

/// A layer on the original edition with one trigger on `goal_attempt_modifier` doing
/// `code`.
fn with_trigger(code: &str) -> String {
    format!(
        "[meta]\nextends = \"original\"\nname = \"type-check\"\n\n[triggers.probe]\nhook = \"goal_attempt_modifier\"\ndo = '''\n{code}\n'''\n"
    )
}

/// Loads `text` as a file beside the editions; its errors as text, or "loaded".
fn load(text: &str) -> String {
    match load_str(&ruleset_path("type-check"), text) {
        Ok(_) => "loaded".to_string(),
        Err(e) => e
            .to_string()
            .replace(&root().display().to_string(), "<repo>"),
    }
}

#[test]
fn a_condition_of_no_single_type_is_refused() {
    insta::assert_snapshot!(load(&with_trigger(
        "if if false { true } else { team } { 1 } else { 0 }"
    )));
}

#[test]
fn an_operand_of_no_single_type_is_refused() {
    insta::assert_snapshot!(load(&with_trigger("(if true { 1 }) + 1")));
}

#[test]
fn a_variable_set_to_a_value_of_no_single_type_is_refused() {
    insta::assert_snapshot!(load(&with_trigger("set finish_half = none\n0")));
    insta::assert_snapshot!(load(&with_trigger(
        "let n = 1\nset n = if true { 2 } else { team }\nn"
    )));
}

#[test]
fn a_trigger_that_ends_on_a_team_is_refused() {
    insta::assert_snapshot!(load(&with_trigger("let n = 1\nteam")));
}

#[test]
fn a_trigger_that_returns_a_team_is_refused() {
    insta::assert_snapshot!(load(&with_trigger("if true { return team }\n1")));
}

#[test]
fn a_trigger_whose_branches_mix_an_integer_and_a_flag_is_refused() {
    insta::assert_snapshot!(load(&with_trigger("if true { 1 } else { false }")));
}

#[test]
fn a_trigger_may_end_on_an_integer_or_on_nothing() {
    for code in [
        "1",
        "set finish_half = false",
        "if true { 2 }",
        "if true { 2 } else { set finish_half = false }",
        "match 3 { 1 => 2, _ => if false { 1 } }",
        "if false { return 4 }\n1",
    ] {
        assert_eq!(load(&with_trigger(code)), "loaded", "{code}");
    }
}
