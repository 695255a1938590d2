//! Runs every scenario under tests/scenarios/ (format: docs/scenarios.md).

use std::path::{Path, PathBuf};

use fuba_engine::ruleset::load_file;
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

#[test]
fn every_scenario_passes() {
    let mut files = Vec::new();
    scenario_files(&root().join("tests/scenarios"), &mut files);
    assert!(!files.is_empty(), "no scenarios found");
    let mut failed = Vec::new();
    for f in &files {
        let s = match Scenario::load(f) {
            Ok(s) => s,
            Err(e) => {
                failed.push(format!("{e}"));
                continue;
            }
        };
        let rules_path = s.rules_path().unwrap_or_else(|| ruleset_path(&s.rules));
        let rs = match load_file(&rules_path) {
            Ok(r) => r,
            Err(e) => {
                failed.push(format!("{}: rules do not load:\n{e}", f.display()));
                continue;
            }
        };
        match s.run(&rs) {
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
    assert!(
        failed.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failed.len(),
        files.len(),
        failed.join("\n\n")
    );
}
