//! Rule tooling: the lints of `fuba rules check`. Each lint has a fixture that raises it
//! (`tests/fixtures/lints/<lint>_bad.toml`) and a near-identical one that does not
//! (`<lint>_ok.toml`); the warnings of the first are snapshots. The editions check clean.

use fuba_engine::lint::LINTS;
use fuba_engine::load::load_file;
use fuba_tests::root;

fn fixture(name: &str) -> std::path::PathBuf {
    root().join("tests/fixtures/lints").join(name)
}

/// The rendered warnings of a fixture, paths made relative to the repository.
fn warnings(name: &str) -> (Vec<&'static str>, String) {
    let rs = load_file(&fixture(name)).unwrap_or_else(|e| panic!("{name} does not load:\n{e}"));
    let lints = rs.warnings.iter().filter_map(|d| d.lint).collect();
    let text = rs
        .warnings
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    let text = text
        .replace(
            &root().join("tests/fixtures/lints/").display().to_string(),
            "",
        )
        .replace(&root().display().to_string(), "<repo>");
    (lints, text)
}

#[test]
fn every_lint_fires_on_its_bad_fixture_and_not_on_its_ok_fixture() {
    for (lint, _) in LINTS {
        let (found, text) = warnings(&format!("{lint}_bad.toml"));
        assert!(
            found.contains(lint),
            "{lint}_bad.toml does not raise {lint}; it raises {found:?}:\n{text}"
        );
        insta::assert_snapshot!(format!("lint_{lint}"), text);
        let (found, text) = warnings(&format!("{lint}_ok.toml"));
        assert!(found.is_empty(), "{lint}_ok.toml raises warnings:\n{text}");
    }
}

#[test]
fn every_fixture_belongs_to_a_lint() {
    let dir = root().join("tests/fixtures/lints");
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{e}")) {
        let name = entry
            .unwrap_or_else(|e| panic!("{e}"))
            .file_name()
            .to_string_lossy()
            .into_owned();
        let lint = name
            .strip_suffix("_bad.toml")
            .or_else(|| name.strip_suffix("_ok.toml"));
        assert!(
            lint.is_some_and(|l| LINTS.iter().any(|(n, _)| *n == l)),
            "{name} is not <lint>_bad.toml or <lint>_ok.toml of a known lint"
        );
    }
}

#[test]
fn the_editions_check_clean() {
    let dir = root().join("rulesets");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{e}")) {
        let p = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if p.extension().is_some_and(|x| x == "toml") {
            let rs = load_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let text: Vec<String> = rs.warnings.iter().map(ToString::to_string).collect();
            assert!(
                text.is_empty(),
                "{} has warnings:\n{}",
                p.display(),
                text.join("\n")
            );
            n += 1;
        }
    }
    assert!(n >= 1);
}

/// For every modifier list of seeded matches, the rows that held add up to the logged
/// total, and a row that did not hold added nothing: `fuba explain` shows true sums.
#[test]
fn modifier_rows_add_up_to_the_logged_total() {
    use fuba_engine::agent::RandomAgent;
    use fuba_engine::dice::SeededDice;
    use fuba_engine::game::Game;
    use fuba_engine::log::EventKind;
    let rulesets = [
        root().join("rulesets/original.toml"),
        root().join("rulesets/examples/home-advantage.toml"),
    ];
    for path in rulesets {
        let rs = load_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let mut lists = 0;
        for seed in 1..=5u64 {
            let mut m = Game::new(
                &rs,
                seed,
                Box::new(SeededDice::new(seed)),
                Box::new(RandomAgent::new(seed, 0)),
                Box::new(RandomAgent::new(seed ^ 0x55, 1)),
            )
            .with_log();
            m.play().unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
            for e in m.events() {
                if let EventKind::Modifiers { name, rows, total } = &e.kind {
                    lists += 1;
                    let sum: i64 = rows.iter().filter(|r| r.applied).map(|r| r.value).sum();
                    assert_eq!(sum, *total, "seed {seed}, event {} ({name})", e.seq);
                    for r in rows.iter().filter(|r| !r.applied) {
                        assert_eq!(r.value, 0, "seed {seed}, event {}: {}", e.seq, r.label);
                    }
                    assert!(!e.rule.is_empty(), "event {} names no rule", e.seq);
                }
            }
        }
        assert!(
            lists > 50,
            "{}: only {lists} modifier lists",
            path.display()
        );
    }
}
