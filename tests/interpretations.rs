//! Every reading of the rulebook a ruleset makes is written down in
//! `docs/interpretations.md`. This scans each ruleset file for `[procedures.NAME]` tables
//! with an `interpretation = ...` key and fails when a procedure is not named there (as
//! `` `NAME` ``), so a new reading cannot be added without documenting it.
//!
//! The ruleset is scanned as text (the `toml` crate is not a dependency of the tests):
//! a table header is a line `[...]` outside a multi-line string.

use std::path::Path;

/// Names of the procedures that carry an `interpretation` key, in file order.
fn procedures_with_interpretation(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_multiline = false;
    let mut current: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if !in_multiline && trimmed.starts_with('[') && trimmed.ends_with(']') {
            let header = trimmed.trim_start_matches('[').trim_end_matches(']').trim();
            current = header
                .strip_prefix("procedures.")
                .filter(|n| !n.is_empty() && !n.contains('.'))
                .map(str::to_string);
        } else if !in_multiline
            && trimmed.starts_with("interpretation")
            && trimmed["interpretation".len()..]
                .trim_start()
                .starts_with('=')
        {
            if let Some(name) = &current {
                if !found.contains(name) {
                    found.push(name.clone());
                }
            }
        }
        // A line with an odd number of `'''` (or `"""`) opens or closes a multi-line string.
        let delimiters = line.matches("'''").count() + line.matches("\"\"\"").count();
        if delimiters % 2 == 1 {
            in_multiline = !in_multiline;
        }
    }
    found
}

/// The procedures with an interpretation that the document does not name.
fn undocumented(ruleset: &str, doc: &str) -> Vec<String> {
    procedures_with_interpretation(ruleset)
        .into_iter()
        .filter(|name| !doc.contains(&format!("`{name}`")))
        .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_interpretation_of_the_original_edition_is_documented() {
    let root = fuba_tests::root();
    let ruleset = read(&fuba_tests::ruleset_path("original"));
    let doc = read(&root.join("docs/interpretations.md"));
    let names = procedures_with_interpretation(&ruleset);
    assert!(
        names.len() >= 10,
        "the scanner found too few interpretations in rulesets/original.toml: {names:?}"
    );
    let missing = undocumented(&ruleset, &doc);
    assert!(
        missing.is_empty(),
        "procedures of rulesets/original.toml with an `interpretation` that docs/interpretations.md \
         does not name (write an entry mentioning `NAME`):\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_ruleset_file_has_its_interpretations_documented() {
    let root = fuba_tests::root();
    let doc = read(&root.join("docs/interpretations.md"));
    let dir = root.join("rulesets");
    // The edition files and the fragment files they include (one folder down).
    let list = |d: &std::path::Path| -> Vec<std::path::PathBuf> {
        std::fs::read_dir(d)
            .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect()
    };
    let mut files: Vec<_> = list(&dir)
        .into_iter()
        .flat_map(|p| if p.is_dir() { list(&p) } else { vec![p] })
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no ruleset under {}", dir.display());
    let mut missing = Vec::new();
    for f in &files {
        for name in undocumented(&read(f), &doc) {
            missing.push(format!("{}: {name}", f.display()));
        }
    }
    assert!(
        missing.is_empty(),
        "interpretations not named in docs/interpretations.md:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scanner_finds_what_it_should() {
    let text = r#"
[procedures.plain]
do = 'x'

[procedures.read_one]
section = "4.4"
interpretation = "A reading."
do = '''
[procedures.inside_a_string]
interpretation = "not a key"
'''

[procedures.read_after_body]
do = '''
let a = [1, 2]
'''
interpretation   = "Written after the body."

[procedures.read_one.extra]
interpretation = "a sub-table is not a procedure"

[tables.t]
interpretation = "not a procedure"

[procedures.no_reading]
interpretations_elsewhere = 1
do = 'y'
"#;
    assert_eq!(
        procedures_with_interpretation(text),
        ["read_one", "read_after_body"]
    );
    assert_eq!(
        undocumented(text, "see `read_one` and read_after_body"),
        ["read_after_body"]
    );
}
