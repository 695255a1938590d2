//! The layers' merge on small layers: what a layer replaces, adds and removes, and that
//! every span is an offset into the layers laid end to end.

use std::path::{Path, PathBuf};

use super::{Merged, merged};
use crate::ruleset::diag::LoadErrors;

/// Two layers, bottom first, merged as `load` merges them.
fn two(bottom: &str, top: &str) -> Result<Merged, LoadErrors> {
    let chain = vec![
        (PathBuf::from("bottom.toml"), bottom.to_string()),
        (PathBuf::from("top.toml"), top.to_string()),
    ];
    merged(Path::new("top.toml"), &chain)
}

const BOTTOM: &str = r#"
[constants]
goal = 1
[procedures.kick]
do = 'goal'
[procedures.pass]
do = '2'
[tables.mood]
dice = "d6"
rows."1..3" = { label = "calm", do = '0' }
rows."4..6" = { label = "restless", do = '1' }
"#;

#[test]
fn a_layer_replaces_adds_and_keeps_the_order_of_the_one_below() {
    let top = r#"
[constants]
goal = 2
extra = 5
[procedures.kick]
do = 'goal + 1'
[procedures.shoot]
do = '3'
"#;
    let (file, raw, removed) = two(BOTTOM, top).expect("merges");
    assert!(removed.is_empty());
    let procs: Vec<&str> = raw.procedures.keys().map(String::as_str).collect();
    assert_eq!(
        procs,
        ["kick", "pass", "shoot"],
        "replaced in place, added at the end"
    );
    assert_eq!(raw.procedures["kick"].body.get_ref(), "goal + 1");
    assert_eq!(raw.procedures["pass"].body.get_ref(), "2");
    assert_eq!(raw.constants["goal"].get_ref().as_integer(), Some(2));
    assert_eq!(raw.constants["extra"].get_ref().as_integer(), Some(5));
    // The replacing body's span points into the top layer's text within the whole.
    let span = raw.procedures["kick"].body.span();
    let top_start = file.layers[1].1;
    assert!(span.start > top_start, "{span:?} after {top_start}");
    assert_eq!(&file.text[span.start + 1..span.end - 1], "goal + 1");
}

#[test]
fn table_rows_merge_key_by_key() {
    let top = r#"
[tables.mood]
rows."4..6" = { label = "wild", do = '2' }
"#;
    let (_, raw, _) = two(BOTTOM, top).expect("merges");
    let t = &raw.tables["mood"];
    assert_eq!(
        t.dice.as_ref().map(|d| d.get_ref().as_str()),
        Some("d6"),
        "kept from below"
    );
    let labels: Vec<&str> = t
        .rows
        .values()
        .map(|r| r.get_ref().label.as_str())
        .collect();
    assert_eq!(labels, ["calm", "wild"]);
}

#[test]
fn remove_takes_entries_out_and_remembers_where() {
    let top = r#"
remove = ["procedures.pass", "tables.mood.rows.1..3", "constants.goal"]
"#;
    let (file, raw, removed) = two(BOTTOM, top).expect("merges");
    assert!(!raw.procedures.contains_key("pass"));
    assert!(raw.procedures.contains_key("kick"));
    assert!(!raw.constants.contains_key("goal"));
    let rows: Vec<&str> = raw.tables["mood"].rows.keys().map(String::as_str).collect();
    assert_eq!(rows, ["4..6"]);
    let (start, end) = removed["procedures.pass"];
    assert_eq!(&file.text[start..end], "\"procedures.pass\"");
    assert_eq!(removed.len(), 3);
}

#[test]
fn removing_what_is_not_below_is_an_error_at_the_entry() {
    let top = r#"remove = ["procedures.dribble", "nonsense"]"#;
    let errors = two(BOTTOM, top).expect_err("refused").0;
    assert_eq!(errors.len(), 2, "each entry its own error");
    assert_eq!(
        errors[0].message,
        "`procedures.dribble` is not in the ruleset this file extends"
    );
    let (start, end) = errors[0].span.expect("placed");
    assert_eq!(
        &errors[0].file.as_ref().expect("file").text[start..end],
        "\"procedures.dribble\""
    );
    assert!(
        errors[1].message.contains("`nonsense`"),
        "{}",
        errors[1].message
    );
}

#[test]
fn a_toml_error_in_a_layer_names_its_place_in_that_layer() {
    let top = "[constants]\ngoal = = 2\n";
    let errors = two(BOTTOM, top).expect_err("refused").0;
    assert_eq!(errors.len(), 1);
    let text = errors[0].to_string();
    assert!(text.contains("top.toml:2:"), "{text}");
}
