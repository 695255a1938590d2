//! The designer's guide (`docs/house-rules.md`) stays true: every TOML example it quotes is
//! the text of the house rule file it names, every house rule it names loads with no
//! warning and plays seeded matches to the end, and every command it shows names files
//! that exist.

use std::path::PathBuf;

use fuba_engine::load::load_file;
use fuba_tests::{Agents, root, seeded_match};

/// The fenced blocks of the guide: (language, lines).
fn blocks() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("docs/house-rules.md")).expect("the guide");
    let mut out = Vec::new();
    let mut open: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(lang)) => open = Some((lang.trim().to_string(), Vec::new())),
            (Some(_), Some(_)) => out.extend(open.take()),
            (Some((_, lines)), None) => lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a block of the guide is not closed");
    out
}

/// The house rule file a TOML example quotes (its first line, `# rulesets/...`).
fn quoted_file(lines: &[String]) -> PathBuf {
    let first = lines.first().map(String::as_str).unwrap_or_default();
    let path = first
        .strip_prefix("# ")
        .filter(|p| p.starts_with("rulesets/") && p.ends_with(".toml"))
        .unwrap_or_else(|| {
            panic!("a TOML example must start with `# rulesets/FILE.toml`: {first:?}")
        });
    root().join(path)
}

#[test]
fn every_example_of_the_guide_is_the_text_of_its_file() {
    let mut checked = 0;
    for (lang, lines) in blocks().into_iter().filter(|(l, _)| l == "toml") {
        let file = quoted_file(&lines);
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{}: {e} ({lang} example)", file.display()));
        let quoted = lines[1..].join("\n");
        assert!(
            text.contains(&quoted),
            "the guide quotes {} as\n{quoted}\nbut the file says otherwise",
            file.display()
        );
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} examples in the guide");
}

#[test]
fn every_house_rule_of_the_guide_loads_clean_and_plays() {
    let mut files: Vec<PathBuf> = blocks()
        .iter()
        .filter(|(l, _)| l == "toml")
        .map(|(_, lines)| quoted_file(lines))
        .collect();
    files.sort();
    files.dedup();
    for file in files {
        let rs = load_file(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let warnings: Vec<String> = rs.warnings.iter().map(|w| w.to_string()).collect();
        assert!(warnings.is_empty(), "{}: {warnings:?}", file.display());
        for seed in 1..=3 {
            let mut m = seeded_match(&rs, seed, Agents::Random);
            m.play()
                .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", file.display()));
        }
    }
}

#[test]
fn every_command_of_the_guide_names_files_that_exist() {
    let mut commands = 0;
    for (_, lines) in blocks().into_iter().filter(|(l, _)| l == "sh") {
        for line in lines.iter().filter(|l| l.starts_with("fuba ")) {
            commands += 1;
            for word in line.split_whitespace().filter(|w| w.ends_with(".toml")) {
                assert!(root().join(word).is_file(), "`{line}`: no file {word}");
            }
        }
    }
    assert!(commands >= 2, "only {commands} commands in the guide");
}
