//! Type errors the checker gives so that the machine never reads a value of the wrong type:
//! a value of no single type (`none`, an `if` without `else` or whose branches differ) is
//! neither a boolean nor an integer, and a trigger's value (added to its hook's total) is
//! an integer or nothing; a procedure gives one type whether it returns or ends, and the
//! rows of a table one type. Each error is located in the file; the messages are snapshots.

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

/// A layer on the original edition with a procedure `probe` doing `code`.
fn with_procedure(code: &str) -> String {
    format!(
        "[meta]\nextends = \"original\"\nname = \"type-check\"\n\n[procedures.probe]\ndo = '''\n{code}\n'''\n"
    )
}

/// A layer on the original edition with a d6 table `probe` whose rows `1..3` and `4..6`
/// do `low` and `high`, and a trigger on `goal_attempt_modifier` doing `use`.
fn with_table(low: &str, high: &str, used: &str) -> String {
    format!(
        "[meta]\nextends = \"original\"\nname = \"type-check\"\n\n[tables.probe]\ndice = \"d6\"\n\n[tables.probe.rows]\n\"1..3\" = {{ label = \"low\", do = '{low}' }}\n\"4..6\" = {{ label = \"high\", do = '{high}' }}\n\n[triggers.probe]\nhook = \"goal_attempt_modifier\"\ndo = '''\n{used}\n'''\n"
    )
}

#[test]
fn a_procedure_that_returns_a_value_of_another_type_is_refused() {
    insta::assert_snapshot!(load(&with_procedure("if true { return true }\n1")));
    insta::assert_snapshot!(load(&with_procedure(
        "if true { return 1 } else { return ct }"
    )));
}

#[test]
fn a_procedure_that_ends_on_an_integer_may_not_return_alone() {
    insta::assert_snapshot!(load(&with_procedure("if true { return }\n1")));
}

#[test]
fn a_procedure_that_returns_a_value_may_not_end_without_one() {
    insta::assert_snapshot!(load(&with_procedure(
        "if true { return 1 }\nset finish_half = false"
    )));
    insta::assert_snapshot!(load(&with_procedure("if true { return 1 }")));
}

#[test]
fn a_procedure_gives_one_type_whether_it_returns_or_ends() {
    for code in [
        "if true { return 1 }\n2",
        "if true { return 1 } else { return 2 }",
        "return 3",
        "if true { return }\nset finish_half = false",
        "if true { return 1 }\nif true { 2 }",
    ] {
        assert_eq!(load(&with_procedure(code)), "loaded", "{code}");
    }
    // A procedure that leaves by a `return` gives that value's type.
    let called = with_procedure("return 3").replace(
        "[procedures.probe]",
        "[triggers.probe]\nhook = \"goal_attempt_modifier\"\ndo = 'probe() + 1'\n\n[procedures.probe]",
    );
    assert_eq!(load(&called), "loaded");
}

#[test]
fn a_table_whose_rows_differ_in_type_is_refused() {
    insta::assert_snapshot!(load(&with_table("1", "false", "probe[3]")));
}

#[test]
fn a_table_whose_rows_have_no_single_type_gives_no_integer() {
    assert_eq!(
        load(&with_table("1", "if true { 2 }", "let n = probe[3]\n0")),
        "loaded"
    );
    insta::assert_snapshot!(load(&with_table("1", "if true { 2 }", "probe[3] + 1")));
}
