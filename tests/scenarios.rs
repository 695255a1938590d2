//! Runs every scenario under tests/scenarios/ (format: docs/scenarios.md).

use std::path::{Path, PathBuf};

use fuba_engine::ruleset::load_str_options;
use fuba_engine::scenario::Scenario;
use fuba_tests::{root, ruleset_path};

fn scenario_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            scenario_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "toml") {
            out.push(p);
        }
    }
}

/// Runs one scenario and records its failures.
fn report(s: &Scenario, f: &Path, rs: &fuba_engine::ruleset::Ruleset, failed: &mut Vec<String>) {
    match s.run(rs) {
        Ok(r) if r.passed() => {}
        Ok(r) => failed.push(format!(
            "{} ({}):\n  {}\n  narration:\n    {}",
            f.display(),
            r.name,
            r.failures.join("\n  "),
            r.narration.join("\n    ")
        )),
        Err(e) => failed.push(format!("{e}")),
    }
}

#[test]
fn every_scenario_passes() {
    let mut files = Vec::new();
    scenario_files(&root().join("tests/scenarios"), &mut files);
    assert!(!files.is_empty(), "no scenarios found");
    let mut failed = Vec::new();
    // Each ruleset (with its options) is loaded once.
    let mut loaded: std::collections::HashMap<String, fuba_engine::ruleset::Ruleset> =
        Default::default();
    for f in &files {
        let s = match Scenario::load(f) {
            Ok(s) => s,
            Err(e) => {
                failed.push(format!("{e}"));
                continue;
            }
        };
        let rules_path = s.rules_path().unwrap_or_else(|| ruleset_path(&s.rules));
        let key = format!("{} {:?}", rules_path.display(), s.option_pairs());
        if let Some(rs) = loaded.get(&key) {
            report(&s, f, rs, &mut failed);
            continue;
        }
        let text = match std::fs::read_to_string(&rules_path) {
            Ok(t) => t,
            Err(e) => {
                failed.push(format!(
                    "{}: cannot read {}: {e}",
                    f.display(),
                    rules_path.display()
                ));
                continue;
            }
        };
        let rs = match load_str_options(&rules_path, &text, &|_| None, &s.option_pairs()) {
            Ok(r) => r,
            Err(e) => {
                failed.push(format!("{}: rules do not load:\n{e}", f.display()));
                continue;
            }
        };
        report(&s, f, &rs, &mut failed);
        loaded.insert(key, rs);
    }
    assert!(
        failed.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failed.len(),
        files.len(),
        failed.join("\n\n")
    );
}
